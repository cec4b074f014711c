// Tournaments in the hall, without sockets (src/server/hall_tournament.cpp, docs/protocol.md
// "Tournaments"): an 8-team knockout of bot teams played to its final at real tables, reserved
// seats and the organiser's rights, forfeits and bots for a team that does not come, a
// round-robin, and a restart mid-tournament where every match resumes and no result is lost or
// counted twice.
#include <filesystem>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <unistd.h>

#include "hall_harness.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

/// The registry's real bots (heuristic), seeded by the hall's deterministic seed stream.
BotFactory real_bots() {
    return [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); };
}

struct TournamentHarness : testing::HallHarness {
    explicit TournamentHarness(const std::string& db = ":memory:", HallConfig cfg = config()) : HallHarness(db, cfg, real_bots()) {}

    /// Sends `msg` and returns its answer (null when none came).
    json send(ConnId c, json msg) { return request(c, std::move(msg)); }
    void sign_in(ConnId c, const std::string& name) { ASSERT_EQ(send(c, {{"type", "hello"}, {"name", name}})["type"], "welcome"); }
    /// GET `target`'s JSON body, or null unless 200.
    json get(const std::string& target) {
        const auto reply = HallHarness::get(target);
        if (!reply || reply->status != 200) return nullptr;
        return json::parse(reply->body);
    }
    json tournament(const std::string& id) { return get("/api/tournaments/" + id); }
    /// Ticks (1 s of fake time each) until `done` or `max` ticks.
    bool tick_until(const std::function<bool()>& done, int max = 20000) {
        for (int i = 0; i < max; ++i) {
            if (done()) return true;
            now += 1000;
            tick();
        }
        return done();
    }
};

/// A tournament created and opened by `org` (signed in on `c`); returns its id.
std::string create(TournamentHarness& h, ConnId c, json settings) {
    settings["type"] = "tournament_create";
    const json made = h.send(c, settings);
    EXPECT_EQ(made["type"], "tournament_created") << made.dump();
    const std::string id = made.value("tournament", "");
    EXPECT_EQ(h.send(c, {{"type", "tournament_open"}, {"tournament", id}})["type"], "ok");
    return id;
}

void enter_bots(TournamentHarness& h, ConnId org, const std::string& id, int teams) {
    for (int i = 0; i < teams; ++i) {
        const json r = h.send(org, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"bot:heuristic", "bot:heuristic"}}});
        ASSERT_EQ(r["type"], "ok") << r.dump();
    }
}

int done_matches(const json& t) {
    int n = 0;
    for (const auto& m : t["matches"]) n += m["state"] == "done";
    return n;
}

TEST(HallTournament, EightBotTeamsPlayTheirBracketToTheFinal) {
    TournamentHarness h;
    const ConnId org = h.connect();
    h.sign_in(org, "Organiser");
    const std::string id = create(h, org, {{"name", "Cup"}, {"size", 8}, {"target", 7}, {"turn_seconds", 0}});
    enter_bots(h, org, id, 8);
    EXPECT_EQ(h.send(org, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"bot:heuristic", "bot:heuristic"}}})["code"],
              "tournament_full");
    ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
    h.tick();
    // Round 1: four tables, public, with the bracket tie-break.
    json t = h.tournament(id);
    int tables = 0;
    for (const auto& m : t["matches"])
        if (m["state"] == "playing") {
            ++tables;
            const Table* table = h.hall.table(m["table"]);
            ASSERT_NE(table, nullptr);
            EXPECT_TRUE(table->settings().bracket_tiebreak);
            EXPECT_FALSE(table->settings().is_private);
        }
    EXPECT_EQ(tables, 4);
    ASSERT_TRUE(h.tick_until([&] { return h.tournament(id)["state"] == "finished"; }));
    t = h.tournament(id);
    EXPECT_EQ(done_matches(t), 7);
    ASSERT_FALSE(t["champion"].is_null());
    std::set<std::string> records;
    for (const auto& m : t["matches"]) {
        ASSERT_FALSE(m["record"].get<std::string>().empty());
        records.insert(m["record"]);
        EXPECT_TRUE(m["winner"] == 0 || m["winner"] == 1) << m.dump();  // a knockout match: no draw
        // Each match's record is stored and names the teams' seats.
        const json stored = h.get("/api/matches/" + m["record"].get<std::string>());
        ASSERT_FALSE(stored.is_null()) << m["record"];
    }
    EXPECT_EQ(records.size(), 7u);
    // The final's winner is the champion; the list shows it finished.
    const auto& final_match = t["matches"][6];
    EXPECT_EQ(t["champion"], final_match["teams"][final_match["winner"].get<int>()]);
    const json list = h.get("/api/tournaments");
    ASSERT_EQ(list["tournaments"].size(), 1u);
    EXPECT_EQ(list["tournaments"][0]["state"], "finished");
    // No card anywhere in the tournament's JSON.
    EXPECT_EQ(t.dump().find("hand"), std::string::npos);
}

