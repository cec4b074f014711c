// PostgresStorage (include/tarneeb/store/postgres_storage.hpp): Storage on PostgreSQL 15
// through libpq (pg_connection.hpp: every wait bounded by the call's deadline). Every method is
// one transaction (BEGIN ... COMMIT, READ COMMITTED) run by `transact`, which also turns
// PostgreSQL's errors into StorageError codes and drops a connection that broke or did not
// answer in time, so that the next call connects again (postgres_tx.hpp). The SQL mirrors
// the sqlite_*.cpp files (SQLite): same tables and columns, with
// BIGSERIAL for SQLite's AUTOINCREMENT and rowid, BOOLEAN for 0/1 flags, ON CONFLICT for
// INSERT OR IGNORE / OR REPLACE, and COLLATE "C" where text orders a list (SQLite compares
// bytes; a PostgreSQL database may have another default collation).
//
// This file: the connection URL, the schema and its migrations, and the guests' names and
// tokens. The other roles: postgres_journal.cpp (live tables), postgres_matches.cpp (finished
// matches and ratings), postgres_accounts.cpp, postgres_profiles.cpp, postgres_tournaments.cpp.
#include "tarneeb/store/postgres_storage.hpp"

#include <string>
#include <utility>
#include <vector>

#include "postgres_tx.hpp"
#include "tarneeb/store/rating.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;

namespace {

/// Schema version 1: the tables of SQLite's newest schema (sqlite_*.cpp and their migrations),
/// with the fence of issue 16. A later version appends its statements as a new entry.
const std::vector<std::vector<std::string>>& migrations() {
    static const std::vector<std::vector<std::string>> all = {{
        "CREATE TABLE players(name TEXT PRIMARY KEY, name_key TEXT UNIQUE, token_hash TEXT UNIQUE NOT NULL,"
        " rating DOUBLE PRECISION NOT NULL DEFAULT " + start_rating_sql() + ", matches BIGINT NOT NULL DEFAULT 0,"
        " wins BIGINT NOT NULL DEFAULT 0, password_hash TEXT)",
        "CREATE TABLE tables(n BIGSERIAL PRIMARY KEY, settings TEXT NOT NULL, live BOOLEAN NOT NULL DEFAULT TRUE,"
        " fence BIGINT NOT NULL DEFAULT 0, owner TEXT)",
        "CREATE TABLE journal(seq BIGSERIAL PRIMARY KEY, table_n BIGINT NOT NULL, entry TEXT NOT NULL)",
        "CREATE INDEX journal_table ON journal(table_n, seq)",
        "CREATE TABLE matches(id TEXT PRIMARY KEY, seq BIGSERIAL NOT NULL UNIQUE, table_id TEXT NOT NULL,"
        " finished BIGINT NOT NULL, status TEXT NOT NULL, winner INTEGER NOT NULL, score0 INTEGER NOT NULL,"
        " score1 INTEGER NOT NULL, record TEXT NOT NULL, private BOOLEAN NOT NULL DEFAULT TRUE,"
        " rules TEXT NOT NULL DEFAULT '')",
        "CREATE INDEX matches_public ON matches(private, finished, seq)",
        "CREATE TABLE match_players(match_id TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL,"
        " bot BOOLEAN NOT NULL, PRIMARY KEY(match_id, seat))",
        "CREATE INDEX match_players_name ON match_players(name)",
        "CREATE TABLE match_analysis(match_id TEXT NOT NULL, deal INTEGER NOT NULL, analysis TEXT NOT NULL,"
        " PRIMARY KEY(match_id, deal))",
        "CREATE TABLE sessions(token_hash TEXT PRIMARY KEY, seq BIGSERIAL NOT NULL, name TEXT NOT NULL,"
        " created BIGINT NOT NULL, expires BIGINT NOT NULL)",
        "CREATE INDEX sessions_name ON sessions(name, created)",
        "CREATE TABLE player_match_stats(match_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
        " bids BIGINT NOT NULL, bid_sum BIGINT NOT NULL, contracts BIGINT NOT NULL, made BIGINT NOT NULL,"
        " rating DOUBLE PRECISION, PRIMARY KEY(match_id, seat))",
        "CREATE INDEX player_match_stats_name ON player_match_stats(name)",
        "CREATE TABLE tournaments(n BIGSERIAL PRIMARY KEY, state TEXT NOT NULL)",
    },
    // Version 2 (issue 27): whether a match was rated, for the history (older matches: false).
    {
        "ALTER TABLE matches ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE",
    }};
    return all;
}

}  // namespace

