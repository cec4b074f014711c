// The table host alone (table_host.hpp), with no hall and no connections: a recording front
// (TableFront) whose database jobs wait in a queue until the test runs them, over a real
// in-memory SQLite store. Checks the host's contract: every request is answered exactly once, in
// order when it waited for its table; each guest's frames are built for its own seat; the
// guest→table record follows sits, watches, leaves and disconnections; a dropped table answers
// what waited for it.
#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "tarneeb/server/table_host.hpp"
#include "test_bot.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

/// A front that records what the host sends, queues its storage jobs, and counts answers.
class RecordingFront : public TableFront {
public:
    RecordingFront() : storage_(open_storage(":memory:")) {}

    void deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                 const std::string&) override {
        frames[guest].push_back(json::parse(message.to(seat, creator, true)));
    }
    void send(const std::string& guest, const std::string& text) override { frames[guest].push_back(json::parse(text)); }
    void on_writer(std::string, std::function<void(Storage&)> job, Done done, bool) override {
        jobs.emplace_back([this, job = std::move(job), done = std::move(done)] {
            std::optional<StorageError> e;
            try {
                job(*storage_);
            } catch (const StorageError& x) {
                e = x;
            }
            if (done) done(e);
        });
    }
    void write_journal(std::string, JournalWrite w, SeatChanges seats, Done done) override {
        jobs.emplace_back([this, w = std::move(w), seats = std::move(seats), done = std::move(done)] {
            // The seat records first (as a cluster node's writer, ClusterHooks::seated and
            // unseated): those leaving cleared; one naming a table of `elsewhere` is kept, and
            // the write is refused.
            unseated(w.table, seats.leaving);
            for (const auto& g : seats.sitting)
                if (auto r = seat_records.find(g); r != seat_records.end() && elsewhere.count(r->second)) {
                    if (done) done(StorageError("already_seated", g + " sits at another table"));
                    return;
                }
            for (const auto& g : seats.sitting) seat_records[g] = w.table;
            if (fail_writes) {  // the database refused it: nothing written
                if (done) done(*fail_writes);
                return;
            }
            const auto results = storage_->write_journal(std::span<const JournalWrite>(&w, 1));
            if (done) done(results.front());
        });
    }
    std::uint64_t next_seed() override { return ++seed_; }
    void acted(double) override { ++actions; }
    void lobby_changed() override {}
    bool holds(const std::string&) const override { return false; }
    std::optional<std::string> refuses(const std::string&, std::string_view, std::optional<int>, const std::string&) const override {
        return std::nullopt;
    }
    void fenced(const std::string&) override {}
    void released(const std::string& table, bool dropped) override { (dropped ? dropped_tables : closed_tables).push_back(table); }
    std::int64_t take(Storage&, const std::string&) override { return 0; }
    void unseated(const std::string& table, std::vector<std::string> guests) override {
        for (auto& g : guests)
            if (auto r = seat_records.find(g); r != seat_records.end() && r->second == table) seat_records.erase(r);
    }
    void restoring(const std::string& table, std::vector<std::string> guests) override {
        for (auto& g : guests) seat_records.try_emplace(g, table);
    }
    void settle() override {}
    Millis now() const override { return clock; }

    /// Runs the queued storage jobs (and those they queue) in order.
    void run_jobs() {
        while (!jobs.empty()) {
            auto job = std::move(jobs.front());
            jobs.pop_front();
            job();
        }
    }

    std::map<std::string, std::vector<json>> frames;
    std::deque<std::function<void()>> jobs;
    std::vector<std::string> dropped_tables, closed_tables;
    std::map<std::string, std::string> seat_records;  ///< guest → table, as seating and unseated left them
    std::optional<StorageError> fail_writes;  ///< while set, every journal write fails with it
    std::set<std::string> elsewhere;          ///< tables that run on another node (seat records naming them refuse a seat)
    int actions = 0;
    Millis clock = 1'000'000;

private:
    std::unique_ptr<Storage> storage_;
    std::uint64_t seed_ = 0;
};

