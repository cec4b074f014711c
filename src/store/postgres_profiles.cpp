// PostgresStorage, players' profiles (issue 15; include/tarneeb/store/storage.hpp "profiles";
// the contract of sqlite_profiles.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "match_stats.hpp"
#include "postgres_tx.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;
using pg_detail::winner_json;

std::optional<nlohmann::json> PostgresStorage::player_profile(const std::string& name) {
    using nlohmann::json;
    return transact(*conn_, [&](Tx& w) -> std::optional<json> {
        json profile;
        {
            const auto p = w.exec_params("SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players WHERE name = $1", name);
            if (p.empty()) return std::nullopt;
            profile = {{"name", p[0][0].as<std::string>()}, {"registered", p[0][4].as<bool>()},
                       {"rating", std::round(p[0][1].as<double>() * 10) / 10}, {"matches", p[0][2].as<std::int64_t>()},
                       {"wins", p[0][3].as<std::int64_t>()}};
        }
        {
            // Every match counts here, public or private: totals tell no match apart.
            const auto a = w.exec_params("SELECT COALESCE(SUM(bids), 0)::BIGINT, COALESCE(SUM(bid_sum), 0)::BIGINT,"
                                         " COALESCE(SUM(contracts), 0)::BIGINT, COALESCE(SUM(made), 0)::BIGINT"
                                         " FROM player_match_stats WHERE name = $1",
                                         name);
            const auto bids = a[0][0].as<std::int64_t>(), sum = a[0][1].as<std::int64_t>();
            profile["contracts"] = {{"bid", a[0][2].as<std::int64_t>()}, {"made", a[0][3].as<std::int64_t>()}};
            profile["bids"] = bids;
            profile["average_bid"] = bids > 0 ? json(std::round(static_cast<double>(sum) / static_cast<double>(bids) * 100) / 100)
                                              : json(nullptr);
        }
        {
            // Public matches only: a private table's match is not shown, not even as a date.
            auto points = json::array();
            for (const auto& h : w.exec_params("SELECT s.match_id, m.finished, s.rating FROM player_match_stats s"
                                               " JOIN matches m ON m.id = s.match_id"
                                               " WHERE s.name = $1 AND NOT m.private AND s.rating IS NOT NULL"
                                               " ORDER BY m.finished DESC, m.seq DESC LIMIT $2",
                                               name, kProfileHistory))
                points.push_back({{"match", h[0].as<std::string>()}, {"finished", h[1].as<std::int64_t>()},
                                  {"rating", std::round(h[2].as<double>() * 10) / 10}});
            std::reverse(points.begin(), points.end());
            profile["rating_history"] = std::move(points);
        }
        {
            auto list = json::array();
            for (const auto& m : w.exec_params("SELECT m.id, m.table_id, m.finished, m.rules, p.seat, m.status, m.winner,"
                                               " m.score0, m.score1 FROM match_players p JOIN matches m ON m.id = p.match_id"
                                               " WHERE p.name = $1 AND NOT p.bot AND NOT m.private"
                                               " ORDER BY m.finished DESC, m.seq DESC LIMIT $2",
                                               name, kProfileMatches)) {
                const auto id = m[0].as<std::string>();
                auto players = json::array();
                for (const auto& p : w.exec_params("SELECT name FROM match_players WHERE match_id = $1 ORDER BY seat", id))
                    players.push_back(p[0].as<std::string>());
                const auto seat = m[4].as<std::int64_t>(), winner = m[6].as<std::int64_t>();
                const auto status = m[5].as<std::string>();
                list.push_back({{"id", id}, {"table", m[1].as<std::string>()}, {"finished", m[2].as<std::int64_t>()},
                                {"rules", m[3].as<std::string>()}, {"seat", seat}, {"players", std::move(players)},
                                {"status", status}, {"winner", winner_json(winner)},
                                {"scores", {m[7].as<std::int64_t>(), m[8].as<std::int64_t>()}},
                                {"won", status == "won" && winner == seat % 2}});
            }
            profile["recent_matches"] = std::move(list);
        }
        // The tournaments the player entered, newest first (sqlite_profiles.cpp).
        auto tournaments = json::array();
        for (const auto& t : w.exec_params("SELECT state FROM tournaments ORDER BY n DESC LIMIT $1", kProfileTournamentScan)) {
            if (tournaments.size() >= static_cast<std::size_t>(kProfileTournaments)) break;
            if (auto entry = profile_tournament(name, json::parse(t[0].as<std::string>(), nullptr, /*allow_exceptions=*/false)))
                tournaments.push_back(std::move(*entry));
        }
        profile["tournaments"] = std::move(tournaments);
        return profile;
    });
}

}  // namespace tarneeb::server
