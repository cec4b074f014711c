// PostgresStorage (include/tarneeb/store/postgres_storage.hpp): Storage on PostgreSQL 15
// through libpq (pg_connection.hpp: every wait bounded by the call's deadline). Every method is
// one transaction (BEGIN ... COMMIT, READ COMMITTED) run by `transact`, which also turns
// PostgreSQL's errors into StorageError codes and drops a connection that broke or did not
// answer in time, so that the next call connects again. The SQL mirrors storage.cpp,
// storage_accounts.cpp and storage_profiles.cpp (SQLite): same tables and columns, with
// BIGSERIAL for SQLite's AUTOINCREMENT and rowid, BOOLEAN for 0/1 flags, ON CONFLICT for
// INSERT OR IGNORE / OR REPLACE, and COLLATE "C" where text orders a list (SQLite compares
// bytes; a PostgreSQL database may have another default collation).
#include "tarneeb/store/postgres_storage.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <type_traits>
#include <utility>

#include "match_stats.hpp"
#include "pg_connection.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/support/names.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

/// The one connection, opened on demand: closed after it broke or timed out, until the next call.
struct PostgresStorage::Connection : pg_detail::PgConnection {
    using PgConnection::PgConnection;
};

namespace {

using pg_detail::Clock;
using pg_detail::PgResult;

/// The StorageError code of a PostgreSQL error (storage.hpp lists them), by its SQLSTATE.
std::string code_of(const std::string& sqlstate) {
    if (sqlstate == "53100") return "storage_full";  // disk_full
    if (sqlstate == "25006" || sqlstate == "42501") return "storage_read_only";  // read-only transaction, privilege
    if (sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03" || sqlstate == "53300" ||
        sqlstate == "57014")
        // connection exception, shutdown, cannot connect now, too many connections, and a
        // statement the server cancelled at statement_timeout (the deadline, seen from its side)
        return "storage_unavailable";
    if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03") return "storage_busy";
    if (sqlstate.starts_with("XX")) return "storage_corrupt";
    return "storage_io";
}

/// A statement parameter as text (what PQsendQueryParams takes).
std::optional<std::string> param(const std::string& v) { return v; }
std::optional<std::string> param(bool v) { return v ? "true" : "false"; }
std::optional<std::string> param(double v) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
    return std::string(buf, end);
}
template <class T>
    requires std::is_integral_v<T>
std::optional<std::string> param(T v) {
    return std::to_string(v);
}

/// A call's first statement found its connection broken before the server can have done
/// anything of the call: `bounded` runs the call again once, on a new connection.
struct BrokenBeforeStart {
    std::string why;
};

/// Whether SQLSTATE `s` says the connection is going or gone (connection exception, shutdown).
bool connection_broken(const std::string& s) {
    return s.starts_with("08") || s == "57P01" || s == "57P02" || s == "57P03";
}

/// One transaction's statements, all bounded by its call's deadline (what `transact` gives a
/// method's body).
///
/// The retry rule (issue 26): a call is run again once, on a new connection and within the same
/// deadline, when its FIRST statement failed on a connection kept from an earlier call (one
/// that can have broken unseen while idle, e.g. the server restarted or cut it) because the
/// connection was broken, not because the deadline passed or the server refused the statement:
///   - in a transaction (`transact`) the first statement is BEGIN, which changes nothing, and
///     the body has not run: any such failure of BEGIN, whether libpq lost the connection or
///     the server answered with a connection error (class 08, 57P01-57P03), is retried;
///   - a statement on its own (`statement`, autocommit) is retried only when it failed before
///     libpq had written it whole to the socket (the server runs a message only once it has
///     all of it); once sent it may have been committed, and it is never sent again.
/// A failure after that (a body's statement, the COMMIT) is never retried: the caller gets
/// storage_unavailable, as before. A connection that was made by this call is not retried
/// either: the server is away, and the next call connects again.
class Tx {
public:
    Tx(PostgresStorage::Connection& conn, Clock::time_point deadline, bool begins)
        : conn_(conn), deadline_(deadline), begins_(begins) {}
    PgResult exec(std::string_view sql) { return run(sql, {}); }
    /// `sql` with $1, $2, ... bound to `args` (std::string, integers, doubles, booleans).
    template <class... A>
    PgResult exec_params(std::string_view sql, const A&... args) {
        return run(sql, {param(args)...});
    }

private:
    PgResult run(std::string_view sql, const pg_detail::PgParams& params) {
        const bool first = !started_;
        started_ = true;
        try {
            return conn_.exec(sql, params, deadline_);
        } catch (const pg_detail::PgLost& e) {
            if (first && conn_.reused() && !e.timed_out && (begins_ || !e.maybe_sent)) throw BrokenBeforeStart{e.what()};
            throw;
        } catch (const pg_detail::PgError& e) {
            if (first && begins_ && conn_.reused() && connection_broken(e.sqlstate)) {
                conn_.close();
                throw BrokenBeforeStart{e.what()};
            }
            throw;
        }
    }

