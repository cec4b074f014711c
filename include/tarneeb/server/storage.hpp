// The server's SQLite database (WAL mode): guests and their ratings, finished matches as
// tarneeb-record/1 (and their deals' double-dummy analyses), and the journal of live tables.
//
// Journal: every change of a live table is appended as one JSON entry (docs/protocol.md:
// written before the change is acknowledged). A restarted server replays each live table's
// entries in order and so resumes it where it was. With synchronous=NORMAL in WAL mode a
// committed entry survives a crash of the process (kill -9); surviving a power cut needs
// synchronous=FULL (`Storage(path, /*full_sync=*/true)`).
//
// Tokens are never stored: only a 128-bit hash of each (hash_token), which is what a sign-in
// looks up. Ratings: Elo (docs/protocol.md "Ratings").
//
// Errors: every method throws StorageError on a database error (disk full, read-only or
// corrupt file, I/O error), with a stable code. A failed write changes nothing: a single
// statement is atomic and every multi-statement write is one transaction, rolled back on
// failure. The hall turns the error into the protocol error `storage_unavailable` and keeps
// running (docs/operations.md "Storage errors").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;
struct sqlite3_stmt;

namespace tarneeb::server {

/// A database error. `code()` is one of (stable, logged as `code=`):
///   storage_full       SQLITE_FULL, or a write refused with ENOSPC / EFBIG (disk or file size limit)
///   storage_read_only  SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN (file or directory not writable)
///   storage_corrupt    SQLITE_CORRUPT, SQLITE_NOTADB
///   storage_busy       SQLITE_BUSY, SQLITE_LOCKED (another process holds the file past the timeout)
///   storage_io         any other error
class StorageError : public std::runtime_error {
public:
    StorageError(std::string code, const std::string& what) : std::runtime_error(what), code_(std::move(code)) {}
    const std::string& code() const { return code_; }

private:
    std::string code_;
};

/// 32 hex digits: a 128-bit hash of the token (not reversible without trying tokens; tokens
/// are 128 random bits, so trying them is hopeless).
std::string hash_token(std::string_view token);

/// Elo for two teams: returns the change of team 0's rating (team 1 gets the opposite).
/// `score0` is 1 (team 0 won), 0.5 (draw) or 0; k = 32.
double elo_delta(double rating0, double rating1, double score0, double k = 32.0);

/// One finished match, as stored.
struct MatchRow {
    std::string id;                      ///< "<table>-<match number>", e.g. "t3-2"
    std::string table;                   ///< table id
    std::int64_t finished_ms = 0;        ///< Unix time in ms
    std::array<std::string, 4> names;    ///< seat names (bots: the bot's name)
    std::array<bool, 4> bots{};          ///< seat played by a bot at the end (not rated)
    std::string status;                  ///< won, drawn, closed
    int winner = -1;                     ///< team 0/1, -1 for none
    std::array<int, 2> scores{};
    std::string record;                  ///< the tarneeb-record/1 text (with "players")
    std::string rules;                   ///< the preset's name: levantine, classic
    bool is_private = true;              ///< played at a private table: never in public_matches
};

/// The largest page of public_matches.
inline constexpr int kMaxMatchPage = 50;

/// A live table as journaled: its settings and every entry since its last compaction.
struct LiveTable {
    std::string id;
    nlohmann::json settings;
    std::vector<nlohmann::json> entries;
};

class Storage {
public:
    /// Opens (creating if needed) the database at `path` (":memory:" for a private one).
    explicit Storage(const std::string& path, bool full_sync = false);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    // ---- guests ---------------------------------------------------------------------
    /// The name whose token hashes to hash_token(token), if any.
    std::optional<std::string> name_for_token(std::string_view token);
    /// Registers `name` (NFC, as names.hpp's normalize_name returns it) with this token, under
    /// its key name_key(name) in a UNIQUE column. False if the name or its key is registered.
    bool register_name(std::string_view name, std::string_view token);

    // ---- live tables ----------------------------------------------------------------
    /// A new live table id ("t1", "t2", ... never reused) with its settings.
    std::string create_table(const nlohmann::json& settings);
    /// The table is no longer live (its journal is dropped).
    void close_table(const std::string& id);
    /// Appends one journal entry (committed when this returns).
    void append(const std::string& table, const nlohmann::json& entry);
    /// Replaces the table's journal by `entries` in one transaction (a compaction).
    void rewrite(const std::string& table, const std::vector<nlohmann::json>& entries);
    /// Every live table with its journal, oldest table first.
    std::vector<LiveTable> live_tables();

    // ---- matches and ratings --------------------------------------------------------
    /// Stores a finished match and, unless closed, rates its human players. Idempotent by id:
    /// returns false (and changes nothing) when the id is already stored.
    bool store_match(const MatchRow& row);
    /// The stored record text, or nullopt.
    std::optional<std::string> match_record(const std::string& id);
    /// The stored analysis of deal `deal` (0-based) of match `id` (the JSON text of
    /// GET /api/matches/{id}/analysis), or nullopt when it was never stored.
    std::optional<std::string> match_analysis(const std::string& id, int deal);
    /// Stores (or replaces) that analysis. Table `match_analysis`, added to older databases
    /// when they are opened.
    void store_analysis(const std::string& id, int deal, std::string_view analysis);
    /// {"name", "matches": [...]} newest first, at most `limit`: every match the player played,
    /// at public and private tables alike (a player's own history).
    nlohmann::json player_matches(const std::string& name, int limit = 100);
    /// One page of the finished matches of public tables, newest first (by finish time, then
    /// by the order stored): {"matches": [{"id", "table", "finished" (Unix ms), "rules",
    /// "players": [4 names], "status", "winner" (team or null), "scores": [a, b]}...], "next":
    /// the id to pass as `before` for the next page, or null on the last page}. `limit` is
    /// 1..kMaxMatchPage (clamped). `before`: only the matches after that one in this order;
    /// nullopt (a bad cursor) when it is not the id of a listed (public) match.
    std::optional<nlohmann::json> public_matches(int limit, const std::optional<std::string>& before);
    /// {"players": [{"name","rating","matches","wins"}...]} best first, at most `limit`.
    nlohmann::json leaderboard(int limit = 100);
    /// A player's rating (1500 when unrated or unknown).
    double rating(const std::string& name);

    // ---- tournaments (issue 15; include/tarneeb/server/tournament.hpp) -------------------
    /// A new tournament id ("T1", "T2", ... never reused) whose first state is `state(id)`,
    /// stored in one transaction.
    std::string create_tournament(const std::function<nlohmann::json(const std::string& id)>& state);
    /// Replaces tournament `id`'s state (its journal: the whole state after each change).
    void save_tournament(const std::string& id, const nlohmann::json& state);
    /// Every stored tournament's state, oldest first.
    std::vector<nlohmann::json> tournaments();

private:
    void exec(const char* sql);
    /// Adds players.name_key (UNIQUE) to a database that lacks it and keys existing players.
    void migrate_name_keys();
    /// Adds matches.private and matches.rules to a database that lacks them and fills them in
    /// for the matches already stored (from their table's settings and their record).
    void migrate_match_columns();
    /// Adds the tournaments table (issue 15) to a database that lacks it.
    void migrate_tournaments();
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    template <class F>
    void transaction(F&& body);
    [[noreturn]] void fail(const char* what) const;
    sqlite3* db_ = nullptr;
    struct sqlite3_stmt* append_ = nullptr;  ///< the journal's INSERT, prepared once
};

}  // namespace tarneeb::server
