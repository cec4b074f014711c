// The server's durable store: guests and their ratings, finished matches as tarneeb-record/1
// (and their deals' double-dummy analyses), accounts, tournaments and the journal of live
// tables. `Storage` is the interface; two backends implement it with the same contracts:
//   SqliteStorage    an embedded SQLite file in WAL mode (the default of `tarneeb serve --db`);
//   PostgresStorage  a PostgreSQL 15 database through libpq (`--postgres URL`;
//                    postgres_storage.hpp), the store of the cluster mode to come (issue 16).
// open_storage(spec) picks one from its argument. Every method runs on the hall's one writer
// thread (hall.hpp): a backend is used by one thread at a time and needs no lock.
//
// Journal: every change of a live table is appended as one JSON entry (docs/protocol.md:
// written before the change is acknowledged); the hall writes the changes of many tables in
// one transaction (write_journal: group commit). A restarted server replays each live table's
// entries in order and so resumes it where it was. SQLite: with synchronous=NORMAL in WAL mode
// a committed entry survives a crash of the process (kill -9); surviving a power cut needs
// synchronous=FULL (`SqliteStorage(path, /*full_sync=*/true)`). PostgreSQL: a committed entry
// is as durable as the server's own settings make it (fsync, synchronous_commit).
//
// Fencing (for the cluster: one owner per live table): each live table has a fence, a counter
// that claim_table increments and returns to the node that takes the table over. append,
// rewrite, close_table and each write of write_journal take that token; a write with a fence
// that is no longer the table's changes nothing and throws StorageError `storage_fenced` (is
// refused with it, in write_journal), so an old owner (paused, partitioned) can never write
// after a new one claimed the table. Fence 0 means "not fenced"
// (the single-node server). The check and the write are one atomic statement or transaction.
//
// Tokens are never stored: only a 128-bit hash of each (hash_token), which is what a sign-in
// looks up. Ratings: Elo (docs/protocol.md "Ratings"), the one rule of rating.hpp.
//
// Errors: every method of both backends throws StorageError on a database error (disk full,
// read-only or corrupt file, I/O error, lost connection), with a stable code. A failed write
// changes nothing: a single statement is atomic and every multi-statement write is one
// transaction, rolled back on failure. The hall turns the error into the protocol error
// `storage_unavailable` and keeps running (docs/operations.md "Storage errors").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/store/rating.hpp"
#include "tarneeb/store/seat_stats.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace tarneeb::server {

/// A database error. `code()` is one of (stable, logged as `code=`):
///   storage_full         SQLITE_FULL, or a write refused with ENOSPC / EFBIG (disk or file size
///                        limit); PostgreSQL SQLSTATE 53100 (disk_full)
///   storage_read_only    SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN (file or directory not
///                        writable); PostgreSQL 25006 (read-only transaction: a standby), 42501
///   storage_corrupt      SQLITE_CORRUPT, SQLITE_NOTADB; PostgreSQL class XX (data_corrupted...)
///   storage_busy         SQLITE_BUSY, SQLITE_LOCKED (another process holds the file past the
///                        timeout); PostgreSQL 40001, 40P01, 55P03 (serialization, deadlock, lock)
///   storage_unavailable  PostgreSQL: no connection (refused, lost, timed out, server shutting
///                        down: class 08, 57P01-57P03, 53300); the next call connects again
///   storage_fenced       a fenced write (append, rewrite, close_table) whose fence is not the
///                        table's current one, or claim_table of a table that is not live:
///                        another node owns the table now; nothing was written
///   storage_io           any other error
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

/// The hash of a token nobody holds (a fresh random one, thrown away): a registered player's
/// players.token_hash in either backend, so that its guest token no longer signs in (the column
/// is UNIQUE NOT NULL).
std::string unheld_token_hash();

/// A table id's number, the key of its rows in either backend: "t7" → 7; -1 when `id` is not a
/// table id.
std::int64_t table_number(const std::string& id);

/// One finished match, as stored.
struct MatchRow {
    std::string id;                      ///< "<table>-<match number>", e.g. "t3-2"
    std::string table;                   ///< table id
    std::int64_t finished_ms = 0;        ///< Unix time in ms
    std::array<std::string, 4> names;    ///< seat names (bots: the bot's name)
    std::array<bool, 4> bots{};          ///< seat played by a bot at the end (not rated: kBotRating)
    bool rated = true;                   ///< the table's match counted for ratings (Table::rated): else no seat is rated
    std::string status;                  ///< won, drawn, closed
    int winner = -1;                     ///< team 0/1, -1 for none
    std::array<int, 2> scores{};
    std::string record;                  ///< the tarneeb-record/1 text (with "players")
    std::string rules;                   ///< the preset's name: levantine, classic
    bool is_private = true;              ///< played at a private table: never in public_matches
    std::array<SeatStats, 4> stats{};    ///< each seat's profile numbers: seat_stats of the match
};