    PostgresStorage::Connection& conn_;
    Clock::time_point deadline_;
    bool begins_;  // the first statement is BEGIN (transact)
    bool started_ = false;
};

/// What `run` returns: the result of `body` (a call on a Tx).
template <class F>
using TxResult = decltype(std::declval<F>()(std::declval<Tx&>()));

/// Runs `run(tx)` within the connection's timeout, PostgreSQL's errors turned into StorageError
/// as transact says (transact and statement); `begins`: run's first statement is BEGIN. Runs it
/// once more on a new connection when Tx says so (BrokenBeforeStart: the retry rule above).
template <class F>
auto bounded(PostgresStorage::Connection& conn, bool begins, F&& run) -> TxResult<F> {
    const Clock::time_point deadline = Clock::now() + conn.timeout();
    for (int attempt = 1;; ++attempt) {
        try {
            // On the second attempt the connection is new (reused() is false), so Tx never asks
            // for a third.
            Tx w(conn, deadline, begins);
            return run(w);
        } catch (const BrokenBeforeStart& e) {
            conn.close();
            if (attempt == 1) continue;
            throw StorageError("storage_unavailable", e.why);  // (not reached: see above)
        } catch (const StorageError&) {
            throw;
        } catch (const pg_detail::PgLost& e) {
            throw StorageError("storage_unavailable", e.what());
        } catch (const pg_detail::PgError& e) {
            std::string code = code_of(e.sqlstate);
            if (code == "storage_unavailable") conn.close();
            throw StorageError(code, e.what());
        } catch (const pg_detail::PgConversionError& e) {
            throw StorageError("storage_io", e.what());
        }
    }
}

/// Runs `body`, which runs one statement, on its own (PostgreSQL's implicit transaction: one
/// round trip, all or nothing); errors as transact. A statement that got no answer is
/// `storage_unavailable`: its outcome is unknown, as a COMMIT's.
template <class F>
auto statement(PostgresStorage::Connection& conn, F&& body) -> TxResult<F> {
    return bounded(conn, /*begins=*/false, std::forward<F>(body));
}

/// Runs `body` in one transaction on `conn` and commits it, all within the connection's
/// timeout; returns what `body` returns. A StorageError thrown by `body` (storage_fenced) rolls
/// back and passes through; PostgreSQL's errors become StorageError, and a connection that
/// broke or did not answer in time is closed (the next call connects again). A BEGIN that finds
/// an idle connection broken is run again once on a new one (Tx: the retry rule); nothing else
/// is. A COMMIT that got no answer is `storage_unavailable` too: its outcome is unknown.
template <class F>
auto transact(PostgresStorage::Connection& conn, F&& body) -> TxResult<F> {
    return bounded(conn, /*begins=*/true, [&](Tx& w) -> TxResult<F> {
        w.exec("BEGIN");
        try {
            if constexpr (std::is_void_v<decltype(body(w))>) {
                body(w);
                w.exec("COMMIT");
            } else {
                auto out = body(w);
                w.exec("COMMIT");
                return out;
            }
        } catch (...) {
            // Leave the connection ready for the next call, or close it.
            if (conn.is_open()) try {
                    w.exec("ROLLBACK");
                } catch (...) {
                    conn.close();
                }
            throw;
        }
    });
}

/// Locks table `n`'s row when `fence` is its current fence (FOR UPDATE: a claim_table waits for
/// this transaction, and a claim committed meanwhile is seen); throws storage_fenced when not.
void check_fence(Tx& w, std::int64_t n, std::int64_t fence, const std::string& id) {
    if (fence == 0) return;
    if (w.exec_params("SELECT 1 FROM tables WHERE n = $1 AND fence = $2 FOR UPDATE", n, fence).empty())
        throw StorageError("storage_fenced", "table " + id + ": fence " + std::to_string(fence) + " is not the current one");
}

nlohmann::json winner_json(std::int64_t winner) { return winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner); }

/// Schema version 1: the tables of SQLite's newest schema (storage.cpp and its migrations),
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

// ---- live tables ----------------------------------------------------------------------------

std::string PostgresStorage::create_table(const nlohmann::json& settings) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("INSERT INTO tables(settings) VALUES($1) RETURNING n", settings.dump());
        return "t" + std::to_string(r[0][0].as<std::int64_t>());
    });
}

