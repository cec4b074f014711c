// Routed tables (include/tarneeb/cluster/routed_tables.hpp) between two real halls, each the
// front of its own clients, with the messages between the nodes carried in order through the
// same text encoding as on Redis (encode_node_message): a player on node B sits at, plays at,
// reconnects to and leaves node A's table without its connection ever moving; B's client gets
// only what its own seat may see; a request whose node went silent is answered. The Redis link
// itself, kills and restarts are tests/cluster/cluster_serve_test.cpp's.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "../server/hall_harness.hpp"
#include "tarneeb/cluster/cluster_link.hpp"
#include "tarneeb/cluster/routed_tables.hpp"

namespace tarneeb::server::testing {
namespace {

using nlohmann::json;

/// The reply with request id `id` that connection `c` of `h` got last, or null.
json reply(HallHarness& h, ConnId c, int id) {
    const auto& fs = h.frames[c];
    for (auto it = fs.rbegin(); it != fs.rend(); ++it)
        if (json j = json::parse(*it); j.value("id", json()) == id) return j;
    return nullptr;
}

/// Two nodes, a and b: a hall each, their RoutedTables, and the messages between them.
struct TwoNodes {
    TwoNodes() {
        node(a, ra, ida, idb);
        node(b, rb, idb, ida);
    }

    void node(HallHarness& h, std::unique_ptr<RoutedTables>& r, const NodeId& self, const NodeId& other) {
        RoutedTables::Node n{self,
                             [this, self](const NodeId& to, json msg) {
                                 if (silent && to == *silent) return true;  // published, never delivered
                                 msg["from"] = self.text();
                                 wire.emplace_back(to, encode_node_message(std::move(msg)));
                                 return true;
                             },
                             [this, other](const std::string& table, std::function<void(std::optional<NodeId>)> done) {
                                 // The lease's owner: the node whose host runs the table (a dead node holds none).
                                 const bool runs = !(silent && *silent == other) && host_of(other).host().table(table);
                                 done(runs ? std::optional<NodeId>(other) : std::nullopt);
                             },
                             [&h] { return h.now; }};
        n.seat_of = [this](const std::string& guest, RoutedTables::SeatRead done) {
            ++record_reads;
            if (redis_away) return done(std::nullopt, true);
            done(seat_record(guest), false);
        };
        n.forget_seat = [this](const std::string& guest, const std::string& table) { unseat(table, {guest}); };
        r = std::make_unique<RoutedTables>(h.hall, std::move(n));
        ClusterHooks hooks;
        hooks.seated = [this](const std::string& table, const std::vector<std::string>& guests) {  // the hall's writer thread
            // ClusterDirectory::set_seat: not over a record naming another table that runs.
            std::lock_guard lock(records_mutex);
            std::vector<std::string> elsewhere;
            for (const auto& g : guests)
                if (auto rec = records.find(g); rec != records.end() && rec->second != table && running.count(rec->second))
                    elsewhere.push_back(g);
                else records[g] = table;
            return elsewhere;
        };
        hooks.unseated = [this](const std::string& table, const std::vector<std::string>& guests) { unseat(table, guests); };
        hooks.restored = [this](const std::string& table, const std::vector<std::string>& guests) {
            // ClusterDirectory::set_seat keeps a record naming another table that runs;
            // here every other record is one.
            std::lock_guard lock(records_mutex);
            for (const auto& g : guests) records.try_emplace(g, table);
        };
        hooks.tables = r.get();
        hooks.fronts = r.get();
        h.hall.set_cluster(std::move(hooks));
    }
    Hall& host_of(const NodeId& id) { return id == ida ? a.hall : b.hall; }
    /// The table `guest`'s seat record names (Redis's PREFIX:seat:GUEST), or nullopt.
    std::optional<std::string> seat_record(const std::string& guest) {
        std::lock_guard lock(records_mutex);
        auto r = records.find(guest);
        return r == records.end() ? std::nullopt : std::optional<std::string>(r->second);
    }
    void unseat(const std::string& table, const std::vector<std::string>& guests) {  // compare-and-DEL
        std::lock_guard lock(records_mutex);
        for (const auto& g : guests)
            if (auto r = records.find(g); r != records.end() && r->second == table) records.erase(r);
    }

