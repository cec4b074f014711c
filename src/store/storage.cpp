#include "tarneeb/store/storage.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "tarneeb/core/random.hpp"
#include "tarneeb/support/names.hpp"
#include "tarneeb/store/postgres_storage.hpp"
#include "tarneeb/support/workers.hpp"
#include "sqlite_util.hpp"

namespace tarneeb::server {

std::string hash_token(std::string_view token) {
    std::uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL;
    for (unsigned char ch : token) {
        a = mix64(a ^ ch);
        b = mix64(b + ch + (a >> 7));
    }
    a = mix64(a ^ token.size());
    b = mix64(b ^ a);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
}

std::string unheld_token_hash() { return hash_token("revoked:" + secure_random_string(32, "0123456789abcdef")); }

bool is_postgres_url(std::string_view spec) {
    return spec.starts_with("postgresql://") || spec.starts_with("postgres://");
}

std::unique_ptr<Storage> open_storage(const std::string& spec, bool full_sync) {
    if (is_postgres_url(spec)) return std::make_unique<PostgresStorage>(spec);
    return std::make_unique<SqliteStorage>(spec, full_sync);
}

SqliteStorage::SqliteStorage(const std::string& path, bool full_sync) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        const std::string code = db_ ? error_code(db_) : "storage_io";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StorageError(code, "cannot open database " + path + ": " + msg);
    }
    try {
        sqlite3_busy_timeout(db_, 5000);
        // A file that cannot be written is refused now rather than at the first action.
        if (path != ":memory:" && sqlite3_db_readonly(db_, "main") == 1)
            throw StorageError("storage_read_only", "database " + path + " is read-only");
        exec("PRAGMA journal_mode=WAL");
        exec(full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec(("CREATE TABLE IF NOT EXISTS players(name TEXT PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,"
          " rating REAL NOT NULL DEFAULT " + start_rating_sql() +
          ", matches INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0)").c_str());
    exec("CREATE TABLE IF NOT EXISTS tables(n INTEGER PRIMARY KEY AUTOINCREMENT, settings TEXT NOT NULL,"
         " live INTEGER NOT NULL DEFAULT 1)");
    exec("CREATE TABLE IF NOT EXISTS journal(seq INTEGER PRIMARY KEY AUTOINCREMENT, table_n INTEGER NOT NULL,"
         " entry TEXT NOT NULL)");
    exec("CREATE INDEX IF NOT EXISTS journal_table ON journal(table_n, seq)");
    // A new database has every column; an older one gains private and rules in migrate_match_columns.
    exec("CREATE TABLE IF NOT EXISTS matches(id TEXT PRIMARY KEY, table_id TEXT NOT NULL, finished INTEGER NOT NULL,"
         " status TEXT NOT NULL, winner INTEGER NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL,"
         " record TEXT NOT NULL, private INTEGER NOT NULL DEFAULT 1, rules TEXT NOT NULL DEFAULT '')");
    exec("CREATE TABLE IF NOT EXISTS match_players(match_id TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,"
         " bot INTEGER NOT NULL)");
    exec("CREATE INDEX IF NOT EXISTS match_players_name ON match_players(name)");
    // Issue 14: each analysed deal of a finished match (GET /api/matches/{id}/analysis). A
    // database from before gains the table here; nothing else changes.
    exec("CREATE TABLE IF NOT EXISTS match_analysis(match_id TEXT NOT NULL, deal INTEGER NOT NULL,"
         " analysis TEXT NOT NULL, PRIMARY KEY(match_id, deal))");
        migrate_name_keys();
        migrate_match_columns();
        migrate_accounts();  // storage_accounts.cpp
        migrate_profiles();  // issue 15: storage_profiles.cpp
        migrate_tournaments();
        migrate_fences();
        exec("CREATE INDEX IF NOT EXISTS matches_public ON matches(private, finished)");
        // Writes the schema now, so that a file that cannot be written fails here, at start.
        exec("BEGIN IMMEDIATE");
        exec("COMMIT");
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

SqliteStorage::~SqliteStorage() {
    sqlite3_finalize(append_);
    sqlite3_close(db_);
}

void SqliteStorage::fail(const char* what) const { throw_error(db_, what); }

void SqliteStorage::ping() { exec("SELECT 1"); }

void SqliteStorage::exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "?";
        sqlite3_free(err);
        throw StorageError(error_code(db_), std::string("sqlite: ") + msg);
    }
}