void PostgresStorage::close_table(const std::string& id, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(id);
        check_fence(w, n, fence, id);
        w.exec_params("UPDATE tables SET live = FALSE WHERE n = $1", n);
        w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
    });
}

void PostgresStorage::append(const std::string& table, const nlohmann::json& entry, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(table);
        if (fence == 0) {
            w.exec_params("INSERT INTO journal(table_n, entry) VALUES($1, $2)", n, entry.dump());
            return;
        }
        // One statement: lock the table's row if the fence is current, insert only then.
        const auto r = w.exec_params(
            "WITH owned AS (SELECT n FROM tables WHERE n = $1 AND fence = $3 FOR UPDATE)"
            " INSERT INTO journal(table_n, entry) SELECT n, $2 FROM owned",
            n, entry.dump(), fence);
        if (r.affected_rows() != 1)
            throw StorageError("storage_fenced", "table " + table + ": fence " + std::to_string(fence) + " is not the current one");
    });
}

void PostgresStorage::rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(table);
        check_fence(w, n, fence, table);
        w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
        for (const auto& e : entries) w.exec_params("INSERT INTO journal(table_n, entry) VALUES($1, $2)", n, e.dump());
    });
}

std::vector<JournalResult> PostgresStorage::write_journal(std::span<const JournalWrite> writes) {
    std::vector<JournalResult> results(writes.size());
    if (writes.empty()) return results;
    auto fenced = [](const JournalWrite& jw) {
        return StorageError("storage_fenced", "table " + jw.table + ": fence " + std::to_string(jw.fence) + " is not the current one");
    };
    if (std::none_of(writes.begin(), writes.end(), [](const JournalWrite& jw) { return jw.rewrite; }))
        return append_journal(writes);
    try {
        // One transaction under one deadline, in a few round trips whatever the batch's size:
        //  1. the rows of every table a fenced write names are locked (FOR UPDATE, in the order
        //     of n, so two nodes' batches never deadlock) and their fences read: a claim_table
        //     of one of them waits for this COMMIT, so each check stays true until the writes
        //     are committed, atomic with them as in append and rewrite;
        //  2. the inserts, in the writes' order: one multi-row INSERT per run of entries (a
        //     rewrite's DELETE ends a run), rows numbered in the order given (ORDER BY ord).
        // A write whose fence is stale is left out alone: nothing of it is written.
        transact(*conn_, [&](Tx& w) {
            std::string locked = "{";
            for (const JournalWrite& jw : writes)
                if (jw.fence != 0) locked += (locked.size() > 1 ? "," : "") + std::to_string(table_number(jw.table));
            locked += "}";
            std::map<std::int64_t, std::int64_t> fences;  // table n -> its current fence
            if (locked.size() > 2)
                for (const auto row : w.exec_params("SELECT n, fence FROM tables WHERE n = ANY($1::bigint[]) ORDER BY n FOR UPDATE", locked))
                    fences[row[0].as<std::int64_t>()] = row[1].as<std::int64_t>();
            nlohmann::json run = nlohmann::json::array();  // [{"ord", "n", "entry"}...] not inserted yet
            auto flush = [&] {
                if (run.empty()) return;
                w.exec_params(
                    "INSERT INTO journal(table_n, entry) SELECT x.n, x.entry"
                    " FROM json_to_recordset($1::json) AS x(ord BIGINT, n BIGINT, entry TEXT) ORDER BY x.ord",
                    run.dump());
                run = nlohmann::json::array();
            };
            for (std::size_t i = 0; i < writes.size(); ++i) {
                const JournalWrite& jw = writes[i];
                const std::int64_t n = table_number(jw.table);
                if (!jw.rewrite && jw.entries.size() != 1) {
                    results[i] = StorageError("storage_io", "table " + jw.table + ": an append takes one entry");
                    continue;
                }
                if (jw.fence != 0) {
                    const auto f = fences.find(n);
                    if (f == fences.end() || f->second != jw.fence) {
                        results[i] = fenced(jw);
                        continue;
                    }
                }
                if (jw.rewrite) {
                    flush();  // the entries before it, of this table too, go first
                    w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
                }
                for (const auto& e : jw.entries) run.push_back({{"ord", run.size()}, {"n", n}, {"entry", e.dump()}});
            }
            flush();
        });
    } catch (const StorageError& e) {
        // The transaction failed (rolled back, or its COMMIT got no answer): every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::vector<JournalResult> PostgresStorage::append_journal(std::span<const JournalWrite> writes) {
    // A batch of appends only (the usual one: actions), in ONE statement and round trip, atomic
    // as write_journal's transaction: the rows of the fenced tables are locked (FOR UPDATE, in
    // the order of n) and their fences read, and each entry is inserted only when its write's
    // fence is 0 or the current one, in the order given; the fences come back, so each write
    // learns whether it was left out (storage_fenced) by the rule the statement applied.
    std::vector<JournalResult> results(writes.size());
    std::string locked = "{";
    nlohmann::json rows = nlohmann::json::array();  // [{"ord", "n", "fence", "entry"}...]
    for (std::size_t i = 0; i < writes.size(); ++i) {
        const JournalWrite& jw = writes[i];
        if (jw.entries.size() != 1) {
            results[i] = StorageError("storage_io", "table " + jw.table + ": an append takes one entry");
            continue;
        }
        const std::int64_t n = table_number(jw.table);
        if (jw.fence != 0) locked += (locked.size() > 1 ? "," : "") + std::to_string(n);
        rows.push_back({{"ord", rows.size()}, {"n", n}, {"fence", jw.fence}, {"entry", jw.entries.front().dump()}});
    }
    locked += "}";
    try {
        const auto fences = statement(*conn_, [&](Tx& w) {
            std::map<std::int64_t, std::int64_t> current;  // table n -> its fence
            const auto r = w.exec_params(
                "WITH locked AS (SELECT n, fence FROM tables WHERE n = ANY($1::bigint[]) ORDER BY n FOR UPDATE),"
                " ins AS (INSERT INTO journal(table_n, entry) SELECT x.n, x.entry"
                " FROM json_to_recordset($2::json) AS x(ord BIGINT, n BIGINT, fence BIGINT, entry TEXT)"
                " WHERE x.fence = 0 OR x.fence = (SELECT l.fence FROM locked l WHERE l.n = x.n) ORDER BY x.ord RETURNING 1)"
                " SELECT n, fence FROM locked",
                locked, rows.dump());
            for (const auto row : r) current[row[0].as<std::int64_t>()] = row[1].as<std::int64_t>();
            return current;
        });
        for (std::size_t i = 0; i < writes.size(); ++i) {
            const JournalWrite& jw = writes[i];
            if (results[i] || jw.fence == 0) continue;
            const auto f = fences.find(table_number(jw.table));
            if (f == fences.end() || f->second != jw.fence)
                results[i] = StorageError("storage_fenced", "table " + jw.table + ": fence " + std::to_string(jw.fence) + " is not the current one");
        }
    } catch (const StorageError& e) {
        // Nothing was written (or, without an answer, it is unknown): every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::int64_t PostgresStorage::claim_table(const std::string& id, const std::string& node) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("UPDATE tables SET fence = fence + 1, owner = $2 WHERE n = $1 AND live RETURNING fence",
                                     table_number(id), node);
        if (r.empty()) throw StorageError("storage_fenced", "table " + id + " is not live");
        return r[0][0].as<std::int64_t>();
    });
}

