// tarneeb-loadtest: N simulated clients over loopback sign in, fill tables and play against a
// running `tarneeb serve` (docs/performance.md "Server").
//
//   tarneeb-loadtest --port 8080 --tables 2500 --interval-ms 2000 --duration 60
//   tarneeb-loadtest --port 8081 --port 8082 --port 8083 ...   (a cluster: docs/scaling.md)
//
// With several ports (the nodes of a cluster), table n's seat s connects to port (n + s) mod k:
// seat 0 creates the table on its node (the owner), the others join it from theirs, so the
// latency is also reported apart for players on the owning node and on other nodes (routed: their requests travel to the owner).
// Four clients per table. Each table makes one action every --interval-ms (0: as fast as the
// server answers). Latency is measured from writing an `act` to reading the `table` message
// that shows the action applied, on the acting client. Every `error` frame counts as an error.
// Runs on --threads threads (default 1), each with its own io_context and every k-th table;
// raises its open-file limit. It parses only what it reads: not at all a table message that
// offers its client nothing while the client waits for no update, and never the history, events
// or hand of the others, to load the machine it shares with the server as little as it can.
// The run is bounded: it stops after --duration seconds and prints one JSON summary line.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include "tarneeb/core/stats.hpp"

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
    std::vector<double> latency_ms;
    std::vector<double> owner_ms, routed_ms;  ///< the same, split by the player's node (several ports)
    std::uint64_t actions = 0, errors = 0, frames = 0, connect_failures = 0, matches = 0;
    // --reconnect: what a fault did (a node killed under the load).
    /// Actions a fault held up: the acting client's connection closed meanwhile, or the table's
    /// node did (or did before it was sent, until the table's next action is applied).
    std::vector<double> interrupted_ms;
    std::uint64_t disconnects = 0;       ///< connections closed under a client
    std::uint64_t seats_given_back = 0;  ///< welcomes after a reconnect that name the client's table and seat
    std::uint64_t seats_lost = 0;        ///< welcomes after a reconnect with no table to a client that sat at one (it joins again)
    std::uint64_t not_yet_seated = 0;    ///< welcomes after a reconnect to a client that had not sat yet (the ramp)
    std::uint64_t resent = 0;            ///< acts sent again after 3 s with no update
    bool faulted = false;                ///< a connection was lost: later latencies also go to after_fault_ms
    std::vector<double> after_fault_ms;  ///< latency_ms of the actions sent after the first lost connection
    std::vector<double> longest_gap_ms;  ///< each table's longest time between two applied actions (at the end)
    Clock::time_point measure_from{};    ///< the window's start (after the ramp)
    std::vector<std::vector<double>> by_second;  ///< latency_ms by the second of the window the action was applied in
};

struct Options {
    std::string host = "127.0.0.1";
    std::vector<unsigned short> ports{8080};
    int tables = 10;
    int interval_ms = 2000;
    int duration_s = 30;
    int ramp_ms = 5000;
    int threads = 1;
    bool reconnect = false;  ///< a closed connection signs in again (its token) on the next node
};

/// Parses a frame without what the client never reads: at the top "history" and "events", in
/// the round the hand (the skipped values are scanned but never built).
json parse_frame(const std::string& text) {
    const json::parser_callback_t skip = [](int depth, json::parse_event_t event, json& parsed) {
        if (event != json::parse_event_t::key) return true;
        const auto& key = parsed.get_ref<const std::string&>();
        if (depth == 1) return key != "history" && key != "events";
        return !(depth == 2 && key == "hand");
    };
    return json::parse(text, skip, false);
}

class LoadTable;

