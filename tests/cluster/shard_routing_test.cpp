// Moving a connection between the shards of one process (cluster_node.hpp, docs/scaling.md
// "Every core") while the directory is behind or a request is on its way: two shards, each a
// real hall with its own connection to one SQLite file and a ClusterNode over a LocalCluster,
// driven on the test's thread. Every job the shards post (the writers' answers, the directory
// refreshes, the messages between shards) runs here, in order, so the test decides exactly
// when each shard refreshes its directory and what arrives before what: the races below are
// played the same way on every run.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../store/gated_storage.hpp"
#include "../server/hall_harness.hpp"
#include "tarneeb/cluster/cluster_node.hpp"
#include "tarneeb/server/hall_loop.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;
using testing::GatedStorage;
using testing::HallHarness;

Millis wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Two shards of one process on the calling thread. Connection ids 1.. are accepted by shard 0
/// (the home), 1001.. by shard 1. Each shard's store can hold its writer at a gate
/// (GatedStorage; open unless a test closes it).
class TwoShards {
public:
    TwoShards() : db_(std::filesystem::temp_directory_path() / ("tarneeb-routing-" + std::to_string(wall_ms()) + ".db")) {
        HallConfig cfg = HallHarness::config();
        cfg.waiting_tables = std::make_shared<WaitingTables>();
        for (unsigned i = 0; i < 2; ++i) {
            stores_[i] = std::make_unique<GatedStorage>(db_.string());
            halls_[i] = std::make_unique<Hall>(
                *stores_[i], testing::default_bots(), cfg,
                Outbox{[this, i](ConnId c, std::string text) { nodes_[i]->hall_send(c, std::move(text)); },
                       [this, i](ConnId c, int code, std::string reason) { nodes_[i]->hall_close(c, code, std::move(reason)); },
                       nullptr, loop_.poster()});
        }
        for (unsigned i = 0; i < 2; ++i) {
            ClusterConfig cc;
            cc.refresh = std::chrono::milliseconds(250);
            nodes_[i] = std::make_unique<ClusterNode>(
                cc, local_.link(i), *halls_[i], nullptr,
                Outbox{[this](ConnId c, std::string text) { frames[c].push_back(std::move(text)); },
                       [this](ConnId c, int code, std::string) { closed[c] = code; }, nullptr, loop_.poster()});
        }
    }
    ~TwoShards() {
        for (auto& st : stores_) st->open();  // a test that failed may have left a writer held
        for (auto& n : nodes_) n->stop();
        settle();
        nodes_[0].reset(), nodes_[1].reset();
        halls_[0].reset(), halls_[1].reset();
        stores_[0].reset(), stores_[1].reset();
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_.string() + suffix, ec);
    }
    TwoShards(const TwoShards&) = delete;
    TwoShards& operator=(const TwoShards&) = delete;

    static unsigned shard_of(ConnId c) { return c > 1000 ? 1 : 0; }
    ClusterNode& node(unsigned i) { return *nodes_[i]; }
    Hall& hall(unsigned i) { return *halls_[i]; }
    GatedStorage& store(unsigned i) { return *stores_[i]; }
    const NodeId& id(unsigned i) { return nodes_[i]->id(); }

    void open(ConnId c) {
        node(shard_of(c)).open(c, "127.0.0.1", now);
        settle();
    }
    /// Hands `msg` (with request id `id` when not null) to connection `c`'s shard; runs nothing.
    void post_message(ConnId c, json msg, const json& id = nullptr) {
        if (!id.is_null()) msg["id"] = id;
        node(shard_of(c)).message(c, msg.dump(), now);
    }
    /// Sends `msg` with a fresh request id, settles, and returns the answer with that id (null
    /// when none came).
    json request(ConnId c, json msg) {
        const int id = ++requests_;
        post_message(c, std::move(msg), id);
        settle();
        return answer(c, id);
    }
    json answer(ConnId c, const json& id) {
        for (const auto& f : frames[c])
            if (auto j = json::parse(f); j.value("id", json()) == id) return j;
        return nullptr;
    }
    json last(ConnId c, const std::string& type) {
        auto& fs = frames[c];
        for (auto it = fs.rbegin(); it != fs.rend(); ++it)
            if (auto j = json::parse(*it); j["type"] == type) return j;
        return nullptr;
    }
    /// Shard `i` refreshes its directory (the shards' period is 250 ms: the clock moves on 300).
    /// With `deliver` false the jobs it posted for others stay queued (and a write held at a
    /// gate is not waited for).
    void refresh(unsigned i, bool deliver = true) {
        now += 300;
        halls_[i]->tick(now);
        node(i).tick(now);
        run_until([&] { return node(i).idle(); });
        if (deliver) settle();
    }
    void refresh_both() {
        refresh(0);
        refresh(1);
    }

    /// Runs the queued jobs until both halls and both nodes are idle.
    void settle() {
        run_until([&] { return false; });  // test-wait: no other stop than idleness (an event), and no clock
    }
    /// Runs the queued jobs one at a time until `done()` (or until all is idle).
    void run_until(const std::function<bool()>& done) {
        loop_.run_until(done, [this] { return idle(); });
    }

    Millis now = wall_ms();
    std::map<ConnId, std::vector<std::string>> frames;
    std::map<ConnId, int> closed;

