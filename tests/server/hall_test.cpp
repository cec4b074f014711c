// The hall, tables and storage without sockets: the whole protocol driven message by message
// with a fake clock (docs/protocol.md).
#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include "hall_harness.hpp"
#include "../room/hidden_check.hpp"
#include "../store/match_rows.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"
#include "test_bot.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;
using testing::match_row;

struct Harness : testing::HallHarness {
    using HallHarness::HallHarness;
};

std::vector<json> all_events(Harness& h, ConnId c) {
    std::vector<json> out;
    for (const auto& f : h.frames[c]) {
        auto j = json::parse(f);
        if (j["type"] == "table")
            for (auto& e : j["events"]) out.push_back(e);
    }
    return out;
}

TEST(Protocol, ActionsRoundTripThroughJsonAndJournalText) {
    std::vector<Action> all{Action::pass()};
    for (int b = 7; b <= 13; ++b) all.push_back(Action::bid(b));
    for (Suit s : kSuits) all.push_back(Action::name_trump(s));
    for (int i = 0; i < 52; ++i) all.push_back(Action::play(Card::from_dense(i)));
    for (Action a : all) {
        EXPECT_EQ(parse_action_text(action_text(a)), a) << action_text(a);
        EXPECT_EQ(parse_action(action_json(a)), a) << action_json(a).dump();
    }
    EXPECT_FALSE(parse_action(json{{"call", "maybe"}}));
    EXPECT_FALSE(parse_action(json{{"card", "1X"}}));
    EXPECT_FALSE(parse_action(json{{"card", "AS"}, {"call", 7}}));
    EXPECT_FALSE(parse_action_text("t?"));
}

TEST(Hall, SignInReconnectAndNames) {
    Harness h;
    const ConnId a = h.connect(), b = h.connect();
    h.send(a, {{"type", "list"}});
    EXPECT_EQ(h.last_reply(a)["code"], "not_signed_in");
    const std::string token = h.sign_in(a, "Layla");
    ASSERT_EQ(token.size(), 32u);
    h.send(b, {{"type", "hello"}, {"name", "Layla"}});
    EXPECT_EQ(h.last_reply(b)["code"], "name_taken");
    h.send(b, {{"type", "hello"}, {"name", " bad name"}});
    EXPECT_EQ(h.last_reply(b)["code"], "bad_name");
    h.send(b, {{"type", "hello"}, {"token", "00"}});
    EXPECT_EQ(h.last_reply(b)["code"], "unknown_token");
    h.send(b, {{"type", "hello"}, {"token", token}, {"id", 7}});
    EXPECT_EQ(h.last_reply(b)["name"], "Layla");
    EXPECT_EQ(h.last_reply(b)["id"], 7);
    h.send(b, {{"type", "ping"}, {"id", "x"}});
    EXPECT_EQ(h.last_reply(b), (json{{"type", "pong"}, {"id", "x"}}));
}

TEST(Hall, NamesInAnyScriptUniqueUnderCaseAndConfusables) {
    HallConfig cfg = Harness::config();
    cfg.reserved_names = {"random", "heuristic", "pimc"};
    Harness h(":memory:", cfg);
    const ConnId a = h.connect(), b = h.connect(), c = h.connect(), d = h.connect();
    ASSERT_FALSE(h.sign_in(a, "Layla").empty());
    for (const char* twin : {"LayIa", "Lay1a", "layla", "LAYLA", "L\xD0\xB0yla" /* Cyrillic a */}) {
        h.send(b, {{"type", "hello"}, {"name", twin}});
        const json r = h.last_reply(b);
        EXPECT_TRUE(r["code"] == "name_taken" || r["code"] == "bad_name") << twin << ": " << r.dump();
    }
    h.send(b, {{"type", "hello"}, {"name", "LayIa"}});
    EXPECT_EQ(h.last_reply(b)["code"], "name_taken");
    // Arabic, and Zoë typed decomposed: welcomed under the NFC name.
    ASSERT_FALSE(h.sign_in(b, "\xD9\x84\xD9\x8A\xD9\x84\xD9\x89").empty());  // ليلى
    EXPECT_EQ(h.last(b, "welcome")["name"], "\xD9\x84\xD9\x8A\xD9\x84\xD9\x89");
    const std::string zoe = h.sign_in(c, "Zoe\xCC\x88");
    ASSERT_FALSE(zoe.empty());
    EXPECT_EQ(h.last(c, "welcome")["name"], "Zo\xC3\xAB");
    // Her match list is found under either spelling of the URL.
    EXPECT_EQ(json::parse(h.get("/api/players/Zoe%CC%88/matches")->body)["name"], "Zo\xC3\xAB");
    h.send(d, {{"type", "hello"}, {"name", "ZO\xC3\x8B"}});  // ZOË
    EXPECT_EQ(h.last_reply(d)["code"], "name_taken");
    // Refused: bidi override, zero-width joiner, control, a bot's name and its look-alike.
    for (const char* bad : {"Lay\xE2\x80\xAEla", "Lay\xE2\x80\x8Dla", "Lay\x01la", "heuristic", "PIMC", "rand0m"}) {
        h.send(d, {{"type", "hello"}, {"name", bad}, {"id", "n"}});
        const json r = h.last_reply(d);
        EXPECT_EQ(r["code"], "bad_name") << bad;
        EXPECT_EQ(r["id"], "n");
        EXPECT_NE(r["message"], "bad_name") << "the message says why";
    }
    EXPECT_FALSE(h.hall.guest(d));
}

TEST(Hall, OldDatabasesGetNameKeysAndOlderNameWinsACollision) {
    const auto path = std::filesystem::temp_directory_path() / ("tarneeb_names_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(path);
    {
        // The schema before name keys, with two names that are one name now.
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db,
                               "CREATE TABLE players(name TEXT PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL,"
                               " rating REAL NOT NULL DEFAULT 1500, matches INTEGER NOT NULL DEFAULT 0,"
                               " wins INTEGER NOT NULL DEFAULT 0);",
                               nullptr, nullptr, nullptr),
                  SQLITE_OK);
        const std::string insert = "INSERT INTO players(name, token_hash, rating) VALUES('Layla', '" + hash_token("tok-old") +
                                   "', 1600), ('layla', '" + hash_token("tok-new") + "', 1400), ('Omar', '" +
                                   hash_token("tok-omar") + "', 1500)";
        ASSERT_EQ(sqlite3_exec(db, insert.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    {
        SqliteStorage s(path.string());
        // Both old players keep their names and tokens.
        EXPECT_EQ(s.name_for_token("tok-old"), "Layla");
        EXPECT_EQ(s.name_for_token("tok-new"), "layla");
        // The key belongs to the older one: no new look-alike, and Omar's key is set too.
        EXPECT_FALSE(s.register_name("LAYLA", "tok-1"));
        EXPECT_FALSE(s.register_name("0mar", "tok-2"));
        EXPECT_TRUE(s.register_name("Sami", "tok-3"));
    }
    {
        SqliteStorage s(path.string());  // opening again migrates nothing and keeps the keys
        EXPECT_FALSE(s.register_name("LayIa", "tok-4"));
        EXPECT_EQ(s.name_for_token("tok-3"), "Sami");
    }
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
}

// The list's paging, privacy and cursors on both backends: storage_test.cpp.

TEST(Storage, OldDatabasesGetMatchPrivacyFromTheirTablesSettings) {
    const auto path = std::filesystem::temp_directory_path() / ("tarneeb_matches_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(path);
    {
        // The schema before the public match list: matches without private and rules.
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        const char* sql =
            "CREATE TABLE tables(n INTEGER PRIMARY KEY AUTOINCREMENT, settings TEXT NOT NULL, live INTEGER NOT NULL DEFAULT 1);"
            "CREATE TABLE matches(id TEXT PRIMARY KEY, table_id TEXT NOT NULL, finished INTEGER NOT NULL,"
            " status TEXT NOT NULL, winner INTEGER NOT NULL, score0 INTEGER NOT NULL, score1 INTEGER NOT NULL, record TEXT NOT NULL);"
            "CREATE TABLE match_players(match_id TEXT NOT NULL, name TEXT NOT NULL, seat INTEGER NOT NULL, bot INTEGER NOT NULL);"
            "INSERT INTO tables(n, settings, live) VALUES (1, '{\"preset\":\"classic\",\"private\":false}', 0),"
            " (2, '{\"preset\":\"levantine\",\"private\":true}', 0);"
            "INSERT INTO matches VALUES ('t1-1', 't1', 100, 'won', 0, 31, 4, '{\"format\":\"tarneeb-record/1\",\"rules\":\"classic\"}'),"
            " ('t2-1', 't2', 200, 'won', 1, 3, 31, '{}'), ('t9-1', 't9', 300, 'closed', -1, 0, 0, '{}');"
            "INSERT INTO match_players VALUES ('t1-1', 'Layla', 0, 0), ('t1-1', 'Omar', 1, 0), ('t1-1', 'Rana', 2, 0), ('t1-1', 'Sami', 3, 0);";
        ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
        sqlite3_close(db);
    }
    for (int open = 0; open < 2; ++open) {  // the second opening migrates nothing
        SqliteStorage s(path.string());
        const auto page = s.public_matches(20, std::nullopt);
        ASSERT_TRUE(page);
        // t1 was public; t2 private; t9's table is unknown: private (never listed by mistake).
        // (The second time, t3-1 stored below comes first.)
        ASSERT_EQ((*page)["matches"].size(), 1u + static_cast<unsigned>(open));
        const json& t1 = (*page)["matches"].back();
        EXPECT_EQ(t1["id"], "t1-1");
        EXPECT_EQ(t1["rules"], "classic");
        EXPECT_EQ(t1["players"], json({"Layla", "Omar", "Rana", "Sami"}));
        EXPECT_EQ(s.match_record("t2-1"), "{}");
        // New matches are stored with their own flag.
        s.store_match(match_row("t3-" + std::to_string(open + 1), 400 + open, false));
        EXPECT_EQ((*s.public_matches(20, std::nullopt))["matches"].size(), 2u + static_cast<unsigned>(open));
    }
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
}

TEST(Hall, FourPlayersPlayAWholeMatchAndNoCardLeaks) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 11}});
    h.send(cs[0], {{"type", "start"}});
    const int actions = h.play(cs);
    EXPECT_GT(actions, 20);
    const auto t = h.last(cs[2], "table");
    EXPECT_EQ(t["state"], "finished");
    const auto events = all_events(h, cs[2]);
    ASSERT_EQ(events.back()["event"], "match_over");
    const std::string match_id = events.back()["record"];
    EXPECT_EQ(match_id, tid + "-1");

    const auto rec = h.get("/api/matches/" + match_id);
    ASSERT_TRUE(rec);
    ASSERT_EQ(rec->status, 200);
    const auto replayed = records::replay(rec->body);
    EXPECT_FALSE(replayed.error.has_value());
    EXPECT_TRUE(replayed.match.over());
    const json record = json::parse(rec->body);
    // "result": the record's tarneeb-result/1, every trick in it.
    EXPECT_EQ(record["result"], records::result_json(replayed));
    EXPECT_EQ(record["result"]["deals"].back()["trick_list"].size(), 13u);
    const json listed = json::parse(h.get("/api/matches")->body);
    ASSERT_EQ(listed["matches"].size(), 1u);
    EXPECT_EQ(listed["matches"][0]["id"], match_id);
    EXPECT_EQ(listed["matches"][0]["players"], json({"Layla", "Omar", "Rana", "Sami"}));
    EXPECT_EQ(listed["matches"][0]["scores"], record["result"]["totals"]);
    EXPECT_EQ(h.get("/api/matches?limit=x")->status, 400);
    for (int s = 0; s < 4; ++s) {
        const auto leaks = testing::hidden_leaks(h.frames[cs[static_cast<std::size_t>(s)]], s, 1, record);
        EXPECT_TRUE(leaks.empty()) << "seat " << s << ": " << leaks.front();
    }
    // The check above saw the fields of issue 14 filled in: tricks in progress, standing bids,
    // the time left on a turn.
    int current_tricks = 0, standing_bids = 0, remaining = 0;
    for (const auto& f : h.frames[cs[0]]) {
        const auto j = json::parse(f);
        if (j["type"] != "table" || !j["round"].is_object()) continue;
        current_tricks += j["round"]["current_trick"].is_object() && !j["round"]["current_trick"]["cards"].empty();
        standing_bids += j["round"]["phase"] == "auction" && j["round"]["standing_bid"].is_object();
        remaining += j["remaining_ms"].is_number();
    }
    EXPECT_GT(current_tricks, 10);
    EXPECT_GT(standing_bids, 0);
    EXPECT_GT(remaining, 10);
    const auto list = json::parse(h.get("/api/players/Rana/matches")->body);
    ASSERT_EQ(list["matches"].size(), 1u);
    EXPECT_EQ(list["matches"][0]["id"], match_id);
    const auto board = json::parse(h.get("/api/leaderboard")->body);
    EXPECT_EQ(board["players"].size(), 4u);
    EXPECT_EQ(h.get("/api/matches/nope")->status, 404);

    // A second match at the same table.
    h.send(cs[1], {{"type", "start"}});
    EXPECT_EQ(h.last(cs[1], "table")["match"], 2);
    h.play(cs);
    EXPECT_EQ(h.last(cs[1], "table")["state"], "finished");
    EXPECT_EQ(json::parse(h.get("/api/players/Rana/matches")->body)["matches"].size(), 2u);
}

