// A learned card policy (issue 29, "A fast learned player for the browser"): for a SeatView in
// the play, every legal card gets a score from features of what the seat can see, and the
// policy plays the card with the highest score (a softmax over the legal cards when trained).
//
// Features (CardFeatures): kCardFeatures numbers per legal card: the card itself (rank, trump,
// following / ruffing / discarding / leading, how many unseen cards are above it, its own suit's
// length, whether it wins the trick so far, is the cheapest winner, may be beaten or ruffed by a
// later opponent, the cards equivalent to it, whether it is the lowest or highest held of its
// suit, a lead giving a ruff and discard), the position (seat in the trick, declaring side or
// defending, tricks each side still needs, trumps unseen), the holder model's reading of who
// holds the higher cards, who is void in the card's suit and who holds its highest unseen card,
// the length of the card's suit and the trumps (holder_model.hpp), the sure winners in the
// card's suit and in the hand, whether the partner's card is safe, and whether it is the card
// the heuristic would play (so the model learns where to override the heuristic). Only the
// view is read: never a hidden card.
//
// Model: score(x) = linear · x + w2 · relu(W1 x + b1), a one-hidden-layer network of
// kPolicyHidden units over the raw features (the trainer folds its input scaling into W1, b1
// and linear); the policy's score is the mean of the scores of an ensemble of such nets,
// separate fits (their fit-to-fit spread averaged away). Fitted by
// tools/train_card_policy.py on positions of heuristic and learned self-play labelled by the
// double-dummy value of every legal card (bench/card_policy_data); the weights and their recipe
// are in src/bots/card_policy_weights.cpp (docs/analysis.md "A learned card player"). No
// threads, no I/O, no solver: it builds for WebAssembly. A decision is the holder model of the
// view and, per net, kPolicyHidden × kCardFeatures multiply-adds per legal card
// (bench/learned_timing has its time).
#pragma once

#include <array>
#include <span>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// Numbers per legal card (card_features; their names in tools/train_card_policy.py FEATURES).
inline constexpr int kCardFeatures = 64;
/// Hidden units of the network.
inline constexpr int kPolicyHidden = 32;

/// One net's weights (see the file comment). w1[h * kCardFeatures + i]: input i to unit h.
struct CardPolicyWeights {
    std::array<float, kPolicyHidden * kCardFeatures> w1{};
    std::array<float, kPolicyHidden> b1{};
    std::array<float, kPolicyHidden> w2{};
    std::array<float, kCardFeatures> linear{};
};

/// The ensemble fitted by tools/train_card_policy.py (src/bots/card_policy_weights.cpp): one or
/// more nets, whose mean score is the policy's.
std::span<const CardPolicyWeights> fitted_card_policy();

/// The features of every legal card of one view, computed once per decision.
/// Precondition: view.my_turn() and view.phase() == Phase::play.
class CardFeatures {
public:
    /// `heuristic`: the card the heuristic plays in `view` (heuristic_card), a legal card.
    CardFeatures(const SeatView& view, Card heuristic);
    /// The legal cards, lowest bit first (view.legal_cards()).
    CardSet legal() const { return legal_; }
    /// The features of legal card number i (0 .. legal().size() - 1, in legal()'s order).
    std::span<const float, kCardFeatures> of(int i) const { return rows_[static_cast<std::size_t>(i)]; }

private:
    CardSet legal_;
    std::array<std::array<float, kCardFeatures>, 13> rows_{};
};

/// score(x) of the file comment for one card's features and one net.
float card_score(const CardPolicyWeights& w, std::span<const float, kCardFeatures> x);

/// The policy's score of one card's features: the mean of card_score over `nets` (not empty).
float card_score(std::span<const CardPolicyWeights> nets, std::span<const float, kCardFeatures> x);

/// The card the policy plays in `view` (its turn, phase play) given the heuristic's card:
/// the legal card with the highest mean score over `nets` (not empty); the heuristic's card
/// unless another card scores more than `margin` above it (margin 0: the plain argmax, ties to
/// the heuristic's card, then to the lower card).
Card policy_card(const SeatView& view, Card heuristic, std::span<const CardPolicyWeights> nets = fitted_card_policy(),
                 float margin = 0.0f);

}  // namespace tarneeb::bots