    /// Delivers every message in flight (and what they cause) until none is left.
    void pump() {
        a.settle();
        b.settle();
        while (!wire.empty()) {
            auto [to, text] = std::move(wire.front());
            wire.pop_front();
            const json msg = decode_node_message(text);
            ASSERT_FALSE(msg.is_discarded()) << text;
            RoutedTables& r = to == ida ? *ra : *rb;
            HallHarness& h = to == ida ? a : b;
            r.received(*NodeId::parse(msg["from"].get<std::string>()), msg["k"], msg);
            h.hall.handle_waiting();
            h.settle();
        }
    }
    void send(HallHarness& h, ConnId c, const json& msg) {
        h.send(c, msg);
        pump();
    }
    /// Both nodes read the directory: every table of each host.
    void refresh() {
        RoutedTables::Directory d;
        d.nodes = {{"a", ida}, {"b", idb}};
        for (auto [hall, name] : {std::pair<Hall*, const char*>{&a.hall, "a"}, std::pair<Hall*, const char*>{&b.hall, "b"}})
            for (const auto& [table, hosted] : hall->host().tables()) d.table_node[table] = name;
        d.read_at = std::max(a.now, b.now);
        ra->directory(d);
        rb->directory(d);
        pump();
    }

    /// Node a died (its messages lost): b alone is live, running what b's host runs.
    void a_died() {
        silent = ida;
        RoutedTables::Directory d;
        d.nodes = {{"b", idb}};
        for (const auto& [table, hosted] : b.hall.host().tables()) d.table_node[table] = "b";
        d.read_at = b.now;
        rb->directory(d);
        pump();
    }
    /// b takes a's table `tid` over, as a cluster node does (cluster_node.cpp applied).
    void b_adopts(const std::string& tid) {
        auto live = a.storage.live_table(tid);
        ASSERT_TRUE(live);
        ASSERT_TRUE(b.hall.adopt(*live, 1, b.now));
        a_died();  // the next directory read: b runs it
    }

    /// Layla, signed in on a (her token also known to b: a cluster's nodes share one store;
    /// here each has its own), creates a table there and sits at `seat`. Returns her token.
    std::string layla_sits(ConnId layla, int seat, std::string& tid) {
        const std::string token = a.sign_in(layla, "Layla");
        EXPECT_TRUE(b.storage.register_name("Layla", token));
        send(a, layla, {{"type", "create"}});
        tid = a.last(layla, "created")["table"];
        send(a, layla, {{"type", "join"}, {"table", tid}, {"seat", seat}});
        EXPECT_EQ(seat_record("Layla"), tid);
        return token;
    }
    /// A new connection on b that says hello with `token` (request id `id`).
    ConnId hello_on_b(const std::string& token, int id) {
        const ConnId c = b.connect();
        b.hall.message(c, json{{"type", "hello"}, {"token", token}, {"id", id}}.dump(), b.now);
        pump();
        return c;
    }

    /// Expects b's answer to hello `id` on `phone` to welcome it at `table`'s seat `seat`, and b
    /// to have sent it that table, seen from that seat, with the seat connected.
    void expect_welcomed_at(ConnId phone, int id, const std::string& table, int seat) {
        const json welcome = reply(b, phone, id);
        EXPECT_EQ(welcome["table"], table) << b.bytes(phone);
        EXPECT_EQ(welcome["seat"], seat);
        const json t = b.last(phone, "table");
        ASSERT_FALSE(t.is_null()) << b.bytes(phone);
        EXPECT_EQ(t["you"], seat);
        EXPECT_TRUE(t["seats"][static_cast<std::size_t>(seat)]["connected"].get<bool>()) << t["seats"];
    }