TEST(Hall, RejectedActionsChangeNothing) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs);
    h.send(cs[0], {{"type", "start"}});
    const auto t = h.last(cs[0], "table");
    const int to_act = t["round"]["to_act"];
    const std::uint64_t v = t["version"];
    const ConnId actor = cs[static_cast<std::size_t>(to_act)];
    const ConnId other = cs[static_cast<std::size_t>((to_act + 1) % 4)];
    const ConnId observer = cs[static_cast<std::size_t>((to_act + 2) % 4)];
    const auto frames_before = h.frames[observer].size();

    h.send(other, {{"type", "act"}, {"version", v}, {"action", {{"call", "pass"}}}});
    EXPECT_EQ(h.last_reply(other)["code"], "out_of_turn");
    h.send(actor, {{"type", "act"}, {"version", v - 1}, {"action", {{"call", "pass"}}}});
    EXPECT_EQ(h.last_reply(actor)["code"], "stale");
    h.send(actor, {{"type", "act"}, {"version", v}, {"action", {{"call", 6}}}});
    EXPECT_EQ(h.last_reply(actor)["code"], "bad_bid");
    h.send(actor, {{"type", "act"}, {"version", v}, {"action", {{"card", "AS"}}}});
    EXPECT_NE(h.last_reply(actor)["code"], nullptr);
    h.send(actor, {{"type", "act"}, {"version", v}, {"action", {{"dance", 1}}}});
    EXPECT_EQ(h.last_reply(actor)["code"], "bad_action");
    EXPECT_EQ(h.frames[observer].size(), frames_before);  // nobody else heard of it

    h.send(actor, {{"type", "act"}, {"version", v}, {"action", {{"call", 7}}}});
    EXPECT_EQ(h.last(actor, "ok")["version"], v + 1);
    // The same message again: a duplicate is stale.
    h.send(actor, {{"type", "act"}, {"version", v}, {"action", {{"call", 7}}}});
    EXPECT_EQ(h.last_reply(actor)["code"], "stale");
    EXPECT_EQ(h.last(cs[0], "table")["version"], v + 1);
}

TEST(Hall, TurnTimerAppliesTheDefaultActionOnce) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 5}});
    h.send(cs[0], {{"type", "start"}});
    auto t = h.last(cs[0], "table");
    const Millis deadline = t["deadline_ms"];
    EXPECT_EQ(deadline, h.now + 5000);
    EXPECT_EQ(t["remaining_ms"], 5000);  // deadline − the server's now, sent with it
    const int to_act = t["round"]["to_act"];
    const std::uint64_t v = t["version"];
    // The race: at the deadline, the player's action arrives first; the tick then finds a new
    // turn whose deadline is later, so exactly one action was applied.
    h.now = deadline;
    h.send(cs[static_cast<std::size_t>(to_act)], {{"type", "act"}, {"version", v}, {"action", {{"call", 8}}}});
    h.tick();
    t = h.last(cs[0], "table");
    EXPECT_EQ(t["version"], v + 1);
    // The other order: the timer first, then the late action is stale.
    const std::uint64_t v2 = t["version"];
    const int next_actor = t["round"]["to_act"];
    h.now = t["deadline_ms"].get<Millis>();
    h.tick();
    h.send(cs[static_cast<std::size_t>(next_actor)], {{"type", "act"}, {"version", v2}, {"action", {{"call", 9}}}});
    EXPECT_EQ(h.last_reply(cs[static_cast<std::size_t>(next_actor)])["code"], "stale");
    t = h.last(cs[0], "table");
    EXPECT_EQ(t["version"], v2 + 1);
    EXPECT_EQ(t["events"][0]["event"], "call");
    EXPECT_EQ(t["events"][0]["call"], "pass");
    EXPECT_EQ(t["events"][0]["timeout"], true);
}

// `hint`: the heuristic bot's choice for the player's own seat, legal, worked out off the event
// loop; only the player to act may ask, and a spectator may not.
TEST(Hall, HintSuggestsALegalActionToThePlayerToAct) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 0}, {"rated", false}});  // casual: hints are given
    h.send(cs[0], {{"type", "start"}});
    for (int step = 0; step < 12; ++step) {  // the auction, the trump and the first cards
        auto t = h.last(cs[0], "table");
        const std::size_t to_act = t["round"]["to_act"];
        const std::size_t other = (to_act + 1) % 4;
        h.send(cs[other], {{"type", "hint"}, {"id", 70 + step}});
        EXPECT_EQ(h.last_reply(cs[other])["code"], "out_of_turn");
        h.send(cs[to_act], {{"type", "hint"}, {"id", 100 + step}});
        const json hint = h.last(cs[to_act], "hint");
        ASSERT_EQ(hint["id"], 100 + step);
        EXPECT_EQ(hint["version"], t["version"]);
        const json mine = h.last(cs[to_act], "table");
        EXPECT_NE(std::find(mine["legal"].begin(), mine["legal"].end(), hint["action"]), mine["legal"].end()) << hint.dump();
        // Taking the hint is a legal act.
        h.send(cs[to_act], {{"type", "act"}, {"version", t["version"]}, {"action", hint["action"]}});
        EXPECT_EQ(h.last(cs[0], "table")["version"], t["version"].get<std::uint64_t>() + 1);
    }
    const ConnId watcher = h.connect();
    h.send(watcher, {{"type", "hello"}, {"name", "Watcher"}});
    h.send(watcher, {{"type", "join"}, {"table", h.last(cs[0], "table")["table"]}});
    h.send(watcher, {{"type", "hint"}, {"id", 1}});
    EXPECT_EQ(h.last_reply(watcher)["code"], "spectator");
}

// Issue 27: a match is rated only when four people started it at a table its creator did not
// make casual; the lobby, the table message and the record say so; hints are off where it is.
TEST(Hall, OnlyFourPeopleAtATableNotMadeCasualPlayARatedMatchAndGetNoHints) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"turn_seconds", 0}, {"target", 1}});
    EXPECT_EQ(h.last(cs[0], "table")["rated"], true) << "four people waiting: it would be rated";
    h.send(cs[0], {{"type", "start"}});
    const json t = h.last(cs[0], "table");
    EXPECT_EQ(t["rated"], true);
    const std::size_t to_act = t["round"]["to_act"];
    EXPECT_EQ(h.request(cs[to_act], {{"type", "hint"}})["code"], "hints_off");
    const ConnId lobby = h.connect();
    h.sign_in(lobby, "Lobby");
    h.send(lobby, {{"type", "list"}});
    EXPECT_EQ(h.last(lobby, "tables")["tables"][0]["rated"], true);
    // A leaver's seat still belongs to the leaver: the match stays rated.
    h.send(cs[3], {{"type", "leave"}});
    EXPECT_EQ(h.last(cs[0], "table")["rated"], true);

    // Three people and a bot: not rated, hints given.
    Harness b;
    std::vector<ConnId> three{b.connect(), b.connect(), b.connect()};
    seat_four(b, three, {{"turn_seconds", 0}, {"target", 1}});
    b.send(three[0], {{"type", "add_bot"}, {"seat", 3}});
    EXPECT_EQ(b.last(three[0], "table")["rated"], false);
    b.send(three[0], {{"type", "start"}});
    b.settle();
    json bt = b.last(three[0], "table");
    EXPECT_EQ(bt["rated"], false);
    // Played to its end: stored, in the record as not rated, nobody's rating changed.
    for (int i = 0; i < 2000 && b.last(three[0], "table")["result"].is_null(); ++i) {
        b.play(three);
        b.now += 1000;
        b.tick();
    }
    bt = b.last(three[0], "table");
    ASSERT_FALSE(bt["result"].is_null()) << "the match ended";
    const auto stored = b.get("/api/matches/" + bt["table"].get<std::string>() + "-1");
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->status, 200) << stored->body;
    EXPECT_EQ(json::parse(stored->body)["rated"], false);
    EXPECT_DOUBLE_EQ(b.storage.rating("Layla"), 1500.0);

    // Four people at a casual table: not rated.
    Harness c;
    std::vector<ConnId> four{c.connect(), c.connect(), c.connect(), c.connect()};
    seat_four(c, four, {{"rated", false}});
    EXPECT_EQ(c.last(four[0], "table")["rated"], false);
    (void)tid;
}

// Issue 27: the only person at a table of bots who left mid-match erased it (closing the
// socket stored it). Every started match is stored: one whose table closes under way, as
// abandoned, in the player's history, rated for nobody.
TEST(Hall, AMatchWhoseLastPersonLeavesIsStoredAsAbandoned) {
    for (const bool right_after_start : {true, false}) {
        SCOPED_TRACE(right_after_start ? "right after start" : "mid-deal");
        Harness h;
        const ConnId a = h.connect();
        const std::string token = h.sign_in(a, "Layla");
        h.send(a, {{"type", "create"}, {"turn_seconds", 0}});
        const std::string tid = h.last(a, "created")["table"];
        h.send(a, {{"type", "join"}, {"table", tid}, {"seat", 0}});
        for (int s = 1; s < 4; ++s) h.send(a, {{"type", "add_bot"}, {"seat", s}});
        h.send(a, {{"type", "start"}});
        if (!right_after_start) {
            h.play({a}, 3);
            for (int i = 0; i < 20; ++i) {
                h.now += 1000;
                h.tick();
                h.play({a}, 1);
            }
        }
        EXPECT_EQ(h.request(a, {{"type", "leave"}})["type"], "ok");
        h.settle();
        const auto history = h.get("/api/players/Layla/matches", token);
        ASSERT_TRUE(history);
        const json matches = json::parse(history->body)["matches"];
        ASSERT_EQ(matches.size(), 1u) << history->body;
        EXPECT_EQ(matches[0]["id"], tid + "-1");
        EXPECT_EQ(matches[0]["status"], "abandoned");
        const auto record = h.get("/api/matches/" + tid + "-1", token);
        ASSERT_TRUE(record);
        ASSERT_EQ(record->status, 200) << record->body;
        EXPECT_EQ(json::parse(record->body)["players"][0], "Layla");
        EXPECT_DOUBLE_EQ(h.storage.rating("Layla"), 1500.0);
    }
}

