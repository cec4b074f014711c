// Fault tests against the real `tarneeb serve` (issue 7, docs/reliability.md "Fault tests"):
//  - the server killed with SIGKILL at seeded random points of a match, restarted each time:
//    the table resumes, no acknowledged action is lost, no round is scored twice;
//  - the database file full (RLIMIT_FSIZE in the server's process: writes fail with EFBIG) and
//    read-only: a clear error with a stable code, the server keeps its tables (or refuses to
//    start), and the database passes PRAGMA integrity_check afterwards;
//  - a client sending garbage, huge frames and thousands of messages a second is rate-limited
//    and closed while a match at another table goes on with normal latency.
#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <sqlite3.h>

#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"
#include "../test_util.hpp"
#include "ws_harness.hpp"

namespace tarneeb::server {
namespace {

using namespace testing;

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// PRAGMA integrity_check of a database file ("ok" when sound).
std::string integrity(const std::string& db) {
    sqlite3* h = nullptr;
    if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(h);
        return "cannot open";
    }
    std::string result;
    sqlite3_exec(h, "PRAGMA integrity_check", [](void* out, int, char** values, char**) {
        *static_cast<std::string*>(out) += values[0] ? values[0] : "?";
        return 0;
    }, &result, nullptr);
    sqlite3_close(h);
    return result;
}

/// The answer (ok or error) to the request with this id, or null.
json answer(const Client& c, int id) {
    for (const auto& f : c.frames) {
        auto j = json::parse(f);
        if (j.contains("id") && j["id"] == id && (j["type"] == "ok" || j["type"] == "error")) return j;
    }
    return nullptr;
}

/// The action a simple player takes from a table message with legal actions: the lowest bid
/// when nobody has bid yet (so that rounds have a contract), else the first legal action.
json choose(const json& t) {
    json action = t["legal"][0];
    if (t["round"]["phase"] == "auction" && t["legal"].size() > 1) {
        bool bid_made = false;
        for (const auto& call : t["round"]["calls"]) bid_made |= call["call"] != "pass";
        if (!bid_made) action = t["legal"][1];
    }
    return action;
}

/// A player of the kill test: its connection in the current server, every frame it got.
struct Player {
    std::string name;
    std::string token;
    std::unique_ptr<Client> client;
    std::vector<std::string> all_frames;  ///< across every server

    std::vector<std::unique_ptr<Client>> retired;  ///< kept alive: their reads may still be queued