// What storing a MatchRow does to its seats' ratings: seat_ratings (rating.hpp).

/// Who holds a token (Storage::token_owner).
struct TokenOwner {
    std::string name;
    bool registered = false;  ///< a registered player's session (else a guest's token)
};

/// A player's stored credentials (Storage::credentials).
struct Credentials {
    std::string name;           ///< the name as registered (NFC)
    std::string password_hash;  ///< the `$argon2id$...` string; "" for a guest (not registered)
};

/// Sessions one registered player keeps at most (the oldest are revoked beyond).
inline constexpr int kMaxSessionsPerPlayer = 32;

/// A rated match as rated_matches lists it (the operator's rating-pattern report,
/// rating_patterns.hpp).
struct RatedMatch {
    std::string id;
    std::int64_t finished_ms = 0;        ///< Unix ms
    bool is_private = false;             ///< played at a private table
    std::string status;                  ///< won, drawn or abandoned
    int winner = -1;                     ///< team 0/1, -1 for a draw
    std::array<std::string, 4> names;    ///< seat names (team 0: seats 0 and 2)
    int deals = 0;                       ///< deals played (the record's `deals`)
};

/// The largest page of public_matches.
inline constexpr int kMaxMatchPage = 50;
/// A profile's rating history points and recent matches, at most (player_profile).
inline constexpr int kProfileHistory = 200;
inline constexpr int kProfileMatches = 50;
/// A profile's tournaments: at most this many, found among the newest kProfileTournamentScan.
inline constexpr int kProfileTournaments = 20;
inline constexpr int kProfileTournamentScan = 500;

/// A live table as journaled: its settings and every entry since its last compaction.
struct LiveTable {
    std::string id;
    nlohmann::json settings;
    std::vector<nlohmann::json> entries;
};

/// One write of a live table's journal, as Storage::write_journal takes it: an append (one
/// entry) or a rewrite (the table's whole new journal, a compaction), with the writer's fence
/// (0: not fenced; see Storage::append). Each entry is its stored text already, one compact
/// JSON object (journal_text, room/journal.hpp), stored as it is: the writer thread serialises
/// nothing.
struct JournalWrite {
    std::string table;                 ///< live table id ("t7")
    bool rewrite = false;              ///< true: `entries` replace the journal; false: append
    std::vector<std::string> entries;  ///< the entry to append (exactly one), or the new journal
    std::int64_t fence = 0;
};

/// What became of one JournalWrite: nullopt when it is committed, else its error.
using JournalResult = std::optional<StorageError>;

/// The store's interface (this file's top comment): what the hall asks of either backend.
/// Each method's contract below holds for both SqliteStorage and PostgresStorage; the one
/// suite tests/store/storage_test.cpp runs against each.
class Storage {
public:
    Storage() = default;
    virtual ~Storage() = default;
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    /// The backend's name: "sqlite" or "postgresql" (logged, and shown by /healthz).
    virtual const char* backend() const noexcept = 0;
    /// True when the store is a server the process reaches over a connection (PostgreSQL):
    /// /healthz then asks it (ping) rather than trusting the last write.
    virtual bool remote() const noexcept = 0;
    /// Checks that the database answers (a trivial query); throws StorageError when not.
    virtual void ping() = 0;

    // ---- guests ---------------------------------------------------------------------
    /// The name whose token hashes to hash_token(token), if any.
    virtual std::optional<std::string> name_for_token(std::string_view token) = 0;
    /// Registers `name` (NFC, as names.hpp's normalize_name returns it) with this token, under
    /// its key name_key(name) in a UNIQUE column. False if the name or its key is registered.
    virtual bool register_name(std::string_view name, std::string_view token) = 0;