private:
    bool idle() const {
        for (unsigned i = 0; i < 2; ++i)
            if ((halls_[i] && !halls_[i]->idle()) || (nodes_[i] && !nodes_[i]->idle())) return false;
        return true;
    }

    std::filesystem::path db_;
    HallLoop loop_;  // declared before the shards: their threads post until they stop
    LocalCluster local_{2};
    std::unique_ptr<GatedStorage> stores_[2];
    std::unique_ptr<Hall> halls_[2];
    std::unique_ptr<ClusterNode> nodes_[2];
    int requests_ = 0;
};

/// Creates a table from signed-in connection `c`, sits in seat 0, seats three bots and starts the
/// match; returns the table id.
std::string start_table(TwoShards& s, ConnId c) {
    const json created = s.request(c, {{"type", "create"}, {"turn_seconds", 0}});
    EXPECT_EQ(created.value("type", ""), "created") << created.dump();
    const std::string table = created.value("table", "");
    EXPECT_EQ(s.request(c, {{"type", "join"}, {"table", table}, {"seat", 0}}).value("type", ""), "ok");
    for (int seat : {1, 2, 3}) EXPECT_EQ(s.request(c, {{"type", "add_bot"}, {"seat", seat}}).value("type", ""), "ok");
    EXPECT_EQ(s.request(c, {{"type", "start"}}).value("type", ""), "ok");
    return table;
}

TEST(ShardRouting, GoingHomeWaitsForARequestRelayedMeanwhile) {
    // Layla (home shard) leaves her table on shard 1; shard 1 sees her settled at no table for
    // two refreshes and sends her home. Her create crosses that message: relayed to shard 1
    // before the home shard read "home". The create must be answered (from shard 1, or after
    // the move), never lost with the move.
    TwoShards s;
    const ConnId c = 1;
    s.open(c);
    ASSERT_EQ(s.request(c, {{"type", "hello"}, {"name", "Layla"}}).value("type", ""), "welcome");
    start_table(s, c);
    ASSERT_EQ(s.node(0).serving(c).name, s.id(1).name);
    s.refresh_both();
    s.refresh_both();
    ASSERT_EQ(s.request(c, {{"type", "leave"}}).value("type", ""), "ok");
    s.refresh(1);
    s.refresh(1, /*deliver=*/false);  // "home" is queued for the home shard, not read yet
    s.post_message(c, {{"type", "create"}, {"turn_seconds", 0}}, "crossing");
    s.settle();
    const json created = s.answer(c, "crossing");
    ASSERT_FALSE(created.is_null()) << "the create was lost by the move";
    EXPECT_EQ(created.value("type", ""), "created") << created.dump();
    EXPECT_EQ(s.request(c, {{"type", "join"}, {"table", created["table"]}, {"seat", 0}}).value("type", ""), "ok");
    EXPECT_EQ(s.last(c, "table").value("table", ""), created["table"]);
}

