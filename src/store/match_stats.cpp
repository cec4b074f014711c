// What both storage backends derive for players' profiles (match_stats.hpp, seat_stats.hpp;
// docs/protocol.md "Profiles"): a match's numbers for each seat, from its Match (the rules
// engine decides the declarer, the bid and whether it was made; nothing is re-derived), and a
// tournament's entry on a profile.
#include "match_stats.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tarneeb::server {

std::array<SeatStats, 4> seat_stats(const Match& match) {
    std::array<SeatStats, 4> out{};
    for (const Round& r : match.rounds()) {
        const auto calls = r.calls();
        for (std::size_t i = 0; i < calls.size(); ++i) {
            if (calls[i] == 0) continue;  // a pass
            // Call i's seat: the auction starts after the dealer (as SeatView::caller).
            auto& s = out[static_cast<std::size_t>(index(next(r.dealer(), 1 + static_cast<int>(i))))];
            ++s.bids;
            s.bid_sum += calls[i];
        }
        if (!r.has_contract() || r.phase() != Phase::scored) continue;
        auto& s = out[static_cast<std::size_t>(index(r.contract()->declarer))];
        ++s.contracts;
        if (r.made()) ++s.made;
    }
    return out;
}

std::optional<nlohmann::json> profile_tournament(const std::string& name, const nlohmann::json& state) {
    using nlohmann::json;
    if (!state.is_object() || !state.contains("teams") || !state["teams"].is_array()) return std::nullopt;
    const auto& teams = state["teams"];
    for (std::size_t i = 0; i < teams.size(); ++i) {
        const json players = teams[i].value("players", json::array());
        if (std::find(players.begin(), players.end(), json(name)) == players.end()) continue;
        const json settings = state.value("settings", json::object());
        const json champion = state.value("champion", json());
        return json{{"id", state.value("id", "")}, {"name", settings.value("name", "")},
                    {"format", settings.value("format", "")}, {"state", state.value("state", "")},
                    {"partner", players.size() == 2 ? players[players[0] == name ? 1 : 0] : json(nullptr)},
                    {"champion", champion.is_number() && champion.get<std::size_t>() == i}};
    }
    return std::nullopt;
}

}  // namespace tarneeb::server
