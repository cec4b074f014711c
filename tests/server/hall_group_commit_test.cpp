// Group commit in the hall (hall.hpp, Hall::change_table): the journal writes of tables that
// act while the writer is busy share one writer job and one transaction
// (Storage::write_journal), the writer still runs every job in the order it was submitted, each
// change is acknowledged only after its write committed, and a batch that fails changes no
// table. The writer is held at a gate (a positive event, never a sleep) so that the batches
// are the same on every run.
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../store/gated_storage.hpp"
#include "hall_harness.hpp"
#include "tarneeb/server/store_writer.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;
using testing::GatedStorage;

struct Fixture {
    explicit Fixture(HallConfig cfg = testing::HallHarness::config()) : store(new GatedStorage), h(std::unique_ptr<Storage>(store), cfg) {}
    GatedStorage* store;  ///< owned by h
    testing::HallHarness h;
};

/// One started table of four players named `prefix` + 0..3 (turn timer off).
struct Seated {
    std::string table;
    std::vector<ConnId> players;
};
Seated start_table(testing::HallHarness& h, const std::string& prefix) {
    Seated s;
    for (int i = 0; i < 4; ++i) {
        s.players.push_back(h.connect());
        h.sign_in(s.players.back(), prefix + std::to_string(i));
    }
    h.send(s.players[0], {{"type", "create"}, {"turn_seconds", 0}});
    s.table = h.last(s.players[0], "created")["table"];
    for (std::size_t i = 0; i < 4; ++i) h.send(s.players[i], {{"type", "join"}, {"table", s.table}, {"seat", i}});
    h.send(s.players[0], {{"type", "start"}});
    return s;
}

/// The player whose turn it is at `t`, and its `act` message (its first legal action).
std::pair<ConnId, json> next_act(testing::HallHarness& h, const Seated& t, int id) {
    const json view = h.last(t.players[0], "table");
    const ConnId actor = t.players[view["round"]["to_act"].get<std::size_t>()];
    const json mine = h.last(actor, "table");
    return {actor, {{"type", "act"}, {"id", id}, {"version", mine["version"]}, {"action", mine["legal"][0]}}};
}

/// The table messages `c` got after its first `from` frames.
std::vector<json> tables_since(testing::HallHarness& h, ConnId c, std::size_t from) {
    std::vector<json> out;
    for (std::size_t i = from; i < h.frames[c].size(); ++i)
        if (auto j = json::parse(h.frames[c][i]); j["type"] == "table") out.push_back(j);
    return out;
}

/// The answer `c` got to its request `id` (null when none yet).
json answer(testing::HallHarness& h, ConnId c, int id) {
    for (const auto& f : h.frames[c])
        if (auto j = json::parse(f); j.value("id", json()) == id) return j;
    return nullptr;
}

std::size_t journal_size(Storage& s, const std::string& table) {
    for (const auto& t : s.live_tables())
        if (t.id == table) return t.entries.size();
    return 0;
}

constexpr int kTables = 6;

