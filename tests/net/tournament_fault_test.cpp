// A tournament against the real `tarneeb serve`, killed with SIGKILL mid-round and restarted
// (issue 15, as tests/net/fault_test.cpp does for a match): an 8-team knockout of bot teams
// goes on to its final; every result written before a kill is there after it, unchanged; each
// match is counted once (seven matches, seven records, each stored once), and each winner
// moved on to the next round.
#include <set>
#include <thread>

#include "ws_harness.hpp"

namespace tarneeb::server {
namespace {
namespace tourney_fault {

using namespace testing;

/// GET `target` as JSON (null unless 200). Polls pause 5 ms between reads so as not to flood the
/// server (no assertion depends on time).
json get_json(unsigned short port, const std::string& target) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // test-wait: a poll's pace, not a wait for anything
    const auto [status, body] = http_get(port, target);
    if (status != 200) return nullptr;
    return json::parse(body);
}

int done_matches(const json& t) {
    int n = 0;
    for (const auto& m : t["matches"]) n += m["state"] == "done";
    return n;
}

TEST(TournamentFault, KilledMidRoundTheBracketResumesAndCountsEachMatchOnce) {
    const std::string db = temp_db("tourney-kill");
    auto server = std::make_unique<ServerProcess>(db);
    ASSERT_NE(server->port(), 0);
    net::io_context ioc;
    std::string id;
    {
        Client org(ioc, server->port());
        ASSERT_FALSE(sign_in(ioc, org, "Organiser").empty());
        org.send({{"type", "tournament_create"}, {"id", 1}, {"name", "Cup"}, {"size", 8}, {"target", 61}, {"turn_seconds", 0}});
        ASSERT_TRUE(pump(ioc, [&] { return !org.last("tournament_created").is_null(); }));
        id = org.last("tournament_created")["tournament"];
        org.send({{"type", "tournament_open"}, {"id", 2}, {"tournament", id}});
        for (int i = 0; i < 8; ++i)
            org.send({{"type", "tournament_enter"}, {"id", 3 + i}, {"tournament", id}, {"players", {"bot:heuristic", "bot:heuristic"}}});
        org.send({{"type", "tournament_start"}, {"id", 20}, {"tournament", id}});
        ASSERT_TRUE(pump(ioc, [&] {
            for (const auto& f : org.frames)
                if (auto j = json::parse(f); j.value("id", json()) == 20) return true;
            return false;
        }));
        for (const auto& f : org.frames) {
            const auto j = json::parse(f);
            if (const json request_id = j.value("id", json()); request_id.is_number() && request_id >= 2) {
                EXPECT_EQ(j["type"], "ok") << f;
            }
        }
        org.close();
    }
    // Kill as soon as 1, then 3, then 5 matches are done (the others are mid-way at their
    // tables or not opened yet), restart, and check what was written before.
    json before = get_json(server->port(), "/api/tournaments/" + id);
    int kills = 0;
    for (int goal : {1, 3, 5}) {
        json now;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);  // liveness bound only
        while (std::chrono::steady_clock::now() < deadline) {
            now = get_json(server->port(), "/api/tournaments/" + id);
            ASSERT_FALSE(now.is_null());
            if (done_matches(now) >= goal || now["state"] == "finished") break;
        }
        if (now["state"] == "finished") break;
        server->stop(SIGKILL);
        ++kills;
        server = std::make_unique<ServerProcess>(db);
        ASSERT_NE(server->port(), 0);
        const json after = get_json(server->port(), "/api/tournaments/" + id);
        ASSERT_FALSE(after.is_null());
        // Every result seen before the kill is there, unchanged.
        for (std::size_t i = 0; i < now["matches"].size(); ++i)
            if (now["matches"][i]["state"] == "done") {
                EXPECT_EQ(after["matches"][i]["winner"], now["matches"][i]["winner"]) << "kill " << kills << " match " << i;
                EXPECT_EQ(after["matches"][i]["record"], now["matches"][i]["record"]) << "kill " << kills << " match " << i;
            }
        before = after;
    }
    json final_state;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);  // liveness bound only
    while (std::chrono::steady_clock::now() < deadline) {
        final_state = get_json(server->port(), "/api/tournaments/" + id);
        if (final_state["state"] == "finished") break;
    }
    ASSERT_EQ(final_state["state"], "finished");
    EXPECT_GE(kills, 1);
    EXPECT_EQ(done_matches(final_state), 7);
    std::set<std::string> records;
    for (const auto& m : final_state["matches"]) {
        records.insert(m["record"]);
        EXPECT_EQ(http_get(server->port(), "/api/matches/" + m["record"].get<std::string>()).first, 200) << m["record"];
    }
    EXPECT_EQ(records.size(), 7u);
    for (int k = 4; k < 7; ++k) {
        const auto& m = final_state["matches"][k];
        const int first = k == 6 ? 4 : (k - 4) * 2;
        for (int s = 0; s < 2; ++s) {
            const auto& feeder = final_state["matches"][first + s];
            EXPECT_EQ(m["teams"][s], feeder["teams"][feeder["winner"].get<int>()]) << "match " << k;
        }
    }
    // Each match stored once: the public list holds exactly the seven.
    const json page = get_json(server->port(), "/api/matches?limit=50");
    ASSERT_FALSE(page.is_null());
    EXPECT_EQ(page["matches"].size(), 7u);
    EXPECT_EQ(final_state["champion"], final_state["matches"][6]["teams"][final_state["matches"][6]["winner"].get<int>()]);
}

}  // namespace tourney_fault
}  // namespace
}  // namespace tarneeb::server
