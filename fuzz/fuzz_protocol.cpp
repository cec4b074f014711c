// libFuzzer target: arbitrary bytes as client messages to the Boost-free server logic (the
// Hall the transport calls, with an in-memory Storage and no sockets), from several simulated
// connections: four signed-in guests seated at one table, a spectator, a connection that has
// not signed in, and a second connection of the guest at seat 0 (docs/protocol.md).
//
// Checked after every message:
//  - no crash (ASan + UBSan); every frame the hall sends is a JSON object with a string "type";
//  - the sender gets exactly one answer (ok, error, welcome, pong, created, tables), besides
//    table messages, unless the hall closed the connection (1008 / 1009);
//  - an error carries a code documented in docs/protocol.md and echoes the message's id;
//  - a rejected message (an error, a close) changes no table and no guest (Hall::snapshot()
//    equal before and after) and nobody else hears of it;
//  - no table message to a seat shows a card that another seat still holds: every card-like
//    string in it is the seat's own card of the current deal, or a card played in the current
//    deal, or (in a "card" event) a card its seat did play in this match. A spectator sees
//    played cards only. (tests/room/hidden_check.hpp does the same check after a match from
//    its record; here the check runs on every frame against the live Match, since a fuzzed
//    session rarely finishes a match.) Names, ids and messages are the clients' own strings
//    and are not checked;
//  - table versions seen by a connection never go down;
//  - chat (issue 15): `chat` and `chat_history` are pushed like table messages (not answers),
//    only to connections at that table, and a spectators' line reaches a seated player only
//    while the table is not playing.
//
// Input: byte 0 chooses the set-up (bit 0: start the match; bit 1: 30 s turn timer; bit 2:
// private table; bit 3: the default rate limit instead of none; bits 4-5: how many of seats
// 3, 2, 1 are bots). The rest is lines ('\n'); a line's first byte says what it does:
//   '0'..'6'  the rest of the line is a message from connection 0..6 ("$V" is replaced by the
//             connection's latest table version, "$T" by the table id);
//   'a'..'g'  connection 0..6 plays legal action number (next byte) of its latest table message;
//   't'       the clock moves on by (next byte) * 100 ms and the hall ticks;
//   'x'       connection (next byte % 7) closes; the next line for it reconnects (with its
//             token, when it had one).
// Lines past the 150th are ignored.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"

namespace {

using nlohmann::json;
using namespace tarneeb;
using namespace tarneeb::server;

[[noreturn]] void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz_protocol invariant broken: %s\n", why.c_str());
    std::abort();
}
void require(bool ok, const std::string& why) {
    if (!ok) fail(why);
}

/// Every error code docs/protocol.md documents (lobby, play, sign-in and any-message errors).
const std::set<std::string>& documented_codes() {
    static const std::set<std::string> codes{
        "bad_message", "unknown_type", "not_signed_in", "rate_limited", "bad_name", "name_taken", "unknown_token",
        "no_such_table", "bad_code", "seat_taken", "bad_seat", "not_seated", "table_playing", "not_enough_players",
        "unknown_bot", "bad_settings", "too_many_tables", "not_at_table", "spectator", "stale", "out_of_turn",
        "no_deal", "match_over", "bad_action", "bad_bid", "bid_too_low", "auction_closed", "auction_open",
        "no_contract", "trump_missing", "bad_trump", "trump_named", "card_not_held", "must_follow_suit", "deal_over",
        "too_many_waiting_tables", "too_many_connections", "storage_unavailable",
        // accounts (docs/protocol.md "Accounts")
        "bad_credentials", "bad_password", "too_many_attempts", "busy", "already_registered", "not_registered",
        "bad_chat", "unknown_phrase", "chat_rate_limited",  // issue 15: "Chat"
        // Tournaments (docs/protocol.md "Tournaments").
        "no_such_tournament", "not_organiser", "registration_closed", "tournament_full", "already_entered", "bad_team",
        "not_entered", "tournament_started", "not_enough_teams", "odd_players", "tournament_over",
        "too_many_tournaments", "seat_reserved", "tournament_table"};
    return codes;
}

const std::set<std::string> kAnswers{"ok", "error", "welcome", "pong", "created", "tables", "tournament_created"};
/// Keys whose strings are names and ids chosen by clients or the server, never cards.
const std::set<std::string> kFreeText{"name", "table", "id", "message", "record", "code", "token", "bot"};

constexpr int kConns = 7;

