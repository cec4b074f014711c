// The rating-pattern report (include/tarneeb/store/rating_patterns.hpp).
#include "tarneeb/store/rating_patterns.hpp"

#include <algorithm>
#include <map>

namespace tarneeb::server {

namespace {
struct Counts {
    PlayerPatterns p;
    std::map<std::string, std::pair<int, int>> against;  ///< private: opponent → (wins, losses)
    std::map<std::string, int> met;                      ///< private: opponent → matches
};
}  // namespace

std::vector<PlayerPatterns> rating_patterns(const std::vector<RatedMatch>& matches, const PatternLimits& limits) {
    std::map<std::string, Counts> by_name;
    for (const RatedMatch& m : matches) {
        for (std::size_t s = 0; s < 4; ++s) {
            const std::string& name = m.names[s];
            if (name.empty()) continue;
            Counts& c = by_name[name];
            c.p.name = name;
            ++c.p.matches;
            const int team = static_cast<int>(s % 2);
            const bool lost = m.winner >= 0 && m.winner != team;
            const bool won = m.winner == team;
            if (lost) {
                ++c.p.losses;
                if (m.deals <= limits.short_deals) ++c.p.short_losses;
            }
            if (!m.is_private) continue;
            ++c.p.private_matches;
            for (std::size_t o = 1 - s % 2; o < 4; o += 2) {
                const std::string& other = m.names[o];
                if (other.empty()) continue;
                ++c.met[other];
                auto& [w, l] = c.against[other];
                w += won;
                l += lost;
            }
        }
    }
    std::vector<PlayerPatterns> out;
    for (auto& [name, c] : by_name) {
        PlayerPatterns& p = c.p;
        for (const auto& [other, n] : c.met)
            if (n > p.meetings) {
                p.opponent = other;
                p.meetings = n;
                std::tie(p.wins_against, p.losses_against) = c.against[other];
            }
        if (p.short_losses >= limits.min_short_losses && p.short_losses >= limits.short_loss_share * p.losses)
            p.flags.emplace_back("short_losses");
        if (p.meetings >= limits.min_meetings && p.meetings >= limits.meeting_share * p.private_matches &&
            std::max(p.wins_against, p.losses_against) >= limits.one_sided * p.meetings)
            p.flags.emplace_back("same_opponent");
        out.push_back(std::move(p));
    }
    std::stable_sort(out.begin(), out.end(), [](const PlayerPatterns& a, const PlayerPatterns& b) {
        if (a.flags.empty() != b.flags.empty()) return !a.flags.empty();
        return a.matches > b.matches;
    });
    return out;
}

nlohmann::json rating_patterns_json(const std::vector<PlayerPatterns>& players, std::size_t matches_read) {
    auto list = nlohmann::json::array();
    int flagged = 0;
    for (const auto& p : players) {
        flagged += !p.flags.empty();
        list.push_back({{"name", p.name}, {"matches", p.matches}, {"losses", p.losses}, {"short_losses", p.short_losses},
                        {"private_matches", p.private_matches}, {"opponent", p.opponent}, {"meetings", p.meetings},
                        {"wins_against", p.wins_against}, {"losses_against", p.losses_against}, {"flags", p.flags}});
    }
    return {{"players", std::move(list)}, {"flagged", flagged}, {"matches", matches_read}};
}

}  // namespace tarneeb::server