    HallHarness a, b;
    NodeId ida = NodeId::fresh("a"), idb = NodeId::fresh("b");
    std::unique_ptr<RoutedTables> ra, rb;
    std::deque<std::pair<NodeId, std::string>> wire;
    std::optional<NodeId> silent;  ///< messages to this node are lost
    std::mutex records_mutex;
    std::map<std::string, std::string> records;  ///< the seat records, guest → table (under records_mutex)
    std::set<std::string> running;  ///< tables whose lease is held, as the seat script sees them (under records_mutex)
    int record_reads = 0;  ///< seat_of calls
    bool redis_away = false;  ///< while set, a seat record read gets no answer (unread)
};

/// The cards of `hand` (a table message's round.hand), or none.
std::vector<std::string> hand(const json& table) {
    std::vector<std::string> cards;
    if (table.is_null() || !table["round"].is_object() || !table["round"]["hand"].is_array()) return cards;
    for (const auto& c : table["round"]["hand"]) cards.push_back(c.get<std::string>());
    return cards;
}

TEST(RoutedTables, APlayerOnAnotherNodeSitsPlaysReconnectsAndLeavesWithoutItsConnectionMoving) {
    TwoNodes n;
    const ConnId layla = n.a.connect(), rana = n.a.connect(), sami = n.a.connect();
    const ConnId omar = n.b.connect();
    for (auto [c, name] : {std::pair{layla, "Layla"}, std::pair{rana, "Rana"}, std::pair{sami, "Sami"}}) n.a.sign_in(c, name);
    const std::string token = n.b.sign_in(omar, "Omar");
    n.send(n.a, layla, {{"type", "create"}, {"id", 1}});
    const std::string tid = n.a.last(layla, "created")["table"];
    // A fresh table, not in any directory yet: b asks who owns it, then sends the join there.
    n.send(n.b, omar, {{"type", "join"}, {"table", tid}, {"seat", 1}, {"id", 2}});
    EXPECT_EQ(reply(n.b, omar, 2), (json{{"type", "ok"}, {"id", 2}})) << n.b.bytes(omar);
    EXPECT_EQ(n.rb->metrics()["routes"], 1);
    EXPECT_EQ(n.ra->metrics()["remote_guests"], 1);
    EXPECT_FALSE(n.b.hall.host().table(tid)) << "the table stays on a";
    for (int s : {0, 2, 3}) {
        const ConnId c = s == 0 ? layla : s == 2 ? rana : sami;
        n.send(n.a, c, {{"type", "join"}, {"table", tid}, {"seat", s}});
    }
    n.send(n.a, layla, {{"type", "start"}, {"id", 3}});
    ASSERT_EQ(reply(n.a, layla, 3)["type"], "ok") << n.a.bytes(layla);
    // Omar, on b, sees his own hand and nobody else's.
    const json seen = n.b.last(omar, "table");
    ASSERT_FALSE(seen.is_null()) << n.b.bytes(omar);
    EXPECT_EQ(seen["you"], 1);
    EXPECT_EQ(hand(seen).size(), 13u);
    for (const ConnId c : {layla, rana, sami})
        for (const auto& card : hand(n.a.last(c, "table")))
            EXPECT_EQ(n.b.bytes(omar).find("\"" + card + "\""), std::string::npos) << card << " of another seat reached b";
    // Play a few actions, Omar's through b: every one answered, the version only goes up.
    std::uint64_t version = 0;
    for (int i = 0; i < 12; ++i) {
        bool acted = false;
        for (auto [h, c] : {std::pair{&n.a, layla}, std::pair{&n.b, omar}, std::pair{&n.a, rana}, std::pair{&n.a, sami}}) {
            const json t = h->last(c, "table");
            if (t.is_null() || t["legal"].empty()) continue;
            n.send(*h, c, {{"type", "act"}, {"version", t["version"]}, {"action", t["legal"].back()}, {"id", 100 + i}});
            EXPECT_EQ(reply(*h, c, 100 + i)["type"], "ok") << h->bytes(c);
            acted = true;
            break;
        }
        ASSERT_TRUE(acted);
        const std::uint64_t now_version = n.b.last(omar, "table")["version"];
        EXPECT_GT(now_version, version);
        version = now_version;
    }
    // Omar reconnects to b with his token, the old connection still open: his seat, at once.
    const ConnId again = n.b.connect();
    n.send(n.b, again, {{"type", "hello"}, {"token", token}, {"id", 4}});
    const json welcome = n.b.last(again, "welcome");
    EXPECT_EQ(welcome["table"], tid) << n.b.bytes(again);
    EXPECT_EQ(welcome["seat"], 1);
    EXPECT_EQ(n.b.last(again, "table")["version"], version) << "the table follows the welcome";
    // He leaves (a seated leave before the match is over: the table goes on with a free seat):
    // b's route is gone, and his next join is b's own.
    n.send(n.b, again, {{"type", "leave"}, {"id", 5}});
    EXPECT_EQ(reply(n.b, again, 5)["type"], "ok") << n.b.bytes(again);
    EXPECT_EQ(n.rb->metrics()["routes"], 0);
    n.send(n.b, again, {{"type", "create"}, {"id", 6}});
    const std::string mine = n.b.last(again, "created")["table"];
    n.send(n.b, again, {{"type", "join"}, {"table", mine}, {"seat", 0}, {"id", 7}});
    EXPECT_EQ(reply(n.b, again, 7)["type"], "ok");
    EXPECT_TRUE(n.b.hall.host().where("Omar"));
}

TEST(RoutedTables, ASignInOnAnotherNodeFindsTheSeatAndKeepsItConnectedUntilBothDevicesClose) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.refresh();
    // Her phone reaches b: b reads her seat record and asks a, which runs the table.
    const ConnId phone = n.hello_on_b(token, 1);
    n.expect_welcomed_at(phone, 1, tid, 2);
    // Her laptop on a closes: she is still connected at her table (the phone on b is).
    n.a.hall.closed(layla, n.a.now);
    n.pump();
    const json seats = n.b.last(phone, "table")["seats"];
    EXPECT_TRUE(seats[2]["connected"].get<bool>()) << seats;
    // The phone closes too: now she is away, and the grace period runs at a.
    n.b.hall.closed(phone, n.b.now);
    n.pump();
    EXPECT_FALSE(n.a.hall.table(tid)->seat_info(Seat::s2).connected);
}

// A seat is found by the guest's seat record, written before the seat was acknowledged (issue
// 26: the one guest→table record, readable at once by every node), even before any directory
// read lists its table.
TEST(RoutedTables, ASignInFindsTheSeatByItsRecordBeforeAnyDirectoryRead) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    // No directory read since: her phone reaches b with her token; b finds her by the record
    // and a's lease.
    const ConnId phone = n.hello_on_b(token, 1);
    const json welcome = reply(n.b, phone, 1);
    EXPECT_EQ(welcome["table"], tid) << n.b.bytes(phone);
    EXPECT_EQ(welcome["seat"], 2);
    EXPECT_EQ(n.b.last(phone, "table")["you"], 2) << "a sends her the table through b";
    // She leaves: the record goes, and a sign-in finds her at no table.
    n.send(n.b, phone, {{"type", "leave"}, {"id", 2}});
    EXPECT_EQ(reply(n.b, phone, 2)["type"], "ok") << n.b.bytes(phone);
    EXPECT_EQ(n.seat_record("Layla"), std::nullopt);
    const ConnId tablet = n.hello_on_b(token, 3);
    EXPECT_TRUE(reply(n.b, tablet, 3)["table"].is_null()) << n.b.bytes(tablet);
    // A guest made by its own hello sits nowhere yet: no record is read for it.
    const int reads = n.record_reads;
    const ConnId omar = n.b.connect();
    EXPECT_FALSE(n.b.sign_in(omar, "Omar").empty());
    EXPECT_EQ(n.record_reads, reads);
}

