// Helpers for the tests that run the real `tarneeb serve` (ws_test.cpp, fault_test.cpp): the
// server in a child process on a free port of 127.0.0.1, a small Beast WebSocket client, and
// the loops that sign in and play through docs/protocol.md. Beast is slow to compile: the
// test files that include this header are built as one unity source (tests/CMakeLists.txt).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
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
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tarneeb::server::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
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

/// The real `tarneeb serve` in a child process, on a free port of 127.0.0.1.
/// `--rate 1000` unless `extra` sets --rate, `--no-static` unless it sets --static; the log
/// (warn and above) goes to DB.log.
class ServerProcess {
public:
    ServerProcess(std::string db, std::vector<std::string> extra = {}, ChildLimits limits = {})
        : db_(std::move(db)), extra_(std::move(extra)), limits_(limits) {
        start();
    }
    ~ServerProcess() { stop(SIGTERM); }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    unsigned short port() const { return port_; }
    pid_t pid() const { return pid_; }
    const std::string& log_path() const { return log_; }

    /// Starts the process; port() is 0 when it exited before listening.
    void start() {
        port_ = 0;
        int fds[2];
        ASSERT_EQ(::pipe(fds), 0);
        const pid_t parent = ::getpid();
        pid_ = ::fork();
        if (pid_ == 0) {
            // The server dies with the test process, even when a sanitizer aborts the test.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(125);
            ::dup2(fds[1], 1);
            const int log = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666);
            ::dup2(log, 2);
            ::close(fds[0]);
            if (limits_.file_size > 0) {
                ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
                const rlimit lim{limits_.file_size, RLIM_INFINITY};  // the test may raise it again (prlimit)
                ::setrlimit(RLIMIT_FSIZE, &lim);
            }
            if (limits_.as_nobody && ::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(126);
            std::vector<std::string> args{"tarneeb", "serve", "--address", "127.0.0.1", "--port", "0",
                                          "--bot-delay-ms", "0", "--summary-ms", "0", "--log-level", "warn"};
            if (std::find(extra_.begin(), extra_.end(), "--postgres") == extra_.end()) {  // DB is then only the log's name
                args.push_back("--db");
                args.push_back(db_);
            }
            if (std::find(extra_.begin(), extra_.end(), "--static") == extra_.end()) args.push_back("--no-static");
            if (std::find(extra_.begin(), extra_.end(), "--rate") == extra_.end()) {
                args.push_back("--rate");
                args.push_back("1000");
            }
            args.insert(args.end(), extra_.begin(), extra_.end());
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(TARNEEB_BINARY, argv.data());
            ::_exit(127);
        }
        ::close(fds[1]);
        std::string out;
        char ch;
        while (::read(fds[0], &ch, 1) == 1) {
            if (ch != '\n') {
                out.push_back(ch);
                continue;
            }
            if (out.rfind("listening on ", 0) == 0) break;
            out.clear();
        }
        ::close(fds[0]);
        const auto colon = out.rfind(':');
        if (out.rfind("listening on ", 0) != 0 || colon == std::string::npos) return;  // it exited
        port_ = static_cast<unsigned short>(std::stoi(out.substr(colon + 1)));
    }

    /// Waits for a process that exits by itself; returns its wait status.
    int wait_exit() {
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return status;
    }

    /// Stops the process with `sig` (SIGKILL: a crash) and waits for it.
    void stop(int sig) {
        if (pid_ <= 0) return;
        ::kill(pid_, sig);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        if (sig != SIGKILL) {
            EXPECT_FALSE(WIFSIGNALED(status) && WTERMSIG(status) != sig) << "server died of signal " << WTERMSIG(status);
            EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) != 0) << "server exited with " << WEXITSTATUS(status);
        }
    }

private:
    std::string db_;
    std::vector<std::string> extra_;
    ChildLimits limits_;
    std::string log_ = db_ + ".log";
    pid_t pid_ = -1;
    unsigned short port_ = 0;
};

