// Quick play (issue 28; quick_play.hpp, hall_quick_play.cpp, Table::prepare_fill): the choice
// of a table from lobby summaries, and through the hall: players of one preset meet at one
// table, a table fills with bots at its fill time or when a seated person sends `start`, four
// people start at once (rated), and what is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "hall_harness.hpp"
#include "../store/match_rows.hpp"
#include "tarneeb/server/quick_play.hpp"

namespace tarneeb::server::testing {
namespace {

using nlohmann::json;

json quick_summary(const std::string& id, int rating, Millis fill_at, int people, const std::string& preset = "levantine") {
    json seats = json::array();
    for (int s = 0; s < 4; ++s)
        seats.push_back(s < people ? json{{"name", "P" + std::to_string(s)}, {"bot", false}, {"connected", true}} : json(nullptr));
    return {{"table", id},   {"preset", preset},  {"private", false},
            {"state", "waiting"}, {"seats", seats}, {"quick", {{"rating", rating}, {"fill_at", fill_at}}}};
}

TEST(QuickPlay, TheWindowWidensFrom150To500OverTheFillTime) {
    EXPECT_EQ(quick_window(0, 20000), 150);
    EXPECT_EQ(quick_window(10000, 20000), 325);
    EXPECT_EQ(quick_window(20000, 20000), 500);
    EXPECT_EQ(quick_window(90000, 20000), 500);
}

TEST(QuickPlay, ChoosesTheTableWithMostPeopleWithinTheRatingWindow) {
    const Millis now = 1'000'000, fill = 20000;
    const json a = quick_summary("t1", 1500, now + 19000, 1), b = quick_summary("t2", 1550, now + 15000, 2),
               far = quick_summary("t3", 1900, now + 19000, 3), classic = quick_summary("t4", 1500, now + 10000, 3, "classic");
    json full = quick_summary("t5", 1500, now + 10000, 4), priv = quick_summary("t6", 1500, now + 10000, 3);
    priv["private"] = true;
    json playing = quick_summary("t7", 1500, now + 10000, 3), plain = quick_summary("t8", 1500, now + 10000, 3);
    playing["state"] = "playing";
    plain.erase("quick");
    const json filling = quick_summary("t9", 1500, now - 1, 3), junk = json::array({1, 2});
    const auto pick = choose_quick_table({a, b, far, classic, full, priv, playing, plain, filling, junk}, Preset::levantine,
                                         1500, now, fill);
    ASSERT_TRUE(pick);
    EXPECT_EQ(pick->table, "t2");
    EXPECT_EQ(pick->seat, Seat::s2);
    // Nothing within reach: make a table.
    EXPECT_FALSE(choose_quick_table({far}, Preset::levantine, 1500, now, fill));
    // The far table is reached once it has waited long enough (400 points: 15 of its 20 s).
    const json waited = quick_summary("t3", 1900, now + 4000, 3);
    EXPECT_TRUE(choose_quick_table({waited}, Preset::levantine, 1500, now, fill));
    // Equal people: the one waiting longest.
    const json c = quick_summary("t10", 1500, now + 5000, 2);
    EXPECT_EQ(choose_quick_table({b, c}, Preset::levantine, 1500, now, fill)->table, "t10");
}

struct QuickHarness : HallHarness {
    static HallConfig quick_config() {
        HallConfig c = HallHarness::config();
        c.timing.quick_bot = "heuristic";  // the test bots
        c.timing.quick_fill_ms = 20000;
        return c;
    }
    explicit QuickHarness(const std::string& db = ":memory:") : HallHarness(db, quick_config()) {}
    /// A new guest `name` asking for quick play: its answer.
    json quick(ConnId c, const std::string& name, const std::string& preset = "levantine") {
        sign_in(c, name);
        return request(c, {{"type", "quick_play"}, {"preset", preset}});
    }
};

TEST(QuickPlay, PlayersOfOnePresetMeetAtOneTableThenBotsFillItAtItsTime) {
    QuickHarness h;
    const ConnId a = h.connect(), b = h.connect(), c = h.connect();
    const json first = h.quick(a, "Layla");
    ASSERT_EQ(first["type"], "ok") << first;
    EXPECT_EQ(first["seat"], 0);
    const std::string tid = first["table"];
    const json second = h.quick(b, "Omar");
    ASSERT_EQ(second["type"], "ok") << second;
    EXPECT_EQ(second["table"], tid);
    EXPECT_EQ(second["seat"], 1);
    // Another preset: another table.
    const json other = h.quick(c, "Rana", "classic");
    ASSERT_EQ(other["type"], "ok") << other;
    EXPECT_NE(other["table"], tid);
    // The table message says it is a quick-play table and when the bots come.
    json t = h.last(b, "table");
    ASSERT_TRUE(t["quick"].is_object()) << t;
    EXPECT_EQ(t["quick"]["fill_at"], h.now + 20000);
    EXPECT_EQ(t["fill_ms"], 20000);
    EXPECT_EQ(t["state"], "waiting");
    // A lobby list shows it.
    const json page = h.request(a, {{"type", "list"}});
    bool listed = false;
    for (const auto& s : page["tables"]) listed |= s["table"] == tid && s["quick"].is_object();
    EXPECT_TRUE(listed) << page;
    // Its fill time: bots take seats 2 and 3 and the match starts, unrated (bots at the table).
    h.now += 20000;
    h.tick();
    t = h.last(a, "table");
    EXPECT_EQ(t["state"], "playing") << t;
    EXPECT_EQ(t["seats"][2]["bot"], true);
    EXPECT_EQ(t["seats"][3]["kind"], "heuristic");
    EXPECT_EQ(t["rated"], false);
    EXPECT_TRUE(t["fill_ms"].is_null());
    // A new quick player does not join a table playing.
    const ConnId d = h.connect();
    const json late = h.quick(d, "Sami");
    ASSERT_EQ(late["type"], "ok");
    EXPECT_NE(late["table"], tid);
    EXPECT_NE(late["table"], other["table"]);
}

// Two people alone at two quick-play tables (too far apart in rating when the second asked; or
// tables made on two nodes at once) become one: the one whose table comes later in the order
// moves to the other once that table's widening window reaches it.
TEST(QuickPlay, TwoLoneTablesBecomeOneWhenTheWindowReachesThem) {
    QuickHarness h;
    const ConnId a = h.connect(), b = h.connect();
    h.sign_in(b, "Omar");  // a player's row, which stored matches rate
    // Omar wins rated matches until he is 200 points above the start (Layla's rating).
    for (int i = 0; i < 200 && h.storage.rating("Omar") < 1700; ++i) {
        MatchRow row = match_row("t9" + std::to_string(i) + "-1", h.now - 1000, false);
        row.names = {"Omar", "A" + std::to_string(i), "Omar2", "B" + std::to_string(i)};
        row.bots = {false, false, false, false};
        row.winner = 0;
        row.rated = true;
        h.storage.store_match(row);
    }
    ASSERT_GE(h.storage.rating("Omar"), 1700);
    const std::string layla = h.quick(a, "Layla")["table"];
    const json omar = h.request(b, {{"type", "quick_play"}});
    ASSERT_EQ(omar["type"], "ok");
    const std::string own = omar["table"];
    ASSERT_NE(own, layla) << "out of Layla's table's first window";
    // A tick before the windows reach: nothing moves.
    h.now += 1000;
    h.tick();
    EXPECT_EQ(h.last(b, "table")["table"], own);
    // Layla's table has waited 15 of its 20 s: its window (412) reaches Omar; Omar's table is the
    // younger of the two, so Omar moves.
    h.now += 14000;
    h.tick();
    const json t = h.last(b, "table");
    EXPECT_EQ(t["table"], layla) << t;
    EXPECT_EQ(t["you"], 1);
    EXPECT_EQ(h.last(a, "table")["seats"][1]["name"], "Omar");
    EXPECT_EQ(h.hall.table(own), nullptr) << "Omar's empty table closed";
    // Omar's requests still go through in order after the move.
    EXPECT_EQ(h.request(b, {{"type", "start"}})["type"], "ok");
    EXPECT_EQ(h.last(a, "table")["state"], "playing");
}

TEST(QuickPlay, ASeatedPersonsStartFillsTheTableNowAndARestartResumesIt) {
    const std::string db = (std::filesystem::temp_directory_path() / ("quick-" + std::to_string(::getpid()) + ".db")).string();
    std::filesystem::remove(db);
    std::string tid;
    json before;
    {
        QuickHarness h(db);
        const ConnId a = h.connect();
        tid = h.quick(a, "Layla")["table"];
        ASSERT_EQ(h.request(a, {{"type", "start"}})["type"], "ok");
        before = h.last(a, "table");
        EXPECT_EQ(before["state"], "playing") << before;
        for (int s = 1; s < 4; ++s) EXPECT_EQ(before["seats"][s]["bot"], true) << before;
    }
    // The journal holds the filled seats and the start: a restarted server runs the same match.
    QuickHarness again(db);
    EXPECT_EQ(again.hall.resume(again.now), 1);
    const Table* t = again.hall.table(tid);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->state(), TableState::playing);
    EXPECT_EQ(t->version(), before["version"].get<std::uint64_t>());
    EXPECT_EQ(t->seat_info(Seat::s3).kind, SeatInfo::Kind::bot);
    EXPECT_EQ(t->seat_info(Seat::s0).name, "Layla");
    std::filesystem::remove(db);
}

TEST(QuickPlay, FourPeopleStartAtOnceAndTheMatchIsRated) {
    QuickHarness h;
    std::vector<ConnId> cs{h.connect(), h.connect(), h.connect(), h.connect()};
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    std::string tid;
    for (int i = 0; i < 4; ++i) {
        const json r = h.quick(cs[static_cast<std::size_t>(i)], names[i]);
        ASSERT_EQ(r["type"], "ok") << r;
        if (i == 0) tid = r["table"];
        EXPECT_EQ(r["table"], tid);
    }
    const json t = h.last(cs[0], "table");
    EXPECT_EQ(t["state"], "playing") << t;
    EXPECT_EQ(t["rated"], true);
    for (int s = 0; s < 4; ++s) EXPECT_EQ(t["seats"][s]["bot"], false);
}

TEST(QuickPlay, RefusedWhenSeatedOrForAnUnknownPresetAndCreateCannotMakeOne) {
    QuickHarness h;
    const ConnId a = h.connect();
    ASSERT_EQ(h.quick(a, "Layla")["type"], "ok");
    const json again = h.request(a, {{"type", "quick_play"}});
    EXPECT_EQ(again["code"], "already_seated") << again;
    const ConnId b = h.connect();
    h.sign_in(b, "Omar");
    EXPECT_EQ(h.request(b, {{"type", "quick_play"}, {"preset", "bridge"}})["code"], "bad_settings");
    EXPECT_EQ(h.request(b, {{"type", "quick_play"}, {"preset", 7}})["code"], "bad_settings");
    // A client's create with "quick" makes an ordinary table.
    h.send(b, {{"type", "create"}, {"quick", 1500}});
    const std::string made = h.last(b, "created")["table"];
    ASSERT_EQ(h.request(b, {{"type", "join"}, {"table", made}, {"seat", 0}})["type"], "ok");
    EXPECT_TRUE(h.last(b, "table")["quick"].is_null());
    // Leaving a quick-play table: its last person gone, a new quick player makes a new one.
    const std::string first = h.last(a, "table")["table"];
    ASSERT_EQ(h.request(a, {{"type", "leave"}})["type"], "ok");
    const ConnId c = h.connect();
    const json r = h.quick(c, "Rana");
    ASSERT_EQ(r["type"], "ok");
    EXPECT_NE(r["table"], first);
}

}  // namespace
}  // namespace tarneeb::server::testing
