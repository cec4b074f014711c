// The storage suite (include/tarneeb/store/storage.hpp): every contract of the Storage
// interface, run against both backends: SQLite (":memory:") and PostgreSQL (a database of its
// own per test on the binary's throwaway server, pg_fixture.hpp). Then what only PostgreSQL has
// (schema version and migration lock, a lost connection and the reconnect), and a whole hall
// on PostgreSQL. The SQLite-only migrations of older files are tested in hall_test.cpp and
// storage_analysis_test.cpp.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <future>
#include <memory>
#include <string>
#include <cstdio>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "breaking_proxy.hpp"
#include "../cli_util.hpp"
#include "../server/hall_harness.hpp"
#include "match_rows.hpp"
#include "pg_fixture.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/store/postgres_storage.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;
using testing::match_row;
using testing::pg;

/// The StorageError code `f` throws ("none" when it returns).
std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const StorageError& e) {
        return e.code();
    }
    return "none";
}


/// A match of four human players (who must be registered to be rated).
MatchRow humans_match(const std::string& id, std::int64_t finished, const std::array<std::string, 4>& names, int winner,
                      bool is_private = false) {
    MatchRow row = match_row(id, finished, is_private);
    row.names = names;
    row.bots = {false, false, false, false};
    row.winner = winner;
    row.scores = winner == 0 ? std::array<int, 2>{31, 12} : std::array<int, 2>{12, 31};
    return row;
}

std::vector<std::string> entries_of(const LiveTable& t) {
    std::vector<std::string> out;
    for (const auto& e : t.entries) out.push_back(e.dump());
    return out;
}

/// The suite's parameter: which backend.
class StorageTest : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        spec = GetParam() == "sqlite" ? std::string(":memory:") : pg().fresh_url();
        s = open_storage(spec);
    }
    std::string spec;
    std::unique_ptr<Storage> s;
};

TEST_P(StorageTest, TheSpecPicksTheBackend) {
    EXPECT_STREQ(s->backend(), GetParam() == "sqlite" ? "sqlite" : "postgresql");
    EXPECT_EQ(s->remote(), GetParam() != "sqlite");
    EXPECT_NO_THROW(s->ping());
}

TEST_P(StorageTest, GuestsRegisterANameOnceUnderItsKey) {
    EXPECT_TRUE(s->register_name("Layla", "tok-layla"));
    EXPECT_EQ(s->name_for_token("tok-layla"), std::optional<std::string>("Layla"));
    EXPECT_EQ(s->name_for_token("tok-other"), std::nullopt);
    EXPECT_FALSE(s->register_name("Layla", "tok-2")) << "the name is taken";
    EXPECT_FALSE(s->register_name("LAYLA", "tok-3")) << "so is its key";
    EXPECT_FALSE(s->register_name("Omar", "tok-layla")) << "a token signs in as one name";
    EXPECT_TRUE(s->register_name("ليلى", "tok-4"));  // any script, stored as given
    EXPECT_EQ(s->name_for_token("tok-4"), std::optional<std::string>("ليلى"));
    EXPECT_EQ(s->rating("Layla"), 1500.0);
    EXPECT_EQ(s->rating("nobody"), 1500.0);
    EXPECT_FALSE(s->is_registered("Layla"));
}

TEST_P(StorageTest, LiveTablesKeepTheirJournalInOrderThroughRewritesAndClosing) {
    const std::string a = s->create_table({{"preset", "levantine"}});
    const std::string b = s->create_table({{"preset", "classic"}});
    EXPECT_EQ(a, "t1");
    EXPECT_EQ(b, "t2");
    for (int i = 0; i < 5; ++i) {  // interleaved: each table's own order is kept
        s->append(a, {{"op", "a"}, {"i", i}});
        s->append(b, {{"op", "b"}, {"i", i}});
    }
    auto live = s->live_tables();
    ASSERT_EQ(live.size(), 2u);
    EXPECT_EQ(live[0].id, a);  // oldest first
    EXPECT_EQ(live[0].settings, json({{"preset", "levantine"}}));
    EXPECT_EQ(live[1].settings["preset"], "classic");
    ASSERT_EQ(live[0].entries.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(live[0].entries[static_cast<std::size_t>(i)], json({{"op", "a"}, {"i", i}}));
        EXPECT_EQ(live[1].entries[static_cast<std::size_t>(i)], json({{"op", "b"}, {"i", i}}));
    }
    // A compaction replaces a's journal only; appends after it follow it.
    s->rewrite(a, {{{"op", "snapshot"}}, {{"op", "after"}}});
    s->append(a, {{"op", "next"}});
    live = s->live_tables();
    EXPECT_EQ(entries_of(live[0]), (std::vector<std::string>{R"({"op":"snapshot"})", R"({"op":"after"})", R"({"op":"next"})"}));
    EXPECT_EQ(live[1].entries.size(), 5u);
    // Text with quotes, newlines and Arabic survives as JSON.
    s->append(b, {{"chat", "«يلا»\n\"quoted\" \\ back"}});
    EXPECT_EQ(s->live_tables()[1].entries.back()["chat"], "«يلا»\n\"quoted\" \\ back");
    // Closing drops the table and its journal; ids are never reused.
    s->close_table(a);
    live = s->live_tables();
    ASSERT_EQ(live.size(), 1u);
    EXPECT_EQ(live[0].id, b);
    EXPECT_EQ(s->create_table(json::object()), "t3");
    s->close_table(b);
    s->close_table("t3");
    EXPECT_TRUE(s->live_tables().empty());
    EXPECT_EQ(s->create_table(json::object()), "t4");
}

TEST_P(StorageTest, FencingRefusesAStaleOwnerAndWritesNothing) {
    const std::string t = s->create_table({{"preset", "levantine"}});
    s->append(t, {{"n", 0}});  // fence 0: not fenced (one node)
    EXPECT_EQ(s->claim_table(t, "node-a"), 1);
    s->append(t, {{"n", 1}}, 1);
    EXPECT_EQ(s->claim_table(t, "node-b"), 2);  // node b takes over: a's token is stale
    const auto before = entries_of(s->live_tables()[0]);
    EXPECT_EQ(error_of([&] { s->append(t, {{"n", 99}}, 1); }), "storage_fenced");
    EXPECT_EQ(error_of([&] { s->rewrite(t, {{{"n", 98}}}, 1); }), "storage_fenced");
    EXPECT_EQ(error_of([&] { s->close_table(t, 1); }), "storage_fenced");
    EXPECT_EQ(error_of([&] { s->append(t, {{"n", 97}}, 3); }), "storage_fenced") << "a future token is not current either";
    ASSERT_EQ(s->live_tables().size(), 1u) << "still live";
    EXPECT_EQ(entries_of(s->live_tables()[0]), before) << "nothing written";
    // The owner's writes go through.
    s->append(t, {{"n", 2}}, 2);
    s->rewrite(t, {{{"n", "snap"}}}, 2);
    s->append(t, {{"n", 3}}, 2);
    EXPECT_EQ(entries_of(s->live_tables()[0]), (std::vector<std::string>{R"({"n":"snap"})", R"({"n":3})"}));
    // Each claim increments the fence by one.
    EXPECT_EQ(s->claim_table(t, "node-c"), 3);
    EXPECT_EQ(error_of([&] { s->append(t, {{"n", 4}}, 2); }), "storage_fenced");
    s->close_table(t, 3);
    EXPECT_TRUE(s->live_tables().empty());
    // A table that is not live cannot be claimed.
    EXPECT_EQ(error_of([&] { s->claim_table(t, "node-d"); }), "storage_fenced");
    EXPECT_EQ(error_of([&] { s->claim_table("t999", "node-d"); }), "storage_fenced");
    // Another table's fence is its own.
    const std::string u = s->create_table(json::object());
    EXPECT_EQ(s->claim_table(u, "node-a"), 1);
}