// The hole the 10,000-client kill showed: seated at a table its node created in its last
// second, before any directory read listed it; that node dies. Her sign-in on b waits for the
// take-over and is welcomed at her seat.
TEST(RoutedTables, ASeatTakenJustBeforeItsNodeDiedIsGivenBackWhenTheTableIsTakenOver) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 3, tid);
    n.a_died();
    const ConnId phone = n.hello_on_b(token, 1);
    EXPECT_TRUE(reply(n.b, phone, 1).is_null()) << "not welcomed at no table: " << n.b.bytes(phone);
    EXPECT_EQ(n.rb->metrics()["locates_waiting"], 1);
    n.b.now += 5000;
    n.b_adopts(tid);
    n.expect_welcomed_at(phone, 1, tid, 3);
}

TEST(RoutedTables, ASignInWhileItsTableIsTakenOverIsWelcomedAtItsSeatWhenItRunsAgain) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.refresh();
    // a dies; before anyone takes its table over, her phone reaches b: no answer yet.
    n.a_died();
    const ConnId phone = n.hello_on_b(token, 1);
    EXPECT_TRUE(reply(n.b, phone, 1).is_null()) << n.b.bytes(phone);
    EXPECT_EQ(n.rb->metrics()["locates_waiting"], 1);
    // b takes it over: she is welcomed at her seat, then sent her table.
    n.b.now += 5000;
    n.b_adopts(tid);
    n.expect_welcomed_at(phone, 1, tid, 2);
    EXPECT_EQ(n.rb->metrics()["locates_waiting"], 0);
}

