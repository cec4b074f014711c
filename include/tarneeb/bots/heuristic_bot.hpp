// The `heuristic` bot: a rule-based card player that sees only its SeatView.
//
// Bidding (rules.md "Auction" of each preset): it estimates the tricks its own hand takes with
// each suit as trump (top cards, length, trump length and honours, short side suits to ruff),
// adds an expected share for the partner (from the partner's bid, or less when the partner
// passed) and lowers it for each opponent who bid. Levantine scoring pays the bid and nothing
// for overtricks, and a set gives the defenders their tricks: it bids by expected points
// (issue 13, bid_model.hpp levantine_expected_points_call): every level's expected score, from
// models of its team's tricks as declarer and as defender fitted to its own play
// (tools/fit_bidding.py), against the value of passing, which is negative when the opponents
// hold the bid. Classic scoring pays the tricks won, so it bids only what it takes to win the
// auction. It never outbids its partner in classic and raises its partner in levantine at
// most once, when the higher level is worth more to the team.
// Trump: the suit with the best estimate for its own hand.
// Play: tracks every card played and the suits each seat has shown out of (SeatView), and
// plays by the classic rules of thumb (docs/bots.md "Card play", issue 29): second hand low,
// third hand high (also over a partner's card that may be beaten), win as cheaply as
// possible, do not overtake a partner whose card is sure to win, ruff a losing trick when
// void with the cheapest trump nobody can over-ruff (only a seat that has shown out of the
// suit led can), and as second hand void wait for the partner rather than ruff a low lead;
// the declaring team draws trumps with the master trump or with length; cash sure winners
// an opponent cannot ruff, lead into the partner's void for a ruff, return the partner's
// suit, lead the top of a sequence, and discard from short suits.
//
// The bot is stateless and deterministic: the same view always gives the same decision (the
// seed is accepted for the registry and ignored). A card decision is about 40 ns of bit
// operations, a call a few hundred (bench/bots_bench.cpp).
#pragma once

#include "tarneeb/bots/bot.hpp"

