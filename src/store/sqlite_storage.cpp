// SqliteStorage (include/tarneeb/store/storage.hpp): opening the file, its schema and the
// migrations of older files (each adds what an older database lacks and fills it in), and the
// guests' names and tokens. The other roles: sqlite_journal.cpp (live tables), sqlite_matches.cpp
// (finished matches and ratings), sqlite_accounts.cpp, sqlite_profiles.cpp,
// sqlite_tournaments.cpp; sqlite_util.hpp holds what they share.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "sqlite_util.hpp"
#include "tarneeb/store/rating.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

SqliteStorage::SqliteStorage(const std::string& path, bool full_sync) {
    // NOMUTEX: the connection takes no lock of its own around each call (SQLite's multi-thread
    // mode): a backend is used by one thread at a time (storage.hpp), so they only cost.
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
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
        // SQLite's busy handler does not cover a change of journal mode: while another connection
        // holds the new file (its schema transaction, below) it is tried again, for at most the
        // busy timeout (5 s; at start, never on an event loop).
        for (int waited_ms = 0;; waited_ms += 10) {
            const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
            if (rc == SQLITE_OK) break;
            if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= 5000)
                throw StorageError(error_code(db_), std::string("sqlite: ") + sqlite3_errmsg(db_));
            sqlite3_sleep(10);
        }
        exec(full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
        // The schema and every migration in one write transaction: connections opening one new
        // file at once (the shards of `serve --threads N`) each wait for the one before (the busy
        // timeout) and then find every column there. Apart, two of them both read "no name_key"
        // and the second ALTER failed: "duplicate column name" (TSan's timing, in CI). It also
        // checks, at start, that the file can be written.
        exec("BEGIN IMMEDIATE");
    exec(("CREATE TABLE IF NOT EXISTS players(name TEXT PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,"
          " rating REAL NOT NULL DEFAULT " + start_rating_sql() +
          ", matches INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0)").c_str());
    exec("CREATE TABLE IF NOT EXISTS tables(n INTEGER PRIMARY KEY AUTOINCREMENT, settings TEXT NOT NULL,"
         " live INTEGER NOT NULL DEFAULT 1)");
    // The journal is kept in the order of (table_n, seq): each table's entries together, one
    // b-tree and no index (migrate_journal says why).
    exec("CREATE TABLE IF NOT EXISTS journal(table_n INTEGER NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,"
         " PRIMARY KEY(table_n, seq)) WITHOUT ROWID");
    // A new database has every column; an older one gains private and rules in migrate_match_columns.
    exec("CREATE TABLE IF NOT EXISTS matches(id TEXT PRIMARY KEY, table_id TEXT NOT NULL, finished INTEGER NOT NULL,"
         " status TEXT NOT NULL, winner INTEGER NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL,"
         " record TEXT NOT NULL, private INTEGER NOT NULL DEFAULT 1, rules TEXT NOT NULL DEFAULT '',"
         " rated INTEGER NOT NULL DEFAULT 0)");
    exec("CREATE TABLE IF NOT EXISTS match_players(match_id TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,"
         " bot INTEGER NOT NULL)");
    exec("CREATE INDEX IF NOT EXISTS match_players_name ON match_players(name)");
    // Issue 14: each analysed deal of a finished match (GET /api/matches/{id}/analysis). A
    // database from before gains the table here; nothing else changes.
    exec("CREATE TABLE IF NOT EXISTS match_analysis(match_id TEXT NOT NULL, deal INTEGER NOT NULL,"
         " analysis TEXT NOT NULL, PRIMARY KEY(match_id, deal))");
        migrate_name_keys();
        migrate_match_columns();
        migrate_accounts();  // sqlite_accounts.cpp
        migrate_profiles();  // issue 15: sqlite_profiles.cpp
        migrate_tournaments();  // sqlite_tournaments.cpp
        migrate_fences();
        migrate_journal();
        exec("CREATE INDEX IF NOT EXISTS matches_public ON matches(private, finished)");
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

SqliteStorage::~SqliteStorage() {
    for (sqlite3_stmt* s : {append_, next_seq_, begin_, commit_, rollback_}) sqlite3_finalize(s);
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

void SqliteStorage::run_kept(sqlite3_stmt*& stmt, const char* sql) {
    if (!stmt && sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) fail("sqlite prepare");
    const int rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        const StorageError e(error_code(db_), std::string("sqlite: ") + sqlite3_errmsg(db_));
        sqlite3_reset(stmt);
        throw e;
    }
    sqlite3_reset(stmt);
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


void SqliteStorage::migrate_match_columns() {
    bool has_private = false, has_rules = false, has_rated = false;
    {
        Stmt info(db_, "PRAGMA table_info(matches)");
        while (info.step()) {
            has_private = has_private || info.text(1) == "private";
            has_rules = has_rules || info.text(1) == "rules";
            has_rated = has_rated || info.text(1) == "rated";
        }
    }
    // Issue 27: whether a match was rated, for the history (matches stored before: not rated).
    if (!has_rated) exec("ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0");
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

void SqliteStorage::migrate_journal() {
    bool clustered = false;  // table_n is part of the primary key: the journal of today
    {
        Stmt info(db_, "PRAGMA table_info(journal)");
        while (info.step()) clustered = clustered || (info.text(1) == "table_n" && info.integer(5) != 0);
    }
    if (clustered) return;
    // A database from before: journal(seq INTEGER PRIMARY KEY AUTOINCREMENT, table_n, entry) and
    // the index journal_table(table_n, seq), so that each append wrote a page of both b-trees
    // (and one of sqlite_sequence) at every commit; the journal of today is one b-tree in the
    // order of (table_n, seq). The rows are copied with their seq (unique over the whole
    // journal, so within each table too): every table keeps its entries in their order.
    transaction([&] {
        exec("CREATE TABLE journal_clustered(table_n INTEGER NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,"
             " PRIMARY KEY(table_n, seq)) WITHOUT ROWID");
        exec("INSERT INTO journal_clustered(table_n, seq, entry) SELECT table_n, seq, entry FROM journal");
        exec("DROP TABLE journal");  // and its index journal_table
        exec("ALTER TABLE journal_clustered RENAME TO journal");
    });
}

}  // namespace tarneeb::server
