// The cluster's Redis layer (include/tarneeb/cluster/cluster.hpp) against a real redis-server
// started for each test (redis_fixture.hpp): leases, the lease keeper, heartbeats, seats,
// the lobby, pub/sub, and Redis restarts in the middle. Every wait is for a condition, with a
// generous bound (a loaded 2-core CI machine, sanitizers); no test asserts how fast anything is.
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <functional>
#include <mutex>
#include <thread>

#include "redis_fixture.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {
namespace {

using namespace std::chrono_literals;
using testing::RedisServer;

// Polls `done` every 5 ms until it holds or `max` passed; returns its last answer.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds max = 30s) {
    const auto deadline = std::chrono::steady_clock::now() + max;
    while (std::chrono::steady_clock::now() < deadline) {
        if (done()) return true;
        std::this_thread::sleep_for(5ms);  // test-wait: the pause between two polls of `done`
    }
    return done();
}

// The ClusterError code of running `f`, or "" when it did not throw one.
std::string error_code(const std::function<void()>& f) {
    try {
        f();
    } catch (const ClusterError& e) {
        return e.code();
    }
    return "";
}

// What a Subscriber received, for the tests to wait on.
struct Inbox {
    std::mutex mutex;
    std::vector<PubSubMessage> messages;

    Subscriber::Handler fn() {
        return [this](const PubSubMessage& m) {
            std::lock_guard lock(mutex);
            messages.push_back(m);
        };
    }
    bool has(const std::string& channel, const std::string& payload) {
        std::lock_guard lock(mutex);
        return std::any_of(messages.begin(), messages.end(),
                           [&](const PubSubMessage& m) { return m.channel == channel && m.payload == payload; });
    }
    std::size_t size() {
        std::lock_guard lock(mutex);
        return messages.size();
    }
};

class Cluster : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(redis_.start(), ""); }

    RedisServer redis_;
};

TEST(ClusterRedisUrl, ReadsHostPortPasswordAndDatabase) {
    RedisOptions o = parse_redis_url("redis://localhost");
    EXPECT_EQ(o.host, "localhost");
    EXPECT_EQ(o.port, 6379);
    EXPECT_EQ(o.password, "");
    EXPECT_EQ(o.db, 0);

    o = parse_redis_url("redis://:s%40cret@10.0.0.5:6380/2");
    EXPECT_EQ(o.host, "10.0.0.5");
    EXPECT_EQ(o.port, 6380);
    EXPECT_EQ(o.username, "");
    EXPECT_EQ(o.password, "s@cret");
    EXPECT_EQ(o.db, 2);

    o = parse_redis_url("redis://tarneeb:pw@[::1]:7000");
    EXPECT_EQ(o.host, "::1");
    EXPECT_EQ(o.port, 7000);
    EXPECT_EQ(o.username, "tarneeb");
    EXPECT_EQ(o.password, "pw");

    o = parse_redis_url("redis://pw@redis.internal/");
    EXPECT_EQ(o.host, "redis.internal");
    EXPECT_EQ(o.password, "pw");

    for (const char* bad : {"rediss://host", "http://host", "redis://", "redis://host:0", "redis://host:99999",
                            "redis://host:x", "redis://host/db", "redis://:%4@host", "redis://host?timeout=1",
                            "redis://[::1"})
        EXPECT_EQ(error_code([&] { parse_redis_url(bad); }), "redis_url_invalid") << bad;
}

