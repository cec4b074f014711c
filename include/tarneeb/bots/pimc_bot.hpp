// pimc: the perfect-information Monte Carlo computer player (issue 4; docs/bots.md "pimc").
//
// Card play: at each decision, deal the cards this seat has not seen to the other seats
// consistently with its SeatView (each seat's number of cards left, the suits it has shown
// out of) and, softly, with the auction (each bidder's hand supports its bid: layouts are
// kept with the chance that the bidding model agrees, see PimcOptions::sample_tries) and with
// what the others did (inference from play: the heuristic in the opponents' place and this
// bot's auction in the partner's would have acted the same, PimcOptions::model_miss_card),
// solve every sampled layout double-dummy for every legal card at once (DDS), and play
// the card with the best outcome for the contract: first the share of samples in which the
// contract is made (declaring side) or set (defenders), then the mean double-dummy
// tricks (or, with PimcOptions::points_objective, the mean points of the round). When the
// contract is already decided, only the tricks count. Shortcuts: one legal card, or all legal
// cards equivalent (SeatView::equivalents: touching once the cards of earlier tricks are
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
// Either is computed once per deal and cached. The auction then moves the mean (PimcBidding):
// a partner's bid raises it; a partner's pass and each opponent's bid may lower it (tuned to
// 0: duplicate matches found no gain; opponents' bids then count through the bids left). Levantine
// (pays the bid): bid the highest L with max over trumps P(L) >= threshold, raising a bidding
// partner at most once and only with clear own strength; classic (pays the tricks won): bid
// the least that wins the auction when its chance reaches classic_threshold, never over the
// partner. Trump: the best chance to make the contract, then the most expected tricks.
// With PimcBidding::expected_points (the registry's, issue 13) the levantine auction instead
// bids by expected points like the heuristic (bid_model.hpp), on models of the team's
// double-dummy tricks as declarer and as defender fitted with the partner's and the opponents'
// calls (tools/fit_bidding.py on bench/bid_data's solved deals), shifted by what pimc's card
// play makes of them (PimcBidding::declarer_shift, defender_shift).
//
// Cost: the layouts per decision follow a per-trick schedule (first_trick_samples,
// second_trick_samples, then samples), and a time budget per decision stops the sampling
// before a layout that would end past the deadline.
//
// Determinism: the samples of a decision come from Rng(derive_seed(seed, decision key)),
// where the key is made of what the view shows (hand, cards played, calls), and each sample
// is solved independently, so the same seed and view give the same decision whatever the
// number of threads, unless a time budget cuts the sampling short.
#pragma once

#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <vector>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::bots {

/// The auction's knobs, in double-dummy tricks of the bidder's team (docs/analysis.md
/// "Auction and trump"). The defaults were tuned by duplicate matches against the heuristic.
struct PimcBidding {
    double threshold = 0.78;         ///< levantine: bid L when P(team tricks >= L) reaches this
    double classic_threshold = 0.68; ///< classic: bid the least that wins when its chance reaches this
    double partner_passed = 0.0;     ///< subtracted from the team's mean once the partner passed
    double partner_base = 0.8;       ///< partner bid b: mean = max(own, b + base + slope * (own - 7.9))
    double partner_slope = 0.3;      ///< (7.9: the model's mean best-suit value over random hands)
    double opponent_bid = 0.0;       ///< subtracted from the mean for each opponent who bid
    double raise_min = 8.5;          ///< levantine: raise a bidding partner (once) only when this
                                     ///< seat's own best mean reaches this
    double sd = 2.32;                ///< spread of the team's tricks around the mean
    /// Levantine by expected points (docs/bots.md "Bidding fitted to data"), like the
    /// heuristic: the team's double-dummy tricks as declarer and as defender from models fitted
    /// by tools/fit_bidding.py with the partner's and the opponents' calls, each level's
    /// expected score against the value of passing. false: the threshold rule above.
    bool expected_points = false;
    double pass_margin = 0.0;        ///< expected_points: bid only when it beats passing by this
    double preempt = 0.0;            ///< expected_points: bid the highest level worth at most this
                                     ///< less than the best one
    double declarer_shift = 0.0;     ///< expected_points: tricks added to the fitted double-dummy
    double defender_shift = 0.0;     ///< means as declarer / as defender (pimc's own card play)
};