/// One WebSocket client. All clients of a test share one io_context; `pump` runs it.
class Client {
public:
    Client(net::io_context& ioc, unsigned short port, std::string origin = {}) : ws_(ioc) {
        ::signal(SIGPIPE, SIG_IGN);  // a write to a socket the server closed must not kill the test
        ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
        ws_.next_layer().socket().set_option(tcp::no_delay(true));
        if (!origin.empty())
            ws_.set_option(websocket::stream_base::decorator([origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
        ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
        read();
    }
    void send(const json& msg) { send_text(msg.dump()); }
    void send_text(const std::string& text) {
        beast::error_code ec;
        ws_.text(true);
        ws_.write(net::buffer(text), ec);
    }
    void close() {
        beast::error_code ec;
        ws_.next_layer().socket().shutdown(tcp::socket::shutdown_both, ec);
        ws_.next_layer().socket().close(ec);
    }

    std::vector<std::string> frames;   ///< every text frame received, in order
    bool ended = false;                ///< the read loop ended
    int close_code = 0;                ///< the server's close code, if it closed

    /// The last frame of a type, or null. (Each frame is parsed once, when it arrives: the
    /// play loops ask every few milliseconds, and a sanitizer build parses slowly.)
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
    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            if (ec) {
                ended = true;
                if (ec == websocket::error::closed) close_code = ws_.reason().code;
                return;
            }
            frames.push_back(beast::buffers_to_string(buffer_.data()));
            buffer_.consume(buffer_.size());
            if (auto j = json::parse(frames.back(), nullptr, false); j.is_object() && j.contains("type") && j["type"].is_string()) {
                if (j["type"] == "table" && j.contains("events"))
                    for (const auto& e : j["events"])
                        if (e.contains("event") && e["event"].is_string()) events_.insert(e["event"].get<std::string>());
                const std::string type = j["type"].get<std::string>();  // before j is moved from
                last_[type] = std::move(j);
            }
            read();
        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::map<std::string, json> last_;  ///< the last frame of each type
    std::set<std::string> events_;      ///< every event name a table frame carried
};

/// Runs the io_context until `done()` or the timeout; returns done().
inline bool pump(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout = 20s) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < end) {
        ioc.restart();
        ioc.run_for(2ms);  // test-wait: runs the handlers for 2 ms between two checks of done()
    }
    return done();
}

/// A client's pause between two tries of something that ends only on a positive answer (a
/// poll of an HTTP endpoint, a request asked again): the io_context runs meanwhile, so frames
/// keep arriving. Never a synchronisation: nothing is assumed to have happened when it ends.
inline void backoff(net::io_context& ioc, std::chrono::milliseconds pause) {
    pump(ioc, [] { return false; }, pause);  // test-wait: the retry pause itself (see above)
}

/// Asks `done()` (e.g. an HTTP read) until it holds, every `every` (the io_context runs in
/// between), or until the liveness bound `timeout` passed; returns done()'s last answer.
inline bool eventually(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout = 30s,
                       std::chrono::milliseconds every = 20ms) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (done()) return true;
        if (std::chrono::steady_clock::now() >= end) return false;
        backoff(ioc, every);
    }
}

/// GET over plain HTTP: status and body. `token`: sent as `Authorization: Bearer` when not empty
/// (a private table's match is its players').
inline std::pair<int, std::string> http_get(unsigned short port, const std::string& target, const std::string& token = {}) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), res.body()};
}

/// One raw HTTP/1.1 GET with `target` sent byte for byte (no normalisation, as
/// `curl --path-as-is`): the status (0 when the server answered nothing) and the whole response.
inline std::pair<int, std::string> raw_get(unsigned short port, const std::string& target) {
    net::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    const std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    beast::error_code ec;
    net::write(s, net::buffer(req), ec);
    std::string out;
    char buf[4096];
    for (;;) {
        const auto n = s.read_some(net::buffer(buf), ec);
        out.append(buf, n);
        if (ec) break;
    }
    int status = 0;
    if (out.rfind("HTTP/1.1 ", 0) == 0 && out.size() >= 12) status = std::atoi(out.substr(9, 3).c_str());
    return {status, out};
}

/// A fresh database path (and log) in a directory of this test process.
inline std::string temp_db(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-ws-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto p = dir / (name + ".db");
    for (const char* suffix : {"", "-wal", "-shm", ".log"}) std::filesystem::remove(p.string() + suffix);
    return p.string();
}

inline std::string sign_in(net::io_context& ioc, Client& c, const std::string& name) {
    c.send({{"type", "hello"}, {"name", name}});
    pump(ioc, [&] { return !c.last("welcome").is_null() || !c.last("error").is_null(); });
    const auto w = c.last("welcome");
    return w.is_null() ? "" : w["token"].get<std::string>();
}

/// Every client whose latest table offers actions plays (the lowest bid to open the
/// auction, else the timeout action) until `done()`. The timeout is a liveness bound (a match
/// under ASan on a loaded machine takes tens of seconds), not a measure of speed.
inline bool play(net::io_context& ioc, std::vector<Client*> players, const std::function<bool()>& done,
          std::chrono::milliseconds timeout = 300s) {
    std::vector<std::uint64_t> acted(players.size(), ~std::uint64_t{0});
    std::vector<std::chrono::steady_clock::time_point> sent(players.size());
    return pump(ioc, [&] {
        if (done()) return true;
        for (std::size_t i = 0; i < players.size(); ++i) {
            const auto t = players[i]->last("table");
            if (t.is_null() || t["legal"].empty()) continue;
            // Once per version, as a client does; again after 5 s with no new table message,
            // as a client retries (an act may be refused, e.g. as stale, under a slow build).
            if (acted[i] == t["version"].get<std::uint64_t>() && std::chrono::steady_clock::now() - sent[i] < 5s) continue;
            sent[i] = std::chrono::steady_clock::now();
            json action = t["timeout_action"].is_null() ? t["legal"][0] : t["timeout_action"];
            if (t["round"]["phase"] == "auction" && t["legal"].size() > 1) {
                bool bid_made = false;
                for (const auto& call : t["round"]["calls"]) bid_made |= call["call"] != "pass";
                if (!bid_made) action = t["legal"][1];
            }
            acted[i] = t["version"];
            players[i]->send({{"type", "act"}, {"version", t["version"]}, {"action", action}});
        }
        return done();
    }, timeout);
}

}  // namespace tarneeb::server::testing