std::string PostgresStorage::connection_url(std::string url) {
    // Dead peers of idle connections found in about 25 s (10 s idle, then 3 probes 5 s apart).
    for (const char* setting : {"keepalives=1", "keepalives_idle=10", "keepalives_interval=5", "keepalives_count=3"}) {
        const std::string_view s(setting);
        const std::string key(s.substr(0, s.find('=') + 1));
        const auto q = url.find('?');
        // A setting the URL has already (as "?key=" or "&key=") is the operator's.
        if (q != std::string::npos && (url.find("?" + key, q) != std::string::npos || url.find("&" + key, q) != std::string::npos))
            continue;
        url += q == std::string::npos ? "?" : "&";
        url += setting;
    }
    return url;
}

PostgresStorage::PostgresStorage(std::string url, PostgresOptions options)
    : url_(connection_url(std::move(url))), conn_(std::make_unique<Connection>(url_, options.timeout)) {
    migrate();
}

PostgresStorage::~PostgresStorage() = default;

void PostgresStorage::migrate() {
    const auto& all = migrations();
    static_assert(kPostgresSchemaVersion >= 1);
    // Every version this build knows has its statements.
    if (static_cast<int>(all.size()) != kPostgresSchemaVersion)
        throw StorageError("storage_io", "postgresql: migrations and kPostgresSchemaVersion disagree");
    for (int target = 1; target <= static_cast<int>(all.size()); ++target) {
        transact(*conn_, [&](Tx& w) {
            // Held until this transaction ends: a second server starting now waits here, then
            // reads the version this one wrote and migrates nothing.
            w.exec_params("SELECT pg_advisory_xact_lock($1)", kPostgresMigrationLock);
            w.exec("CREATE TABLE IF NOT EXISTS schema_version(one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),"
                   " version INTEGER NOT NULL)");
            const auto r = w.exec("SELECT version FROM schema_version");
            const int current = r.empty() ? 0 : r[0][0].as<int>();
            if (current > kPostgresSchemaVersion)
                throw StorageError("storage_io", "postgresql: the database's schema version " + std::to_string(current) +
                                                     " is newer than this server's " + std::to_string(kPostgresSchemaVersion));
            if (current >= target) return;
            for (const std::string& sql : all[static_cast<std::size_t>(target - 1)]) w.exec(sql);
            if (r.empty()) w.exec_params("INSERT INTO schema_version(version) VALUES($1)", target);
            else w.exec_params("UPDATE schema_version SET version = $1", target);
        });
    }
}

void PostgresStorage::ping() {
    transact(*conn_, [](Tx& w) { w.exec("SELECT 1"); });
}

// ---- guests ---------------------------------------------------------------------------------

std::optional<std::string> PostgresStorage::name_for_token(std::string_view token) {
    return transact(*conn_, [&](Tx& w) -> std::optional<std::string> {
        const auto r = w.exec_params("SELECT name FROM players WHERE token_hash = $1", hash_token(token));
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    });
}

bool PostgresStorage::register_name(std::string_view name, std::string_view token) {
    return transact(*conn_, [&](Tx& w) {
        // DO NOTHING on any unique key: the name, its key or the token hash already there.
        const auto r = w.exec_params("INSERT INTO players(name, name_key, token_hash) VALUES($1, $2, $3) ON CONFLICT DO NOTHING",
                                     std::string(name), name_key(name), hash_token(token));
        return r.affected_rows() == 1;
    });
}

}  // namespace tarneeb::server
