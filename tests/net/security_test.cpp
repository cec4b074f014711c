// Security issue #11 against the real `tarneeb serve`: static files, slow and flooding
// clients, per-guest and per-address limits. Part of the server_ws_tests unity build.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "ws_harness.hpp"

namespace tarneeb::server::testing {
namespace {

namespace fs = std::filesystem;

// --static DIR with the database inside DIR (as `--static . --db ./tarneeb.db`): hostile targets
// sent as-is get no file outside the root, and never the database or its WAL.
TEST(Security, StaticFilesStayInsideTheRootAndNeverServeTheDatabase) {
    const std::string db = temp_db("static-root");
    const fs::path root = fs::path(db).parent_path() / "static-root";
    fs::remove_all(root);
    fs::create_directories(root / "assets");
    std::ofstream(root / "index.html") << "<html>tarneeb-index</html>";
    std::ofstream(root / "assets" / "app.js") << "tarneeb-app-js";
    std::ofstream(fs::path(db).parent_path() / "outside-secret.txt") << "tarneeb-outside-secret";
    fs::create_symlink(fs::path(db).parent_path() / "outside-secret.txt", root / "link-out");
    const std::string root_db = (root / "tarneeb.db").string();
    ServerProcess server(root_db, {"--static", root.string()});
    ASSERT_NE(server.port(), 0);
    {
        // A guest makes the database hold something worth stealing (a token), and a WAL.
        net::io_context ioc;
        Client c(ioc, server.port());
        ASSERT_FALSE(sign_in(ioc, c, "Victim").empty());
    }
    ASSERT_TRUE(fs::exists(root_db));

    EXPECT_EQ(raw_get(server.port(), "/").first, 200);
    EXPECT_NE(raw_get(server.port(), "/").second.find("tarneeb-index"), std::string::npos);
    EXPECT_EQ(raw_get(server.port(), "/assets/app.js?v=1").first, 200);

    const std::string abs_root = fs::canonical(root).string();
    const std::string hostile[] = {
        "//etc/passwd", "//proc/self/cmdline", "//proc/self/environ", "/" + abs_root + "/tarneeb.db",
        "/" + fs::path(db).parent_path().string() + "/outside-secret.txt", "/./../outside-secret.txt",
        "/../outside-secret.txt", "/assets/../../outside-secret.txt", "/%2e%2e/outside-secret.txt",
        "/%2e%2e%2foutside-secret.txt", "/%252e%252e/outside-secret.txt", "/..%5coutside-secret.txt",
        "/assets\\..\\..\\outside-secret.txt", "/index.html%00.js", "/" + std::string(4000, 'a'), "/link-out",
        "/tarneeb.db", "/tarneeb.db-wal", "/tarneeb.db-shm", "/tarneeb.db-journal", "/tarneeb%2edb",
        "//" + abs_root + "/tarneeb.db-wal",
    };
    for (const auto& target : hostile) {
        const auto [status, response] = raw_get(server.port(), target);
        EXPECT_NE(status, 200) << target;
        EXPECT_EQ(response.find("root:"), std::string::npos) << target;
        EXPECT_EQ(response.find("tarneeb-outside-secret"), std::string::npos) << target;
        EXPECT_EQ(response.find("SQLite format"), std::string::npos) << target;
        EXPECT_EQ(response.find("Victim"), std::string::npos) << target;
        EXPECT_EQ(response.find("serve"), std::string::npos) << target;  // /proc/self/cmdline
    }
    fs::remove_all(root);
}

/// `connections` of GET /metrics.json.
int open_connections(unsigned short port) {
    return json::parse(http_get(port, "/metrics.json").second)["connections"].get<int>();
}

/// Polls until the server has `n` WebSocket connections or `timeout` passed; returns whether it has.
bool wait_connections(unsigned short port, int n, std::chrono::seconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (open_connections(port) != n) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(20ms);  // test-wait: the pause between two polls of /metrics
    }
    return true;
}

/// Polls `done` until it holds or a generous 30 s passed; returns done().
bool wait_for(const std::function<bool()>& done) {
    const auto end = std::chrono::steady_clock::now() + 30s;
    while (!done() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(20ms);  // test-wait: between two polls
    return done();
}

/// One guest creates `n` public tables (and disconnects).
void create_tables(unsigned short port, int n) {
    net::io_context ioc;
    Client c(ioc, port);
    ASSERT_FALSE(sign_in(ioc, c, "Builder").empty());
    for (int i = 0; i < n; ++i) {
        const std::size_t before = c.frames.size();
        c.send({{"type", "create"}});
        ASSERT_TRUE(pump(ioc, [&] { return c.frames.size() > before; }));
        ASSERT_EQ(json::parse(c.frames.back())["type"], "created") << c.frames.back();
    }
    c.close();
}

std::size_t proc_status_kb(pid_t pid, const std::string& key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key + ":", 0) == 0) return std::stoul(line.substr(key.size() + 1));
    return 0;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The last `lines` lines of a file (a failure's context).
std::string log_tail(const std::string& path, std::size_t lines) {
    const std::string text = read_file(path);
    std::size_t at = text.size();
    for (std::size_t n = 0; at > 0 && n <= lines; ) if (text[--at] == '\n') ++n;
    return text.substr(at);
}

/// Adds options to ASAN_OPTIONS for the server processes started while it lives (the test
/// process's own sanitizer has read its options already); no effect without ASan.
class ChildAsanOptions {
public:
    explicit ChildAsanOptions(const std::string& options) {
        const char* old = std::getenv("ASAN_OPTIONS");
        had_ = old != nullptr;
        saved_ = old ? old : "";
        ::setenv("ASAN_OPTIONS", (saved_.empty() ? options : saved_ + ":" + options).c_str(), 1);
    }
    ~ChildAsanOptions() {
        if (had_) ::setenv("ASAN_OPTIONS", saved_.c_str(), 1);
        else ::unsetenv("ASAN_OPTIONS");
    }
    ChildAsanOptions(const ChildAsanOptions&) = delete;
    ChildAsanOptions& operator=(const ChildAsanOptions&) = delete;

private:
    bool had_ = false;
    std::string saved_;
};

const std::vector<std::string> kRoomy{"--rate", "100000", "--max-waiting-tables-per-guest", "100000",
                                      "--max-waiting-tables-per-address", "100000", "--max-playing-tables-per-address", "100000"};

// A client that stops reading (4 KiB receive buffer) while it floods requests: the server
// closes it at once when its queue passes the limit (not a close handshake queued behind data
// it cannot send), and every frame it did get is whole JSON: the frame being written when the
// queue overflowed stays alive until its write ends (ASan in CI catches a use after free).
TEST(Security, ASlowReaderIsClosedAtOnceAndGetsOnlyWholeFrames) {
    const std::string db = temp_db("slow-reader");
    // Under ASan freed memory is filled with zeros: a frame written from freed memory (the bug:
    // the kernel reads it, which ASan does not see) then carries NUL bytes and is not JSON.
    const ChildAsanOptions fill_freed("max_free_fill_size=4194304:free_fill_byte=0");
    ServerProcess server(db, kRoomy);
    ASSERT_NE(server.port(), 0);
    create_tables(server.port(), 50);  // a full page of tables: each `tables` frame is several KB
    ASSERT_TRUE(wait_connections(server.port(), 0, 30s));

    SlowClient slow(server.port());
    ASSERT_TRUE(slow.send({{"type", "hello"}, {"name", "Sloth"}}));
    // Signed in first: messages that arrive while the hello's write is in flight wait, and past
    // HallConfig::max_waiting_messages (256) the connection is closed for that instead.
    ASSERT_EQ(json::parse(slow.read_one())["type"], "welcome");
    // Flood until the server gives up on the client (its log says so, or it cut the socket).
    int sent = 0;
    bool full = false;
    while (sent < 20000 && !full && slow.send({{"type", "list"}, {"id", sent}})) {
        if (++sent % 50 == 0) full = read_file(server.log_path()).find("event=send_queue_full") != std::string::npos;
    }
    ASSERT_TRUE(wait_for([&] { return read_file(server.log_path()).find("event=send_queue_full") != std::string::npos; }))
        << "sent " << sent << "\nserver log (end):\n" << log_tail(server.log_path(), 30)
        << "\nmetrics: " << http_get(server.port(), "/metrics.json").second;
    // Now the client reads everything it can: only whole JSON messages (the old server went on
    // writing the frame in flight from freed memory), and no close handshake (the old server
    // queued a graceful close behind the data the client could not take, and kept it open).
    const auto frames = slow.read_all();
    for (const auto& f : frames) {
        const json j = json::parse(f, nullptr, false);
        ASSERT_TRUE(j.is_object() && j.contains("type")) << "not a whole JSON message: " << f.substr(0, 200);
    }
    EXPECT_FALSE(slow.got_close_frame) << "a slow consumer must be cut off, not closed with a handshake";
    EXPECT_TRUE(wait_connections(server.port(), 0, 30s));
    // The server is fine: another client is served.
    net::io_context ioc;
    Client ok(ioc, server.port());
    EXPECT_FALSE(sign_in(ioc, ok, "Fine").empty());
}

// Ten clients that request the lobby as fast as they can and never read, with 1,000 public
// tables in ~156 KB `tables` frames (--list-page 1000, as the unpaged lobby of the old server):
// the byte-capped send queue alone keeps the server's memory bounded (the old server, capped at
// 512 frames, grew by ~80 MB per such client), and every flooding client is closed.
TEST(Security, FloodingNonReadersKeepServerMemoryBounded) {
    const std::string db = temp_db("flood-memory");
    auto args = kRoomy;
    // One loop: the byte cap of a connection's send queue is what is measured. (With several
    // loops, the frames a connection's loop handed to the hall are still answered after the
    // connection was cut off: up to --rate of them, which this test lifts; under a sanitizer
    // that backlog outlasts the test's wait. Loops.AFloodFromAnotherLoop… covers the rate.)
    args.insert(args.end(), {"--list-page", "1000", "--threads", "1"});
    // Under ASan (CI) freed memory waits in a quarantine of up to 256 MB, which would count as
    // RSS: the server of this test gets a small one.
    const ChildAsanOptions small_quarantine("quarantine_size_mb=8");
    ServerProcess server(db, args);
    ASSERT_NE(server.port(), 0);
    create_tables(server.port(), 1000);
    ASSERT_TRUE(wait_connections(server.port(), 0, 30s));
    const std::size_t before_kb = proc_status_kb(server.pid(), "VmRSS");
    ASSERT_GT(before_kb, 0u);

    std::vector<std::unique_ptr<SlowClient>> clients;
    for (int i = 0; i < 10; ++i) {
        clients.push_back(std::make_unique<SlowClient>(server.port()));
        ASSERT_TRUE(clients.back()->send({{"type", "hello"}, {"name", "Flood" + std::to_string(i)}}));
        ASSERT_EQ(json::parse(clients.back()->read_one())["type"], "welcome");  // as above: no waiting flood
    }
    for (int round = 0; round < 700; ++round)
        for (auto& c : clients) c->send({{"type", "list"}});
    EXPECT_TRUE(wait_connections(server.port(), 0, 30s));
    const std::size_t peak_kb = proc_status_kb(server.pid(), "VmHWM");
    // Generous: 10 queues of at most 1 MiB, plus the sanitizers' shadow memory in CI.
    EXPECT_LT(peak_kb, before_kb + 200 * 1024) << "VmRSS before " << before_kb << " kB, peak " << peak_kb << " kB";
}

// Connections per address: an upgrade over the limit is refused with 503 too_many_connections;
// a closed connection frees its place.
TEST(Security, UpgradesOverThePerAddressLimitAreRefused) {
    const std::string db = temp_db("per-address");
    ServerProcess server(db, {"--max-connections-per-address", "3"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<Client>(ioc, server.port()));
        ASSERT_FALSE(sign_in(ioc, *clients.back(), "Near" + std::to_string(i)).empty());
    }
    const auto upgrade = [&] { return upgrade_request(server.port()); };
    const auto [status, body] = upgrade();
    EXPECT_EQ(status, 503);
    EXPECT_EQ(json::parse(body)["error"], "too_many_connections");
    EXPECT_EQ(open_connections(server.port()), 3);
    clients[0]->close();
    ASSERT_TRUE(wait_connections(server.port(), 2, 30s));
    EXPECT_EQ(upgrade().first, 101);
}

// Silent TCP connections (never an HTTP request) from one address: over the per-address limit
// the server closes new ones from that address at once, and another address is still served.
TEST(Security, SilentSocketsFromOneAddressDoNotLockOutOthers) {
    const std::string db = temp_db("silent-sockets");
    ServerProcess server(db, {"--max-connections-per-address", "3"});
    ASSERT_NE(server.port(), 0);
    std::vector<int> silent;
    for (int i = 0; i < 3; ++i) {
        silent.push_back(tcp_connect(server.port()));
        ASSERT_NE(silent.back(), -1);
    }
    // The fourth from 127.0.0.1 is closed by the server without a word (sessions are made in
    // accept order, so the three before it are counted): end of stream or a reset.
    const int fourth = tcp_connect(server.port());
    ASSERT_NE(fourth, -1);
    char byte;
    const ssize_t n = ::read(fourth, &byte, 1);
    const int err = errno;
    EXPECT_TRUE(n == 0 || (n < 0 && err == ECONNRESET)) << n << " " << std::strerror(err);
    ::close(fourth);
    // Another address is served meanwhile: a WebSocket from 127.0.0.2 signs in.
    SlowClient other(server.port(), 1 << 16, "127.0.0.2");
    ASSERT_TRUE(other.send({{"type", "hello"}, {"name", "Other"}}));
    EXPECT_EQ(json::parse(other.read_one())["type"], "welcome");
    // Once the silent sockets close, 127.0.0.1 is served again.
    for (const int fd : silent) ::close(fd);
    EXPECT_TRUE(wait_for([&] { return raw_get(server.port(), "/healthz").first == 200; }));
}

}  // namespace
}  // namespace tarneeb::server::testing
