// What a guest asks of a table (docs/protocol.md "join", "leave", "add_bot", "remove_bot",
// "start", "act", "hint", "chat"), typed: the client's JSON is read once, at the edge
// (server/client_request.hpp parse_client_request), and these travel to the table's host.
// No JSON, threads or I/O here.
//
// A field the table refuses only after looking at the table (a seat out of range, an act with no
// version) stays representable here, as an empty optional: the host answers it in the same order
// the protocol does (e.g. `not_at_table` before `bad_seat`), so the bytes a client gets do not
// depend on where the message was read.
#pragma once

#include <cstdint>
#include <optional>
#include <iterator>
#include <string>
#include <string_view>
#include <variant>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/round.hpp"

namespace tarneeb::server {

/// A message refused as it was read: its error code (docs/protocol.md "Errors") and message
/// ("" = the code).
struct BadRequest {
    std::string code;
    std::string message;
};

/// `join`: sit at a seat (`seat` given) or watch (no seat, or null).
struct JoinRequest {
    std::string table;
    std::optional<std::string> code;  ///< a private table's join code (absent or not a string: none)
    bool sit = false;                 ///< a non-null "seat" was given
    std::optional<Seat> seat;         ///< with sit: the seat, nullopt when not an integer 0..3 (bad_seat)
};
/// `leave`: leave the table (seat or spectator).
struct LeaveRequest {};
/// `add_bot`: a bot at a free seat. `seat` nullopt: not an integer 0..3 (bad_seat).
struct AddBotRequest {
    std::optional<Seat> seat;
    std::optional<std::string> bot;  ///< its kind; nullopt (absent or not a string): the server's default
};
/// `remove_bot`. `seat` nullopt: not an integer 0..3 (bad_seat).
struct RemoveBotRequest {
    std::optional<Seat> seat;
};
/// `start`: start the match (or the next one).
struct StartRequest {};
/// `act`: a call, trump or card at table version `version`.
struct ActRequest {
    std::optional<std::uint64_t> version;  ///< nullopt: absent or not an unsigned integer (bad_message)
    std::optional<Action> action;          ///< nullopt: absent or not an action's shape (bad_action)
};
/// `hint`: the action a bot suggests for the seat to act.
struct HintRequest {};
/// `chat`: one line, a checked text (server/chat.hpp normalize_chat) or a quick phrase's id.
struct ChatRequest {
    std::optional<BadRequest> bad;  ///< the line is refused (bad_chat, unknown_phrase): text and phrase are not set
    std::string text;               ///< NFC text, or "" for a phrase
    std::string phrase;             ///< a quick phrase's id, or "" for a text
    std::string reason;             ///< with a refused text: the stable reason (server/chat.hpp reason()), else ""
    std::string address;            ///< the sender's connection's address (set by the front that got it; "": unknown)
};

/// A guest's request of its table (or of the table it joins).
using TableRequest = std::variant<JoinRequest, LeaveRequest, AddBotRequest, RemoveBotRequest, StartRequest, ActRequest,
                                  HintRequest, ChatRequest>;

/// The protocol's name of a request's type: "join", "leave", "add_bot", "remove_bot", "start",
/// "act", "hint" or "chat" (in the variant's order).
inline std::string_view request_type(const TableRequest& r) {
    static constexpr std::string_view kNames[] = {"join", "leave", "add_bot", "remove_bot", "start", "act", "hint", "chat"};
    static_assert(std::size(kNames) == std::variant_size_v<TableRequest>);
    return kNames[r.index()];
}

}  // namespace tarneeb::server