/// An append of `entry` to `table` with `fence`, as write_journal takes it (its text).
JournalWrite add(const std::string& table, const json& entry, std::int64_t fence = 0) { return {table, false, {entry.dump()}, fence}; }
/// A rewrite of `table`'s journal to `entries`.
JournalWrite replace(const std::string& table, const std::vector<json>& entries, std::int64_t fence = 0) {
    JournalWrite w{table, true, {}, fence};
    for (const auto& e : entries) w.entries.push_back(e.dump());
    return w;
}
/// Each result's error code, "ok" when committed.
std::vector<std::string> codes(const std::vector<JournalResult>& results) {
    std::vector<std::string> out;
    for (const auto& r : results) out.push_back(r ? r->code() : "ok");
    return out;
}
/// The journal of live table `id` ("gone" when it is not live), as text.
std::vector<std::string> journal_of(Storage& s, const std::string& id) {
    for (const auto& t : s.live_tables())
        if (t.id == id) return entries_of(t);
    return {"gone"};
}

TEST_P(StorageTest, WriteJournalCommitsEveryTablesWritesInOneCall) {
    const std::string a = s->create_table(json::object());
    const std::string b = s->create_table(json::object());
    const std::string c = s->create_table(json::object());
    s->append(c, {{"n", "old"}});
    const std::vector<JournalWrite> writes = {add(a, {{"n", 1}}), add(b, {{"n", 1}}), replace(c, {{{"n", "snap"}}, {{"n", "x"}}}),
                                              add(a, {{"n", 2}})};
    EXPECT_EQ(codes(s->write_journal(writes)), (std::vector<std::string>{"ok", "ok", "ok", "ok"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{R"({"n":1})"}));
    EXPECT_EQ(journal_of(*s, c), (std::vector<std::string>{R"({"n":"snap"})", R"({"n":"x"})"}));
    // Later calls append after them, as append would.
    s->append(b, {{"n", 2}});
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
    // Text with quotes, backslashes, newlines, a control character and Arabic survives as JSON.
    const json chat = {{"chat", "«يلا»\n\"quoted\" \\ back \u0001 {\"x\":[1]}"}};
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{add(b, chat), replace(c, {chat, chat})})), (std::vector<std::string>{"ok", "ok"}));
    EXPECT_EQ(s->live_table(b)->entries.back(), chat);
    EXPECT_EQ(s->live_table(c)->entries, (std::vector<json>{chat, chat}));
}

TEST_P(StorageTest, WriteJournalKeepsTheOrderOfOneTablesWrites) {
    const std::string a = s->create_table(json::object());
    s->append(a, {{"n", 0}});
    // An append, a rewrite that drops it, an append after the rewrite, a second rewrite and
    // its append: only the given order gives this journal.
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{add(a, {{"n", 1}}), replace(a, {{{"n", "r1"}}}), add(a, {{"n", 2}}),
                                                               add(a, {{"n", 3}})})),
              (std::vector<std::string>{"ok", "ok", "ok", "ok"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":"r1"})", R"({"n":2})", R"({"n":3})"}));
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{replace(a, {}), add(a, {{"n", 4}})})),
              (std::vector<std::string>{"ok", "ok"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":4})"}));
}

/// Three new tables for the fence tests: a claimed by node-a (fence 1), b claimed by node-a and
/// then by node-b (fence 2: node-a's token 1 for b is stale), c never claimed.
void three_tables_b_stale(Storage& st, std::string& a, std::string& b, std::string& c) {
    a = st.create_table(json::object());
    b = st.create_table(json::object());
    c = st.create_table(json::object());
    ASSERT_EQ(st.claim_table(a, "node-a"), 1);
    ASSERT_EQ(st.claim_table(b, "node-a"), 1);
    ASSERT_EQ(st.claim_table(b, "node-b"), 2);
}

TEST_P(StorageTest, WriteJournalRefusesAStaleFenceAloneAndCommitsTheOthers) {
    std::string a, b, c;
    ASSERT_NO_FATAL_FAILURE(three_tables_b_stale(*s, a, b, c));
    s->append(a, {{"n", 0}});
    s->append(b, {{"n", 0}});
    const auto results = s->write_journal(std::vector<JournalWrite>{
        add(a, {{"n", 1}}, 1),            // current fence
        add(b, {{"n", 99}}, 1),           // stale: refused
        add(c, {{"n", 1}}),               // not fenced
        replace(b, {{{"n", "lost"}}}, 1),  // a stale rewrite: refused, b's journal kept
        add(b, {{"n", 1}}, 2),            // b's owner
        add(a, {{"n", 2}}, 3),            // a future token is not current either
    });
    EXPECT_EQ(codes(results), (std::vector<std::string>{"ok", "storage_fenced", "ok", "storage_fenced", "ok", "storage_fenced"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":0})", R"({"n":1})"}));
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{R"({"n":0})", R"({"n":1})"})) << "nothing of b's stale writes";
    EXPECT_EQ(journal_of(*s, c), (std::vector<std::string>{R"({"n":1})"}));
}

TEST_P(StorageTest, WriteJournalOfAppendsOnlyRefusesAStaleFenceAloneAndKeepsTheOrder) {
    // The usual batch (appends only: one statement on PostgreSQL) follows the same rules.
    std::string a, b, c;
    ASSERT_NO_FATAL_FAILURE(three_tables_b_stale(*s, a, b, c));
    const auto results = s->write_journal(std::vector<JournalWrite>{
        add(a, {{"n", 1}}, 1),   // current fence
        add(b, {{"n", 99}}, 1),  // stale: refused
        add(c, {{"n", 1}}),      // not fenced
        add(a, {{"n", 2}}, 1),   // a's second, after its first
        add(b, {{"n", 1}}, 2),   // b's owner
        add(c, {{"n", 2}}),
        add(a, {{"n", 3}}, 3),   // a future token is not current either
        add(a, {{"n", 4}}, 1),
        add("t999999", {{"n", 1}}, 1),  // no such table: its fence is no current one
    });
    EXPECT_EQ(codes(results), (std::vector<std::string>{"ok", "storage_fenced", "ok", "ok", "ok", "ok", "storage_fenced", "ok",
                                                        "storage_fenced"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":4})"}));
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{R"({"n":1})"}));
    EXPECT_EQ(journal_of(*s, c), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
}

TEST_P(StorageTest, WriteJournalOfNothingTouchesNothing) {
    const std::string a = s->create_table(json::object());
    s->append(a, {{"n", 0}});
    EXPECT_TRUE(s->write_journal({}).empty());
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":0})"}));
    s->append(a, {{"n", 1}});  // the store goes on as before
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":0})", R"({"n":1})"}));
}