TEST(ClusterNodeId, FreshInstancesDifferAndParseBack) {
    const NodeId a = NodeId::fresh("node-a");
    const NodeId b = NodeId::fresh("node-a");
    EXPECT_EQ(a.name, "node-a");
    EXPECT_EQ(a.instance.size(), 16u);
    EXPECT_NE(a.instance, b.instance);
    EXPECT_EQ(NodeId::parse(a.text()), a);
    EXPECT_EQ(NodeId::parse("node-a"), std::nullopt);
    EXPECT_EQ(NodeId::parse("node a/0123456789abcdef"), std::nullopt);
    EXPECT_EQ(NodeId::parse("node-a/0123"), std::nullopt);
    EXPECT_EQ(error_code([] { NodeId::fresh(""); }), "invalid_argument");
    EXPECT_EQ(error_code([] { NodeId::fresh("a/b"); }), "invalid_argument");
    EXPECT_EQ(error_code([] { NodeId::fresh(std::string(65, 'x')); }), "invalid_argument");
}

TEST_F(Cluster, CommandsThrowRedisUnavailableUntilRedisIsThere) {
    redis_.stop();  // its port is free now: connecting there is refused
    RedisClient client(redis_.options());
    EXPECT_FALSE(client.connected());
    EXPECT_EQ(error_code([&] { client.ping(); }), "redis_unavailable");
    EXPECT_EQ(error_code([&] { client.command({"GET", "x"}); }), "redis_unavailable");
    const RedisHealth h = client.health();
    EXPECT_FALSE(h.up);
    EXPECT_EQ(h.code, "redis_unavailable");
    EXPECT_EQ(client.connects(), 0u);
    // The client's own thread connects once Redis is there, without a command asking.
    ASSERT_EQ(redis_.start(), "");
    ASSERT_TRUE(eventually([&] { return client.connected(); }));
    EXPECT_EQ(client.connects(), 1u);
    EXPECT_TRUE(client.health().up);
}

TEST(ClusterAuth, PasswordFromTheUrlAndRefusals) {
    RedisServer redis;
    redis.require_password("s3cret:pw");
    ASSERT_EQ(redis.start(), "");
    RedisOptions o = parse_redis_url("redis://:s3cret%3Apw@127.0.0.1:" + std::to_string(redis.port()));
    EXPECT_EQ(o.password, "s3cret:pw");
    RedisClient good(o);
    EXPECT_TRUE(good.health().up);
    Inbox inbox;
    Subscriber sub(o, inbox.fn());
    sub.subscribe("c");
    ASSERT_TRUE(sub.wait_ready(30s));
    EXPECT_EQ(good.publish("c", "m"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("c", "m"); }));

    // No password: Redis answers NOAUTH to each command.
    RedisOptions none = o;
    none.password.clear();
    RedisClient anonymous(none);
    EXPECT_EQ(error_code([&] { anonymous.ping(); }), "redis_auth");
    // A wrong one: AUTH is refused, the client stays away and says why at every command.
    RedisOptions wrong = o;
    wrong.password = "nope";
    RedisClient refused(wrong);
    EXPECT_FALSE(refused.connected());
    EXPECT_EQ(error_code([&] { refused.ping(); }), "redis_auth");
    EXPECT_EQ(refused.health().code, "redis_auth");
    Subscriber refused_sub(wrong, inbox.fn());
    refused_sub.subscribe("c");
    EXPECT_FALSE(refused_sub.wait_ready(100ms));
}

TEST_F(Cluster, CommandsPingAndErrors) {
    RedisClient client(redis_.options());
    EXPECT_TRUE(client.connected());  // the constructor connected
    EXPECT_NO_THROW(client.ping());  // answered PONG: any other answer throws redis_reply
    EXPECT_TRUE(client.health().up);
    EXPECT_EQ(client.command({"SET", "k", std::string("a\0b", 3)}).str, "OK");
    const RedisReply r = client.command({"GET", "k"});
    EXPECT_EQ(r.kind, RedisReply::Kind::string);
    EXPECT_EQ(r.str, std::string("a\0b", 3));
    EXPECT_EQ(client.command({"GET", "missing"}).kind, RedisReply::Kind::nil);
    EXPECT_EQ(error_code([&] { client.command({"NOSUCHCOMMAND"}); }), "redis_error");
    EXPECT_EQ(error_code([&] { client.command({"HGET", "k", "f"}); }), "redis_error");  // WRONGTYPE
    const RedisHealth h = client.health();
    EXPECT_TRUE(h.up);
    EXPECT_EQ(h.code, "");
    EXPECT_EQ(client.connects(), 1u);  // errors replies keep the connection
}

