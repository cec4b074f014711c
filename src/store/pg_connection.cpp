// PgConnection (pg_connection.hpp): libpq's asynchronous calls, each wait a poll() bounded by
// the caller's deadline.
#include "pg_connection.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>

namespace tarneeb::server::pg_detail {

namespace {

/// libpq's last message on `c`, without its trailing newline.
std::string message_of(const PGconn* c) {
    std::string m = c ? PQerrorMessage(c) : "out of memory";
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
}

template <class T>
T number(const char* text, int length, const char* type) {
    T value{};
    const auto [end, ec] = std::from_chars(text, text + length, value);
    if (ec != std::errc() || end != text + length)
        throw PgConversionError(std::string("postgresql: '") + std::string(text, static_cast<std::size_t>(length)) + "' is not " + type);
    return value;
}

}  // namespace

// ---- results -------------------------------------------------------------------------------

template <>
std::string PgField::as<std::string>() const {
    if (is_null()) throw PgConversionError("postgresql: NULL where text was expected");
    return {PQgetvalue(r_, row_, col_), static_cast<std::size_t>(PQgetlength(r_, row_, col_))};
}
template <>
std::int64_t PgField::as<std::int64_t>() const {
    if (is_null()) throw PgConversionError("postgresql: NULL where an integer was expected");
    return number<std::int64_t>(PQgetvalue(r_, row_, col_), PQgetlength(r_, row_, col_), "an integer");
}
template <>
int PgField::as<int>() const {
    if (is_null()) throw PgConversionError("postgresql: NULL where an integer was expected");
    return number<int>(PQgetvalue(r_, row_, col_), PQgetlength(r_, row_, col_), "an integer");
}
template <>
double PgField::as<double>() const {
    if (is_null()) throw PgConversionError("postgresql: NULL where a number was expected");
    return number<double>(PQgetvalue(r_, row_, col_), PQgetlength(r_, row_, col_), "a number");
}
template <>
bool PgField::as<bool>() const {
    if (is_null()) throw PgConversionError("postgresql: NULL where a boolean was expected");
    const std::string_view v(PQgetvalue(r_, row_, col_), static_cast<std::size_t>(PQgetlength(r_, row_, col_)));
    if (v == "t") return true;
    if (v == "f") return false;
    throw PgConversionError("postgresql: '" + std::string(v) + "' is not a boolean");
}

std::int64_t PgResult::affected_rows() const {
    const char* n = PQcmdTuples(r_.get());
    const int length = static_cast<int>(std::strlen(n));
    return length == 0 ? 0 : number<std::int64_t>(n, length, "a row count");
}

// ---- the connection --------------------------------------------------------------------------

PgConnection::PgConnection(std::string conninfo, std::chrono::milliseconds timeout)
    : conninfo_(std::move(conninfo)), timeout_(timeout) {}

PgConnection::~PgConnection() { close(); }

void PgConnection::close() noexcept {
    // The connection is non-blocking once open, so PQfinish's Terminate message never waits
    // for a server that does not read.
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
}

PgLost PgConnection::lost(const std::string& why, bool with_libpq_message) {
    std::string text = "postgresql: " + why;
    if (conn_ && with_libpq_message) {
        if (const std::string m = message_of(conn_); !m.empty()) text += ": " + m;
    }
    close();
    return PgLost(text);
}

short PgConnection::wait(short events, Clock::time_point deadline, const char* what) {
    for (;;) {
        const int fd = PQsocket(conn_);
        if (fd < 0) throw lost(std::string("no socket while ") + what);
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            PgLost e = lost(std::string("no answer within ") + std::to_string(timeout_.count()) + " ms while " + what +
                                " (connection closed)",
                            /*with_libpq_message=*/false);
            e.timed_out = true;
            throw e;
        }
        pollfd p{fd, events, 0};
        const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, INT_MAX)));
        if (n > 0) return p.revents;
        if (n < 0 && errno != EINTR) throw lost(std::string("poll: ") + std::strerror(errno));
    }
}