TEST(ShardRouting, AJoinRightAfterGoingHomeReachesTheTableCreatedOnTheShardItLeft) {
    // Seen in CI (the browser tour): Layla leaves her table on shard 1 and creates another there
    // between two of its refreshes, so shard 1 still finds her settled twice and sends her home
    // (every frame relayed has arrived). Her join of the new table comes while the home shard is
    // still signing her in: it must go to shard 1, which runs the table, not get no_such_table.
    TwoShards s;
    const ConnId c = 1;
    s.open(c);
    ASSERT_EQ(s.request(c, {{"type", "hello"}, {"name", "Layla"}}).value("type", ""), "welcome");
    start_table(s, c);
    ASSERT_EQ(s.node(0).serving(c).name, s.id(1).name);
    s.refresh_both();
    ASSERT_EQ(s.request(c, {{"type", "leave"}}).value("type", ""), "ok");
    s.refresh(1);  // settled once
    const json created = s.request(c, {{"type", "create"}, {"turn_seconds", 0}});
    ASSERT_EQ(created.value("type", ""), "created") << created.dump();
    const std::string table = created["table"];
    ASSERT_TRUE(s.hall(1).table(table)) << "the scene needs the new table on shard 1";
    // Settled twice: "home" is queued. The home shard reads it and moves her, and her join comes
    // while the relayed hello is still in flight there.
    s.refresh(1, /*deliver=*/false);
    s.run_until([&] { return s.node(0).serving(c).name == s.id(0).name; });
    s.post_message(c, {{"type", "join"}, {"table", table}, {"seat", 0}}, "join");
    s.settle();
    EXPECT_EQ(s.answer(c, "join").value("type", ""), "ok") << s.answer(c, "join").dump();
    EXPECT_EQ(s.node(0).serving(c).name, s.id(1).name);
}

/// Layla sits at a table on shard 1 from one connection; her second connection, `second`
/// (accepted by shard 0 and served there, or accepted by shard 1 and relayed home), asks to
/// watch Sami's table on the home shard while that table's write is held: the watch waits there.
/// The directory then moves the second connection to shard 1, where her seat is. The home shard
/// must still answer the watch (and close its side once it has), never drop it with the move.
/// Plays everything up to the move (the write still held); `t0` is Sami's table.
void park_a_watch_and_move(TwoShards& s, ConnId second, std::string& t0) {
    const ConnId omar = 1, sami = 2, layla = 3;
    for (ConnId c : {omar, sami, layla, second}) s.open(c);
    ASSERT_EQ(s.request(omar, {{"type", "hello"}, {"name", "Omar"}}).value("type", ""), "welcome");
    ASSERT_EQ(s.request(sami, {{"type", "hello"}, {"name", "Sami"}}).value("type", ""), "welcome");
    const json welcome = s.request(layla, {{"type", "hello"}, {"name", "Layla"}});
    ASSERT_EQ(welcome.value("type", ""), "welcome");
    ASSERT_EQ(s.request(second, {{"type", "hello"}, {"token", welcome["token"]}}).value("type", ""), "welcome");
    // Placement: the first table goes to shard 1 (the home counts one more), the second home.
    const std::string t1 = s.request(omar, {{"type", "create"}, {"turn_seconds", 0}}).value("table", "");
    t0 = s.request(sami, {{"type", "create"}, {"turn_seconds", 0}}).value("table", "");
    ASSERT_TRUE(s.hall(1).table(t1));
    ASSERT_TRUE(s.hall(0).table(t0));
    ASSERT_EQ(s.request(sami, {{"type", "join"}, {"table", t0}, {"seat", 0}}).value("type", ""), "ok");
    ASSERT_EQ(s.request(layla, {{"type", "join"}, {"table", t1}, {"seat", 1}}).value("type", ""), "ok");
    ASSERT_EQ(s.node(0).serving(layla).name, s.id(1).name);
    ASSERT_EQ(s.node(TwoShards::shard_of(second)).serving(second).name, s.id(0).name);  // at home

    // Sami's table writes a change; the home shard's writer holds it at the gate. Layla's watch
    // waits for that write (parked) on the home shard.
    s.store(0).close();
    s.post_message(sami, {{"type", "add_bot"}, {"seat", 1}}, "bot");
    s.store(0).wait_held();
    s.post_message(second, {{"type", "join"}, {"table", t0}}, "watch");
    const unsigned front = TwoShards::shard_of(second);
    s.refresh(1, false);  // the directory shows Layla at t1 on shard 1...
    s.refresh(front, false);
    s.refresh(front, false);  // ...twice to the second connection's front: it moves there
    ASSERT_EQ(s.node(front).serving(second).name, s.id(1).name);
    EXPECT_TRUE(s.answer(second, "watch").is_null());
}