TEST_F(Cluster, RestartCommandsFailThenSucceedAfterReconnect) {
    RedisClient client(redis_.options());
    client.command({"SET", "k", "v"});
    redis_.stop();
    EXPECT_EQ(error_code([&] { client.command({"GET", "k"}); }), "redis_unavailable");
    EXPECT_EQ(error_code([&] { client.ping(); }), "redis_unavailable");
    EXPECT_EQ(client.health().code, "redis_unavailable");
    EXPECT_FALSE(client.connected());

    ASSERT_EQ(redis_.start(), "");
    ASSERT_TRUE(eventually([&] { return client.health().up; }));
    EXPECT_EQ(client.connects(), 2u);
    // A restart without persistence: the data is gone, the client works.
    EXPECT_EQ(client.command({"GET", "k"}).kind, RedisReply::Kind::nil);
    EXPECT_EQ(client.command({"SET", "k", "w"}).str, "OK");
}

TEST_F(Cluster, ACommandToARedisThatStoppedAnsweringTimesOut) {
    RedisOptions o = redis_.options();
    o.command_timeout = 300ms;
    RedisClient client(o);
    ASSERT_TRUE(client.health().up);
    redis_.pause();  // hung: the socket is open, nothing answers
    EXPECT_EQ(error_code([&] { client.ping(); }), "redis_unavailable");
    redis_.resume();
    ASSERT_TRUE(eventually([&] { return client.health().up; }));
    EXPECT_GE(client.connects(), 2u);
}

TEST_F(Cluster, TwoNodesRaceForALeaseAndExactlyOneWins) {
    RedisClient client_a(redis_.options()), client_b(redis_.options());
    TableLeases leases_a(client_a), leases_b(client_b);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    constexpr int kTables = 100;
    std::vector<int> won_a(kTables), won_b(kTables);
    std::barrier start(2);
    auto race = [&](TableLeases& leases, const NodeId& node, std::vector<int>& won) {
        start.arrive_and_wait();
        for (int t = 0; t < kTables; ++t) won[t] = leases.acquire("t" + std::to_string(t), node, 60s) ? 1 : 0;
    };
    std::thread ta(race, std::ref(leases_a), std::cref(a), std::ref(won_a));
    std::thread tb(race, std::ref(leases_b), std::cref(b), std::ref(won_b));
    ta.join();
    tb.join();
    for (int t = 0; t < kTables; ++t) {
        const std::string table = "t" + std::to_string(t);
        ASSERT_EQ(won_a[t] + won_b[t], 1) << table;
        EXPECT_EQ(leases_a.owner(table), won_a[t] ? a : b) << table;
    }
}

TEST_F(Cluster, LeaseRenewAndReleaseOnlyByTheOwner) {
    RedisClient client(redis_.options());
    TableLeases leases(client);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    EXPECT_EQ(leases.owner("t1"), std::nullopt);
    EXPECT_FALSE(leases.renew("t1", a, 60s));  // nobody's lease: not a's
    ASSERT_TRUE(leases.acquire("t1", a, 60s));
    EXPECT_TRUE(leases.acquire("t1", a, 60s));  // a's already: a repeated acquire is fine
    EXPECT_FALSE(leases.acquire("t1", b, 60s));
    EXPECT_FALSE(leases.renew("t1", b, 60s));
    EXPECT_FALSE(leases.release("t1", b));
    EXPECT_EQ(leases.owner("t1"), a);
    EXPECT_TRUE(leases.renew("t1", a, 60s));
    EXPECT_EQ(leases.renew_many({"t1", "t2"}, a, 60s), (std::vector<bool>{true, false}));
    EXPECT_TRUE(leases.release("t1", a));
    EXPECT_EQ(leases.owner("t1"), std::nullopt);
    EXPECT_FALSE(leases.release("t1", a));
    EXPECT_TRUE(leases.acquire("t1", b, 60s));

    EXPECT_EQ(error_code([&] { leases.acquire("", a, 60s); }), "invalid_argument");
    EXPECT_EQ(error_code([&] { leases.acquire("t9", a, 0ms); }), "invalid_argument");
    EXPECT_EQ(error_code([&] { leases.acquire("t9", NodeId{"a", "nothex"}, 60s); }), "invalid_argument");
    EXPECT_EQ(error_code([&] { TableLeases bad(client, "tarneeb*"); }), "invalid_argument");
    EXPECT_EQ(error_code([&] { ClusterDirectory bad(client, ""); }), "invalid_argument");
}