struct HostTest : ::testing::Test {
    HostTest() : host(front, server::testing::default_bots(), config(), [](std::function<void()>) {}) {}
    static HallConfig config() {
        HallConfig c;
        c.timing.bot_delay_ms = 0;
        c.timing.summary_ms = 0;
        c.seed = 7;
        return c;
    }
    /// Sends `guest`'s request; its answers (one expected) are appended to answers[guest].
    void ask(const std::string& guest, TableRequest r) {
        host.request(guest, r, [this, guest](json body) {
            answers[guest].push_back(std::move(body));
            order.push_back(guest);
        });
    }
    std::string create(const std::string& guest) {
        std::optional<json> created;
        host.create(guest, "10.0.0.1", CreateRequest{}, [&](json body) { created = std::move(body); });
        front.run_jobs();
        EXPECT_TRUE(created.has_value());
        return created ? created->value("table", "") : "";
    }
    void sit(const std::string& guest, const std::string& table, Seat s) {
        JoinRequest j;
        j.table = table;
        j.sit = true;
        j.seat = s;
        ask(guest, j);
    }

    RecordingFront front;
    TableHost host;
    std::map<std::string, std::vector<json>> answers;
    std::vector<std::string> order;  ///< whose answer came, in order
};

TEST_F(HostTest, RequestsWaitingForABusyTableAreAnsweredOnceEachInOrder) {
    const std::string t = create("Layla");
    ASSERT_FALSE(t.empty());
    const std::vector<std::string> names = {"Layla", "Omar", "Rana", "Sami"};
    for (const auto& n : names) host.connected(n);
    // Four sits at once: the first is written, the others wait for its write.
    for (int s = 0; s < 4; ++s) sit(names[static_cast<std::size_t>(s)], t, seat(s));
    EXPECT_EQ(answers["Layla"].size(), 0u) << "answered before its write";
    front.run_jobs();
    for (const auto& n : names) {
        ASSERT_EQ(answers[n].size(), 1u) << n;
        EXPECT_EQ(answers[n][0]["type"], "ok") << n;
        const auto place = host.where(n);
        ASSERT_TRUE(place) << n;
        EXPECT_EQ(place->table, t);
    }
    EXPECT_EQ(order, names) << "answered in the order asked";
    EXPECT_EQ(host.where("Sami")->seat, seat(3));
}

// A cluster's seat records (ClusterHooks::seated / unseated, issue 26): written before the write
// that seats a person, so before the answer; cleared when the person leaves and when the table
// closes, and never for a spectator.
TEST_F(HostTest, SeatRecordsAreWrittenBeforeTheSeatIsAnsweredAndClearedWhenThePlayerGoes) {
    const std::string t = create("Layla");
    for (const auto* n : {"Layla", "Omar", "Watcher"}) host.connected(n);
    sit("Layla", t, seat(0));
    EXPECT_TRUE(answers["Layla"].empty());
    front.run_jobs();  // the record, then the write, then the answer
    EXPECT_EQ(front.seat_records["Layla"], t);
    ASSERT_EQ(answers["Layla"].size(), 1u);
    sit("Omar", t, seat(1));
    JoinRequest watch;
    watch.table = t;
    ask("Watcher", watch);
    front.run_jobs();
    ASSERT_EQ(answers["Omar"].size(), 1u);
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}, {"Omar", t}}));
    ask("Omar", LeaveRequest{});
    front.run_jobs();
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}}));
    // Layla moves to another seat: still recorded at the table.
    sit("Layla", t, seat(2));
    front.run_jobs();
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}}));
    // Everybody goes away: the table is swept after the grace period with her seated, and her
    // record goes.
    host.disconnected("Watcher");
    host.disconnected("Layla");
    for (Millis now = front.clock; front.closed_tables.empty() && now < front.clock + 10 * config().timing.grace_ms; now += 1000) {
        host.tick(now);
        front.run_jobs();
    }
    EXPECT_TRUE(front.seat_records.empty());
    EXPECT_EQ(front.closed_tables, std::vector<std::string>{t});
}

TEST_F(HostTest, ASeatWhoseWriteFailedLeavesNoSeatRecord) {
    const std::string t = create("Layla");
    for (const auto* n : {"Layla", "Omar"}) host.connected(n);
    sit("Layla", t, seat(0));
    front.run_jobs();
    // The database refuses the next writes: Omar is not seated and his record goes; Layla,
    // moving seats, stays where she sat, and so does her record.
    front.fail_writes = StorageError("storage_unavailable", "the database is down");
    sit("Omar", t, seat(1));
    front.run_jobs();
    ASSERT_EQ(answers["Omar"].size(), 1u);
    EXPECT_EQ(answers["Omar"][0]["code"], "storage_unavailable");
    sit("Layla", t, seat(2));
    front.run_jobs();
    EXPECT_EQ(host.table(t)->seat_of("Layla"), seat(0));
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}}));
    // Her leave fails too: she still sits here, and her record (cleared before the write) is
    // written again.
    ask("Layla", LeaveRequest{});
    front.run_jobs();
    EXPECT_EQ(answers["Layla"].back()["code"], "storage_unavailable");
    EXPECT_EQ(host.table(t)->seat_of("Layla"), seat(0));
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}}));
}

