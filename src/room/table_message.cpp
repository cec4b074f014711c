// TableMessage (protocol.hpp): a table change's `table` message written straight to text, once
// per change, with each recipient's own keys added by to(). It is the server's hottest path
// (every action sends it to every player and spectator), so it builds no JSON tree: the shared
// part is written key by key in the order nlohmann::json's dump() writes a tree (keys sorted),
// and table_message_json (protocol.cpp) stays the plain reference it is checked against, value
// for value, in tests/room/protocol_test.cpp. Only public facts go into the shared part; a
// seat's hand and its legal actions come from that seat's SeatView in to().
#include <string>
#include <string_view>

#include "event_text.hpp"
#include "json_text.hpp"
#include "message_rules.hpp"
#include "tarneeb/room/protocol.hpp"

namespace tarneeb::server {

namespace {

// The JSON values themselves: json_text.hpp, written as dump() writes them.
using json_text::key;
using json_text::put;
using json_text::put_or_null;
using json_text::put_card;
using json_text::put_pair;
using json_text::put_events;

/// {"card":"QS","seat":1}
void put_seat_card(std::string& out, Seat s, Card c) {
    out += "{\"card\":";
    put_card(out, c);
    out += ",\"seat\":";
    put(out, index(s));
    out += '}';
}

/// records::trick_json: {"cards":[{"card","seat"}…],"leader","winner"}.
void put_trick(std::string& out, const Trick& trick, std::optional<Seat> winner) {
    out += "{\"cards\":[";
    for (int i = 0; i < trick.size(); ++i) {
        if (i) out += ',';
        put_seat_card(out, trick.player(i), trick[i]);
    }
    out += "],\"leader\":";
    put(out, index(trick.leader()));
    out += ",\"winner\":";
    if (winner) put(out, index(*winner));
    else out += "null";
    out += '}';
}

/// action_json: {"call":"pass"}, {"call":8}, {"trump":"H"} or {"card":"QS"}.
void put_action(std::string& out, Action a) {
    switch (a.kind) {
        case ActionKind::call:
            out += "{\"call\":";
            if (a.is_pass()) out += "\"pass\"";
            else put(out, a.bid_value());
            break;
        case ActionKind::trump:
            out += "{\"trump\":";
            put(out, suit_text(a.suit()));
            break;
        case ActionKind::play:
            out += "{\"card\":";
            put_card(out, a.card());
            break;
    }
    out += '}';
}

/// round_json's members (without the braces and without "hand"), keys sorted.
void put_round_members(std::string& out, const SeatView& v, int number) {
    key(out, "calls", true);
    out += '[';
    const auto cs = v.calls();
    for (int i = 0; i < static_cast<int>(cs.size()); ++i) {
        if (i) out += ',';
        const int value = cs[static_cast<std::size_t>(i)];
        out += "{\"call\":";
        if (value == 0) out += "\"pass\"";
        else put(out, value);
        out += ",\"seat\":";
        put(out, index(v.caller(i)));
        out += '}';
    }
    out += ']';
    key(out, "cards_left");
    out += '[';
    for (Seat s : kSeats) {
        if (s != Seat::s0) out += ',';
        put(out, v.cards_left(s));
    }
    out += ']';
    key(out, "contract");
    if (const auto contract = v.contract()) {
        out += "{\"bid\":";
        put(out, contract->bid);
        out += ",\"defenders_need\":";
        put(out, contract->tricks_to_set());
        out += ",\"seat\":";
        put(out, index(contract->declarer));
        out += '}';
    } else {
        out += "null";
    }
    key(out, "current_trick");
    if (v.phase() == Phase::play) put_trick(out, v.trick(v.tricks_played()), std::nullopt);
    else out += "null";
    key(out, "dealer");
    put(out, index(v.dealer()));
    key(out, "finished_tricks");
    out += '[';
    for (int t = 0; t < v.tricks_played(); ++t) {
        if (t) out += ',';
        put_trick(out, v.trick(t), v.trick_winner(t));
    }
    out += ']';
    key(out, "lowest_bid");
    put_or_null(out, v.lowest_bid());
    key(out, "number");
    put(out, number);
    key(out, "phase");
    put(out, to_string(v.phase()));
    const auto ps = v.plays();
    key(out, "plays");
    out += '[';
    for (int i = 0; i < static_cast<int>(ps.size()); ++i) {
        if (i) out += ',';
        put_seat_card(out, v.played_by(i), ps[static_cast<std::size_t>(i)]);
    }
    out += ']';
    key(out, "points");
    put_pair(out, v.points(Team::t0), v.points(Team::t1));
    key(out, "standing_bid");
    if (v.high_bid() > 0) {
        out += "{\"bid\":";
        put(out, v.high_bid());
        out += ",\"seat\":";
        put(out, index(v.high_bidder()));
        out += '}';
    } else {
        out += "null";
    }
    const bool over = v.phase() == Phase::scored || v.phase() == Phase::passed_out;
    key(out, "to_act");
    if (over) out += "null";
    else put(out, index(v.to_act()));
    key(out, "trick");
    out += '[';
    const auto ct = v.current_trick();
    const int first = static_cast<int>(ps.size() - ct.size());
    for (int i = 0; i < static_cast<int>(ct.size()); ++i) {
        if (i) out += ',';
        put_seat_card(out, v.played_by(first + i), ct[static_cast<std::size_t>(i)]);
    }
    out += ']';
    key(out, "tricks");
    put_pair(out, v.tricks(Team::t0), v.tricks(Team::t1));
    key(out, "trump");
    if (v.trump_named()) put(out, suit_text(v.trump()));
    else out += "null";
}

/// seat_json: null or {"bot","connected"[,"kind"],"name"[,"standin"]}.
void put_seat(std::string& out, const SeatInfo& h) {
    if (h.kind == SeatInfo::Kind::empty) {
        out += "null";
        return;
    }
    const bool bot = h.kind == SeatInfo::Kind::bot;
    out += "{\"bot\":";
    put(out, bot);
    out += ",\"connected\":";
    put(out, bot || h.connected);
    if (bot) {
        out += ",\"kind\":";
        put(out, h.bot_kind);
    }
    out += ",\"name\":";
    put(out, h.name);
    if (h.standin) out += ",\"standin\":true";
    out += '}';
}


}  // namespace

TableMessage::TableMessage(const Table& table, int spectators, const std::vector<TableEvent>& events, Millis now,
                           HistoryCache* history)
    : table_(table) {
    // The keys of shared_json (protocol.cpp) in dump()'s order: head_ up to "events", then
    // "history" (kept apart: most recipients have it already), then tail_ from "match" on.
    std::string& h = head_;
    h.reserve(512);
    const Rules rules = table.settings().rules();
    h += '{';
    key(h, "bid_range", true);
    put_pair(h, rules.min_bid, rules.max_bid);
    key(h, "deadline_ms");
    put_or_null(h, table.deadline());
    key(h, "events");
    put_events(h, events);
    // "fill_ms": a quick-play table waiting for people, the time until its empty seats get bots.
    if (const auto fill = table.fill_at()) {
        key(h, "fill_ms");
        put(h, std::max<Millis>(0, *fill - now));
    }

    // "history": the finished rounds of the match (its played cards are public), [] before one.
    if (history) history_ = &history->text(table);
    else {
        own_history_ = (table.match_number() == 0 ? nlohmann::json::array() : history_json(table.match())).dump();
        history_ = &own_history_;
    }

    std::string& t = tail_;
    t.reserve(2048);
    key(t, "match");
    put(t, table.match_number());
    key(t, "now_ms");
    put(t, now);
    const TableSettings& st = table.settings();
    key(t, "preset");
    put(t, to_string(st.preset));
    key(t, "private");
    put(t, st.is_private);
    if (st.quick) {  // a quick-play table: its pool's rating, and when its empty seats get bots
        key(t, "quick");
        t += "{\"fill_at\":";
        put_or_null(t, table.fill_at());
        t += ",\"rating\":";
        put(t, st.quick_rating);
        t += '}';
    }
    key(t, "rated");
    put(t, table.rated());
    // "remaining_ms": the time left on the turn, deadline − now on the server's clock (0 once past).
    key(t, "remaining_ms");
    if (table.deadline()) put(t, std::max<Millis>(0, *table.deadline() - now));
    else t += "null";
    key(t, "result");
    if (table.state() == TableState::finished && table.match().over()) {
        t += "{\"status\":";
        put(t, to_string(table.match().status()));
        t += ",\"winner\":";
        const auto w = table.match().winner();
        if (w) put(t, index(*w));
        else t += "null";
        t += '}';
    } else {
        t += "null";
    }
    // A spectator's view: its hand is never written; to() adds a seat's own at round_at_.
    key(t, "round");
    if (has_round(table)) {
        t += '{';
        round_at_ = t.size();
        put_round_members(t, SeatView::of(table.match(), Seat::s0), static_cast<int>(table.match().rounds().size()));
        t += '}';
    } else {
        t += "null";
    }
    const auto totals = table.match().totals();
    key(t, "scores");
    put_pair(t, totals[0], totals[1]);
    key(t, "seats");
    t += '[';
    for (Seat s : kSeats) {
        if (s != Seat::s0) t += ',';
        put_seat(t, table.seat_info(s));
    }
    t += ']';
    key(t, "spectators");
    put(t, spectators);
    key(t, "state");
    put(t, to_string(table.state()));
    // "summary_ms": while the round summary holds the new deal's first turn, the time until the
    // turn clock starts (absent otherwise; TableTiming::summary_ms).
    if (const auto until = table.summary_until(); until && *until > now) {
        key(t, "summary_ms");
        put(t, *until - now);
    }
    key(t, "table");
    put(t, table.id());
    key(t, "target");
    put(t, st.target);
    key(t, "turn_seconds");
    put(t, st.turn_seconds);
    key(t, "type");
    put(t, "table");
    key(t, "version");
    put(t, table.version());
    t += '}';
}

std::string TableMessage::to(std::optional<Seat> seat, bool creator, bool with_history) const {
    std::string out;
    out.reserve(head_.size() + tail_.size() + (with_history ? history_->size() + 12 : 0) + 256);
    // The recipient's own keys first: "default_action", "join_code", "legal", "timeout_action",
    // "you" (seat_keys' rules, protocol.cpp: only from its seat's view, only when it is to act).
    std::optional<SeatView> view;
    if (seat && table_.state() == TableState::playing && has_round(table_)) view = SeatView::of(table_.match(), *seat);
    const bool acting = view && view->my_turn();
    const std::optional<Action> default_action = acting ? std::optional<Action>(view->default_action()) : std::nullopt;
    const bool timeout = acting && table_.deadline().has_value();
    out += "{\"default_action\":";
    if (default_action) put_action(out, *default_action);
    else out += "null";
    if (const auto code = creator_code(table_, creator)) {
        out += ",\"join_code\":";
        put(out, *code);
    }
    out += ",\"legal\":[";
    if (acting) {
        bool first = true;
        for (Action a : view->legal_actions()) {
            if (!first) out += ',';
            first = false;
            put_action(out, a);
        }
    }
    out += "],\"timeout_action\":";
    if (timeout) put_action(out, *default_action);
    else out += "null";
    out += ",\"you\":";
    if (seat) put(out, index(*seat));
    else out += "null";
    out += ',';
    out.append(head_, 1);  // without its '{'
    if (with_history) {
        out += ",\"history\":";
        out += *history_;
    }
    if (seat && round_at_ != std::string::npos) {
        // The seat's hand first in its round object ("hand" sorts after "finished_tricks", but a
        // client reads keys by name).
        out.append(tail_, 0, round_at_);
        out += "\"hand\":[";
        bool first = true;
        for (Card c : SeatView::of(table_.match(), *seat).hand()) {
            if (!first) out += ',';
            first = false;
            put_card(out, c);
        }
        out += "],";
        out.append(tail_, round_at_);
    } else {
        out += tail_;
    }
    return out;
}

}  // namespace tarneeb::server