namespace tarneeb::bots {

/// The card-play rules added by issue 29 (HeuristicParams::card_rules), one bit each;
/// docs/bots.md "Card play" gives each one's measured worth. With none of them and the old
/// knobs (draw_slack 0, void_guess 1, cash_guess 1) the card play is the one before issue 29.
enum CardRule : unsigned {
    kThirdOverPartner = 1u << 0,  ///< third hand plays high over the partner's card when the
                                  ///< last player may hold a card between the two
    kReturnPartner = 1u << 1,     ///< lead back the suit the partner led first
    kSequenceLead = 1u << 2,      ///< lead the top of a side-suit sequence (K Q, Q J, 8 7) rather than low
    kRuffSafety = 1u << 3,        ///< a ruff can be over-ruffed only by a player void in the suit led
    kSecondWait = 1u << 4,        ///< second hand, void: discard while the partner may beat the lead
    kSecondNoMaster = 1u << 5,    ///< second hand, void: ruff with a lower trump than the master
    kTrumpSequence = 1u << 6,     ///< drawing trumps with length: the top of a trump sequence, not the lowest
};

/// Every rule: the registry's heuristic.
inline constexpr unsigned kDefaultCardRules =
    kThirdOverPartner | kReturnPartner | kSequenceLead | kRuffSafety | kSecondWait | kSecondNoMaster | kTrumpSequence;

/// The bidding knobs, in tricks. The defaults were fitted on heuristic self-play: expected
/// tricks from 20,000 played deals, margins by duplicate matches of variants against each
/// other (docs/bots.md). Tests and experiments may change them; the registry uses the defaults.
struct HeuristicParams {
    double base = 4.7;            ///< team tricks expected with an unknown partner: base + slope * own
    double slope = 0.61;
    double base_partner_passed = 4.8;  ///< as `base` once the partner has passed
    double partner_extra = 0.5;   ///< with a bidding partner: partner's bid + 0.8 + this * (own - 3.7)
                                  ///< (0.3 before issue 29's card play, as in bench's heuristic-old)
    double opponent_bid = 0.6;    ///< subtracted for each opponent who bid
    double margin_levantine = 0.6;///< levantine: bid the most with expected tricks >= bid + margin
    double margin_classic = -0.6; ///< classic: bid the least that wins if expected >= bid + margin
    double raise_min_own = 3.5;   ///< levantine: raise the partner only with at least this own
    /// Levantine: bid by expected points (docs/bots.md "Bidding fitted to data"): the team's
    /// tricks as declarer and as defender from models fitted by tools/fit_bidding.py on
    /// bench/bid_data, each level's expected score against the value of passing (0 with no
    /// bid standing, the opponents' expected score when they hold the bid, the partner's
    /// contract's when the partner does). false: the margin rule above (the bot before issue 13).
    bool expected_points = true;
    /// expected_points: bid only when it beats passing by this (points). -1 (bid a level worth up
    /// to a point less than passing): +0.035 and +0.039 points per deal over 0 on held-out seeds
    /// 7 and 11 (1,000,000 duplicate pairs each, docs/bots.md).
    double pass_margin = -1.0;
    double preempt = 0.5;         ///< expected_points: the highest level worth at most this less
                                  ///< than the best level is bid instead (points)
    /// expected_points: tricks added to the declarer and defender models' means
    /// (levantine_expected_points_call, bid_model.hpp). 0: the heuristic's own card play, which
    /// the models were fitted on; a stronger card play (LearnedBot) makes more of both.
    double declarer_shift = 0;
    double defender_shift = 0;
    /// Card play (issue 29): the CardRule bits in use (experiments switch single rules off),
    /// and how the declaring team draws trumps and how each seat guesses voids, in cards.
    unsigned card_rules = kDefaultCardRules;
    int draw_len = 3;    ///< the declaring team leads a low trump holding at least this many
    int draw_slack = 4;  ///< ... and more than (trumps still unseen - draw_slack) (before issue 29: 0)
    int void_guess = 0;  ///< a seat not shown void may ruff a suit with at most this many of it
                         ///< unseen (before issue 29: 1)
    int cash_guess = 0;  ///< a master is not cashed if an opponent not shown void may ruff it
                         ///< with at most this many of its suit unseen (before issue 29: 1)
};

/// The heuristic with its card play as before issue 29: every HeuristicParams::card_rules bit
/// off and the knobs' old values, the auction today's (tests of each rule and the bench's
/// `heuristic-oldplay` compare against it).
inline HeuristicParams oldplay_params() {
    HeuristicParams p;
    p.card_rules = 0;
    p.draw_slack = 0;
    p.void_guess = 1;
    p.cash_guess = 1;
    return p;
}

class HeuristicBot final : public Bot {
public:
    explicit HeuristicBot(std::uint64_t seed = 0, const HeuristicParams& params = {}) : params_(params) { (void)seed; }
    std::string_view name() const override { return "heuristic"; }
    Action decide_call(const SeatView& view) override;
    Action decide_trump(const SeatView& view) override;
    Action decide_card(const SeatView& view) override;

private:
    HeuristicParams params_;
};

/// The card the heuristic with `params` plays in `view` (its turn, phase play), and a short
/// label of the rule that chose it ("follow: third high"), for bench/card_costs.
struct CardChoice {
    Card card;
    const char* rule;
};
CardChoice heuristic_card(const SeatView& view, const HeuristicParams& params = {});

/// Estimated tricks `hand` (13 cards or fewer) takes on its own with `trump` as trump, in
/// tricks (fractional). The partner's cards are not counted.
double estimate_tricks(CardSet hand, Suit trump);

/// The suit `hand` would name as trump: the best estimate_tricks, ties to the longer suit,
/// then rules.md's default trump order.
Suit best_trump(CardSet hand);

}  // namespace tarneeb::bots