class LoadClient : public std::enable_shared_from_this<LoadClient> {
public:
    LoadClient(net::io_context& ioc, LoadTable& table, int seat) : ioc_(ioc), table_(table), seat_(seat), retry_(ioc) {}
    /// Connects to node `node` of `eps` and signs in as `name` (then with the token it was given).
    void connect(const std::vector<tcp::endpoint>& eps, std::size_t node, std::string name);
    void send(const json& msg) {
        if (!open) return;  // a closed connection sends nothing: the reconnect resumes from the state
        queue_.push_back(msg.dump());
        if (queue_.size() == 1) write_next();
    }
    int seat() const { return seat_; }
    std::size_t node() const { return node_; }
    /// The welcome's token (what a reconnect signs in with).
    void set_token(std::string token) { token_ = std::move(token); }
    bool open = false;
    Clock::time_point connected_at{};
    Clock::time_point lost_at{};  ///< when its connection last closed
    bool welcomed = false;        ///< got a welcome (its first one counts toward the table's four)
    bool seated = false;          ///< got a table message: it sits at its table
    bool reconnected = false;  ///< signed in again after a lost connection, welcome not read yet

private:
    void write_next() {
        ws_->async_write(net::buffer(queue_.front()), [self = shared_from_this(), ws = ws_.get()](beast::error_code ec, std::size_t) {
            if (ec || ws != self->ws_.get()) return;
            self->queue_.erase(self->queue_.begin());
            if (!self->queue_.empty()) self->write_next();
        });
    }
    void dial();
    void read();
    /// The connection closed under the client: with --reconnect, the next node after the
    /// browser's back-off (web/src/conn.ts: 300 ms doubled after each attempt that got no
    /// message, at most 5 s, each delay lengthened by up to as much again at random).
    void lost();

    net::io_context& ioc_;
    std::unique_ptr<websocket::stream<beast::tcp_stream>> ws_;
    beast::flat_buffer buffer_;
    LoadTable& table_;
    int seat_;
    std::vector<std::string> queue_;
    std::string name_, token_;
    std::vector<tcp::endpoint> eps_;
    std::size_t node_ = 0;
    net::steady_timer retry_;
    int attempts_ = 0;  ///< reconnections since the last message (the back-off's exponent)
    std::minstd_rand jitter_{std::random_device{}()};
};

class LoadTable {
public:
    LoadTable(net::io_context& ioc, Stats& stats, const Options& o, std::string prefix, int n)
        : ioc_(ioc), stats_(stats), o_(o), prefix_(std::move(prefix)), n_(n), pace_(ioc), watchdog_(ioc) {}

    void start(const std::vector<tcp::endpoint>& eps) {
        for (int s = 0; s < 4; ++s) {
            const std::size_t node = static_cast<std::size_t>(n_ + s) % eps.size();
            routed_[static_cast<std::size_t>(s)] = node != static_cast<std::size_t>(n_) % eps.size();
            if (s == 0) owner_node_ = node;
            clients_.push_back(std::make_shared<LoadClient>(ioc_, *this, s));
            clients_.back()->connect(eps, node, prefix_ + "-" + std::to_string(n_) + "-" + std::to_string(s));
        }
        if (o_.reconnect) watch();
    }

    /// A client's connection closed: its action waiting, if any, is interrupted (its time is
    /// counted apart). When the client was on the table's node, the node is taken to be gone
    /// (a node killed closes all of its connections): every action waiting, and every one sent
    /// until the table's next action is applied (by its new owner), is interrupted too.
    void on_lost(const LoadClient& c) {
        ++stats_.disconnects;
        stats_.faulted = true;
        auto& mine = pending_[static_cast<std::size_t>(c.seat())];
        mine.interrupted |= mine.active;
        if (c.node() != owner_node_) return;
        owner_lost_ = true;
        for (auto& p : pending_) p.interrupted |= p.active;
    }

    /// A frame this client need not read: a table message of a match in play that offers it no
    /// action while it waits for no update of its own (3 of every 4 frames). Only counted.
    bool skippable(const LoadClient& c, std::string_view text) const {
        return !pending_[static_cast<std::size_t>(c.seat())].active && text.find("\"legal\":[]") != std::string_view::npos &&
               text.find("\"state\":\"playing\"") != std::string_view::npos && text.find("\"type\":\"error\"") == std::string_view::npos;
    }
    void count_frame() { ++stats_.frames; }

