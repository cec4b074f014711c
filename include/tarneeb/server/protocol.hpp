// The JSON shapes of docs/protocol.md that more than one part of the server needs: actions,
// the round as one seat may see it, and the server's own error codes.
//
// Everything a connection receives about a round is built here from a SeatView, the type
// that holds only what one seat may know (include/tarneeb/core/seat_view.hpp). A spectator's
// message is built from a view with `with_hand = false`, so no hand is ever written for it.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::server {

/// Protocol errors that are not rule errors (docs/protocol.md lists each with its meaning).
/// Rule errors keep their tarneeb::ErrorCode names. Names are stable; never rename one.
enum class ProtocolError : unsigned char {
    bad_message,        ///< not a JSON object with a string "type", or a field of the wrong shape
    unknown_type,       ///< "type" names no client message
    not_signed_in,      ///< a message other than hello/ping before hello
    bad_name,           ///< display name refused by normalize_name (names.hpp)
    name_taken,         ///< the name, or one with the same key (names.hpp), belongs to another token
    unknown_token,      ///< no guest has this token
    no_such_table,
    bad_code,           ///< wrong join code for a private table
    seat_taken,
    bad_seat,           ///< not 0..3
    not_seated,         ///< the request needs a seat at the table
    not_at_table,       ///< the guest is at no table
    spectator,          ///< spectators cannot act
    table_playing,      ///< seats cannot change during a match
    not_enough_players, ///< start needs four seated
    unknown_bot,
    bad_settings,
    too_many_tables,
    stale,              ///< the action's version is not the table's version
    bad_action,         ///< the action object is unreadable
    rate_limited,
    storage_unavailable, ///< the database refused the write (disk full, read-only...): nothing changed
    too_many_waiting_tables, ///< the guest (or its address) has as many tables not started yet as allowed
    too_many_connections,    ///< the guest (or its address) has as many connections open as allowed
};

/// The stable snake_case name, e.g. "stale".
std::string_view to_string(ProtocolError e);

/// {"call":"pass"}, {"call":8}, {"trump":"H"} or {"card":"QS"}.
nlohmann::json action_json(Action a);
/// Reads an action object; nullopt when it is not one of the four shapes (bids 0..255 are read
/// as given: the engine rejects a bid outside the rules with bad_bid).
std::optional<Action> parse_action(const nlohmann::json& j);
/// Compact journal form of an action: "pass", "8", "tH", "QS".
std::string action_text(Action a);
/// Inverse of action_text; nullopt when unreadable.
std::optional<Action> parse_action_text(std::string_view text);

/// "auction", "trump", "play", "scored" or "passed_out".
std::string_view to_string(Phase p);
/// "S", "H", "D" or "C".
std::string suit_text(Suit s);

/// The "round" object of a table message (docs/protocol.md "table"), from one seat's view.
/// `number` is the deal's number in the match (1-based). The hand is written only when
/// `with_hand` is true (a seated player); a spectator's object has no "hand" key at all.
nlohmann::json round_json(const SeatView& view, int number, bool with_hand);

}  // namespace tarneeb::server