TEST_F(Cluster, ARestartedNodeDoesNotInheritItsOldLeases) {
    RedisClient client(redis_.options());
    TableLeases leases(client);
    const NodeId before = NodeId::fresh("node-1"), after = NodeId::fresh("node-1");
    ASSERT_TRUE(leases.acquire("t1", before, 60s));
    EXPECT_FALSE(leases.acquire("t1", after, 60s));
    EXPECT_FALSE(leases.renew("t1", after, 60s));
    EXPECT_FALSE(leases.release("t1", after));
    EXPECT_EQ(leases.owner("t1"), before);
}

TEST_F(Cluster, ALeaseNotRenewedExpiresAndAnotherNodeTakesIt) {
    RedisClient client(redis_.options());
    TableLeases leases(client);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    ASSERT_TRUE(leases.acquire("t1", a, 200ms));
    ASSERT_TRUE(eventually([&] { return leases.acquire("t1", b, 60s); }));
    EXPECT_EQ(leases.owner("t1"), b);
    EXPECT_FALSE(leases.renew("t1", a, 200ms));
}

// What a LeaseKeeper reported, for the tests to wait on.
struct LostLog {
    std::mutex mutex;
    std::vector<std::pair<std::string, std::string>> lost;

    LeaseKeeper::LostFn fn() {
        return [this](const std::string& table, const std::string& code) {
            std::lock_guard lock(mutex);
            lost.emplace_back(table, code);
        };
    }
    std::vector<std::pair<std::string, std::string>> get() {
        std::lock_guard lock(mutex);
        return lost;
    }
};

TEST_F(Cluster, LeaseKeeperKeepsLeasesAlivePastSeveralTtls) {
    RedisClient client(redis_.options()), other_client(redis_.options());
    TableLeases leases(client), other(other_client);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    LostLog log;
    constexpr auto ttl = 500ms;
    LeaseKeeper keeper(leases, a, ttl, log.fn());
    ASSERT_TRUE(keeper.acquire("t1"));
    ASSERT_TRUE(leases.acquire("t2", a, ttl));
    keeper.keep("t2");
    EXPECT_EQ(keeper.held(), (std::vector<std::string>{"t1", "t2"}));
    // 12 renew rounds, one every ttl/3: four ttls in which the leases would have expired.
    const auto first = keeper.rounds();
    ASSERT_TRUE(eventually([&] { return keeper.rounds() >= first + 12; }, 120s));
    EXPECT_TRUE(log.get().empty());
    EXPECT_EQ(other.owner("t1"), a);
    EXPECT_EQ(other.owner("t2"), a);
    EXPECT_FALSE(other.acquire("t1", b, ttl));
    keeper.release("t1");
    EXPECT_FALSE(keeper.holds("t1"));
    EXPECT_EQ(other.owner("t1"), std::nullopt);
    EXPECT_TRUE(keeper.holds("t2"));
}

