// The engine protocol, version 1 (docs/engine-protocol.md): a line-based text protocol between
// a host (the table: `tarneeb simulate`, `play`, `serve`) and an outside computer player (an
// "engine", a separate program on the host's pipes), in the spirit of UCI and GTP.
//
// This file holds the protocol's text and nothing else, so that both ends share it:
//   - notation: an action as one token (record-format.md: "pass", "8", "H", "QS");
//   - the host's side: EngineFeed turns what a seat sees (a SeatView, never more) into the lines
//     that tell an engine of the match, the deal and every action; go_line asks for an action;
//     parse_engine_line reads what an engine says;
//   - the engine's side: EngineGame reads the host's lines back into a SeatView (what
//     `tarneeb engine --bot NAME` hands to a registered bot).
// No processes and no clocks here (engine_process.hpp, engine_bot.hpp).
//
// Hidden information: EngineFeed reads only a SeatView, so it can write no card that the seat
// may not see (the seat's own hand, and each card once played). EngineGame rebuilds a Round that
// replays the history (the cards of the other seats filled in consistently with the plays and
// the suits they showed out of) and hands out only SeatView(round, seat): equal to the host's
// view of the same seat (tests/bots/engine_protocol_test.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// The protocol version this code speaks (the first host line is "tarneeb-engine 1").
inline constexpr int kEngineProtocolVersion = 1;

// ---- notation -----------------------------------------------------------------------------

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

// ---- the host's side ----------------------------------------------------------------------

/// What one engine has been told, and the lines that tell it the rest (docs/engine-protocol.md
/// "Match, deal and actions"). Feed it the seat's view after every action (observe) and before
/// each request (go): sync(view) returns the lines the engine has not had yet, ending in "\n",
/// or "" when it knows everything. A new process knows nothing: reset(), and the next sync
/// tells it the match (newmatch, deal) and every action of the deal so far.
///
/// A new match is announced (newmatch) when the view cannot continue what the engine knows: no
/// match yet, another seat or other rules, a deal whose starting scores are not the totals the
/// engine was told last, or a new deal while the last one was unfinished. A new deal (deal) is
/// announced when the dealer, the dealt hand or the number of actions no longer fit the deal
/// the engine knows.
class EngineFeed {
public:
    std::string sync(const SeatView& view);
    void reset() { *this = EngineFeed(); }

private:
    void new_match(const SeatView& view, std::string& out);
    void new_deal(const SeatView& view, std::string& out);

    bool match_ = false;
    Seat seat_ = Seat::s0;
    Rules rules_{};
    std::array<int, 2> totals_{};
    bool deal_ = false;
    Seat dealer_ = Seat::s0;
    CardSet dealt_{};
    std::size_t calls_ = 0;
    bool closed_ = false;  ///< contract or passout told
    bool passed_out_ = false;
    bool trump_ = false;
    std::size_t plays_ = 0;
    bool scored_ = false;
};

/// The request to act: "go budget_ms N legal A B C" (N: milliseconds the engine may think,
/// measured from when it reads the line; the legal actions as legal_tokens(view)).
std::string go_line(const SeatView& view, int budget_ms);
/// The first host line: "tarneeb-engine 1".
std::string hello_line();
/// "setoption name NAME value VALUE" (NAME and VALUE: one token each).
std::string setoption_line(std::string_view name, std::string_view value);

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

// ---- the engine's side --------------------------------------------------------------------

/// A "go" line read by an engine.
struct GoRequest {
    int budget_ms = 0;
    std::vector<std::string> legal;
};
/// Reads "go budget_ms N legal ..."; nullopt if malformed.
std::optional<GoRequest> parse_go(std::string_view line);

/// The game as an engine rebuilds it from the host's lines: newmatch, deal and every event.
/// view() is then exactly the host's SeatView of this seat (same knowledge: equal views).
class EngineGame {
public:
    /// Applies one host line of the game (newmatch, deal, call, passout, contract, trump, play,
    /// trick, score). nullopt when applied; otherwise why not (an unknown keyword, a malformed
    /// line, or an action the round refuses: the host and the engine disagree), and the game is
    /// unchanged. The summary lines (passout, contract, trick, score) are checked against the
    /// round; score also sets the match totals.
    std::optional<std::string> apply(std::string_view line);

    /// True once a newmatch was read.
    bool has_match() const { return match_; }
    /// True once a deal was given (and until the next newmatch).
    bool has_deal() const { return deal_; }
    /// This seat (newmatch's `seat`) and the match's rules (newmatch's keys over its preset).
    Seat seat() const { return seat_; }
    const Rules& rules() const { return rules_; }
    /// The totals as the host last told them (newmatch's, then each score's), by team.
    std::array<int, 2> totals() const { return totals_; }
    /// The seat's view now. Precondition: has_deal().
    SeatView view() const;
    /// The action the last apply() added (a call, trump or play line) and its seat; nullopt
    /// after any other line.
    std::optional<std::pair<Seat, Action>> last_action() const { return last_action_; }

private:
    using Words = std::vector<std::string_view>;
    // One handler per kind of line (apply() dispatches by the first word); each returns why
    // it refused the line, and then changed nothing.
    std::optional<std::string> on_newmatch(const Words& w);
    std::optional<std::string> on_deal(const Words& w);
    std::optional<std::string> on_action(const Words& w);  ///< call, trump, play
    std::optional<std::string> on_passout(const Words& w);
    std::optional<std::string> on_contract(const Words& w);
    std::optional<std::string> on_trick(const Words& w);
    std::optional<std::string> on_score(const Words& w);
    std::optional<std::string> on_play(Seat by, Card c);
    /// Rebuilds round_ with the other seats' hands filled in so that every play so far and
    /// `extra` (by `extra_by`) replays; false if no deal fits (the host lied).
    bool rebuild(Seat extra_by, Card extra);

    bool match_ = false;
    bool deal_ = false;
    Seat seat_ = Seat::s0;
    Rules rules_{};
    std::array<int, 2> totals_{};
    std::array<int, 2> deal_start_{};  ///< the totals when this deal began
    Seat dealer_ = Seat::s0;
    CardSet hand_{};
    std::vector<Action> history_;  ///< every action of the deal, in order
    Round round_;
    std::optional<std::pair<Seat, Action>> last_action_;
};

}  // namespace tarneeb::bots