    // ---- live tables ----------------------------------------------------------------
    /// A new live table id ("t1", "t2", ... never reused) with its settings.
    virtual std::string create_table(const nlohmann::json& settings) = 0;
    /// The table is no longer live (its journal is dropped). `fence`: see append.
    virtual void close_table(const std::string& id, std::int64_t fence = 0) = 0;
    /// Appends one journal entry (committed when this returns). `fence` 0: not fenced (one
    /// node). Else the token claim_table returned: when it is not the table's current fence
    /// (another node claimed the table since), nothing is written and StorageError
    /// `storage_fenced` is thrown; the check and the insert are one atomic statement.
    virtual void append(const std::string& table, const nlohmann::json& entry, std::int64_t fence = 0) = 0;
    /// Replaces the table's journal by `entries` in one transaction (a compaction). `fence`:
    /// see append (checked in the same transaction; a stale fence changes nothing).
    virtual void rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence = 0) = 0;
    /// Group commit (the hall's writer: hall.hpp): writes `writes` in order, as append and
    /// rewrite would, in ONE transaction, and returns one result per write, in the same order
    /// (`writes.size()` results; none for an empty span, which touches nothing).
    ///  - A write whose fence is stale (see append) is refused alone: its result is
    ///    `storage_fenced` and nothing of it is written, while the others commit.
    ///  - When the transaction itself fails (disk full, lost connection, deadline, ...) every
    ///    write's result is that error and nothing at all is written (PostgreSQL: a COMMIT that
    ///    got no answer may still have committed, as for every call: postgres_storage.hpp).
    ///  - Writes are applied in the order given: two writes of one table keep their order (an
    ///    append after a rewrite follows the new journal).
    ///  - A nullopt result means the write is committed (durable as append's) when this returns.
    /// Throws nothing but std::bad_alloc: every error is a result. SqliteStorage and
    /// PostgresStorage do this in one transaction; this default, for any other backend, is one
    /// append or rewrite per write (each its own transaction, so one failure does not undo the
    /// others).
    virtual std::vector<JournalResult> write_journal(std::span<const JournalWrite> writes);
    /// Makes `node` the owner of live table `id`: increments the table's fence in one
    /// statement and returns the new value (1 for the first claim), the token the owner passes
    /// to its fenced writes. Every write with an older token is refused from then on.
    /// StorageError `storage_fenced` when `id` is not a live table.
    virtual std::int64_t claim_table(const std::string& id, const std::string& node) = 0;
    /// Every live table with its journal, oldest table first; each table's entries in the
    /// order they were appended.
    virtual std::vector<LiveTable> live_tables() = 0;
    /// The ids of the live tables, oldest first (the cluster's scan for tables no node runs).
    /// This default filters live_tables(); a backend with many tables answers it cheaper.
    virtual std::vector<std::string> live_table_ids();
    /// One live table with its journal, or nullopt when `id` is not live (a node taking the
    /// table over after claim_table). This default filters live_tables().
    virtual std::optional<LiveTable> live_table(const std::string& id);

    // ---- matches and ratings --------------------------------------------------------
    /// Stores a finished match and, unless closed, rates its human players. Idempotent by id:
    /// returns false (and changes nothing) when the id is already stored.
    virtual bool store_match(const MatchRow& row) = 0;
    /// The stored record text, or nullopt.
    virtual std::optional<std::string> match_record(const std::string& id) = 0;
    /// True when match `id` is stored and `viewer` may read it: a public table's match anyone
    /// (viewer nullopt too), a private table's match only a human player of it (by name: the
    /// name a token signs in as: Hall::viewer_of).
    virtual bool match_readable(const std::string& id, const std::optional<std::string>& viewer) = 0;
    /// The stored analysis of deal `deal` (0-based) of match `id` (the JSON text of
    /// GET /api/matches/{id}/analysis), or nullopt when it was never stored.
    virtual std::optional<std::string> match_analysis(const std::string& id, int deal) = 0;
    /// Stores (or replaces) that analysis. Table `match_analysis`, added to older databases
    /// when they are opened.
    virtual void store_analysis(const std::string& id, int deal, std::string_view analysis) = 0;
    /// {"name", "matches": [{"id", "table", "finished", "seat", "status", "winner", "scores",
    /// "private"}...]} newest first, at most `limit`: the matches the player played at public
    /// tables, and at private ones too when `with_private` (the player asking for its own).
    virtual nlohmann::json player_matches(const std::string& name, bool with_private, int limit = 100) = 0;
    /// One page of the finished matches of public tables, newest first (by finish time, then
    /// by the order stored): {"matches": [{"id", "table", "finished" (Unix ms), "rules",
    /// "players": [4 names], "status", "winner" (team or null), "scores": [a, b]}...], "next":
    /// the id to pass as `before` for the next page, or null on the last page}. `limit` is
    /// 1..kMaxMatchPage (clamped). `before`: only the matches after that one in this order;
    /// nullopt (a bad cursor) when it is not the id of a listed (public) match.
    virtual std::optional<nlohmann::json> public_matches(int limit, const std::optional<std::string>& before) = 0;
    /// The newest `limit` matches that changed ratings (counts_for_ratings, rating.hpp),
    /// newest first, public and private: what the operator's rating-pattern report reads.
    virtual std::vector<RatedMatch> rated_matches(int limit) = 0;
    /// {"players": [{"name","rating","matches","wins"}...]} best first, at most `limit`.
    virtual nlohmann::json leaderboard(int limit = 100) = 0;
    /// A player's rating (kStartRating, rating.hpp, when unrated or unknown).
    virtual double rating(const std::string& name) = 0;

    // ---- accounts (src/store/*_accounts.cpp; docs/protocol.md "Accounts") ----------
    // A registered player is a players row with a password hash (the `$argon2id$...` string
    // of accounts.hpp, never the password). Its devices hold session tokens, kept only as
    // hash_token(token) in table `sessions`, each with its expiry (Unix ms). A guest's token
    // stays in players.token_hash; registering moves it into `sessions` (it keeps working,
    // until it expires) and replaces players.token_hash by the hash of a token nobody holds.
    /// Who holds `token` at `now_ms` (Unix ms): a guest's token, or a registered player's
    /// session that has not expired. nullopt for an unknown, expired or revoked token.
    virtual std::optional<TokenOwner> token_owner(std::string_view token, std::int64_t now_ms) = 0;
    /// The player whose name has the key name_key(name) (so `layla` finds `Layla`), with its
    /// password hash ("" for a guest); nullopt when no player has that key.
    virtual std::optional<Credentials> credentials(std::string_view name) = 0;
    /// Registers guest `name`: stores `password_hash` and keeps the guest's token (by its
    /// hash `token_hash`) as a session until `expires_ms`. False (nothing changes) when the
    /// player is unknown or already registered.
    virtual bool register_password(const std::string& name, const std::string& password_hash, const std::string& token_hash,
                           std::int64_t now_ms, std::int64_t expires_ms) = 0;
    /// A new session of registered player `name`: hash_token(token) until `expires_ms`. Drops
    /// the player's expired sessions, and its oldest beyond kMaxSessionsPerPlayer.
    virtual void add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms) = 0;
    /// Replaces `name`'s password hash and revokes every session of it but the one whose token
    /// hashes to `keep_token_hash` (and the guest token). Returns the revoked sessions.
    virtual int change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash) = 0;
    /// Revokes every session of `name`, and its guest token. Returns the revoked sessions.
    virtual int revoke_sessions(const std::string& name) = 0;
    /// Revokes the one session whose token hashes to `token_hash` (signing out one device).
    virtual void revoke_session(const std::string& token_hash) = 0;
    /// True when `name` is a registered player (it has a password).
    virtual bool is_registered(const std::string& name) = 0;
    // ---- profiles (issue 15; *_profiles.cpp) ----------------------------------------
    /// GET /api/players/{name} (docs/protocol.md "Profiles"): {"name", "registered", "rating",
    /// "matches", "wins", "contracts": {"bid", "made"}, "bids", "average_bid" (null before the
    /// first bid), "rating_history": [{"match", "finished", "rating"}…] (oldest first, at most
    /// kProfileHistory), "recent_matches": [{"id", "table", "finished", "rules", "seat",
    /// "players", "status", "winner", "scores", "won"}…] (newest first, at most kProfileMatches),
    /// "tournaments": [{"id", "name", "format", "state", "partner", "champion"}…] (newest first,
    /// at most kProfileTournaments)}. The counts cover every match; the two match lists show
    /// public tables' matches only. nullopt when no player has this name (NFC, as stored).
    virtual std::optional<nlohmann::json> player_profile(const std::string& name) = 0;
    // ---- tournaments (issue 15; include/tarneeb/server/tournament.hpp) -------------------
    /// A new tournament id ("T1", "T2", ... never reused) whose first state is `state(id)`,
    /// stored in one transaction.
    virtual std::string create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) = 0;
    /// Replaces tournament `id`'s state (its journal: the whole state after each change).
    virtual void save_tournament(const std::string& id, const nlohmann::json& state) = 0;
    /// Every stored tournament's state, oldest first.
    virtual std::vector<nlohmann::json> tournaments() = 0;

};

