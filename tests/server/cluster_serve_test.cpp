// A cluster of real `tarneeb serve` nodes (issue 16; cluster_node.hpp, docs/scaling.md): three
// processes sharing a throwaway PostgreSQL (pg_fixture.hpp) and a redis-server
// (redis_fixture.hpp), clients on different nodes at one table, the owner killed (-9) or paused
// (SIGSTOP) mid-match, Redis restarted. Every frame every client got is checked for hidden cards
// against the stored record (hidden_check.hpp), and each client's versions must never go down.
// The timeouts are liveness bounds on a loaded machine, never measures of speed.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "hidden_check.hpp"
#include "pg_fixture.hpp"
#include "redis_fixture.hpp"
#include "tarneeb/records/record.hpp"
#include "ws_harness.hpp"

namespace tarneeb::server::testing {
namespace {

PgServer& pg() {
    static PgServer server;  // one per binary: initdb is slow
    return server;
}

/// A cluster: PostgreSQL database of its own, a Redis, and `n` nodes n1..nN.
struct Cluster {
    explicit Cluster(const std::string& name, int n = 3) : name_(name), url_(pg().fresh_url()) {
        const std::string why = redis.start();
        if (!why.empty()) throw std::runtime_error(why);
        for (int i = 1; i <= n; ++i) nodes.push_back(start_node(i));
    }
    std::unique_ptr<ServerProcess> start_node(int i) {
        auto p = std::make_unique<ServerProcess>(
            temp_db(name_ + "-n" + std::to_string(i)),
            std::vector<std::string>{"--postgres", url_, "--redis", "redis://127.0.0.1:" + std::to_string(redis.port()), "--node",
                                     "n" + std::to_string(i), "--grace", "60"});
        if (p->port() == 0) throw std::runtime_error("node n" + std::to_string(i) + " did not start");
        return p;
    }
    unsigned short port(int i) const { return nodes.at(static_cast<std::size_t>(i - 1))->port(); }

    std::string name_, url_;
    RedisServer redis;
    std::vector<std::unique_ptr<ServerProcess>> nodes;
};

json metrics(unsigned short port) { return json::parse(http_get(port, "/metrics").second); }

/// Runs the clients' io_context, asking `done()` (HTTP reads of the nodes) every 200 ms.
bool poll(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (done()) return true;
        if (std::chrono::steady_clock::now() >= end) return false;
        pump(ioc, [] { return false; }, 200ms);
    }
}

/// Sends `join` until it is answered `ok` (a table created on another node a moment ago may
/// not be known everywhere yet: the answer is then no_such_table and the client asks again).
bool join(net::io_context& ioc, Client& c, const json& msg) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        const std::size_t before = c.frames.size();
        json m = msg;
        m["id"] = "join" + std::to_string(attempt);
        c.send(m);
        const bool answered = pump(ioc, [&] {
            for (std::size_t i = before; i < c.frames.size(); ++i) {
                const auto j = json::parse(c.frames[i]);
                if (j.value("id", "") == m["id"]) return true;
            }
            return false;
        });
        if (!answered) return false;
        for (std::size_t i = before; i < c.frames.size(); ++i) {
            const auto j = json::parse(c.frames[i]);
            if (j.value("id", "") == m["id"]) {
                if (j["type"] == "ok") return true;
                if (j.value("code", "") != "no_such_table") return false;
            }
        }
        pump(ioc, [] { return false; }, 300ms);
    }
    return false;
}

/// Every table version a client saw, in order, never goes down.
void expect_versions_never_go_down(const Client& c, const std::string& who) {
    std::uint64_t last = 0;
    for (const auto& f : c.frames) {
        const auto j = json::parse(f);
        if (j["type"] != "table" || !j.contains("version")) continue;
        const auto v = j["version"].get<std::uint64_t>();
        EXPECT_GE(v, last) << who << ": version went down";
        last = std::max(last, v);
    }
}

/// Four players (seat i on node nodes[i]) and a spectator (on node `watch`) at one table
/// created by seat 0; returns the table id. Tokens in `tokens`.
struct Match {
    net::io_context ioc;
    std::vector<std::unique_ptr<Client>> players;
    std::unique_ptr<Client> watcher;
    std::vector<std::string> tokens;
    std::string table;