// Two devices of one person on two nodes sit down at two tables at the same moment: the seat
// record (claimed on the writer just before the write) names the other table, which runs, so
// this write is refused and not made; nothing changes here, and the store is not failing.
TEST_F(HostTest, ASeatRefusedBecauseItsPersonSitsAtAnotherRunningTableChangesNothing) {
    const std::string t = create("Layla");
    for (const auto* n : {"Layla", "Omar"}) host.connected(n);
    sit("Layla", t, seat(0));
    front.run_jobs();
    front.seat_records["Omar"] = "t99";  // he sat down at t99 through another node
    front.elsewhere.insert("t99");
    sit("Omar", t, seat(1));
    front.run_jobs();
    ASSERT_EQ(answers["Omar"].size(), 1u);
    EXPECT_EQ(answers["Omar"][0]["code"], "already_seated") << answers["Omar"][0];
    EXPECT_FALSE(host.table(t)->seat_of("Omar"));
    EXPECT_FALSE(host.where("Omar"));
    EXPECT_EQ(front.seat_records, (std::map<std::string, std::string>{{"Layla", t}, {"Omar", "t99"}}));
    // Once he left t99, he sits down here.
    front.elsewhere.clear();
    sit("Omar", t, seat(1));
    front.run_jobs();
    EXPECT_EQ(answers["Omar"].back()["type"], "ok") << answers["Omar"].back();
    EXPECT_EQ(host.table(t)->seat_of("Omar"), seat(1));
    EXPECT_EQ(front.seat_records["Omar"], t);
}

// A new table whose creator's first sit is refused (her record names a table of another node
// for a moment; or the database refuses the write) is still there: a failed write changed
// nothing, and an empty table goes only with the sweep (ClusterServe.LeavingWhileRedisDoes
// NotAnswer… found it closed, and her next try answered no_such_table).
TEST_F(HostTest, ATableWhoseCreatorsFirstSitIsRefusedStaysOpenForTheNextTry) {
    const std::string t = create("Layla");
    host.connected("Layla");
    front.seat_records["Layla"] = "t99";
    front.elsewhere.insert("t99");
    sit("Layla", t, seat(0));
    front.run_jobs();
    ASSERT_EQ(answers["Layla"].size(), 1u);
    EXPECT_EQ(answers["Layla"][0]["code"], "already_seated");
    ASSERT_NE(host.table(t), nullptr) << "closed by the refused sit";
    EXPECT_TRUE(front.closed_tables.empty());
    front.elsewhere.clear();
    front.fail_writes = StorageError("storage_unavailable", "the database is down");
    sit("Layla", t, seat(0));
    front.run_jobs();
    EXPECT_EQ(answers["Layla"].back()["code"], "storage_unavailable");
    ASSERT_NE(host.table(t), nullptr) << "closed by the failed write";
    front.fail_writes.reset();
    sit("Layla", t, seat(0));
    front.run_jobs();
    EXPECT_EQ(answers["Layla"].back()["type"], "ok") << answers["Layla"].back();
    EXPECT_EQ(host.table(t)->seat_of("Layla"), seat(0));
}