TEST(HallGroupCommit, TablesActingAtOnceShareOneTransactionAndEveryPlayerSeesEachActionOnce) {
    Fixture f;
    auto& h = f.h;
    std::vector<Seated> tables;
    for (int i = 0; i < kTables; ++i) tables.push_back(start_table(h, "p" + std::to_string(i) + "s"));
    std::vector<std::uint64_t> versions;
    std::vector<std::size_t> journals;
    std::map<ConnId, std::size_t> heard;
    for (const auto& t : tables) {
        versions.push_back(h.last(t.players[0], "table")["version"]);
        journals.push_back(journal_size(h.storage, t.table));
        for (ConnId c : t.players) heard[c] = h.frames[c].size();
    }
    const json before = json::parse(h.get("/metrics.json")->body)["journal"];
    const auto done_before = f.store->done().size();

    // The writer takes table 0's write and waits at the gate; the other tables act meanwhile.
    f.store->close();
    std::vector<ConnId> actors;
    for (int i = 0; i < kTables; ++i) {
        auto [actor, act] = next_act(h, tables[static_cast<std::size_t>(i)], 100 + i);
        actors.push_back(actor);
        h.hall.message(actor, act.dump(), h.now);
        if (i == 0) f.store->wait_held();
    }
    for (int i = 0; i < kTables; ++i)
        EXPECT_TRUE(answer(h, actors[static_cast<std::size_t>(i)], 100 + i).is_null()) << "acknowledged before its write committed";
    f.store->open();
    h.settle();

    const auto done = f.store->done();
    EXPECT_EQ(std::vector<std::string>(done.begin() + static_cast<std::ptrdiff_t>(done_before), done.end()),
              (std::vector<std::string>{"batch:1", "batch:" + std::to_string(kTables - 1)}));
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const auto& t = tables[i];
        const json ok = answer(h, actors[i], 100 + static_cast<int>(i));
        EXPECT_EQ(ok["type"], "ok") << ok.dump();
        EXPECT_EQ(ok["version"], versions[i] + 1) << t.table;
        EXPECT_EQ(journal_size(h.storage, t.table), journals[i] + 1) << t.table << ": its action is in its journal";
        for (ConnId c : t.players) {
            const auto seen = tables_since(h, c, heard[c]);
            ASSERT_EQ(seen.size(), 1u) << t.table << ": each player sees the action once";
            EXPECT_EQ(seen[0]["version"], versions[i] + 1);
        }
    }
    const json after = json::parse(h.get("/metrics.json")->body)["journal"];
    EXPECT_EQ(after["batches"].get<int>() - before["batches"].get<int>(), 2);
    EXPECT_EQ(after["writes"].get<int>() - before["writes"].get<int>(), kTables);
    EXPECT_EQ(after["last_batch"], kTables - 1);
    EXPECT_GE(after["max_batch"].get<int>(), kTables - 1);
    EXPECT_GT(after["writes_per_batch"].get<double>(), 0.0);
}

TEST(HallGroupCommit, AnotherWriterJobClosesTheOpenBatchSoTheWriterKeepsTheOrderOfSubmission) {
    Fixture f;
    auto& h = f.h;
    const Seated a = start_table(h, "a"), b = start_table(h, "b"), c = start_table(h, "c");
    const auto done_before = f.store->done().size();
    f.store->close();
    auto [actor_a, act_a] = next_act(h, a, 1);
    h.hall.message(actor_a, act_a.dump(), h.now);
    f.store->wait_held();  // batch 1 (a) started
    auto [actor_b, act_b] = next_act(h, b, 2);
    h.hall.message(actor_b, act_b.dump(), h.now);  // opens batch 2
    const ConnId guest = h.connect();
    h.hall.message(guest, json{{"type", "hello"}, {"name", "Newcomer"}}.dump(), h.now);  // a job after batch 2's
    auto [actor_c, act_c] = next_act(h, c, 3);
    h.hall.message(actor_c, act_c.dump(), h.now);  // may not join batch 2: it would be written before the sign-in
    f.store->open();
    h.settle();
    const auto done = f.store->done();
    EXPECT_EQ(std::vector<std::string>(done.begin() + static_cast<std::ptrdiff_t>(done_before), done.end()),
              (std::vector<std::string>{"batch:1", "batch:1", "register", "batch:1"}));
    EXPECT_EQ(answer(h, actor_a, 1)["type"], "ok");
    EXPECT_EQ(answer(h, actor_b, 2)["type"], "ok");
    EXPECT_EQ(answer(h, actor_c, 3)["type"], "ok");
    EXPECT_FALSE(h.last(guest, "welcome").is_null());
}

