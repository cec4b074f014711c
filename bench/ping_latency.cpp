// tarneeb-pinglatency: how long a lobby client's ping takes while the server is loaded the
// ways that once froze its event loop (issue 11): tables of pimc bots thinking, and another
// process holding SQLite's write lock. Goal: p99 <= 50 ms in every phase (docs/performance.md
// "Server": ping latency).
//
//   build/release/tarneeb serve --port 8080 --db /tmp/ping.db --no-static &
//   build/release/tarneeb-pinglatency --port 8080 --db /tmp/ping.db --pimc-tables 5 --seconds 20
//
// Phases, each --seconds long, one ping every --interval-ms (100) from a signed-in lobby client:
//   idle     nothing else happens;
//   pimc     --pimc-tables tables, each one player (played by this program, the first legal
//            action) and three pimc bots, playing;
//   locked   the same, while this program holds the database's write lock (BEGIN IMMEDIATE on
//            --db; skipped without --db);
//   flood    the pimc tables play on while another client floods the server with messages as
//            fast as it can write them (cut off by the rate limit, it connects again).
// Prints one JSON line: per phase the pings answered, p50, p99, max (ms), and p99 / goal.
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "tarneeb/core/stats.hpp"

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// A WebSocket client that hands every text frame, parsed, to `on_frame`.
class Client {
public:
    Client(net::io_context& ioc, const std::string& host, unsigned short port, std::function<void(const json&)> on_frame)
        : ws_(ioc), on_frame_(std::move(on_frame)) {
        ws_.next_layer().connect(tcp::endpoint(net::ip::make_address(host), port));
        ws_.next_layer().socket().set_option(tcp::no_delay(true));
        ws_.handshake(host + ":" + std::to_string(port), "/ws");
        read();
    }
    void send(const json& msg) {
        ws_.text(true);
        ws_.write(net::buffer(msg.dump()));
    }

private:
    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            if (ec) return;
            const json j = json::parse(beast::buffers_to_string(buffer_.data()), nullptr, false);
            buffer_.consume(buffer_.size());
            if (j.is_object()) on_frame_(j);
            read();
        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::function<void(const json&)> on_frame_;
};

