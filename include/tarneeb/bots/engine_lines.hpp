// The engine protocol's single lines (docs/engine-protocol.md "Handshake", "Acting"): what the
// host writes besides the game (hello, setoption, go) and what an engine writes back (id,
// option, ready, action, info, error), each with its writer and its reader. The game's lines
// (newmatch, deal, call...) are engine_feed.hpp's (writing) and engine_game.hpp's (reading).
//
// Every reader is total: a line it cannot read is a value (EngineLine::Kind::garbage, or
// nullopt), never an exception, so a misbehaving engine or host is a fault the caller handles
// (docs/engine-protocol.md "Faults").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// The protocol version this code speaks (the first host line is "tarneeb-engine 1").
inline constexpr int kEngineProtocolVersion = 1;

// ---- the host's lines ---------------------------------------------------------------------

/// The request to act: "go budget_ms N legal A B C" (N: milliseconds the engine may think,
/// measured from when it reads the line; the legal actions as legal_tokens(view)).
std::string go_line(const SeatView& view, int budget_ms);
/// The first host line: "tarneeb-engine 1".
std::string hello_line();
/// "setoption name NAME value VALUE" (NAME and VALUE: one token each).
std::string setoption_line(std::string_view name, std::string_view value);

/// A "go" line read by an engine.
struct GoRequest {
    int budget_ms = 0;
    std::vector<std::string> legal;
};
/// Reads "go budget_ms N legal ..."; nullopt if malformed.
std::optional<GoRequest> parse_go(std::string_view line);

// ---- the engine's lines -------------------------------------------------------------------

/// An option an engine accepts (handshake line "option name NAME type TYPE default V [min A]
/// [max B]"): TYPE is int, bool (true/false) or string; every value is one token.
struct EngineOption {
    std::string name;
    std::string type;
    std::string default_value;
    std::optional<long long> min;
    std::optional<long long> max;
    friend bool operator==(const EngineOption&, const EngineOption&) = default;
};
/// The handshake line that declares `o`.
std::string option_line(const EngineOption& o);

/// One line an engine wrote, read by the host.
struct EngineLine {
    enum class Kind : std::uint8_t {
        id_name,    ///< "id name TEXT": text
        id_author,  ///< "id author TEXT": text
        option,     ///< "option name ...": option
        ready,      ///< "ready": the handshake is over
        action,     ///< "action TOKEN": text = the token (read by parse_action_token)
        info,       ///< "info TEXT": free text for the log, ignored
        error,      ///< "error TEXT": the engine gives up (e.g. an unsupported version)
        garbage,    ///< anything else, including a malformed line of a known kind
    };
    Kind kind = Kind::garbage;
    std::string text;
    EngineOption option;
};
/// Reads one engine line (without its "\n"; a trailing "\r" is ignored; words are separated
/// by spaces or tabs).
EngineLine parse_engine_line(std::string_view line);

}  // namespace tarneeb::bots
