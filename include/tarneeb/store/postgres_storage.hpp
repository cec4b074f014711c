// The PostgreSQL backend of Storage (storage.hpp; issue 16): the same tables and contracts as
// SqliteStorage on a PostgreSQL 15 server, reached through libpq's asynchronous API over one
// connection (src/store/postgres_*.cpp, one file per role; src/store/pg_connection.hpp;
// docs/operations.md "PostgreSQL").
//
// URL: any libpq URL, `postgresql://USER@HOST:PORT/DBNAME?...` (or `postgres://`); TCP
// keepalives are added unless the URL sets them (connection_url).
//
// Deadline: every call (connecting, when it has to, included) waits at most
// PostgresOptions::timeout (default 5 s) for the server, whatever the server does (down,
// restarting, hung with SIGSTOP, unreachable): past it the connection is closed and the call
// throws StorageError `storage_unavailable`. The same value is the session's statement_timeout,
// so a server that is alive but slow stops the statement itself. A COMMIT that got no answer
// in time may still have been committed (PostgreSQL applies it when it resumes); every other
// call that fails changed nothing.
//
// Schema: created and migrated when opened. Table `schema_version` holds one row, the version
// (kPostgresSchemaVersion); each migration runs in one transaction that first takes
// pg_advisory_xact_lock(kPostgresMigrationLock), so two servers starting at once migrate once.
// A database whose version is newer than this build's is refused (storage_io). Ids ("t1",
// "T1") come from sequences (BIGSERIAL): never reused, even after a rollback.
//
// Connection: opened by the constructor (StorageError `storage_unavailable` when the server
// cannot be reached within the deadline). When a call finds it broken (the server restarted or
// went away) or gets no answer in time, the call throws `storage_unavailable` and the next call
// connects again: one attempt per call, no retry loop and no sleep on the writer thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

/// The schema version this build creates and migrates to (table `schema_version`).
inline constexpr int kPostgresSchemaVersion = 2;  // 2: matches.rated (issue 27)
/// The pg_advisory_xact_lock key every migration transaction takes first.
inline constexpr std::int64_t kPostgresMigrationLock = 0x7461726e656562;  // "tarneeb"

/// How PostgresStorage waits for its server.
struct PostgresOptions {
    /// The longest one call waits for the server (connecting included), and the session's
    /// statement_timeout. Past it the call throws `storage_unavailable`. Milliseconds, > 0.
    std::chrono::milliseconds timeout{5000};
};

class PostgresStorage final : public Storage {
public:
    /// Connects to `url` and creates or migrates the schema. StorageError when the server cannot
    /// be reached in time (`storage_unavailable`) or the schema cannot be made current.
    explicit PostgresStorage(std::string url, PostgresOptions options = {});
    ~PostgresStorage() override;

    /// `url` with TCP keepalives (keepalives=1, keepalives_idle=10, keepalives_interval=5,
    /// keepalives_count=3: a dead peer of an idle connection is found in about 25 s) added
    /// where the URL does not set them. What the connection uses.
    static std::string connection_url(std::string url);

    const char* backend() const noexcept override { return "postgresql"; }
    bool remote() const noexcept override { return true; }
    void ping() override;

    std::optional<std::string> name_for_token(std::string_view token) override;
    bool register_name(std::string_view name, std::string_view token) override;
    std::string create_table(const nlohmann::json& settings) override;
    void close_table(const std::string& id, std::int64_t fence = 0) override;
    void append(const std::string& table, const nlohmann::json& entry, std::int64_t fence = 0) override;
    void rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence = 0) override;
    /// One transaction under one deadline. A batch of appends only (the usual one) is a single
    /// statement, one round trip (append_journal); with a rewrite it is BEGIN ... COMMIT in a
    /// few: the fenced tables' rows locked in one statement (FOR UPDATE, by table number: no
    /// deadlock between nodes), so each fence check stays atomic with its write, then one
    /// multi-row INSERT per run of entries (a rewrite's DELETE between runs), in the writes' order.
    std::vector<JournalResult> write_journal(std::span<const JournalWrite> writes) override;
    std::int64_t claim_table(const std::string& id, const std::string& node) override;
    std::vector<LiveTable> live_tables() override;
    std::vector<std::string> live_table_ids() override;
    std::optional<LiveTable> live_table(const std::string& id) override;
    bool store_match(const MatchRow& row) override;
    std::optional<std::string> match_record(const std::string& id) override;
    bool match_readable(const std::string& id, const std::optional<std::string>& viewer) override;
    std::optional<std::string> match_analysis(const std::string& id, int deal) override;
    void store_analysis(const std::string& id, int deal, std::string_view analysis) override;
    nlohmann::json player_matches(const std::string& name, bool with_private, int limit = 100) override;
    std::optional<nlohmann::json> public_matches(int limit, const std::optional<std::string>& before) override;
    std::vector<RatedMatch> rated_matches(int limit) override;
    nlohmann::json leaderboard(int limit = 100) override;
    double rating(const std::string& name) override;
    std::optional<TokenOwner> token_owner(std::string_view token, std::int64_t now_ms) override;
    std::optional<Credentials> credentials(std::string_view name) override;
    bool register_password(const std::string& name, const std::string& password_hash, const std::string& token_hash,
                           std::int64_t now_ms, std::int64_t expires_ms) override;
    void add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms) override;
    int change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash) override;
    int revoke_sessions(const std::string& name) override;
    void revoke_session(const std::string& token_hash) override;
    bool is_registered(const std::string& name) override;
    std::optional<nlohmann::json> player_profile(const std::string& name) override;
    std::string create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) override;
    void save_tournament(const std::string& id, const nlohmann::json& state) override;
    std::vector<nlohmann::json> tournaments() override;

    struct Connection;  ///< the libpq connection (postgres_tx.hpp), kept out of this header

private:
    /// write_journal of appends only, in one statement (see write_journal).
    std::vector<JournalResult> append_journal(std::span<const JournalWrite> writes);
    /// Creates the tables or migrates them to kPostgresSchemaVersion (in the constructor).
    void migrate();

    std::string url_;
    std::unique_ptr<Connection> conn_;
};

}  // namespace tarneeb::server
