// A whole match played by real clients over WebSockets against `tarneeb serve` processes (a
// cluster's nodes, or one server with several shards): four players and a spectator, every
// frame checked for hidden cards against the stored record (hidden_check.hpp), versions that
// never go down. The timeouts are liveness bounds on a loaded machine, never measures of speed.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../room/hidden_check.hpp"
#include "tarneeb/records/record.hpp"
#include "../net/ws_harness.hpp"

namespace tarneeb::server::testing {

inline json metrics(unsigned short port) { return json::parse(http_get(port, "/metrics.json").second); }

/// Runs the clients' io_context, asking `done()` (HTTP reads of the nodes) every 200 ms until it
/// holds or the liveness bound `timeout` passed (ws_harness.hpp eventually()).
inline bool poll(net::io_context& ioc, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    return eventually(ioc, done, timeout, 200ms);
}

/// Sends `join` until it is answered `ok` (a table created on another node a moment ago may
/// not be known everywhere yet: the answer is then no_such_table and the client asks again; a
/// table being taken over answers storage_unavailable).
/// Sends `msg` with request id `id` to client `c` and returns the answer carrying that id (null
/// when none came within `timeout`). A frame with another id, of any JSON type, is not it: the
/// cluster's relay can let the answer of its own request (id "~relay") through to the client
/// (found by scripts/stress-tests.sh: issue 26 replaces the relay).
inline json request(net::io_context& ioc, Client& c, json msg, int id, std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    msg["id"] = id;
    c.send(msg);
    json reply;
    pump(ioc, [&] {
        for (const auto& f : c.frames)
            if (auto j = json::parse(f); j.value("id", json()) == id) return (reply = j), true;
        return false;
    }, timeout);
    return reply;
}

inline bool join(net::io_context& ioc, Client& c, const json& msg) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        const std::size_t before = c.frames.size();
        json m = msg;
        m["id"] = "join" + std::to_string(attempt);
        c.send(m);
        const bool answered = pump(ioc, [&] {
            for (std::size_t i = before; i < c.frames.size(); ++i) {
                const auto j = json::parse(c.frames[i]);
                if (j.value("id", json()) == m["id"]) return true;
            }
            return false;
        });
        if (!answered) return false;
        for (std::size_t i = before; i < c.frames.size(); ++i) {
            const auto j = json::parse(c.frames[i]);
            if (j.value("id", json()) == m["id"]) {
                if (j["type"] == "ok") return true;
                // Retried as a client does: not known here yet, or its node did not answer (it
                // is being taken over).
                if (j.value("code", "") != "no_such_table" && j.value("code", "") != "storage_unavailable") return false;
            }
        }
        backoff(ioc, 300ms);  // a client's pause before it asks again
    }
    return false;
}

/// Every table version a client saw, in order, never goes down.
inline void expect_versions_never_go_down(const Client& c, const std::string& who) {
    std::uint64_t last = 0;
    for (const auto& f : c.frames) {
        const auto j = json::parse(f);
        if (j["type"] != "table" || !j.contains("version")) continue;
        const auto v = j["version"].get<std::uint64_t>();
        EXPECT_GE(v, last) << who << ": version went down";
        last = std::max(last, v);
    }
}

/// Four players and a spectator at one table created by seat 0 (its id in `table`), each
/// client on the port it is given (nodes of a cluster, or one server's port). Tokens in `tokens`.
struct Match {
    net::io_context ioc;
    std::vector<std::unique_ptr<Client>> players;
    std::unique_ptr<Client> watcher;
    /// Clients replaced by a reconnect, with their seat (-1: the spectator): kept alive (their
    /// read handler is still queued), and their frames checked too.
    std::vector<std::pair<int, std::unique_ptr<Client>>> retired;
    std::vector<std::string> tokens;
    std::string watcher_token;
    std::string table;