struct Session {
    HallLoop loop;  // the hall's thread: outlives the hall's workers
    SqliteStorage storage{":memory:"};
    std::optional<Hall> hall;
    Millis now = 1'700'000'000'000;
    std::array<ConnId, kConns> ids{};
    std::array<bool, kConns> open{};
    std::array<std::string, kConns> tokens;
    std::array<json, kConns> last_table;       ///< latest table message per connection
    std::map<ConnId, std::vector<json>> sent;  ///< frames of the current call
    std::set<ConnId> closed;                   ///< connections the hall closed in this call
    ConnId next_id = 1;

    int slot_of(ConnId id) const {
        for (int i = 0; i < kConns; ++i)
            if (open[static_cast<std::size_t>(i)] && ids[static_cast<std::size_t>(i)] == id) return i;
        return -1;
    }

    /// Where the guest signed in on `conn` is, or nullopt (not signed in, or at no table).
    std::optional<Place> place_of(ConnId conn) const {
        const auto guest = hall->guest(conn);
        return guest ? hall->host().where(*guest) : std::nullopt;
    }

    /// Checks a table message to `conn` for cards its seat may not see.
    void check_table_frame(ConnId conn, const json& j) {
        const auto at = place_of(conn);
        require(at.has_value(), "a table message to a connection at no table");
        require(j.value("table", "") == at->table, "a table message for another table");
        const Table* t = hall->table(at->table);
        require(t != nullptr, "a table message for a closed table");
        const std::optional<Seat> seat = at->seat;
        require(j["you"] == (seat ? json(index(*seat)) : json(nullptr)), "wrong \"you\"");
        const Match& m = t->match();
        CardSet allowed;
        if (j["round"].is_object()) {
            require(m.has_round() && j["round"]["number"] == m.rounds().size(), "round number is not the table's");
            const Round& r = m.rounds().back();
            allowed = r.played();
            if (seat) allowed |= r.dealt(*seat);
            else require(!j["round"].contains("hand"), "a spectator got a hand");
        }
        const auto ok_card = [&](std::string_view text, const json* event) {
            const auto c = parse_card(text);
            if (!c || text.size() != 2) return;  // not a card
            if (allowed.contains(*c)) return;
            if (event != nullptr) {  // a card event: was it played by that seat in this match?
                const auto s = (*event).value("seat", -1);
                for (const Round& r : m.rounds())
                    for (int i = 0; i < r.cards_played(); ++i)
                        if (r.plays()[static_cast<std::size_t>(i)] == *c && index(r.played_by(i)) == s) return;
            }
            fail("seat " + (seat ? std::to_string(index(*seat)) : std::string("spectator")) + " was shown " +
                 std::string(text) + ": " + j.dump());
        };
        // "history": each of its rounds is a finished round of this match, and every card in it
        // was played in that round (public); it is checked here and left out of the walk below.
        if (j.contains("history")) {
            const json& history = j["history"];
            require(history.is_array(), "history is not a list");
            const std::size_t finished = m.rounds().empty() ? 0 : m.rounds().size() - (m.round().over() ? 0 : 1);
            require(history.size() <= finished, "history has a round that is not finished");
            for (std::size_t k = 0; k < history.size(); ++k) {
                const CardSet played = m.rounds()[k].played();
                const std::function<void(const json&)> cards = [&](const json& v) {
                    if (v.is_string()) {
                        const auto c = parse_card(v.get_ref<const std::string&>());
                        if (c && v.get_ref<const std::string&>().size() == 2)
                            require(played.contains(*c), "history shows an unplayed card: " + v.dump());
                    } else if (v.is_structured()) {
                        for (const auto& x : v) cards(x);
                    }
                };
                cards(history[k]);
            }
        }
        const std::function<void(const json&, const json*)> walk = [&](const json& v, const json* event) {
            if (v.is_object()) {
                const json* ev = v.contains("event") && v.value("event", "") == "card" ? &v : event;
                for (auto it = v.begin(); it != v.end(); ++it) {
                    if (kFreeText.count(it.key())) continue;
                    if (&v == &j && it.key() == "history") continue;  // checked above
                    if (it->is_string()) ok_card(it->get_ref<const std::string&>(), ev);
                    else walk(*it, ev);
                }
            } else if (v.is_array()) {
                for (const auto& x : v) {
                    if (x.is_string()) ok_card(x.get_ref<const std::string&>(), event);
                    else walk(x, event);
                }
            }
        };
        walk(j, nullptr);
        const int slot = slot_of(conn);
        if (slot >= 0) {
            const json& before = last_table[static_cast<std::size_t>(slot)];
            if (before.is_object() && before["table"] == j["table"])
                require(before["version"].get<std::uint64_t>() <= j["version"].get<std::uint64_t>(), "version went down");
            last_table[static_cast<std::size_t>(slot)] = j;
        }
    }