std::vector<LiveTable> PostgresStorage::live_tables() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<LiveTable> out;
        std::map<std::int64_t, std::size_t> index;
        for (const auto& row : w.exec("SELECT n, settings FROM tables WHERE live ORDER BY n")) {
            const auto n = row[0].as<std::int64_t>();
            index[n] = out.size();
            out.push_back({"t" + std::to_string(n), nlohmann::json::parse(row[1].as<std::string>()), {}});
        }
        for (const auto& row : w.exec("SELECT j.table_n, j.entry FROM journal j JOIN tables t ON t.n = j.table_n"
                                      " WHERE t.live ORDER BY j.table_n, j.seq"))
            if (auto it = index.find(row[0].as<std::int64_t>()); it != index.end())
                out[it->second].entries.push_back(nlohmann::json::parse(row[1].as<std::string>()));
        return out;
    });
}

std::vector<std::string> PostgresStorage::live_table_ids() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<std::string> out;
        for (const auto& row : w.exec("SELECT n FROM tables WHERE live ORDER BY n"))
            out.push_back("t" + std::to_string(row[0].as<std::int64_t>()));
        return out;
    });
}

std::optional<LiveTable> PostgresStorage::live_table(const std::string& id) {
    return transact(*conn_, [&](Tx& w) -> std::optional<LiveTable> {
        const std::int64_t n = table_number(id);
        const auto t = w.exec_params("SELECT settings FROM tables WHERE n = $1 AND live", n);
        if (t.empty()) return std::nullopt;
        LiveTable out{id, nlohmann::json::parse(t[0][0].as<std::string>()), {}};
        for (const auto& row : w.exec_params("SELECT entry FROM journal WHERE table_n = $1 ORDER BY seq", n))
            out.entries.push_back(nlohmann::json::parse(row[0].as<std::string>()));
        return out;
    });
}