TEST_F(Cluster, LeaseKeeperReportsALeaseTakenOver) {
    RedisClient client(redis_.options()), other_client(redis_.options());
    TableLeases leases(client), other(other_client);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    LostLog log;
    LeaseKeeper keeper(leases, a, 1500ms, log.fn());  // t2 must outlive the test: a long ttl
    ASSERT_TRUE(keeper.acquire("t1"));
    ASSERT_TRUE(keeper.acquire("t2"));
    // An operator deletes the key and node b takes the table.
    other_client.command({"DEL", other.key("t1")});
    ASSERT_TRUE(other.acquire("t1", b, 60s));
    ASSERT_TRUE(eventually([&] { return !log.get().empty(); }));
    EXPECT_EQ(log.get(), (std::vector<std::pair<std::string, std::string>>{{"t1", "lease_not_ours"}}));
    EXPECT_FALSE(keeper.holds("t1"));
    EXPECT_TRUE(keeper.holds("t2"));
    EXPECT_EQ(other.owner("t1"), b);  // the keeper never touches a lease that is not its own
}

TEST_F(Cluster, LeaseKeeperReportsLeasesExpiredWhileRedisIsDown) {
    RedisClient client(redis_.options());
    TableLeases leases(client);
    const NodeId a = NodeId::fresh("a");
    LostLog log;
    LeaseKeeper keeper(leases, a, 450ms, log.fn());
    ASSERT_TRUE(keeper.acquire("t1"));
    ASSERT_TRUE(keeper.acquire("t2"));
    redis_.stop();
    ASSERT_TRUE(eventually([&] { return log.get().size() == 2; }));
    auto lost = log.get();
    std::sort(lost.begin(), lost.end());
    EXPECT_EQ(lost, (std::vector<std::pair<std::string, std::string>>{{"t1", "lease_expired"}, {"t2", "lease_expired"}}));
    EXPECT_TRUE(keeper.held().empty());

    // Redis back: the keeper keeps new leases again.
    ASSERT_EQ(redis_.start(), "");
    ASSERT_TRUE(eventually([&] { return client.health().up; }));
    ASSERT_TRUE(keeper.acquire("t3"));
    const auto first = keeper.rounds();
    ASSERT_TRUE(eventually([&] { return keeper.rounds() >= first + 2; }));
    EXPECT_TRUE(keeper.holds("t3"));
    EXPECT_EQ(log.get().size(), 2u);
}

TEST_F(Cluster, LeaseKeeperReportsLeasesLostToARedisRestart) {
    // Redis restarted empty within the ttl: the next renew finds the lease gone.
    RedisClient client(redis_.options());
    TableLeases leases(client);
    LostLog log;
    LeaseKeeper keeper(leases, NodeId::fresh("a"), 5s, log.fn());
    ASSERT_TRUE(keeper.acquire("t1"));
    ASSERT_EQ(redis_.restart(), "");
    // The next renew round (within ttl/3) finds the key gone; Redis was away far less than the
    // ttl, so the lease is reported as not ours rather than expired.
    ASSERT_TRUE(eventually([&] { return !log.get().empty(); }, 120s));
    EXPECT_EQ(log.get(), (std::vector<std::pair<std::string, std::string>>{{"t1", "lease_not_ours"}}));
}