TEST(HallTournament, LiveTournamentsAreBoundedPerOrganiserAndPerAddress) {
    TournamentHarness h;
    const json cup = {{"name", "Cup"}, {"size", 4}, {"target", 7}, {"turn_seconds", 0}};
    // four guest names from one address: 2 tournaments per organiser, 4 per address
    std::vector<ConnId> one;
    for (int i = 0; i < 3; ++i) {
        one.push_back(h.connect("10.0.0.1"));
        h.sign_in(one.back(), "Org" + std::to_string(i));
    }
    json create_msg = cup;
    create_msg["type"] = "tournament_create";
    std::vector<std::string> made;
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) {
            const json r = h.send(one[i], create_msg);
            ASSERT_EQ(r["type"], "tournament_created") << r.dump();
            made.push_back(r["tournament"]);
        }
    EXPECT_EQ(h.send(one[0], create_msg)["code"], "too_many_tournaments");  // its own two
    EXPECT_EQ(h.send(one[2], create_msg)["code"], "too_many_tournaments");  // the address's four
    // another address is not held back by this one
    const ConnId other = h.connect("10.0.0.2");
    h.sign_in(other, "Elsewhere");
    EXPECT_EQ(h.send(other, create_msg)["type"], "tournament_created");
    // a cancelled tournament frees its slot
    ASSERT_EQ(h.send(one[0], {{"type", "tournament_cancel"}, {"tournament", made[0]}})["type"], "ok");
    EXPECT_EQ(h.send(one[2], create_msg)["type"], "tournament_created");
}

TEST(HallTournament, SeatsAreReservedAndOnlyTheOrganiserRunsIt) {
    TournamentHarness h;
    const ConnId org = h.connect(), layla = h.connect(), omar = h.connect(), rana = h.connect();
    h.sign_in(org, "Organiser");
    h.sign_in(layla, "Layla");
    h.sign_in(omar, "Omar");
    h.sign_in(rana, "Rana");
    const std::string id = create(h, org, {{"name", "Cup"}, {"size", 4}, {"target", 7}, {"turn_seconds", 0}, {"seat_seconds", 60}});
    EXPECT_EQ(h.send(layla, {{"type", "tournament_start"}, {"tournament", id}})["code"], "not_organiser");
    EXPECT_EQ(h.send(layla, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"Omar", "Rana"}}})["code"], "not_organiser");
    ASSERT_EQ(h.send(layla, {{"type", "tournament_enter"}, {"tournament", id}, {"partner", "Omar"}})["type"], "ok");
    ASSERT_EQ(h.send(omar, {{"type", "tournament_accept"}, {"tournament", id}})["type"], "ok");
    EXPECT_EQ(h.send(omar, {{"type", "tournament_enter"}, {"tournament", id}, {"partner", "Rana"}})["code"], "already_entered");
    EXPECT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["code"], "not_enough_teams");
    enter_bots(h, org, id, 3);
    EXPECT_EQ(h.send(org, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"bot:nobody", "bot:heuristic"}}})["code"],
              "unknown_bot");
    ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
    EXPECT_EQ(h.send(layla, {{"type", "tournament_withdraw"}, {"tournament", id}})["code"], "registration_closed");
    h.tick();
    // Layla and Omar's match: their team's seats wait for them; the other side's bots sit.
    json t = h.tournament(id);
    std::string table;
    int side = -1;
    for (const auto& m : t["matches"])
        for (int s = 0; s < 2; ++s)
            if (m["state"] == "playing" && m["teams"][s].is_number() &&
                t["teams"][m["teams"][s].get<int>()]["players"][0] == "Layla") {
                table = m["table"];
                side = s;
            }
    ASSERT_FALSE(table.empty());
    h.tick();
    h.tick();
    const json reserved = h.send(rana, {{"type", "join"}, {"table", table}, {"seat", side}});
    EXPECT_EQ(reserved["code"], "seat_reserved");
    EXPECT_EQ(reserved["message"], tournament_error_text("seat_reserved"));  // a sentence for people
    EXPECT_EQ(h.send(omar, {{"type", "join"}, {"table", table}, {"seat", side}})["code"], "seat_reserved");  // Layla's
    ASSERT_EQ(h.send(layla, {{"type", "join"}, {"table", table}, {"seat", side}})["type"], "ok");
    EXPECT_EQ(h.send(layla, {{"type", "start"}})["code"], "tournament_table");
    EXPECT_EQ(h.send(layla, {{"type", "add_bot"}, {"seat", side + 2}})["code"], "tournament_table");
    ASSERT_EQ(h.send(rana, {{"type", "join"}, {"table", table}})["type"], "ok");  // anyone may watch
    ASSERT_EQ(h.send(omar, {{"type", "join"}, {"table", table}, {"seat", side + 2}})["type"], "ok");
    h.tick();
    EXPECT_EQ(h.hall.table(table)->state(), TableState::playing);  // started by itself
    // Both players' profiles list the tournament, each with the other as partner; Rana's none.
    const json layla_profile = h.get("/api/players/Layla");
    ASSERT_EQ(layla_profile["tournaments"].size(), 1u) << layla_profile.dump();
    EXPECT_EQ(layla_profile["tournaments"][0],
              (json{{"id", id}, {"name", "Cup"}, {"format", "knockout"}, {"state", "running"}, {"partner", "Omar"}, {"champion", false}}));
    EXPECT_EQ(h.get("/api/players/Omar")["tournaments"][0]["partner"], "Layla");
    EXPECT_EQ(h.get("/api/players/Rana")["tournaments"], json::array());
}