// ---- matches and ratings ----------------------------------------------------------------------

double PostgresStorage::rating(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("SELECT rating FROM players WHERE name = $1", name);
        return r.empty() ? kStartRating : r[0][0].as<double>();
    });
}

bool PostgresStorage::store_match(const MatchRow& row) {
    return transact(*conn_, [&](Tx& w) {
        const auto ins = w.exec_params(
            "INSERT INTO matches(id, table_id, finished, status, winner, score0, score1, record, private, rules)"
            " VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING",
            row.id, row.table, row.finished_ms, row.status, row.winner, row.scores[0], row.scores[1], row.record,
            row.is_private, row.rules);
        if (ins.affected_rows() != 1) return false;  // already stored: commit nothing
        for (int s = 0; s < 4; ++s)
            w.exec_params("INSERT INTO match_players(match_id, name, seat, bot) VALUES($1, $2, $3, $4)", row.id,
                          row.names[static_cast<std::size_t>(s)], s, row.bots[static_cast<std::size_t>(s)]);
        // The human players' rows, locked in name order (two matches stored at once by two
        // nodes cannot deadlock), so that each rating change starts from the current rating.
        std::map<std::string, double> ratings;
        for (std::size_t s = 0; s < 4; ++s)
            if (!row.bots[s]) ratings.emplace(row.names[s], kStartRating);
        for (auto& [name, r] : ratings) {
            const auto got = w.exec_params("SELECT rating FROM players WHERE name = $1 FOR UPDATE", name);
            if (!got.empty()) r = got[0][0].as<double>();
        }
        std::array<double, 4> before{};
        for (std::size_t s = 0; s < 4; ++s) before[s] = row.bots[s] ? kBotRating : ratings[row.names[s]];
        const auto change = seat_ratings(row, before);
        for (std::size_t s = 0; s < 4; ++s)
            if (change[s].rated)
                w.exec_params("UPDATE players SET rating = rating + $1, matches = matches + 1, wins = wins + $2 WHERE name = $3",
                              change[s].rating, change[s].won ? 1 : 0, row.names[s]);
        // Profiles (storage_profiles.cpp): each human seat's numbers and its rating after the match.
        const auto stats = seat_stats(row.record);
        for (std::size_t seat = 0; seat < 4; ++seat) {
            if (row.bots[seat]) continue;
            const SeatStats& s = stats[seat];
            const auto now = w.exec_params("SELECT rating FROM players WHERE name = $1", row.names[seat]);
            const double rating_after = now.empty() ? kStartRating : now[0][0].as<double>();
            w.exec_params("INSERT INTO player_match_stats(match_id, seat, name, bids, bid_sum, contracts, made, rating)"
                          " VALUES($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                          row.id, static_cast<int>(seat), row.names[seat], s.bids, s.bid_sum, s.contracts, s.made, rating_after);
        }
        return true;
    });
}

std::optional<std::string> PostgresStorage::match_record(const std::string& id) {
    return transact(*conn_, [&](Tx& w) -> std::optional<std::string> {
        const auto r = w.exec_params("SELECT record FROM matches WHERE id = $1", id);
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    });
}

std::optional<std::string> PostgresStorage::match_analysis(const std::string& id, int deal) {
    return transact(*conn_, [&](Tx& w) -> std::optional<std::string> {
        const auto r = w.exec_params("SELECT analysis FROM match_analysis WHERE match_id = $1 AND deal = $2", id, deal);
        if (r.empty()) return std::nullopt;
        return r[0][0].as<std::string>();
    });
}

void PostgresStorage::store_analysis(const std::string& id, int deal, std::string_view analysis) {
    transact(*conn_, [&](Tx& w) {
        w.exec_params("INSERT INTO match_analysis(match_id, deal, analysis) VALUES($1, $2, $3)"
                      " ON CONFLICT (match_id, deal) DO UPDATE SET analysis = EXCLUDED.analysis",
                      id, deal, std::string(analysis));
    });
}

bool PostgresStorage::match_readable(const std::string& id, const std::optional<std::string>& viewer) {
    return transact(*conn_, [&](Tx& w) {
        const auto m = w.exec_params("SELECT private FROM matches WHERE id = $1", id);
        if (m.empty()) return false;
        if (!m[0][0].as<bool>()) return true;
        if (!viewer) return false;
        return !w.exec_params("SELECT 1 FROM match_players WHERE match_id = $1 AND name = $2 AND NOT bot", id, *viewer).empty();
    });
}

nlohmann::json PostgresStorage::player_matches(const std::string& name, bool with_private, int limit) {
    return transact(*conn_, [&](Tx& w) {
        auto list = nlohmann::json::array();
        for (const auto& s : w.exec_params(
                 "SELECT m.id, m.table_id, m.finished, p.seat, m.status, m.winner, m.score0, m.score1, m.private"
                 " FROM match_players p JOIN matches m ON m.id = p.match_id WHERE p.name = $1 AND NOT p.bot"
                 " AND (NOT m.private OR $2) ORDER BY m.finished DESC, m.id COLLATE \"C\" DESC LIMIT $3",
                 name, with_private, limit))
            list.push_back({{"id", s[0].as<std::string>()}, {"table", s[1].as<std::string>()},
                            {"finished", s[2].as<std::int64_t>()}, {"seat", s[3].as<std::int64_t>()},
                            {"status", s[4].as<std::string>()}, {"winner", winner_json(s[5].as<std::int64_t>())},
                            {"scores", {s[6].as<std::int64_t>(), s[7].as<std::int64_t>()}}, {"private", s[8].as<bool>()}});
        return nlohmann::json{{"name", name}, {"matches", std::move(list)}};
    });
}

std::optional<nlohmann::json> PostgresStorage::public_matches(int limit, const std::optional<std::string>& before) {
    limit = std::clamp(limit, 1, kMaxMatchPage);
    return transact(*conn_, [&](Tx& w) -> std::optional<nlohmann::json> {
        // The cursor: the listed match `before` names, as (finished, seq), the order of the list.
        std::int64_t after_finished = 0, after_seq = 0;
        if (before) {
            const auto c = w.exec_params("SELECT finished, seq FROM matches WHERE id = $1 AND NOT private", *before);
            if (c.empty()) return std::nullopt;
            after_finished = c[0][0].as<std::int64_t>();
            after_seq = c[0][1].as<std::int64_t>();
        }
        const auto rows = w.exec_params(
            "SELECT id, table_id, finished, rules, status, winner, score0, score1 FROM matches"
            " WHERE NOT private AND (NOT $1 OR finished < $2 OR (finished = $2 AND seq < $3))"
            " ORDER BY finished DESC, seq DESC LIMIT $4",
            before.has_value(), after_finished, after_seq, limit + 1);
        auto list = nlohmann::json::array();
        nlohmann::json next = nullptr;
        for (const auto& s : rows) {
            if (static_cast<int>(list.size()) == limit) {  // one more row than the page: there is a next page
                next = list.back()["id"];
                break;
            }
            const auto id = s[0].as<std::string>();
            auto players = nlohmann::json::array();
            for (const auto& p : w.exec_params("SELECT name FROM match_players WHERE match_id = $1 ORDER BY seat", id))
                players.push_back(p[0].as<std::string>());
            list.push_back({{"id", id}, {"table", s[1].as<std::string>()}, {"finished", s[2].as<std::int64_t>()},
                            {"rules", s[3].as<std::string>()}, {"players", std::move(players)},
                            {"status", s[4].as<std::string>()}, {"winner", winner_json(s[5].as<std::int64_t>())},
                            {"scores", {s[6].as<std::int64_t>(), s[7].as<std::int64_t>()}}});
        }
        return nlohmann::json{{"matches", std::move(list)}, {"next", std::move(next)}};
    });
}

nlohmann::json PostgresStorage::leaderboard(int limit) {
    return transact(*conn_, [&](Tx& w) {
        auto list = nlohmann::json::array();
        for (const auto& s : w.exec_params("SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players"
                                           " WHERE matches > 0 ORDER BY rating DESC, name COLLATE \"C\" LIMIT $1",
                                           limit))
            list.push_back({{"name", s[0].as<std::string>()}, {"rating", std::round(s[1].as<double>() * 10) / 10},
                            {"matches", s[2].as<std::int64_t>()}, {"wins", s[3].as<std::int64_t>()},
                            {"registered", s[4].as<bool>()}});
        return nlohmann::json{{"players", std::move(list)}};
    });
}

// ---- accounts (storage_accounts.cpp's contracts) -------------------------------------------

std::optional<TokenOwner> PostgresStorage::token_owner(std::string_view token, std::int64_t now_ms) {
    return transact(*conn_, [&](Tx& w) -> std::optional<TokenOwner> {
        const std::string hash = hash_token(token);
        if (const auto r = w.exec_params("SELECT name, password_hash IS NOT NULL FROM players WHERE token_hash = $1", hash); !r.empty())
            return TokenOwner{r[0][0].as<std::string>(), r[0][1].as<bool>()};
        if (const auto r = w.exec_params("SELECT name FROM sessions WHERE token_hash = $1 AND expires > $2", hash, now_ms); !r.empty())
            return TokenOwner{r[0][0].as<std::string>(), true};
        return std::nullopt;
    });
}

std::optional<Credentials> PostgresStorage::credentials(std::string_view name) {
    return transact(*conn_, [&](Tx& w) -> std::optional<Credentials> {
        const auto r = w.exec_params("SELECT name, COALESCE(password_hash, '') FROM players WHERE name_key = $1", name_key(name));
        if (r.empty()) return std::nullopt;
        return Credentials{r[0][0].as<std::string>(), r[0][1].as<std::string>()};
    });
}

bool PostgresStorage::register_password(const std::string& name, const std::string& password_hash,
                                        const std::string& token_hash, std::int64_t now_ms, std::int64_t expires_ms) {
    return transact(*conn_, [&](Tx& w) {
        const auto u = w.exec_params("UPDATE players SET password_hash = $1, token_hash = $2 WHERE name = $3 AND password_hash IS NULL",
                                     password_hash, unheld_token_hash(), name);
        if (u.affected_rows() != 1) return false;  // unknown, or registered already: nothing changes
        w.exec_params("INSERT INTO sessions(token_hash, name, created, expires) VALUES($1, $2, $3, $4)"
                      " ON CONFLICT (token_hash) DO UPDATE SET name = EXCLUDED.name, created = EXCLUDED.created,"
                      " expires = EXCLUDED.expires, seq = DEFAULT",
                      token_hash, name, now_ms, expires_ms);
        return true;
    });
}

void PostgresStorage::add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms) {
    transact(*conn_, [&](Tx& w) {
        w.exec_params("DELETE FROM sessions WHERE name = $1 AND expires <= $2", name, now_ms);
        w.exec_params("INSERT INTO sessions(token_hash, name, created, expires) VALUES($1, $2, $3, $4)"
                      " ON CONFLICT (token_hash) DO UPDATE SET name = EXCLUDED.name, created = EXCLUDED.created,"
                      " expires = EXCLUDED.expires, seq = DEFAULT",
                      hash_token(token), name, now_ms, expires_ms);
        // The oldest beyond kMaxSessionsPerPlayer are revoked (a bound on what one name keeps).
        w.exec_params("DELETE FROM sessions WHERE name = $1 AND seq NOT IN"
                      " (SELECT seq FROM sessions WHERE name = $1 ORDER BY created DESC, seq DESC LIMIT $2)",
                      name, kMaxSessionsPerPlayer);
    });
}

