// What the source files of PostgresStorage (postgres_*.cpp) share: the connection type, and
// the transaction runner every method calls (Tx, transact, statement: each call bounded by the
// connection's deadline, PostgreSQL's errors turned into StorageError codes, the retry rule of
// issue 26). Internal to the store library (not a public header). One definition of each
// (inline, in pg_detail), so that the files can share a unity batch.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "pg_connection.hpp"
#include "tarneeb/store/postgres_storage.hpp"

namespace tarneeb::server {

/// The one connection, opened on demand: closed after it broke or timed out, until the next call.
struct PostgresStorage::Connection : pg_detail::PgConnection {
    using PgConnection::PgConnection;
};

namespace pg_detail {


/// The StorageError code of a PostgreSQL error (storage.hpp lists them), by its SQLSTATE.
inline std::string code_of(const std::string& sqlstate) {
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
inline std::optional<std::string> param(const std::string& v) { return v; }
inline std::optional<std::string> param(bool v) { return v ? "true" : "false"; }
inline std::optional<std::string> param(double v) {
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
inline bool connection_broken(const std::string& s) {
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
    PgResult run(std::string_view sql, const PgParams& params) {
        const bool first = !started_;
        started_ = true;
        try {
            return conn_.exec(sql, params, deadline_);
        } catch (const PgLost& e) {
            if (first && conn_.reused() && !e.timed_out && (begins_ || !e.maybe_sent)) throw BrokenBeforeStart{e.what()};
            throw;
        } catch (const PgError& e) {
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
        } catch (const PgLost& e) {
            throw StorageError("storage_unavailable", e.what());
        } catch (const PgError& e) {
            std::string code = code_of(e.sqlstate);
            if (code == "storage_unavailable") conn.close();
            throw StorageError(code, e.what());
        } catch (const PgConversionError& e) {
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

/// A match's winner as JSON: the team, or null for none (-1).
inline nlohmann::json winner_json(std::int64_t winner) { return winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(winner); }

}  // namespace pg_detail
}  // namespace tarneeb::server
