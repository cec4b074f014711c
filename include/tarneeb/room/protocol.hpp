// The protocol adapter (docs/protocol.md): every JSON shape the server sends about tables is
// built here, from the table's typed state and events (table.hpp, events.hpp), and the server's
// other messages (welcome, errors, lobby pages) too. The table and the hall write no JSON.
//
// Everything a connection receives about a round is built here from a SeatView, the type
// that holds only what one seat may know (include/tarneeb/core/seat_view.hpp). A spectator's
// message is built from a view whose hand is never written. One function builds a table
// message for a seat or a spectator (TableMessage::to); it shares the serialised text of
// everything but the per-seat parts between the recipients of one change, and
// table_message_json is its plain, reference encoding (tests check the two are equal).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/seat_view.hpp"
#include "tarneeb/room/events.hpp"
#include "tarneeb/room/table.hpp"

namespace tarneeb::server {

/// A table's settings as stored and as in `create` (docs/protocol.md "create"): preset, target,
/// turn_seconds, private and the join code's hash (never the code itself).
nlohmann::json settings_json(const TableSettings& settings);
/// From a `create` message or the stored form; nullopt when a field has the wrong type or is out
/// of range (target 1..500, turn_seconds 0..600, a known preset). Absent fields keep defaults.
std::optional<TableSettings> parse_settings(const nlohmann::json& j);

/// {"call":"pass"}, {"call":8}, {"trump":"H"} or {"card":"QS"}.
nlohmann::json action_json(Action a);
/// Reads an action object; nullopt when it is not one of the four shapes (bids 0..255 are read
/// as given: the engine rejects a bid outside the rules with bad_bid).
std::optional<Action> parse_action(const nlohmann::json& j);
/// "auction", "trump", "play", "scored" or "passed_out".
std::string_view to_string(Phase p);
/// "S", "H", "D" or "C".
std::string suit_text(Suit s);

/// The "round" object of a table message (docs/protocol.md "table"), from one seat's view.
/// `number` is the deal's number in the match (1-based). The hand is written only when
/// `with_hand` is true (a seated player); a spectator's object has no "hand" key at all.
nlohmann::json round_json(const SeatView& view, int number, bool with_hand);

/// The "history" of a table message (docs/protocol.md "table"): every finished round of the
/// match, in order: {"number" (1-based), "dealer", "calls": [{"seat","call"}…], "contract":
/// {"seat","bid","made"} | null, "trump": "H" | null, "tricks": [the round's tricks in the shape
/// of round.finished_tricks], "taken": [t0, t1], "points": [a, b], "totals": [a, b] (after the
/// round), "passed_out"}. The round under way is not in it. Only public facts: the auction, the
/// contract, the cards that were played (from the engine's Trick and trick winners) and scores;
/// never a card still held (a scored round has none left; a passed-out round shows no card).
nlohmann::json history_json(const Match& match);

/// One table's serialised history_json, changed only when the history does: a round that ends
/// is appended to the text (a finished round never changes), a new match starts it again. A late
/// round's history is 13 rounds of 13 tricks, and a table message is built at every change.
/// Kept by the hall beside its table; used on the hall's thread only.
class HistoryCache {
public:
    /// The text of history_json(table.match()) ([] before the table's first match).
    const std::string& text(const Table& table);
    /// Which history text() last gave: "MATCH:ROUNDS" (a recipient that got this one needs it
    /// again only when it changes: TableMessage::to's `with_history`).
    std::string key() const { return std::to_string(match_) + ":" + std::to_string(rounds_); }

private:
    int match_ = -1;          ///< the table's match number the text is of
    std::size_t rounds_ = 0;  ///< the finished rounds in it
    std::string text_;
};

/// An event object (docs/protocol.md "Events"), e.g. {"event":"call","seat":1,"call":8,"timeout":false}.
nlohmann::json event_json(const TableEvent& e);
nlohmann::json events_json(const std::vector<TableEvent>& events);
/// events_json(events).dump(), written straight to text (the table message's fast path,
/// table_message.cpp; tests check the two are equal for every kind of event).
std::string events_text(const std::vector<TableEvent>& events);

/// A seat of a table summary: null (free) or {"name","bot","connected"[,"standin":true]}, and a
/// bot's "kind" ("heuristic", "pimc", an engine's name) beside its display name ("heuristic 2").
nlohmann::json seat_json(const SeatInfo& s);
/// The lobby summary of a table (docs/protocol.md "tables").
nlohmann::json summary_json(const Table& table, int spectators);

/// The `table` message of one change of `table` (docs/protocol.md "table"), for every recipient.
/// Build it once per change; to(seat) gives each recipient its bytes: the part every recipient
/// shares is written once, as text with no JSON tree (table_message.cpp: the server's hottest
/// path), and a seat's own parts (its legal actions, default actions, seat number and hand, all
/// from its SeatView) are added to it. A spectator (nullopt) gets no hand. The table must
/// outlive the message and not change while it is used.
class TableMessage {
public:
    /// `history`: the table's cache of its "history" text (nullptr: built for this message).
    TableMessage(const Table& table, int spectators, const std::vector<TableEvent>& events, Millis now,
                 HistoryCache* history = nullptr);
    /// The message's text for `seat` or a spectator (nullopt). Equal, as JSON, to table_message_json.
    /// `creator`: the recipient created this private table, and only then, its message carries
    /// the table's join code ("join_code", when the code is still in memory: not after a restart).
    /// `with_history` false leaves "history" out (the recipient has this history already:
    /// docs/protocol.md "table").
    std::string to(std::optional<Seat> seat, bool creator = false, bool with_history = true) const;

private:
    const Table& table_;
    std::string head_;                          ///< `{` and the shared keys before "history"
    const std::string* history_ = nullptr;      ///< the "history" text (the cache's, or own_history_)
    std::string own_history_;                   ///< built here when there is no cache
    std::string tail_;                          ///< `,"match":…}`: the shared keys after "history"
    std::size_t round_at_ = std::string::npos;  ///< in tail_, just after `"round":{` (npos: no round)
};

/// The plain encoding of the same message (one JSON value built for that recipient): the
/// reference TableMessage::to is checked against.
nlohmann::json table_message_json(const Table& table, std::optional<Seat> seat, int spectators,
                                  const std::vector<TableEvent>& events, Millis now, bool creator = false);

// ---- the hall's other answers (docs/protocol.md) ------------------------------------------
/// {"type":"ok"} or, for act, {"type":"ok","version":…}.
nlohmann::json ok_json(std::optional<std::uint64_t> version = std::nullopt);
nlohmann::json pong_json();
/// {"type":"hint","version":…,"action":{…}}: the answer to `hint`, the action suggested for the
/// table at `version` (docs/protocol.md "hint").
nlohmann::json hint_json(Action action, std::uint64_t version);
/// {"type":"welcome","name","token","protocol":1,"table":id|null,"seat":0..3|null}; `table` "" = none.
nlohmann::json welcome_json(const std::string& name, const std::string& token, const std::string& table,
                            std::optional<Seat> seat);
/// {"type":"created","table","code":code|null}.
nlohmann::json created_json(const std::string& table, const std::optional<std::string>& code);
/// {"type":"tables","tables":[summary…],"next":cursor|null}.
nlohmann::json tables_json(nlohmann::json summaries, nlohmann::json next);

/// The "id" of a client message to echo in its answer: a number or a string of at most 64
/// characters, else null (docs/protocol.md "Framing").
nlohmann::json request_id(const nlohmann::json& msg);
/// {"type":"error","code":…,"message":…} (the message defaults to the code).
nlohmann::json error_json(std::string_view code, std::string message = {});

}  // namespace tarneeb::server