int PostgresStorage::change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash) {
    return transact(*conn_, [&](Tx& w) {
        w.exec_params("UPDATE players SET password_hash = $1, token_hash = $2 WHERE name = $3", password_hash,
                      unheld_token_hash(), name);
        return static_cast<int>(
            w.exec_params("DELETE FROM sessions WHERE name = $1 AND token_hash <> $2", name, keep_token_hash).affected_rows());
    });
}

int PostgresStorage::revoke_sessions(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        w.exec_params("UPDATE players SET token_hash = $1 WHERE name = $2", unheld_token_hash(), name);
        return static_cast<int>(w.exec_params("DELETE FROM sessions WHERE name = $1", name).affected_rows());
    });
}

void PostgresStorage::revoke_session(const std::string& token_hash) {
    transact(*conn_, [&](Tx& w) { w.exec_params("DELETE FROM sessions WHERE token_hash = $1", token_hash); });
}

bool PostgresStorage::is_registered(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        return !w.exec_params("SELECT 1 FROM players WHERE name = $1 AND password_hash IS NOT NULL", name).empty();
    });
}

// ---- profiles (storage_profiles.cpp's contract) ---------------------------------------------

std::optional<nlohmann::json> PostgresStorage::player_profile(const std::string& name) {
    using nlohmann::json;
    return transact(*conn_, [&](Tx& w) -> std::optional<json> {
        json profile;
        {
            const auto p = w.exec_params("SELECT name, rating, matches, wins, password_hash IS NOT NULL FROM players WHERE name = $1", name);
            if (p.empty()) return std::nullopt;
            profile = {{"name", p[0][0].as<std::string>()}, {"registered", p[0][4].as<bool>()},
                       {"rating", std::round(p[0][1].as<double>() * 10) / 10}, {"matches", p[0][2].as<std::int64_t>()},
                       {"wins", p[0][3].as<std::int64_t>()}};
        }
        {
            // Every match counts here, public or private: totals tell no match apart.
            const auto a = w.exec_params("SELECT COALESCE(SUM(bids), 0)::BIGINT, COALESCE(SUM(bid_sum), 0)::BIGINT,"
                                         " COALESCE(SUM(contracts), 0)::BIGINT, COALESCE(SUM(made), 0)::BIGINT"
                                         " FROM player_match_stats WHERE name = $1",
                                         name);
            const auto bids = a[0][0].as<std::int64_t>(), sum = a[0][1].as<std::int64_t>();
            profile["contracts"] = {{"bid", a[0][2].as<std::int64_t>()}, {"made", a[0][3].as<std::int64_t>()}};
            profile["bids"] = bids;
            profile["average_bid"] = bids > 0 ? json(std::round(static_cast<double>(sum) / static_cast<double>(bids) * 100) / 100)
                                              : json(nullptr);
        }
        {
            // Public matches only: a private table's match is not shown, not even as a date.
            auto points = json::array();
            for (const auto& h : w.exec_params("SELECT s.match_id, m.finished, s.rating FROM player_match_stats s"
                                               " JOIN matches m ON m.id = s.match_id"
                                               " WHERE s.name = $1 AND NOT m.private AND s.rating IS NOT NULL"
                                               " ORDER BY m.finished DESC, m.seq DESC LIMIT $2",
                                               name, kProfileHistory))
                points.push_back({{"match", h[0].as<std::string>()}, {"finished", h[1].as<std::int64_t>()},
                                  {"rating", std::round(h[2].as<double>() * 10) / 10}});
            std::reverse(points.begin(), points.end());
            profile["rating_history"] = std::move(points);
        }
        {
            auto list = json::array();
            for (const auto& m : w.exec_params("SELECT m.id, m.table_id, m.finished, m.rules, p.seat, m.status, m.winner,"
                                               " m.score0, m.score1 FROM match_players p JOIN matches m ON m.id = p.match_id"
                                               " WHERE p.name = $1 AND NOT p.bot AND NOT m.private"
                                               " ORDER BY m.finished DESC, m.seq DESC LIMIT $2",
                                               name, kProfileMatches)) {
                const auto id = m[0].as<std::string>();
                auto players = json::array();
                for (const auto& p : w.exec_params("SELECT name FROM match_players WHERE match_id = $1 ORDER BY seat", id))
                    players.push_back(p[0].as<std::string>());
                const auto seat = m[4].as<std::int64_t>(), winner = m[6].as<std::int64_t>();
                const auto status = m[5].as<std::string>();
                list.push_back({{"id", id}, {"table", m[1].as<std::string>()}, {"finished", m[2].as<std::int64_t>()},
                                {"rules", m[3].as<std::string>()}, {"seat", seat}, {"players", std::move(players)},
                                {"status", status}, {"winner", winner_json(winner)},
                                {"scores", {m[7].as<std::int64_t>(), m[8].as<std::int64_t>()}},
                                {"won", status == "won" && winner == seat % 2}});
            }
            profile["recent_matches"] = std::move(list);
        }
        // The tournaments the player entered, newest first (storage_profiles.cpp).
        auto tournaments = json::array();
        for (const auto& t : w.exec_params("SELECT state FROM tournaments ORDER BY n DESC LIMIT $1", kProfileTournamentScan)) {
            if (tournaments.size() >= static_cast<std::size_t>(kProfileTournaments)) break;
            if (auto entry = profile_tournament(name, json::parse(t[0].as<std::string>(), nullptr, /*allow_exceptions=*/false)))
                tournaments.push_back(std::move(*entry));
        }
        profile["tournaments"] = std::move(tournaments);
        return profile;
    });
}

