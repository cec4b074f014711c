// The `heuristic` bot: a rule-based card player that sees only its SeatView.
//
// Bidding (rules.md "Auction" of each preset): it estimates the tricks its own hand takes with
// each suit as trump (top cards, length, trump length and honours, short side suits to ruff),
// adds an expected share for the partner (from the partner's bid, or less when the partner
// passed) and lowers it for each opponent who bid. Levantine scoring pays the bid and nothing
// for overtricks, so it bids the most it expects to make; classic scoring pays the tricks won,
// so it bids only what it takes to win the auction. It never outbids its partner in classic
// and raises its partner in levantine only on real extra strength.
// Trump: the suit with the best estimate for its own hand.
// Play: tracks every card played and the suits each seat has shown out of (SeatView), and
// plays by the classic rules of thumb: second hand low, third hand high, win as cheaply as
// possible, do not overtake a partner whose card is sure to win, ruff a losing trick when void
// (over-ruffing only when it can win), draw trumps as the declaring team when it holds the
// master trump or more trumps than are out, cash sure winners when the opponents cannot ruff
// them, lead into the partner's void for a ruff, and discard from short suits.
//
// The bot is stateless and deterministic: the same view always gives the same decision (the
// seed is accepted for the registry and ignored). Every decision is a few hundred
// nanoseconds of bit operations (bench/bots_bench.cpp).
#pragma once

#include "tarneeb/bots/bot.hpp"

namespace tarneeb::bots {

class HeuristicBot final : public Bot {
public:
    explicit HeuristicBot(std::uint64_t seed = 0) { (void)seed; }
    std::string_view name() const override { return "heuristic"; }
    Action decide_call(const SeatView& view) override;
    Action decide_trump(const SeatView& view) override;
    Action decide_card(const SeatView& view) override;
};

/// Estimated tricks `hand` (13 cards or fewer) takes on its own with `trump` as trump, in
/// tricks (fractional). The partner's cards are not counted.
double estimate_tricks(CardSet hand, Suit trump);

/// The suit `hand` would name as trump: the best estimate_tricks, ties to the longer suit,
/// then rules.md's default trump order.
Suit best_trump(CardSet hand);

}  // namespace tarneeb::bots