TEST_P(StorageTest, StoreMatchIsIdempotentAndRatesOnlyHumansOfRatedMatches) {
    for (const char* n : {"Layla", "Omar", "Rana", "Sami"}) ASSERT_TRUE(s->register_name(n, std::string("tok-") + n));
    const std::array<std::string, 4> names{"Layla", "Omar", "Rana", "Sami"};
    ASSERT_TRUE(s->store_match(humans_match("t1-1", 1000, names, 0)));
    // Equal ratings: team 0 wins 16 (elo_delta(1500, 1500, 1) = 32 * 0.5).
    EXPECT_DOUBLE_EQ(s->rating("Layla"), 1516.0);
    EXPECT_DOUBLE_EQ(s->rating("Rana"), 1516.0);
    EXPECT_DOUBLE_EQ(s->rating("Omar"), 1484.0);
    // The same id again changes nothing.
    EXPECT_FALSE(s->store_match(humans_match("t1-1", 2000, names, 1)));
    EXPECT_DOUBLE_EQ(s->rating("Layla"), 1516.0);
    EXPECT_EQ(s->player_matches("Layla", true)["matches"].size(), 1u);
    // A closed match is stored, not rated.
    MatchRow closed = humans_match("t1-2", 3000, names, -1);
    closed.status = "closed";
    ASSERT_TRUE(s->store_match(closed));
    EXPECT_DOUBLE_EQ(s->rating("Layla"), 1516.0);
    // A drawn match between unequal teams moves the ratings toward each other.
    MatchRow drawn = humans_match("t1-3", 4000, names, -1);
    drawn.status = "drawn";
    ASSERT_TRUE(s->store_match(drawn));
    EXPECT_NEAR(s->rating("Layla"), 1516.0 + elo_delta(1516, 1484, 0.5), 1e-9);
    EXPECT_LT(s->rating("Layla"), 1516.0);
    // A match with bots is stored, not rated (issue 27: wins against bots were farmed), and
    // bots have no players row; nor is a casual table's match.
    const double before = s->rating("Layla");
    MatchRow with_bots = humans_match("t2-1", 5000, {"Layla", "heuristic", "Rana", "heuristic 2"}, 0);
    with_bots.bots = {false, true, false, true};
    ASSERT_TRUE(s->store_match(with_bots));
    EXPECT_EQ(s->rating("heuristic"), 1500.0);
    MatchRow casual = humans_match("t3-1", 6000, names, 0);
    casual.rated = false;
    ASSERT_TRUE(s->store_match(casual));
    EXPECT_DOUBLE_EQ(s->rating("Layla"), before);
    const json history = s->player_matches("Layla", true)["matches"];
    ASSERT_EQ(history.size(), 5u) << "every match is in the history";
    // The history says which counted (newest first: casual, with bots, drawn, closed, won).
    std::vector<bool> rated;
    for (const auto& m : history) rated.push_back(m.at("rated").get<bool>());
    EXPECT_EQ(rated, (std::vector<bool>{false, false, true, false, true}));
    const json board = s->leaderboard();
    ASSERT_EQ(board["players"].size(), 4u);
    EXPECT_EQ(board["players"][0]["name"], "Layla");
    EXPECT_EQ(board["players"][0]["matches"], 2);  // won, drawn (closed, with bots and casual ones do not count)
    EXPECT_EQ(board["players"][0]["wins"], 1);
    EXPECT_EQ(board["players"][0]["registered"], false);
    EXPECT_EQ(s->leaderboard(1)["players"].size(), 1u);
    // The record is kept as given; an unknown id has none.
    EXPECT_EQ(s->match_record("t1-1"), std::optional<std::string>("{}"));
    EXPECT_EQ(s->match_record("t9-9"), std::nullopt);
}

TEST_P(StorageTest, TheLeaderboardBreaksTiesByNameAsBytes) {
    // SQLite compares bytes; a PostgreSQL database's collation must not change the order.
    const std::array<std::string, 4> names{"b", "Z", "a", "Éa"};
    for (const auto& n : names) ASSERT_TRUE(s->register_name(n, "tok-" + n));
    MatchRow closed = humans_match("t1-1", 1000, names, -1);
    closed.status = "drawn";  // equal ratings, a draw: everyone stays at 1500
    ASSERT_TRUE(s->store_match(closed));
    const json board = s->leaderboard();
    std::vector<std::string> order;
    for (const auto& p : board["players"]) order.push_back(p["name"]);
    EXPECT_EQ(order, (std::vector<std::string>{"Z", "a", "b", "Éa"}));
}

// Issue 27: the rating-pattern report reads the rated matches only, newest first, with their
// seats and deals; `tarneeb rating-report` flags from the same database.
TEST_P(StorageTest, RatedMatchesListOnlyTheMatchesThatChangedRatings) {
    for (const char* n : {"Layla", "Omar", "Rana", "Sami"}) ASSERT_TRUE(s->register_name(n, std::string("tok-") + n));
    const std::array<std::string, 4> names{"Layla", "Omar", "Rana", "Sami"};
    for (int i = 0; i < 6; ++i) {
        MatchRow m = humans_match("t" + std::to_string(i + 1) + "-1", 1000 + i, names, 1, /*is_private=*/i % 2 == 0);
        m.record = R"({"deals":[{},{}]})";
        m.rated = i != 5;  // the newest at a casual table
        ASSERT_TRUE(s->store_match(m));
    }
    ASSERT_TRUE(s->store_match(match_row("t9-1", 5000, false)));  // bots: not rated
    const auto rated = s->rated_matches(3);
    ASSERT_EQ(rated.size(), 3u);
    EXPECT_EQ(rated[0].id, "t5-1");
    EXPECT_EQ(rated[2].id, "t3-1");
    EXPECT_EQ(rated[0].names, names);
    EXPECT_EQ(rated[0].deals, 2);
    EXPECT_EQ(rated[0].winner, 1);
    EXPECT_TRUE(rated[0].is_private);
    EXPECT_FALSE(rated[1].is_private);
    EXPECT_EQ(s->rated_matches(100).size(), 5u);
}

TEST(RatingReport, TheOperatorsCommandFlagsFromTheServersDatabase) {
    const std::string path = ::testing::TempDir() + "tarneeb-rating-report-" + std::to_string(::getpid()) + ".db";
    std::filesystem::remove(path);
    {
        SqliteStorage db(path);
        const std::array<std::string, 4> names{"Winner", "Dumper", "Pal", "Mate"};
        for (const auto& n : names) ASSERT_TRUE(db.register_name(n, "tok-" + n));
        for (int i = 0; i < 6; ++i) {
            MatchRow m = humans_match("t" + std::to_string(i + 1) + "-1", 1000 + i, names, 0);
            m.record = R"({"deals":[{}]})";
            ASSERT_TRUE(db.store_match(m));
        }
    }
    const auto flagged = test::run("rating-report --json --db " + path);
    EXPECT_EQ(flagged.status, 1) << flagged.out;
    const json report = json::parse(flagged.out);
    EXPECT_EQ(report["matches"], 6);
    ASSERT_EQ(report["players"].size(), 2u) << "Dumper and Mate lost six short matches";
    EXPECT_EQ(report["players"][0]["flags"], (json{"short_losses"}));
    const auto text = test::run("rating-report --db " + path + " --min-short-losses 7");
    EXPECT_EQ(text.status, 0) << text.out;
    EXPECT_NE(text.out.find("nobody flagged"), std::string::npos) << text.out;
    EXPECT_EQ(test::run("rating-report --db " + path + ".missing 2>/dev/null").status, 2);
    std::filesystem::remove(path);
}