/// Runs `ioc` for `d`, calling `step` every millisecond or so.
void run_for(net::io_context& ioc, Clock::duration d, const std::function<void()>& step) {
    const auto end = Clock::now() + d;
    while (Clock::now() < end) {
        ioc.restart();
        ioc.run_for(std::chrono::milliseconds(1));
        step();
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Ping latency of tarneeb serve under pimc bots and a locked database"};
    std::string host = "127.0.0.1", db;
    unsigned short port = 8080;
    int tables = 5;
    double seconds = 10, goal_ms = 50;
    int interval_ms = 100;
    app.add_option("--host", host)->capture_default_str();
    app.add_option("--port", port)->capture_default_str();
    app.add_option("--db", db, "the server's database file (for the locked phase)");
    app.add_option("--pimc-tables", tables, "tables of one player and three pimc bots")->capture_default_str();
    app.add_option("--seconds", seconds, "length of each phase")->capture_default_str();
    app.add_option("--goal-ms", goal_ms, "the p99 goal")->capture_default_str();
    app.add_option("--interval-ms", interval_ms, "time between pings")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    net::io_context ioc;
    const auto tag = std::to_string(Clock::now().time_since_epoch().count() % 1000000);
    // The lobby client: one ping at a time.
    int ping_id = 0;
    std::optional<Clock::time_point> ping_sent;
    std::vector<double> rtt;
    bool signed_in = false;
    Client lobby(ioc, host, port, [&](const json& j) {
        if (j["type"] == "welcome") signed_in = true;
        if (j["type"] == "pong" && j.value("id", -1) == ping_id && ping_sent) {
            rtt.push_back(std::chrono::duration<double, std::milli>(Clock::now() - *ping_sent).count());
            ping_sent.reset();
        }
    });
    lobby.send({{"type", "hello"}, {"name", "Lobby" + tag}});
    run_for(ioc, std::chrono::seconds(2), [] {});
    if (!signed_in) {
        std::cerr << "tarneeb-pinglatency: could not sign in at " << host << ":" << port << "\n";
        return 1;
    }
    // Paced under the server's rate limit (20 messages a second by default).
    Clock::time_point next_ping = Clock::now();
    const auto ping = [&] {
        if (ping_sent || Clock::now() < next_ping) return;
        lobby.send({{"type", "ping"}, {"id", ++ping_id}});
        ping_sent = Clock::now();
        next_ping = *ping_sent + std::chrono::milliseconds(interval_ms);
    };
    json result = json::object();
    const auto phase = [&](const std::string& name, const std::function<void()>& also) {
        rtt.clear();
        run_for(ioc, std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)), [&] {
            ping();
            also();
        });
        const double p99 = tarneeb::percentile(rtt, 0.99);
        result[name] = {{"pings", rtt.size()}, {"p50_ms", tarneeb::percentile(rtt, 0.5)}, {"p99_ms", p99},
                        {"max_ms", rtt.empty() ? 0.0 : *std::max_element(rtt.begin(), rtt.end())},
                        {"p99_over_goal", p99 / goal_ms}};
    };

    phase("idle", [] {});

    // Tables of one player and three pimc bots; each player plays its first legal action.
    struct Player {
        std::unique_ptr<Client> client;
        json table;
        std::uint64_t acted = ~std::uint64_t{0};
        std::string created;
    };
    std::vector<std::unique_ptr<Player>> players;
    std::uint64_t bot_actions = 0;
    for (int i = 0; i < tables; ++i) {
        auto p = std::make_unique<Player>();
        Player* raw = p.get();
        p->client = std::make_unique<Client>(ioc, host, port, [raw, &bot_actions](const json& j) {
            if (j["type"] == "created") raw->created = j["table"];
            if (j["type"] == "table") {
                raw->table = j;
                for (const auto& e : j["events"]) bot_actions += (e["event"] == "call" || e["event"] == "card") && e["seat"] != 0;
            }
        });
        p->client->send({{"type", "hello"}, {"name", "Pimc" + tag + "x" + std::to_string(i)}});
        p->client->send({{"type", "create"}, {"turn_seconds", 0}});
        players.push_back(std::move(p));
    }
    run_for(ioc, std::chrono::seconds(2), [] {});
    for (auto& p : players) {
        if (p->created.empty()) continue;
        p->client->send({{"type", "join"}, {"table", p->created}, {"seat", 0}});
        for (int s = 1; s < 4; ++s) p->client->send({{"type", "add_bot"}, {"seat", s}, {"bot", "pimc"}});
        p->client->send({{"type", "start"}});
    }
    const auto play = [&] {
        for (auto& p : players) {
            const json& t = p->table;
            if (!t.is_object() || t["legal"].empty()) continue;
            if (t["state"] == "finished") {
                p->client->send({{"type", "start"}});
                continue;
            }
            const std::uint64_t v = t["version"];
            if (p->acted == v) continue;
            p->acted = v;
            p->client->send({{"type", "act"}, {"version", v}, {"action", t["legal"][0]}});
        }
    };
    phase("pimc", play);
    result["pimc"]["bot_actions"] = bot_actions;

    if (!db.empty()) {
        sqlite3* other = nullptr;
        if (sqlite3_open(db.c_str(), &other) != SQLITE_OK ||
            sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
            std::cerr << "tarneeb-pinglatency: cannot lock " << db << "\n";
            return 1;
        }
        phase("locked", play);
        sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(other);
    }
    // A client writing as fast as it can; when the server closes it, a new one takes its place.
    std::unique_ptr<Client> flood;
    std::vector<std::unique_ptr<Client>> closed;  // kept: their reads may still be queued
    std::uint64_t flood_sent = 0, flood_connections = 0;
    int flood_id = 0;
    phase("flood", [&] {
        play();
        try {
            if (!flood) {
                flood = std::make_unique<Client>(ioc, host, port, [](const json&) {});
                ++flood_connections;
            }
            for (int i = 0; i < 50; ++i, ++flood_sent) flood->send({{"type", "list"}, {"id", ++flood_id}});
        } catch (const std::exception&) {
            if (flood) closed.push_back(std::move(flood));  // closed by the server: connect again next time
        }
    });
    result["flood"]["messages_sent"] = flood_sent;
    result["flood"]["connections"] = flood_connections;

    result["goal_p99_ms"] = goal_ms;
    result["pimc_tables"] = tables;
    result["seconds_per_phase"] = seconds;
    std::cout << result.dump() << std::endl;
    return 0;
}
