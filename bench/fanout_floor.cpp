// tarneeb-fanout-floor: the floor of the server's CPU per action (issue 26; docs/performance.md
// "The floor"). A bare Boost.Beast WebSocket server does only what any game server must do for
// one action: read the acting client's frame and write one table-sized text frame to each of the
// table's four clients. No game, no JSON, no storage. Its CPU per action, measured on the same
// machine as `tarneeb serve`'s (bench/floor_ratio.sh), gives the ratio the issue asks for.
//
//   tarneeb-fanout-floor --tables 20 --duration 10 [--frame-bytes 2480]
//
// The server runs on one thread (one io_context, as one shard of `tarneeb serve --threads 1`),
// the clients on another: the server thread's own CPU time (CLOCK_THREAD_CPUTIME_ID) divided by
// the actions is the figure. Each table's seats act in turn, as fast as the server answers: an
// action is written by the seat to act once it has read the previous action's frame. Prints one
// JSON line.
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/beast.hpp>

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// ---- the server: read an action, write the frame to the table's four clients ---------------

struct ServerTable;

/// One server-side connection: reads frames; sends queued frames one at a time.
struct ServerConn : std::enable_shared_from_this<ServerConn> {
    explicit ServerConn(tcp::socket s) : ws(std::move(s)) {}
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer in;
    std::vector<std::shared_ptr<const std::string>> queue;
    bool writing = false;
    ServerTable* table = nullptr;

    void send(std::shared_ptr<const std::string> frame) {
        queue.push_back(std::move(frame));
        if (!writing) write_next();
    }
    void write_next() {
        if (queue.empty()) {
            writing = false;
            return;
        }
        writing = true;
        auto frame = queue.front();
        queue.erase(queue.begin());
        ws.text(true);
        ws.async_write(net::buffer(*frame), [self = shared_from_this(), frame](beast::error_code ec, std::size_t) {
            if (!ec) self->write_next();
        });
    }
    void read();
};

struct ServerTable {
    std::vector<std::shared_ptr<ServerConn>> seats;
    std::shared_ptr<const std::string> frame;
};

std::atomic<std::uint64_t> g_actions{0};

void ServerConn::read() {
    ws.async_read(in, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) return;
        self->in.consume(self->in.size());
        ++g_actions;
        for (auto& seat : self->table->seats) seat->send(self->table->frame);
        self->read();
    });
}

// ---- the clients: each table's seats act in turn ------------------------------------------

struct ClientTable;

struct Client {
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer in;
    ClientTable* table = nullptr;
    int seat = 0;
    explicit Client(net::io_context& ioc) : ws(ioc) {}
    void read();
};

struct ClientTable {
    std::vector<std::unique_ptr<Client>> seats;
    int to_act = 0;
    int heard = 0;  ///< seats that read the last action's frame
    const std::string action = R"({"type":"act","id":1,"version":1,"action":{"card":"QS"}})";
    std::atomic<bool>* stop = nullptr;
    void act() {
        if (stop->load()) return;
        heard = 0;
        auto& c = *seats[static_cast<std::size_t>(to_act)];
        c.ws.text(true);
        c.ws.write(net::buffer(action));
        to_act = (to_act + 1) % 4;
    }
};

