// pimc: the perfect-information Monte Carlo computer player (issue 4; docs/bots.md "pimc").
//
// Card play: at each decision, deal the cards this seat has not seen to the other seats
// consistently with its SeatView (each seat's number of cards left, the suits it has shown
// out of), solve every sampled layout double-dummy for every legal card at once (DDS), and
// play the card with the best outcome for the contract: first the share of samples in which
// the contract is made (declaring side) or set (defenders), then the mean double-dummy
// tricks. When the contract is already decided, only the tricks count. Shortcuts: one legal
// card, or all legal cards equivalent (touching cards of one suit once the played cards are
// removed), are played without search.
//
// Auction and trump: for each trump, the chance of taking at least L tricks as declarer,
// P(L), from one of two estimators (docs/bots.md "pimc" compares them):
//   - model (default, bid_samples = 0): a linear model of the declaring team's double-dummy
//     tricks on features of this seat's hand (trump length and honours, side high cards,
//     shortness), fitted offline by tools/fit_bid_model.py on 1,500 oracle deals, with a
//     normal spread of its residual sd; microseconds per decision;
//   - simulation (bid_samples = N > 0): N layouts of the other three hands, each solved for
//     the whole table (this seat declaring in each trump); about 0.4 s of CPU per layout.
// Either is computed once per deal and cached. The level is the highest L with
// max over trumps P(L) >= bid_threshold; the seat bids the highest legal bid up to it
// (taking over from its partner only with a higher bid of its own, never sacrificing), and
// names the trump with the best chance to make the contract (then the most tricks).
//
// Determinism: the samples of a decision come from Rng(derive_seed(seed, decision key)),
// where the key is made of what the view shows (hand, cards played, calls), and each sample
// is solved independently, so the same seed and view give the same decision whatever the
// number of threads, unless a time budget cuts the sampling short.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

struct PimcOptions {
    int samples = 6;             ///< layouts solved per card decision (>= 1)
    int threads = 1;             ///< solver threads per decision (each leases a DDS thread index)
    double time_budget_ms = 0;   ///< stop sampling a card decision after this (0 = no limit;
                                 ///< at least one sample is always solved)
    int bid_samples = 0;         ///< 0: bid from the fitted model; N > 0: from N solved layouts
    double bid_threshold = 0.7;  ///< bid level L when P(tricks >= L) reaches this (break-even
                                 ///< against a pass is about (L+7)/(2L+7) = 0.64..0.67 in levantine)
    bool null_window = false;    ///< while the contract is open, solve make-or-set only (DDS
                                 ///< null-window target) instead of every card's exact tricks
};

/// Deals the cards `view.seat()` has not seen to the other three seats: each gets exactly
/// view.cards_left(s) cards and none of a suit it has shown out of; the seat's own hand is
/// its real one. Uniform over such layouts when rejection sampling succeeds within a few
/// tries, otherwise a constrained greedy deal (most constrained suits first). nullopt only if
/// no layout exists (an inconsistent view).
std::optional<Hands> sample_layout(const SeatView& view, Rng& rng);

class PimcBot final : public Bot {
public:
    explicit PimcBot(std::uint64_t seed, PimcOptions options = {});
    std::string_view name() const override { return "pimc"; }
    Action decide_call(const SeatView& view) override;
    Action decide_trump(const SeatView& view) override;
    Action decide_card(const SeatView& view) override;

    const PimcOptions& options() const { return options_; }

    /// Per-trump chance of taking at least L tricks as declarer (L = 0..13): chance[suit][L],
    /// from the model or the simulation (see the file comment). Computed once per dealt hand.
    using Chances = std::array<std::array<double, 14>, 4>;
    const Chances& bid_chances(const SeatView& view);

private:
    std::uint64_t seed_;
    PimcOptions options_;
    CardSet chances_for_{};  ///< the dealt hand the cached chances belong to
    Seat chances_seat_ = Seat::s0;
    Chances chances_{};
    std::array<double, 4> mean_tricks_{};
};

}  // namespace tarneeb::bots
