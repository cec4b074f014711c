// What both storage backends derive from a stored match or tournament for players' profiles
// (match_stats.hpp; docs/protocol.md "Profiles"). A match's numbers come from its record,
// replayed by the records library (the rules engine decides the declarer, the bid and whether
// it was made; nothing is re-derived).
#include "match_stats.hpp"

#include <array>
#include <cstdint>

#include "tarneeb/records/record.hpp"

namespace tarneeb::server {

std::array<SeatStats, 4> seat_stats(const std::string& record) {
    std::array<SeatStats, 4> out{};
    const nlohmann::json result = records::result_json(records::replay(record));
    if (!result.contains("deals") || !result["deals"].is_array()) return out;
    for (const auto& deal : result["deals"]) {
        const int dealer = deal.value("dealer", 0);
        if (const auto a = deal.find("auction"); a != deal.end() && a->is_array())
            for (std::size_t i = 0; i < a->size(); ++i)
                if ((*a)[i].is_number_integer()) {
                    auto& s = out[static_cast<std::size_t>((dealer + 1 + static_cast<int>(i)) % 4)];
                    ++s.bids;
                    s.bid_sum += (*a)[i].get<std::int64_t>();
                }
        const auto declarer = deal.find("declarer");
        const auto made = deal.find("made");
        if (declarer == deal.end() || !declarer->is_number_integer() || made == deal.end() || !made->is_boolean()) continue;
        auto& s = out[static_cast<std::size_t>(declarer->get<int>() & 3)];
        ++s.contracts;
        if (made->get<bool>()) ++s.made;
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