void a_move_loses_no_answer(ConnId second) {
    TwoShards s;
    const ConnId sami = 2;
    std::string t0;
    park_a_watch_and_move(s, second, t0);
    if (::testing::Test::HasFatalFailure()) return;

    s.store(0).open();
    s.settle();
    const json watch = s.answer(second, "watch");
    ASSERT_FALSE(watch.is_null()) << "the watch was lost by the move";
    EXPECT_EQ(watch.value("type", ""), "ok") << watch.dump();
    EXPECT_EQ(s.answer(sami, "bot").value("type", ""), "ok");
    // Answered: the home shard lets that connection go at its next tick (she is no spectator of
    // Sami's table any more), and the connection plays on at shard 1.
    s.refresh(0);
    const json home = s.hall(0).snapshot()["tables"][t0];
    EXPECT_EQ(home["summary"].value("spectators", -1), 0) << home.dump();
    EXPECT_EQ(home["watchers"], json({"Sami"})) << home.dump();
    EXPECT_EQ(s.request(second, {{"type", "ping"}}).value("type", ""), "pong");
}

TEST(ShardRouting, AMoveLosesNoAnswerOfARequestStillInFlight) {
    a_move_loses_no_answer(4);  // accepted and served by the home shard
}

TEST(ShardRouting, AMoveLosesNoAnswerOfARelayedRequestStillInFlight) {
    a_move_loses_no_answer(1004);  // accepted by shard 1, relayed home: the answer comes back relayed
}

TEST(ShardRouting, AConnectionLetGoIsClosedWhenItsWindowEndsEvenUnanswered) {
    // The bound on keeping a moved connection (ClusterNode::kPreviousWindowMs): past it, the
    // home shard closes its side even though the watch is still waiting for the held write.
    for (ConnId second : {ConnId{4}, ConnId{1004}}) {
        TwoShards s;
        std::string t0;
        park_a_watch_and_move(s, second, t0);
        if (::testing::Test::HasFatalFailure()) return;
        EXPECT_EQ(s.hall(0).snapshot()["guests"]["Layla"]["connections"], 1) << "kept while it waits";
        for (int i = 0; i < 7; ++i) s.refresh(0, false);  // 2.1 s of ticks, the write still held
        EXPECT_FALSE(s.hall(0).snapshot()["guests"].contains("Layla")) << "kept past its window";
        s.store(0).open();
        s.settle();
        EXPECT_TRUE(s.answer(second, "watch").is_null()) << "nobody may hear it after the window";
        EXPECT_EQ(s.answer(2, "bot").value("type", ""), "ok");
        EXPECT_EQ(s.request(second, {{"type", "ping"}}).value("type", ""), "pong");
    }
}

}  // namespace
}  // namespace tarneeb::server