TEST_P(StorageTest, PublicMatchesArePagedNewestFirstWithoutPrivateOnes) {
    // 7 public matches (two finished at the same time: the later stored comes first) and 3 private.
    for (int i = 0; i < 10; ++i) {
        const bool is_private = i % 3 == 1;
        const std::int64_t finished = 1000 + (i == 6 ? 5 : i);  // t6 finished with t5
        ASSERT_TRUE(s->store_match(match_row("t" + std::to_string(i) + "-1", finished, is_private, i == 9 ? "classic" : "levantine")));
    }
    const std::vector<std::string> want = {"t9-1", "t8-1", "t6-1", "t5-1", "t3-1", "t2-1", "t0-1"};
    std::vector<std::string> seen;
    std::optional<std::string> before;
    int pages = 0;
    for (;;) {
        const auto page = s->public_matches(3, before);
        ASSERT_TRUE(page);
        ++pages;
        for (const auto& m : (*page)["matches"]) seen.push_back(m["id"]);
        if ((*page)["next"].is_null()) break;
        EXPECT_EQ((*page)["matches"].size(), 3u);
        EXPECT_EQ((*page)["next"], (*page)["matches"].back()["id"]);
        before = (*page)["next"].get<std::string>();
        ASSERT_LT(pages, 5);
    }
    EXPECT_EQ(seen, want);
    EXPECT_EQ(pages, 3);  // 3 + 3 + 1
    const json first = (*s->public_matches(1, std::nullopt))["matches"][0];
    EXPECT_EQ(first, json::parse(R"({"id":"t9-1","table":"t9","finished":1009,"rules":"classic",)"
                                 R"("players":["t9-1-a","t9-1-b","t9-1-c","t9-1-d"],"status":"won","winner":1,"scores":[12,31],"rated":false})"));
    // Exactly a page: no next page. The limit is clamped to 1..kMaxMatchPage.
    EXPECT_TRUE((*s->public_matches(7, std::nullopt))["next"].is_null());
    EXPECT_EQ((*s->public_matches(1000, std::nullopt))["matches"].size(), 7u);
    EXPECT_EQ((*s->public_matches(0, std::nullopt))["matches"].size(), 1u);
    // A cursor must be a listed match: a private one or an unknown id is refused.
    EXPECT_FALSE(s->public_matches(3, std::string("t1-1")));
    EXPECT_FALSE(s->public_matches(3, std::string("nope")));
    EXPECT_EQ((*s->public_matches(3, std::string("t0-1")))["matches"], json::array());
    // A player's own history lists its private matches too.
    MatchRow mine = match_row("t20-1", 2000, /*is_private=*/true);
    mine.bots[0] = false;
    ASSERT_TRUE(s->store_match(mine));
    const json own = s->player_matches("t20-1-a", /*with_private=*/true);
    ASSERT_EQ(own["matches"].size(), 1u);
    EXPECT_EQ(own, json::parse(R"({"name":"t20-1-a","matches":[{"id":"t20-1","table":"t20","finished":2000,"seat":0,)"
                               R"("status":"won","winner":1,"scores":[12,31],"private":true,"rated":false}]})"));
    EXPECT_EQ(s->player_matches("t20-1-a", /*with_private=*/false)["matches"].size(), 0u);
    // match_readable: a public match anyone, a private one its human players only.
    EXPECT_TRUE(s->match_readable("t20-1", std::string("t20-1-a")));
    EXPECT_FALSE(s->match_readable("t20-1", std::string("t20-1-b")));  // a bot's seat
    EXPECT_FALSE(s->match_readable("t20-1", std::nullopt));
    EXPECT_TRUE(s->match_readable("t9-1", std::nullopt));
    EXPECT_FALSE(s->match_readable("nope", std::string("t20-1-a")));
    EXPECT_EQ((*s->public_matches(1, std::nullopt))["matches"][0]["id"], "t9-1");
}

TEST_P(StorageTest, SessionsExpireAreRevokedAndChangingThePasswordKeepsOne) {
    ASSERT_TRUE(s->register_name("Layla", "guest-token"));
    EXPECT_FALSE(s->token_owner("guest-token", 0)->registered);
    EXPECT_EQ(s->credentials("LAYLA")->name, "Layla");
    EXPECT_EQ(s->credentials("Layla")->password_hash, "");
    EXPECT_FALSE(s->credentials("Omar"));

    ASSERT_TRUE(s->register_password("Layla", "$argon2id$stand-in", hash_token("guest-token"), 1000, 5000));
    EXPECT_FALSE(s->register_password("Layla", "$argon2id$other", hash_token("guest-token"), 1000, 5000)) << "once";
    EXPECT_FALSE(s->register_password("Nobody", "$argon2id$x", hash_token("x"), 1000, 5000)) << "unknown player";
    EXPECT_TRUE(s->is_registered("Layla"));
    EXPECT_EQ(s->credentials("layla")->password_hash, "$argon2id$stand-in");
    // The guest token is now a session of the account, until it expires.
    EXPECT_TRUE(s->token_owner("guest-token", 4999)->registered);
    EXPECT_FALSE(s->token_owner("guest-token", 5000));
    EXPECT_EQ(s->name_for_token("guest-token"), std::nullopt) << "no longer a guest's token";

    s->add_session("Layla", "phone", 1000, 9000);
    s->add_session("Layla", "laptop", 1000, 9000);
    EXPECT_EQ(s->token_owner("phone", 2000)->name, "Layla");
    EXPECT_EQ(s->change_password("Layla", "$argon2id$new", hash_token("phone")), 2);  // laptop, guest token
    EXPECT_EQ(s->credentials("Layla")->password_hash, "$argon2id$new");
    EXPECT_TRUE(s->token_owner("phone", 2000));
    EXPECT_FALSE(s->token_owner("laptop", 2000));
    s->add_session("Layla", "tablet", 2000, 9000);
    s->revoke_session(hash_token("tablet"));
    EXPECT_FALSE(s->token_owner("tablet", 2000));
    EXPECT_EQ(s->revoke_sessions("Layla"), 1);
    EXPECT_FALSE(s->token_owner("phone", 2000));

    // At most kMaxSessionsPerPlayer sessions: the oldest go first; expired ones are dropped.
    for (int i = 0; i < kMaxSessionsPerPlayer + 3; ++i) s->add_session("Layla", "dev" + std::to_string(i), 3000 + i, 90000);
    EXPECT_FALSE(s->token_owner("dev0", 4000));
    EXPECT_FALSE(s->token_owner("dev2", 4000));
    EXPECT_TRUE(s->token_owner("dev3", 4000));
    EXPECT_TRUE(s->token_owner("dev" + std::to_string(kMaxSessionsPerPlayer + 2), 4000));
    // Re-adding a token (the same device signing in again) refreshes it, not a second row.
    s->add_session("Layla", "dev3", 5000, 95000);
    EXPECT_TRUE(s->token_owner("dev3", 91000));
}

TEST_P(StorageTest, ProfilesCountEveryMatchAndListPublicOnes) {
    for (const char* n : {"Layla", "Omar", "Rana", "Sami"}) ASSERT_TRUE(s->register_name(n, std::string("tok-") + n));
    const std::array<std::string, 4> names{"Layla", "Omar", "Rana", "Sami"};
    ASSERT_TRUE(s->store_match(humans_match("t1-1", 1000, names, 0)));
    ASSERT_TRUE(s->store_match(humans_match("t2-1", 2000, names, 1, /*is_private=*/true)));
    ASSERT_TRUE(s->store_match(humans_match("t3-1", 3000, names, 1)));
    EXPECT_EQ(s->player_profile("Nobody"), std::nullopt);
    const json p = *s->player_profile("Layla");
    EXPECT_EQ(p["name"], "Layla");
    EXPECT_EQ(p["registered"], false);
    EXPECT_EQ(p["matches"], 3);
    EXPECT_EQ(p["wins"], 1);
    EXPECT_EQ(p["rating"], std::round(s->rating("Layla") * 10) / 10);
    EXPECT_EQ(p["bids"], 0);  // the stand-in records have no deals
    EXPECT_TRUE(p["average_bid"].is_null());
    EXPECT_EQ(p["contracts"], json({{"bid", 0}, {"made", 0}}));
    // The history and the recent matches show the public matches only.
    ASSERT_EQ(p["rating_history"].size(), 2u);
    EXPECT_EQ(p["rating_history"][0]["match"], "t1-1");  // oldest first
    EXPECT_EQ(p["rating_history"][0]["rating"], 1516.0);
    EXPECT_EQ(p["rating_history"][1]["match"], "t3-1");
    ASSERT_EQ(p["recent_matches"].size(), 2u);
    EXPECT_EQ(p["recent_matches"][0]["id"], "t3-1");  // newest first
    EXPECT_EQ(p["recent_matches"][0]["won"], false);
    EXPECT_EQ(p["recent_matches"][1]["won"], true);
    EXPECT_EQ(p["recent_matches"][1]["players"], json(names));
    EXPECT_EQ(p["recent_matches"][1]["rules"], "levantine");
    EXPECT_EQ(p["tournaments"], json::array());
    // A tournament the player entered shows, with its partner.
    s->create_tournament([](const std::string& id) {
        return json{{"id", id}, {"state", "registration"}, {"settings", {{"name", "Cup"}, {"format", "knockout"}}},
                    {"teams", {{{"players", {"Layla", "Rana"}}}, {{"players", {"Omar", "Sami"}}}}}};
    });
    const json t = s->player_profile("Rana")->at("tournaments");
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0], json({{"id", "T1"}, {"name", "Cup"}, {"format", "knockout"}, {"state", "registration"},
                          {"partner", "Layla"}, {"champion", false}}));
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

