// A hall driven without sockets for the tests (hall, accounts, chat, tournaments): an in-memory
// (or file) SQLite database, or any store open_storage opens (a PostgreSQL URL: storage_test.cpp), a fake clock, every frame each connection was sent, and the hall's jobs
// run on the calling thread (hall_loop.hpp) with the real worker threads.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"
#include "test_bot.hpp"

namespace tarneeb::server::testing {

struct HallHarness {
    explicit HallHarness(const std::string& db = ":memory:", HallConfig cfg = config(), BotFactory bots = default_bots())
        : owned(open_storage(db)), storage(*owned), hall(make_hall(cfg, std::move(bots))) {}
    /// A hall on `store` (e.g. a SqliteStorage subclass that fails or waits on demand).
    explicit HallHarness(std::unique_ptr<Storage> store, HallConfig cfg = config(), BotFactory bots = default_bots())
        : owned(std::move(store)), storage(*owned), hall(make_hall(cfg, std::move(bots))) {}
    /// A hall on `store` with `second`, a second connection to the same database, for its reads
    /// (Hall's `reads`, as `tarneeb serve` opens one).
    HallHarness(std::unique_ptr<Storage> store, std::unique_ptr<Storage> second, HallConfig cfg = config())
        : owned(std::move(store)), storage(*owned), reads(std::move(second)), hall(make_hall(cfg, default_bots())) {}

    /// No bot delay, no round summary, a 1 s grace, a fixed seed, no rate limit.
    static HallConfig config() {
        HallConfig c;
        c.timing.bot_delay_ms = 0;
        c.timing.summary_ms = 0;
        c.timing.grace_ms = 1000;
        c.seed = 42;
        c.rate.per_second = 1e6;
        c.rate.burst = 1e6;
        return c;
    }

    /// A new connection from `address` (the peer's IP address the transport would give).
    ConnId connect(const std::string& address = "127.0.0.1") {
        const ConnId c = next++;
        hall.open(c, address, now);
        return c;
    }
    void send(ConnId c, const nlohmann::json& msg) { raw(c, msg.dump()); }
    void raw(ConnId c, const std::string& text) {
        hall.message(c, text, now);
        settle();
    }
    /// Sends `msg` with a fresh request id and returns the answer carrying that id (null when
    /// none came).
    nlohmann::json request(ConnId c, nlohmann::json msg) {
        msg["id"] = ++requests;
        send(c, msg);
        for (auto it = frames[c].rbegin(); it != frames[c].rend(); ++it)
            if (auto j = nlohmann::json::parse(*it); j.value("id", nlohmann::json()) == requests) return j;
        return nullptr;
    }
    /// Every table timer of the test ran from the hall's wakeup heap: none was found due only
    /// by the once-a-second check (hall.hpp "touch").
    ~HallHarness() { EXPECT_EQ(hall.late_timers(), 0u) << "a table changed without a touch"; }
    HallHarness(const HallHarness&) = delete;
    HallHarness& operator=(const HallHarness&) = delete;

    void tick() {
        hall.tick(now);
        settle();
    }
    void settle() { loop.settle(hall); }
    /// GET `target`, with `token` as its `Authorization: Bearer` token when not empty.
    std::optional<HttpReply> get(const std::string& target, const std::string& token = {}) {
        std::optional<HttpReply> reply;
        hall.http_get(target, now, [&](HttpReply r) { reply = std::move(r); }, "127.0.0.1", token);
        settle();
        return reply;
    }
    /// The last frame of `type` this connection got (null when none).
    nlohmann::json last(ConnId c, const std::string& type) {
        auto& fs = frames[c];
        for (auto it = fs.rbegin(); it != fs.rend(); ++it)
            if (auto j = nlohmann::json::parse(*it); j["type"] == type) return j;
        return nullptr;
    }
    nlohmann::json last_reply(ConnId c) { return nlohmann::json::parse(frames[c].back()); }
    /// Every frame connection `c` got, as one string (to look for bytes in).
    std::string bytes(ConnId c) {
        std::string all;
        for (const auto& f : frames[c]) all += f + "\n";
        return all;
    }
    /// Signs `c` in as guest `name`; returns its token ("" when refused).
    std::string sign_in(ConnId c, const std::string& name) {
        send(c, {{"type", "hello"}, {"name", name}});
        auto w = last(c, "welcome");
        return w.is_null() ? "" : w["token"].get<std::string>();
    }
    /// Each connection whose last table message offers actions plays its timeout action
    /// (the weakest legal one; the auction opened with the lowest bid so that rounds have a
    /// contract), until nobody can act or `max_actions` were sent. Returns the actions sent.
    int play(const std::vector<ConnId>& players, int max_actions = 100000) {
        int sent = 0;
        for (bool progress = true; progress && sent < max_actions;) {
            progress = false;
            for (ConnId c : players) {
                auto t = last(c, "table");
                if (t.is_null() || t["legal"].empty()) continue;
                nlohmann::json action = t["timeout_action"].is_null() ? t["legal"][0] : t["timeout_action"];
                if (t["round"]["phase"] == "auction" && t["round"]["contract"].is_null() && t["legal"].size() > 1) {
                    bool bid_made = false;
                    for (const auto& call : t["round"]["calls"]) bid_made |= call["call"] != "pass";
                    if (!bid_made) action = t["legal"][1];
                }
                send(c, {{"type", "act"}, {"version", t["version"]}, {"action", action}});
                ++sent;
                progress = true;
                if (sent >= max_actions) break;
            }
        }
        return sent;
    }

    HallLoop loop;  // before the hall: outlives its workers
    std::unique_ptr<Storage> owned;  ///< open_storage(db)
    Storage& storage;
    std::unique_ptr<Storage> reads;  ///< the hall's second connection, or null
    Millis now = 1'700'000'000'000;
    Hall hall;
    ConnId next = 1;
    int requests = 0;
    std::map<ConnId, std::vector<std::string>> frames;
    std::map<ConnId, int> closed_with;
    std::vector<std::string> logs;

private:
    Hall make_hall(const HallConfig& cfg, BotFactory bots) {
        return Hall(storage, std::move(bots), cfg,
                    Outbox{[this](ConnId c, std::string text) { frames[c].push_back(std::move(text)); },
                           [this](ConnId c, int code, std::string) { closed_with[c] = code; },
                           [this](bool, const std::string& line) { logs.push_back(line); }, loop.poster()},
                    reads.get());
    }
};

/// Four players (Layla, Omar, Rana, Sami) signed in on `cs` and seated 0..3 at a new table made
/// with `settings` (a `create` message's fields); returns the table id.
inline std::string seat_four(HallHarness& h, const std::vector<ConnId>& cs, nlohmann::json settings = nlohmann::json::object()) {
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    for (std::size_t i = 0; i < cs.size(); ++i) h.sign_in(cs[i], names[i]);
    settings["type"] = "create";
    h.send(cs[0], settings);
    const std::string tid = h.last(cs[0], "created")["table"];
    for (std::size_t i = 0; i < cs.size(); ++i) h.send(cs[i], {{"type", "join"}, {"table", tid}, {"seat", i}});
    return tid;
}

}  // namespace tarneeb::server::testing