// Issue 27 (sandbagging): leaving a rated match of four people cannot dodge its rating. When
// everyone leaves, the match is stored abandoned and rated as a loss for the team of the first
// who left, and the history says it was rated.
TEST(Hall, AnAbandonedRatedMatchIsALossForTheFirstLeaversTeam) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs, 3);
    // Omar (seat 1, team 1) leaves first; the others follow.
    for (const std::size_t i : {1u, 0u, 2u, 3u}) EXPECT_EQ(h.request(cs[i], {{"type", "leave"}})["type"], "ok");
    h.settle();
    const auto history = h.get("/api/players/Layla/matches");
    ASSERT_TRUE(history);
    const json matches = json::parse(history->body)["matches"];
    ASSERT_EQ(matches.size(), 1u) << history->body;
    EXPECT_EQ(matches[0]["status"], "abandoned");
    EXPECT_EQ(matches[0]["winner"], 0);
    EXPECT_EQ(matches[0]["rated"], true);
    EXPECT_DOUBLE_EQ(h.storage.rating("Layla"), 1516.0);
    EXPECT_DOUBLE_EQ(h.storage.rating("Rana"), 1516.0);
    EXPECT_DOUBLE_EQ(h.storage.rating("Omar"), 1484.0);
    EXPECT_DOUBLE_EQ(h.storage.rating("Sami"), 1484.0);
    (void)tid;
}

// Issue 28 defect 5: at match over each person sees how the match moved its rating: after the
// match is stored, everyone still at the table gets `ratings` (before and after, by seat).
TEST(Hall, AfterARatedMatchEveryoneAtTheTableGetsTheRatingsBeforeAndAfter) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"turn_seconds", 0}, {"target", 1}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    h.settle();
    const json r = h.last(cs[2], "ratings");
    ASSERT_FALSE(r.is_null()) << "no ratings message";
    EXPECT_EQ(r["table"], tid);
    EXPECT_EQ(r["match"], tid + "-1");
    ASSERT_EQ(r["seats"].size(), 4u);
    double sum = 0;
    for (std::size_t s = 0; s < 4; ++s) {
        const json& seat = r["seats"][s];
        ASSERT_TRUE(seat.is_object()) << r;
        EXPECT_DOUBLE_EQ(seat["before"].get<double>(), 1500.0);
        EXPECT_DOUBLE_EQ(seat["after"].get<double>(), h.storage.rating(seat["name"].get<std::string>())) << "what was stored";
        sum += seat["after"].get<double>() - 1500.0;
    }
    EXPECT_DOUBLE_EQ(sum, 0.0) << "one team's gain is the other's loss";
    EXPECT_NE(r["seats"][0]["after"], 1500.0);
    // A casual table's match moves no rating: no message.
    Harness casual;
    std::vector<ConnId> ds{casual.connect(), casual.connect(), casual.connect(), casual.connect()};
    seat_four(casual, ds, {{"turn_seconds", 0}, {"target", 1}, {"rated", false}});
    casual.send(ds[0], {{"type", "start"}});
    casual.play(ds);
    casual.settle();
    EXPECT_FALSE(casual.last(ds[0], "table")["result"].is_null()) << "the match is over";
    EXPECT_TRUE(casual.last(ds[0], "ratings").is_null());
}

// Issue 27: fresh guests from one address started 300 tables of bots in 4 s and disconnected,
// each left to stand-ins (with outside engines: three processes a table). Tables started from
// one address are limited, and a table nobody is connected to is closed after unattended_ms.
TEST(Hall, StartedTablesPerAddressAreLimitedAndUnattendedOnesClose) {
    HallConfig cfg = Harness::config();
    cfg.max_playing_tables_per_address = 2;
    cfg.timing.bot_delay_ms = 1000;  // one bot action per tick below: the matches stay under way
    Harness h(":memory:", cfg);
    auto bots_table = [&](const std::string& name, const std::string& address) {
        const ConnId c = h.connect(address);
        h.sign_in(c, name);
        h.send(c, {{"type", "create"}, {"turn_seconds", 0}, {"target", 500}});
        const std::string tid = h.last(c, "created")["table"];
        h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
        for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}});
        return std::pair{c, h.request(c, {{"type", "start"}})};
    };
    const auto [a, first] = bots_table("Guest1", "10.6.0.1");
    const auto [b, second] = bots_table("Guest2", "10.6.0.1");
    const auto [c, third] = bots_table("Guest3", "10.6.0.1");
    EXPECT_EQ(first["type"], "ok");
    EXPECT_EQ(second["type"], "ok");
    EXPECT_EQ(third["code"], "too_many_tables");
    EXPECT_EQ(bots_table("Guest4", "10.6.0.2").second["type"], "ok") << "another address";
    // The first two guests go away: their seats are held, then stand-ins play on, until the
    // tables have had nobody connected for unattended_ms.
    h.hall.closed(a, h.now);
    h.hall.closed(b, h.now);
    h.settle();
    h.now += 1000;
    h.tick();
    EXPECT_EQ(h.hall.host().summaries().size(), 4u);
    h.now += cfg.unattended_ms;
    h.tick();
    EXPECT_EQ(h.hall.host().summaries().size(), 2u) << "closed, their matches stored as abandoned";
    const auto history = h.get("/api/players/Guest1/matches");
    ASSERT_TRUE(history);
    EXPECT_EQ(json::parse(history->body)["matches"][0]["status"], "abandoned") << history->body;
    // The address may start tables again.
    EXPECT_EQ(bots_table("Guest5", "10.6.0.1").second["type"], "ok");
}

// "history" (the finished rounds) goes to a connection when it does not have it yet: in its
// first table message of the table, and again only when a round has ended (docs/protocol.md).
TEST(Hall, AConnectionGetsTheHistoryOnlyWhenItChanged) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    const auto tables = [&](ConnId c) {
        std::vector<json> out;
        for (const auto& f : h.frames[c])
            if (auto j = json::parse(f); j["type"] == "table") out.push_back(j);
        return out;
    };
    ASSERT_TRUE(tables(cs[1]).front().contains("history"));
    const std::size_t before = tables(cs[1]).size();
    h.play(cs, 80);  // past the end of the first round
    const auto seen = tables(cs[1]);
    int with = 0, ended = 0;
    for (std::size_t k = before; k < seen.size(); ++k) {
        const bool round_ended = std::any_of(seen[k]["events"].begin(), seen[k]["events"].end(), [](const json& e) {
            return e["event"] == "round_scored" || e["event"] == "passed_out";
        });
        EXPECT_EQ(seen[k].contains("history"), round_ended) << "message " << k;
        with += seen[k].contains("history");
        ended += round_ended;
    }
    ASSERT_GT(ended, 0);
    EXPECT_EQ(with, ended);
    EXPECT_GE(tables(cs[1]).back().value("history", json::array()).size() + with, 1u);
    // A new connection of the same guest (a reload) gets the history in its first table message.
    const std::string token = h.last(cs[1], "welcome")["token"];
    const ConnId again = h.connect();
    h.send(again, {{"type", "hello"}, {"token", token}});
    h.send(cs[0], {{"type", "ping"}});
    const auto fresh = tables(again);
    ASSERT_FALSE(fresh.empty());
    EXPECT_TRUE(fresh.front().contains("history"));
    EXPECT_GE(fresh.front()["history"].size(), 1u);
}

// After a deal ends, the round summary holds the next deal's first turn: its clock starts when
// the summary ends (docs/protocol.md `summary_ms`), so a player loses none of the turn's time.
TEST(Hall, TheRoundSummaryHoldsTheNextDealsClock) {
    HallConfig cfg = Harness::config();
    cfg.timing.summary_ms = 3000;
    Harness h(":memory:", cfg);
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 5}});
    h.send(cs[0], {{"type", "start"}});
    auto t = h.last(cs[0], "table");
    EXPECT_FALSE(t.contains("summary_ms"));  // the first deal starts at once
    EXPECT_EQ(t["deadline_ms"], h.now + 5000);
    // All four pass: the deal is passed out and the next one is dealt.
    for (int i = 0; i < 4; ++i) {
        t = h.last(cs[0], "table");
        const int to_act = t["round"]["to_act"];
        h.send(cs[static_cast<std::size_t>(to_act)], {{"type", "act"}, {"version", t["version"]}, {"action", {{"call", "pass"}}}});
    }
    t = h.last(cs[0], "table");
    ASSERT_EQ(t["round"]["phase"], "auction");
    ASSERT_EQ(t["round"]["calls"].size(), 0u);  // a new deal
    EXPECT_EQ(t["summary_ms"], 3000);
    EXPECT_EQ(t["deadline_ms"], h.now + 3000 + 5000);
    EXPECT_EQ(t["remaining_ms"], 8000);
    const std::uint64_t v = t["version"];
    // No timeout during the summary and the whole turn after it...
    h.now += 3000 + 4999;
    h.tick();
    EXPECT_EQ(h.last(cs[0], "table")["version"], v);
    // ...then the timer acts, and the next turn has no summary pause.
    h.now += 1;
    h.tick();
    t = h.last(cs[0], "table");
    EXPECT_EQ(t["version"], v + 1);
    EXPECT_FALSE(t.contains("summary_ms"));
    EXPECT_EQ(t["deadline_ms"], h.now + 5000);
}

TEST(Hall, DisconnectBotTakesOverReconnectReclaims) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 0}});
    const std::string token = h.last(cs[1], "welcome")["token"];
    h.send(cs[0], {{"type", "start"}});
    h.hall.closed(cs[1], h.now);
    EXPECT_EQ(h.last(cs[0], "table")["events"][0]["event"], "disconnected");
    h.play({cs[0], cs[2], cs[3]}, 40);  // seat 1 holds the game up: nobody plays it yet
    h.now += 1000;
    const std::size_t heard = all_events(h, cs[0]).size();
    h.tick();
    // The take-over is told first; the stand-in's action (decided on a bot thread) follows.
    const auto since = all_events(h, cs[0]);
    bool took_over = false;
    for (std::size_t i = heard; i < since.size(); ++i) took_over |= since[i]["event"] == "bot_took_over" && since[i]["seat"] == 1;
    EXPECT_TRUE(took_over);
    auto t = h.last(cs[0], "table");
    EXPECT_EQ(t["seats"][1]["standin"], true);
    h.play({cs[0], cs[2], cs[3]}, 30);
    bool bot_played = false;
    for (auto& e : all_events(h, cs[0])) bot_played |= (e["event"] == "call" || e["event"] == "card") && e["seat"] == 1;
    EXPECT_TRUE(bot_played);
    const ConnId back = h.connect();
    h.send(back, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last(back, "welcome")["seat"], 1);
    t = h.last(back, "table");
    EXPECT_EQ(t["you"], 1);
    EXPECT_EQ(t["round"]["hand"].size(), static_cast<std::size_t>(t["round"]["cards_left"][1].get<int>()));
    EXPECT_FALSE(t["seats"][1].contains("standin"));
    // The player decides for seat 1 again: the game waits for it.
    h.play({cs[0], cs[2], cs[3]}, 50);
    t = h.last(back, "table");
    if (t["state"] == "playing") {
        EXPECT_EQ(t["round"]["to_act"], 1);
        EXPECT_FALSE(t["legal"].empty());
    }
}

// `version` counts the game's changes, not who is connected (docs/protocol.md "version"): a
// seat that drops or comes back is told to the table at the same version, and an action sent
// at that version is taken, so nobody's move is refused as stale because another player's
// connection blinked (issue 26: the document said every change increased it).
TEST(Hall, ASeatDroppingOrComingBackKeepsTheVersionAndAnActAtItIsTaken) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    const json before = h.last(cs[0], "table");
    ASSERT_EQ(before["state"], "playing");
    const int p = before["round"]["to_act"];
    const int q = (p + 1) % 4;
    const std::string token = h.last(cs[q], "welcome")["token"];
    const std::uint64_t v = before["version"];

    h.hall.closed(cs[q], h.now);
    json t = h.last(cs[p], "table");
    ASSERT_EQ(t["events"].size(), 1u);
    EXPECT_EQ(t["events"][0]["event"], "disconnected");
    EXPECT_EQ(t["version"], v);

    const ConnId back = h.connect();
    h.send(back, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last(back, "welcome")["seat"], q);
    t = h.last(cs[p], "table");
    EXPECT_EQ(t["events"][0]["event"], "reclaimed");
    EXPECT_EQ(t["version"], v);
    EXPECT_EQ(h.last(back, "table")["version"], v);

    const json ok = h.request(cs[p], {{"type", "act"}, {"version", v}, {"action", h.last(cs[p], "table")["legal"][0]}});
    EXPECT_EQ(ok["type"], "ok") << ok.dump();
    EXPECT_GT(ok["version"].get<std::uint64_t>(), v);
}