    /// A chat push goes to a connection at its table; a seated player gets a spectators' line
    /// only when the table is not playing (docs/protocol.md "Chat").
    void check_chat_frame(ConnId conn, const json& j) {
        const auto at = place_of(conn);
        require(at && j.value("table", "") == at->table, "a chat message for another table");
        const Table* t = hall->table(at->table);
        require(t != nullptr, "a chat message for a closed table");
        if (j["type"] == "chat" && at->seat && j.value("channel", "") == "spectators")
            require(t->state() != TableState::playing, "a spectators' line reached a player during play");
    }

    void on_send(ConnId conn, const std::string& text) {
        json j = json::parse(text, nullptr, false);
        require(j.is_object() && j.contains("type") && j["type"].is_string(), "a frame that is not a message: " + text);
        if (j["type"] == "table") check_table_frame(conn, j);
        if (j["type"] == "chat" || j["type"] == "chat_history") check_chat_frame(conn, j);
        sent[conn].push_back(std::move(j));
    }

    ConnId connect(int slot) {
        const ConnId id = next_id++;
        ids[static_cast<std::size_t>(slot)] = id;
        open[static_cast<std::size_t>(slot)] = true;
        last_table[static_cast<std::size_t>(slot)] = nullptr;
        hall->open(id, "10.0.0." + std::to_string(slot % 2), now);  // two addresses share the per-address limits
        return id;
    }

    void disconnect(int slot) {
        if (!open[static_cast<std::size_t>(slot)]) return;
        open[static_cast<std::size_t>(slot)] = false;
        hall->closed(ids[static_cast<std::size_t>(slot)], now);
        loop.settle(*hall);
    }

    /// One message from connection `slot`, with every check.
    void message(int slot, const std::string& text) {
        if (!open[static_cast<std::size_t>(slot)]) {
            connect(slot);
            const std::string& token = tokens[static_cast<std::size_t>(slot)];
            if (!token.empty()) raw(slot, json{{"type", "hello"}, {"token", token}}.dump());
        }
        raw(slot, text);
    }

    void raw(int slot, const std::string& text) {
        const ConnId conn = ids[static_cast<std::size_t>(slot)];
        const json before = hall->snapshot();
        sent.clear();
        closed.clear();
        hall->message(conn, text, now);
        loop.settle(*hall);  // every write and bot decision it started has come back

        std::vector<const json*> answers;
        for (const auto& j : sent[conn])
            if (j["type"] != "table" && j["type"] != "chat" && j["type"] != "chat_history") answers.push_back(&j);
        const bool rejected_by_close = closed.count(conn) > 0;
        if (rejected_by_close) {
            require(answers.empty(), "an answer and a close");
        } else {
            require(answers.size() == 1, std::to_string(answers.size()) + " answers to " + text);
            const json& a = *answers.front();
            require(kAnswers.count(a["type"].get<std::string>()) > 0, "unexpected answer " + a.dump());
            const json msg = json::parse(text, nullptr, false);
            if (a["type"] == "error") {
                require(a.contains("code") && a["code"].is_string() && documented_codes().count(a["code"].get<std::string>()),
                        "undocumented error " + a.dump());
                require(a.contains("message") && a["message"].is_string(), "error without a message");
            }
            const bool limited = a["type"] == "error" && a["code"] == "rate_limited";
            if (!limited && msg.is_object() && msg.contains("type") && msg["type"].is_string() &&
                msg.contains("id")) {
                const json& id = msg["id"];
                const bool echoable = id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= 64);
                if (echoable) require(a.contains("id") && a["id"] == id, "id not echoed: " + a.dump() + " for " + text);
            }
            if (a["type"] == "welcome") tokens[static_cast<std::size_t>(slot)] = a["token"].get<std::string>();
        }
        const bool rejected = rejected_by_close || answers.front()->value("type", "") == "error";
        if (rejected) {
            require(hall->snapshot() == before, "a rejected message changed the hall: " + text);
            for (const auto& [c, frames] : sent)
                require(c == conn || frames.empty(), "another connection heard of a rejected message: " + text);
        }
        if (rejected_by_close) disconnect(slot);
    }

    void tick(Millis by) {
        now += by;
        sent.clear();
        hall->tick(now);
        loop.settle(*hall);
    }

    std::string version_of(int slot) const {
        const json& t = last_table[static_cast<std::size_t>(slot)];
        return t.is_object() ? std::to_string(t["version"].get<std::uint64_t>()) : "0";
    }
};