TEST_F(Cluster, HeartbeatsSeatsAndLobbyVanishAfterTheirTtl) {
    RedisClient client(redis_.options());
    ClusterDirectory dir(client);
    const NodeId a = NodeId::fresh("a"), b = NodeId::fresh("b");
    dir.heartbeat(a, 600s);
    dir.heartbeat(b, 600s);
    dir.set_lobby(a, {{"", "t2", R"({"id":"t2"})"}, {"", "t1", R"({"id":"t1"})"}}, 600s);
    dir.set_lobby_entry(b, "t3", R"({"id":"t3"})", 600s);
    dir.set_seat("guest-1", "t1", 600s);
    dir.set_seat("guest-2", "t3", 600s);

    EXPECT_EQ(dir.seat("guest-1"), "t1");
    EXPECT_EQ(dir.seat("guest-2"), "t3");
    EXPECT_EQ(dir.seat("guest-3"), std::nullopt);
    EXPECT_EQ(dir.live_nodes(), (std::vector<NodeId>{a, b}));
    EXPECT_EQ(dir.lobby(), (std::vector<LobbyEntry>{{"a", "t1", R"({"id":"t1"})"},
                                                    {"a", "t2", R"({"id":"t2"})"},
                                                    {"b", "t3", R"({"id":"t3"})"}}));

    // Node a stops rewriting its records: their last TTL is short.
    dir.heartbeat(a, 300ms);
    dir.set_seat("guest-1", "t1", 300ms);
    ASSERT_TRUE(eventually([&] { return !dir.seat("guest-1"); }));
    EXPECT_EQ(dir.seat("guest-2"), "t3");
    ASSERT_TRUE(eventually([&] { return dir.live_nodes().size() == 1; }));
    EXPECT_EQ(dir.live_nodes(), (std::vector<NodeId>{b}));
    // a is dead: its lobby is left out even though its hash has not expired.
    EXPECT_EQ(dir.lobby(), (std::vector<LobbyEntry>{{"b", "t3", R"({"id":"t3"})"}}));

    // A lobby's own TTL: b's entries go when b stops rewriting them.
    dir.set_lobby(b, {{"", "t4", "{}"}}, 300ms);
    ASSERT_TRUE(eventually([&] { return dir.lobby().empty(); }));
    EXPECT_EQ(dir.live_nodes(), (std::vector<NodeId>{b}));
}

TEST_F(Cluster, LobbyBelongsToOneInstanceAndASeatIsClearedOnlyAtItsTable) {
    RedisClient client(redis_.options());
    ClusterDirectory dir(client);
    const NodeId old_a = NodeId::fresh("a"), new_a = NodeId::fresh("a");
    dir.heartbeat(old_a, 600s);
    dir.set_lobby(old_a, {{"", "t1", "{}"}}, 600s);
    EXPECT_EQ(dir.lobby().size(), 1u);
    // node a restarts: its new heartbeat replaces the old, its old tables are not shown.
    dir.heartbeat(new_a, 600s);
    EXPECT_EQ(dir.live_nodes(), (std::vector<NodeId>{new_a}));
    EXPECT_TRUE(dir.lobby().empty());
    dir.set_lobby_entry(new_a, "t2", "{}", 600s);
    dir.remove_lobby_entry(new_a, "t2");
    EXPECT_TRUE(dir.lobby().empty());
    dir.set_lobby_entry(new_a, "t3", "{}", 600s);
    EXPECT_EQ(dir.lobby(), (std::vector<LobbyEntry>{{"a", "t3", "{}"}}));

    // The guest sat down at t9 before t3's clean-up: t3's clear does not remove the t9 record.
    dir.set_seat("g", "t3", 600s);
    dir.set_seat("g", "t9", 600s);
    EXPECT_FALSE(dir.clear_seat("g", "t3"));
    EXPECT_EQ(dir.seat("g"), "t9");
    EXPECT_TRUE(dir.clear_seat("g", "t9"));
    EXPECT_EQ(dir.seat("g"), std::nullopt);

    // leave: only this instance's records.
    dir.leave(old_a);
    EXPECT_EQ(dir.live_nodes(), (std::vector<NodeId>{new_a}));
    dir.leave(new_a);
    EXPECT_TRUE(dir.live_nodes().empty());
    EXPECT_TRUE(dir.lobby().empty());
}