bool PgConnection::alive() {
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) return false;
    const int fd = PQsocket(conn_);
    if (fd < 0) return false;
    // Between calls nothing is due from the server: readable means a message it sent on its own
    // (a FATAL before it closed, a notice, a parameter change) or the end of the stream. Reading
    // tells which; libpq reports the end only on a read that gets no bytes, so the socket is read
    // while it stays readable (a few times at most: a server that keeps sending notices is alive).
    // What came is dropped (libpq would print the old backend's FATAL on stderr, outside the log's
    // format): a broken connection is simply replaced.
    const PQnoticeProcessor printing = PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    struct Restore {
        PGconn* c;
        PQnoticeProcessor p;
        ~Restore() { PQsetNoticeProcessor(c, p, nullptr); }
    } restore{conn_, printing};
    for (int reads = 0; reads < 8; ++reads) {
        pollfd p{fd, POLLIN, 0};
        int n;
        while ((n = ::poll(&p, 1, 0)) < 0 && errno == EINTR) {
        }
        if (n < 0 || (p.revents & (POLLERR | POLLNVAL))) return false;
        if (n == 0) break;
        if (PQconsumeInput(conn_) != 1 || PQstatus(conn_) != CONNECTION_OK) return false;
        (void)PQisBusy(conn_);  // parses what came (a FATAL while idle goes to the notice processor)
        if (PQstatus(conn_) != CONNECTION_OK) return false;
    }
    return true;
}

void PgConnection::open(Clock::time_point deadline) {
    if (alive()) {
        reused_ = true;
        return;
    }
    reused_ = false;  // (also when connecting fails)
    close();
    conn_ = PQconnectStart(conninfo_.c_str());
    if (!conn_) throw PgLost("postgresql: out of memory");
    if (PQstatus(conn_) == CONNECTION_BAD) throw lost("cannot connect");
    // PQconnectStart acts as if PQconnectPoll had answered PGRES_POLLING_WRITING.
    for (PostgresPollingStatusType step = PGRES_POLLING_WRITING; step != PGRES_POLLING_OK; step = PQconnectPoll(conn_)) {
        if (step == PGRES_POLLING_FAILED) throw lost("cannot connect");
        wait(step == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline, "connecting");
    }
    if (PQsetnonblocking(conn_, 1) != 0) throw lost("cannot make the connection non-blocking");
    // CREATE ... IF NOT EXISTS and the like send NOTICEs, which libpq prints on stderr.
    exec("SET client_min_messages TO WARNING", {}, deadline);
    exec("SET statement_timeout = " + std::to_string(timeout_.count()), {}, deadline);
    reused_ = false;  // (the two exec calls above found it open)
}

PgResult PgConnection::exec(std::string_view sql, const PgParams& params, Clock::time_point deadline) {
    open(deadline);
    const std::string text(sql);
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
    // Until the statement is flushed whole, a failure means the server cannot have run it (it
    // runs a message only once it has all of it).
    auto unsent = [this](const std::string& why) {
        PgLost e = lost(why);
        e.maybe_sent = false;
        return e;
    };
    if (PQsendQueryParams(conn_, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0) != 1)
        throw unsent("cannot send a statement");
    // Send it all (a large parameter may not fit the socket's buffer at once); input that
    // arrives meanwhile is read, as libpq asks of a non-blocking sender.
    for (int left; (left = PQflush(conn_)) != 0;) {
        if (left < 0) throw unsent("cannot send a statement");
        if (wait(POLLIN | POLLOUT, deadline, "sending a statement") & POLLIN)
            if (PQconsumeInput(conn_) != 1) throw unsent("connection lost");
    }
    // Every result until PQgetResult says there are no more; the first error wins.
    std::unique_ptr<PGresult, ResultFree> out, error;
    for (;;) {
        while (PQisBusy(conn_)) {
            wait(POLLIN, deadline, "waiting for an answer");
            if (PQconsumeInput(conn_) != 1) throw lost("connection lost");
        }
        PGresult* r = PQgetResult(conn_);
        if (!r) break;
        std::unique_ptr<PGresult, ResultFree> held(r);
        const ExecStatusType status = PQresultStatus(r);
        if (status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE || status == PGRES_NONFATAL_ERROR) {
            if (!error) error = std::move(held);
        } else {
            out = std::move(held);
        }
    }
    if (PQstatus(conn_) != CONNECTION_OK) throw lost("connection lost");
    if (error) {
        const char* state = PQresultErrorField(error.get(), PG_DIAG_SQLSTATE);
        std::string m = PQresultErrorMessage(error.get());
        while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
        // An error libpq made itself (no SQLSTATE) is about the connection.
        if (!state || !*state) throw lost(m.empty() ? "connection lost" : m, /*with_libpq_message=*/m.empty());
        throw PgError(state, "postgresql: " + m);
    }
    if (!out) throw lost("no result");
    return PgResult(out.release());
}

}  // namespace tarneeb::server::pg_detail
