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
    /// True when match `id` is stored and `viewer` may read it: a public table's match anyone
    /// (viewer nullopt too), a private table's match only a human player of it (by name: the
    /// name a token signs in as: Hall::viewer_of).
    bool match_readable(const std::string& id, const std::optional<std::string>& viewer);
    /// The stored analysis of deal `deal` (0-based) of match `id` (the JSON text of
    /// GET /api/matches/{id}/analysis), or nullopt when it was never stored.
    std::optional<std::string> match_analysis(const std::string& id, int deal);
    /// Stores (or replaces) that analysis. Table `match_analysis`, added to older databases
    /// when they are opened.
    void store_analysis(const std::string& id, int deal, std::string_view analysis);
    /// {"name", "matches": [{"id", "table", "finished", "seat", "status", "winner", "scores",
    /// "private"}...]} newest first, at most `limit`: the matches the player played at public
    /// tables, and at private ones too when `with_private` (the player asking for its own).
    nlohmann::json player_matches(const std::string& name, bool with_private, int limit = 100);
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

    // ---- accounts (src/server/storage_accounts.cpp; docs/protocol.md "Accounts") ------
    // A registered player is a players row with a password hash (the `$argon2id$...` string
    // of accounts.hpp, never the password). Its devices hold session tokens, kept only as
    // hash_token(token) in table `sessions`, each with its expiry (Unix ms). A guest's token
    // stays in players.token_hash; registering moves it into `sessions` (it keeps working,
    // until it expires) and replaces players.token_hash by the hash of a token nobody holds.
    /// Who holds `token` at `now_ms` (Unix ms): a guest's token, or a registered player's
    /// session that has not expired. nullopt for an unknown, expired or revoked token.
    std::optional<TokenOwner> token_owner(std::string_view token, std::int64_t now_ms);
    /// The player whose name has the key name_key(name) (so `layla` finds `Layla`), with its
    /// password hash ("" for a guest); nullopt when no player has that key.
    std::optional<Credentials> credentials(std::string_view name);
    /// Registers guest `name`: stores `password_hash` and keeps the guest's token (by its
    /// hash `token_hash`) as a session until `expires_ms`. False (nothing changes) when the
    /// player is unknown or already registered.
    bool register_password(const std::string& name, const std::string& password_hash, const std::string& token_hash,
                           std::int64_t now_ms, std::int64_t expires_ms);
    /// A new session of registered player `name`: hash_token(token) until `expires_ms`. Drops
    /// the player's expired sessions, and its oldest beyond kMaxSessionsPerPlayer.
    void add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms);
    /// Replaces `name`'s password hash and revokes every session of it but the one whose token
    /// hashes to `keep_token_hash` (and the guest token). Returns the revoked sessions.
    int change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash);
    /// Revokes every session of `name`, and its guest token. Returns the revoked sessions.
    int revoke_sessions(const std::string& name);
    /// Revokes the one session whose token hashes to `token_hash` (signing out one device).
    void revoke_session(const std::string& token_hash);
    /// True when `name` is a registered player (it has a password).
    bool is_registered(const std::string& name);
    // ---- profiles (issue 15; storage_profiles.cpp) ----------------------------------
    /// GET /api/players/{name} (docs/protocol.md "Profiles"): {"name", "registered", "rating",
    /// "matches", "wins", "contracts": {"bid", "made"}, "bids", "average_bid" (null before the
    /// first bid), "rating_history": [{"match", "finished", "rating"}…] (oldest first, at most
    /// kProfileHistory), "recent_matches": [{"id", "table", "finished", "rules", "seat",
    /// "players", "status", "winner", "scores", "won"}…] (newest first, at most kProfileMatches),
    /// "tournaments": [{"id", "name", "format", "state", "partner", "champion"}…] (newest first,
    /// at most kProfileTournaments)}. The counts cover every match; the two match lists show
    /// public tables' matches only. nullopt when no player has this name (NFC, as stored).
    std::optional<nlohmann::json> player_profile(const std::string& name);
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
    /// Adds players.password_hash and the `sessions` table to a database that lacks them
    /// (storage_accounts.cpp): every player of an older database is a guest.
    void migrate_accounts();
    /// Adds matches.private and matches.rules to a database that lacks them and fills them in
    /// for the matches already stored (from their table's settings and their record).
    void migrate_match_columns();
    /// Adds the table player_match_stats (each human seat's bids,
    /// contracts and rating after each stored match) when missing; a new stats table is filled
    /// from the matches already stored (their ratings then are unknown: no history point).
    void migrate_profiles();
    /// Fills player_match_stats from the matches already stored (migrate_profiles).
    void backfill_match_stats();
    /// Writes row's player_match_stats, read from its record (inside store_match's transaction,
    /// after the ratings changed).
    void store_match_stats(const MatchRow& row);
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