// A finished table can be watched (the lobby lists it as finished): a spectator who comes
// after the match gets its result and its whole score sheet (`history`), not an empty table.
TEST(Hall, ASpectatorOfAFinishedTableGetsItsResultAndEveryRound) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 5}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    const ConnId late = h.connect();
    h.sign_in(late, "Late");
    h.send(late, {{"type", "join"}, {"table", tid}});
    EXPECT_EQ(h.last_reply(late)["type"], "table");
    const json t = h.last(late, "table");
    ASSERT_FALSE(t.is_null());
    EXPECT_EQ(t["state"], "finished");
    EXPECT_TRUE(t["result"].is_object());
    const json record = json::parse(h.get("/api/matches/" + tid + "-1")->body);
    ASSERT_TRUE(t.contains("history"));
    EXPECT_EQ(t["history"].size(), record["deals"].size());
    EXPECT_EQ(t["history"].back()["totals"], t["scores"]);
}

TEST(Hall, SpectatorNeverGetsAHand) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 5}});
    const ConnId watcher = h.connect();
    h.sign_in(watcher, "Watcher");
    h.send(watcher, {{"type", "join"}, {"table", tid}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    int tables = 0;
    for (const auto& f : h.frames[watcher]) {
        auto j = json::parse(f);
        if (j["type"] != "table") continue;
        ++tables;
        EXPECT_TRUE(j["you"].is_null());
        EXPECT_TRUE(j["legal"].empty());
        if (j["round"].is_object()) { EXPECT_FALSE(j["round"].contains("hand")); }
    }
    EXPECT_GT(tables, 10);
    const json record = json::parse(h.get("/api/matches/" + tid + "-1")->body);
    // A spectator's allowed set is a seat's hand in hidden_leaks; check against no hand at all.
    for (const auto& f : h.frames[watcher]) {
        auto j = json::parse(f);
        if (j["type"] != "table" || !j["round"].is_object()) continue;
        const auto& deal = record["deals"][j["round"]["number"].get<std::size_t>() - 1];
        std::set<std::string> played;
        for (std::size_t i = 0; i < j["round"]["plays"].size(); ++i) played.insert(deal["play"][i]);
        for (const auto& c : j["round"]["plays"]) EXPECT_TRUE(played.count(c["card"]));
        for (const auto& m : testing::trick_mismatches(j["round"])) ADD_FAILURE() << m;
    }
    h.send(watcher, {{"type", "act"}, {"version", 1}, {"action", {{"call", "pass"}}}});
    EXPECT_EQ(h.last_reply(watcher)["code"], "spectator");
}

TEST(Hall, APlayerWhoLeavesMidMatchKeepsTheSeatsResult) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"target", 11}, {"turn_seconds", 0}});  // Layla, Omar, Rana, Sami
    h.send(cs[0], {{"type", "start"}});
    h.play(cs, 12);
    h.send(cs[1], {{"type", "leave"}, {"id", "bye"}});
    ASSERT_EQ(h.last_reply(cs[1])["type"], "ok");
    const std::vector<ConnId> rest{cs[0], cs[2], cs[3]};
    for (int i = 0; i < 100 && h.last(cs[0], "table")["state"] != "finished"; ++i) {
        h.play(rest);
        h.now += 1000;
        h.tick();
    }
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    EXPECT_EQ(h.last(cs[0], "table")["seats"][1]["bot"], true);  // the table still shows the bot
    std::string match_id;
    for (const auto& e : all_events(h, cs[0]))
        if (e["event"] == "match_over") match_id = e["record"];
    ASSERT_FALSE(match_id.empty());
    // The record and the ratings name the player who sat there at the start, not the bot.
    const json rec = json::parse(h.get("/api/matches/" + match_id)->body);
    EXPECT_EQ(rec["players"][1], "Omar");
    EXPECT_EQ(json::parse(h.get("/api/players/Omar/matches")->body)["matches"].size(), 1u);
    const json board = json::parse(h.get("/api/leaderboard")->body);
    std::map<std::string, json> by_name;
    for (const auto& p : board["players"]) by_name[p["name"]] = p;
    ASSERT_TRUE(by_name.count("Omar"));
    EXPECT_EQ(by_name["Omar"]["matches"], 1);
    EXPECT_EQ(by_name["Omar"]["rating"], by_name["Sami"]["rating"]);  // partners share the result
    EXPECT_EQ(by_name["Omar"]["wins"], by_name["Sami"]["wins"]);
    EXPECT_FALSE(by_name.count("heuristic"));
    EXPECT_FALSE(by_name.count("heuristic 2"));
    // The stand-in that finished the seat is shown under its own name, kind beside it.
    EXPECT_EQ(h.last(cs[0], "table")["seats"][1]["name"], "heuristic 2");
    EXPECT_EQ(h.last(cs[0], "table")["seats"][1]["kind"], "heuristic");
    // The next match at the table is the bot's seat (unrated).
    h.send(cs[0], {{"type", "start"}});
    for (int i = 0; i < 100 && h.last(cs[0], "table")["state"] != "finished"; ++i) {
        h.play(rest);
        h.now += 1000;
        h.tick();
    }
    ASSERT_EQ(h.last(cs[0], "table")["match"], 2);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    EXPECT_EQ(json::parse(h.get("/api/players/Omar/matches")->body)["matches"].size(), 1u);
}

TEST(Hall, AnalysisOfAFinishedDealIsOneJobOffTheHallsThreadThenServedFromTheDatabase) {
    // GET /api/matches/{id}/analysis?deal=N (issue 14, hall_analysis.cpp).
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 11}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    const std::string id = tid + "-1";
    const auto rec = h.get("/api/matches/" + id);
    ASSERT_TRUE(rec && rec->status == 200);
    const json record = json::parse(rec->body);
    int deal = -1;
    for (std::size_t i = 0; i < record["deals"].size() && deal < 0; ++i)
        if (record["deals"][i].contains("play") && record["deals"][i]["play"].size() == 52) deal = static_cast<int>(i);
    ASSERT_NE(deal, -1) << "no deal was played to its last card";
    const std::string target = "/api/matches/" + id + "/analysis?deal=" + std::to_string(deal);

    // Two requests before any of the hall's posted jobs run: both are answered 202 and one
    // job runs; settle() waits for it (the hall is idle once the result is stored).
    std::optional<HttpReply> first, second;
    h.hall.http_get(target, h.now, [&](HttpReply r) { first = std::move(r); });
    h.hall.http_get(target, h.now, [&](HttpReply r) { second = std::move(r); });
    h.settle();
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->status, 202) << first->body;
    EXPECT_EQ(second->status, 202) << second->body;
    const json pending = json::parse(first->body)["status"];
    EXPECT_TRUE(pending == "queued" || pending == "running") << pending;  // its thread may have started it
    const json metrics = json::parse(h.get("/metrics.json")->body)["analysis"];
    EXPECT_EQ(metrics, (json{{"queued", 0}, {"running", 0}, {"done", 1}, {"failed", 0}}));

    const auto done = h.get(target);
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, 200);
    const json a = json::parse(done->body);
    EXPECT_EQ(a["match"], id);
    EXPECT_EQ(a["deal"], deal);
    EXPECT_EQ(a["positions"].size(), 52u);
    EXPECT_EQ(h.storage.match_analysis(id, deal), std::optional<std::string>(done->body));

    EXPECT_EQ(h.get("/api/matches/t99-1/analysis?deal=0")->status, 404);
    EXPECT_EQ(h.get("/api/matches/" + id + "/analysis?deal=x")->status, 400);
    EXPECT_EQ(h.get("/api/matches/" + id + "/analysis")->status, 400);
    EXPECT_EQ(h.get("/api/matches/" + id + "/analysis?deal=" + std::to_string(record["deals"].size()))->status, 400);
}

TEST(Hall, BotsOfOneKindHaveDistinctNamesAtTheTableAndOnTheScoreSheet) {
    Harness h;
    const ConnId a = h.connect();
    h.sign_in(a, "Layla");
    h.send(a, {{"type", "create"}, {"target", 5}, {"turn_seconds", 0}});
    const std::string tid = h.last(a, "created")["table"];
    h.send(a, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) h.send(a, {{"type", "add_bot"}, {"seat", s}});
    json t = h.last(a, "table");
    std::set<std::string> names;
    for (int s = 1; s < 4; ++s) {
        const auto& seat = t["seats"][static_cast<std::size_t>(s)];
        EXPECT_EQ(seat["name"], "heuristic " + std::to_string(s + 1));
        EXPECT_EQ(seat["kind"], "heuristic");
        EXPECT_EQ(seat["bot"], true);
        names.insert(seat["name"].get<std::string>());
    }
    EXPECT_EQ(names.size(), 3u);
    EXPECT_FALSE(t["seats"][0].contains("kind"));  // a player has no kind
    // The lobby summary and the seated events carry the same name and kind.
    h.send(a, {{"type", "list"}});
    EXPECT_EQ(h.last(a, "tables")["tables"][0]["seats"][3]["name"], "heuristic 4");
    EXPECT_EQ(h.last(a, "tables")["tables"][0]["seats"][3]["kind"], "heuristic");
    int seated = 0;
    for (const auto& e : all_events(h, a)) {
        if (e["event"] != "seated" || e["bot"] != true) continue;
        EXPECT_EQ(e["name"], "heuristic " + std::to_string(e["seat"].get<int>() + 1));
        EXPECT_EQ(e["kind"], "heuristic");
        ++seated;
    }
    EXPECT_EQ(seated, 3);
    // A bot that leaves is named as it was shown.
    h.send(a, {{"type", "remove_bot"}, {"seat", 2}});
    EXPECT_EQ(h.last(a, "table")["events"][0]["name"], "heuristic 3");
    h.send(a, {{"type", "add_bot"}, {"seat", 2}, {"bot", "random"}});
    EXPECT_EQ(h.last(a, "table")["seats"][2]["name"], "random 3");
    EXPECT_EQ(h.last(a, "table")["seats"][2]["kind"], "random");
    // The stored match (the score sheet) names each bot as the table did.
    h.send(a, {{"type", "start"}});
    for (int i = 0; i < 200 && h.last(a, "table")["state"] != "finished"; ++i) h.play({a});
    ASSERT_EQ(h.last(a, "table")["state"], "finished");
    const json rec = json::parse(h.get("/api/matches/" + tid + "-1")->body);
    EXPECT_EQ(rec["players"], json({"Layla", "heuristic 2", "random 3", "heuristic 4"}));
}

TEST(Hall, CreateAnswersCreatedAndTheCreatorIsNotAtTheTable) {
    // docs/protocol.md "Lobby": `created` only; the creator joins with a seat (`ok` then `table`).
    Harness h;
    const ConnId a = h.connect();
    h.sign_in(a, "Layla");
    const std::size_t before = h.frames[a].size();
    h.send(a, {{"type", "create"}, {"id", 2}});
    ASSERT_EQ(h.frames[a].size(), before + 1);
    const json created = h.last_reply(a);
    EXPECT_EQ(created["type"], "created");
    EXPECT_EQ(created["id"], 2);
    ASSERT_TRUE(h.hall.guest(a));
    EXPECT_FALSE(h.hall.host().where(*h.hall.guest(a))) << "at no table";
    h.send(a, {{"type", "join"}, {"table", created["table"]}, {"seat", 0}, {"id", 3}});
    ASSERT_EQ(h.frames[a].size(), before + 3);
    EXPECT_EQ(json::parse(h.frames[a][before + 1])["type"], "ok");
    EXPECT_EQ(json::parse(h.frames[a][before + 2])["type"], "table");
}

