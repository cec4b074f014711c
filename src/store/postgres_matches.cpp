// PostgresStorage, finished matches and ratings (include/tarneeb/store/storage.hpp "matches and
// ratings"): store_match applies the rating rule (rating.hpp) in its transaction, and writes
// each human seat's profile numbers (the row's: seat_stats.hpp); the match lists, analyses and the
// leaderboard.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "postgres_tx.hpp"
#include "tarneeb/store/rating.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;
using pg_detail::winner_json;

double PostgresStorage::rating(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("SELECT rating FROM players WHERE name = $1", name);
        return r.empty() ? kStartRating : r[0][0].as<double>();
    });
}

bool PostgresStorage::store_match(const MatchRow& row) {
    return transact(*conn_, [&](Tx& w) {
        const auto ins = w.exec_params(
            "INSERT INTO matches(id, table_id, finished, status, winner, score0, score1, record, private, rules, rated)"
            " VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING",
            row.id, row.table, row.finished_ms, row.status, row.winner, row.scores[0], row.scores[1], row.record,
            row.is_private, row.rules, counts_for_ratings(row));
        if (ins.affected_rows() != 1) return false;  // already stored: commit nothing
        for (int s = 0; s < 4; ++s)
            w.exec_params("INSERT INTO match_players(match_id, name, seat, bot) VALUES($1, $2, $3, $4)", row.id,
                          row.names[static_cast<std::size_t>(s)], s, row.bots[static_cast<std::size_t>(s)]);
        // The human players' rows, locked in name order (two matches stored at once by two
        // nodes cannot deadlock), so that each rating change starts from the current rating.
        std::map<std::string, double> ratings;
        for (std::size_t s = 0; s < 4; ++s)
            if (!row.bots[s]) ratings.emplace(row.names[s], kStartRating);
        for (auto& [name, r] : ratings) {
            const auto got = w.exec_params("SELECT rating FROM players WHERE name = $1 FOR UPDATE", name);
            if (!got.empty()) r = got[0][0].as<double>();
        }
        std::array<double, 4> before{};
        for (std::size_t s = 0; s < 4; ++s) before[s] = row.bots[s] ? kBotRating : ratings[row.names[s]];
        const auto change = seat_ratings(row, before);
        for (std::size_t s = 0; s < 4; ++s)
            if (change[s].rated)
                w.exec_params("UPDATE players SET rating = rating + $1, matches = matches + 1, wins = wins + $2 WHERE name = $3",
                              change[s].rating, change[s].won ? 1 : 0, row.names[s]);
        // Profiles (seat_stats.hpp, sqlite_profiles.cpp): each human seat's numbers (the row's) and
        // its rating after the match.
        for (std::size_t seat = 0; seat < 4; ++seat) {
            if (row.bots[seat]) continue;
            const SeatStats& s = row.stats[seat];
            const auto now = w.exec_params("SELECT rating FROM players WHERE name = $1", row.names[seat]);
            const double rating_after = now.empty() ? kStartRating : now[0][0].as<double>();
            w.exec_params("INSERT INTO player_match_stats(match_id, seat, name, bids, bid_sum, contracts, made, rating)"
                          " VALUES($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                          row.id, static_cast<int>(seat), row.names[seat], s.bids, s.bid_sum, s.contracts, s.made, rating_after);
        }
        return true;
    });
}

std::optional<std::string> PostgresStorage::match_record(const std::string& id) {
    return transact(*conn_, [&](Tx& w) -> std::optional<std::string> {
        const auto r = w.exec_params("SELECT record FROM matches WHERE id = $1", id);
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    });
}

std::optional<std::string> PostgresStorage::match_analysis(const std::string& id, int deal) {
    return transact(*conn_, [&](Tx& w) -> std::optional<std::string> {
        const auto r = w.exec_params("SELECT analysis FROM match_analysis WHERE match_id = $1 AND deal = $2", id, deal);
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    });
}

void PostgresStorage::store_analysis(const std::string& id, int deal, std::string_view analysis) {
    transact(*conn_, [&](Tx& w) {
        w.exec_params("INSERT INTO match_analysis(match_id, deal, analysis) VALUES($1, $2, $3)"
                      " ON CONFLICT (match_id, deal) DO UPDATE SET analysis = EXCLUDED.analysis",
                      id, deal, std::string(analysis));
    });
}

bool PostgresStorage::match_readable(const std::string& id, const std::optional<std::string>& viewer) {
    return transact(*conn_, [&](Tx& w) {
        const auto m = w.exec_params("SELECT private FROM matches WHERE id = $1", id);
        if (m.empty()) return false;
        if (!m[0][0].as<bool>()) return true;
        if (!viewer) return false;
        return !w.exec_params("SELECT 1 FROM match_players WHERE match_id = $1 AND name = $2 AND NOT bot", id, *viewer).empty();
    });
}

nlohmann::json PostgresStorage::player_matches(const std::string& name, bool with_private, int limit) {
    return transact(*conn_, [&](Tx& w) {
        auto list = nlohmann::json::array();
        for (const auto& s : w.exec_params(
                 "SELECT m.id, m.table_id, m.finished, p.seat, m.status, m.winner, m.score0, m.score1, m.private, m.rated"
                 " FROM match_players p JOIN matches m ON m.id = p.match_id WHERE p.name = $1 AND NOT p.bot"
                 " AND (NOT m.private OR $2) ORDER BY m.finished DESC, m.id COLLATE \"C\" DESC LIMIT $3",
                 name, with_private, limit))
            list.push_back({{"id", s[0].as<std::string>()}, {"table", s[1].as<std::string>()},
                            {"finished", s[2].as<std::int64_t>()}, {"seat", s[3].as<std::int64_t>()},
                            {"status", s[4].as<std::string>()}, {"winner", winner_json(s[5].as<std::int64_t>())},
                            {"scores", {s[6].as<std::int64_t>(), s[7].as<std::int64_t>()}}, {"private", s[8].as<bool>()},
                            {"rated", s[9].as<bool>()}});
        return nlohmann::json{{"name", name}, {"matches", std::move(list)}};
    });
}

std::optional<nlohmann::json> PostgresStorage::public_matches(int limit, const std::optional<std::string>& before) {
    limit = std::clamp(limit, 1, kMaxMatchPage);
    return transact(*conn_, [&](Tx& w) -> std::optional<nlohmann::json> {
        // The cursor: the listed match `before` names, as (finished, seq), the order of the list.
        std::int64_t after_finished = 0, after_seq = 0;
        if (before) {
            const auto c = w.exec_params("SELECT finished, seq FROM matches WHERE id = $1 AND NOT private", *before);
            if (c.empty()) return std::nullopt;
            after_finished = c[0][0].as<std::int64_t>();
            after_seq = c[0][1].as<std::int64_t>();
        }
        const auto rows = w.exec_params(
            "SELECT id, table_id, finished, rules, status, winner, score0, score1, rated FROM matches"
            " WHERE NOT private AND (NOT $1 OR finished < $2 OR (finished = $2 AND seq < $3))"
            " ORDER BY finished DESC, seq DESC LIMIT $4",
            before.has_value(), after_finished, after_seq, limit + 1);
        auto list = nlohmann::json::array();
        nlohmann::json next = nullptr;
        for (const auto& s : rows) {
            if (static_cast<int>(list.size()) == limit) {  // one more row than the page: there is a next page
                next = list.back()["id"];
                break;
            }
            const auto id = s[0].as<std::string>();
            auto players = nlohmann::json::array();
            for (const auto& p : w.exec_params("SELECT name FROM match_players WHERE match_id = $1 ORDER BY seat", id))
                players.push_back(p[0].as<std::string>());
            list.push_back({{"id", id}, {"table", s[1].as<std::string>()}, {"finished", s[2].as<std::int64_t>()},
                            {"rules", s[3].as<std::string>()}, {"players", std::move(players)},
                            {"status", s[4].as<std::string>()}, {"winner", winner_json(s[5].as<std::int64_t>())},
                            {"scores", {s[6].as<std::int64_t>(), s[7].as<std::int64_t>()}}, {"rated", s[8].as<bool>()}});
        }
        return nlohmann::json{{"matches", std::move(list)}, {"next", std::move(next)}};
    });
}

std::vector<RatedMatch> PostgresStorage::rated_matches(int limit) {
    return transact(*conn_, [&](Tx& w) {
        std::vector<RatedMatch> out;
        // The seat names joined by U+001F, which no name has (names.hpp refuses controls).
        for (const auto& r : w.exec_params(
                 "SELECT m.id, m.finished, m.private, m.status, m.winner, json_array_length(m.record::json -> 'deals'),"
                 " (SELECT string_agg(p.name, chr(31) ORDER BY p.seat) FROM match_players p WHERE p.match_id = m.id)"
                 " FROM matches m WHERE m.rated ORDER BY m.finished DESC, m.seq DESC LIMIT $1",
                 std::max(limit, 0))) {
            RatedMatch m{r[0].as<std::string>(), r[1].as<std::int64_t>(), r[2].as<bool>(), r[3].as<std::string>(),
                         r[4].as<int>(), {}, r[5].is_null() ? 0 : r[5].as<int>()};
            const std::string names = r[6].is_null() ? "" : r[6].as<std::string>();
            std::size_t from = 0;
            for (std::size_t i = 0; i < 4 && from <= names.size(); ++i) {
                const std::size_t to = std::min(names.find('\x1f', from), names.size());
                m.names[i] = names.substr(from, to - from);
                from = to + 1;
            }
            out.push_back(std::move(m));
        }
        return out;
    });
}

nlohmann::json PostgresStorage::leaderboard(int limit) {
    return transact(*conn_, [&](Tx& w) {
        auto list = nlohmann::json::array();
        for (const auto& s : w.exec_params("SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players"
                                           " WHERE matches > 0 ORDER BY rating DESC, name COLLATE \"C\" LIMIT $1",
                                           limit))
            list.push_back({{"name", s[0].as<std::string>()}, {"rating", std::round(s[1].as<double>() * 10) / 10},
                            {"matches", s[2].as<std::int64_t>()}, {"wins", s[3].as<std::int64_t>()},
                            {"registered", s[4].as<bool>()}});
        return nlohmann::json{{"players", std::move(list)}};
    });
}

}  // namespace tarneeb::server