std::string replace_all(std::string s, std::string_view from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::uint8_t setup = data[0];
    Session s;
    HallConfig cfg;
    cfg.timing.bot_delay_ms = 0;
    cfg.timing.grace_ms = 1000;
    cfg.seed = 7;
    cfg.max_tables = 4;
    cfg.bot_threads = 1;  // a whole hall per input: one bot thread is enough and starts faster
    if (!(setup & 8)) {
        cfg.rate.per_second = 1e9;
        cfg.rate.burst = 1e9;
    }
    // The real random and heuristic bots (pimc is too slow for a fuzzer's inputs per second).
    const BotFactory bot_factory = [](std::string_view name, std::uint64_t seed) -> std::unique_ptr<bots::Bot> {
        if (name != "random" && name != "heuristic") return nullptr;
        return bots::make_bot(name, seed);
    };
    s.hall.emplace(s.storage, bot_factory, cfg,
                   Outbox{[&s](ConnId c, std::string text) { s.on_send(c, text); },
                          [&s](ConnId c, int, std::string) { s.closed.insert(c); }, nullptr, s.loop.poster()});
    for (int i = 0; i < kConns; ++i) s.connect(i);

    // Set-up: Layla, Omar, Rana, Sami at seats 0..3 (some replaced by bots), Watcher watching,
    // connection 5 not signed in, connection 6 Layla again.
    const char* names[] = {"Layla", "Omar", "Rana", "Sami", "Watcher"};
    for (int i = 0; i < 5; ++i) s.raw(i, json{{"type", "hello"}, {"name", names[i]}}.dump());
    s.raw(6, json{{"type", "hello"}, {"token", s.tokens[0]}}.dump());
    json create{{"type", "create"}, {"turn_seconds", (setup & 2) ? 30 : 0}, {"private", (setup & 4) != 0}, {"target", 11}};
    s.raw(0, create.dump());
    const json created = s.sent[s.ids[0]].back();
    const std::string tid = created["table"];
    const std::string code = created["code"].is_string() ? created["code"].get<std::string>() : "";
    const int bots = (setup >> 4) & 3;
    for (int i = 0; i < 4; ++i) {
        if (i >= 4 - bots) s.raw(0, json{{"type", "add_bot"}, {"seat", i}}.dump());
        else s.raw(i, json{{"type", "join"}, {"table", tid}, {"seat", i}, {"code", code}}.dump());
    }
    s.raw(4, json{{"type", "join"}, {"table", tid}, {"code", code}}.dump());
    if (setup & 1) s.raw(0, json{{"type", "start"}}.dump());

    std::size_t pos = 1;
    int id = 0;
    // At most 150 lines: enough for a match against bots; longer inputs only run slower.
    for (int lines = 0; pos < size && lines < 150; ++lines) {
        std::size_t end = pos;
        while (end < size && data[end] != '\n') ++end;
        const std::string_view line(reinterpret_cast<const char*>(data + pos), end - pos);
        pos = end + 1;
        if (line.empty()) continue;
        const char op = line[0];
        const std::uint8_t arg = line.size() > 1 ? static_cast<std::uint8_t>(line[1]) : 0;
        if (op >= '0' && op < '0' + kConns) {
            const int slot = op - '0';
            std::string text(line.substr(1));
            text = replace_all(std::move(text), "$V", s.version_of(slot));
            text = replace_all(std::move(text), "$T", tid);
            s.message(slot, text);
        } else if (op >= 'a' && op < 'a' + kConns) {
            const int slot = op - 'a';
            const json& t = s.last_table[static_cast<std::size_t>(slot)];
            json action = json{{"call", "pass"}};
            if (t.is_object() && !t["legal"].empty()) action = t["legal"][arg % t["legal"].size()];
            s.message(slot, json{{"type", "act"}, {"id", ++id}, {"version", t.is_object() ? t["version"] : json(0)},
                                 {"action", action}}.dump());
        } else if (op == 't') {
            s.tick(Millis{arg} * 100);
        } else if (op == 'x') {
            s.disconnect(arg % kConns);
        }
    }
    return 0;
}