TEST(Hall, LobbyBotsPrivateTablesAndErrors) {
    Harness h;
    const ConnId a = h.connect(), b = h.connect();
    h.sign_in(a, "Layla");
    h.sign_in(b, "Omar");
    h.send(a, {{"type", "create"}, {"private", true}, {"preset", "classic"}});
    const auto created = h.last(a, "created");
    const std::string tid = created["table"], code = created["code"];
    EXPECT_EQ(code.size(), 6u);
    h.send(b, {{"type", "list"}});
    EXPECT_TRUE(h.last(b, "tables")["tables"].empty());
    h.send(b, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    EXPECT_EQ(h.last_reply(b)["code"], "bad_code");
    h.send(b, {{"type", "join"}, {"table", "t999"}, {"seat", 0}});
    EXPECT_EQ(h.last_reply(b)["code"], "no_such_table");
    h.send(a, {{"type", "join"}, {"table", tid}, {"seat", 0}, {"code", code}});
    h.send(b, {{"type", "join"}, {"table", tid}, {"seat", 0}, {"code", code}});
    EXPECT_EQ(h.last_reply(b)["code"], "seat_taken");
    h.send(a, {{"type", "start"}});
    EXPECT_EQ(h.last_reply(a)["code"], "not_enough_players");
    h.send(a, {{"type", "add_bot"}, {"seat", 1}, {"bot", "nobody"}});
    EXPECT_EQ(h.last_reply(a)["code"], "unknown_bot");
    for (int s = 1; s < 4; ++s) h.send(a, {{"type", "add_bot"}, {"seat", s}});
    h.send(a, {{"type", "remove_bot"}, {"seat", 3}});
    h.send(a, {{"type", "add_bot"}, {"seat", 3}, {"bot", "random"}});
    h.send(a, {{"type", "create"}, {"target", 0}});
    EXPECT_EQ(h.last_reply(a)["code"], "bad_settings");
    h.send(a, {{"type", "start"}});
    const auto t = h.last(a, "table");
    EXPECT_EQ(t["state"], "playing");
    EXPECT_EQ(t["preset"], "classic");
    EXPECT_FALSE(t["legal"].empty());  // three bots with no delay: the human's turn comes at once
    h.send(a, {{"type", "add_bot"}, {"seat", 1}});
    EXPECT_EQ(h.last_reply(a)["code"], "table_playing");
    h.send(a, {{"type", "nonsense"}});
    EXPECT_EQ(h.last_reply(a)["code"], "unknown_type");
}

/// How many frames of `type` connection `c` got.
int count_frames(Harness& h, ConnId c, const std::string& type) {
    int n = 0;
    for (const auto& f : h.frames[c]) n += json::parse(f)["type"] == type;
    return n;
}

TEST(Hall, LobbyWatchersGetOneCoalescedPushPerIntervalOthersNothing) {
    // docs/protocol.md "Lobby": `list` with `watch` subscribes the connection to that page.
    Harness h;
    const ConnId watcher = h.connect(), lister = h.connect(), a = h.connect(), b = h.connect();
    h.sign_in(watcher, "Watcher");
    h.sign_in(lister, "Lister");
    h.sign_in(a, "Layla");
    h.sign_in(b, "Omar");
    h.send(watcher, {{"type", "list"}, {"watch", "yes"}, {"id", 1}});
    EXPECT_EQ(h.last_reply(watcher)["code"], "bad_message");
    h.send(watcher, {{"type", "list"}, {"watch", true}, {"id", 2}});
    EXPECT_EQ(h.last_reply(watcher)["id"], 2);
    EXPECT_TRUE(h.last_reply(watcher)["tables"].empty());
    h.send(lister, {{"type", "list"}});
    h.tick();
    EXPECT_EQ(count_frames(h, watcher, "tables"), 1);  // nothing changed: no push

    // A table is created: one push at the next tick, without an id; the lister gets nothing.
    h.send(a, {{"type", "create"}});
    const std::string tid = h.last(a, "created")["table"];
    EXPECT_EQ(count_frames(h, watcher, "tables"), 1);  // pushed by tick, not at once
    h.now += 10;
    h.tick();
    ASSERT_EQ(count_frames(h, watcher, "tables"), 2);
    json pushed = h.last_reply(watcher);
    EXPECT_EQ(pushed["type"], "tables");
    EXPECT_FALSE(pushed.contains("id"));
    ASSERT_EQ(pushed["tables"].size(), 1u);
    EXPECT_EQ(pushed["tables"][0]["table"], tid);
    EXPECT_EQ(count_frames(h, lister, "tables"), 1);

    // Many changes within one interval: a player sits, bots are added, another table is created,
    // a spectator comes: one push, after the interval, with the state at that time.
    h.send(a, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    h.send(a, {{"type", "add_bot"}, {"seat", 1}});
    h.send(a, {{"type", "add_bot"}, {"seat", 2}});
    h.send(b, {{"type", "create"}});
    const std::string tid2 = h.last(b, "created")["table"];
    h.send(lister, {{"type", "join"}, {"table", tid}});
    for (int i = 0; i < 4; ++i) {
        h.now += 50;  // 210 ms after the last push at most: too early
        h.tick();
    }
    EXPECT_EQ(count_frames(h, watcher, "tables"), 2);
    ASSERT_TRUE(h.hall.next_wakeup());
    EXPECT_LE(*h.hall.next_wakeup(), h.now + 50);
    h.now += 50;
    h.tick();
    ASSERT_EQ(count_frames(h, watcher, "tables"), 3);
    pushed = h.last_reply(watcher);
    ASSERT_EQ(pushed["tables"].size(), 2u);
    EXPECT_EQ(pushed["tables"][0]["seats"][0]["name"], "Layla");
    EXPECT_EQ(pushed["tables"][0]["seats"][2]["bot"], true);
    EXPECT_EQ(pushed["tables"][0]["spectators"], 1);
    EXPECT_EQ(pushed["tables"][1]["table"], tid2);
    h.now += 1000;
    h.tick();
    EXPECT_EQ(count_frames(h, watcher, "tables"), 3);  // no change since

    // The start is pushed; a private table (not listed) changes nothing on the page: no push.
    h.send(a, {{"type", "add_bot"}, {"seat", 3}});
    h.send(a, {{"type", "start"}});
    h.now += 300;
    h.tick();
    ASSERT_EQ(count_frames(h, watcher, "tables"), 4);
    EXPECT_EQ(h.last_reply(watcher)["tables"][0]["state"], "playing");
    const ConnId c = h.connect();
    h.sign_in(c, "Rana");
    h.send(c, {{"type", "create"}, {"private", true}});
    h.now += 300;
    h.tick();
    EXPECT_EQ(count_frames(h, watcher, "tables"), 4);

    // A list without watch ends the subscription; the closing of a table is then not pushed.
    h.send(watcher, {{"type", "list"}, {"limit", 1}});
    EXPECT_EQ(count_frames(h, watcher, "tables"), 5);
    h.send(b, {{"type", "leave"}});
    h.now += 5000;  // the other table is abandoned and closed
    h.tick();
    h.now += 5000;
    h.tick();
    EXPECT_EQ(count_frames(h, watcher, "tables"), 5);
    EXPECT_EQ(count_frames(h, lister, "tables"), 1);
}

TEST(Hall, AWatchedPageIsPushedWithItsCursorAndLimitAndClosingIsPushed) {
    Harness h;
    const ConnId watcher = h.connect();
    h.sign_in(watcher, "Watcher");
    const char* names[] = {"Layla", "Omar", "Rana"};
    std::vector<std::string> tids;
    std::vector<ConnId> creators;
    for (const char* n : names) {
        const ConnId c = h.connect();
        h.sign_in(c, n);
        h.send(c, {{"type", "create"}});
        h.send(c, {{"type", "join"}, {"table", h.last(c, "created")["table"]}, {"seat", 0}});
        tids.push_back(h.last(c, "created")["table"]);
        creators.push_back(c);
    }
    h.send(watcher, {{"type", "list"}, {"cursor", tids[0]}, {"limit", 1}, {"watch", true}});
    EXPECT_EQ(h.last_reply(watcher)["tables"][0]["table"], tids[1]);
    h.now += 300;
    h.tick();
    const int before = count_frames(h, watcher, "tables");
    // The table on the page closes (its only player leaves): the page now shows the next one.
    h.send(creators[1], {{"type", "leave"}});
    EXPECT_FALSE(h.hall.table(tids[1]));
    h.now += 300;
    h.tick();
    ASSERT_EQ(count_frames(h, watcher, "tables"), before + 1);
    const json pushed = h.last_reply(watcher);
    ASSERT_EQ(pushed["tables"].size(), 1u);
    EXPECT_EQ(pushed["tables"][0]["table"], tids[2]);
    EXPECT_TRUE(pushed["next"].is_null());
    // A change on another page is not pushed.
    h.send(creators[0], {{"type", "add_bot"}, {"seat", 1}});
    h.now += 300;
    h.tick();
    EXPECT_EQ(count_frames(h, watcher, "tables"), before + 1);
}

TEST(Hall, APrivateTablesFinishedMatchIsReadableByItsPlayersOnly) {
    // docs/protocol.md "HTTP endpoints": a private match's record, analyses and history rows go
    // to a request with one of its players' tokens; anyone else gets the 404 of an unknown id.
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < cs.size(); ++i) tokens.push_back(h.sign_in(cs[i], names[i]));
    const ConnId other = h.connect();
    const std::string stranger = h.sign_in(other, "Stranger");
    h.send(cs[0], {{"type", "create"}, {"private", true}, {"target", 5}});
    const std::string tid = h.last(cs[0], "created")["table"], code = h.last(cs[0], "created")["code"];
    for (std::size_t i = 0; i < cs.size(); ++i)
        h.send(cs[i], {{"type", "join"}, {"table", tid}, {"seat", i}, {"code", code}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    const std::string id = tid + "-1";
    const std::string unknown = h.get("/api/matches/" + tid + "-9")->body;
    for (const std::string& token : {std::string(), stranger, std::string("0123456789abcdef0123456789abcdef")}) {
        const auto r = h.get("/api/matches/" + id, token);
        EXPECT_EQ(r->status, 404) << token;
        EXPECT_EQ(r->body, unknown);
        EXPECT_EQ(h.get("/api/matches/" + id + "/analysis?deal=0", token)->status, 404);
        EXPECT_EQ(json::parse(h.get("/api/players/Omar/matches", token)->body)["matches"], json::array());
    }
    for (const std::string& token : tokens) {
        const auto r = h.get("/api/matches/" + id, token);
        ASSERT_EQ(r->status, 200);
        EXPECT_EQ(json::parse(r->body)["players"], json({"Layla", "Omar", "Rana", "Sami"}));
    }
    EXPECT_NE(h.get("/api/matches/" + id + "/analysis?deal=0", tokens[2])->status, 404);
    const json mine = json::parse(h.get("/api/players/Omar/matches", tokens[1])->body)["matches"];
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine[0]["id"], id);
    EXPECT_EQ(mine[0]["private"], true);
    // Another player's token does not open Omar's private rows.
    EXPECT_EQ(json::parse(h.get("/api/players/Omar/matches", tokens[0])->body)["matches"], json::array());
}

TEST(Hall, OnlyThePrivateTablesCreatorSeesItsJoinCode) {
    // docs/protocol.md "table": join_code in the creator's table messages, in nobody else's.
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    std::string token;
    for (std::size_t i = 0; i < cs.size(); ++i) {
        const std::string t = h.sign_in(cs[i], names[i]);
        if (i == 0) token = t;
    }
    const ConnId lobby = h.connect(), watcher = h.connect();
    h.sign_in(lobby, "Lobby");
    h.sign_in(watcher, "Watcher");
    h.send(lobby, {{"type", "list"}, {"watch", true}});
    h.send(cs[0], {{"type", "create"}, {"private", true}, {"target", 11}});
    const std::string tid = h.last(cs[0], "created")["table"], code = h.last(cs[0], "created")["code"];
    ASSERT_EQ(code.size(), 6u);
    for (std::size_t i = 0; i < cs.size(); ++i)
        h.send(cs[i], {{"type", "join"}, {"table", tid}, {"seat", i}, {"code", code}});
    h.send(watcher, {{"type", "join"}, {"table", tid}, {"code", code}});
    h.send(cs[0], {{"type", "start"}});
    EXPECT_GT(h.play(cs), 20);
    EXPECT_EQ(h.last(cs[1], "table")["state"], "finished");
    // The creator reloads: a new connection with its token gets the code again.
    h.hall.closed(cs[0], h.now);
    const ConnId again = h.connect();
    h.send(again, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last(again, "table")["join_code"], code);
    h.now += 300;
    h.tick();

    int creator_tables = 0;
    for (ConnId c : {cs[0], again})
        for (const auto& f : h.frames[c]) {
            const auto j = json::parse(f);
            if (j["type"] != "table") continue;
            ++creator_tables;
            EXPECT_EQ(j["join_code"], code) << f;
        }
    EXPECT_GT(creator_tables, 20);
    // Bytes-level: no other seat, spectator or lobby watcher ever received the code.
    for (ConnId c : {cs[1], cs[2], cs[3], watcher, lobby}) {
        EXPECT_GT(h.frames[c].size(), 0u);
        for (const auto& f : h.frames[c]) {
            EXPECT_EQ(f.find(code), std::string::npos) << "connection " << c << ": " << f;
            EXPECT_EQ(f.find("join_code"), std::string::npos) << "connection " << c << ": " << f;
        }
    }
    // And the cards: each seat saw only what it may (the bytes-level card check). The record
    // of a private table's match: asked with a player's token.
    const json record = json::parse(h.get("/api/matches/" + tid + "-1", token)->body);
    for (int s = 1; s < 4; ++s) {
        const auto leaks = testing::hidden_leaks(h.frames[cs[static_cast<std::size_t>(s)]], s, 1, record);
        EXPECT_TRUE(leaks.empty()) << "seat " << s << ": " << leaks.front();
    }
}

TEST(Hall, APublicTablesMessagesHaveNoJoinCode) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs);
    for (ConnId c : cs)
        for (const auto& f : h.frames[c]) EXPECT_EQ(f.find("join_code"), std::string::npos) << f;
}

