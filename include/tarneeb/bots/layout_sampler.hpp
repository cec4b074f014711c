// The layout sampler of pimc, like OpenSpiel's ResampleFromInfostate: deal the cards one seat
// has not seen to the other seats so that the deal agrees with everything its SeatView shows
// (docs/analysis.md "pimc"). Hard constraints: each seat's number of cards left and the suits
// it has shown out of; a soft one: each bidder's dealt hand supports its bid by the bidding
// model (bid_model.hpp), a layout being kept with the chance that it fits.
#pragma once

#include <optional>
#include <vector>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

/// Deals the cards `view.seat()` has not seen to the other three seats: each gets exactly
/// view.cards_left(s) cards and none of a suit it has shown out of; the seat's own hand is
/// its real one. Uniform over such layouts when rejection sampling succeeds within a few
/// tries, otherwise a constrained greedy deal (most constrained suits first). nullopt only if
/// no layout exists (an inconsistent view).
std::optional<Hands> sample_layout(const SeatView& view, Rng& rng);

/// How well a sampled layout fits the auction (issue 4: samples consistent with "the
/// declarer's known bid"), in [0, 1]: the chance, under a soft normal tolerance `spread`
/// (tricks), that each other seat's dealt hand (its cards in the layout plus the ones it
/// played) supports its highest bid: the model's team tricks, in the named trump for the
/// declarer and in the best suit for any other bidder, of at least the bid minus `slack`.
/// Passes are not used (a pass may be a choice of level, not weakness). 1 when no other seat bid.
double auction_fit(const SeatView& view, const Hands& layout, double slack, double spread);

/// A model of how the other seats choose their actions, to read what their calls and cards
/// say about their hands (docs/bots.md "pimc": inference from play). `model` must be
/// deterministic and keep no memory between decisions (the heuristic).
struct PlayerModel {
    Bot* model = nullptr;          ///< the opponents' calls, trump and cards; nullptr: none
    Bot* partner_calls = nullptr;  ///< the partner's calls (its cards are not modelled); nullptr: none
    double miss_call = 1.0;        ///< weight of a layout per call the model would not have made
    double miss_card = 1.0;        ///< ... per trump or card the model would not have chosen
    /// The learned holder model (holder_model.hpp): candidate layouts are drawn from it, each
    /// card to a seat with the chance p(card, seat) raised to this power (1: the model as
    /// fitted) within the seats' counts, instead of uniformly; 0: not used.
    double learned = 0;
    /// Policy-based inference (issue 29, "Inference"; Skat's policy-based inference): each card
    /// an opponent played (and the partner's, with policy_partner) multiplies the weight by the
    /// learned card policy's chance of it in that seat's place (card_policy.hpp, a softmax over
    /// its legal cards, the card's equivalent cards counted as one) relative to its likeliest
    /// card, raised to this power: exp(policy * (score(card) - max score)); 0: not used.
    double policy = 0;
    bool policy_partner = false;
};

/// How well `layout` explains the modelled actions so far, in [0, 1]: the round is replayed
/// from the deal with the layout's hands (each seat's cards left plus the cards it played)
/// and at each modelled action (an opponent's, or the partner's call) the model decides in
/// that seat's place; every action it would not have taken multiplies the weight by
/// miss_call or miss_card, and (model.policy) every modelled card by the policy's relative
/// chance of it. Stops
/// early, returning the weight so far, once the weight is below `stop_below`.
double model_fit(const SeatView& view, const Hands& layout, const PlayerModel& model, double stop_below = 0);

/// `samples` draws of sample_layout() (or, with model.learned, from the holder model), each kept
/// with the chance auction_fit(slack, spread) times model_fit(model) (when `model` has a bot), trying up to `tries` candidates per
/// sample (the one that fitted best stays if none is kept; tries <= 1: neither is used). Fewer than
/// `samples` only if the view admits no layout at all.
std::vector<Hands> sample_layouts(const SeatView& view, Rng& rng, int samples, int tries, double slack,
                                  double spread, const PlayerModel& model = {});

/// A layout with its weight (relative; not normalised).
struct WeightedLayout {
    Hands hands;
    double weight = 1;
};

/// Every layout that agrees with what `view` shows (each other seat's number of cards left, the
/// suits it has shown out of; the seat's own hand its real one), each weighted by what
/// sample_layouts keeps a candidate for: auction_fit(slack, spread) times model_fit(model), and
/// with model.learned the holder model's chances of the layout's cards, the product of
/// p(card, holder) ^ model.learned (the counts fixed, the prior is the same for every layout).
/// This is the distribution sample_layouts draws from, without the sampling (issue 29, "exact
/// play over every layout consistent with the view in the last tricks"). nullopt if there are
/// more than `cap` such layouts (or none: an inconsistent view); if every weight is 0, each is 1.
std::optional<std::vector<WeightedLayout>> every_layout(const SeatView& view, std::size_t cap, double slack,
                                                        double spread, const PlayerModel& model = {});

}  // namespace tarneeb::bots
