// SqliteStorage, finished matches and ratings (include/tarneeb/store/storage.hpp "matches and
// ratings"): store_match applies the rating rule (rating.hpp) in its transaction; the match
// lists, analyses and the leaderboard.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include <sqlite3.h>

#include "sqlite_util.hpp"
#include "tarneeb/store/rating.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

double SqliteStorage::rating(const std::string& name) {
    Stmt s(db_, "SELECT rating FROM players WHERE name = ?");
    s.bind(1, name);
    return s.step() ? s.real(0) : kStartRating;
}

bool SqliteStorage::store_match(const MatchRow& row) {
    bool stored = true;
    transaction([&] {
        Stmt ins(db_, "INSERT OR IGNORE INTO matches(id, table_id, finished, status, winner, score0, score1, record,"
                      " private, rules, rated) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
        ins.bind(1, row.id).bind(2, row.table).bind(3, row.finished_ms).bind(4, row.status)
            .bind(5, std::int64_t{row.winner}).bind(6, std::int64_t{row.scores[0]}).bind(7, std::int64_t{row.scores[1]})
            .bind(8, row.record).bind(9, std::int64_t{row.is_private ? 1 : 0}).bind(10, row.rules)
            .bind(11, std::int64_t{counts_for_ratings(row) ? 1 : 0});
        ins.step();
        if (sqlite3_changes(db_) != 1) {
            stored = false;  // already stored: commit nothing
            return;
        }
        for (int s = 0; s < 4; ++s) {
            Stmt p(db_, "INSERT INTO match_players(match_id, name, seat, bot) VALUES(?,?,?,?)");
            p.bind(1, row.id).bind(2, row.names[static_cast<std::size_t>(s)]).bind(3, std::int64_t{s})
                .bind(4, std::int64_t{row.bots[static_cast<std::size_t>(s)] ? 1 : 0});
            p.step();
        }
        std::array<double, 4> before{};
        for (std::size_t s = 0; s < 4; ++s) before[s] = row.bots[s] ? kBotRating : rating(row.names[s]);
        const auto change = seat_ratings(row, before);
        for (std::size_t s = 0; s < 4; ++s) {
            if (!change[s].rated) continue;
            Stmt u(db_, "UPDATE players SET rating = rating + ?, matches = matches + 1, wins = wins + ? WHERE name = ?");
            u.bind(1, change[s].rating).bind(2, std::int64_t{change[s].won ? 1 : 0}).bind(3, row.names[s]);
            u.step();
        }
        store_match_stats(row);  // issue 15: profiles (sqlite_profiles.cpp)
    });
    return stored;
}

std::optional<std::string> SqliteStorage::match_record(const std::string& id) {
    Stmt s(db_, "SELECT record FROM matches WHERE id = ?");
    s.bind(1, id);
    if (s.step()) return s.text(0);
    return std::nullopt;
}

std::optional<std::string> SqliteStorage::match_analysis(const std::string& id, int deal) {
    Stmt s(db_, "SELECT analysis FROM match_analysis WHERE match_id = ? AND deal = ?");
    s.bind(1, id).bind(2, std::int64_t{deal});
    if (s.step()) return s.text(0);
    return std::nullopt;
}

void SqliteStorage::store_analysis(const std::string& id, int deal, std::string_view analysis) {
    Stmt s(db_, "INSERT OR REPLACE INTO match_analysis(match_id, deal, analysis) VALUES(?, ?, ?)");
    s.bind(1, id).bind(2, std::int64_t{deal}).bind(3, analysis);
    s.step();
}

bool SqliteStorage::match_readable(const std::string& id, const std::optional<std::string>& viewer) {
    Stmt s(db_, "SELECT private FROM matches WHERE id = ?");
    s.bind(1, id);
    if (!s.step()) return false;
    if (s.integer(0) == 0) return true;
    if (!viewer) return false;
    Stmt p(db_, "SELECT 1 FROM match_players WHERE match_id = ? AND name = ? AND bot = 0");
    p.bind(1, id).bind(2, *viewer);
    return p.step();
}

nlohmann::json SqliteStorage::player_matches(const std::string& name, bool with_private, int limit) {
    Stmt s(db_, "SELECT m.id, m.table_id, m.finished, p.seat, m.status, m.winner, m.score0, m.score1, m.private, m.rated"
                " FROM match_players p JOIN matches m ON m.id = p.match_id WHERE p.name = ? AND p.bot = 0"
                " AND (m.private = 0 OR ?) ORDER BY m.finished DESC, m.id DESC LIMIT ?");
    s.bind(1, name).bind(2, std::int64_t{with_private ? 1 : 0}).bind(3, std::int64_t{limit});
    auto list = nlohmann::json::array();
    while (s.step()) {
        const auto winner = s.integer(5);
        list.push_back({{"id", s.text(0)}, {"table", s.text(1)}, {"finished", s.integer(2)}, {"seat", s.integer(3)},
                        {"status", s.text(4)}, {"winner", winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner)},
                        {"scores", {s.integer(6), s.integer(7)}}, {"private", s.integer(8) != 0},
                        {"rated", s.integer(9) != 0}});
    }
    return {{"name", name}, {"matches", std::move(list)}};
}