TEST(RoutedTables, ASignInSentToANodeThatLetTheTableGoWaitsForTheTakeOver) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.refresh();
    // a lets the table go (its lease lost); b's directory still says a runs it.
    auto live = n.a.storage.live_table(tid);
    ASSERT_TRUE(live);
    n.a.hall.drop_table(tid);
    n.pump();
    const ConnId phone = n.hello_on_b(token, 1);
    EXPECT_TRUE(reply(n.b, phone, 1).is_null()) << "a no longer runs her table; it is being taken over: " << n.b.bytes(phone);
    // b takes it over: she is welcomed at her seat.
    ASSERT_TRUE(n.b.hall.adopt(*live, 1, n.b.now));
    n.refresh();
    n.expect_welcomed_at(phone, 1, tid, 2);
}

TEST(RoutedTables, ASignInWhoseTableRunsNowhereIsWelcomedAtNoTableAndFindsItWhenItIsTakenOver) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.refresh();
    n.a_died();
    const ConnId phone = n.hello_on_b(token, 1);
    // Nobody takes it over within the orphan wait: at no table, for now.
    n.b.now += 15'000;
    n.rb->tick(n.b.now);
    n.pump();
    const json welcome = reply(n.b, phone, 1);
    ASSERT_EQ(welcome["type"], "welcome") << n.b.bytes(phone);
    EXPECT_TRUE(welcome["table"].is_null());
    EXPECT_EQ(n.seat_record("Layla"), std::nullopt) << "a record of a table that ran nowhere all that time goes";
    // Then b takes it over: its host seats her (she is connected here), writes her record
    // again and sends her the table.
    n.b_adopts(tid);
    EXPECT_EQ(n.seat_record("Layla"), tid);
    const json table = n.b.last(phone, "table");
    ASSERT_FALSE(table.is_null()) << n.b.bytes(phone);
    EXPECT_EQ(table["you"], 2);
    EXPECT_TRUE(table["seats"][2]["connected"].get<bool>());
}

// A record whose clearing was lost (its guest left; the node died before it cleared it, say)
// names a table that runs without her: the node running it says so, and she is welcomed at no
// table at once, not after the wait for a take-over.
TEST(RoutedTables, ASignInWhoseRecordNamesATableThatRunsWithoutHerIsWelcomedAtNoTableAtOnce) {
    TwoNodes n;
    const ConnId layla = n.a.connect(), omar = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.a.sign_in(omar, "Omar");
    n.send(n.a, omar, {{"type", "join"}, {"table", tid}, {"seat", 1}});
    n.send(n.a, layla, {{"type", "leave"}});
    EXPECT_EQ(n.seat_record("Layla"), std::nullopt);
    ASSERT_TRUE(n.a.hall.host().table(tid)) << "Omar keeps it open";
    n.records["Layla"] = tid;  // as if its clearing was lost
    n.refresh();
    const ConnId phone = n.hello_on_b(token, 1);
    const json welcome = reply(n.b, phone, 1);
    ASSERT_EQ(welcome["type"], "welcome") << n.b.bytes(phone);
    EXPECT_TRUE(welcome["table"].is_null());
    EXPECT_EQ(n.rb->metrics()["recorded_waiting"], 0);
}

