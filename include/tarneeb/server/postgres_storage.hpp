// The PostgreSQL backend of Storage (storage.hpp; issue 16): the same tables and contracts as
// SqliteStorage on a PostgreSQL 15 server, reached through libpqxx 6.4 over one connection
// (src/server/postgres_storage.cpp; docs/operations.md "PostgreSQL").
//
// URL: any libpq URL, `postgresql://USER@HOST:PORT/DBNAME?...` (or `postgres://`); when it has
// no `connect_timeout` one of 2 s is added, so that a server that is away costs the writer
// thread at most that long per call.
//
// Schema: created and migrated when opened. Table `schema_version` holds one row, the version
// (kPostgresSchemaVersion); each migration runs in one transaction that first takes
// pg_advisory_xact_lock(kPostgresMigrationLock), so two servers starting at once migrate once.
// A database whose version is newer than this build's is refused (storage_io). Ids ("t1",
// "T1") come from sequences (BIGSERIAL): never reused, even after a rollback.
//
// Connection: opened by the constructor (StorageError `storage_unavailable` when the server
// cannot be reached). When a call finds it broken (the server restarted or went away), the call
// throws `storage_unavailable` and the next call connects again: one attempt per call, no
// retry loop and no sleep on the writer thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tarneeb/server/storage.hpp"

namespace tarneeb::server {

/// The schema version this build creates and migrates to (table `schema_version`).
inline constexpr int kPostgresSchemaVersion = 1;
/// The pg_advisory_xact_lock key every migration transaction takes first.
inline constexpr std::int64_t kPostgresMigrationLock = 0x7461726e656562;  // "tarneeb"

class PostgresStorage final : public Storage {
public:
    /// Connects to `url` and creates or migrates the schema. StorageError when the server cannot
    /// be reached (`storage_unavailable`) or the schema cannot be made current.
    explicit PostgresStorage(std::string url);
    ~PostgresStorage() override;

    /// `url` with connect_timeout=2 added when it has none (what the connection uses).
    static std::string with_connect_timeout(std::string url);

    const char* backend() const noexcept override { return "postgresql"; }
    bool remote() const noexcept override { return true; }
    void ping() override;

    std::optional<std::string> name_for_token(std::string_view token) override;
    bool register_name(std::string_view name, std::string_view token) override;
    std::string create_table(const nlohmann::json& settings) override;
    void close_table(const std::string& id, std::int64_t fence = 0) override;
    void append(const std::string& table, const nlohmann::json& entry, std::int64_t fence = 0) override;
    void rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence = 0) override;
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

    struct Connection;  ///< the libpqxx connection (postgres_storage.cpp), kept out of this header

private:
    /// Creates the tables or migrates them to kPostgresSchemaVersion (in the constructor).
    void migrate();

    std::string url_;
    std::unique_ptr<Connection> conn_;
};

}  // namespace tarneeb::server
