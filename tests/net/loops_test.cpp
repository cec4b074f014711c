// One `tarneeb serve` process with several event loops (`--threads N`; src/net/shard.hpp,
// docs/scaling.md "Every core"): the listener gives connections to the loops in turn, and every
// connection's requests go to the one hall on loop 0 and its frames come back to its loop.
// These were the scenarios of the shards that relayed connections between halls (issue 26),
// kept: a match across loops, a restart, a tournament, limits, a flood, signing out everywhere,
// leaving and creating again. Real processes and clients; every frame of every client is
// checked for hidden cards against the stored record. The timeouts are liveness bounds, never
// speed.
#include <algorithm>
#include <csignal>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "../cluster/match_harness.hpp"
#include "../test_util.hpp"

namespace tarneeb::server::testing {
namespace {

/// The ids of the tables the first page of the lobby shows to client `c`.
std::set<std::string> lobby(net::io_context& ioc, Client& c, int id) {
    c.send({{"type", "list"}, {"id", id}});
    std::set<std::string> ids;
    if (!pump(ioc, [&] { return !c.last("tables").is_null() && c.last("tables").value("id", json()) == id; })) return ids;
    const json page = c.last("tables");
    for (const auto& t : page["tables"]) ids.insert(t["table"].get<std::string>());
    return ids;
}

/// "NAME state" of seat 0 of every table in the lobby client `c` is shown (every page), by id.
std::map<std::string, std::string> lobby_seat0(net::io_context& ioc, Client& c, int& id) {
    std::map<std::string, std::string> out;
    json cursor = nullptr;
    do {
        const json page = request(ioc, c, {{"type", "list"}, {"cursor", cursor}}, id++);
        if (page.value("type", "") != "tables") return out;
        for (const auto& t : page["tables"])
            out[t["table"].get<std::string>()] = (t["seats"][0].is_object() ? t["seats"][0].value("name", "") : "-") + " " + t.value("state", "");
        cursor = page["next"];
    } while (!cursor.is_null());
    return out;
}

TEST(Loops, FourPlayersOnThreeLoopsPlayAWholeMatchAndNoFrameShowsAHiddenCard) {
    ServerProcess server(temp_db("loops-match"), {"--threads", "3", "--grace", "60"});
    ASSERT_NE(server.port(), 0);
    const unsigned short p = server.port();
    Match m;
    // Five connections in turn: loops 0, 1, 2, 0, 1.
    m.seat({p, p, p, p}, p, /*start=*/false);
    // A guest at no table sees it in the lobby.
    Client looker(m.ioc, p);
    ASSERT_FALSE(sign_in(m.ioc, looker, "Looker").empty());
    std::set<std::string> seen;
    EXPECT_TRUE(poll(m.ioc, [&, id = 1]() mutable { return (seen = lobby(m.ioc, looker, id++)).count(m.table) > 0; }, 30s))
        << looker.last("tables").dump();
    m.players[0]->send({{"type", "start"}});
    ASSERT_TRUE(m.play_until([&] { return m.over(); }, 120s)) << "watcher (ended " << m.watcher->ended << ") "
        << m.watcher->has_event("match_over") << " " << m.players[0]->has_event("match_over") << " "
        << (m.watcher->frames.empty() ? "" : m.watcher->frames.back().substr(0, 300));
    m.check_record(p);
    // One hall: every connection counted, none relayed.
    const json all = metrics(p);
    EXPECT_FALSE(all.contains("shards"));
    EXPECT_FALSE(all.contains("cluster"));
    EXPECT_EQ(all["tables"].get<int>(), 1);
    EXPECT_GE(all["connections"].get<int>(), 6);
    EXPECT_EQ(http_get(p, "/healthz").first, 200);
}

TEST(Loops, EveryTableComesBackAfterAKillAndEveryGuestToItsSeat) {
    const std::string db = temp_db("loops-restart");
    auto server = std::make_unique<ServerProcess>(db, std::vector<std::string>{"--threads", "2", "--grace", "60"});
    ASSERT_NE(server->port(), 0);
    net::io_context ioc;
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    std::vector<std::unique_ptr<Client>> guests;
    std::vector<std::string> tokens, tables;
    for (int i = 0; i < 4; ++i) {
        guests.push_back(std::make_unique<Client>(ioc, server->port()));
        tokens.push_back(sign_in(ioc, *guests.back(), names[i]));
        ASSERT_FALSE(tokens.back().empty());
        Client& g = *guests.back();
        g.send({{"type", "create"}, {"id", 1}, {"turn_seconds", 0}});
        ASSERT_TRUE(pump(ioc, [&] { return !g.last("created").is_null(); }));
        tables.push_back(g.last("created")["table"]);
        ASSERT_TRUE(join(ioc, g, {{"type", "join"}, {"table", tables.back()}, {"seat", 0}}));
    }
    EXPECT_EQ(metrics(server->port())["tables"].get<int>(), 4);
    server->stop(SIGKILL);
    // Kept alive: their read handlers are still queued on `ioc`.
    std::vector<std::unique_ptr<Client>> retired = std::move(guests);
    guests.clear();
    server = std::make_unique<ServerProcess>(db, std::vector<std::string>{"--threads", "2", "--grace", "60"});
    ASSERT_NE(server->port(), 0);
    EXPECT_EQ(metrics(server->port())["tables"].get<int>(), 4);
    // Each guest, back with its token on whichever loop, is seated at its table again.
    for (int i = 0; i < 4; ++i) {
        guests.push_back(std::make_unique<Client>(ioc, server->port()));
        Client& g = *guests.back();
        g.send({{"type", "hello"}, {"token", tokens[static_cast<std::size_t>(i)]}});
        ASSERT_TRUE(pump(ioc, [&] { return !g.last("table").is_null(); })) << names[i];
        EXPECT_EQ(g.last("table")["table"], tables[static_cast<std::size_t>(i)]);
    }
}

TEST(Loops, ATournamentCreatedFromAnyLoopRuns) {
    ServerProcess server(temp_db("loops-tournament"), {"--threads", "2"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    Client first(ioc, server.port()), org(ioc, server.port());  // loops 0 and 1
    ASSERT_FALSE(sign_in(ioc, first, "First").empty());
    ASSERT_FALSE(sign_in(ioc, org, "Organiser").empty());
    org.send({{"type", "tournament_create"}, {"id", 1}, {"name", "Cup"}, {"size", 4}, {"target", 31}, {"turn_seconds", 0}});
    ASSERT_TRUE(pump(ioc, [&] { return !org.last("tournament_created").is_null() || !org.last("error").is_null(); }));
    ASSERT_TRUE(org.last("error").is_null()) << org.last("error").dump();
    const json id = org.last("tournament_created")["tournament"];
    org.send({{"type", "tournament_open"}, {"id", 2}, {"tournament", id}});
    for (int i = 0; i < 4; ++i)
        org.send({{"type", "tournament_enter"}, {"id", 3 + i}, {"tournament", id}, {"players", {"bot:heuristic", "bot:heuristic"}}});
    org.send({{"type", "tournament_start"}, {"id", 10}, {"tournament", id}});
    // Its matches are real tables, played by bots to the end.
    json state;
    EXPECT_TRUE(poll(ioc, [&] {
        const auto [status, body] = http_get(server.port(), "/api/tournaments/" + id.get<std::string>());
        state = status == 200 ? json::parse(body) : json();
        return state.is_object() && state.value("state", "") == "finished";
    }, 300s)) << state.dump();
    EXPECT_FALSE(state.value("champion", json()).is_null());
}

TEST(Loops, WaitingTableLimitsHoldForTheWholeProcess) {
    // Three guests on three loops: the limits are counted over every loop.
    ServerProcess server(temp_db("loops-limits"), {"--threads", "3", "--max-waiting-tables-per-address", "2"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    auto answer = [&](Client& c, int id) { return request(ioc, c, {{"type", "create"}}, id); };
    std::vector<std::unique_ptr<Client>> guests;
    for (const char* name : {"Layla", "Omar", "Rana"}) {
        guests.push_back(std::make_unique<Client>(ioc, server.port()));
        ASSERT_FALSE(sign_in(ioc, *guests.back(), name).empty());
    }
    EXPECT_EQ(answer(*guests[0], 1)["type"], "created");
    EXPECT_EQ(answer(*guests[0], 2)["code"], "too_many_waiting_tables");  // one waiting table per guest
    EXPECT_EQ(answer(*guests[1], 3)["type"], "created");
    EXPECT_EQ(answer(*guests[2], 4)["code"], "too_many_waiting_tables");  // two per address
    EXPECT_EQ(metrics(server.port())["tables"].get<int>(), 2);
    // Once Layla's table starts it no longer waits: Layla may create again.
    Client& layla = *guests[0];
    const std::string first = layla.last("created")["table"];
    layla.send({{"type", "join"}, {"table", first}, {"seat", 0}});
    for (int seat : {1, 2, 3}) layla.send({{"type", "add_bot"}, {"seat", seat}});
    layla.send({{"type", "start"}});
    ASSERT_TRUE(pump(ioc, [&] { return layla.has_event("match_started"); }));
    EXPECT_TRUE(poll(ioc, [&, id = 10]() mutable { return answer(*guests[2], id++)["type"] == "created"; }, 10s));
}

TEST(Loops, AFloodFromAnotherLoopIsRefusedAndTheOthersAreStillAnswered) {
    ServerProcess server(temp_db("loops-flood"), {"--threads", "2", "--rate", "20"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    Client first(ioc, server.port());  // loop 0, the hall's
    Client flood(ioc, server.port());  // loop 1: its frames cross to loop 0
    // Two more in turn, loops 0 and 1 (before any HTTP connection takes a turn).
    Client other_home(ioc, server.port()), other_loop(ioc, server.port());
    ASSERT_FALSE(sign_in(ioc, flood, "Flood").empty());
    ASSERT_FALSE(sign_in(ioc, other_home, "Quiet").empty());
    ASSERT_FALSE(sign_in(ioc, other_loop, "Calm").empty());
    constexpr int kFlood = 3000;
    for (int i = 0; i < kFlood && !flood.ended; ++i) flood.send({{"type", "list"}, {"id", i}});
    ASSERT_TRUE(pump(ioc, [&] { return flood.ended; }, 10s));
    EXPECT_EQ(flood.close_code, 1008);
    int limited = 0, answered = 0;
    for (const auto& f : flood.frames) {
        const json msg = json::parse(f);
        limited += msg.value("code", "") == "rate_limited";
        answered += msg.value("type", "") == "tables";
    }
    EXPECT_GE(limited, 100);
    // The burst (40) and what the rate refilled went on, not the flood.
    EXPECT_LT(answered, 200) << "of " << kFlood;
    // The others, on both loops, are answered.
    const std::vector<Client*> others{&other_home, &other_loop};
    for (Client* c : others) c->send({{"type", "ping"}, {"id", "after"}});
    EXPECT_TRUE(pump(ioc, [&] {
        return std::all_of(others.begin(), others.end(),
                           [](Client* c) { return !c->last("pong").is_null() && c->last("pong").value("id", json()) == "after"; });
    }));
}

TEST(Loops, SigningOutEverywhereClosesConnectionsOnEveryLoop) {
    ServerProcess server(temp_db("loops-sign-out"), {"--threads", "2"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    const auto ask = [&](Client& c, json msg, int id) { return request(ioc, c, std::move(msg), id); };
    // The phone (on loop 0) registers, creates a table and sits there.
    Client phone(ioc, server.port());
    ASSERT_FALSE(sign_in(ioc, phone, "Layla").empty());
    ASSERT_EQ(ask(phone, {{"type", "register"}, {"password", "sesame-open-7"}}, 1)["type"], "ok");
    ASSERT_EQ(ask(phone, {{"type", "create"}}, 2)["type"], "created");
    EXPECT_EQ(ask(phone, {{"type", "join"}, {"table", phone.last("created")["table"]}, {"seat", 0}}, 3)["type"], "ok");
    // The laptop (on loop 1) signs in with the password.
    Client laptop(ioc, server.port());
    ASSERT_EQ(ask(laptop, {{"type", "hello"}, {"name", "Layla"}, {"password", "sesame-open-7"}}, 4)["type"], "welcome");
    EXPECT_EQ(ask(laptop, {{"type", "sign_out_everywhere"}}, 5)["type"], "ok");
    EXPECT_TRUE(pump(ioc, [&] { return phone.ended; }, 10s)) << "the phone, on the other loop, stays signed in";
    EXPECT_EQ(phone.close_code, 4001);
    EXPECT_FALSE(laptop.ended);
}

TEST(Loops, AGuestLeavingATableAndCreatingAgainLosesNoAnswer) {
    // A guest who leaves a table and creates another at once must be answered every time and
    // be seen at its new table: the browser's second table in a row once waited forever when
    // connections moved between the halls of a process (issue 26). Two guests (on loops 0 and
    // 1) sit at a started match until every lobby shows them there, leave, and create again
    // after pauses of 0 to 450 ms.
    ServerProcess server(temp_db("loops-home"), {"--threads", "2", "--grace", "60"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    Client first(ioc, server.port()), second(ioc, server.port());
    Client looker(ioc, server.port());  // at no table
    ASSERT_FALSE(sign_in(ioc, first, "Layla").empty());
    ASSERT_FALSE(sign_in(ioc, second, "Omar").empty());
    ASSERT_FALSE(sign_in(ioc, looker, "Looker").empty());
    int id = 1;
    const auto ask = [&](Client& c, json msg) { return request(ioc, c, std::move(msg), id++).value("type", "(none)"); };
    const int rounds = test::under_sanitizers(10, 5);  // half under the sanitizers, the pauses as far apart
    for (int round = 0; round < rounds; ++round) {
        std::map<std::string, std::string> seated;  // table -> "NAME playing"
        for (Client* c : {&first, &second}) {
            const json created = request(ioc, *c, {{"type", "create"}, {"turn_seconds", 0}}, id++);
            ASSERT_EQ(created.value("type", ""), "created") << "round " << round << ": " << created.dump();
            const std::string table = created["table"];
            ASSERT_EQ(ask(*c, {{"type", "join"}, {"table", table}, {"seat", 0}}), "ok") << "round " << round;
            for (int seat : {1, 2, 3}) ASSERT_EQ(ask(*c, {{"type", "add_bot"}, {"seat", seat}}), "ok") << "round " << round;
            ASSERT_EQ(ask(*c, {{"type", "start"}}), "ok") << "round " << round;
            seated[table] = std::string(c == &first ? "Layla" : "Omar") + " playing";
        }
        // Every lobby shows both tables playing with their guest in seat 0.
        std::map<std::string, std::string> seen;
        ASSERT_TRUE(eventually(ioc, [&] {
            for (Client* c : {&looker, &first, &second}) {
                seen = lobby_seat0(ioc, *c, id);
                for (const auto& [table, who] : seated)
                    if (seen[table] != who) return false;
            }
            return true;
        }, 30s, 50ms)) << "round " << round << ": " << json(seen).dump();
        for (Client* c : {&first, &second}) ASSERT_EQ(ask(*c, {{"type", "leave"}}), "ok") << "round " << round;
        // A deliberate pause of 0 to 450 ms, so that the creates of the next round meet the
        // lobby's pushes and the sweep at different moments.
        // test-wait: a deliberate race; nothing below assumes anything happened during it.
        pump(ioc, [] { return false; }, std::chrono::milliseconds(450 * round / (rounds - 1)));
    }
}

}  // namespace
}  // namespace tarneeb::server::testing
