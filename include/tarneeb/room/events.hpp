// What a table tells the world, as values: the errors it refuses a request with and the events
// it emits when it changes (docs/protocol.md "Events"). The table is the engine and knows no
// JSON; src/room/protocol.cpp turns these values into the protocol's bytes.
//
// Errors: a refusal is either one of the server's own protocol errors (ProtocolError) or one of
// the engine's rule errors (tarneeb::ErrorCode); both have stable snake_case names, the codes
// clients switch on. Events carry only public information: who sat, who acted and how, who
// won a trick (a played card is public), the scores; never a hand.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/error.hpp"
#include "tarneeb/core/match.hpp"
#include "tarneeb/core/round.hpp"

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
    engine_budget,           ///< add_bot of an outside engine past the server's or the address's engine processes
};

/// The stable snake_case name, e.g. "stale".
std::string_view to_string(ProtocolError e);

/// Why a table refused a request: a protocol error or an engine rule error (stable codes).
using Refusal = std::variant<ProtocolError, ErrorCode>;
/// The refusal's stable code, e.g. "stale" or "must_follow_suit".
std::string_view to_string(const Refusal& r);

/// The events of a table, in the order they happen (docs/protocol.md "Events").
namespace event {
/// `name`: the player's, or a bot's display name (bot_display_name); `kind`: a bot's kind ("" for a player).
struct Seated { Seat seat; std::string name; bool bot = false; std::string kind; };
struct Left { Seat seat; std::string name; };
struct MatchStarted { int match = 0; };
struct Deal { int number = 0; Seat dealer; };
/// A call, a trump or a card (the action's kind says which); `timeout`: the turn timer acted.
struct Acted { Seat seat; Action action; bool timeout = false; };
/// Trick `trick` (1..13) was won by `seat`; `tricks`: the tricks per team after it.
struct TrickWon { Seat seat; int trick = 0; ByTeam<int> tricks{}; };
struct RoundScored {
    Seat declarer;
    int bid = 0;
    bool made = false;
    ByTeam<int> tricks{}, points{}, scores{};
};
struct PassedOut { int number = 0; };
/// `record`: the stored match's id (GET /api/matches/{id}).
struct MatchOver { MatchStatus status = MatchStatus::in_progress; std::optional<Team> winner; ByTeam<int> scores{}; std::string record; };
struct Disconnected { Seat seat; };
struct BotTookOver { Seat seat; };
struct Reclaimed { Seat seat; };
}  // namespace event

using TableEvent = std::variant<event::Seated, event::Left, event::MatchStarted, event::Deal, event::Acted,
                                event::TrickWon, event::RoundScored, event::PassedOut, event::MatchOver,
                                event::Disconnected, event::BotTookOver, event::Reclaimed>;

}  // namespace tarneeb::server