TEST(HallGroupCommit, AFullBatchOpensAnotherWhichAFullWriteQueueRefuses) {
    HallConfig cfg = testing::HallHarness::config();
    cfg.write_queue = 1;    // one job may wait
    cfg.journal_batch = 2;  // two writes per transaction at most
    Fixture f(cfg);
    auto& h = f.h;
    std::vector<Seated> tables;
    for (int i = 0; i < 4; ++i) tables.push_back(start_table(h, "r" + std::to_string(i) + "s"));
    const auto done_before = f.store->done().size();
    f.store->close();
    std::vector<std::pair<ConnId, json>> acts;
    for (int i = 0; i < 4; ++i) acts.push_back(next_act(h, tables[static_cast<std::size_t>(i)], 400 + i));
    h.hall.message(acts[0].first, acts[0].second.dump(), h.now);
    f.store->wait_held();  // batch 1 (table 0) started: the queue is empty
    h.hall.message(acts[1].first, acts[1].second.dump(), h.now);  // batch 2: its job fills the queue
    const ConnId guest = h.connect();
    h.hall.message(guest, json{{"type", "hello"}, {"id", 9}, {"name", "Late"}}.dump(), h.now);  // refused: queue full
    h.hall.message(acts[2].first, acts[2].second.dump(), h.now);  // joins batch 2 (the refused job closed nothing)
    h.hall.message(acts[3].first, acts[3].second.dump(), h.now);  // batch 2 is full: a new job, refused
    f.store->open();
    h.settle();
    const auto done = f.store->done();
    EXPECT_EQ(std::vector<std::string>(done.begin() + static_cast<std::ptrdiff_t>(done_before), done.end()),
              (std::vector<std::string>{"batch:1", "batch:2"}));
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(answer(h, acts[static_cast<std::size_t>(i)].first, 400 + i)["type"], "ok") << "table " << i;
    const json refused = answer(h, acts[3].first, 403);
    EXPECT_EQ(refused["code"], "storage_unavailable") << refused.dump();
    EXPECT_NE(refused["message"].get<std::string>().find("storage_busy"), std::string::npos) << refused.dump();
    EXPECT_EQ(answer(h, guest, 9)["code"], "storage_unavailable");
    // The queue has room again: the refused action goes through.
    json again = acts[3].second;
    again["id"] = 413;
    h.send(acts[3].first, again);
    EXPECT_EQ(answer(h, acts[3].first, 413)["type"], "ok");
}

TEST(HallGroupCommit, ABatchThatFailsChangesNoTableAndPlayResumesWhenTheStoreWorks) {
    Fixture f;
    auto& h = f.h;
    std::vector<Seated> tables;
    for (int i = 0; i < kTables; ++i) tables.push_back(start_table(h, "q" + std::to_string(i) + "s"));
    const json snapshot = h.hall.snapshot();
    std::vector<std::size_t> journals;
    std::map<ConnId, std::size_t> heard;
    for (const auto& t : tables) {
        journals.push_back(journal_size(h.storage, t.table));
        for (ConnId c : t.players) heard[c] = h.frames[c].size();
    }
    f.store->fail_with("storage_full");
    f.store->close();
    std::vector<std::pair<ConnId, json>> acts;
    for (int i = 0; i < kTables; ++i) {
        acts.push_back(next_act(h, tables[static_cast<std::size_t>(i)], 200 + i));
        h.hall.message(acts.back().first, acts.back().second.dump(), h.now);
        if (i == 0) f.store->wait_held();
    }
    f.store->open();
    h.settle();
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const auto [actor, act] = acts[i];
        const json refused = answer(h, actor, act["id"].get<int>());
        EXPECT_EQ(refused["code"], "storage_unavailable") << refused.dump();
        EXPECT_EQ(refused["id"], act["id"]);
        EXPECT_EQ(journal_size(h.storage, tables[i].table), journals[i]) << "nothing written";
        for (ConnId c : tables[i].players) EXPECT_TRUE(tables_since(h, c, heard[c]).empty()) << "nobody told of a change";
    }
    EXPECT_EQ(h.hall.snapshot(), snapshot) << "every table exactly as it was";
    EXPECT_EQ(json::parse(h.get("/metrics.json")->body)["storage"], "storage_full");
    EXPECT_EQ(h.get("/healthz")->status, 503);

    // The store works again: the same requests go through, and play goes on.
    f.store->fail_with(std::nullopt);
    for (std::size_t i = 0; i < tables.size(); ++i) {
        json again = acts[i].second;
        again["id"] = 300 + static_cast<int>(i);
        h.send(acts[i].first, again);
        EXPECT_EQ(answer(h, acts[i].first, 300 + static_cast<int>(i))["type"], "ok");
        EXPECT_EQ(journal_size(h.storage, tables[i].table), journals[i] + 1);
    }
    EXPECT_EQ(h.get("/healthz")->status, 200);
    h.play(tables[0].players, 8);
    EXPECT_EQ(journal_size(h.storage, tables[0].table), journals[0] + 9);
}