/// The SQLite backend (src/store/sqlite_*.cpp, one file per role): one file in
/// WAL mode, created and migrated in place when opened (older databases gain the newer
/// tables and columns).
/// Not final: a test may subclass it to make a real database fail on demand.
class SqliteStorage : public Storage {
public:
    /// Opens (creating if needed) the database at `path` (":memory:" for a private one).
    /// StorageError when the file cannot be opened or written.
    explicit SqliteStorage(const std::string& path, bool full_sync = false);
    ~SqliteStorage() override;

    const char* backend() const noexcept override { return "sqlite"; }
    bool remote() const noexcept override { return false; }
    void ping() override;
    std::optional<std::string> name_for_token(std::string_view token) override;
    bool register_name(std::string_view name, std::string_view token) override;
    std::string create_table(const nlohmann::json& settings) override;
    void close_table(const std::string& id, std::int64_t fence = 0) override;
    void append(const std::string& table, const nlohmann::json& entry, std::int64_t fence = 0) override;
    void rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence = 0) override;
    /// One BEGIN IMMEDIATE ... COMMIT; each write checks its fence before it changes anything.
    std::vector<JournalResult> write_journal(std::span<const JournalWrite> writes) override;
    std::int64_t claim_table(const std::string& id, const std::string& node) override;
    std::vector<LiveTable> live_tables() override;
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

