// The Beast half of ws_harness.hpp, compiled once for every test executable that runs the real
// server (the tarneeb_ws_harness library, tests/CMakeLists.txt).
#include "ws_harness.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include <cstdlib>

#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace tarneeb::server::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

ServerProcess::ServerProcess(std::string db, std::vector<std::string> extra, ChildLimits limits)
    : db_(std::move(db)), extra_(std::move(extra)), limits_(limits) {
    start();
}

void ServerProcess::start() {
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
        // Two event loops unless the test says: every server scenario crosses between loops (the
        // default, one loop per two cores, is one on a 2-core machine).
        if (std::find(extra_.begin(), extra_.end(), "--threads") == extra_.end()) {
            args.push_back("--threads");
            args.push_back("2");
        }
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

int ServerProcess::wait_exit() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
}

void ServerProcess::stop(int sig) {
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

/// The socket and its read loop; each frame goes to Client::received.
struct Client::Connection {
    explicit Connection(net::io_context& ioc) : ws(ioc) {}
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer buffer;
};

Client::Client(net::io_context& ioc, unsigned short port, std::string origin)
    : connection_(std::make_unique<Connection>(ioc)) {
    ::signal(SIGPIPE, SIG_IGN);  // a write to a socket the server closed must not kill the test
    auto& ws = connection_->ws;
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws.next_layer().socket().set_option(tcp::no_delay(true));
    if (!origin.empty())
        ws.set_option(websocket::stream_base::decorator([origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
    ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    read_next();
}

Client::~Client() = default;

void Client::send_text(const std::string& text) {
    beast::error_code ec;
    connection_->ws.text(true);
    connection_->ws.write(net::buffer(text), ec);
}

void Client::close() {
    beast::error_code ec;
    connection_->ws.next_layer().socket().shutdown(tcp::socket::shutdown_both, ec);
    connection_->ws.next_layer().socket().close(ec);
}

void Client::read_next() {
    connection_->ws.async_read(connection_->buffer, [this](beast::error_code ec, std::size_t) {
        if (ec) {
            ended = true;
            if (ec == websocket::error::closed) close_code = connection_->ws.reason().code;
            return;
        }
        std::string frame = beast::buffers_to_string(connection_->buffer.data());
        connection_->buffer.consume(connection_->buffer.size());
        received(std::move(frame));
        read_next();
    });
}

void Client::received(std::string frame) {
    frames.push_back(std::move(frame));
    if (auto j = json::parse(frames.back(), nullptr, false); j.is_object() && j.contains("type") && j["type"].is_string()) {
        if (j["type"] == "table" && j.contains("events"))
            for (const auto& e : j["events"])
                if (e.contains("event") && e["event"].is_string()) events_.insert(e["event"].get<std::string>());
        const std::string type = j["type"].get<std::string>();  // before j is moved from
        last_[type] = std::move(j);
    }
}

struct SlowClient::Connection {
    net::io_context ioc;
    websocket::stream<tcp::socket> ws{ioc};
};

SlowClient::SlowClient(unsigned short port, int receive_buffer, const std::string& source)
    : connection_(std::make_unique<Connection>()) {
    ::signal(SIGPIPE, SIG_IGN);
    auto& sock = connection_->ws.next_layer();
    sock.open(tcp::v4());
    sock.set_option(net::socket_base::receive_buffer_size(receive_buffer));
    sock.bind(tcp::endpoint(net::ip::make_address(source), 0));
    sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    connection_->ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
}

SlowClient::~SlowClient() = default;

bool SlowClient::send(const json& msg) {
    if (broken_) return false;
    beast::error_code ec;
    connection_->ws.text(true);
    connection_->ws.write(net::buffer(msg.dump()), ec);
    broken_ = static_cast<bool>(ec);
    return !broken_;
}

std::string SlowClient::read_one() {
    beast::flat_buffer buf;
    beast::error_code ec;
    connection_->ws.read(buf, ec);
    return ec ? std::string() : beast::buffers_to_string(buf.data());
}

std::vector<std::string> SlowClient::read_all() {
    std::vector<std::string> out;
    beast::flat_buffer buf;
    for (;;) {
        beast::error_code ec;
        connection_->ws.read(buf, ec);
        if (ec) {
            got_close_frame = ec == websocket::error::closed;
            return out;
        }
        out.push_back(beast::buffers_to_string(buf.data()));
        buf.consume(buf.size());
    }
}

bool pump(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < end) {
        ioc.restart();
        ioc.run_for(2ms);  // test-wait: runs the handlers for 2 ms between two checks of done()
    }
    return done();
}

void backoff(net::io_context& ioc, std::chrono::milliseconds pause) {
    pump(ioc, [] { return false; }, pause);  // test-wait: the retry pause itself (see ws_harness.hpp)
}

bool eventually(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout,
                std::chrono::milliseconds every) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (done()) return true;
        if (std::chrono::steady_clock::now() >= end) return false;
        backoff(ioc, every);
    }
}

std::pair<int, std::string> http_get(unsigned short port, const std::string& target, const std::string& token) {
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

HttpAnswer http_fetch(unsigned short port, const std::string& target) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), std::string(res[http::field::content_type]), res.body()};
}

std::pair<int, std::string> raw_get(unsigned short port, const std::string& target) {
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

std::pair<int, std::string> upgrade_request(unsigned short port) {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::empty_body> req{http::verb::get, "/ws", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    req.set(http::field::sec_websocket_version, "13");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), res.body()};
}

int tcp_connect(unsigned short port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::string temp_db(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-ws-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto p = dir / (name + ".db");
    for (const char* suffix : {"", "-wal", "-shm", ".log"}) std::filesystem::remove(p.string() + suffix);
    return p.string();
}

std::string sign_in(net::io_context& ioc, Client& c, const std::string& name) {
    c.send({{"type", "hello"}, {"name", name}});
    pump(ioc, [&] { return !c.last("welcome").is_null() || !c.last("error").is_null(); });
    const auto w = c.last("welcome");
    return w.is_null() ? "" : w["token"].get<std::string>();
}

bool play(net::io_context& ioc, std::vector<Client*> players, const std::function<bool()>& done,
          std::chrono::milliseconds timeout) {
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