void Client::read() {
    ws.async_read(in, [this](beast::error_code ec, std::size_t) {
        if (ec) return;
        in.consume(in.size());
        if (++table->heard == 4) table->act();  // every seat saw it: the next seat acts
        read();
    });
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tarneeb-fanout-floor: a bare Beast fan-out, the floor of the server's CPU per action"};
    int tables = 20, duration_s = 10, frame_bytes = 2480;
    app.add_option("--tables", tables, "tables of four clients, each acting as fast as the server answers")->check(CLI::Range(1, 5000));
    app.add_option("--duration", duration_s, "seconds measured")->check(CLI::Range(1, 3600));
    app.add_option("--frame-bytes", frame_bytes, "bytes of the frame sent to each client per action (a table message)")
        ->check(CLI::Range(16, 1 << 20));
    CLI11_PARSE(app, argc, argv);

    // The server: one io_context, one thread.
    net::io_context server_ioc(1);
    tcp::acceptor acceptor(server_ioc, {net::ip::make_address("127.0.0.1"), 0});
    const unsigned short port = acceptor.local_endpoint().port();
    std::vector<ServerTable> server_tables(static_cast<std::size_t>(tables));
    const std::string head = R"({"type":"table","table":"t1","version":2,"events":[)";
    const auto frame = std::make_shared<const std::string>(
        head + std::string(static_cast<std::size_t>(frame_bytes) - std::min(head.size() + 2, static_cast<std::size_t>(frame_bytes)), ' ') + "]}");
    for (auto& t : server_tables) t.frame = frame;
    std::atomic<int> accepted{0};
    std::function<void()> accept = [&] {
        acceptor.async_accept([&](beast::error_code ec, tcp::socket s) {
            if (ec) return;
            s.set_option(tcp::no_delay(true));
            auto conn = std::make_shared<ServerConn>(std::move(s));
            const int n = accepted.fetch_add(1);
            auto& t = server_tables[static_cast<std::size_t>(n / 4)];
            conn->table = &t;
            t.seats.push_back(conn);
            conn->ws.async_accept([conn](beast::error_code e) {
                if (!e) conn->read();
            });
            if (n + 1 < tables * 4) accept();
        });
    };
    accept();
    // The measured window, marked on the server thread: its CPU time and the actions it read.
    double server_cpu_start = 0, server_cpu_end = 0;
    std::uint64_t actions_start = 0, actions_end = 0;
    bool started = false;
    std::atomic<bool> measuring{false}, stop{false};
    std::thread server([&] {
        auto guard = net::make_work_guard(server_ioc);
        // Marks the server thread's CPU at the start and the end of the measured window.
        net::steady_timer mark(server_ioc);
        std::function<void()> poll = [&] {
            mark.expires_after(std::chrono::milliseconds(5));
            mark.async_wait([&](beast::error_code) {
                if (measuring.load() && !started) {
                    started = true;
                    server_cpu_start = thread_cpu_seconds();
                    actions_start = g_actions.load();
                }
                if (stop.load()) {
                    server_cpu_end = thread_cpu_seconds();
                    actions_end = g_actions.load();
                    server_ioc.stop();
                    return;
                }
                poll();
            });
        };
        poll();
        server_ioc.run();
    });

    // The clients: one io_context, one thread (this one).
    net::io_context client_ioc(1);
    std::vector<ClientTable> client_tables(static_cast<std::size_t>(tables));
    for (auto& t : client_tables) {
        t.stop = &stop;
        for (int s = 0; s < 4; ++s) {
            auto c = std::make_unique<Client>(client_ioc);
            c->table = &t;
            c->seat = s;
            beast::get_lowest_layer(c->ws).connect({net::ip::make_address("127.0.0.1"), port});
            beast::get_lowest_layer(c->ws).socket().set_option(tcp::no_delay(true));
            c->ws.handshake("127.0.0.1", "/ws");
            t.seats.push_back(std::move(c));
        }
    }
    for (auto& t : client_tables)
        for (auto& c : t.seats) c->read();
    for (auto& t : client_tables) t.act();
    // A second of warm-up, then the measured window.
    client_ioc.run_for(std::chrono::seconds(1));
    measuring = true;
    const auto start = std::chrono::steady_clock::now();
    client_ioc.run_for(std::chrono::seconds(duration_s));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stop = true;
    server.join();
    const std::uint64_t actions = actions_end - actions_start;
    const double cpu = server_cpu_end - server_cpu_start;
    std::printf(
        "{\"tables\":%d,\"frame_bytes\":%d,\"seconds\":%.2f,\"actions\":%llu,\"actions_per_second\":%.0f,"
        "\"server_cpu_seconds\":%.3f,\"server_cpu_us_per_action\":%.2f}\n",
        tables, frame_bytes, seconds, static_cast<unsigned long long>(actions), static_cast<double>(actions) / seconds, cpu,
        actions ? cpu * 1e6 / static_cast<double>(actions) : 0.0);
    return actions ? 0 : 1;
}