    /// Seat i's client connects to ports[i], the spectator to `watch`; seat 0 creates the table,
    /// whose match is played to `target` points: 11 is two or three deals with these clients'
    /// play (play() in ws_harness.cpp), a whole match with a fault in its first deal; the fault
    /// test, which needs many deals for its faults, asks for more.
    void seat(const std::vector<unsigned short>& ports, unsigned short watch, bool start = true, int target = 11) {
        const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
        for (int i = 0; i < 4; ++i) {
            players.push_back(std::make_unique<Client>(ioc, ports[static_cast<std::size_t>(i)]));
            tokens.push_back(sign_in(ioc, *players.back(), names[i]));
            ASSERT_FALSE(tokens.back().empty());
        }
        players[0]->send({{"type", "create"}, {"target", target}, {"turn_seconds", 0}});
        ASSERT_TRUE(pump(ioc, [&] { return !players[0]->last("created").is_null(); }));
        table = players[0]->last("created")["table"];
        for (int i = 0; i < 4; ++i) ASSERT_TRUE(join(ioc, *players[static_cast<std::size_t>(i)], {{"type", "join"}, {"table", table}, {"seat", i}}));
        watcher = std::make_unique<Client>(ioc, watch);
        watcher_token = sign_in(ioc, *watcher, "Watcher");
        ASSERT_FALSE(watcher_token.empty());
        ASSERT_TRUE(join(ioc, *watcher, {{"type", "join"}, {"table", table}}));
        ASSERT_TRUE(pump(ioc, [&] {
            const auto t = players[0]->last("table");
            return !t.is_null() && std::all_of(t["seats"].begin(), t["seats"].end(), [](const json& s) { return !s.is_null(); });
        }));
        if (start) players[0]->send({{"type", "start"}});
    }
    /// Seat `s` reconnects to node `port` with its token, as a client does when its node is gone.
    void reconnect(int s, unsigned short port) {
        auto& p = players[static_cast<std::size_t>(s)];
        p->close();
        retired.emplace_back(s, std::move(p));
        p = std::make_unique<Client>(ioc, port);
        p->send({{"type", "hello"}, {"token", tokens[static_cast<std::size_t>(s)]}, {"id", "back"}});
    }
    /// The spectator reconnects to node `port` with its token and watches the table again.
    void rewatch(unsigned short port) {
        watcher->close();
        retired.emplace_back(-1, std::move(watcher));
        watcher = std::make_unique<Client>(ioc, port);
        ASSERT_EQ(request(ioc, *watcher, {{"type", "hello"}, {"token", watcher_token}}, 1)["type"], "welcome");
        ASSERT_TRUE(join(ioc, *watcher, {{"type", "join"}, {"table", table}}));
    }
    /// The answer to seat `s`'s reconnect's hello (the welcome with its id), or null.
    json welcome_back(int s) const {
        for (const auto& f : players[static_cast<std::size_t>(s)]->frames)
            if (const json j = json::parse(f); j.value("id", json()) == "back") return j;
        return nullptr;
    }
    /// Whether seat `s`'s reconnect was answered with a welcome that seats it where it sat (not
    /// at no table, though its table was being taken over); false while it is not answered.
    bool welcomed_back(int s) const {
        const json j = welcome_back(s);
        return j.is_object() && j.value("type", "") == "welcome" && j["table"] == table && j["seat"] == s;
    }
    std::vector<Client*> all() {
        std::vector<Client*> v;
        for (auto& p : players) v.push_back(p.get());
        return v;
    }
    /// Plays until `n` tricks of the current deal are done for everyone (or the match ends).
    bool play_until(const std::function<bool()>& done, std::chrono::milliseconds timeout = 300s) {
        if (play(ioc, all(), done, timeout)) return true;
        // What each client saw last, for the failure's message.
        for (std::size_t i = 0; i < players.size(); ++i) {
            const auto& f = players[i]->frames;
            ADD_FAILURE() << "seat " << i << " (ended " << players[i]->ended << ", " << f.size() << " frames) last: "
                          << (f.empty() ? "-" : f.back().substr(0, 600));
        }
        return false;
    }
    bool over() const {
        return watcher->has_event("match_over") &&
               std::all_of(players.begin(), players.end(), [](const auto& p) { return p->has_event("match_over"); });
    }
    int tricks_seen() const {
        const auto t = players[0]->last("table");
        if (t.is_null() || t["round"].is_null()) return 0;
        return static_cast<int>(t["round"].value("plays", json::array()).size());
    }
    /// The stored record (read through node `port` with a player's token): checks every frame.
    /// Called once over() holds: every client has its match_over frame, so every frame of the
    /// match has arrived. The record is written after match_over went out, by the node's writer:
    /// it is asked for until it answers 200 (404 while not stored yet; 503 when a node's first
    /// database call after an outage found its connection broken and the next one reconnects).
    void check_record(unsigned short port) {
        ASSERT_TRUE(over()) << "check_record before every client saw match_over";
        std::pair<int, std::string> got;
        poll(ioc, [&] { return (got = http_get(port, "/api/matches/" + table + "-1", tokens[1])).first == 200; }, 60s);
        const auto& [status, body] = got;
        ASSERT_EQ(status, 200) << body;
        EXPECT_FALSE(records::replay(body).error.has_value());
        const json record = json::parse(body);
        for (int s = 0; s < 4; ++s) {
            const auto leaks = hidden_leaks(players[static_cast<std::size_t>(s)]->frames, s, 1, record);
            EXPECT_TRUE(leaks.empty()) << "seat " << s << ": " << leaks.front();
            expect_versions_never_go_down(*players[static_cast<std::size_t>(s)], "seat " + std::to_string(s));
        }
        const auto leaks = hidden_leaks(watcher->frames, -1, 1, record);
        EXPECT_TRUE(leaks.empty()) << "spectator: " << leaks.front();
        for (const auto& [s, c] : retired) {
            const std::string who = (s < 0 ? std::string("spectator") : "seat " + std::to_string(s)) + " before a reconnect";
            const auto old = hidden_leaks(c->frames, s, 1, record);
            EXPECT_TRUE(old.empty()) << who << ": " << old.front();
            expect_versions_never_go_down(*c, who);
        }
        // Stored once, with ratings: each player's history lists it once.
        const auto list = json::parse(http_get(port, "/api/players/Omar/matches").second);
        EXPECT_EQ(list["matches"].size(), 1u) << list.dump();
    }
};


}  // namespace tarneeb::server::testing