TEST(HallTournament, ATeamThatDoesNotComeForfeitsOrBotsPlayForIt) {
    for (const std::string no_show : {"forfeit", "bots"}) {
        TournamentHarness h;
        const ConnId org = h.connect(), layla = h.connect(), omar = h.connect();
        h.sign_in(org, "Organiser");
        h.sign_in(layla, "Layla");
        h.sign_in(omar, "Omar");
        const std::string id = create(h, org, {{"name", "Cup"}, {"size", 4}, {"target", 7}, {"turn_seconds", 0},
                                               {"seat_seconds", 60}, {"no_show", no_show}});
        ASSERT_EQ(h.send(layla, {{"type", "tournament_enter"}, {"tournament", id}, {"partner", "Omar"}})["type"], "ok");
        ASSERT_EQ(h.send(omar, {{"type", "tournament_enter"}, {"tournament", id}, {"partner", "layla"}})["type"], "ok");  // accepts
        enter_bots(h, org, id, 3);
        ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
        h.tick();
        auto layla_match = [&] {
            const json t = h.tournament(id);
            for (const auto& m : t["matches"])
                for (int s = 0; s < 2; ++s)
                    if (m["teams"][s].is_number() && t["teams"][m["teams"][s].get<int>()]["players"][0] == "Layla") return m;
            return json();
        };
        // Layla sits, Omar never comes. Before the seat time nothing happens.
        const json m = layla_match();
        const int side = m["teams"][0].is_number() && h.tournament(id)["teams"][m["teams"][0].get<int>()]["players"][0] == "Layla" ? 0 : 1;
        ASSERT_EQ(h.send(layla, {{"type", "join"}, {"table", m["table"]}, {"seat", side}})["type"], "ok");
        h.now += 30'000;
        h.tick();
        EXPECT_EQ(layla_match()["state"], "playing");
        EXPECT_EQ(h.hall.table(m["table"])->state(), TableState::waiting);
        h.now += 31'000;
        for (int i = 0; i < 4; ++i) h.tick();  // the other side's bots sit one a tick, then the seat time
        if (no_show == "forfeit") {
            const json after = h.tournament(id)["matches"][m["slot"].get<int>()];  // a first-round match
            EXPECT_EQ(after["state"], "done");
            EXPECT_EQ(after["forfeited"][side], true);
            EXPECT_EQ(after["winner"], 1 - side);
            EXPECT_EQ(after["scores"][1 - side], 7);
            EXPECT_EQ(after["record"], "");
        } else {
            // A bot took Omar's seat and the match is played.
            const Table* table = h.hall.table(m["table"]);
            ASSERT_NE(table, nullptr);
            EXPECT_EQ(table->seat_info(seat(side + 2)).kind, SeatInfo::Kind::bot);
            EXPECT_EQ(table->state(), TableState::playing);
        }
    }
}

