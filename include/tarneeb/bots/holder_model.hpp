// Who holds each card a seat has not seen: a model learned from self-play (issue 29, "Inference":
// learn from data what pimc's layout sampler weighs by hand). For a SeatView, every unseen card
// and every other seat gets a score w·f (a conditional logit: the three seats compete for the
// card), from features of what that seat did that bear on the card (its calls, the suits it led,
// followed, discarded and ruffed, whether it passed up a trick the card would have won); a seat
// that has shown out of the card's suit, or has no card left, gets none. The weights are fitted by
// tools/train_holder_model.py on positions of heuristic self-play written by `bench/holder_data`
// (docs/analysis.md "A learned holder model": the recipe, the seed and the fit), and live in
// src/bots/holder_weights.cpp. No threads, no I/O.
#pragma once

#include <array>
#include <span>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// The number of features of one (seat, card) pair (holder_features).
inline constexpr int kHolderFeatures = 21;

/// The fitted weights, one per feature (holder_weights.cpp).
using HolderWeights = std::array<double, kHolderFeatures>;
/// The weights fitted by tools/train_holder_model.py (src/bots/holder_weights.cpp).
const HolderWeights& fitted_holder_weights();

/// What one view says about each other seat, read once from its calls and plays (the features'
/// raw counts). Built by HolderModel; exposed for bench/holder_data.
struct HolderEvidence {
    BySeat<int> high_bid{};                       ///< the seat's highest bid, 0 if none
    BySeat<bool> only_passed{};                   ///< it called and every call was a pass
    BySeat<std::array<int, 4>> played{};          ///< cards played of each suit
    BySeat<std::array<int, 4>> led{};             ///< tricks led in each suit
    BySeat<std::array<int, 4>> discarded{};       ///< off-suit, non-trump cards played, by suit
    BySeat<int> ruffed{};                         ///< trumps played on a trick led in another suit
    /// Bit k of [seat][suit]: the seat followed that suit with a lower card while the card of
    /// rank k would have taken the trick at that point (so it probably has not got it).
    BySeat<std::array<std::uint16_t, 4>> declined{};
    /// Bit k of [seat][suit]: the seat led that suit with a card below rank k.
    BySeat<std::array<std::uint16_t, 4>> led_below{};
};

/// Reads `view`'s calls and plays (rules.md "Bidding", "Play"). O(cards played).
HolderEvidence read_evidence(const SeatView& view);

/// The features of "seat `s` holds card `c`" (s != view.seat(), c unseen, s may hold c).
void holder_features(const SeatView& view, const HolderEvidence& e, Seat s, Card c, std::span<double, kHolderFeatures> out);

/// P(seat holds card) for every unseen card of a view under weights `w`: [card.dense()][seat],
/// each unseen card's row summing to 1 over the seats that may hold it (0 for the others, the
/// viewer, and cards the viewer has seen).
class HolderModel {
public:
    explicit HolderModel(const SeatView& view, const HolderWeights& w = fitted_holder_weights());
    double p(Card c, Seat s) const { return p_[static_cast<std::size_t>(c.dense())][static_cast<std::size_t>(index(s))]; }

private:
    std::array<std::array<double, 4>, 52> p_{};
};

}  // namespace tarneeb::bots