MatchRow stored_row(const std::string& id, std::int64_t finished, bool is_private) {
    // rec0020: levantine, 6 deals, team 1 wins. Counted by hand from rec0020.expected.json:
    // seat 0 bid 5 times (sum 60) and declared 3 contracts, made none; seat 3 bid 6 times
    // (sum 68) and declared 1 contract, not made.
    MatchRow row;
    row.id = id;
    row.table = id.substr(0, id.find('-'));
    row.finished_ms = finished;
    row.names = {"Layla", "Omar", "Rana", "Sami"};
    row.status = "won";
    row.winner = 1;
    row.scores = {-61, 33};
    row.record = read_file(std::string(TARNEEB_TEST_DATA) + "/records/rec0020.json");
    row.rules = "levantine";
    row.is_private = is_private;
    row.stats = seat_stats(records::replay(row.record).match);  // as the hall counts its Match
    return row;
}

TEST_P(StorageTest, ProfileNumbersOfAStoredMatchAndPrivateMatchesKeptOutOfTheLists) {
    for (const char* name : {"Layla", "Omar", "Rana", "Sami"}) ASSERT_TRUE(s->register_name(name, std::string("tok-") + name));
    EXPECT_FALSE(s->player_profile("Nobody"));
    ASSERT_TRUE(s->store_match(stored_row("t1-1", 1000, /*is_private=*/false)));

    json layla = *s->player_profile("Layla");
    EXPECT_EQ(layla["matches"], 1);
    EXPECT_EQ(layla["wins"], 0);
    EXPECT_EQ(layla["contracts"], (json{{"bid", 3}, {"made", 0}}));
    EXPECT_EQ(layla["bids"], 5);
    EXPECT_DOUBLE_EQ(layla["average_bid"].get<double>(), 12.0);
    EXPECT_EQ(layla["registered"], false);
    EXPECT_EQ(layla["tournaments"], json::array());
    EXPECT_LT(layla["rating"].get<double>(), 1500);  // lost to an equal team: 1500 - 16
    EXPECT_DOUBLE_EQ(layla["rating"].get<double>(), 1484.0);
    ASSERT_EQ(layla["rating_history"].size(), 1u);
    EXPECT_EQ(layla["rating_history"][0], (json{{"match", "t1-1"}, {"finished", 1000}, {"rating", 1484.0}}));
    ASSERT_EQ(layla["recent_matches"].size(), 1u);
    EXPECT_EQ(layla["recent_matches"][0]["id"], "t1-1");
    EXPECT_EQ(layla["recent_matches"][0]["won"], false);
    EXPECT_EQ(layla["recent_matches"][0]["players"], (json{"Layla", "Omar", "Rana", "Sami"}));

    json sami = *s->player_profile("Sami");
    EXPECT_EQ(sami["wins"], 1);
    EXPECT_EQ(sami["contracts"], (json{{"bid", 1}, {"made", 0}}));
    EXPECT_EQ(sami["bids"], 6);
    EXPECT_DOUBLE_EQ(sami["average_bid"].get<double>(), 11.33);  // 68 / 6, to 2 places
    EXPECT_EQ(sami["recent_matches"][0]["won"], true);
    EXPECT_DOUBLE_EQ(sami["rating"].get<double>(), 1516.0);

    // A private match counts in the totals but shows in no list (not even as a rating point).
    ASSERT_TRUE(s->store_match(stored_row("t2-1", 2000, /*is_private=*/true)));
    layla = *s->player_profile("Layla");
    EXPECT_EQ(layla["matches"], 2);
    EXPECT_EQ(layla["contracts"], (json{{"bid", 6}, {"made", 0}}));
    EXPECT_EQ(layla["recent_matches"].size(), 1u);
    EXPECT_EQ(layla["rating_history"].size(), 1u);
    EXPECT_EQ(layla.dump().find("t2-1"), std::string::npos);
    // Stored twice: counted once.
    EXPECT_FALSE(s->store_match(stored_row("t1-1", 1000, false)));
    EXPECT_EQ(s->player_profile("Layla")->at("contracts")["bid"], 6);
    // The leaderboard and the profile say who is registered (has a password: "Accounts").
    json board = s->leaderboard();
    ASSERT_EQ(board["players"].size(), 4u);
    EXPECT_EQ(board["players"][0]["name"], "Omar");  // Omar and Sami won (equal ratings: by name)
    EXPECT_EQ(board["players"][0]["registered"], false);
    ASSERT_TRUE(s->register_password("Omar", "$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHQ$aGFzaA", hash_token("omar-device"),
                                    3000, 3000 + 86400000));
    board = s->leaderboard();
    EXPECT_EQ(board["players"][0]["registered"], true);
    EXPECT_EQ(board["players"][1]["registered"], false);
    EXPECT_EQ(s->player_profile("Omar")->at("registered"), true);
}

TEST_P(StorageTest, TournamentsGetIdsNeverReusedAndKeepTheirLastState) {
    std::string seen_id;
    const std::string a = s->create_tournament([&](const std::string& id) {
        seen_id = id;
        return json{{"id", id}, {"v", 1}};
    });
    EXPECT_EQ(a, "T1");
    EXPECT_EQ(seen_id, "T1");
    const std::string b = s->create_tournament([](const std::string& id) { return json{{"id", id}, {"v", 1}}; });
    EXPECT_EQ(b, "T2");
    s->save_tournament(a, {{"id", a}, {"v", 2}});
    EXPECT_EQ(s->tournaments(), (std::vector<json>{{{"id", "T1"}, {"v", 2}}, {{"id", "T2"}, {"v", 1}}}));
    // A state function that throws stores nothing (one transaction), and the id is not reused.
    EXPECT_THROW(s->create_tournament([](const std::string&) -> json { throw std::runtime_error("no"); }), std::exception);
    EXPECT_EQ(s->tournaments().size(), 2u);
    const std::string c = s->create_tournament([](const std::string& id) { return json{{"id", id}}; });
    EXPECT_NE(c, a);
    EXPECT_NE(c, b);
    EXPECT_EQ(s->tournaments().size(), 3u);
}

TEST_P(StorageTest, AnalysesAreStoredPerDealAndReplaced) {
    ASSERT_TRUE(s->store_match(match_row("t1-1", 1000, false)));
    EXPECT_EQ(s->match_analysis("t1-1", 0), std::nullopt);
    s->store_analysis("t1-1", 0, R"({"deal":0})");
    s->store_analysis("t1-1", 2, R"({"deal":2,"v":1})");
    s->store_analysis("t1-1", 2, R"({"deal":2,"v":2})");  // replaced, not added
    EXPECT_EQ(s->match_analysis("t1-1", 0), std::optional<std::string>(R"({"deal":0})"));
    EXPECT_EQ(s->match_analysis("t1-1", 1), std::nullopt);
    EXPECT_EQ(s->match_analysis("t1-1", 2), std::optional<std::string>(R"({"deal":2,"v":2})"));
    EXPECT_EQ(s->match_analysis("t2-1", 0), std::nullopt);
}