// A write refused by its check (a cluster node's seat claim, ClusterHooks::seated: the person
// sits at another table that runs) is left out of its batch, its error its result; the other
// writes of the batch are made.
TEST(HallGroupCommit, AWriteRefusedByItsCheckIsLeftOutOfItsBatchAndTheOthersAreMade) {
    GatedStorage store;
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(store.create_table(json::object()));
    std::mutex mutex;
    std::condition_variable posted_cv;
    std::deque<std::function<void()>> posted;  // the "loop": results run on this thread
    StoreWriter writer(store, [&](std::function<void()> f) {
        std::lock_guard lock(mutex);
        posted.push_back(std::move(f));
        posted_cv.notify_all();
    }, 16, 16, nullptr);
    std::vector<std::optional<std::string>> codes(3);  // "ok" or the error's code
    auto write = [&](std::size_t i, StoreWriter::Check check = {}) {
        writer.append(JournalWrite{ids[i], false, {R"({"n":1})"}, 0},
                      [&codes, i](const StoreWriter::Result& e) { codes[i] = e ? e->code() : "ok"; }, std::move(check));
    };
    store.close();
    write(0);  // its batch starts and is held at the gate: the next two share another
    store.wait_held();
    int checked = 0;
    write(1, [&checked]() -> StoreWriter::Result {
        ++checked;
        return StorageError("already_seated", "Layla sits at another table");
    });
    write(2, [&checked]() -> StoreWriter::Result {
        ++checked;
        return std::nullopt;
    });
    store.open();
    while (std::count(codes.begin(), codes.end(), std::nullopt) > 0) {
        std::unique_lock lock(mutex);
        posted_cv.wait(lock, [&] { return !posted.empty(); });
        auto f = std::move(posted.front());
        posted.pop_front();
        lock.unlock();
        f();
    }
    EXPECT_EQ(codes, (std::vector<std::optional<std::string>>{"ok", "already_seated", "ok"}));
    EXPECT_EQ(checked, 2);
    EXPECT_EQ(journal_size(store, ids[0]), 1u);
    EXPECT_EQ(journal_size(store, ids[1]), 0u) << "not written";
    EXPECT_EQ(journal_size(store, ids[2]), 1u);
    // /metrics' journal figures count the writes made, not the one refused.
    EXPECT_EQ(writer.counts().batches, 2u);
    EXPECT_EQ(writer.counts().writes, 2u);
    EXPECT_EQ(writer.counts().last_batch, 1u);
}

TEST(HallGroupCommit, ASignInByTokenIsAnsweredFromTheSecondConnectionWhileTheWriterIsHeld) {
    // Issue 26: after a node's death thousands of its players sign in again on the others at
    // once. Their tokens are read on the hall's second connection: a welcome never waits behind
    // the journal, and the journal's writes never wait behind thousands of reads.
    const auto path = std::filesystem::temp_directory_path() / ("tarneeb_reads_" + std::to_string(::getpid()) + ".db");
    auto remove_db = [&] {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
    };
    remove_db();
    {
        auto* store = new GatedStorage(path.string());
        testing::HallHarness h(std::unique_ptr<Storage>(store), open_storage(path.string()));
        const Seated t = start_table(h, "r");
        const std::string token = h.sign_in(h.connect(), "Layla");
        ASSERT_FALSE(token.empty());

        store->close();
        auto [actor, act] = next_act(h, t, 7);
        h.hall.message(actor, act.dump(), h.now);
        store->wait_held();  // the writer holds the action's write
        const ConnId again = h.connect();
        h.hall.message(again, json{{"type", "hello"}, {"token", token}, {"id", 1}}.dump(), h.now);
        // Without the second connection the welcome would wait at the gate (run_until throws
        // after 60 s without a job).
        // test-wait: runs the hall's jobs until the welcome; `false`: never idle (the writer is held)
        h.loop.run_until([&] { return !answer(h, again, 1).is_null(); }, [] { return false; });
        EXPECT_EQ(answer(h, again, 1)["type"], "welcome");
        EXPECT_EQ(answer(h, again, 1)["name"], "Layla");
        EXPECT_TRUE(answer(h, actor, 7).is_null()) << "acknowledged before its write committed";

        store->open();
        h.settle();
        EXPECT_EQ(answer(h, actor, 7)["type"], "ok");
    }
    remove_db();
}

}  // namespace
}  // namespace tarneeb::server