TEST(HallTournament, RoundRobinOfThreeBotTeamsGivesATableOfResults) {
    TournamentHarness h;
    const ConnId org = h.connect();
    h.sign_in(org, "Organiser");
    const std::string id = create(h, org, {{"name", "League"}, {"format", "round_robin"}, {"size", 3}, {"target", 7}, {"turn_seconds", 0}});
    enter_bots(h, org, id, 3);
    ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
    ASSERT_TRUE(h.tick_until([&] { return h.tournament(id)["state"] == "finished"; }));
    const json t = h.tournament(id);
    EXPECT_EQ(done_matches(t), 3);
    ASSERT_EQ(t["standings"].size(), 3u);
    int played = 0;
    for (const auto& row : t["standings"]) played += row["played"].get<int>();
    EXPECT_EQ(played, 6);
    EXPECT_EQ(t["champion"], t["standings"][0]["team"]);
    for (const auto& m : t["matches"]) EXPECT_FALSE(h.hall.table(m["table"]) && h.hall.table(m["table"])->settings().bracket_tiebreak);
}

TEST(HallTournament, RestartMidRoundEveryMatchResumesNoResultLostOrCountedTwice) {
    const auto dir = std::filesystem::temp_directory_path() / ("tarneeb-tourney-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    std::filesystem::remove(db);
    std::string id;
    json before;
    Millis now = 0;
    // Bots act once a second (one action a table each tick), so that a kill finds matches mid-way.
    HallConfig slow = TournamentHarness::config();
    slow.timing.bot_delay_ms = 1000;
    {
        TournamentHarness h(db, slow);
        const ConnId org = h.connect();
        h.sign_in(org, "Organiser");
        id = create(h, org, {{"name", "Cup"}, {"size", 8}, {"target", 7}, {"turn_seconds", 0}});
        enter_bots(h, org, id, 8);
        ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
        // Until some of round 1 is done and another match is mid-way at its table.
        ASSERT_TRUE(h.tick_until([&] {
            const json t = h.tournament(id);
            bool mid = false;
            for (const auto& m : t["matches"])
                if (m["state"] == "playing")
                    if (const Table* table = h.hall.table(m["table"]); table && table->state() == TableState::playing &&
                                                                        table->match().has_round())
                        mid = true;
            return done_matches(t) >= 2 && mid;
        }));
        before = h.tournament(id);
        now = h.now;
    }  // "crash": the hall is gone, only the database is left
    TournamentHarness h(db, slow);
    h.now = now;
    h.hall.resume(h.now);
    json after = h.tournament(id);
    ASSERT_FALSE(after.is_null());
    // Every result written before is there, unchanged; every playing match has its table back.
    for (std::size_t i = 0; i < before["matches"].size(); ++i) {
        const auto& b = before["matches"][i];
        if (b["state"] == "done") {
            EXPECT_EQ(after["matches"][i], b);
        }
        if (after["matches"][i]["state"] == "playing") {
            EXPECT_NE(h.hall.table(after["matches"][i]["table"]), nullptr) << i;
        }
    }
    ASSERT_TRUE(h.tick_until([&] { return h.tournament(id)["state"] == "finished"; }));
    after = h.tournament(id);
    EXPECT_EQ(done_matches(after), 7);
    for (std::size_t i = 0; i < before["matches"].size(); ++i)
        if (before["matches"][i]["state"] == "done") {
            EXPECT_EQ(after["matches"][i], before["matches"][i]);
        }
    // Each match once: seven distinct records, each stored once, and each team in round 2 and
    // the final came from the match before it.
    std::set<std::string> records;
    for (const auto& m : after["matches"]) records.insert(m["record"]);
    EXPECT_EQ(records.size(), 7u);
    for (int k = 4; k < 7; ++k) {
        const auto& m = after["matches"][k];
        const int first = k == 6 ? 4 : (k - 4) * 2;
        for (int s = 0; s < 2; ++s) {
            const auto& feeder = after["matches"][first + s];
            EXPECT_EQ(m["teams"][s], feeder["teams"][feeder["winner"].get<int>()]);
        }
    }
    const json page = h.get("/api/matches?limit=50");
    ASSERT_FALSE(page.is_null());
    EXPECT_EQ(page["matches"].size(), 7u);
    std::filesystem::remove_all(dir);
}

// Issue 27: partners resolve to the players sign-in knows (case and look-alikes are the same
// person, unknown names are refused), a named partner accepts before the team counts, a person
// plays in one tournament at a time, and a match being played shows its score.
TEST(HallTournament, PartnersAreRealPlayersWhoAcceptAndPlayOneTournamentAtATime) {
    TournamentHarness h;
    const ConnId org = h.connect(), layla = h.connect(), omar = h.connect();
    h.sign_in(org, "Organiser");
    h.sign_in(layla, "Layla");
    h.sign_in(omar, "Omar");
    const json cup = {{"name", "Cup"}, {"size", 4}, {"target", 7}, {"turn_seconds", 0}, {"seat_seconds", 60}};
    const std::string id = create(h, org, cup);
    auto enter = [&](ConnId c, const std::string& tid, const json& partner) {
        return h.send(c, {{"type", "tournament_enter"}, {"tournament", tid}, {"partner", partner}});
    };
    EXPECT_EQ(enter(layla, id, "Nobody")["code"], "no_such_player");
    EXPECT_EQ(h.send(org, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"omar", "Lay1a"}}})["type"], "ok");
    // The organiser's team of two people is an invitation in their real names, not a team.
    json t = h.tournament(id);
    EXPECT_EQ(t["teams"], json::array());
    ASSERT_EQ(t["invites"].size(), 1u) << t.dump();
    EXPECT_EQ(t["invites"][0]["players"], (json{"Omar", "Layla"}));
    EXPECT_EQ(t["invites"][0]["accepted"], (json{false, false}));
    EXPECT_EQ(h.send(org, {{"type", "tournament_accept"}, {"tournament", id}})["code"], "not_invited");
    // `LAYLA` entering with `OMAR` is Layla entering with Omar: he has not accepted yet.
    ASSERT_EQ(enter(layla, id, "OMAR")["type"], "ok");
    EXPECT_EQ(h.tournament(id)["teams"], json::array());
    ASSERT_EQ(h.send(omar, {{"type", "tournament_accept"}, {"tournament", id}})["type"], "ok");
    t = h.tournament(id);
    ASSERT_EQ(t["teams"].size(), 1u);
    EXPECT_EQ(t["teams"][0]["players"], (json{"Omar", "Layla"}));
    EXPECT_EQ(t["invites"], json::array());
    EXPECT_EQ(enter(omar, id, "bot:heuristic")["code"], "already_entered");
    // A second tournament: neither may enter while the first is not over for them.
    const ConnId org2 = h.connect("10.0.0.9");
    h.sign_in(org2, "Second");
    const std::string id2 = create(h, org2, cup);
    const json busy = enter(layla, id2, "bot:heuristic");
    EXPECT_EQ(busy["code"], "in_another_tournament");
    EXPECT_EQ(h.send(org2, {{"type", "tournament_enter"}, {"tournament", id2}, {"players", {"bot:heuristic", "OMAR"}}})["code"],
              "in_another_tournament");
    // The first starts; their match is played and shows its score as it goes.
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(h.send(org, {{"type", "tournament_enter"}, {"tournament", id}, {"players", {"bot:heuristic", "bot:heuristic"}}})["type"], "ok");
    ASSERT_EQ(h.send(org, {{"type", "tournament_start"}, {"tournament", id}})["type"], "ok");
    h.tick();
    t = h.tournament(id);
    std::string table;
    int side = -1;
    for (const auto& m : t["matches"])
        for (int s = 0; s < 2; ++s)
            if (m["state"] == "playing" && m["teams"][s] == 0) {
                table = m["table"];
                side = s;
            }
    ASSERT_FALSE(table.empty()) << t.dump();
    ASSERT_EQ(h.send(omar, {{"type", "join"}, {"table", table}, {"seat", side}})["type"], "ok");
    ASSERT_EQ(h.send(layla, {{"type", "join"}, {"table", table}, {"seat", side + 2}})["type"], "ok");
    ASSERT_TRUE(h.tick_until([&] { return h.hall.table(table)->state() == TableState::playing; }, 10));
    const auto live = [&] {
        const json now = h.tournament(id);
        for (const auto& m : now["matches"])
            if (m["table"] == table) return m.value("live", json());
        return json();
    };
    EXPECT_EQ(live(), (json{0, 0}));
    // The organiser cancels: the tournament is over for everyone, so they may enter the other.
    ASSERT_EQ(h.send(org, {{"type", "tournament_cancel"}, {"tournament", id}})["type"], "ok");
    EXPECT_EQ(enter(layla, id2, "Omar")["type"], "ok");
}

}  // namespace
}  // namespace tarneeb::server