// Redis restarted without its data: the seat records are gone. Each node writes those of its
// tables again when it resyncs (ClusterNode::tick: Hall::restore_seats), and a sign-in on any
// node finds its seat by them again — but a record naming another table that runs is kept.
TEST(RoutedTables, SeatRecordsLostWithRedisAreWrittenAgainAndFindTheSeat) {
    TwoNodes n;
    const ConnId layla = n.a.connect(), omar = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.a.sign_in(omar, "Omar");
    n.send(n.a, omar, {{"type", "join"}, {"table", tid}, {"seat", 1}});
    n.refresh();
    {
        std::lock_guard lock(n.records_mutex);
        n.records.clear();
    }
    // Her laptop closes; her phone signs in on b before a wrote the records again: no record,
    // so at no table for now.
    n.a.hall.closed(layla, n.a.now);
    const ConnId phone = n.hello_on_b(token, 1);
    ASSERT_EQ(reply(n.b, phone, 1)["type"], "welcome") << n.b.bytes(phone);
    EXPECT_TRUE(reply(n.b, phone, 1)["table"].is_null());
    n.b.hall.restore_seats();  // b runs no table: writes nothing
    n.b.settle();
    EXPECT_TRUE(n.records.empty());
    // a writes them again and tells the other nodes of its players connected nowhere: b routes
    // her phone to her seat (Omar, connected on a, is not offered).
    n.a.hall.restore_seats();
    n.a.settle();
    EXPECT_EQ(n.records, (std::map<std::string, std::string>{{"Layla", tid}, {"Omar", tid}}));
    n.ra->offer_seats();
    n.pump();
    const json table = n.b.last(phone, "table");
    ASSERT_FALSE(table.is_null()) << n.b.bytes(phone);
    EXPECT_EQ(table["you"], 2);
    EXPECT_TRUE(table["seats"][2]["connected"].get<bool>());
    // A sign-in now finds her seat by its record.
    const ConnId tablet = n.hello_on_b(token, 2);
    n.expect_welcomed_at(tablet, 2, tid, 2);
}

// A seat record that could not be read (Redis restarting) is not "no seat": the sign-in waits
// for the next directory read, which reads it again.
TEST(RoutedTables, ASignInWhoseRecordCannotBeReadWaitsAndReadsItAgain) {
    TwoNodes n;
    const ConnId layla = n.a.connect();
    std::string tid;
    const std::string token = n.layla_sits(layla, 2, tid);
    n.redis_away = true;
    const ConnId phone = n.hello_on_b(token, 1);
    EXPECT_TRUE(reply(n.b, phone, 1).is_null()) << "not welcomed at no table: " << n.b.bytes(phone);
    n.redis_away = false;
    n.refresh();
    n.expect_welcomed_at(phone, 1, tid, 2);
}

