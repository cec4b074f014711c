// The events of a table change as JSON text (event_json's and events_text's fast path: the
// `events` of every table message), written as nlohmann::json's dump() writes them, keys sorted;
// tests/room/protocol_test.cpp checks them against event_json for every kind of event.
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "event_text.hpp"
#include "json_text.hpp"
#include "tarneeb/room/protocol.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

namespace {

using json_text::put;
using json_text::put_card;
using json_text::put_pair;

/// `{"event":"NAME","seat":N}`: the events that name only a seat.
void put_seat_event(std::string& out, std::string_view name, Seat seat) {
    out += "{\"event\":";
    put(out, name);
    out += ",\"seat\":";
    put(out, index(seat));
    out += '}';
}

/// `,"name":NAME,"seat":N}`: the end of the events that name a seat's player (seated, left).
void put_name_and_seat(std::string& out, const std::string& name, Seat seat) {
    out += ",\"name\":";
    put(out, name);
    out += ",\"seat\":";
    put(out, index(seat));
    out += '}';
}

/// event_json (protocol.cpp), keys sorted as dump() writes them.
void put_event(std::string& out, const TableEvent& event) {
    std::visit(
        Overloaded{
            [&](const event::Seated& e) {
                out += "{\"bot\":";
                put(out, e.bot);
                out += ",\"event\":\"seated\"";
                if (e.bot) {
                    out += ",\"kind\":";
                    put(out, e.kind);
                }
                put_name_and_seat(out, e.name, e.seat);
            },
            [&](const event::Left& e) {
                out += "{\"event\":\"left\"";
                put_name_and_seat(out, e.name, e.seat);
            },
            [&](const event::MatchStarted& e) {
                out += "{\"event\":\"match_started\",\"match\":";
                put(out, e.match);
                out += '}';
            },
            [&](const event::Deal& e) {
                out += "{\"dealer\":";
                put(out, index(e.dealer));
                out += ",\"event\":\"deal\",\"number\":";
                put(out, e.number);
                out += '}';
            },
            [&](const event::Acted& e) {
                const Action a = e.action;
                switch (a.kind) {
                    case ActionKind::call:
                        out += "{\"call\":";
                        if (a.is_pass()) out += "\"pass\"";
                        else put(out, a.bid_value());
                        out += ",\"event\":\"call\",\"seat\":";
                        put(out, index(e.seat));
                        out += ",\"timeout\":";
                        put(out, e.timeout);
                        break;
                    case ActionKind::trump:
                        out += "{\"event\":\"trump\",\"seat\":";
                        put(out, index(e.seat));
                        out += ",\"timeout\":";
                        put(out, e.timeout);
                        out += ",\"trump\":";
                        put(out, suit_text(a.suit()));
                        break;
                    case ActionKind::play:
                        out += "{\"card\":";
                        put_card(out, a.card());
                        out += ",\"event\":\"card\",\"seat\":";
                        put(out, index(e.seat));
                        out += ",\"timeout\":";
                        put(out, e.timeout);
                        break;
                }
                out += '}';
            },
            [&](const event::TrickWon& e) {
                out += "{\"event\":\"trick_won\",\"seat\":";
                put(out, index(e.seat));
                out += ",\"trick\":";
                put(out, e.trick);
                out += ",\"tricks\":";
                put_pair(out, e.tricks[Team::t0], e.tricks[Team::t1]);
                out += '}';
            },
            [&](const event::RoundScored& e) {
                out += "{\"contract\":{\"bid\":";
                put(out, e.bid);
                out += ",\"seat\":";
                put(out, index(e.declarer));
                out += "},\"event\":\"round_scored\",\"made\":";
                put(out, e.made);
                out += ",\"points\":";
                put_pair(out, e.points[Team::t0], e.points[Team::t1]);
                out += ",\"scores\":";
                put_pair(out, e.scores[Team::t0], e.scores[Team::t1]);
                out += ",\"tricks\":";
                put_pair(out, e.tricks[Team::t0], e.tricks[Team::t1]);
                out += '}';
            },
            [&](const event::PassedOut& e) {
                out += "{\"event\":\"passed_out\",\"number\":";
                put(out, e.number);
                out += '}';
            },
            [&](const event::MatchOver& e) {
                out += "{\"event\":\"match_over\",\"record\":";
                put(out, e.record);
                out += ",\"scores\":";
                put_pair(out, e.scores[Team::t0], e.scores[Team::t1]);
                out += ",\"status\":";
                put(out, to_string(e.status));
                out += ",\"winner\":";
                if (e.winner) put(out, index(*e.winner));
                else out += "null";
                out += '}';
            },
            [&](const event::Disconnected& e) { put_seat_event(out, "disconnected", e.seat); },
            [&](const event::BotTookOver& e) { put_seat_event(out, "bot_took_over", e.seat); },
            [&](const event::Reclaimed& e) { put_seat_event(out, "reclaimed", e.seat); },
        },
        event);
}

}  // namespace

void json_text::put_events(std::string& out, const std::vector<TableEvent>& events) {
    out += '[';
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i) out += ',';
        put_event(out, events[i]);
    }
    out += ']';
}

std::string events_text(const std::vector<TableEvent>& events) {
    std::string out;
    json_text::put_events(out, events);
    return out;
}

}  // namespace tarneeb::server
