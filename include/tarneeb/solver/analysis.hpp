// Card-by-card double-dummy analysis of one played deal (issue 14, "Analysis board";
// definitions in docs/analysis.md "Analysis of a played deal").
//
// For each position of a deal's play (before card k, k = 0 .. cards played - 1: 52 positions
// for a finished deal, fewer for an unfinished one, none for a passed-out deal or one whose
// trump was never named), every legal card is valued by the tricks the **declaring team** ends
// the deal with when that card is played and all four seats play perfectly afterwards: the
// tricks it has already won plus its double-dummy share of the tricks left. The side to play
// wants that number high (the declaring team) or low (the defenders); a card's `cost` is how
// many tricks it gives away against the side's best card (always >= 0).
//
// The turning point is the first card after which the double-dummy outcome of the contract
// (made or set) is no longer what it was before that card: the card that lost a contract that
// could still be made, or that let a contract through that could still be set. None when the
// outcome never changes (every card kept it, or only the other way's cards cost tricks).
//
// The values are those of `tarneeb analyze --record F --deal N --after K --json`
// ("position.cards[].declarer_tricks"), which calls card_values() below too.
//
// Cost: one DDS SolveBoard (solutions = 3: every card in one call) per position, all on one
// Solver, so the consecutive positions of a deal share DDS's thread memory, whose
// transposition table DDS 2.9 reuses by itself for the same trump and nearly the same cards
// (docs/analysis.md; bench/solver_bench measures a whole deal).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/round.hpp"
#include "tarneeb/core/rules.hpp"
#include "tarneeb/solver/par.hpp"
#include "tarneeb/solver/solver.hpp"

namespace tarneeb::solver {

/// One legal card of a position and what it leads to with perfect play afterwards.
struct CardValue {
    Card card;
    int tricks = 0;           ///< of the tricks left (the current one included), for the side to play
    int declarer_tricks = 0;  ///< the declaring team's tricks at the end of the deal (0..13)
    friend bool operator==(const CardValue&, const CardValue&) = default;
};

/// Every legal card of a play position, best first for the side to play (DDS's order).
struct CardValues {
    std::array<CardValue, 13> items{};
    int size = 0;
    std::span<const CardValue> cards() const { return {items.data(), static_cast<std::size_t>(size)}; }
    /// The entry of `c`, or nullptr when `c` is not a legal card here.
    const CardValue* find(Card c) const;
};

/// The position of `round` (phase play, every hand visible) solved: each legal card with its
/// tricks for the side to play and the declaring team's total. Errors: not_in_play when the
/// round is not in its play phase, else Solver::all_cards's.
SolveError card_values(Solver& solver, const Round& round, CardValues& out);

/// The round `played` as it stood after the first `cards` cards of its play (a fresh Round
/// replayed through its calls, its trump and those cards). nullopt when the deal never reached
/// play (passed out, or trump not named) or `cards` is outside 0..min(cards_played, 51).
std::optional<Round> round_after(const Round& played, int cards);

/// One position of the deal's play: before card `index`.
struct PositionAnalysis {
    int index = 0;            ///< cards played before this position (0..51)
    Seat seat = Seat::s0;     ///< the seat to play
    Card played;              ///< the card it played
    CardValues cards;         ///< every legal card, best first for `seat`'s side
    int best = 0;             ///< the declaring team's total with best play from here (the position's value)
    int value = 0;            ///< the declaring team's total after the played card
    int cost = 0;             ///< tricks the played card gave away for `seat`'s side: |best - value|
};

/// The first card that changed the contract's double-dummy outcome (see the file comment).
struct TurningPoint {
    int index = 0;            ///< the card's index in the deal's play (0..51)
    Seat seat = Seat::s0;     ///< who played it
    int cost = 0;             ///< its cost (> 0)
    bool makes = false;       ///< the outcome after it: true = the contract now makes, false = set
};

/// A deal of a record analysed (see the file comment).
struct DealAnalysis {
    Preset preset = Preset::levantine;  ///< the par's preset (from the round's auction and scoring styles)
    Seat dealer = Seat::s0;
    DdTable table;                      ///< the double-dummy table of the deal as dealt
    Par par;                            ///< par.hpp, for the round's rules and dealer
    std::optional<Contract> contract;   ///< nullopt: passed out (or the auction unfinished)
    ByTeam<int> taken{};                ///< tricks won per team in the record (so far, when unfinished)
    std::optional<bool> made;           ///< the record's result, once the deal was scored
    std::vector<PositionAnalysis> positions;  ///< one per card played (empty without play)
    std::optional<TurningPoint> turning_point;
};

/// Called before each position is solved with the number of positions done; false stops the
/// analysis (a CPU budget: the server's analysis queue).
using KeepGoing = std::function<bool(int positions_done)>;

/// Analyses `played`, a round of a replayed record (records::replay: it keeps the dealt hands,
/// the calls, the trump and the cards). Errors: SolveError::stopped when `keep_going` returned
/// false (`out` then holds the positions done so far), else the solver's (dds_failure).
SolveError analyse_deal(const Round& played, DealAnalysis& out, const KeepGoing& keep_going = {});

/// The preset whose auction and scoring `rules` use (par depends on nothing else).
Preset preset_of(const Rules& rules);

/// The par as `tarneeb analyze --json` prints it: {"preset", "dealer", "passed_out",
/// "declarer", "trump", "bid", "tricks" (those four unless passed out), "points": [t0, t1]}.
nlohmann::json par_json(const Par& par, Preset preset, Seat dealer);

/// The analysis as GET /api/matches/{id}/analysis?deal=N sends it (docs/protocol.md), without
/// "match": {"deal", "declarer", "bid", "trump", "made", "taken", "par", "positions": [{"index",
/// "seat", "played", "cards": [{"card", "tricks"}...], "best", "cost"}...], "turning_point"};
/// "tricks", "best" are declaring-team totals; fields of a contract are null when passed out.
nlohmann::json analysis_json(const DealAnalysis& a, int deal);

}  // namespace tarneeb::solver