// The seat records are the cluster's one guest→table record: read many at once (a node killed
// under load sends thousands of returning guests to the others), and written (a seat taken, a
// table taken over, Redis restarted) unless the guest sits at another running table.
TEST_F(Cluster, SeatRecordsAreReadInOneGoAndWrittenOnlyOverNoneOrATableThatRunsNowhere) {
    RedisClient client(redis_.options());
    ClusterDirectory dir(client);
    TableLeases leases(client);
    const NodeId a = NodeId::fresh("a");
    dir.set_seat("g1", "t1", 600s);
    dir.set_seat("g3", "t3", 600s);
    EXPECT_EQ(dir.seats({"g1", "g2", "g3"}), (std::vector<std::optional<std::string>>{"t1", std::nullopt, "t3"}));
    EXPECT_TRUE(dir.seats({}).empty());
    // No record: written. The same table: kept. Another table that runs nowhere: replaced.
    EXPECT_TRUE(dir.set_seat("g2", "t2", 600s));
    EXPECT_TRUE(dir.set_seat("g1", "t1", 600s));
    EXPECT_TRUE(dir.set_seat("g3", "t7", 600s));
    EXPECT_EQ(dir.seats({"g1", "g2", "g3"}), (std::vector<std::optional<std::string>>{"t1", "t2", "t7"}));
    // Another table that runs (its lease held): the guest sat down there since; kept.
    ASSERT_TRUE(leases.acquire("t1", a, 600s));
    EXPECT_FALSE(dir.set_seat("g1", "t5", 600s));
    EXPECT_EQ(dir.seat("g1"), "t1");
}

TEST_F(Cluster, SubscriberReceivesChannelAndPatternMessages) {
    Inbox inbox;
    Subscriber sub(redis_.options(), inbox.fn());
    sub.subscribe("node:a");
    sub.psubscribe("table:*");
    ASSERT_TRUE(sub.wait_ready(30s));
    EXPECT_EQ(sub.sessions(), 1u);
    RedisClient client(redis_.options());
    EXPECT_EQ(client.publish("node:a", "hello"), 1);
    EXPECT_EQ(client.publish("table:7", std::string("bin\0ary", 7)), 1);
    EXPECT_EQ(client.publish("elsewhere", "x"), 0);
    ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
    {
        std::lock_guard lock(inbox.mutex);
        EXPECT_EQ(inbox.messages[0].pattern, "");
        EXPECT_EQ(inbox.messages[0].channel, "node:a");
        EXPECT_EQ(inbox.messages[0].payload, "hello");
        EXPECT_EQ(inbox.messages[1].pattern, "table:*");
        EXPECT_EQ(inbox.messages[1].channel, "table:7");
        EXPECT_EQ(inbox.messages[1].payload, std::string("bin\0ary", 7));
    }
    sub.unsubscribe("node:a");
    sub.punsubscribe("table:*");
    ASSERT_TRUE(eventually([&] { return client.publish("node:a", "gone") == 0 && client.publish("table:1", "gone") == 0; }));
    sub.subscribe("node:b");
    ASSERT_TRUE(sub.wait_ready(30s));
    EXPECT_EQ(client.publish("node:b", "again"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("node:b", "again"); }));
    sub.stop();
    // A "gone" published before Redis handled the unsubscribe may have arrived; nothing else did.
    for (const auto& m : inbox.messages)
        EXPECT_TRUE(m.payload == "hello" || m.payload == std::string("bin\0ary", 7) || m.payload == "gone" ||
                    m.payload == "again") << m.payload;
}

TEST_F(Cluster, PublishAllSendsABurstInOrderInOneGo) {
    Inbox inbox;
    Subscriber sub(redis_.options(), inbox.fn());
    sub.subscribe("node:a");
    ASSERT_TRUE(sub.wait_ready(30s));
    RedisClient client(redis_.options());
    std::vector<std::pair<std::string, std::string>> burst;
    for (int i = 0; i < 1000; ++i) burst.emplace_back(i % 10 == 9 ? "elsewhere" : "node:a", "m" + std::to_string(i) + std::string(i % 7 * 100, 'x'));
    burst.emplace_back("node:a", std::string("bin\0ary\nend", 11));
    client.publish_all(burst);
    client.publish_all({});  // nothing to send: nothing happens
    EXPECT_EQ(client.publish("node:a", "after"), 1);  // the connection is in step again
    ASSERT_TRUE(eventually([&] { return inbox.size() == 902; }));
    std::lock_guard lock(inbox.mutex);
    std::size_t k = 0;
    for (int i = 0; i < 1000; ++i)
        if (i % 10 != 9) {
            EXPECT_EQ(inbox.messages[k++].payload, burst[static_cast<std::size_t>(i)].second) << i;
        }
    EXPECT_EQ(inbox.messages[900].payload, std::string("bin\0ary\nend", 11));
    EXPECT_EQ(inbox.messages[901].payload, "after");
}