std::optional<std::string> SqliteStorage::name_for_token(std::string_view token) {
    Stmt s(db_, "SELECT name FROM players WHERE token_hash = ?");
    s.bind(1, hash_token(token));
    if (s.step()) return s.text(0);
    return std::nullopt;
}

bool SqliteStorage::register_name(std::string_view name, std::string_view token) {
    // OR IGNORE: a name or a key (players_name_key, UNIQUE) already there inserts nothing.
    Stmt s(db_, "INSERT OR IGNORE INTO players(name, name_key, token_hash) VALUES(?, ?, ?)");
    s.bind(1, name).bind(2, name_key(name)).bind(3, hash_token(token));
    s.step();
    return sqlite3_changes(db_) == 1;
}

void SqliteStorage::migrate_name_keys() {
    bool has_key = false;
    {
        Stmt info(db_, "PRAGMA table_info(players)");
        while (info.step()) has_key = has_key || info.text(1) == "name_key";
    }
    if (has_key) return;
    // A database from before name keys (or a new one): add the column and key every player,
    // oldest first. A player whose key an older player already holds keeps its name, token,
    // rating and matches, with no key (NULL, which UNIQUE allows more than once): it can sign
    // in with its token, and no new name can take that key from the older player.
    transaction([&] {
        exec("ALTER TABLE players ADD COLUMN name_key TEXT");
        exec("CREATE UNIQUE INDEX players_name_key ON players(name_key)");
        std::vector<std::pair<std::int64_t, std::string>> rows;
        {
            Stmt all(db_, "SELECT rowid, name FROM players ORDER BY rowid");
            while (all.step()) rows.emplace_back(all.integer(0), all.text(1));
        }
        Stmt set(db_, "UPDATE OR IGNORE players SET name_key = ? WHERE rowid = ?");
        for (const auto& [rowid, name] : rows) {
            set.bind(1, name_key(name)).bind(2, rowid);
            set.step();
            set.reset();
        }
    });
}

std::int64_t table_number(const std::string& id) {
    if (id.size() < 2 || id[0] != 't') return -1;
    try { return std::stoll(id.substr(1)); } catch (...) { return -1; }
}

void SqliteStorage::migrate_match_columns() {
    bool has_private = false, has_rules = false;
    {
        Stmt info(db_, "PRAGMA table_info(matches)");
        while (info.step()) {
            has_private = has_private || info.text(1) == "private";
            has_rules = has_rules || info.text(1) == "rules";
        }
    }
    if (has_private && has_rules) return;
    // A database from before the public match list: every stored match is private (never
    // listed) unless its table's stored settings say it was public; its rules are its record's.
    transaction([&] {
        if (!has_private) exec("ALTER TABLE matches ADD COLUMN private INTEGER NOT NULL DEFAULT 1");
        if (!has_rules) exec("ALTER TABLE matches ADD COLUMN rules TEXT NOT NULL DEFAULT ''");
        struct Old {
            std::int64_t rowid;
            std::string table, record;
        };
        std::vector<Old> rows;
        {
            Stmt all(db_, "SELECT rowid, table_id, record FROM matches");
            while (all.step()) rows.push_back({all.integer(0), all.text(1), all.text(2)});
        }
        Stmt settings(db_, "SELECT settings FROM tables WHERE n = ?");
        Stmt set(db_, "UPDATE matches SET private = ?, rules = ? WHERE rowid = ?");
        for (const Old& row : rows) {
            bool is_private = true;
            settings.bind(1, table_number(row.table));
            if (settings.step()) {
                const auto j = nlohmann::json::parse(settings.text(0), nullptr, /*allow_exceptions=*/false);
                if (j.is_object() && j.contains("private") && j["private"].is_boolean()) is_private = j["private"].get<bool>();
            }
            settings.reset();
            const auto rec = nlohmann::json::parse(row.record, nullptr, /*allow_exceptions=*/false);
            const std::string rules = rec.is_object() && rec.contains("rules") && rec["rules"].is_string() ? rec["rules"].get<std::string>() : "levantine";
            set.bind(1, std::int64_t{is_private ? 1 : 0}).bind(2, rules).bind(3, row.rowid);
            set.step();
            set.reset();
        }
    });
}