    void seat(Cluster& cl, const std::vector<int>& nodes, int watch, bool start = true) {
        const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
        for (int i = 0; i < 4; ++i) {
            players.push_back(std::make_unique<Client>(ioc, cl.port(nodes[static_cast<std::size_t>(i)])));
            tokens.push_back(sign_in(ioc, *players.back(), names[i]));
            ASSERT_FALSE(tokens.back().empty());
        }
        players[0]->send({{"type", "create"}, {"target", 31}, {"turn_seconds", 0}});
        ASSERT_TRUE(pump(ioc, [&] { return !players[0]->last("created").is_null(); }));
        table = players[0]->last("created")["table"];
        for (int i = 0; i < 4; ++i) ASSERT_TRUE(join(ioc, *players[static_cast<std::size_t>(i)], {{"type", "join"}, {"table", table}, {"seat", i}}));
        watcher = std::make_unique<Client>(ioc, cl.port(watch));
        ASSERT_FALSE(sign_in(ioc, *watcher, "Watcher").empty());
        ASSERT_TRUE(join(ioc, *watcher, {{"type", "join"}, {"table", table}}));
        ASSERT_TRUE(pump(ioc, [&] {
            const auto t = players[0]->last("table");
            return !t.is_null() && std::all_of(t["seats"].begin(), t["seats"].end(), [](const json& s) { return !s.is_null(); });
        }));
        if (start) players[0]->send({{"type", "start"}});
    }
    std::vector<Client*> all() {
        std::vector<Client*> v;
        for (auto& p : players) v.push_back(p.get());
        return v;
    }
    /// Plays until `n` tricks of the current deal are done for everyone (or the match ends).
    bool play_until(const std::function<bool()>& done, std::chrono::milliseconds timeout = 300s) {
        if (play(ioc, all(), done, timeout)) return true;
        // What each client saw last, for the failure's message.
        for (std::size_t i = 0; i < players.size(); ++i) {
            const auto& f = players[i]->frames;
            ADD_FAILURE() << "seat " << i << " (ended " << players[i]->ended << ", " << f.size() << " frames) last: "
                          << (f.empty() ? "-" : f.back().substr(0, 600));
        }
        return false;
    }
    bool over() const {
        return watcher->has_event("match_over") &&
               std::all_of(players.begin(), players.end(), [](const auto& p) { return p->has_event("match_over"); });
    }
    int tricks_seen() const {
        const auto t = players[0]->last("table");
        if (t.is_null() || t["round"].is_null()) return 0;
        return static_cast<int>(t["round"].value("plays", json::array()).size());
    }
    /// The stored record (read through node `port` with a player's token): checks every frame.
    void check_record(unsigned short port) {
        // Asked again while it answers 503: a node's first database call after an outage may
        // find its connection broken (and the next one reconnects).
        std::pair<int, std::string> got;
        poll(ioc, [&] { return (got = http_get(port, "/api/matches/" + table + "-1", tokens[1])).first != 503; }, 30s);
        const auto& [status, body] = got;
        ASSERT_EQ(status, 200) << body;
        EXPECT_FALSE(records::replay(body).error.has_value());
        const json record = json::parse(body);
        for (int s = 0; s < 4; ++s) {
            const auto leaks = hidden_leaks(players[static_cast<std::size_t>(s)]->frames, s, 1, record);
            EXPECT_TRUE(leaks.empty()) << "seat " << s << ": " << leaks.front();
            expect_versions_never_go_down(*players[static_cast<std::size_t>(s)], "seat " + std::to_string(s));
        }
        const auto leaks = hidden_leaks(watcher->frames, -1, 1, record);
        EXPECT_TRUE(leaks.empty()) << "spectator: " << leaks.front();
        // Stored once, with ratings: each player's history lists it once.
        const auto list = json::parse(http_get(port, "/api/players/Omar/matches").second);
        EXPECT_EQ(list["matches"].size(), 1u) << list.dump();
    }
};

TEST(ClusterServe, FourPlayersOnThreeNodesPlayAWholeMatchAndNoFrameShowsAHiddenCard) {
    Cluster cl("three");
    Match m;
    m.seat(cl, {1, 2, 3, 1}, 3);  // the table is n1's; seats 1 and 2 and the spectator elsewhere
    ASSERT_TRUE(m.play_until([&] { return m.over(); }));
    pump(m.ioc, [] { return false; }, 300ms);
    m.check_record(cl.port(2));
    // The lobby of every node shows the table; the relays were used.
    EXPECT_GE(metrics(cl.port(1))["cluster"]["relayed_in"].get<int>(), 0);
    EXPECT_GT(metrics(cl.port(2))["cluster"]["messages_sent"].get<int>(), 0);
    const auto health = json::parse(http_get(cl.port(3), "/healthz").second);
    EXPECT_EQ(health["redis"], "ok");
    EXPECT_EQ(health["storage"], "postgresql");
}