struct PimcOptions {
    int samples = 24;            ///< layouts solved per card decision (>= 1), from the third trick on
    int threads = 2;             ///< solver threads per decision (each leases a DDS thread index)
    double time_budget_ms = 0;   ///< a card decision's deadline (0 = none): a sample is not
                                 ///< started when the time so far plus its expected time (the
                                 ///< mean of the samples solved so far) would pass it; at least
                                 ///< one sample is always solved. Decisions that meet no deadline
                                 ///< are the same as without one (same seed, same card).
    int bid_samples = 0;         ///< 0: bid from the fitted model; N > 0: from N solved layouts
    PimcBidding bidding{};       ///< how the chances become calls
    int sample_tries = 40;       ///< candidate layouts per sample when fitting the auction (1: off)
    double auction_slack = 0.5;  ///< a bidder's model tricks are expected >= its bid - slack ...
    double auction_spread = 1.0; ///< ... within this normal tolerance (see decide_card)
    bool null_window = false;    ///< while the contract is open, solve make-or-set only (DDS
                                 ///< null-window target) instead of every card's exact tricks
    /// Layouts in the first and the second trick (at most `samples`; 0 = `samples`): there
    /// every layout is a whole-deal solve (20-100 ms, ~80 % of a deal's solving time).
    int first_trick_samples = 0;
    int second_trick_samples = 0;
    /// Inference from play (PlayerModel, layout_sampler.hpp): each sampled layout is also
    /// weighed by how well the heuristic, in the opponents' place, would have made their calls
    /// and played their cards, and (model_partner) this bot's own auction in the partner's
    /// place its calls: per call not made so, miss_call; per card (or trump), miss_card.
    /// 1 = not used.
    double model_miss_call = 1.0;
    double model_miss_card = 1.0;
    bool model_partner = false;
    /// The learned holder model (holder_model.hpp): layouts drawn from it, each card's chances
    /// raised to this power (PlayerModel::learned); 0 = not used.
    double model_learned = 0;
    /// Policy-based inference (PlayerModel::policy): each opponent's card (and the partner's,
    /// with model_policy_partner) weighs a layout by the learned card policy's relative chance
    /// of it, to this power; 0 = not used.
    double model_policy = 0;
    bool model_policy_partner = false;
    /// Exact play at the end (issue 29, "search where it pays"): when the view admits at most
    /// this many layouts, solve every one of them, each weighted as the sampler would keep it
    /// (every_layout, layout_sampler.hpp), instead of `samples` drawn ones; 0 = always sample.
    int exact_layouts = 0;
    /// The learned card policy's cards in the first this many tricks (LearnedBot,
    /// learned_bot.hpp: a net fitted to the double-dummy worth of each card over many
    /// positions), where pimc solves few whole-deal layouts; 0 = pimc's own cards throughout.
    int policy_tricks = 0;
    /// The card-play objective: false, the share of layouts in which the contract is made (or
    /// set) first, then the mean tricks; true, the mean of the round's net points (this team's
    /// score minus the other's, score_round) over the layouts, then the mean tricks, so a trick
    /// the score counts (levantine: the defenders' when set; classic: every trick) is weighed
    /// against the contract in points (issue 4's "expected points as the card-play objective").
    bool points_objective = false;
};

/// The number of layouts a card decision in `view` solves (the options' per-trick counts).
int samples_for(const SeatView& view, const PimcOptions& options);

/// The registry's `pimc` options (docs/analysis.md "Measurements"): the defaults above with
/// a per-trick sample schedule and a time budget per decision.
PimcOptions registry_pimc_options();

/// The layouts a card decision solves: sample_layouts(view, rng, samples_for(view, options),
/// options.sample_tries, options.auction_slack, options.auction_spread, the options' player
/// model with `model` for the opponents and `partner_calls` for the partner's calls)
/// (layout_sampler.hpp).
std::vector<Hands> sample_layouts(const SeatView& view, Rng& rng, const PimcOptions& options, Bot* model = nullptr,
                                  Bot* partner_calls = nullptr);

/// The weighted layouts a card decision solves: with options.exact_layouts, every layout when
/// there are at most that many (every_layout, layout_sampler.hpp); otherwise sample_layouts
/// above, each of weight 1.
std::vector<WeightedLayout> card_layouts(const SeatView& view, Rng& rng, const PimcOptions& options,
                                         Bot* model = nullptr, Bot* partner_calls = nullptr);

class PimcBot final : public Bot {
public:
    explicit PimcBot(std::uint64_t seed, PimcOptions options = {});
    std::string_view name() const override { return "pimc"; }
    Action decide_call(const SeatView& view) override;
    Action decide_trump(const SeatView& view) override;
    Action decide_card(const SeatView& view) override;

    const PimcOptions& options() const { return options_; }
    /// Card decisions whose time budget stopped the sampling early (they may differ between runs).
    std::uint64_t budget_cuts() const { return budget_cuts_; }

    /// Per-trump chance that this seat's team takes at least L tricks (L = 0..13) if it
    /// declares: chance[suit][L], from the estimator (the model or the simulation, computed
    /// once per dealt hand) moved by what the auction so far says (PimcBidding).
    using Chances = std::array<std::array<double, 14>, 4>;
    Chances bid_chances(const SeatView& view);

private:
    void estimate(const SeatView& view);                  ///< fills mean_tricks_ (and spread_)
    std::array<double, 4> team_means(const SeatView& view);  ///< per trump, after the auction
    double chance(Suit trump, int level, double mean) const;

    std::uint64_t seed_;
    PimcOptions options_;
    CardSet estimate_for_{};  ///< the dealt hand the cached estimate belongs to
    Seat estimate_seat_ = Seat::s0;
    std::array<double, 4> mean_tricks_{};  ///< per trump: the team's expected tricks, partner unknown
    Chances spread_{};  ///< simulation only: per trump, the share of layouts with exactly k tricks
    bool solved_spread_ = false;  ///< spread_ holds solved layouts (else: the model's normal spread)
    std::uint64_t budget_cuts_ = 0;
    std::unique_ptr<Bot> model_;          ///< the heuristic, when the options use a player model
    std::unique_ptr<Bot> partner_model_;  ///< this bot's auction without a model (model_partner)
    std::unique_ptr<Bot> policy_;         ///< the learned player, when options.policy_tricks > 0
};

}  // namespace tarneeb::bots