std::optional<nlohmann::json> SqliteStorage::public_matches(int limit, const std::optional<std::string>& before) {
    limit = std::clamp(limit, 1, kMaxMatchPage);
    // The cursor: the listed match `before` names, as (finished, rowid), the order of the list.
    std::int64_t after_finished = 0, after_rowid = 0;
    if (before) {
        Stmt c(db_, "SELECT finished, rowid FROM matches WHERE id = ? AND private = 0");
        c.bind(1, *before);
        if (!c.step()) return std::nullopt;
        after_finished = c.integer(0);
        after_rowid = c.integer(1);
    }
    Stmt s(db_, "SELECT id, table_id, finished, rules, status, winner, score0, score1, rated FROM matches"
                " WHERE private = 0 AND (?1 = 0 OR finished < ?2 OR (finished = ?2 AND rowid < ?3))"
                " ORDER BY finished DESC, rowid DESC LIMIT ?4");
    s.bind(1, std::int64_t{before ? 1 : 0}).bind(2, after_finished).bind(3, after_rowid).bind(4, std::int64_t{limit + 1});
    Stmt names(db_, "SELECT name FROM match_players WHERE match_id = ? ORDER BY seat");
    auto list = nlohmann::json::array();
    nlohmann::json next = nullptr;
    while (s.step()) {
        if (static_cast<int>(list.size()) == limit) {  // one more row than the page: there is a next page
            next = list.back()["id"];
            break;
        }
        const std::string id = s.text(0);
        auto players = nlohmann::json::array();
        names.bind(1, id);
        while (names.step()) players.push_back(names.text(0));
        names.reset();
        const auto winner = s.integer(5);
        list.push_back({{"id", id}, {"table", s.text(1)}, {"finished", s.integer(2)}, {"rules", s.text(3)},
                        {"players", std::move(players)}, {"status", s.text(4)},
                        {"winner", winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner)},
                        {"scores", {s.integer(6), s.integer(7)}}, {"rated", s.integer(8) != 0}});
    }
    return nlohmann::json{{"matches", std::move(list)}, {"next", std::move(next)}};
}

std::vector<RatedMatch> SqliteStorage::rated_matches(int limit) {
    Stmt s(db_, "SELECT id, finished, private, status, winner, json_array_length(record, '$.deals') FROM matches"
                " WHERE rated = 1 ORDER BY finished DESC, rowid DESC LIMIT ?");
    s.bind(1, std::int64_t{std::max(limit, 0)});
    Stmt names(db_, "SELECT name FROM match_players WHERE match_id = ? ORDER BY seat");
    std::vector<RatedMatch> out;
    while (s.step()) {
        RatedMatch m{s.text(0), s.integer(1), s.integer(2) != 0, s.text(3), static_cast<int>(s.integer(4)), {},
                     static_cast<int>(s.integer(5))};
        names.bind(1, m.id);
        for (std::size_t i = 0; i < 4 && names.step(); ++i) m.names[i] = names.text(0);
        names.reset();
        out.push_back(std::move(m));
    }
    return out;
}

nlohmann::json SqliteStorage::leaderboard(int limit) {
    Stmt s(db_, "SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players WHERE matches > 0 ORDER BY rating DESC, name LIMIT ?");
    s.bind(1, std::int64_t{limit});
    auto list = nlohmann::json::array();
    while (s.step())
        list.push_back({{"name", s.text(0)}, {"rating", std::round(s.real(1) * 10) / 10}, {"matches", s.integer(2)},
                        {"wins", s.integer(3)}, {"registered", s.integer(4) != 0}});
    return {{"players", std::move(list)}};
}

}  // namespace tarneeb::server