TEST(ClusterServe, KillingTheOwnerMidMatchAnotherNodeResumesItAndTheMatchIsStoredOnce) {
    Cluster cl("kill");
    Match m;
    m.seat(cl, {1, 2, 3, 2}, 3);
    // Into the first deal's play, then the owner dies.
    ASSERT_TRUE(m.play_until([&] { return m.tricks_seen() >= 6 || m.over(); }));
    cl.nodes[0]->stop(SIGKILL);
    // Layla was connected to n1: she reconnects to n2 with her token, as a client does.
    m.players[0] = std::make_unique<Client>(m.ioc, cl.port(2));
    m.players[0]->send({{"type", "hello"}, {"token", m.tokens[0]}});
    ASSERT_TRUE(m.play_until([&] { return m.over(); }));
    pump(m.ioc, [] { return false; }, 300ms);
    m.check_record(cl.port(3));
    const int adopted = metrics(cl.port(2))["cluster"]["tables_adopted"].get<int>() + metrics(cl.port(3))["cluster"]["tables_adopted"].get<int>();
    EXPECT_EQ(adopted, 1);
}

TEST(ClusterServe, AnOwnerPausedPastItsLeaseLosesTheTableAndCannotWriteAfterItWakes) {
    Cluster cl("pause");
    Match m;
    m.seat(cl, {1, 2, 3, 3}, 3);  // the table is n1's (its creator's node)
    ASSERT_TRUE(m.play_until([&] { return m.tricks_seen() >= 4 || m.over(); }));
    ::kill(cl.nodes[0]->pid(), SIGSTOP);
    // Layla's node stopped answering: her client gives up on it and reconnects to n2.
    m.players[0] = std::make_unique<Client>(m.ioc, cl.port(2));
    m.players[0]->send({{"type", "hello"}, {"token", m.tokens[0]}});
    // Another node takes the table over (the lease expires) and play goes on there.
    ASSERT_TRUE(poll(m.ioc, [&] {
        return metrics(cl.port(2))["cluster"]["tables_adopted"].get<int>() + metrics(cl.port(3))["cluster"]["tables_adopted"].get<int>() == 1;
    }, 60s));
    const int before = m.tricks_seen();
    ASSERT_TRUE(m.play_until([&] { return m.tricks_seen() >= before + 4 || m.over(); }));
    ::kill(cl.nodes[0]->pid(), SIGCONT);
    // The woken ex-owner lets the table go (lease lost, or its first write fenced).
    ASSERT_TRUE(poll(m.ioc, [&] { return metrics(cl.port(1))["tables"].get<int>() == 0; }, 60s));
    ASSERT_TRUE(m.play_until([&] { return m.over(); }));
    pump(m.ioc, [] { return false; }, 300ms);
    m.check_record(cl.port(1));
}

TEST(ClusterServe, ARedisRestartMidMatchLosesNothing) {
    Cluster cl("redis");
    Match m;
    m.seat(cl, {1, 2, 3, 1}, 2);
    ASSERT_TRUE(m.play_until([&] { return m.tricks_seen() >= 4 || m.over(); }));
    ASSERT_EQ(cl.redis.restart(), "");  // empty: every lease, heartbeat and directory entry gone
    ASSERT_TRUE(m.play_until([&] { return m.over(); }));
    pump(m.ioc, [] { return false; }, 300ms);
    m.check_record(cl.port(3));
}

TEST(ClusterServe, PostgresStoppedForFiveSecondsRefusesChangesThenPlayResumesByItself) {
    Cluster cl("pgdown");
    Match m;
    m.seat(cl, {1, 2, 3, 1}, 2);
    ASSERT_TRUE(m.play_until([&] { return m.tricks_seen() >= 4 || m.over(); }));
    pg().stop_fast();
    // Every node says so, and an action is refused with nothing changed.
    EXPECT_TRUE(poll(m.ioc, [&] { return http_get(cl.port(2), "/healthz").first == 503; }, 30s));
    play(m.ioc, m.all(), [] { return false; }, 5s);  // actions are tried (and refused) meanwhile
    pg().start();
    ASSERT_TRUE(m.play_until([&] { return m.over(); }));
    bool refused = false;
    for (const auto& p : m.players)
        for (const auto& f : p->frames) refused |= f.find("storage_unavailable") != std::string::npos;
    EXPECT_TRUE(refused) << "no action was refused while PostgreSQL was down";
    pump(m.ioc, [] { return false; }, 300ms);
    m.check_record(cl.port(3));
    EXPECT_TRUE(poll(m.ioc, [&] { return http_get(cl.port(2), "/healthz").first == 200; }, 30s));
}

}  // namespace
}  // namespace tarneeb::server::testing