std::string SqliteStorage::create_table(const nlohmann::json& settings) {
    Stmt s(db_, "INSERT INTO tables(settings) VALUES(?)");
    s.bind(1, settings.dump());
    s.step();
    return "t" + std::to_string(sqlite3_last_insert_rowid(db_));
}

void SqliteStorage::migrate_fences() {
    bool has_fence = false;
    {
        Stmt info(db_, "PRAGMA table_info(tables)");
        while (info.step()) has_fence = has_fence || info.text(1) == "fence";
    }
    if (has_fence) return;
    // Every table of an older database is unclaimed (fence 0): unfenced writes go on as before.
    transaction([&] {
        exec("ALTER TABLE tables ADD COLUMN fence INTEGER NOT NULL DEFAULT 0");
        exec("ALTER TABLE tables ADD COLUMN owner TEXT");
    });
}

namespace {
/// Throws storage_fenced unless `fence` is 0 or table `n`'s current fence (inside the caller's
/// transaction: in WAL mode a write that follows this read fails with SQLITE_BUSY_SNAPSHOT when
/// another connection wrote in between, so the check and the write are atomic).
void check_fence(sqlite3* db, std::int64_t n, std::int64_t fence, const std::string& id) {
    if (fence == 0) return;
    Stmt s(db, "SELECT 1 FROM tables WHERE n = ? AND fence = ?");
    s.bind(1, n).bind(2, fence);
    if (!s.step()) throw StorageError("storage_fenced", "table " + id + ": fence " + std::to_string(fence) + " is not the current one");
}
}  // namespace

void SqliteStorage::close_table(const std::string& id, std::int64_t fence) {
    transaction([&] {
        check_fence(db_, table_number(id), fence, id);
        Stmt a(db_, "UPDATE tables SET live = 0 WHERE n = ?");
        a.bind(1, table_number(id));
        a.step();
        Stmt b(db_, "DELETE FROM journal WHERE table_n = ?");
        b.bind(1, table_number(id));
        b.step();
    });
}

bool SqliteStorage::insert_entry(const std::string& table, const nlohmann::json& entry, std::int64_t fence) {
    // One statement: the fence check and the insert (a stale fence inserts no row).
    if (!append_ && sqlite3_prepare_v2(db_, "INSERT INTO journal(table_n, entry) SELECT ?1, ?2"
                                            " WHERE ?3 = 0 OR EXISTS (SELECT 1 FROM tables WHERE n = ?1 AND fence = ?3)",
                                       -1, &append_, nullptr) != SQLITE_OK)
        fail("sqlite prepare");
    const std::string text = entry.dump();
    sqlite3_bind_int64(append_, 1, table_number(table));
    sqlite3_bind_text(append_, 2, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(append_, 3, fence);
    const int rc = sqlite3_step(append_);
    if (rc != SQLITE_DONE) {
        const StorageError e(error_code(db_), std::string("sqlite journal: ") + sqlite3_errmsg(db_));
        sqlite3_reset(append_);
        sqlite3_clear_bindings(append_);
        throw e;
    }
    sqlite3_reset(append_);
    sqlite3_clear_bindings(append_);
    return sqlite3_changes(db_) == 1;
}

namespace {
StorageError fenced_error(const std::string& table, std::int64_t fence) {
    return StorageError("storage_fenced", "table " + table + ": fence " + std::to_string(fence) + " is not the current one");
}
}  // namespace

void SqliteStorage::append(const std::string& table, const nlohmann::json& entry, std::int64_t fence) {
    if (!insert_entry(table, entry, fence)) throw fenced_error(table, fence);
}

void SqliteStorage::rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence) {
    transaction([&] {
        check_fence(db_, table_number(table), fence, table);
        Stmt d(db_, "DELETE FROM journal WHERE table_n = ?");
        d.bind(1, table_number(table));
        d.step();
        for (const auto& e : entries) insert_entry(table, e, 0);
    });
}