    void on_frame(LoadClient& c, const json& j) {
        ++stats_.frames;
        const std::string type = j.value("type", "");
        if (type == "error") {
            ++stats_.errors;
            if (stats_.errors < 5) std::cerr << "error frame: " << j.dump() << "\n";
            // A refused act (e.g. its table's node died): sent again with the next update.
            auto& p = pending_[static_cast<std::size_t>(c.seat())];
            if (p.active) p.interrupted = p.refused = true;
            return;
        }
        if (type == "welcome") {
            c.set_token(j.value("token", ""));
            const bool first = !c.welcomed;
            c.welcomed = true;
            if (c.reconnected) {
                // Signed in again: the seat given back (a table message follows), or join again.
                c.reconnected = false;
                routed_[static_cast<std::size_t>(c.seat())] = c.node() != clients_[0]->node();
                if (j.contains("table") && j["table"].is_string()) {
                    ++stats_.seats_given_back;
                } else if (c.seated) {
                    if (++stats_.seats_lost <= 5)
                        std::cerr << "seat not given back: " << prefix_ << "-" << n_ << "-" << c.seat() << " on node " << c.node()
                                  << ", " << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - c.lost_at).count()
                                  << " ms after its connection closed\n";
                    if (!table_id_.empty()) c.send({{"type", "join"}, {"table", table_id_}, {"seat", c.seat()}});
                } else {
                    ++stats_.not_yet_seated;  // lost its connection before it sat: it joins now
                    if (!table_id_.empty()) c.send({{"type", "join"}, {"table", table_id_}, {"seat", c.seat()}});
                }
                if (!first) return;
            }
            if (++welcomed_ == 4) clients_[0]->send({{"type", "create"}, {"turn_seconds", 0}, {"target", 31}});
            return;
        }
        if (type == "created") {
            table_id_ = j["table"];
            for (auto& cl : clients_) cl->send({{"type", "join"}, {"table", table_id_}, {"seat", cl->seat()}});
            return;
        }
        if (type != "table") return;
        c.seated = true;
        const std::uint64_t version = j["version"];
        if (c.seat() == 0 && j["state"] != "playing") {
            const bool full = std::all_of(j["seats"].begin(), j["seats"].end(), [](const json& s) { return !s.is_null(); });
            if (j["state"] == "finished" && version > started_version_) ++stats_.matches;
            if (full && version > started_version_ && !stopping) {
                started_version_ = version + 1;
                clients_[0]->send({{"type", "start"}});
            }
            return;
        }
        // Each client times its own action: the frames of one publish reach the four clients in
        // any order, so the next actor may act before the last actor has read its update.
        auto& p = pending_[static_cast<std::size_t>(c.seat())];
        if (p.active && version > p.version) {
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - p.first_sent_at).count();
            if (p.interrupted) {
                stats_.interrupted_ms.push_back(ms);
            } else {
                stats_.latency_ms.push_back(ms);
                if (stats_.faulted) stats_.after_fault_ms.push_back(ms);
                if (measuring) {
                    const auto second = static_cast<std::size_t>(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - stats_.measure_from).count());
                    if (stats_.by_second.size() <= second) stats_.by_second.resize(second + 1);
                    stats_.by_second[second].push_back(ms);
                }
                (routed_[static_cast<std::size_t>(c.seat())] ? stats_.routed_ms : stats_.owner_ms).push_back(ms);
            }
            ++stats_.actions;
            p.active = false;
            if (owner_lost_) {
                // Applied: the table has an owner again, on a node this client does not know.
                owner_lost_ = false;
                owner_node_ = kNoNode;
            }
            const auto now = Clock::now();
            if (measuring && played) longest_gap = std::max(longest_gap, std::chrono::duration<double, std::milli>(now - last_progress).count());
            last_progress = now;
            played = true;
        }
        if (p.active && version == p.version && !j["legal"].empty()) {
            // Still waiting. After its reconnect the client sends it again at once (it may have
            // been lost with the node); otherwise the watchdog does after 3 s.
            if (c.connected_at > p.sent_at || p.refused) {
                p.refused = false;
                p.interrupted = true;
                p.sent_at = Clock::now();
                ++stats_.resent;
                c.send(p.act);
            }
            return;
        }
        if (j["legal"].empty() || stopping) return;
        // This client is to act: pick the timeout action, or open the auction with the lowest bid.
        json action = j["legal"][0];
        if (j["round"]["phase"] == "auction" && j["legal"].size() > 1) {
            bool bid_made = false;
            for (const auto& call : j["round"]["calls"]) bid_made |= call["call"] != "pass";
            if (!bid_made) action = j["legal"][1];
        }
        next_ = {{"type", "act"}, {"version", version}, {"action", action}};
        next_client_ = &c;
        const auto due = last_action_ + std::chrono::milliseconds(o_.interval_ms);
        if (o_.interval_ms == 0 || due <= Clock::now()) {
            fire();
        } else {
            pace_.expires_at(due);
            pace_.async_wait([this](beast::error_code ec) { if (!ec) fire(); });
        }
    }

    bool stopping = false;
    Clock::time_point last_progress{};  ///< the last action seen applied
    bool played = false;                ///< an action was seen applied (the table got going)
    bool measuring = false;                          ///< after the ramp: longest_gap is kept
    double longest_gap = 0;                          ///< ms between two applied actions, at most (while measuring)
    bool reconnects() const { return o_.reconnect; }