TEST_P(StorageTest, AValueLargerThanASocketBufferIsStoredWhole) {
    // 2 MiB of UTF-8 text (Latin and Arabic letters): on PostgreSQL it is sent in
    // many pieces (the non-blocking send waits for the socket between them) and read back whole.
    std::string big;
    big.reserve(2u << 20);
    for (std::size_t i = 0; big.size() < (2u << 20); ++i) big += "\u00e9t\u00e9 \u0627\u0644\u0644\u0647 " + std::to_string(i) + ' ';
    const std::string analysis = json{{"text", big}}.dump();
    ASSERT_TRUE(s->store_match(match_row("t1-1", 1000, false)));
    s->store_analysis("t1-1", 0, analysis);
    EXPECT_EQ(s->match_analysis("t1-1", 0), std::optional<std::string>(analysis));
}

INSTANTIATE_TEST_SUITE_P(Sqlite, StorageTest, ::testing::Values(std::string("sqlite")));
INSTANTIATE_TEST_SUITE_P(Postgres, StorageTest, ::testing::Values(std::string("postgres")));

// ---- PostgreSQL only ---------------------------------------------------------------------------

/// A backend without a write_journal of its own: Storage's default (one call per write).
class DefaultJournalStorage : public SqliteStorage {
public:
    DefaultJournalStorage() : SqliteStorage(":memory:") {}
    std::vector<JournalResult> write_journal(std::span<const JournalWrite> writes) override { return Storage::write_journal(writes); }
};

// Shards open one new SQLite file at once (`serve --threads N`): each connection waits for the
// schema and migrations of the one before and finds every column there (CI under TSan once
// failed with "duplicate column name: name_key": two connections both read "no name_key").
TEST(SqliteStorage, ConnectionsOpeningOneNewFileAtOnceEachGetTheWholeSchema) {
    for (int round = 0; round < 5; ++round) {
        const std::string path = ::testing::TempDir() + "tarneeb-open-at-once-" + std::to_string(::getpid()) + "-" +
                                 std::to_string(round) + ".db";
        for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
        std::vector<std::thread> threads;
        std::vector<std::string> errors(8);
        std::vector<std::unique_ptr<Storage>> stores(8);
        for (std::size_t i = 0; i < 8; ++i)
            threads.emplace_back([&, i] {
                try {
                    stores[i] = open_storage(path);
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        for (auto& t : threads) t.join();
        for (std::size_t i = 0; i < 8; ++i) {
            EXPECT_EQ(errors[i], "") << "connection " << i;
            if (stores[i]) {
                EXPECT_TRUE(stores[i]->register_name("Player" + std::to_string(i), "token" + std::to_string(i)));
            }
        }
        stores.clear();
        for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
    }
}

TEST(StorageDefault, WriteJournalIsOneAppendOrRewritePerWriteInOrder) {
    DefaultJournalStorage s;
    const std::string a = s.create_table(json::object());
    const std::string b = s.create_table(json::object());
    ASSERT_EQ(s.claim_table(b, "node-a"), 1);
    ASSERT_EQ(s.claim_table(b, "node-b"), 2);
    const auto results = s.write_journal(std::vector<JournalWrite>{add(a, {{"n", 1}}), add(b, {{"n", 1}}, 1), replace(a, {{{"n", "r"}}}),
                                                                   add(a, {{"n", 2}}), JournalWrite{a, false, {}, 0}});
    EXPECT_EQ(codes(results), (std::vector<std::string>{"ok", "storage_fenced", "ok", "ok", "storage_io"}));
    EXPECT_EQ(journal_of(s, a), (std::vector<std::string>{R"({"n":"r"})", R"({"n":2})"}));
    EXPECT_EQ(journal_of(s, b), (std::vector<std::string>{}));
    EXPECT_TRUE(s.write_journal({}).empty());
}

TEST(PostgresStorage, UrlsOpenPostgresAndGetKeepalives) {
    EXPECT_TRUE(is_postgres_url("postgresql://u@h/db"));
    EXPECT_TRUE(is_postgres_url("postgres://u@h/db"));
    EXPECT_FALSE(is_postgres_url("tarneeb.db"));
    EXPECT_FALSE(is_postgres_url(":memory:"));
    EXPECT_FALSE(is_postgres_url("/var/lib/postgresql://x"));
    const std::string all = "keepalives=1&keepalives_idle=10&keepalives_interval=5&keepalives_count=3";
    EXPECT_EQ(PostgresStorage::connection_url("postgresql://u@h/db"), "postgresql://u@h/db?" + all);
    EXPECT_EQ(PostgresStorage::connection_url("postgresql://u@h/db?sslmode=disable"), "postgresql://u@h/db?sslmode=disable&" + all);
    // The operator's own settings stay, and only those are left out.
    EXPECT_EQ(PostgresStorage::connection_url("postgresql://u@h/db?keepalives_idle=60&keepalives=0"),
              "postgresql://u@h/db?keepalives_idle=60&keepalives=0&keepalives_interval=5&keepalives_count=3");
}

TEST(PostgresStorage, TheSchemaVersionIsRecordedAndServersStartingAtOnceMigrateOnce) {
    const std::string url = pg().fresh_url();
    // Four servers open the same empty database at once: one migrates, the others wait for its
    // lock and find the schema made.
    std::vector<std::future<std::string>> opening;
    for (int i = 0; i < 4; ++i)
        opening.push_back(std::async(std::launch::async, [url] {
            try {
                PostgresStorage s(url);
                return std::string(s.backend());
            } catch (const std::exception& e) {
                return std::string(e.what());
            }
        }));
    for (auto& f : opening) EXPECT_EQ(f.get(), "postgresql");
    pqxx::connection c(url);
    pqxx::work w(c);
    const auto v = w.exec("SELECT version FROM schema_version");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0][0].as<int>(), kPostgresSchemaVersion);
    // Reopening keeps the data.
    {
        PostgresStorage s(url);
        ASSERT_TRUE(s.register_name("Layla", "tok"));
    }
    PostgresStorage s(url);
    EXPECT_EQ(s.name_for_token("tok"), std::optional<std::string>("Layla"));
}

TEST(PostgresStorage, ANewerSchemaIsRefused) {
    const std::string url = pg().fresh_url();
    { PostgresStorage s(url); }
    {
        pqxx::connection c(url);
        pqxx::work w(c);
        w.exec("UPDATE schema_version SET version = 999");
        w.commit();
    }
    EXPECT_EQ(error_of([&] { PostgresStorage s(url); }), "storage_io");
}

TEST(PostgresStorage, AServerThatCannotBeReachedIsUnavailable) {
    // A loopback port bound but not listening: the connection is refused at once.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_NE(fd, -1) << std::strerror(errno);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
    const std::string url = "postgresql://tarneeb@127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/x";
    EXPECT_EQ(error_of([&] { open_storage(url); }), "storage_unavailable");
    ::close(fd);
}

TEST(PostgresStorage, AStoppedServerIsUnavailableAndTheFirstCallAfterItsRestartWorks) {
    const std::string url = pg().fresh_url();
    auto s = open_storage(url);
    ASSERT_TRUE(s->register_name("Layla", "tok"));
    const std::string t = s->create_table(json::object());
    pg().stop_fast();
    // The lost connection, then a connect that is refused: nothing sleeps or retries.
    EXPECT_EQ(error_of([&] { s->append(t, {{"n", 1}}); }), "storage_unavailable");
    EXPECT_EQ(error_of([&] { s->name_for_token("tok"); }), "storage_unavailable");
    EXPECT_EQ(error_of([&] { s->ping(); }), "storage_unavailable");
    pg().start();
    EXPECT_EQ(s->name_for_token("tok"), std::optional<std::string>("Layla"));  // connected again
    s->append(t, {{"n", 2}});
    const auto live = s->live_tables();
    ASSERT_EQ(live.size(), 1u);
    EXPECT_EQ(entries_of(live[0]), std::vector<std::string>{R"({"n":2})"}) << "the refused entry was never written";
}

// Issue 26: the server restarted while the connection sat idle (no call in between). The old
// connection holds the old backend's FATAL message and EOF; the first call after the restart
// must notice that and use a new connection, not fail with storage_unavailable. Each kind of
// call: a transaction (name_for_token, ping), a single-statement batch of appends, and a write
// whose fence is checked.
TEST(PostgresStorage, TheFirstCallOfEachKindAfterARestartWhileIdleWorks) {
    const std::string url = pg().fresh_url();
    auto s = open_storage(url);
    ASSERT_TRUE(s->register_name("Layla", "tok"));
    const std::string t = s->create_table(json::object());
    const std::int64_t fence = s->claim_table(t, "n1");
    auto restart = [] {
        pg().stop_fast();
        pg().start();
    };
    restart();
    EXPECT_EQ(s->name_for_token("tok"), std::optional<std::string>("Layla"));
    restart();
    EXPECT_NO_THROW(s->ping());
    restart();
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{add(t, {{"n", 1}}, fence)})), (std::vector<std::string>{"ok"}));
    restart();
    EXPECT_NO_THROW(s->append(t, {{"n", 2}}, fence));
    EXPECT_EQ(journal_of(*s, t), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"})) << "each write once";
}