TEST_F(Cluster, PublishAllThrowsWhileRedisIsAway) {
    RedisClient client(redis_.options());
    redis_.stop();
    EXPECT_THROW(client.publish_all({{"node:a", "x"}}), ClusterError);
    try {
        client.publish_all({{"node:a", "x"}});
        FAIL() << "published with Redis away";
    } catch (const ClusterError& e) {
        EXPECT_EQ(e.code(), "redis_unavailable");
    }
}

TEST_F(Cluster, SubscriberSurvivesARedisRestart) {
    Inbox inbox;
    Subscriber sub(redis_.options(), inbox.fn());
    sub.subscribe("node:a");
    sub.psubscribe("table:*");
    ASSERT_TRUE(sub.wait_ready(30s));
    RedisClient client(redis_.options());
    EXPECT_EQ(client.publish("node:a", "before"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("node:a", "before"); }));

    ASSERT_EQ(redis_.restart(), "");
    // It reconnects and subscribes again by itself.
    ASSERT_TRUE(eventually([&] { return sub.sessions() >= 2; }));
    ASSERT_TRUE(sub.wait_ready(30s));
    ASSERT_TRUE(eventually([&] { return client.health().up; }));
    EXPECT_EQ(client.publish("node:a", "after"), 1);
    EXPECT_EQ(client.publish("table:9", "after"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("node:a", "after") && inbox.has("table:9", "after"); }));
}

TEST_F(Cluster, SubscriberDropsAConnectionRedisStoppedAnsweringOn) {
    RedisOptions o = redis_.options();
    o.subscriber_ping_interval = 100ms;
    o.command_timeout = 1000ms;  // a loaded machine answers a PING well within it
    Inbox inbox;
    Subscriber sub(o, inbox.fn());
    sub.subscribe("c");
    ASSERT_TRUE(sub.wait_ready(30s));
    // Quiet for several keepalive periods: each PING is answered and the connection kept.
    const std::uint64_t answered = sub.keepalives();
    ASSERT_TRUE(eventually([&] { return sub.keepalives() >= answered + 3; }));
    EXPECT_EQ(sub.sessions(), 1u);
    EXPECT_TRUE(sub.wait_ready(0ms));

    redis_.pause();  // the socket stays open, nothing answers
    ASSERT_TRUE(eventually([&] { return !sub.wait_ready(0ms); }));
    redis_.resume();
    ASSERT_TRUE(eventually([&] { return sub.sessions() >= 2; }));
    ASSERT_TRUE(sub.wait_ready(30s));
    RedisClient client(redis_.options());
    EXPECT_EQ(client.publish("c", "back"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("c", "back"); }));
}

TEST_F(Cluster, SubscriberWaitsForRedisThatIsNotThereYet) {
    redis_.stop();
    Inbox inbox;
    Subscriber sub(redis_.options(), inbox.fn());
    sub.subscribe("c");
    EXPECT_FALSE(sub.wait_ready(50ms));  // nothing to connect to
    ASSERT_EQ(redis_.start(), "");
    ASSERT_TRUE(sub.wait_ready(30s));
    RedisClient client(redis_.options());
    EXPECT_EQ(client.publish("c", "m"), 1);
    ASSERT_TRUE(eventually([&] { return inbox.has("c", "m"); }));
}

}  // namespace
}  // namespace tarneeb::server
