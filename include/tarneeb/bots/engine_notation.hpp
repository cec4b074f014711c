// The engine protocol's notation (docs/engine-protocol.md "Match, deal and actions"): an action
// as one token ("pass", "8", "H", "QS", as in docs/record-format.md), a seat's legal actions as
// one line of tokens, a Rules value's preset name, and the shell-like splitting of an engine's
// command line (`engine:CMD`, engine_bot.hpp's engine_config). Shared by both ends of the
// protocol (engine_feed.hpp, engine_game.hpp).
//
// A token belongs to one phase: parse_action_token reads it for that phase only, so "AS" is
// garbage in the auction and "pass" garbage in play (as opposed to a readable but illegal
// action, which the round refuses).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// One action as a protocol token (docs/record-format.md): a call "pass" or "7".."13", a trump
/// suit letter "S" "H" "D" "C", a card in its canonical form "QS", "TH".
std::string action_token(Action a);
/// Reads an action token for `phase`: in the auction "pass" or a decimal number without a
/// leading zero (7..13 are the legal bids; "99" reads as a bid, which the round then refuses);
/// in the trump phase a suit letter (any case); in play a card (parse_card: any case, "10H").
/// nullopt when the token is not the notation of that phase ("AS" in the auction, "pass" in
/// play): garbage, as opposed to a readable but illegal action.
std::optional<Action> parse_action_token(std::string_view token, Phase phase);
/// The legal actions of the seat to act as tokens separated by one space, in
/// view.legal_actions() order ("pass 8 9 10 11 12 13", "S H D C", "2C 9C KC").
std::string legal_tokens(const SeatView& view);
/// The preset whose play rules (auction, scoring, pass-out dealer, bid range) `rules` has:
/// "levantine" or "classic", else "custom". The match settings (target, round cap, pass-out
/// close, bracket tie-break) may differ from the preset's (rules.md "Preset classic").
std::string_view rules_name(const Rules& rules);

/// Splits a command line into words the way a POSIX shell splits a simple command, without
/// running a shell: white space separates words; '...' keeps everything literally; "..." keeps
/// everything but \" \\ \$ \` (a backslash before them is dropped); a backslash outside quotes
/// keeps the next character. No expansion of any kind ($VAR, ~, *, |, >, ; are ordinary
/// characters). nullopt for an unterminated quote or a trailing backslash. An empty command
/// gives no words.
std::optional<std::vector<std::string>> split_command(std::string_view command);

}  // namespace tarneeb::bots