// One person, two devices, two nodes, both at no table: each sits down at a table of its own
// node at the same moment. The seat record is claimed on the writer just before the write:
// the second finds it naming the first's table, which runs, and is refused (issue 26: one
// guest→table record, atomic).
TEST(RoutedTables, TwoDevicesSittingDownOnTwoNodesAtOnceGetOneSeat) {
    TwoNodes n;
    const ConnId laptop = n.a.connect();
    const std::string token = n.a.sign_in(laptop, "Layla");
    ASSERT_TRUE(n.b.storage.register_name("Layla", token));
    const ConnId phone = n.hello_on_b(token, 1);
    ASSERT_TRUE(reply(n.b, phone, 1)["table"].is_null());
    const ConnId omar = n.a.connect();  // his table is a's t1, hers t2 (b's own is t1 of b's store)
    n.a.sign_in(omar, "Omar");
    n.send(n.a, omar, {{"type", "create"}});
    n.send(n.a, laptop, {{"type", "create"}});
    const std::string ta = n.a.last(laptop, "created")["table"];
    n.send(n.b, phone, {{"type", "create"}});
    const std::string tb = n.b.last(phone, "created")["table"];
    ASSERT_NE(ta, tb);
    {
        std::lock_guard lock(n.records_mutex);
        n.running = {ta, tb};
    }
    n.send(n.a, laptop, {{"type", "join"}, {"table", ta}, {"seat", 0}, {"id", 2}});
    EXPECT_EQ(reply(n.a, laptop, 2)["type"], "ok") << n.a.bytes(laptop);
    ASSERT_EQ(n.seat_record("Layla"), ta);
    n.send(n.b, phone, {{"type", "join"}, {"table", tb}, {"seat", 0}, {"id", 3}});
    EXPECT_EQ(reply(n.b, phone, 3)["code"], "already_seated") << n.b.bytes(phone);
    EXPECT_FALSE(n.b.hall.host().where("Layla"));
    EXPECT_EQ(n.seat_record("Layla"), ta);
    EXPECT_EQ(n.b.get("/healthz")->status, 200) << "a refused seat says nothing of the store";
}

// Quick play across nodes (issue 28): a player on node b is seated at the quick-play table a
// player on node a made, found in the lobby the directory brings (Hall::set_remote_lobby), and
// joined where it runs.
TEST(RoutedTables, QuickPlayOnAnotherNodeJoinsTheQuickPlayTableWhereItRuns) {
    TwoNodes n;
    const ConnId la = n.a.connect(), ob = n.b.connect();
    n.a.sign_in(la, "Layla");
    n.b.sign_in(ob, "Omar");
    n.send(n.a, la, {{"type", "quick_play"}, {"id", 1}});
    const json first = reply(n.a, la, 1);
    ASSERT_EQ(first["type"], "ok") << first;
    const std::string tid = first["table"];
    // b's directory read: a's public tables, as cluster_node.cpp gives them to b's hall.
    std::map<std::string, std::shared_ptr<const json>> lobby;
    for (const auto& [id, summary] : n.a.hall.host().summaries()) lobby[id] = std::make_shared<const json>(summary);
    n.b.hall.set_remote_lobby(std::move(lobby));
    n.refresh();
    n.send(n.b, ob, {{"type", "quick_play"}, {"id", 2}});
    const json second = reply(n.b, ob, 2);
    ASSERT_EQ(second["type"], "ok") << second;
    EXPECT_EQ(second["table"], tid);
    EXPECT_EQ(second["seat"], 1);
    EXPECT_EQ(n.b.hall.host().tables().size(), 0u) << "b made no table";
    // Omar's connection on b gets the table, seated; Layla sees him.
    EXPECT_EQ(n.b.last(ob, "table")["you"], 1);
    EXPECT_EQ(n.a.last(la, "table")["seats"][1]["name"], "Omar");
}

TEST(RoutedTables, ARequestToASilentNodeIsAnsweredAtItsTimeout) {
    TwoNodes n;
    const ConnId layla = n.a.connect(), omar = n.b.connect();
    n.a.sign_in(layla, "Layla");
    n.b.sign_in(omar, "Omar");
    n.send(n.a, layla, {{"type", "create"}});
    const std::string tid = n.a.last(layla, "created")["table"];
    n.send(n.b, omar, {{"type", "join"}, {"table", tid}, {"seat", 1}, {"id", 1}});
    ASSERT_EQ(reply(n.b, omar, 1)["type"], "ok");
    n.silent = n.ida;  // a stops hearing b
    n.send(n.b, omar, {{"type", "chat"}, {"phrase", "yalla"}, {"id", 2}});
    EXPECT_TRUE(reply(n.b, omar, 2).is_null()) << "no answer yet";
    n.b.now += 10'000;
    n.rb->tick(n.b.now);
    n.pump();
    EXPECT_EQ(reply(n.b, omar, 2)["code"], "storage_unavailable") << n.b.bytes(omar);
    EXPECT_EQ(n.rb->metrics()["request_timeouts"], 1);
}

}  // namespace
}  // namespace tarneeb::server::testing
