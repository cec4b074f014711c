// One PostgreSQL connection driven through libpq's asynchronous API under a deadline, for
// PostgresStorage (postgres_*.cpp; docs/operations.md "PostgreSQL"): the only code that
// calls libpq (pg_connection.cpp). Internal to the server library.
//
// Why not libpq's blocking calls (or libpqxx, which makes them): a server that hangs (stopped
// with SIGSTOP, a frozen VM, a partition that drops packets silently) leaves PQexec waiting in
// poll() with no timeout, and the storage's one writer thread with it. Here every wait is a
// poll() on the connection's socket bounded by the caller's deadline: connecting
// (PQconnectStart/PQconnectPoll), sending (PQflush, non-blocking mode) and reading
// (PQconsumeInput/PQisBusy/PQgetResult). When the deadline passes, the connection is closed
// (PQfinish) and PgLost is thrown; the next call connects again.
//
// No PQcancel on a timeout: libpq 15's PQcancel opens a connection to the postmaster and blocks
// in recv() until the postmaster answers, which is exactly what a hung server does not do (the
// non-blocking PQcancelStart arrives with libpq 17). A server that is alive but slow cancels the
// statement itself instead: every connection sets statement_timeout to the deadline, and a
// backend whose client went away stops when it next reads or writes its socket.
//
// One wait is outside the deadline: PQconnectStart resolves a host name with the system's
// blocking resolver (bounded by resolv.conf's timeout and attempts); a URL with an IP address
// (or hostaddr=) has none.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tarneeb::server::pg_detail {

using Clock = std::chrono::steady_clock;

/// The connection is gone or did not answer in time (the server is away, restarting, hung or
/// unreachable): it has been closed. Maps to StorageError `storage_unavailable`.
struct PgLost : std::runtime_error {
    using std::runtime_error::runtime_error;
    /// The caller's deadline passed (as opposed to a connection found broken or refused).
    bool timed_out = false;
    /// The statement may have reached the server whole (false: it failed while being handed to
    /// libpq or written to the socket, so the server cannot have run it).
    bool maybe_sent = true;
};

/// The server answered a statement with an error: its SQLSTATE (e.g. "53100") and message.
struct PgError : std::runtime_error {
    PgError(std::string state, const std::string& message) : std::runtime_error(message), sqlstate(std::move(state)) {}
    std::string sqlstate;
};

/// A value that cannot be read as the type asked for (NULL, or text that is not a number).
struct PgConversionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ResultFree {
    void operator()(PGresult* r) const { PQclear(r); }
};

/// One column of one row of a result (text format).
class PgField {
public:
    PgField(const PGresult* r, int row, int col) : r_(r), row_(row), col_(col) {}
    bool is_null() const { return PQgetisnull(r_, row_, col_) != 0; }
    /// The value as std::string, std::int64_t, int, double or bool. PgConversionError when it is
    /// NULL or not of that type.
    template <class T>
    T as() const;

private:
    const PGresult* r_;
    int row_, col_;
};
template <> std::string PgField::as<std::string>() const;
template <> std::int64_t PgField::as<std::int64_t>() const;
template <> int PgField::as<int>() const;
template <> double PgField::as<double>() const;
template <> bool PgField::as<bool>() const;

/// One row of a result: row[col].
class PgRow {
public:
    PgRow(const PGresult* r, int row) : r_(r), row_(row) {}
    PgField operator[](int col) const { return {r_, row_, col}; }

private:
    const PGresult* r_;
    int row_;
};

/// The rows of one statement (and for INSERT/UPDATE/DELETE how many rows it changed).
class PgResult {
public:
    explicit PgResult(PGresult* r) : r_(r) {}
    std::size_t size() const { return static_cast<std::size_t>(PQntuples(r_.get())); }
    bool empty() const { return size() == 0; }
    PgRow operator[](std::size_t row) const { return {r_.get(), static_cast<int>(row)}; }
    /// Rows an INSERT, UPDATE or DELETE changed (0 for other statements).
    std::int64_t affected_rows() const;

    class iterator {
    public:
        iterator(const PGresult* r, int row) : r_(r), row_(row) {}
        PgRow operator*() const { return {r_, row_}; }
        iterator& operator++() {
            ++row_;
            return *this;
        }
        bool operator!=(const iterator& o) const { return row_ != o.row_; }

    private:
        const PGresult* r_;
        int row_;
    };
    iterator begin() const { return {r_.get(), 0}; }
    iterator end() const { return {r_.get(), static_cast<int>(size())}; }

private:
    std::unique_ptr<PGresult, ResultFree> r_;
};

/// A statement's parameters, as text ($1, $2, ...; nullopt is NULL).
using PgParams = std::vector<std::optional<std::string>>;

/// One connection to `conninfo` (a libpq URL), opened on demand. Not thread-safe: one thread
/// (the storage's writer) uses it.
class PgConnection {
public:
    /// `timeout`: how long a caller's deadline is (for messages), and the statement_timeout set
    /// on every new connection, so that the server itself stops a statement the client no
    /// longer waits for.
    PgConnection(std::string conninfo, std::chrono::milliseconds timeout);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    /// Connects when there is no connection, or when the open one is found broken: a connection
    /// that sat idle since the last call is checked without waiting (its socket is read when
    /// readable: after a server restart it holds the old backend's FATAL message and EOF), so
    /// the first call after a restart uses a new connection. Waits at most until `deadline`.
    /// PgLost when the server cannot be reached, refuses or does not answer in time.
    void open(Clock::time_point deadline);
    /// Runs one statement (no `;`-separated lists) with `params` and returns its rows, waiting
    /// at most until `deadline`. PgError when the server answers with an error (the connection
    /// stays open, unless libpq found it broken: then PgLost); PgLost when the connection is
    /// gone or the deadline passed (the connection is closed first).
    PgResult exec(std::string_view sql, const PgParams& params, Clock::time_point deadline);
    /// Closes the connection (nothing when there is none); the next open() connects again.
    void close() noexcept;
    bool is_open() const { return conn_ != nullptr; }
    /// Whether the last open() (every exec() opens) kept a connection made by an earlier call,
    /// rather than connecting: only such a connection can have broken unseen while idle.
    bool reused() const { return reused_; }
    std::chrono::milliseconds timeout() const { return timeout_; }

private:
    /// Waits until the socket has one of poll()'s `events` and returns those it has, or throws
    /// PgLost at `deadline` (closing the connection). `what` names the step in the message.
    short wait(short events, Clock::time_point deadline, const char* what);
    /// Whether the open connection is still usable, found without waiting (open()).
    bool alive();
    /// Closes the connection and returns PgLost saying `why`, with libpq's message after it
    /// when `with_libpq_message`.
    PgLost lost(const std::string& why, bool with_libpq_message = true);

    std::string conninfo_;
    std::chrono::milliseconds timeout_;
    PGconn* conn_ = nullptr;
    bool reused_ = false;
};

}  // namespace tarneeb::server::pg_detail