TEST(Hall, UnknownTypesAreUnknownWhereverTheGuestIs) {
    Harness h;
    const ConnId a = h.connect();
    h.send(a, {{"type", "admin"}, {"id", "u0"}});  // before hello
    EXPECT_EQ(h.last_reply(a)["code"], "unknown_type");
    EXPECT_EQ(h.last_reply(a)["id"], "u0");
    h.sign_in(a, "Layla");
    h.send(a, {{"type", "admin"}, {"id", "u1"}});  // signed in, at no table
    EXPECT_EQ(h.last_reply(a)["code"], "unknown_type");
    EXPECT_EQ(h.last_reply(a)["id"], "u1");
    h.send(a, {{"type", "leave"}});  // a known type still gets its own error
    EXPECT_EQ(h.last_reply(a)["code"], "not_at_table");
    // A long type in a two-byte script: the echo is cut at a character, not inside one.
    std::string arabic = "x";
    for (int i = 0; i < 40; ++i) arabic += "\xD9\x84";
    h.send(a, {{"type", arabic}, {"id", "u2"}});
    EXPECT_EQ(h.last_reply(a)["code"], "unknown_type");
    EXPECT_EQ(h.last_reply(a)["id"], "u2");
}

TEST(Hall, MalformedOversizedAndFloodedConnectionsAreClosed) {
    HallConfig cfg = Harness::config();
    cfg.rate.per_second = 10;
    cfg.rate.burst = 5;
    cfg.rate.max_rejections = 10;
    Harness h(":memory:", cfg);
    const ConnId a = h.connect();
    h.raw(a, "{not json");
    EXPECT_EQ(h.last_reply(a)["code"], "bad_message");
    h.raw(a, "[1,2]");
    h.raw(a, R"({"type": 5})");
    EXPECT_EQ(h.closed_with[a], 1008);
    const ConnId b = h.connect();
    h.raw(b, std::string(20000, ' '));
    EXPECT_EQ(h.closed_with[b], 1009);
    const ConnId c = h.connect();
    for (int i = 0; i < 5; ++i) h.send(c, {{"type", "ping"}});
    h.send(c, {{"type", "ping"}, {"id", "p6"}});
    EXPECT_EQ(h.last_reply(c)["code"], "rate_limited");
    EXPECT_EQ(h.last_reply(c)["id"], "p6") << "a client waiting on the id hears the answer";
    for (int i = 0; i < 10; ++i) h.send(c, {{"type", "ping"}});
    EXPECT_EQ(h.closed_with[c], 1008);
    h.now += 1000;
    const ConnId d = h.connect();
    h.send(d, {{"type", "ping"}});
    EXPECT_EQ(h.last_reply(d)["type"], "pong");
}

TEST(Hall, AbandonedTablesAreClosedAfterTheGracePeriod) {
    Harness h;
    std::vector<ConnId> cs{h.connect(), h.connect()};
    h.sign_in(cs[0], "Layla");
    h.sign_in(cs[1], "Omar");
    h.send(cs[0], {{"type", "create"}});
    const std::string tid = h.last(cs[0], "created")["table"];
    h.send(cs[0], {{"type", "join"}, {"table", tid}, {"seat", 0}});
    h.send(cs[1], {{"type", "list"}});
    EXPECT_EQ(h.last(cs[1], "tables")["tables"].size(), 1u);
    h.hall.closed(cs[0], h.now);
    h.now += 1000;
    h.tick();  // abandoned from now
    h.now += 1000;
    h.tick();  // grace (1 s) over: closed
    h.send(cs[1], {{"type", "list"}});
    EXPECT_TRUE(h.last(cs[1], "tables")["tables"].empty());
    EXPECT_EQ(h.hall.tables(), 0);
}

TEST(Hall, JournalResumesEveryTableAfterARestart) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    std::filesystem::remove(db);
    std::string token;
    json before;
    {
        Harness h(db);
        std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
        seat_four(h, cs, {{"turn_seconds", 0}});
        token = h.last(cs[0], "welcome")["token"];
        h.send(cs[0], {{"type", "start"}});
        h.play(cs, 30);  // auction, trump and some tricks
        before = h.last(cs[0], "table");
        ASSERT_EQ(before["state"], "playing");
    }  // "crash": the hall is gone, only the database is left
    Harness h(db);
    EXPECT_EQ(h.hall.resume(h.now), 1);
    const ConnId c = h.connect();
    h.send(c, {{"type", "hello"}, {"token", token}});
    const auto after = h.last(c, "table");
    ASSERT_FALSE(after.is_null());
    EXPECT_EQ(after["version"], before["version"]);
    EXPECT_EQ(after["round"], before["round"]);
    EXPECT_EQ(after["scores"], before["scores"]);
    EXPECT_EQ(after["legal"], before["legal"]);
    std::filesystem::remove_all(dir);
}

TEST(Hall, APlayerWhoWatchesItsOwnTableInsteadStaysAtIt) {
    // Found with fuzz_protocol: the last human at a table joining it as a spectator left the
    // table first, which closed it (no human, no watcher), and the join then failed with
    // no_such_table: a rejected message that had changed the hall.
    Harness h;
    const ConnId c = h.connect();
    h.sign_in(c, "Layla");
    h.send(c, {{"type", "create"}});
    const std::string tid = h.last(c, "created")["table"];
    h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}});
    h.send(c, {{"type", "join"}, {"id", 9}, {"table", tid}});
    EXPECT_EQ(h.last_reply(c)["type"], "table");
    EXPECT_EQ(h.last(c, "ok")["id"], 9);
    const auto t = h.last(c, "table");
    EXPECT_TRUE(t["you"].is_null());
    EXPECT_TRUE(t["seats"][0].is_null());
    EXPECT_EQ(t["spectators"], 1);
    EXPECT_EQ(h.hall.tables(), 1);
    // And back to a seat.
    h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    EXPECT_EQ(h.last(c, "table")["you"], 0);
    EXPECT_EQ(h.last(c, "table")["spectators"], 0);
}

/// While alive, no write of this process to a file may end past `bytes` (a full disk: writes
/// fail with EFBIG, SIGXFSZ ignored).
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        old_signal_ = ::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &old_);
        const rlimit lim{bytes, old_.rlim_max};
        ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        ::signal(SIGXFSZ, old_signal_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit old_{};
    sighandler_t old_signal_;
};

TEST(Hall, AFailedJournalWriteRefusesTheActionChangesNothingAndRecovers) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-full-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    Harness h(db);
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs, 12);
    const auto t = h.last(cs[0], "table");
    ASSERT_EQ(t["state"], "playing");
    const int to_act = t["round"]["to_act"];
    const ConnId actor = cs[static_cast<std::size_t>(to_act)];
    const json action = h.last(actor, "table")["legal"][0];
    const json before = h.hall.snapshot();
    std::map<ConnId, std::size_t> heard;
    for (ConnId c : cs) heard[c] = h.frames[c].size();
    {
        FileSizeLimit full(1024);
        h.send(actor, {{"type", "act"}, {"id", 5}, {"version", t["version"]}, {"action", action}});
        const auto refused = h.last_reply(actor);
        EXPECT_EQ(refused["code"], "storage_unavailable");
        EXPECT_EQ(refused["id"], 5);
        EXPECT_EQ(h.hall.snapshot(), before);
        for (ConnId c : cs) EXPECT_EQ(h.frames[c].size(), heard[c] + (c == actor ? 1 : 0));
        EXPECT_EQ(h.get("/healthz")->status, 503);
        EXPECT_EQ(json::parse(h.get("/metrics.json")->body)["storage"], "storage_full");
        // Reads still work, and a read that works does not say the disk takes writes again.
        EXPECT_EQ(h.get("/api/leaderboard")->status, 200);
        EXPECT_EQ(h.get("/healthz")->status, 503);
        // Every other write is refused the same way, and nothing is logged twice.
        const ConnId guest = h.connect();
        h.send(guest, {{"type", "hello"}, {"name", "Newcomer"}});
        EXPECT_EQ(h.last_reply(guest)["code"], "storage_unavailable");
        ASSERT_EQ(h.logs.size(), 1u);
        EXPECT_EQ(h.logs[0].rfind("event=storage_error code=storage_full op=act", 0), 0u) << h.logs[0];
    }
    // Space again: the same request goes through.
    h.send(actor, {{"type", "act"}, {"id", 6}, {"version", t["version"]}, {"action", action}});
    EXPECT_EQ(h.last(actor, "ok")["version"], t["version"].get<std::uint64_t>() + 1);
    EXPECT_EQ(h.get("/healthz")->status, 200);
    ASSERT_EQ(h.logs.size(), 2u);
    EXPECT_EQ(h.logs[1], "event=storage_recovered after=storage_full");
    std::filesystem::remove_all(dir);
}