    /// Keeps the frames of the current connection and closes it.
    void keep_frames() {
        if (!client) return;
        all_frames.insert(all_frames.end(), client->frames.begin(), client->frames.end());
        client->close();
        retired.push_back(std::move(client));
    }
};

TEST(Fault, KilledAtRandomPointsTheMatchResumesAndLosesNothing) {
    const std::string db = temp_db("kill");
    const std::vector<std::string> seeded{"--seed", "2026"};  // the same deals on every run
    auto server = std::make_unique<ServerProcess>(db, seeded);
    ASSERT_NE(server->port(), 0);
    net::io_context ioc;
    std::vector<Player> players(2);  // seats 0 and 2
    players[0].name = "Layla";
    players[1].name = "Rana";
    Rng rng(20261130);
    std::string tid;
    int id = 0;
    std::uint64_t max_acked = 0;
    struct Acked { int deal; std::string card; };
    std::vector<Acked> acked_cards;
    int kills = 0, in_flight_kills = 0, in_flight_applied = 0;
    bool over = false;

    const auto connect_all = [&] {
        for (auto& p : players) {
            p.keep_frames();
            p.client = std::make_unique<Client>(ioc, server->port());
            if (p.token.empty()) {
                p.token = sign_in(ioc, *p.client, p.name);
                ASSERT_FALSE(p.token.empty());
            } else {
                p.client->send({{"type", "hello"}, {"token", p.token}});
                ASSERT_TRUE(pump(ioc, [&] { return !p.client->last("table").is_null(); })) << p.name << " got no table back; frames: " << (p.client->frames.empty() ? std::string("none") : p.client->frames.back());
            }
        }
    };
    connect_all();
    // To 21 points; to 11 under the sanitizers (each restart of an instrumented server is
    // costly), with the kills closer together there: four of them.
    players[0].client->send({{"type", "create"}, {"target", test::under_sanitizers(21, 11)}, {"turn_seconds", 0}});
    ASSERT_TRUE(pump(ioc, [&] { return !players[0].client->last("created").is_null(); }));
    tid = players[0].client->last("created")["table"];
    players[0].client->send({{"type", "join"}, {"table", tid}, {"seat", 0}});
    players[1].client->send({{"type", "join"}, {"table", tid}, {"seat", 2}});
    ASSERT_TRUE(pump(ioc, [&] { auto t = players[1].client->last("table"); return !t.is_null() && !t["seats"][0].is_null() && !t["seats"][2].is_null(); }));
    for (int s : {1, 3}) players[0].client->send({{"type", "add_bot"}, {"seat", s}});
    players[0].client->send({{"type", "start"}});

    while (!over) {
        // Up to the next kill: a seeded number of acknowledged actions, then the kill, either
        // with nothing in flight or right after sending one more action.
        const auto spacing = static_cast<std::uint64_t>(test::under_sanitizers(30, 6));  // closer there: a shorter match
        const int actions = 3 + static_cast<int>(rng.below(spacing));
        const bool in_flight = rng.below(2) == 1;
        int done = 0;
        json sent_msg;      // the action in flight at the kill, if any
        json acted_on;      // the table message that action was sent at
        json last_seen;     // with nothing in flight: the actor's latest table message
        std::size_t actor = 0;
        while (!over) {
            // Whose turn: the player whose latest table message offers actions.
            std::optional<std::size_t> who;
            ASSERT_TRUE(pump(ioc, [&] {
                for (std::size_t i = 0; i < players.size(); ++i) {
                    const auto t = players[i].client->last("table");
                    if (t.is_null()) continue;
                    if (t["state"] == "finished") { over = true; return true; }
                    if (!t["legal"].empty()) { who = i; return true; }
                }
                return false;
            })) << "nobody can act";
            if (over) break;
            actor = *who;
            Client& c = *players[actor].client;
            acted_on = c.last("table");
            const json msg{{"type", "act"}, {"id", ++id}, {"version", acted_on["version"]}, {"action", choose(acted_on)}};
            c.send(msg);
            if (done == actions && in_flight) {
                sent_msg = msg;
                break;
            }
            ASSERT_TRUE(pump(ioc, [&] { return !answer(c, id).is_null(); }));
            const json a = answer(c, id);
            ASSERT_EQ(a["type"], "ok") << a.dump();
            max_acked = std::max<std::uint64_t>(max_acked, a["version"]);
            if (msg["action"].contains("card"))
                acked_cards.push_back({acted_on["round"]["number"].get<int>(), msg["action"]["card"].get<std::string>()});
            // Both players see the change and the bots' answers: the table is at rest (a player
            // may act, or the match is over) and both show the same version. Only then is
            // "where it was" well defined: bots think on their own threads and may still be
            // moving when the acknowledgement arrives.
            ASSERT_TRUE(pump(ioc, [&] {
                const auto mine = c.last("table");
                if (mine.is_null() || mine["version"].get<std::uint64_t>() < a["version"].get<std::uint64_t>()) return false;
                bool at_rest = mine["state"] == "finished";
                for (const auto& p : players) {
                    const auto t = p.client->last("table");
                    if (t.is_null() || t["version"] != mine["version"]) return false;
                    at_rest |= !t["legal"].empty();
                }
                return at_rest;
            }));
            last_seen = c.last("table");
            if (++done > actions) break;
        }
        if (over) break;

        server->stop(SIGKILL);
        ++kills;
        server = std::make_unique<ServerProcess>(db, seeded);
        ASSERT_NE(server->port(), 0) << read_file(server->log_path());
        connect_all();
        const json after = players[actor].client->last("table");
        const std::uint64_t resumed = after["version"];
        EXPECT_GE(resumed, max_acked) << "an acknowledged action was lost (kill " << kills << ")";
        const std::uint64_t sent_version = acted_on["version"];
        if (sent_msg.is_null()) {
            // Nothing in flight: exactly where it was.
            EXPECT_EQ(resumed, last_seen["version"].get<std::uint64_t>());
            EXPECT_EQ(after["round"], last_seen["round"]);
            EXPECT_EQ(after["scores"], last_seen["scores"]);
            EXPECT_EQ(after["legal"], last_seen["legal"]);
        } else {
            // The action in flight was applied or not; sending it again is stale or applies it, once.
            ++in_flight_kills;
            in_flight_applied += resumed > sent_version;
            EXPECT_TRUE(resumed == sent_version || resumed > sent_version);
            json again = sent_msg;
            again["id"] = ++id;
            players[actor].client->send(again);
            ASSERT_TRUE(pump(ioc, [&] { return !answer(*players[actor].client, id).is_null(); }));
            const json a = answer(*players[actor].client, id);
            if (resumed == sent_version) {
                ASSERT_EQ(a["type"], "ok") << a.dump();
                max_acked = std::max<std::uint64_t>(max_acked, a["version"]);
                // Everyone sees the change before anyone acts again (else a stale view acts).
                ASSERT_TRUE(pump(ioc, [&] {
                    return std::all_of(players.begin(), players.end(), [&](const Player& p) {
                        return p.client->last("table")["version"].get<std::uint64_t>() >= a["version"].get<std::uint64_t>();
                    });
                }));
            } else {
                EXPECT_EQ(a["code"], "stale") << a.dump();
            }
            if (a["type"] == "ok" && sent_msg["action"].contains("card"))
                acked_cards.push_back({acted_on["round"]["number"].get<int>(), sent_msg["action"]["card"].get<std::string>()});
        }
    }
    for (auto& p : players) {
        const auto frames = p.client->frames;
        p.all_frames.insert(p.all_frames.end(), frames.begin(), frames.end());
    }
    std::cout << "[kill] " << kills << " kills, " << in_flight_kills << " with an action in flight (" << in_flight_applied
              << " of them applied before the kill)\n";
    EXPECT_GE(kills, 3) << "the match ended before enough kills: lower the target or the action counts";

    // The stored match: a legal record whose totals are the table's, every acknowledged card
    // in the deal it was played in, and each round scored once.
    const auto [status, body] = http_get(server->port(), "/api/matches/" + tid + "-1");
    ASSERT_EQ(status, 200);
    const auto replayed = records::replay(body);
    ASSERT_FALSE(replayed.error.has_value());
    const json record = json::parse(body);
    const json result = records::result_json(replayed);
    const json final_table = players[0].client->last("table");
    EXPECT_EQ(final_table["scores"], result["totals"]);
    for (const auto& a : acked_cards) {
        const auto& play = record["deals"][static_cast<std::size_t>(a.deal - 1)]["play"];
        EXPECT_NE(std::find(play.begin(), play.end(), a.card), play.end()) << a.card << " of deal " << a.deal << " lost";
    }
    std::vector<json> totals;
    for (const auto& d : result["deals"])
        if (!d["passed_out"].get<bool>()) totals.push_back(d["totals"]);
    std::size_t next = 0;
    for (const auto& f : players[0].all_frames) {
        const auto j = json::parse(f);
        if (j["type"] != "table") continue;
        for (const auto& e : j["events"]) {
            if (e["event"] != "round_scored") continue;
            // Each observed score is a later round's running total than the one before it.
            while (next < totals.size() && totals[next] != e["scores"]) ++next;
            ASSERT_LT(next, totals.size()) << "round_scored " << e.dump() << " is not a new round of the record";
            ++next;
        }
    }
    const auto mine = json::parse(http_get(server->port(), "/api/players/Layla/matches").second);
    EXPECT_EQ(mine["matches"].size(), 1u);
    const auto board = json::parse(http_get(server->port(), "/api/leaderboard").second);
    for (const auto& p : board["players"]) EXPECT_EQ(p["matches"], 1) << p.dump();
    server.reset();
    EXPECT_EQ(integrity(db), "ok");
}

/// One player against three bots; returns the table id.
std::string bots_table(net::io_context& ioc, Client& c, const std::string& name, bool start = true) {
    sign_in(ioc, c, name);
    c.send({{"type", "create"}, {"turn_seconds", 0}});
    pump(ioc, [&] { return !c.last("created").is_null(); });
    const std::string tid = c.last("created")["table"];
    c.send({{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s : {1, 2, 3}) c.send({{"type", "add_bot"}, {"seat", s}});
    if (start) c.send({{"type", "start"}});
    return tid;
}

TEST(Fault, DiskFullRefusesChangesKeepsTheTablesAndRecovers) {
    const std::string db = temp_db("full");
    // Room for the schema and a few dozen journal entries, then EFBIG on every write.
    auto server = std::make_unique<ServerProcess>(db, std::vector<std::string>{}, ChildLimits{.file_size = 320 * 1024});
    ASSERT_NE(server->port(), 0) << read_file(server->log_path());
    net::io_context ioc;
    Client c(ioc, server->port());
    const std::string tid = bots_table(ioc, c, "Layla");
    const std::string token = c.last("welcome")["token"];
    int id = 0;
    std::uint64_t acked = 0;
    json refused;
    // Play until a write fails: our action refused, or a bot's action stuck (healthz says so).
    for (int i = 0; i < 2000 && refused.is_null(); ++i) {
        bool stuck = false;
        ASSERT_TRUE(pump(ioc, [&] {
            const auto t = c.last("table");
            if (!t.is_null() && !t["legal"].empty() && t["version"].get<std::uint64_t>() >= acked) return true;
            stuck = http_get(server->port(), "/healthz").first == 503;
            return stuck;
        }, 20s)) << "no turn and no storage error";
        if (stuck) break;
        const auto t = c.last("table");
        ASSERT_NE(t["state"], "finished") << "the match ended before the file was full";
        c.send({{"type", "act"}, {"id", ++id}, {"version", t["version"]}, {"action", choose(t)}});
        ASSERT_TRUE(pump(ioc, [&] { return !answer(c, id).is_null(); }));
        const json a = answer(c, id);
        if (a["type"] == "ok") {
            acked = a["version"];
            continue;
        }
        ASSERT_EQ(a["code"], "storage_unavailable") << a.dump();
        refused = a;
        EXPECT_EQ(c.last("table")["version"], t["version"]);  // nothing changed
    }
    // The server runs on and says what is wrong, once in its log.
    const auto [hs, hbody] = http_get(server->port(), "/healthz");
    EXPECT_EQ(hs, 503);
    EXPECT_EQ(json::parse(hbody)["code"], "storage_full");
    const auto metrics = json::parse(http_get(server->port(), "/metrics.json").second);
    EXPECT_GE(metrics["storage_errors"].get<int>(), 1);
    EXPECT_EQ(metrics["storage"], "storage_full");
    EXPECT_EQ(http_get(server->port(), "/api/leaderboard").first, 200);  // reads still work
    const std::string log = read_file(server->log_path());
    EXPECT_NE(log.find("event=storage_error code=storage_full"), std::string::npos) << log;
    c.send({{"type", "ping"}});
    EXPECT_TRUE(pump(ioc, [&] { return !c.last("pong").is_null(); }, 5s));
    Client other(ioc, server->port());
    other.send({{"type", "hello"}, {"name", "Omar"}});  // registering a name is a write
    ASSERT_TRUE(pump(ioc, [&] { return !other.last("error").is_null() || !other.last("welcome").is_null(); }));
    EXPECT_EQ(other.last("error")["code"], "storage_unavailable");

    // Space again (the limit raised from outside): the same process goes on.
    const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
    ASSERT_EQ(::prlimit(server->pid(), RLIMIT_FSIZE, &unlimited, nullptr), 0);
    const std::uint64_t frozen = c.last("table")["version"];
    bool went_on = false;  // pump() asks once more after the last true: answer that without acting again
    ASSERT_TRUE(pump(ioc, [&] {
        if (went_on) return true;
        const auto t = c.last("table");
        if (!t["legal"].empty()) {
            // Only a change after the limit was raised shows a write that worked (an "ok" from
            // before the failure does not: the check used to pass on it and race the recovery).
            if (t["version"].get<std::uint64_t>() != frozen) return went_on = true;
            c.send({{"type", "act"}, {"id", ++id}, {"version", t["version"]}, {"action", choose(t)}});
            pump(ioc, [&] { return !answer(c, id).is_null(); }, 5s);
            return went_on = answer(c, id)["type"] == "ok";
        }
        return went_on = t["version"].get<std::uint64_t>() > frozen;  // a stuck bot went on by itself
    }, 20s)) << "last table: " << c.last("table").dump().substr(0, 400) << "\nlast answer: " << answer(c, id).dump()
             << "\nhealthz: " << http_get(server->port(), "/healthz").second << "\nlog: " << read_file(server->log_path());
    EXPECT_EQ(http_get(server->port(), "/healthz").first, 200) << http_get(server->port(), "/metrics.json").second;
    EXPECT_NE(read_file(server->log_path()).find("event=storage_recovered"), std::string::npos);
    const json before_stop = c.last("table");
    server->stop(SIGTERM);
    EXPECT_EQ(integrity(db), "ok");

    // And a restart finds the table where it was.
    server = std::make_unique<ServerProcess>(db);
    ASSERT_NE(server->port(), 0);
    Client back(ioc, server->port());
    back.send({{"type", "hello"}, {"token", token}});
    ASSERT_TRUE(pump(ioc, [&] { return !back.last("table").is_null(); }));
    EXPECT_GE(back.last("table")["version"].get<std::uint64_t>(), before_stop["version"].get<std::uint64_t>());
    EXPECT_EQ(back.last("table")["table"], tid);
}

TEST(Fault, DiskFullWhileAMatchEndsStoresTheMatchLater) {
    // A match that ends while the disk is full: its record is kept and stored once it can be.
    const std::string db = temp_db("full-end");
    ServerProcess server(db, {}, ChildLimits{.file_size = 4 * 1024 * 1024});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    Client c(ioc, server.port());
    const std::string tid = bots_table(ioc, c, "Layla", false);
    c.send({{"type", "start"}});
    // Play to the last round, then fill the disk.
    ASSERT_TRUE(play(ioc, {&c}, [&] {
        const auto t = c.last("table");
        return !t.is_null() && (t["state"] == "finished" ||
                                (t["round"].is_object() && std::max(t["scores"][0].get<int>(), t["scores"][1].get<int>()) >= 20));
    }));
    if (c.last("table")["state"] == "finished") GTEST_SKIP() << "the match ended at once";
    // No write may end past 1 KiB: the WAL's next frame fails wherever it goes (the WAL is
    // rewritten from its start after a checkpoint, so "the current size" would not do).
    const rlimit tight{1024, RLIM_INFINITY};
    ASSERT_EQ(::prlimit(server.pid(), RLIMIT_FSIZE, &tight, nullptr), 0);
    // Writes now fail: the game stops where it is (our action refused or a bot's stuck).
    ASSERT_TRUE(pump(ioc, [&] {
        const auto t = c.last("table");
        if (!t["legal"].empty()) c.send({{"type", "act"}, {"version", t["version"]}, {"action", choose(t)}});
        backoff(ioc, 20ms);  // the pace of the /healthz poll
        return http_get(server.port(), "/healthz").first == 503;
    }, 20s));
    const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
    ASSERT_EQ(::prlimit(server.pid(), RLIMIT_FSIZE, &unlimited, nullptr), 0);
    ASSERT_TRUE(play(ioc, {&c}, [&] { return c.last("table")["state"] == "finished"; }));
    ASSERT_TRUE(pump(ioc, [&] { return http_get(server.port(), "/api/matches/" + tid + "-1").first == 200; }, 5s));
    EXPECT_FALSE(records::replay(http_get(server.port(), "/api/matches/" + tid + "-1").second).error.has_value());
}

TEST(Fault, ReadOnlyDatabaseIsRefusedAtStartAndLeftIntact) {
    const std::string db = temp_db("readonly");
    {
        ServerProcess server(db);
        ASSERT_NE(server.port(), 0);
        net::io_context ioc;
        Client c(ioc, server.port());
        bots_table(ioc, c, "Layla");
        ASSERT_TRUE(pump(ioc, [&] { return !c.last("table").is_null(); }));
    }  // SIGTERM: a clean stop
    const auto dir = std::filesystem::path(db).parent_path();
    const std::string bytes = read_file(db);
    ASSERT_FALSE(bytes.empty());
    ::chmod(db.c_str(), 0444);
    ::chmod(dir.c_str(), 0555);  // no -wal or -shm can be made either
    ServerProcess server(db, {}, ChildLimits{.as_nobody = true});
    EXPECT_EQ(server.port(), 0) << "the server started on a read-only database";
    const int status = server.wait_exit();
    ::chmod(dir.c_str(), 0755);
    ::chmod(db.c_str(), 0644);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    const std::string log = read_file(db + ".log");
    EXPECT_NE(log.find("event=db_open_failed code=storage_read_only"), std::string::npos) << log;
    EXPECT_EQ(read_file(db), bytes);
    EXPECT_EQ(integrity(db), "ok");
}

TEST(Fault, AFloodingClientIsClosedAndAnotherTablePlaysOnUnaffected) {
    const std::string db = temp_db("flood");
    ServerProcess server(db, {"--rate", "20"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    Client player(ioc, server.port());
    bots_table(ioc, player, "Layla");

    Client garbage(ioc, server.port());
    Client huge(ioc, server.port());
    Client flood(ioc, server.port());
    sign_in(ioc, flood, "Flood");
    Client not_utf8(ioc, server.port());
    for (int i = 0; i < 3; ++i) garbage.send_text(std::string("\x01{{{ not json", 13));
    not_utf8.send_text("\xff\xfe{}");  // a text frame must be UTF-8: closed by the WebSocket layer
    huge.send_text(std::string(1 << 20, '['));  // 1 MiB: refused while it arrives

    // The player acts while the flood runs: thousands of messages a second on one connection
    // (15 turns under the sanitizers: 1,500 messages, still far past the limit).
    int id = 0, sent = 0;
    std::vector<double> latency_ms;
    for (int turn = 0; turn < test::under_sanitizers(40, 15); ++turn) {
        for (int i = 0; i < 100 && !flood.ended; ++i, ++sent) flood.send({{"type", "list"}, {"id", sent}});
        ASSERT_TRUE(pump(ioc, [&] { auto t = player.last("table"); return !t.is_null() && (!t["legal"].empty() || t["state"] == "finished"); }));
        const auto t = player.last("table");
        if (t["state"] == "finished") break;
        // test-wait: a player's pace, under the 20 messages a second; nothing waits on it.
        pump(ioc, [] { return false; }, 60ms);
        const auto t0 = std::chrono::steady_clock::now();
        player.send({{"type", "act"}, {"id", ++id}, {"version", t["version"]}, {"action", choose(t)}});
        ASSERT_TRUE(pump(ioc, [&] { return !answer(player, id).is_null(); }, 5s))
            << "turn " << turn << ", last frame: " << player.frames.back().substr(0, 300);
        latency_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        EXPECT_EQ(answer(player, id)["type"], "ok") << answer(player, id).dump();
        pump(ioc, [&] { return player.last("table")["version"].get<std::uint64_t>() > t["version"].get<std::uint64_t>(); }, 5s);
    }
    ASSERT_TRUE(pump(ioc, [&] { return flood.ended && garbage.ended && huge.ended && not_utf8.ended; }, 10s));
    EXPECT_EQ(not_utf8.close_code, 1007);
    EXPECT_EQ(flood.close_code, 1008);
    EXPECT_EQ(garbage.close_code, 1008);
    int limited = 0;
    for (const auto& f : flood.frames) limited += json::parse(f).value("code", "") == "rate_limited";
    EXPECT_GE(limited, 100);
    EXPECT_GT(sent, 240);
    ASSERT_GE(latency_ms.size(), 10u);
    std::sort(latency_ms.begin(), latency_ms.end());
    const double median = latency_ms[latency_ms.size() / 2];
    std::cout << "[flood] " << sent << " messages from the flooding client, " << limited << " rate_limited answers; "
              << latency_ms.size() << " actions at the other table: median " << median << " ms, max " << latency_ms.back()
              << " ms\n";
    // No timed bound here (tests run in parallel, under sanitizers): every action above was
    // answered "ok" within the 5 s liveness wait; the latency itself is measured by the
    // tarneeb-pinglatency benchmark's flood scenario.
    EXPECT_EQ(http_get(server.port(), "/healthz").first, 200);
}


TEST(Fault, VersionsSeenByAClientNeverGoDownAcrossMatchesAndKills) {
    // Found by an outside probe: after a match ended and a new one started, a kill -9 brought the
    // table back at a far lower version (the compacted journal lost it), and an action
    // acknowledged before the crash, sent again word for word, was accepted again.
    const std::string db = temp_db("versions");
    auto server = std::make_unique<ServerProcess>(db);
    ASSERT_NE(server->port(), 0);
    net::io_context ioc;
    auto c = std::make_unique<Client>(ioc, server->port());
    std::vector<std::unique_ptr<Client>> retired;  // closed, kept: their reads may still be queued
    sign_in(ioc, *c, "Layla");
    const std::string token = c->last("welcome")["token"];
    c->send({{"type", "create"}, {"turn_seconds", 0}, {"target", 1}});
    ASSERT_TRUE(pump(ioc, [&] { return !c->last("created").is_null(); }));
    const std::string tid = c->last("created")["table"];
    c->send({{"type", "join"}, {"table", tid}, {"seat", 0}});
    for (int s : {1, 2, 3}) c->send({{"type", "add_bot"}, {"seat", s}});
    c->send({{"type", "start"}});
    std::uint64_t seen = 0;  // the highest version any table message showed
    std::size_t checked = 0;
    const auto check_frames = [&] {
        for (; checked < c->frames.size(); ++checked) {
            const auto j = json::parse(c->frames[checked]);
            if (j["type"] != "table") continue;
            const std::uint64_t v = j["version"];
            EXPECT_GE(v, seen) << "the version went down: " << j.dump().substr(0, 200);
            seen = std::max(seen, v);
        }
    };
    ASSERT_TRUE(play(ioc, {c.get()}, [&] { auto t = c->last("table"); return !t.is_null() && t["state"] == "finished"; }));
    int id = 0;
    for (int kill = 0; kill < 4; ++kill) {
        // A new match (after the first kill the table is mid-match: start is refused, fine).
        c->send({{"type", "start"}, {"id", ++id}});
        ASSERT_TRUE(pump(ioc, [&] { return !answer(*c, id).is_null(); }));
        json acked;
        for (int i = 0; i < 3; ++i) {
            ASSERT_TRUE(pump(ioc, [&] { auto t = c->last("table"); return !t.is_null() && !t["legal"].empty(); }));
            const auto t = c->last("table");
            acked = {{"type", "act"}, {"id", ++id}, {"version", t["version"]}, {"action", choose(t)}};
            c->send(acked);
            ASSERT_TRUE(pump(ioc, [&] { return !answer(*c, id).is_null(); }));
            ASSERT_EQ(answer(*c, id)["type"], "ok") << answer(*c, id).dump();
            pump(ioc, [&] { return c->last("table")["version"].get<std::uint64_t>() > t["version"].get<std::uint64_t>(); });
        }
        check_frames();
        server->stop(SIGKILL);
        server = std::make_unique<ServerProcess>(db);
        ASSERT_NE(server->port(), 0) << read_file(server->log_path());
        c->close();
        retired.push_back(std::move(c));
        c = std::make_unique<Client>(ioc, server->port());
        checked = 0;
        c->send({{"type", "hello"}, {"token", token}});
        ASSERT_TRUE(pump(ioc, [&] { return !c->last("table").is_null(); }));
        check_frames();
        acked["id"] = ++id;  // the acknowledged action again, word for word: stale
        c->send(acked);
        ASSERT_TRUE(pump(ioc, [&] { return !answer(*c, id).is_null(); }));
        EXPECT_EQ(answer(*c, id)["code"], "stale") << "kill " << kill;
    }
}

TEST(Fault, PingsAreAnsweredWhilePimcBotsThinkAndWhileWritesWaitForTheDatabaseLock) {
    // Found by an outside probe: bots decided on the event loop (a lobby ping took up to 6.8 s
    // with five tables of pimc bots) and SQLite's 5 s busy timeout ran there too (another process
    // holding the write lock made every ping take 9.8 s). Both now run on worker threads: a ping
    // is answered while a bot thinks, and while writes wait for the lock. Both are shown by the
    // order of events, never by a time (tarneeb-pinglatency measures the round trips).
    const std::string db = temp_db("latency");
    // The humans send nothing while the lock holds their tables back (their turn does not come),
    // and on a loaded machine that phase ran past the default 60 s idle limit (--idle-seconds):
    // the server closed every human, and the tables went on without them (a 1-in-70 failure
    // beside a compile). The idle limit is not what this test is about: it outlasts the limits.
    ServerProcess server(db, {"--idle-seconds", "600"});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    std::vector<std::unique_ptr<Client>> humans;
    for (int i = 0; i < 5; ++i) {
        humans.push_back(std::make_unique<Client>(ioc, server.port()));
        Client& c = *humans.back();
        ASSERT_FALSE(sign_in(ioc, c, "Player" + std::to_string(i)).empty());
        c.send({{"type", "create"}, {"turn_seconds", 0}});
        ASSERT_TRUE(pump(ioc, [&] { return !c.last("created").is_null() || !c.last("error").is_null(); }));
        ASSERT_FALSE(c.last("created").is_null()) << c.frames.back();
        c.send({{"type", "join"}, {"table", c.last("created")["table"]}, {"seat", 0}});
        for (int s = 1; s < 4; ++s) c.send({{"type", "add_bot"}, {"seat", s}, {"bot", "pimc"}});
        c.send({{"type", "start"}});
    }
    // The lobby client watches the first table.
    Client lobby(ioc, server.port());
    ASSERT_FALSE(sign_in(ioc, lobby, "Lobby").empty());
    lobby.send({{"type", "join"}, {"table", humans[0]->last("created")["table"]}});
    ASSERT_TRUE(pump(ioc, [&] { return !lobby.last("table").is_null(); }));

    // Each human plays its turn at once; the bots' actions are counted at every table.
    std::vector<std::uint64_t> acted(humans.size(), ~std::uint64_t{0});
    std::vector<std::size_t> read(humans.size(), 0);
    std::uint64_t bot_actions = 0;
    const auto step = [&] {
        for (std::size_t i = 0; i < humans.size(); ++i) {
            Client& h = *humans[i];
            for (; read[i] < h.frames.size(); ++read[i]) {
                const auto j = json::parse(h.frames[read[i]]);
                if (j["type"] == "table")
                    for (const auto& e : j["events"]) bot_actions += (e["event"] == "call" || e["event"] == "card") && e["seat"] != 0;
            }
            const auto t = h.last("table");
            if (t.is_null() || t["legal"].empty() || acted[i] == t["version"].get<std::uint64_t>()) continue;
            acted[i] = t["version"];
            h.send({{"type", "act"}, {"version", t["version"]}, {"action", choose(t)}});
        }
    };
    int id = 0;
    // Null while the lobby's pong `ping` is not here (looked for from frame `from` on), else
    // whether a table frame newer than `version` came before it.
    const auto pong = [&](int ping, std::size_t from, std::uint64_t version) -> std::optional<bool> {
        bool newer_first = false;
        for (std::size_t k = from; k < lobby.frames.size(); ++k) {
            const auto j = json::parse(lobby.frames[k]);
            if (j["type"] == "table" && j["version"].get<std::uint64_t>() > version) newer_first = true;
            if (j["type"] == "pong" && j.value("id", json()) == ping) return newer_first;
        }
        return std::nullopt;
    };

    // While a pimc bot thinks: the watched table's last frame says a bot is to act, and a ping
    // sent then is answered before the table's next frame. On the lobby's one connection the
    // server sends in order, so the ping was answered before that bot's action was applied (its
    // frame would have gone first). Ten such pongs, while the bots really play.
    const auto bot_to_act = [](const json& t) {
        return !t.is_null() && t["state"] == "playing" && t["round"].is_object() && t["round"]["to_act"].is_number() &&
               t["round"]["to_act"] != 0;
    };
    std::optional<int> in_flight;
    std::size_t sent_at = 0;
    std::uint64_t sent_version = 0;
    int while_thinking = 0, after_the_bot = 0;
    EXPECT_TRUE(pump(ioc, [&] {
        step();
        if (const auto newer_first = in_flight ? pong(*in_flight, sent_at, sent_version) : std::nullopt) {
            (*newer_first ? after_the_bot : while_thinking) += 1;
            in_flight.reset();
        }
        if (!in_flight && bot_to_act(lobby.last("table"))) {
            sent_at = lobby.frames.size();
            sent_version = lobby.last("table")["version"];
            lobby.send({{"type", "ping"}, {"id", ++id}});
            in_flight = id;
        }
        return while_thinking >= 10 && bot_actions >= 10;
    }, 300s)) << while_thinking << " pongs while a bot was to act (" << after_the_bot << " after it played), "
              << bot_actions << " bot actions";
    std::cout << "[pings] pimc: " << while_thinking << " pongs while a bot was to act, " << after_the_bot
              << " after it played; " << bot_actions << " bot actions\n";

    // Another process takes SQLite's write lock.
    sqlite3* other = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &other), SQLITE_OK);
    // The server may be writing right now (a bot's card): wait for its write to end, as any
    // other SQLite client would, rather than fail on SQLITE_BUSY.
    sqlite3_busy_timeout(other, 10'000);
    ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(other);
    // The tables go on changing (the writer's first write waits for the lock, and the group
    // commit opens a new batch behind it) until writes are waiting in the writer's queue
    // (/metrics "write_queue"). Then a ping sent while writes wait, the lock still held, is
    // answered while they still wait (it did not wait for them): ten times. The tables alone
    // may not keep a job waiting: their writes join one batch, and when every table's write
    // failed in the same batch their retries form one batch again (a job running, none
    // waiting: seen under load in CI). So a new guest signs in now and then (its name is a
    // write of its own, a job apart from the journal's), one at a time: one of the two jobs
    // waits while the other holds the writer.
    const auto write_queue = [&] { return json::parse(http_get(server.port(), "/metrics.json").second)["write_queue"].get<int>(); };
    std::vector<std::unique_ptr<Client>> newcomers;
    const auto newcomer = [&] {
        if (newcomers.size() >= 40) return;  // well under the 64 connections one address may open
        if (!newcomers.empty()) {
            const Client& last = *newcomers.back();
            if (last.last("welcome").is_null() && last.last("error").is_null() && !last.ended) return;
        }
        newcomers.push_back(std::make_unique<Client>(ioc, server.port()));
        newcomers.back()->send({{"type", "hello"}, {"name", "Newcomer" + std::to_string(newcomers.size())}});
    };
    int while_locked = 0;
    const bool answered = eventually(ioc, [&] {
        step();
        newcomer();
        if (write_queue() == 0) return false;
        lobby.send({{"type", "ping"}, {"id", ++id}});
        const std::size_t from = lobby.frames.size();
        if (!pump(ioc, [&] { return pong(id, from, 0).has_value(); })) return false;
        if (write_queue() == 0) return false;
        return ++while_locked >= 10;
    }, 120s);
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(other);
    // Where each table stood, as the humans saw it: their connections and turns (this showed the
    // idle limit above: every human "ended").
    const auto tables = [&] {
        std::string out;
        for (std::size_t i = 0; i < humans.size(); ++i) {
            const Client& h = *humans[i];
            const json t = h.last("table");
            out += "\n  human " + std::to_string(i) + ": ended " + std::to_string(h.ended) + " close " +
                   std::to_string(h.close_code) + " frames " + std::to_string(h.frames.size()) +
                   (t.is_null() ? std::string(" no table")
                                : " version " + t["version"].dump() + " state " + t["state"].dump() + " to_act " +
                                      (t["round"].is_object() ? t["round"]["to_act"].dump() : "-") + " legal " +
                                      std::to_string(t["legal"].size()) + " acted " + std::to_string(acted[i]));
            if (const json e = h.last("error"); !e.is_null()) out += " last error " + e.dump();
        }
        return out;
    };
    EXPECT_TRUE(answered) << while_locked << " pings answered while writes waited for the lock" << tables();
    std::cout << "[pings] database locked: " << while_locked << " pongs while writes waited\n";

    // And the tables go on once the lock is gone.
    const std::uint64_t before = bot_actions;
    EXPECT_TRUE(pump(ioc, [&] {
        step();
        return bot_actions > before;
    }, 120s)) << "no table moved after the lock was released" << tables();
}

}  // namespace
}  // namespace tarneeb::server