std::vector<JournalResult> SqliteStorage::write_journal(std::span<const JournalWrite> writes) {
    std::vector<JournalResult> results(writes.size());
    if (writes.empty()) return results;
    try {
        // IMMEDIATE: the write lock from the start, so no fence read below can go stale before
        // the writes that follow it (another connection's claim_table waits for the COMMIT).
        exec("BEGIN IMMEDIATE");
        try {
            for (std::size_t i = 0; i < writes.size(); ++i) {
                const JournalWrite& w = writes[i];
                if (!w.rewrite) {
                    // The append's one statement checks the fence: a stale one inserts nothing.
                    if (w.entries.size() != 1)
                        results[i] = StorageError("storage_io", "table " + w.table + ": an append takes one entry");
                    else if (!insert_entry(w.table, w.entries.front(), w.fence))
                        results[i] = fenced_error(w.table, w.fence);
                    continue;
                }
                // A rewrite checks the fence before it deletes anything.
                try {
                    check_fence(db_, table_number(w.table), w.fence, w.table);
                } catch (const StorageError& e) {
                    results[i] = e;  // storage_fenced, or the database's error (then thrown below)
                    if (e.code() != "storage_fenced") throw;
                    continue;
                }
                Stmt d(db_, "DELETE FROM journal WHERE table_n = ?");
                d.bind(1, table_number(w.table));
                d.step();
                for (const auto& e : w.entries) insert_entry(w.table, e, 0);
            }
            exec("COMMIT");
        } catch (...) {
            // SQLite may have rolled back already (e.g. SQLITE_FULL): ignore "no transaction".
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    } catch (const StorageError& e) {
        // The transaction failed: nothing of it is written, and every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::int64_t SqliteStorage::claim_table(const std::string& id, const std::string& node) {
    Stmt s(db_, "UPDATE tables SET fence = fence + 1, owner = ? WHERE n = ? AND live = 1 RETURNING fence");
    s.bind(1, node).bind(2, table_number(id));
    if (!s.step()) throw StorageError("storage_fenced", "table " + id + " is not live");
    const std::int64_t fence = s.integer(0);
    while (s.step()) {}  // finishes the statement (its write commits at the end)
    return fence;
}

std::vector<JournalResult> Storage::write_journal(std::span<const JournalWrite> writes) {
    // The default for a backend without a transaction of its own for this: one call per write,
    // each its own transaction (so a failure is that write's alone).
    std::vector<JournalResult> results;
    results.reserve(writes.size());
    for (const JournalWrite& w : writes) {
        try {
            if (w.rewrite) rewrite(w.table, w.entries, w.fence);
            else if (w.entries.size() == 1) append(w.table, w.entries.front(), w.fence);
            else throw StorageError("storage_io", "table " + w.table + ": an append takes one entry");
            results.emplace_back();
        } catch (const StorageError& e) {
            results.emplace_back(e);
        } catch (const std::exception& e) {
            results.emplace_back(StorageError("storage_io", e.what()));
        }
    }
    return results;
}

std::vector<std::string> Storage::live_table_ids() {
    std::vector<std::string> ids;
    for (auto& t : live_tables()) ids.push_back(std::move(t.id));
    return ids;
}

std::optional<LiveTable> Storage::live_table(const std::string& id) {
    for (auto& t : live_tables())
        if (t.id == id) return std::move(t);
    return std::nullopt;
}

std::vector<LiveTable> SqliteStorage::live_tables() {
    std::vector<LiveTable> out;
    {
        Stmt s(db_, "SELECT n, settings FROM tables WHERE live = 1 ORDER BY n");
        while (s.step()) {
            LiveTable t;
            t.id = "t" + std::to_string(s.integer(0));
            t.settings = nlohmann::json::parse(s.text(1));
            out.push_back(std::move(t));
        }
    }
    for (auto& t : out) {
        Stmt s(db_, "SELECT entry FROM journal WHERE table_n = ? ORDER BY seq");
        s.bind(1, table_number(t.id));
        while (s.step()) t.entries.push_back(nlohmann::json::parse(s.text(0)));
    }
    return out;
}

double SqliteStorage::rating(const std::string& name) {
    Stmt s(db_, "SELECT rating FROM players WHERE name = ?");
    s.bind(1, name);
    return s.step() ? s.real(0) : kStartRating;
}

bool SqliteStorage::store_match(const MatchRow& row) {
    bool stored = true;
    transaction([&] {
        Stmt ins(db_, "INSERT OR IGNORE INTO matches(id, table_id, finished, status, winner, score0, score1, record,"
                      " private, rules) VALUES(?,?,?,?,?,?,?,?,?,?)");
        ins.bind(1, row.id).bind(2, row.table).bind(3, row.finished_ms).bind(4, row.status)
            .bind(5, std::int64_t{row.winner}).bind(6, std::int64_t{row.scores[0]}).bind(7, std::int64_t{row.scores[1]})
            .bind(8, row.record).bind(9, std::int64_t{row.is_private ? 1 : 0}).bind(10, row.rules);
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
        store_match_stats(row);  // issue 15: profiles (storage_profiles.cpp)
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
    Stmt s(db_, "SELECT m.id, m.table_id, m.finished, p.seat, m.status, m.winner, m.score0, m.score1, m.private"
                " FROM match_players p JOIN matches m ON m.id = p.match_id WHERE p.name = ? AND p.bot = 0"
                " AND (m.private = 0 OR ?) ORDER BY m.finished DESC, m.id DESC LIMIT ?");
    s.bind(1, name).bind(2, std::int64_t{with_private ? 1 : 0}).bind(3, std::int64_t{limit});
    auto list = nlohmann::json::array();
    while (s.step()) {
        const auto winner = s.integer(5);
        list.push_back({{"id", s.text(0)}, {"table", s.text(1)}, {"finished", s.integer(2)}, {"seat", s.integer(3)},
                        {"status", s.text(4)}, {"winner", winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner)},
                        {"scores", {s.integer(6), s.integer(7)}}, {"private", s.integer(8) != 0}});
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
    Stmt s(db_, "SELECT id, table_id, finished, rules, status, winner, score0, score1 FROM matches"
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
                        {"scores", {s.integer(6), s.integer(7)}}});
    }
    return nlohmann::json{{"matches", std::move(list)}, {"next", std::move(next)}};
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

// ---- tournaments (issue 15) -----------------------------------------------------------------

void SqliteStorage::migrate_tournaments() {
    exec("CREATE TABLE IF NOT EXISTS tournaments(n INTEGER PRIMARY KEY AUTOINCREMENT, state TEXT NOT NULL)");
}

std::string SqliteStorage::create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) {
    std::string id;
    transaction([&] {
        Stmt ins(db_, "INSERT INTO tournaments(state) VALUES('{}')");
        ins.step();
        id = "T" + std::to_string(sqlite3_last_insert_rowid(db_));
        save_tournament(id, state(id));
    });
    return id;
}

void SqliteStorage::save_tournament(const std::string& id, const nlohmann::json& state) {
    std::int64_t n = -1;  // "T7" → 7
    if (id.size() >= 2 && id[0] == 'T') try { n = std::stoll(id.substr(1)); } catch (...) {}
    Stmt s(db_, "UPDATE tournaments SET state = ? WHERE n = ?");
    s.bind(1, state.dump()).bind(2, n);
    s.step();
}

std::vector<nlohmann::json> SqliteStorage::tournaments() {
    std::vector<nlohmann::json> out;
    Stmt s(db_, "SELECT state FROM tournaments ORDER BY n");
    while (s.step()) {
        auto j = nlohmann::json::parse(s.text(0), nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && !j.empty()) out.push_back(std::move(j));
    }
    return out;
}

}  // namespace tarneeb::server