// Issue 26, the retry rule (src/store/postgres_tx.hpp, Tx): a connection that broke unseen (no end
// of stream reached the client, so the check of an idle connection cannot tell) fails the
// call's first statement. A transaction's BEGIN is run again on a new connection, whether or
// not it reached the server; a statement on its own that was sent is never sent again (it may
// have committed: here it did).
TEST(PostgresStorage, ACallWhoseConnectionBrokeUnseenIsRetriedOnlyWhereNothingCanHaveBeenWritten) {
    using testing::BreakingProxy;
    const std::string direct = pg().fresh_url();
    BreakingProxy proxy(pg().port());
    std::string url = direct;
    const std::string port = ":" + std::to_string(pg().port()) + "/";
    url.replace(url.find(port), port.size(), ":" + std::to_string(proxy.port()) + "/");
    auto s = open_storage(url);
    ASSERT_TRUE(s->register_name("Layla", "tok"));
    const std::string t = s->create_table(json::object());
    // BEGIN never reaches the server, then its answer is lost: the call works either way.
    proxy.cut(BreakingProxy::Cut::before_server);
    EXPECT_EQ(s->name_for_token("tok"), std::optional<std::string>("Layla"));
    proxy.cut(BreakingProxy::Cut::after_server);
    EXPECT_NO_THROW(s->append(t, {{"n", 1}}));
    // A batch of appends is one statement: sent, then its answer lost. Not sent again.
    proxy.cut(BreakingProxy::Cut::after_server);
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{add(t, {{"n", 2}})})), (std::vector<std::string>{"storage_unavailable"}));
    ASSERT_TRUE(proxy.answered(std::chrono::seconds(30))) << "the server never answered the delivered statements";
    EXPECT_EQ(journal_of(*s, t), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"})) << "each write once";
    // Sent, and dropped before the server: the client cannot tell it from the case above.
    proxy.cut(BreakingProxy::Cut::before_server);
    EXPECT_EQ(codes(s->write_journal(std::vector<JournalWrite>{add(t, {{"n", 3}})})), (std::vector<std::string>{"storage_unavailable"}));
    EXPECT_EQ(journal_of(*s, t), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
}

TEST(PostgresStorage, WriteJournalToAStoppedServerGivesEveryWriteUnavailableAndWritesNothing) {
    const std::string url = pg().fresh_url();
    auto s = open_storage(url);
    const std::string a = s->create_table(json::object());
    const std::string b = s->create_table(json::object());
    s->append(a, {{"n", 0}});
    pg().stop_fast();
    const std::vector<JournalWrite> writes = {add(a, {{"n", 1}}), add(b, {{"n", 1}}), replace(a, {{{"n", "snap"}}})};
    EXPECT_EQ(codes(s->write_journal(writes)),
              (std::vector<std::string>{"storage_unavailable", "storage_unavailable", "storage_unavailable"}));
    pg().start();
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":0})"})) << "nothing of the batch was written";
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{}));
    // The first batch after the restart connects again and commits.
    EXPECT_EQ(codes(s->write_journal(writes)), (std::vector<std::string>{"ok", "ok", "ok"}));
    EXPECT_EQ(journal_of(*s, a), (std::vector<std::string>{R"({"n":"snap"})"}));
    EXPECT_EQ(journal_of(*s, b), (std::vector<std::string>{R"({"n":1})"}));
}

TEST(PostgresStorage, AHungServerIsUnavailableAtTheDeadlineAndTheFirstCallAfterItWorks) {
    const std::string url = pg().fresh_url();
    { PostgresStorage made(url); }  // the schema, with the default deadline (a loaded machine may be slow at it)
    // A short deadline, yet far above what a call takes when the server answers.
    PostgresStorage s(url, {.timeout = std::chrono::seconds(1)});
    ASSERT_TRUE(s.register_name("Layla", "tok"));
    const std::string t = s.create_table(json::object());
    s.append(t, {{"n", 1}});
    {
        const auto frozen = pg().freeze();
        // The open connection's statement gets no answer; then a new connection, which the
        // kernel accepts, gets none either. Each call gives up at its deadline: the frozen
        // server never answers, so that each call returns at all is the deadline's doing.
        EXPECT_EQ(error_of([&] { s.append(t, {{"n", 2}}); }), "storage_unavailable");
        EXPECT_EQ(error_of([&] { s.name_for_token("tok"); }), "storage_unavailable");
        EXPECT_EQ(error_of([&] { s.ping(); }), "storage_unavailable");
    }
    // Resumed: the next call connects again, and what was committed is all there.
    EXPECT_EQ(s.name_for_token("tok"), std::optional<std::string>("Layla"));
    s.append(t, {{"n", 3}});
    const auto live = s.live_tables();
    ASSERT_EQ(live.size(), 1u);
    // The refused append had sent its BEGIN only (each statement waits for the previous one's
    // answer), so it never reached the journal.
    EXPECT_EQ(entries_of(live[0]), (std::vector<std::string>{R"({"n":1})", R"({"n":3})"}));
}

TEST(PostgresStorage, AHungServerDuringAConnectIsUnavailableAtTheDeadline) {
    const std::string url = pg().fresh_url();
    { PostgresStorage made(url); }  // the schema
    const auto frozen = pg().freeze();
    // The constructor connects: the kernel accepts, the postmaster never answers.
    EXPECT_EQ(error_of([&] { PostgresStorage s(url, {.timeout = std::chrono::seconds(1)}); }), "storage_unavailable");
}

// ---- a whole hall on PostgreSQL ---------------------------------------------------------------

