// The bidding model of pimc (docs/analysis.md "Auction and trump"): a linear model of the
// declaring team's double-dummy tricks on features of the declarer's own hand (trump length
// and honours, side high cards, shortness), fitted offline by tools/fit_bid_model.py on 1,500
// oracle deals; its residual spread is PimcBidding::sd. Used to bid (PimcBot) and to weigh
// sampled layouts by how well they fit the auction (layout_sampler.hpp).
#pragma once

#include <array>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// The model's mean best-suit value over random hands (docs/analysis.md "Auction and trump").
constexpr double kModelMeanBest = 7.9;

/// The model's mean tricks (0..13, not clamped) of the declaring team when a seat holding
/// `hand` (its 13 dealt cards) declares `trump`, its partner's hand unknown.
double model_tricks(CardSet hand, Suit trump);

/// Levantine bidding by expected points (docs/bots.md "Bidding fitted to data"), shared by
/// the heuristic and pimc. Two linear models of a team's tricks, fitted by
/// tools/fit_bidding.py on bench/bid_data, with x = the calling seat's own hand value (the
/// bot's own measure), P = the partner bid (b = its first bid), Q = the partner passed without
/// bidding, n = opponents who bid, h = the standing bid:
///   as declarer (this seat declares): decl . [1, x, P, P x, Q, Q x, P b, n], spread decl_sd[state]
///   as defenders of the opponents' standing bid: def . [1, x, h, P, Q], spread def_sd[state]
/// state: 0 partner not heard, 1 partner bid, 2 partner passed. The team's tricks are normal
/// around the mean, rounded to 0..13.
struct LevantineBidModel {
    std::array<double, 8> decl{};
    std::array<double, 3> decl_sd{};
    std::array<double, 5> def{};
    std::array<double, 3> def_sd{};
};

/// Expected net points (the declaring team's points minus the defenders') of a levantine
/// contract at `level` when the declaring team's tricks are normal(mean, sd) rounded to
/// 0..13: `level` when made, minus `level` plus the defenders' tricks when set (rules.md
/// "Preset levantine").
double levantine_contract_value(double mean, double sd, int level);

/// The levantine call of `view.seat()` (0 = pass, else the bid) with own hand value `own`:
/// every legal level's expected points against the value of passing, which is 0 with no bid
/// standing, the partner's contract's value when the partner holds the bid (a partner is
/// raised once at most: pass if this seat bid before), and the opponents' contract's value
/// (for this team, from the defender model) when they hold it. Pass unless a level beats
/// passing by `pass_margin`; the highest level within `preempt` of the best one is bid.
/// `declarer_shift` / `defender_shift` (tricks) are added to the two models' means: the
/// models predict double-dummy tricks, a bot's card play against its opponents' makes more or
/// fewer (docs/bots.md "Bidding fitted to data").
/// Precondition: view.phase() == auction, levantine scoring.
int levantine_expected_points_call(const SeatView& view, double own, const LevantineBidModel& model,
                                   double pass_margin, double preempt, double declarer_shift = 0,
                                   double defender_shift = 0);

}  // namespace tarneeb::bots
