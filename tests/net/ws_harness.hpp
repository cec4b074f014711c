// Helpers for the tests that run the real `tarneeb serve` (ws_test.cpp, fault_test.cpp,
// cluster_serve_test.cpp, shard_serve_test.cpp, ...): the server in a child process on a free
// port of 127.0.0.1, a small WebSocket client, and the loops that sign in and play through
// docs/protocol.md. Beast is slow to compile, so it stays out of this header: the client and
// the HTTP helpers are compiled once, in ws_harness.cpp (the tarneeb_ws_harness library of
// tests/CMakeLists.txt), and a test file sees only Asio's io_context.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tarneeb::server::testing {

namespace net = boost::asio;
using nlohmann::json;
using namespace std::chrono_literals;

/// How the server's child process is set up before exec.
struct ChildLimits {
    /// RLIMIT_FSIZE in bytes, the soft limit (writes past it fail with EFBIG: a full disk; the
    /// test can move it with prlimit); 0 = none.
    rlim_t file_size = 0;
    /// When running as root, drop to uid/gid 65534 (nobody) so that file modes apply.
    bool as_nobody = false;
};

/// The real `tarneeb serve` (TARNEEB_BINARY) in a child process, on a free port of 127.0.0.1.
/// `--rate 1000` unless `extra` sets --rate, `--no-static` unless it sets --static; the log
/// (warn and above) goes to DB.log. The child dies with the test process.
class ServerProcess {
public:
    ServerProcess(std::string db, std::vector<std::string> extra = {}, ChildLimits limits = {});
    ~ServerProcess() { stop(SIGTERM); }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    unsigned short port() const { return port_; }
    pid_t pid() const { return pid_; }
    const std::string& log_path() const { return log_; }

    /// Starts the process; port() is 0 when it exited before listening.
    void start();
    /// Waits for a process that exits by itself; returns its wait status.
    int wait_exit();
    /// Stops the process with `sig` (SIGKILL: a crash) and waits for it; a stop other than by
    /// SIGKILL expects a clean exit (a test failure otherwise).
    void stop(int sig);

private:
    std::string db_;
    std::vector<std::string> extra_;
    ChildLimits limits_;
    std::string log_ = db_ + ".log";
    pid_t pid_ = -1;
    unsigned short port_ = 0;
};

/// One WebSocket client on 127.0.0.1:`port` ("/ws"), connected and upgraded in the constructor
/// (`origin`: an Origin header when not empty). All clients of a test share one io_context;
/// `pump` runs it, and each text frame read is parsed once, when it arrives.
class Client {
public:
    Client(net::io_context& ioc, unsigned short port, std::string origin = {});
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    void send(const json& msg) { send_text(msg.dump()); }
    /// Sends one text frame as it is; a write error (the server closed) is ignored.
    void send_text(const std::string& text);
    /// Closes the TCP connection without a WebSocket close (a network cut, from the server's side).
    void close();

    std::vector<std::string> frames;   ///< every text frame received, in order
    bool ended = false;                ///< the read loop ended
    int close_code = 0;                ///< the server's close code, if it closed

    /// The last frame of a type, or null. (The play loops ask every few milliseconds, and a
    /// sanitizer build parses slowly: hence the parse on arrival.)
    json last(const std::string& type) const {
        auto it = last_.find(type);
        return it == last_.end() ? json(nullptr) : it->second;
    }
    /// Forgets every frame received so far (last() and has_event() too).
    void clear() {
        frames.clear();
        last_.clear();
        events_.clear();
    }
    /// Whether a table frame so far carried an event `name`.
    bool has_event(const std::string& name) const { return events_.count(name) != 0; }

private:
    struct Connection;
    void read_next();                   ///< one async read; its handler calls received() and itself
    void received(std::string frame);

    std::unique_ptr<Connection> connection_;
    std::map<std::string, json> last_;  ///< the last frame of each type
    std::set<std::string> events_;      ///< every event name a table frame carried
};

/// A WebSocket client that reads only when told to, on its own io_context, with a small receive
/// buffer (set before connecting, so the TCP window stays small): the slow consumer of issue #11.
class SlowClient {
public:
    /// `source`: the local address to connect from (any of 127.0.0.0/8 reaches the server).
    SlowClient(unsigned short port, int receive_buffer = 4096, const std::string& source = "127.0.0.1");
    ~SlowClient();
    SlowClient(const SlowClient&) = delete;
    SlowClient& operator=(const SlowClient&) = delete;

    /// Sends one text frame; false once the server has closed the connection.
    bool send(const json& msg);
    /// Reads one frame ("" when the connection ended).
    std::string read_one();
    /// Reads every frame until the connection ends.
    std::vector<std::string> read_all();

    /// After read_all: whether the server ended with a close frame (a close handshake).
    bool got_close_frame = false;

private:
    struct Connection;
    std::unique_ptr<Connection> connection_;
    bool broken_ = false;
};

/// Runs the io_context until `done()` or the timeout; returns done().
bool pump(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout = 20s);

/// A client's pause between two tries of something that ends only on a positive answer (a
/// poll of an HTTP endpoint, a request asked again): the io_context runs meanwhile, so frames
/// keep arriving. Never a synchronisation: nothing is assumed to have happened when it ends.
void backoff(net::io_context& ioc, std::chrono::milliseconds pause);

/// Asks `done()` (e.g. an HTTP read) until it holds, every `every` (the io_context runs in
/// between), or until the liveness bound `timeout` passed; returns done()'s last answer.
bool eventually(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout = 30s,
                std::chrono::milliseconds every = 20ms);

/// GET over plain HTTP: status and body. `token`: sent as `Authorization: Bearer` when not empty
/// (a private table's match is its players').
std::pair<int, std::string> http_get(unsigned short port, const std::string& target, const std::string& token = {});

/// An HTTP answer with its Content-Type.
struct HttpAnswer {
    int status = 0;
    std::string content_type;
    std::string body;
};
/// GET over plain HTTP: status, Content-Type and body.
HttpAnswer http_fetch(unsigned short port, const std::string& target);

/// One raw HTTP/1.1 GET with `target` sent byte for byte (no normalisation, as
/// `curl --path-as-is`): the status (0 when the server answered nothing) and the whole response.
std::pair<int, std::string> raw_get(unsigned short port, const std::string& target);

/// A WebSocket upgrade request to /ws (a valid key, no handshake completed after it): the
/// answer's status (101 when the server would take the connection) and body.
std::pair<int, std::string> upgrade_request(unsigned short port);

/// A plain TCP connection to 127.0.0.1:`port` that sends nothing: its file descriptor (the
/// caller closes it), or -1.
int tcp_connect(unsigned short port);

/// A fresh database path (and log) in a directory of this test process.
std::string temp_db(const std::string& name);

/// Sends `hello` with `name` and waits for `welcome` or `error`: the session token, or "".
std::string sign_in(net::io_context& ioc, Client& c, const std::string& name);

/// Every client whose latest table offers actions plays (the lowest bid to open the
/// auction, else the timeout action) until `done()`. The timeout is a liveness bound (a match
/// under ASan on a loaded machine takes tens of seconds), not a measure of speed.
bool play(net::io_context& ioc, std::vector<Client*> players, const std::function<bool()>& done,
          std::chrono::milliseconds timeout = 300s);

}  // namespace tarneeb::server::testing
