// Every client message (docs/protocol.md "Client messages"), typed, and the one function that
// reads them from JSON: the edge. The hall dispatches on the type (hall_lobby.cpp Hall::dispatch)
// and never reads a client's JSON itself.
//
// Reading checks only the message: its shape and what needs no state (a settings object, an
// action's shape, a chat line's text). What a field means for the table, the guest or the
// tournament is checked by their owners; a field they check after a state check (e.g. `act`'s
// version after `not_at_table`) is kept as an empty optional so that the order of the errors a
// client gets, and their bytes, are the protocol's.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "tarneeb/room/table.hpp"
#include "tarneeb/room/table_request.hpp"
#include "tarneeb/server/tournament.hpp"

namespace tarneeb::server {

/// `ping`.
struct PingRequest {};
/// `hello`: how the guest signs in (docs/protocol.md "hello").
struct HelloRequest {
    enum class Kind {
        password,  ///< a registered player: `name` and `password` (either nullopt when not a string)
        token,     ///< a returning guest or device: `token`
        name,      ///< a new guest: `name` (checked by the hall: its reserved names)
        none,      ///< neither: bad_message
    };
    Kind kind = Kind::none;
    std::optional<std::string> name;
    std::optional<std::string> password;
    std::string token;
};
/// `list`: a page of public tables after `cursor` (checked: a string or null), at most `limit`
/// (checked: >= 1; the hall caps it), pushed again on change when `watch`.
struct ListRequest {
    std::optional<std::string> cursor;
    std::optional<std::int64_t> limit;
    bool watch = false;
};
/// `create`: a table with these settings (read by parse_settings: bad_settings otherwise).
struct CreateRequest {
    TableSettings settings;
};
/// `quick_play`: a seat at a quick-play table of `preset` (quick_play.hpp); nullopt: "preset"
/// is there but names no preset (bad_settings).
struct QuickPlayRequest {
    std::optional<Preset> preset = Preset::levantine;
};
/// `register`: a guest keeps its name with a password (nullopt: absent or not a string).
struct RegisterRequest {
    std::optional<std::string> password;
};
/// `change_password` (either nullopt: absent or not a string).
struct ChangePasswordRequest {
    std::optional<std::string> current;
    std::optional<std::string> password;
};
/// `sign_out`: this device.
struct SignOutRequest {};
/// `sign_out_everywhere`: every device.
struct SignOutEverywhereRequest {};

/// `tournament_create` (settings nullopt: they do not parse, bad_settings).
struct TournamentCreateRequest {
    std::optional<TournamentSettings> settings;
};
/// The other tournament messages, each naming its tournament.
struct TournamentRequest {
    enum class Kind { open, close, start, cancel, enter, accept, withdraw };
    Kind kind = Kind::open;
    std::string tournament;
    /// enter: "players" given (two names, read), or nullopt; `bad_team` when given but not two strings.
    std::optional<std::array<std::string, 2>> players;
    bool bad_team = false;
    /// enter: "partner"; withdraw: "player" (nullopt: absent or not a string).
    std::optional<std::string> other;
};

/// What a client asked, once read.
using RequestBody = std::variant<PingRequest, HelloRequest, ListRequest, CreateRequest, QuickPlayRequest, TableRequest, RegisterRequest,
                                 ChangePasswordRequest, SignOutRequest, SignOutEverywhereRequest,
                                 TournamentCreateRequest, TournamentRequest, BadRequest>;

/// One client message: its id to echo, whether it needs a signed-in guest, and its body (a
/// BadRequest when it cannot be read: answered after the sign-in check when `signed_in`, at
/// once otherwise, e.g. an unknown type).
struct ClientRequest {
    nlohmann::json id;       ///< request_id (protocol.hpp): a number, a short string, or null
    bool signed_in = false;  ///< needs a signed-in guest (every message but ping and hello)
    RequestBody body;
};

/// Reads a client message: an object with a string "type" (the transport checks that first).
/// Never throws; anything it cannot read is a BadRequest body with the protocol's code.
ClientRequest parse_client_request(const nlohmann::json& msg);

}  // namespace tarneeb::server
