// The bidding model of pimc (docs/analysis.md "Auction and trump"): a linear model of the
// declaring team's double-dummy tricks on features of the declarer's own hand (trump length
// and honours, side high cards, shortness), fitted offline by tools/fit_bid_model.py on 1,500
// oracle deals; its residual spread is PimcBidding::sd. Used to bid (PimcBot) and to weigh
// sampled layouts by how well they fit the auction (layout_sampler.hpp).
#pragma once

#include "tarneeb/core/cards.hpp"

namespace tarneeb::bots {

/// The model's mean best-suit value over random hands (docs/analysis.md "Auction and trump").
constexpr double kModelMeanBest = 7.9;

/// The model's mean tricks (0..13, not clamped) of the declaring team when a seat holding
/// `hand` (its 13 dealt cards) declares `trump`, its partner's hand unknown.
double model_tricks(CardSet hand, Suit trump);

}  // namespace tarneeb::bots