// Issue 26: a cluster node whose write was fenced (another node claimed the table) drops the
// table; once no fenced table is left it is healthy again (/healthz stayed 503 storage_fenced
// for good, with nothing left to write that could clear it, and a load balancer dropped it).
TEST(Hall, AFencedWriteDropsTheTableAndHealthIsOkOnceNoFencedTableIsLeft) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-fenced-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    {
        Harness h(db);
        ClusterHooks hooks;  // what a cluster node's hall gets: a new table is claimed, writes carry its fence
        hooks.take = [](Storage& st, const std::string& table) { return st.claim_table(table, "n1"); };
        h.hall.set_cluster(std::move(hooks));
        const ConnId a = h.connect();
        h.sign_in(a, "Layla");
        h.send(a, {{"type", "create"}, {"turn_seconds", 0}});
        const std::string tid = h.last(a, "created")["table"];
        h.send(a, {{"type", "join"}, {"id", 1}, {"table", tid}, {"seat", 0}});
        ASSERT_EQ(h.last_reply(a)["type"], "table") << h.last_reply(a);
        EXPECT_EQ(h.get("/healthz")->status, 200);
        // Another node takes the table over: this hall's next write of it is fenced.
        EXPECT_EQ(open_storage(db)->claim_table(tid, "n2"), 2);
        h.send(a, {{"type", "add_bot"}, {"id", 2}, {"seat", 1}});
        const auto refused = h.last(a, "error");
        EXPECT_EQ(refused["code"], "storage_unavailable") << refused;
        EXPECT_EQ(json::parse(h.get("/metrics.json")->body)["tables"], 0) << "the fenced table is dropped";
        const auto health = h.get("/healthz");
        EXPECT_EQ(health->status, 200) << health->body;
        EXPECT_EQ(json::parse(health->body)["status"], "ok");
        const std::string logs = [&] {
            std::string all;
            for (const auto& l : h.logs) all += l + "\n";
            return all;
        }();
        EXPECT_NE(logs.find("event=storage_error code=storage_fenced"), std::string::npos) << logs;
        EXPECT_NE(logs.find("event=table_dropped table=" + tid), std::string::npos) << logs;
        EXPECT_NE(logs.find("event=storage_recovered after=storage_fenced"), std::string::npos) << logs;
    }
    std::filesystem::remove_all(dir);
}

TEST(Hall, ABotActionThatCannotBeWrittenWaitsForTheDisk) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-bot-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    HallConfig cfg = Harness::config();
    cfg.timing.bot_delay_ms = 100;
    Harness h(db, cfg);
    const ConnId c = h.connect();
    h.sign_in(c, "Layla");
    h.send(c, {{"type", "create"}, {"turn_seconds", 0}});
    const std::string tid = h.last(c, "created")["table"];
    h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}});
    h.send(c, {{"type", "start"}});
    auto t = h.last(c, "table");
    while (t["round"]["to_act"] == 0) {  // until a bot's turn
        h.send(c, {{"type", "act"}, {"version", t["version"]}, {"action", t["legal"][0]}});
        t = h.last(c, "table");
    }
    const std::uint64_t v = t["version"];
    const std::size_t frames = h.frames[c].size();
    {
        FileSizeLimit full(1024);
        for (int i = 0; i < 5; ++i) {
            h.now += 200;
            h.tick();
        }
        EXPECT_EQ(h.last(c, "table")["version"], v);  // the bot could not act
        EXPECT_EQ(h.frames[c].size(), frames);        // and nobody is told of nothing
        EXPECT_EQ(h.get("/healthz")->status, 503);
    }
    h.now += 200;
    h.tick();
    EXPECT_GT(h.last(c, "table")["version"].get<std::uint64_t>(), v);
    EXPECT_EQ(h.get("/healthz")->status, 200);
    std::filesystem::remove_all(dir);
}


TEST(Hall, VersionsNeverGoDownAcrossMatchesAndRestarts) {
    // Found by an outside probe: the journal's compaction at a new match dropped the version, so
    // after a restart the table was at version 8 instead of 596 and an action acknowledged before
    // the crash, sent again word for word, was accepted once the version came back to it.
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-ver-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    std::string token;
    json acked_act;
    std::uint64_t last_version = 0;
    {
        Harness h(db);
        const ConnId c = h.connect();
        token = h.sign_in(c, "Layla");
        h.send(c, {{"type", "create"}, {"turn_seconds", 0}, {"target", 1}});
        const std::string tid = h.last(c, "created")["table"];
        h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
        for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}});
        h.send(c, {{"type", "start"}});
        h.play({c});
        ASSERT_EQ(h.last(c, "table")["state"], "finished");
        const std::uint64_t finished_at = h.last(c, "table")["version"];
        h.send(c, {{"type", "start"}});
        for (int i = 0; i < 3; ++i) {
            const auto t = h.last(c, "table");
            ASSERT_FALSE(t["legal"].empty());
            acked_act = {{"type", "act"}, {"version", t["version"]}, {"action", t["legal"][0]}};
            h.send(c, acked_act);
            ASSERT_EQ(h.last(c, "ok")["version"], t["version"].get<std::uint64_t>() + 1);
        }
        last_version = h.last(c, "table")["version"];
        EXPECT_GT(last_version, finished_at);
    }  // "kill -9"
    for (int restart = 0; restart < 3; ++restart) {
        Harness h(db);
        ASSERT_EQ(h.hall.resume(h.now), 1);
        const ConnId c = h.connect();
        h.send(c, {{"type", "hello"}, {"token", token}});
        const auto t = h.last(c, "table");
        EXPECT_EQ(t["version"], last_version) << "restart " << restart;
        h.send(c, acked_act);  // the same action again: stale, whatever happened since
        EXPECT_EQ(h.last_reply(c)["code"], "stale");
    }
    std::filesystem::remove_all(dir);
}

/// The hands of the first deal at a new table of four (each seat's hand as seen by that seat).
std::vector<json> first_hands(HallConfig cfg) {
    Harness h(":memory:", cfg);
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs);
    h.send(cs[0], {{"type", "start"}});
    std::vector<json> hands;
    for (ConnId c : cs) hands.push_back(h.last(c, "table")["round"]["hand"]);
    // The seeds stay on the server: no frame names one.
    for (ConnId c : cs)
        for (const auto& f : h.frames[c]) EXPECT_EQ(f.find("seed"), std::string::npos) << f;
    return hands;
}

TEST(Hall, OnlineDealsComeFromTheOsRandomGeneratorNotFromAnEarlierSeed) {
    // Two servers started with the same options deal different cards: every deal's seed is
    // drawn from the OS CSPRNG (before, one SplitMix64 stream, so one leaked seed predicted
    // every later deal). Only the test-only deterministic mode (HallConfig::seed) repeats.
    HallConfig online = Harness::config();
    online.seed = 0;
    const auto a = first_hands(online);
    const auto b = first_hands(online);
    EXPECT_NE(a, b);
    HallConfig fixed = Harness::config();
    fixed.seed = 42;
    EXPECT_EQ(first_hands(fixed), first_hands(fixed));
}


TEST(Hall, APrivateTablesJoinCodeIsStoredOnlyAsAHash) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-code-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
    std::string tid, code, token;
    {
        Harness h(db);
        const ConnId c = h.connect();
        token = h.sign_in(c, "Layla");
        h.send(c, {{"type", "create"}, {"private", true}});
        tid = h.last(c, "created")["table"];
        code = h.last(c, "created")["code"];
        ASSERT_EQ(code.size(), 6u);
        h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}, {"code", code}});
        EXPECT_EQ(h.last(c, "table")["you"], 0);
        // Neither the database nor its journal holds the code.
        for (const char* suffix : {"", "-wal"}) {
            std::ifstream in(db + suffix, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            EXPECT_EQ(bytes.find(code), std::string::npos) << "the join code is in " << db << suffix;
        }
    }
    Harness h(db);
    ASSERT_EQ(h.hall.resume(h.now), 1);
    const ConnId other = h.connect();
    h.sign_in(other, "Omar");
    h.send(other, {{"type", "join"}, {"table", tid}, {"seat", 1}, {"code", "AAAAAA"}});
    EXPECT_EQ(h.last_reply(other)["code"], "bad_code");
    h.send(other, {{"type", "join"}, {"table", tid}, {"seat", 1}, {"code", code}});
    EXPECT_EQ(h.last(other, "table")["you"], 1);
    // The code was in memory only: after the restart, not even its creator is shown it.
    const ConnId creator = h.connect();
    h.send(creator, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last(creator, "table")["you"], 0);
    EXPECT_FALSE(h.last(creator, "table").contains("join_code"));
    for (const auto& [conn, fs] : h.frames)
        for (const auto& f : fs) EXPECT_EQ(f.find(code), std::string::npos) << f;
    std::filesystem::remove_all(dir);
}


TEST(Hall, AGuestWhoseConnectionClosesWhileItsRequestIsInFlightIsNotStuck) {
    // A request's database write finishes after its connection closed: the guest (busy while
    // the write was in flight) is free again, seated as the write said, and its next
    // connection is answered.
    Harness h;
    const ConnId c1 = h.connect();
    const std::string token = h.sign_in(c1, "Layla");
    h.send(c1, {{"type", "create"}, {"turn_seconds", 0}});
    const std::string tid = h.last(c1, "created")["table"];
    h.hall.message(c1, json{{"type", "join"}, {"table", tid}, {"seat", 0}}.dump(), h.now);  // in flight...
    h.hall.message(c1, json{{"type", "list"}}.dump(), h.now);                               // ...and one waiting
    h.hall.closed(c1, h.now);
    h.settle();
    const ConnId c2 = h.connect();
    h.send(c2, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last(c2, "welcome")["seat"], 0);
    h.send(c2, {{"type", "list"}, {"id", 3}});
    EXPECT_EQ(h.last_reply(c2)["type"], "tables");
    EXPECT_EQ(h.last_reply(c2)["id"], 3);
    EXPECT_EQ(h.last(c2, "table")["seats"][0]["connected"], true);
}

// ---- security issue #11: limits per guest and per address, the paginated lobby -------------

/// A config whose per-guest and per-address limits do not get in the way of creating many tables.
HallConfig roomy() {
    HallConfig c = Harness::config();
    c.max_waiting_tables_per_guest = 1000;
    c.max_waiting_tables_per_address = 1000;
    return c;
}

TEST(Hall, ListIsPagedWithACursorOverPublicTablesOnly) {
    Harness h(":memory:", roomy());
    const ConnId c = h.connect();
    h.sign_in(c, "Layla");
    std::set<std::string> made;
    for (int i = 0; i < 120; ++i) {
        h.send(c, {{"type", "create"}, {"private", i % 7 == 3}});
        const json created = h.last(c, "created");
        ASSERT_FALSE(created.is_null());
        if (i % 7 != 3) made.insert(created["table"].get<std::string>());
    }
    ASSERT_EQ(h.hall.tables(), 120);
    // Default page: 50 tables and a cursor; following the cursors lists every public table once.
    std::set<std::string> seen;
    json cursor = nullptr;
    int pages = 0;
    do {
        json req{{"type", "list"}, {"id", pages}};
        if (!cursor.is_null()) req["cursor"] = cursor;
        h.send(c, req);
        const json page = h.last_reply(c);
        ASSERT_EQ(page["type"], "tables");
        EXPECT_EQ(page["id"], pages);
        EXPECT_LE(page["tables"].size(), 50u);
        for (const auto& t : page["tables"]) {
            EXPECT_FALSE(t["private"].get<bool>());
            EXPECT_TRUE(seen.insert(t["table"].get<std::string>()).second) << "listed twice: " << t["table"];
        }
        cursor = page["next"];
        if (!cursor.is_null()) {
            EXPECT_EQ(page["tables"].size(), 50u);
        }
        ++pages;
    } while (!cursor.is_null() && pages < 10);
    EXPECT_EQ(seen, made);
    EXPECT_EQ(pages, 3);  // 103 public tables: 50 + 50 + 3
    // A smaller limit, a limit above the maximum (clamped), and the wrong shapes.
    h.send(c, {{"type", "list"}, {"limit", 7}});
    EXPECT_EQ(h.last_reply(c)["tables"].size(), 7u);
    EXPECT_FALSE(h.last_reply(c)["next"].is_null());
    h.send(c, {{"type", "list"}, {"limit", 100000}});
    EXPECT_EQ(h.last_reply(c)["tables"].size(), 50u);
    const json before = h.hall.snapshot();
    for (const json& bad : {json{{"type", "list"}, {"limit", 0}}, json{{"type", "list"}, {"limit", -3}},
                            json{{"type", "list"}, {"limit", "10"}}, json{{"type", "list"}, {"limit", 2.5}},
                            json{{"type", "list"}, {"cursor", 5}}, json{{"type", "list"}, {"cursor", json::array()}}}) {
        h.send(c, bad);
        EXPECT_EQ(h.last_reply(c)["code"], "bad_message") << bad.dump();
    }
    EXPECT_EQ(h.hall.snapshot(), before);
    // A cursor past the end, or of a table that has gone, still pages on.
    h.send(c, {{"type", "list"}, {"cursor", "~~~~"}});
    EXPECT_TRUE(h.last_reply(c)["tables"].empty());
    EXPECT_TRUE(h.last_reply(c)["next"].is_null());
}