private:
    void fire() {
        if (!next_client_ || stopping) return;
        auto& p = pending_[static_cast<std::size_t>(next_client_->seat())];
        p.active = true;
        p.interrupted = owner_lost_;  // sent to a table whose node is gone: it waits for the takeover
        p.refused = false;
        p.version = next_["version"];
        p.sent_at = p.first_sent_at = last_action_ = Clock::now();
        p.act = next_;
        next_client_->send(next_);
        next_client_ = nullptr;
    }

    /// --reconnect: once a second, an act with no update for 3 s is sent again (to the table's
    /// new owner after a failover, or after a request lost with its node); its time counts apart.
    void watch() {
        watchdog_.expires_after(std::chrono::seconds(1));
        watchdog_.async_wait([this](beast::error_code ec) {
            if (ec || stopping) return;
            for (std::size_t s = 0; s < 4; ++s) {
                auto& p = pending_[s];
                if (!p.active || Clock::now() - p.sent_at < std::chrono::seconds(3)) continue;
                p.interrupted = true;
                p.sent_at = Clock::now();
                ++stats_.resent;
                clients_[s]->send(p.act);
            }
            watch();
        });
    }

    net::io_context& ioc_;
    Stats& stats_;
    const Options& o_;
    std::string prefix_;
    int n_;
    net::steady_timer pace_, watchdog_;
    std::vector<std::shared_ptr<LoadClient>> clients_;
    int welcomed_ = 0;
    std::string table_id_;
    std::uint64_t started_version_ = 0;
    struct Pending {
        bool active = false;
        bool interrupted = false;  ///< sent again, or a client of the table lost its connection meanwhile
        bool refused = false;      ///< answered with an error: sent again with the next update
        std::uint64_t version = 0;
        Clock::time_point sent_at{}, first_sent_at{};
        json act;
    };
    std::array<Pending, 4> pending_{};
    std::array<bool, 4> routed_{};  ///< the seat's client is on another node than seat 0's
    static constexpr std::size_t kNoNode = SIZE_MAX;
    std::size_t owner_node_ = kNoNode;  ///< the node that runs the table, while this client knows it
    bool owner_lost_ = false;           ///< that node closed its connections; no action applied since
    Clock::time_point last_action_{};
    json next_;
    LoadClient* next_client_ = nullptr;
};

void LoadClient::connect(const std::vector<tcp::endpoint>& eps, std::size_t node, std::string name) {
    eps_ = eps;
    node_ = node;
    name_ = std::move(name);
    dial();
}

void LoadClient::dial() {
    ws_ = std::make_unique<websocket::stream<beast::tcp_stream>>(ioc_);
    buffer_.clear();
    queue_.clear();
    const tcp::endpoint ep = eps_[node_];
    ws_->next_layer().async_connect(ep, [self = shared_from_this(), ep](beast::error_code ec) {
        if (ec) {
            if (self->token_.empty()) std::cerr << "connect failed: " << ec.message() << "\n";
            return self->lost();
        }
        beast::error_code ignored;
        self->ws_->next_layer().socket().set_option(tcp::no_delay(true), ignored);
        self->ws_->async_handshake(ep.address().to_string() + ":" + std::to_string(ep.port()), "/ws",
                                   [self](beast::error_code e) {
                                       if (e) {
                                           if (self->token_.empty()) std::cerr << "handshake failed: " << e.message() << "\n";
                                           return self->lost();
                                       }
                                       self->open = true;
                                       self->connected_at = Clock::now();
                                       self->ws_->text(true);
                                       self->read();
                                       if (self->token_.empty()) {
                                           self->send({{"type", "hello"}, {"name", self->name_}});
                                       } else {
                                           self->reconnected = true;
                                           self->send({{"type", "hello"}, {"token", self->token_}});
                                       }
                                   });
    });
}

void LoadClient::lost() {
    const bool was_open = open;
    open = false;
    if (was_open) lost_at = Clock::now();
    if (was_open) table_.on_lost(*this);
    if (!table_.reconnects() || table_.stopping || token_.empty()) return;
    node_ = (node_ + 1) % eps_.size();
    const double base = std::min(5000.0, 300.0 * std::pow(2.0, std::min(attempts_++, 10)));
    const double delay = base * (1.0 + std::uniform_real_distribution<double>(0.0, 1.0)(jitter_));
    retry_.expires_after(std::chrono::milliseconds(static_cast<long>(delay)));
    retry_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec && !self->table_.stopping) self->dial();
    });
}