TEST_F(HostTest, EachGuestGetsItsOwnSeatsCardsAndASpectatorNone) {
    const std::string t = create("Layla");
    const std::vector<std::string> names = {"Layla", "Omar", "Rana", "Sami"};
    for (const auto& n : names) host.connected(n);
    for (int s = 0; s < 4; ++s) sit(names[static_cast<std::size_t>(s)], t, seat(s));
    front.run_jobs();
    host.connected("Watcher");
    JoinRequest watch;
    watch.table = t;
    ask("Watcher", watch);
    ASSERT_EQ(answers["Watcher"].size(), 1u);
    EXPECT_EQ(answers["Watcher"][0]["type"], "ok");
    ask("Layla", StartRequest{});
    front.run_jobs();
    ASSERT_EQ(answers["Layla"].size(), 2u);
    EXPECT_EQ(answers["Layla"][1]["type"], "ok");
    std::set<std::string> seen;
    for (int s = 0; s < 4; ++s) {
        const json last = front.frames[names[static_cast<std::size_t>(s)]].back();
        ASSERT_EQ(last["type"], "table");
        EXPECT_EQ(last["you"], s);
        ASSERT_EQ(last["round"]["hand"].size(), 13u);
        for (const auto& c : last["round"]["hand"]) EXPECT_TRUE(seen.insert(c.get<std::string>()).second) << "a card in two hands";
    }
    const json spectator = front.frames["Watcher"].back();
    EXPECT_TRUE(spectator["you"].is_null());
    EXPECT_FALSE(spectator["round"].contains("hand"));
    for (const auto& card : seen) EXPECT_EQ(spectator.dump().find("\"" + card + "\""), std::string::npos) << card;
}

TEST_F(HostTest, ADroppedTableAnswersTheRequestsThatWaitedForIt) {
    const std::string t = create("Layla");
    host.connected("Layla");
    host.connected("Omar");
    sit("Layla", t, seat(0));  // its write is in flight...
    sit("Omar", t, seat(1));   // ...so this one waits
    host.drop(t);              // dropped once the write comes back
    EXPECT_TRUE(front.dropped_tables.empty());
    front.run_jobs();
    EXPECT_EQ(front.dropped_tables, std::vector<std::string>{t});
    ASSERT_EQ(answers["Layla"].size(), 1u);
    EXPECT_EQ(answers["Layla"][0]["type"], "ok");
    ASSERT_EQ(answers["Omar"].size(), 1u);
    EXPECT_EQ(answers["Omar"][0]["code"], "storage_unavailable");
    EXPECT_FALSE(host.where("Layla")) << "a dropped table seats nobody here";
    EXPECT_EQ(host.table(t), nullptr);
}

TEST_F(HostTest, ASeatedGuestKeepsItsSeatWhenItGoesAndASpectatorIsForgotten) {
    const std::string t = create("Layla");
    host.connected("Layla");
    host.connected("Watcher");
    sit("Layla", t, seat(0));
    front.run_jobs();
    JoinRequest watch;
    watch.table = t;
    ask("Watcher", watch);
    host.disconnected("Layla");
    host.disconnected("Watcher");
    ASSERT_TRUE(host.where("Layla"));
    EXPECT_EQ(host.where("Layla")->seat, seat(0));
    EXPECT_FALSE(host.where("Watcher"));
    EXPECT_FALSE(host.table(t)->seat_info(seat(0)).connected);
    // Back on another connection: its seat, and its table's message.
    const auto before = front.frames["Layla"].size();
    ASSERT_TRUE(host.where("Layla"));
    host.connected("Layla");
    EXPECT_TRUE(host.table(t)->seat_info(seat(0)).connected);
    ASSERT_GT(front.frames["Layla"].size(), before);
    EXPECT_EQ(front.frames["Layla"].back()["you"], 0);
    // Leaving writes, then the guest is at no table.
    ask("Layla", LeaveRequest{});
    front.run_jobs();
    ASSERT_EQ(answers["Layla"].size(), 2u);
    EXPECT_EQ(answers["Layla"][1]["type"], "ok");
    EXPECT_FALSE(host.where("Layla"));
}

TEST_F(HostTest, RequestsOfAGuestAtNoTableAreRefusedWithTheirCode) {
    host.connected("Layla");
    ask("Layla", StartRequest{});
    ask("Layla", LeaveRequest{});
    ask("Layla", HintRequest{});
    JoinRequest nowhere;
    nowhere.table = "t999";
    ask("Layla", nowhere);
    ASSERT_EQ(answers["Layla"].size(), 4u);
    EXPECT_EQ(answers["Layla"][0]["code"], "not_at_table");
    EXPECT_EQ(answers["Layla"][1]["code"], "not_at_table");
    EXPECT_EQ(answers["Layla"][2]["code"], "not_at_table");
    EXPECT_EQ(answers["Layla"][3]["code"], "no_such_table");
    EXPECT_TRUE(front.jobs.empty()) << "a refused request writes nothing";
}

}  // namespace
}  // namespace tarneeb::server