private:
    void exec(const char* sql);
    /// Runs the transaction statement `sql` (BEGIN IMMEDIATE, COMMIT, ROLLBACK) through `stmt`,
    /// prepared on its first use and kept: write_journal runs three per batch, and preparing
    /// them each time (sqlite3_exec) was a tenth of the writer's work. The statement is reset
    /// after each run, whatever its result. Throws StorageError when it fails (e.g. a COMMIT
    /// refused with SQLITE_FULL: the transaction is then still open, for the caller's ROLLBACK).
    void run_kept(sqlite3_stmt*& stmt, const char* sql);
    /// Inserts one journal entry of `table` if `fence` is 0 or the table's current one (the
    /// check and the insert in one statement, after the read of the entry's seq: inside the
    /// caller's transaction); false (nothing inserted) when the fence is stale. `entry`: its stored text.
    /// Throws StorageError.
    bool insert_entry(const std::string& table, std::string_view entry, std::int64_t fence);
    /// Adds players.name_key (UNIQUE) to a database that lacks it and keys existing players.
    void migrate_name_keys();
    /// Adds players.password_hash and the `sessions` table to a database that lacks them
    /// (sqlite_accounts.cpp): every player of an older database is a guest.
    void migrate_accounts();
    /// Adds matches.private and matches.rules to a database that lacks them and fills them in
    /// for the matches already stored (from their table's settings and their record).
    void migrate_match_columns();
    /// Adds the table player_match_stats (each human seat's bids,
    /// contracts and rating after each stored match) when missing; a new stats table is filled
    /// from the matches already stored (their ratings then are unknown: no history point).
    void migrate_profiles();
    /// Fills player_match_stats from the matches already stored (migrate_profiles): each
    /// record replayed into its Match, counted by seat_stats.
    void backfill_match_stats();
    /// Writes row's player_match_stats from row.stats (inside store_match's transaction, after
    /// the ratings changed).
    void store_match_stats(const MatchRow& row);
    /// Adds the tournaments table (issue 15) to a database that lacks it.
    void migrate_tournaments();
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    template <class F>
    void transaction(F&& body);
    [[noreturn]] void fail(const char* what) const;
    /// Adds tables.fence and tables.owner (fencing, issue 16) to a database that lacks them.
    void migrate_fences();
    /// Turns an older database's journal (a rowid table with an index on (table_n, seq)) into
    /// the journal of today, one b-tree keyed by (table_n, seq) (WITHOUT ROWID): the same rows,
    /// each table's entries in the same order. A commit then writes one page per table it
    /// appends to, not a page of each b-tree.
    void migrate_journal();
    sqlite3* db_ = nullptr;
    struct sqlite3_stmt* append_ = nullptr;  ///< the journal's INSERT, prepared once
    struct sqlite3_stmt* next_seq_ = nullptr;  ///< the seq of a table's next entry, prepared once
    struct sqlite3_stmt* begin_ = nullptr;     ///< write_journal's BEGIN IMMEDIATE (run_kept)
    struct sqlite3_stmt* commit_ = nullptr;    ///< write_journal's COMMIT (run_kept)
    struct sqlite3_stmt* rollback_ = nullptr;  ///< write_journal's ROLLBACK (run_kept)
};

/// Opens the store `spec` names: a `postgresql://` or `postgres://` URL opens PostgreSQL
/// (PostgresStorage; `full_sync` does not apply: durability is the server's), anything else is
/// a SQLite file path (":memory:" included; SqliteStorage(spec, full_sync)). Creates or
/// migrates the schema. StorageError when the database cannot be opened.
std::unique_ptr<Storage> open_storage(const std::string& spec, bool full_sync = false);

/// True when `spec` is a PostgreSQL URL (open_storage opens it with PostgresStorage).
bool is_postgres_url(std::string_view spec);

}  // namespace tarneeb::server