void LoadClient::read() {
    ws_->async_read(buffer_, [self = shared_from_this(), ws = ws_.get()](beast::error_code ec, std::size_t) {
        if (ws != self->ws_.get()) return;
        if (ec) return self->lost();
        const std::string text = beast::buffers_to_string(self->buffer_.data());
        self->buffer_.consume(self->buffer_.size());
        self->attempts_ = 0;  // the server answers: the next loss starts the back-off again
        if (self->table_.skippable(*self, text)) {
            self->table_.count_frame();
        } else if (const auto j = parse_frame(text); !j.is_discarded()) {
            self->table_.on_frame(*self, j);
        }
        self->read();
    });
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"tarneeb-loadtest: simulated clients playing against a running tarneeb serve"};
    Options o;
    app.add_option("--host", o.host, "server address (loopback only)")->capture_default_str();
    app.add_option("--port", o.ports, "server port; repeat for the nodes of a cluster (seats spread over them)")
        ->capture_default_str();
    app.add_option("--tables", o.tables, "tables (4 clients each)")->capture_default_str()->check(CLI::Range(1, 20000));
    app.add_option("--interval-ms", o.interval_ms, "ms between actions at one table (0: as fast as possible)")
        ->capture_default_str()->check(CLI::Range(0, 60000));
    app.add_option("--duration", o.duration_s, "seconds to run after the ramp")->capture_default_str()->check(CLI::Range(1, 3600));
    app.add_option("--ramp-ms", o.ramp_ms, "spread the connections over this many ms")->capture_default_str();
    app.add_option("--threads", o.threads, "event loops (tables dealt out among them)")->capture_default_str()->check(CLI::Range(1, 64));
    app.add_flag("--reconnect", o.reconnect,
                 "a client whose connection closes signs in again with its token on the next node after the browser's "
                 "back-off (a node killed under load: bench/cluster_loadtest.sh KILL_AFTER); actions the fault held up "
                 "are counted apart (\"interrupted\")");
    CLI11_PARSE(app, argc, argv);

    // Raise the open-file limit: 4 sockets per table.
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }

    std::random_device rd;
    const std::string prefix = "lt" + std::to_string(rd() % 1000000);
    std::vector<tcp::endpoint> eps;
    for (unsigned short port : o.ports) eps.emplace_back(net::ip::make_address(o.host), port);
    // Each thread runs tables k, k + threads, ... on its own loop, measures over the same
    // window, and its numbers are added up at the end.
    std::vector<Stats> shard_stats(static_cast<std::size_t>(o.threads));
    std::vector<double> shard_secs(shard_stats.size());
    std::vector<std::uint64_t> errors_before(shard_stats.size());
    std::vector<int> stalled(shard_stats.size()), never(shard_stats.size());
    auto run = [&](int k) {
        net::io_context ioc{1};
        Stats& stats = shard_stats[static_cast<std::size_t>(k)];
        std::vector<std::unique_ptr<LoadTable>> tables;
        net::steady_timer ramp(ioc);
        int next = k;
        std::function<void()> start_more = [&] {
            const int batch = std::max(1, o.tables * 20 / std::max(1, o.ramp_ms) / o.threads);
            for (int i = 0; i < batch && next < o.tables; ++i, next += o.threads) {
                tables.push_back(std::make_unique<LoadTable>(ioc, stats, o, prefix, next));
                tables.back()->start(eps);
            }
            if (next < o.tables) {
                ramp.expires_after(std::chrono::milliseconds(20));
                ramp.async_wait([&](beast::error_code ec) { if (!ec) start_more(); });
            }
        };
        start_more();
        // Measure only after the ramp.
        ioc.run_for(std::chrono::milliseconds(o.ramp_ms + 2000));
        stats.latency_ms.clear();
        stats.owner_ms.clear();
        stats.routed_ms.clear();
        stats.actions = 0;
        for (auto& t : tables) t->measuring = true;
        stats.measure_from = Clock::now();
        errors_before[static_cast<std::size_t>(k)] = stats.errors;
        const auto t0 = Clock::now();
        ioc.run_for(std::chrono::seconds(o.duration_s));
        shard_secs[static_cast<std::size_t>(k)] = std::chrono::duration<double>(Clock::now() - t0).count();
        // A table with no action applied in its last 5 s stopped (after a fault: never resumed).
        for (auto& t : tables) {
            stalled[static_cast<std::size_t>(k)] += t->played && Clock::now() - t->last_progress > std::chrono::seconds(5);
            never[static_cast<std::size_t>(k)] += !t->played;
            stats.longest_gap_ms.push_back(t->longest_gap);
        }
        for (auto& t : tables) t->stopping = true;
    };
    std::vector<std::thread> threads;
    for (int k = 1; k < o.threads; ++k) threads.emplace_back(run, k);
    run(0);
    for (auto& t : threads) t.join();
    Stats stats;
    std::uint64_t errors_during = 0;
    for (std::size_t k = 0; k < shard_stats.size(); ++k) {
        const Stats& s = shard_stats[k];
        stats.latency_ms.insert(stats.latency_ms.end(), s.latency_ms.begin(), s.latency_ms.end());
        stats.owner_ms.insert(stats.owner_ms.end(), s.owner_ms.begin(), s.owner_ms.end());
        stats.routed_ms.insert(stats.routed_ms.end(), s.routed_ms.begin(), s.routed_ms.end());
        stats.actions += s.actions;
        stats.errors += s.errors;
        stats.frames += s.frames;
        stats.matches += s.matches;
        stats.interrupted_ms.insert(stats.interrupted_ms.end(), s.interrupted_ms.begin(), s.interrupted_ms.end());
        stats.disconnects += s.disconnects;
        stats.seats_given_back += s.seats_given_back;
        stats.seats_lost += s.seats_lost;
        stats.not_yet_seated += s.not_yet_seated;
        stats.resent += s.resent;
        stats.after_fault_ms.insert(stats.after_fault_ms.end(), s.after_fault_ms.begin(), s.after_fault_ms.end());
        stats.longest_gap_ms.insert(stats.longest_gap_ms.end(), s.longest_gap_ms.begin(), s.longest_gap_ms.end());
        if (stats.by_second.size() < s.by_second.size()) stats.by_second.resize(s.by_second.size());
        for (std::size_t i = 0; i < s.by_second.size(); ++i)
            stats.by_second[i].insert(stats.by_second[i].end(), s.by_second[i].begin(), s.by_second[i].end());
        errors_during += s.errors - errors_before[k];
    }
    const double secs = *std::max_element(shard_secs.begin(), shard_secs.end());

    auto summary = [](const std::vector<double>& v) {
        return json{{"p50", tarneeb::percentile(v, 0.5)}, {"p90", tarneeb::percentile(v, 0.9)}, {"p99", tarneeb::percentile(v, 0.99)},
                    {"max", v.empty() ? 0.0 : *std::max_element(v.begin(), v.end())}};
    };
    json out{{"tables", o.tables}, {"nodes", o.ports.size()}, {"clients", o.tables * 4}, {"threads", o.threads}, {"interval_ms", o.interval_ms}, {"seconds", secs},
             {"actions", stats.actions}, {"actions_per_second", static_cast<double>(stats.actions) / secs},
             {"latency_ms", summary(stats.latency_ms)},
             {"errors", stats.errors}, {"errors_during_measure", errors_during}, {"frames", stats.frames},
             {"matches_finished", stats.matches}};
    if (o.ports.size() > 1) {
        out["latency_ms_owner_node"] = summary(stats.owner_ms);
        out["latency_ms_other_node"] = summary(stats.routed_ms);
    }
    if (o.reconnect) {
        json by_second_p99 = json::array();  // each second of the window: the p99 of latency_ms, rounded
        for (const auto& v : stats.by_second) by_second_p99.push_back(std::round(tarneeb::percentile(v, 0.99)));
        // latency_ms above: the actions no fault held up; these: the ones it did.
        out["faults"] = {{"disconnects", stats.disconnects}, {"seats_given_back", stats.seats_given_back},
                         {"seats_lost", stats.seats_lost}, {"reconnected_before_seated", stats.not_yet_seated}, {"acts_sent_again", stats.resent},
                         {"interrupted_actions", stats.interrupted_ms.size()}, {"interrupted_ms", summary(stats.interrupted_ms)},
                         {"latency_ms_after_first_fault", summary(stats.after_fault_ms)},
                         {"longest_gap_ms_per_table", summary(stats.longest_gap_ms)},
                         {"p99_ms_by_second", by_second_p99},
                         {"stalled_tables", std::accumulate(stalled.begin(), stalled.end(), 0)},
                         {"tables_never_started", std::accumulate(never.begin(), never.end(), 0)}};
    }
    std::cout << out.dump() << std::endl;
    return stats.errors == 0 ? 0 : 1;
}