// ---- tournaments ----------------------------------------------------------------------------

std::string PostgresStorage::create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec("INSERT INTO tournaments(state) VALUES('{}') RETURNING n");
        const auto n = r[0][0].as<std::int64_t>();
        const std::string id = "T" + std::to_string(n);
        w.exec_params("UPDATE tournaments SET state = $1 WHERE n = $2", state(id).dump(), n);
        return id;
    });
}

void PostgresStorage::save_tournament(const std::string& id, const nlohmann::json& state) {
    std::int64_t n = -1;  // "T7" → 7
    if (id.size() >= 2 && id[0] == 'T') try { n = std::stoll(id.substr(1)); } catch (...) {}
    transact(*conn_, [&](Tx& w) { w.exec_params("UPDATE tournaments SET state = $1 WHERE n = $2", state.dump(), n); });
}

std::vector<nlohmann::json> PostgresStorage::tournaments() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<nlohmann::json> out;
        for (const auto& t : w.exec("SELECT state FROM tournaments ORDER BY n")) {
            auto j = nlohmann::json::parse(t[0].as<std::string>(), nullptr, /*allow_exceptions=*/false);
            if (j.is_object() && !j.empty()) out.push_back(std::move(j));
        }
        return out;
    });
}

}  // namespace tarneeb::server