TEST(PostgresStorage, AHallPlaysAWholeMatchStoresItAndResumesAfterARestart) {
    const std::string url = pg().fresh_url();
    using testing::HallHarness;
    std::string match_id;
    {
        HallHarness h(url);
        std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
        const std::string tid = testing::seat_four(h, cs, {{"target", 11}});
        h.send(cs[0], {{"type", "start"}});
        EXPECT_GT(h.play(cs), 20);
        EXPECT_EQ(h.last(cs[2], "table")["state"], "finished");
        match_id = tid + "-1";
        const auto rec = h.get("/api/matches/" + match_id);
        ASSERT_TRUE(rec);
        EXPECT_EQ(rec->status, 200);
        const json listed = json::parse(h.get("/api/matches")->body);
        ASSERT_EQ(listed["matches"].size(), 1u);
        EXPECT_EQ(listed["matches"][0]["players"], json({"Layla", "Omar", "Rana", "Sami"}));
        EXPECT_EQ(json::parse(h.get("/api/leaderboard")->body)["players"].size(), 4u);
        // The profiles' numbers, read from the record: contracts add up to the match's own.
        const json result = json::parse(rec->body)["result"];
        int contracts = 0, counted = 0;
        for (const auto& d : result["deals"]) contracts += d["made"].is_boolean() ? 1 : 0;
        for (const char* n : {"Layla", "Omar", "Rana", "Sami"}) {
            const json p = json::parse(h.get(std::string("/api/players/") + n)->body);
            EXPECT_EQ(p["matches"], 1);
            counted += p["contracts"]["bid"].get<int>();
        }
        EXPECT_GT(contracts, 0);
        EXPECT_EQ(counted, contracts);
        const auto health = h.get("/healthz");
        ASSERT_TRUE(health);
        EXPECT_EQ(health->status, 200);
        EXPECT_EQ(json::parse(health->body), json({{"status", "ok"}, {"storage", "postgresql"}}));
    }
    // A table in play, the hall gone ("crash"), a new hall on the same database resumes it
    // (another database: the four names are taken in the first).
    const std::string url2 = pg().fresh_url();
    std::string token;
    json before;
    {
        HallHarness h(url2);
        std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
        testing::seat_four(h, cs, {{"turn_seconds", 0}});
        token = h.last(cs[0], "welcome")["token"];
        h.send(cs[0], {{"type", "start"}});
        h.play(cs, 30);
        before = h.last(cs[0], "table");
        ASSERT_EQ(before["state"], "playing");
    }
    HallHarness h(url2);
    EXPECT_EQ(h.hall.resume(h.now), 1);
    const ConnId c = h.connect();
    h.send(c, {{"type", "hello"}, {"token", token}});
    const auto after = h.last(c, "table");
    ASSERT_FALSE(after.is_null());
    EXPECT_EQ(after["version"], before["version"]);
    EXPECT_EQ(after["round"], before["round"]);
    EXPECT_EQ(after["legal"], before["legal"]);
    EXPECT_EQ(open_storage(url)->match_record(match_id).has_value(), true) << "the first database keeps its match";
}

TEST(PostgresStorage, AHallWhoseServerHangsRefusesAnActionAndResumesByItselfWhenItIsBack) {
    // The hall's store has the default deadline (5 s): each call while PostgreSQL is frozen
    // costs that long on the writer thread (here the test's thread), then fails.
    const std::string url = pg().fresh_url();
    testing::HallHarness h(url);
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = testing::seat_four(h, cs, {{"target", 11}, {"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    ASSERT_EQ(h.play(cs, 12), 12);
    // Whose turn it is, and the action the harness would play.
    ConnId mover = 0;
    json before;
    for (ConnId c : cs)
        if (auto t = h.last(c, "table"); !t["legal"].empty()) mover = c, before = t;
    ASSERT_NE(mover, 0u);
    const json action = before["timeout_action"].is_null() ? before["legal"][0] : before["timeout_action"];
    {
        const auto frozen = pg().freeze();
        const json refused = h.request(mover, {{"type", "act"}, {"version", before["version"]}, {"action", action}});
        EXPECT_EQ(refused["type"], "error");
        EXPECT_EQ(refused["code"], "storage_unavailable");
        // Nothing changed: the table is where it was, for everyone.
        for (ConnId c : cs) EXPECT_EQ(h.last(c, "table")["version"], before["version"]);
        const auto health = h.get("/healthz");
        ASSERT_TRUE(health);
        EXPECT_EQ(health->status, 503);
        EXPECT_EQ(json::parse(health->body)["status"], "storage_unavailable");
    }
    // PostgreSQL is back: the same action now goes through, and the match plays to its end.
    const json done = h.request(mover, {{"type", "act"}, {"version", before["version"]}, {"action", action}});
    EXPECT_EQ(done["type"], "ok") << done.dump();
    EXPECT_GT(h.play(cs), 20);
    EXPECT_EQ(h.last(cs[0], "table")["state"], "finished");
    EXPECT_EQ(h.get("/healthz")->status, 200);
    // Stored once: one match in the archive, one match on each player's profile.
    const json listed = json::parse(h.get("/api/matches")->body);
    ASSERT_EQ(listed["matches"].size(), 1u);
    EXPECT_EQ(listed["matches"][0]["id"], tid + "-1");
    for (const char* n : {"Layla", "Omar", "Rana", "Sami"})
        EXPECT_EQ(json::parse(h.get(std::string("/api/players/") + n)->body)["matches"], 1) << n;
}

TEST(PostgresStorage, HealthzSaysWhenTheServerDoesNotAnswer) {
    const std::string url = pg().fresh_url();
    testing::HallHarness h(url);
    pg().stop_fast();
    const auto down = h.get("/healthz");
    pg().start();
    ASSERT_TRUE(down);
    EXPECT_EQ(down->status, 503);
    EXPECT_EQ(json::parse(down->body), json({{"status", "storage_unavailable"}, {"code", "storage_unavailable"}, {"storage", "postgresql"}}));
    const auto up = h.get("/healthz");  // answers again: recovered
    ASSERT_TRUE(up);
    EXPECT_EQ(up->status, 200);
}

/// GET `path` from 127.0.0.1:`port` over a plain socket: the status line's code and the body.
std::pair<int, std::string> http_get(int port, const std::string& path) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        if (fd >= 0) ::close(fd);
        return {0, ""};
    }
    const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::write(fd, req.data(), req.size()) != static_cast<ssize_t>(req.size())) {
        ::close(fd);
        return {0, ""};
    }
    std::string reply;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) reply.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    const auto body = reply.find("\r\n\r\n");
    if (reply.size() < 12 || body == std::string::npos) return {0, reply};
    return {std::stoi(reply.substr(9, 3)), reply.substr(body + 4)};
}

TEST(PostgresStorage, TarneebServeStoresInPostgresWithThePostgresFlag) {
    const std::string url = pg().fresh_url();
    int out[2];
    ASSERT_EQ(::pipe(out), 0);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the test
        if (::getppid() != parent) ::_exit(125);
        ::dup2(out[1], 1);
        ::close(out[0]);
        std::vector<std::string> args{"tarneeb", "serve", "--address", "127.0.0.1", "--port", "0", "--no-static",
                                      "--postgres", url, "--log-level", "warn"};
        std::vector<char*> argv;
        for (auto& arg : args) argv.push_back(arg.data());
        argv.push_back(nullptr);
        ::execv(TARNEEB_BINARY, argv.data());
        ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    for (char ch; ::read(out[0], &ch, 1) == 1 && ch != '\n';) line.push_back(ch);  // "listening on ADDRESS:PORT"
    ::close(out[0]);
    ASSERT_EQ(line.rfind("listening on ", 0), 0u) << line;
    const int port = std::stoi(line.substr(line.rfind(':') + 1));
    const auto health = http_get(port, "/healthz");
    EXPECT_EQ(health.first, 200);
    EXPECT_EQ(health.second, R"({"status":"ok","storage":"postgresql"})");
    EXPECT_EQ(http_get(port, "/api/leaderboard"), (std::pair<int, std::string>{200, R"({"players":[]})"}));
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    // It made the schema there.
    pqxx::connection c(url);
    pqxx::work w(c);
    EXPECT_EQ(w.exec("SELECT version FROM schema_version")[0][0].as<int>(), kPostgresSchemaVersion);
}

}  // namespace
}  // namespace tarneeb::server
