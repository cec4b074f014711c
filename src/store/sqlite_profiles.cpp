// SqliteStorage, players' profiles (issue 15; storage.hpp "profiles"; docs/protocol.md
// "Profiles"): each human seat's bids, contracts and rating after a stored match, kept as one
// row when the match is stored (on the writer thread, in store_match's transaction), and the
// profile read from them. A match's numbers come in its row (MatchRow::stats: seat_stats.hpp).
#include <algorithm>
#include <array>
#include <cmath>

#include "match_stats.hpp"
#include "sqlite_util.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

void SqliteStorage::migrate_profiles() {
    {
        Stmt t(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_match_stats'");
        if (t.step()) return;
    }
    // All or nothing: the table and every stored match's numbers.
    transaction([&] {
        exec("CREATE TABLE player_match_stats(match_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
             " bids INTEGER NOT NULL, bid_sum INTEGER NOT NULL, contracts INTEGER NOT NULL, made INTEGER NOT NULL,"
             " rating REAL, PRIMARY KEY(match_id, seat))");
        exec("CREATE INDEX player_match_stats_name ON player_match_stats(name)");
        backfill_match_stats();
    });
}

void SqliteStorage::backfill_match_stats() {
    // Matches stored before: their numbers from their records, no rating point (unknown).
    std::vector<std::pair<std::string, std::string>> matches;
    {
        Stmt all(db_, "SELECT id, record FROM matches ORDER BY rowid");
        while (all.step()) matches.emplace_back(all.text(0), all.text(1));
    }
    Stmt seats(db_, "SELECT seat, name FROM match_players WHERE match_id = ? AND bot = 0");
    Stmt ins(db_, "INSERT OR IGNORE INTO player_match_stats(match_id, seat, name, bids, bid_sum, contracts, made, rating)"
                  " VALUES(?,?,?,?,?,?,?,NULL)");
    for (const auto& [id, record] : matches) {
        const auto stats = seat_stats(records::replay(record).match);  // what the record reached
        seats.bind(1, id);
        while (seats.step()) {
            const auto seat = seats.integer(0);
            const SeatStats& s = stats[static_cast<std::size_t>(seat & 3)];
            ins.bind(1, id).bind(2, seat).bind(3, seats.text(1)).bind(4, s.bids).bind(5, s.bid_sum).bind(6, s.contracts)
                .bind(7, s.made);
            ins.step();
            ins.reset();
        }
        seats.reset();
    }
}

void SqliteStorage::store_match_stats(const MatchRow& row) {
    Stmt ins(db_, "INSERT OR IGNORE INTO player_match_stats(match_id, seat, name, bids, bid_sum, contracts, made, rating)"
                  " VALUES(?,?,?,?,?,?,?,?)");
    for (std::size_t seat = 0; seat < 4; ++seat) {
        if (row.bots[seat]) continue;
        const SeatStats& s = row.stats[seat];
        ins.bind(1, row.id).bind(2, static_cast<std::int64_t>(seat)).bind(3, row.names[seat]).bind(4, s.bids)
            .bind(5, s.bid_sum).bind(6, s.contracts).bind(7, s.made).bind(8, rating(row.names[seat]));
        ins.step();
        ins.reset();
    }
}

std::optional<nlohmann::json> SqliteStorage::player_profile(const std::string& name) {
    using nlohmann::json;
    json profile;
    {
        Stmt p(db_, "SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players WHERE name = ?");
        p.bind(1, name);
        if (!p.step()) return std::nullopt;
        profile = {{"name", p.text(0)}, {"registered", p.integer(4) != 0}, {"rating", std::round(p.real(1) * 10) / 10},
                   {"matches", p.integer(2)}, {"wins", p.integer(3)}};
    }
    {
        // Every match counts here, public or private: totals tell no match apart.
        Stmt a(db_, "SELECT COALESCE(SUM(bids),0), COALESCE(SUM(bid_sum),0), COALESCE(SUM(contracts),0),"
                    " COALESCE(SUM(made),0) FROM player_match_stats WHERE name = ?");
        a.bind(1, name);
        a.step();
        const std::int64_t bids = a.integer(0), sum = a.integer(1);
        profile["contracts"] = {{"bid", a.integer(2)}, {"made", a.integer(3)}};
        profile["bids"] = bids;
        profile["average_bid"] = bids > 0 ? json(std::round(static_cast<double>(sum) / static_cast<double>(bids) * 100) / 100)
                                          : json(nullptr);
    }
    {
        // Public matches only: a private table's match is not shown, not even as a date.
        Stmt h(db_, "SELECT s.match_id, m.finished, s.rating FROM player_match_stats s JOIN matches m ON m.id = s.match_id"
                    " WHERE s.name = ? AND m.private = 0 AND s.rating IS NOT NULL"
                    " ORDER BY m.finished DESC, m.rowid DESC LIMIT ?");
        h.bind(1, name).bind(2, std::int64_t{kProfileHistory});
        auto points = json::array();
        while (h.step())
            points.push_back({{"match", h.text(0)}, {"finished", h.integer(1)}, {"rating", std::round(h.real(2) * 10) / 10}});
        std::reverse(points.begin(), points.end());
        profile["rating_history"] = std::move(points);
    }
    {
        Stmt m(db_, "SELECT m.id, m.table_id, m.finished, m.rules, p.seat, m.status, m.winner, m.score0, m.score1"
                    " FROM match_players p JOIN matches m ON m.id = p.match_id"
                    " WHERE p.name = ? AND p.bot = 0 AND m.private = 0 ORDER BY m.finished DESC, m.rowid DESC LIMIT ?");
        m.bind(1, name).bind(2, std::int64_t{kProfileMatches});
        Stmt names(db_, "SELECT name FROM match_players WHERE match_id = ? ORDER BY seat");
        auto list = json::array();
        while (m.step()) {
            const std::string id = m.text(0);
            auto players = json::array();
            names.bind(1, id);
            while (names.step()) players.push_back(names.text(0));
            names.reset();
            const auto seat = m.integer(4), winner = m.integer(6);
            const std::string status = m.text(5);
            list.push_back({{"id", id}, {"table", m.text(1)}, {"finished", m.integer(2)}, {"rules", m.text(3)},
                            {"seat", seat}, {"players", std::move(players)}, {"status", status},
                            {"winner", winner < 0 ? json(nullptr) : json(winner)}, {"scores", {m.integer(7), m.integer(8)}},
                            {"won", status == "won" && winner == seat % 2}});
        }
        profile["recent_matches"] = std::move(list);
    }
    // The tournaments the player entered (on a team), newest first: read from their stored
    // states (the newest kProfileTournamentScan of them; a state that does not parse is skipped).
    json tournaments = json::array();
    {
        Stmt t(db_, "SELECT state FROM tournaments ORDER BY n DESC LIMIT ?");
        t.bind(1, std::int64_t{kProfileTournamentScan});
        while (t.step() && tournaments.size() < static_cast<std::size_t>(kProfileTournaments)) {
            if (auto entry = profile_tournament(name, json::parse(t.text(0), nullptr, /*allow_exceptions=*/false)))
                tournaments.push_back(std::move(*entry));
        }
    }
    profile["tournaments"] = std::move(tournaments);
    return profile;
}

}  // namespace tarneeb::server