TEST(Hall, AGuestMayHaveOneWaitingTable) {
    Harness h;
    const ConnId c = h.connect(), d = h.connect();
    h.sign_in(c, "Layla");
    h.sign_in(d, "Omar");
    h.send(c, {{"type", "create"}});
    const std::string first = h.last(c, "created")["table"];
    const json before = h.hall.snapshot();
    h.send(c, {{"type", "create"}, {"id", 9}});
    EXPECT_EQ(h.last_reply(c)["code"], "too_many_waiting_tables");
    EXPECT_EQ(h.last_reply(c)["id"], 9);
    EXPECT_EQ(h.hall.snapshot(), before);  // refused: nothing changed
    EXPECT_EQ(h.hall.tables(), 1);
    // Another guest (another token) is not held back by it.
    h.send(d, {{"type", "create"}});
    EXPECT_FALSE(h.last(d, "created").is_null());
    // Once the first table has started, it no longer waits: the guest may create again.
    h.send(c, {{"type", "join"}, {"table", first}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}});
    h.send(c, {{"type", "start"}});
    ASSERT_EQ(h.hall.table(first)->state(), TableState::playing);
    h.send(c, {{"type", "create"}});
    EXPECT_EQ(h.last_reply(c)["type"], "created");
    h.send(c, {{"type", "create"}});
    EXPECT_EQ(h.last_reply(c)["code"], "too_many_waiting_tables");
}

TEST(Hall, WaitingTablesAreLimitedPerAddress) {
    HallConfig cfg = Harness::config();
    cfg.max_waiting_tables_per_address = 3;
    Harness h(":memory:", cfg);
    std::vector<ConnId> same;
    for (int i = 0; i < 4; ++i) {
        same.push_back(h.connect("192.0.2.7"));
        h.sign_in(same.back(), "Guest" + std::to_string(i));
    }
    for (int i = 0; i < 3; ++i) {
        h.send(same[static_cast<std::size_t>(i)], {{"type", "create"}});
        EXPECT_EQ(h.last_reply(same[static_cast<std::size_t>(i)])["type"], "created") << i;
    }
    const json before = h.hall.snapshot();
    h.send(same[3], {{"type", "create"}});
    EXPECT_EQ(h.last_reply(same[3])["code"], "too_many_waiting_tables");
    EXPECT_EQ(h.hall.snapshot(), before);
    const ConnId other = h.connect("198.51.100.1");
    h.sign_in(other, "Elsewhere");
    h.send(other, {{"type", "create"}});
    EXPECT_EQ(h.last_reply(other)["type"], "created");
}

TEST(Hall, TwoCreatesInFlightOfOneGuestMakeOneTable) {
    Harness h;
    const ConnId c = h.connect();
    const std::string token = h.sign_in(c, "Layla");
    const ConnId d = h.connect();
    h.send(d, {{"type", "hello"}, {"token", token}});
    // Both arrive before the first one's write is done (no settle in between).
    h.hall.message(c, json{{"type", "create"}, {"id", 1}}.dump(), h.now);
    h.hall.message(d, json{{"type", "create"}, {"id", 2}}.dump(), h.now);
    h.settle();
    EXPECT_EQ(h.hall.tables(), 1);
    EXPECT_EQ(h.last_reply(d)["code"], "too_many_waiting_tables");
}

TEST(Hall, AHallGoneWithACreateInFlightGivesItsWaitingTableBack) {
    // The shards of one process share the count; a hall stopped before a create's write was
    // answered must not keep the guest's table counted there for good.
    HallConfig cfg = Harness::config();
    cfg.waiting_tables = std::make_shared<WaitingTables>();
    {
        Harness h(":memory:", cfg);
        const ConnId c = h.connect("192.0.2.7");
        h.sign_in(c, "Layla");
        h.hall.message(c, json{{"type", "create"}, {"id", 1}}.dump(), h.now);  // not settled: in flight
    }
    EXPECT_TRUE(cfg.waiting_tables->reserve("Layla", "192.0.2.7", 1, 1)) << "the create's count outlived its hall";
}

TEST(Hall, HallsSharingACountHoldTheWaitingTableLimitsTogether) {
    // The shards of one process share one count (`tarneeb serve --threads N`).
    HallConfig cfg = Harness::config();
    cfg.max_waiting_tables_per_address = 2;
    cfg.waiting_tables = std::make_shared<WaitingTables>();
    Harness a(":memory:", cfg), b(":memory:", cfg);
    const ConnId layla_a = a.connect("192.0.2.7"), layla_b = b.connect("192.0.2.7");
    a.sign_in(layla_a, "Layla");
    b.sign_in(layla_b, "Layla");
    a.send(layla_a, {{"type", "create"}});
    const std::string first = a.last(layla_a, "created")["table"];
    b.send(layla_b, {{"type", "create"}});
    EXPECT_EQ(b.last_reply(layla_b)["code"], "too_many_waiting_tables");
    const ConnId omar = b.connect("192.0.2.7"), rana = b.connect("192.0.2.7");
    b.sign_in(omar, "Omar");
    b.sign_in(rana, "Rana");
    b.send(omar, {{"type", "create"}});
    EXPECT_EQ(b.last_reply(omar)["type"], "created");
    b.send(rana, {{"type", "create"}});
    EXPECT_EQ(b.last_reply(rana)["code"], "too_many_waiting_tables");  // the address's two
    // Layla's table starts on hall a: both its counts go, on hall b too.
    a.send(layla_a, {{"type", "join"}, {"table", first}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) a.send(layla_a, {{"type", "add_bot"}, {"seat", s}});
    a.send(layla_a, {{"type", "start"}});
    ASSERT_EQ(a.hall.table(first)->state(), TableState::playing);
    b.send(rana, {{"type", "create"}});
    EXPECT_EQ(b.last_reply(rana)["type"], "created");
    b.send(layla_b, {{"type", "create"}});
    EXPECT_EQ(b.last_reply(layla_b)["code"], "too_many_waiting_tables");  // the address's two again
}

TEST(Hall, ConnectionsAreLimitedPerAddress) {
    HallConfig cfg = Harness::config();
    cfg.max_connections_per_address = 3;
    Harness h(":memory:", cfg);
    std::vector<ConnId> cs;
    for (int i = 0; i < 3; ++i) cs.push_back(h.connect("192.0.2.7"));
    EXPECT_FALSE(h.hall.admits("192.0.2.7"));
    EXPECT_TRUE(h.hall.admits("198.51.100.1"));
    const ConnId extra = h.connect("192.0.2.7");
    EXPECT_EQ(h.closed_with[extra], 1008);
    EXPECT_EQ(h.last_reply(extra)["code"], "too_many_connections");
    EXPECT_EQ(h.hall.connections(), 3);
    h.send(extra, {{"type", "hello"}, {"name", "Sneaky"}});  // not registered: ignored
    EXPECT_EQ(h.frames[extra].size(), 1u);
    h.hall.closed(extra, h.now);  // the transport reports the refused connection closed: no effect
    EXPECT_EQ(h.hall.connections(), 3);
    EXPECT_FALSE(h.hall.admits("192.0.2.7"));
    // Another address is not affected; a closed connection frees its place.
    const ConnId other = h.connect("198.51.100.1");
    EXPECT_EQ(h.closed_with.count(other), 0u);
    h.hall.closed(cs[0], h.now);
    EXPECT_TRUE(h.hall.admits("192.0.2.7"));
    const ConnId again = h.connect("192.0.2.7");
    EXPECT_EQ(h.closed_with.count(again), 0u);
    EXPECT_FALSE(h.sign_in(again, "Welcome").empty());
}

TEST(Hall, ConnectionsAreLimitedPerToken) {
    HallConfig cfg = Harness::config();
    cfg.max_connections_per_guest = 2;
    Harness h(":memory:", cfg);
    const ConnId a = h.connect(), b = h.connect("198.51.100.1"), c = h.connect("203.0.113.5");
    const std::string token = h.sign_in(a, "Layla");
    h.send(b, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last_reply(b)["type"], "welcome");
    const json before = h.hall.snapshot();
    h.send(c, {{"type", "hello"}, {"token", token}, {"id", "h"}});
    EXPECT_EQ(h.last_reply(c)["code"], "too_many_connections");
    EXPECT_EQ(h.last_reply(c)["id"], "h");
    EXPECT_EQ(h.hall.snapshot(), before);
    EXPECT_FALSE(h.hall.guest(c));  // not signed in
    h.hall.closed(a, h.now);
    h.send(c, {{"type", "hello"}, {"token", token}});
    EXPECT_EQ(h.last_reply(c)["type"], "welcome");
}

TEST(Hall, AnOutsideEngineSeatPlaysWholeMatchesAndItsProcessDiesWithItsTable) {
    // `tarneeb serve --engine outside=CMD`: the factory knows the name; add_bot seats it. Each
    // seat's engine writes its process id (the shell execs the engine, so the id stays).
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-hall-engine-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string pid_file = (dir / "pids").string();
    auto logs = std::make_shared<std::vector<std::string>>();
    auto log_mutex = std::make_shared<std::mutex>();
    BotFactory factory = [pid_file, logs, log_mutex](std::string_view name, std::uint64_t seed) -> std::unique_ptr<bots::Bot> {
        if (name != "outside") return testing::default_bots()(name, seed);
        bots::EngineConfig c;
        c.name = "outside";
        c.argv = {"/bin/sh", "-c", "echo $$ >> " + pid_file + "; exec " TARNEEB_BINARY " engine --bot heuristic"};
        c.budget_ms = 5000;
        c.startup_ms = 20000;
        c.quit_ms = 0;
        c.limits.guard = TARNEEB_BINARY;  // this test program is not tarneeb
        c.log = [logs, log_mutex](bots::EngineLogLevel, const std::string& line) {
            std::lock_guard lock(*log_mutex);
            logs->push_back(line);
        };
        return std::make_unique<bots::EngineBot>(std::move(c), seed);
    };
    HallConfig cfg = Harness::config();
    cfg.bot_threads = 2;
    Harness h(":memory:", cfg, factory);
    const ConnId c = h.connect();
    h.sign_in(c, "Layla");
    h.send(c, {{"type", "create"}, {"target", 11}});
    const std::string tid = h.last(c, "created")["table"];
    h.send(c, {{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) h.send(c, {{"type", "add_bot"}, {"seat", s}, {"bot", "outside"}});
    // Each engine seat is told apart by its seat number; its kind is the engine's name.
    EXPECT_EQ(h.last(c, "table")["seats"][2]["name"], "outside 3");
    EXPECT_EQ(h.last(c, "table")["seats"][2]["kind"], "outside");
    EXPECT_FALSE(std::filesystem::exists(pid_file));  // checking the name started nothing
    for (int match = 1; match <= 2; ++match) {
        h.send(c, {{"type", "start"}});
        h.play({c});
        ASSERT_EQ(h.last(c, "table")["state"], "finished") << match;
        EXPECT_EQ(h.last(c, "table")["match"], match);
    }
    std::vector<pid_t> pids;
    {
        std::ifstream in(pid_file);
        for (pid_t p; in >> p;) pids.push_back(p);
    }
    ASSERT_EQ(pids.size(), 3u);  // one process per seat, never restarted
    for (pid_t p : pids) EXPECT_EQ(::kill(p, 0), 0);
    {
        std::lock_guard lock(*log_mutex);
        for (const auto& l : *logs) EXPECT_EQ(l.find("event=fault"), std::string::npos) << l;
    }
    // The last human leaves: the table closes and its bots, with their processes, go.
    h.send(c, {{"type", "leave"}});
    EXPECT_EQ(h.hall.tables(), 0);
    for (pid_t p : pids) EXPECT_TRUE(::kill(p, 0) == -1 && errno == ESRCH) << p;
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tarneeb::server
