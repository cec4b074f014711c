// pimc: perfect-information Monte Carlo (include/tarneeb/bots/pimc_bot.hpp has the method).
#include "tarneeb/bots/pimc_bot.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "tarneeb/bots/auction_read.hpp"
#include "tarneeb/bots/bid_model.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/solver/solver.hpp"

namespace tarneeb::bots {
namespace {

using solver::CardScores;
using solver::Position;
using solver::SolveError;
using solver::Solver;

/// A key of everything the view shows that a decision depends on.
std::uint64_t view_key(const SeatView& view) {
    std::uint64_t k = mix64(view.dealt().bits() ^ (static_cast<std::uint64_t>(index(view.seat())) << 60));
    k = mix64(k ^ view.played().bits());
    k = mix64(k ^ static_cast<std::uint64_t>(view.plays().size()) ^ (static_cast<std::uint64_t>(view.calls().size()) << 8));
    for (std::uint8_t c : view.calls()) k = mix64(k ^ c);
    return k;
}

// Fitted by tools/fit_bidding.py on bench/bid_data with double-dummy tables (docs/bots.md
// "Bidding fitted to data"); see the FIT comment lines for the data.
// FIT-BEGIN pimc
// pimc decl: 13228 rows fitted (deal ids not 4 mod 5), held-out RMSE 1.969 on 3324 rows; residual sd by partner state (unknown, bid, passed) 2.050, 2.041, 1.770
//   weights on [1, x, P, P*x, Q, Q*x, P*partner_bid, opp_bids]
// pimc def: 6614 rows fitted (deal ids not 4 mod 5), held-out RMSE 1.856 on 1657 rows; residual sd by partner state (unknown, bid, passed) 1.927, 1.769, 1.823
//   weights on [1, x, high, P, Q]
constexpr std::array<double, 8> kPimcDecl{+0.6340, +0.9469, -2.3620, -0.0451, -1.7898, +0.1819, +0.4965, -0.6316};
constexpr std::array<double, 3> kPimcDeclSd{2.0503, 2.0406, 1.7699};
constexpr std::array<double, 5> kPimcDef{+5.5524, +0.4524, -0.6658, +0.6951, -0.2620};
constexpr std::array<double, 3> kPimcDefSd{1.9270, 1.7686, 1.8234};
// FIT-END pimc
constexpr LevantineBidModel kPimcModel{kPimcDecl, kPimcDeclSd, kPimcDef, kPimcDefSd};

}  // namespace

PimcOptions registry_pimc_options() {
    PimcOptions o;
    o.samples = 20;
    o.first_trick_samples = 6;
    o.second_trick_samples = 12;
    o.time_budget_ms = 700;
    o.bidding.expected_points = true;
    o.bidding.preempt = 0.5;
    // pimc's own card play against the heuristic's, measured against the double-dummy
    // tables (docs/analysis.md "Inference from play, and an auction for pimc's own card
    // play"): as declarer 0.46 trick below double dummy, of which half is used (the
    // contracts a full shift gives up are the marginal ones pimc makes: −0.25 against −0.5,
    // +1.59 against +1.40 points per deal over the heuristic, "Declarer shift" there); as
    // defenders it takes more than the double-dummy defence (+1.0, half of it used: stronger
    // declarers give less away).
    o.bidding.declarer_shift = -0.25;
    o.bidding.defender_shift = 0.5;
    o.bidding.pass_margin = 0.0;
    // Inference from play: the opponents read as the heuristic, the partner's calls as this
    // bot's own auction (the same section).
    o.model_miss_call = 0.3;
    o.model_miss_card = 0.1;
    o.model_partner = true;
    return o;
}

namespace {

/// The options' player model, with `model` for the opponents and `partner_calls` for the
/// partner's calls.
PlayerModel player_model(const PimcOptions& options, Bot* model, Bot* partner_calls) {
    PlayerModel m;
    if (options.model_miss_call < 1 || options.model_miss_card < 1)
        m = {model, options.model_partner ? partner_calls : nullptr, options.model_miss_call, options.model_miss_card};
    m.learned = options.model_learned;
    m.policy = options.model_policy;
    m.policy_partner = options.model_policy_partner;
    return m;
}

}  // namespace

std::vector<Hands> sample_layouts(const SeatView& view, Rng& rng, const PimcOptions& options, Bot* model,
                                  Bot* partner_calls) {
    return sample_layouts(view, rng, samples_for(view, options), options.sample_tries, options.auction_slack,
                          options.auction_spread, player_model(options, model, partner_calls));
}

std::vector<WeightedLayout> card_layouts(const SeatView& view, Rng& rng, const PimcOptions& options, Bot* model,
                                         Bot* partner_calls) {
    if (options.exact_layouts > 0) {
        auto every = every_layout(view, static_cast<std::size_t>(options.exact_layouts), options.auction_slack,
                                  options.auction_spread, player_model(options, model, partner_calls));
        if (every) return std::move(*every);
    }
    std::vector<WeightedLayout> out;
    for (Hands& h : sample_layouts(view, rng, options, model, partner_calls)) out.push_back({h, 1});
    return out;
}

int samples_for(const SeatView& view, const PimcOptions& options) {
    const int n = std::max(options.samples, 1);
    const int trick = view.tricks_played();
    const int early = trick == 0 ? options.first_trick_samples : trick == 1 ? options.second_trick_samples : 0;
    return early > 0 ? std::min(early, n) : n;
}

// ---- the bot ---------------------------------------------------------------------------

PimcBot::PimcBot(std::uint64_t seed, PimcOptions options) : seed_(seed), options_(options) {
    options_.samples = std::max(options_.samples, 1);
    options_.threads = std::clamp(options_.threads, 1, 16);
    options_.bid_samples = std::max(options_.bid_samples, 0);
    if (options_.model_miss_call < 1 || options_.model_miss_card < 1) {
        model_ = std::make_unique<HeuristicBot>(seed);
        if (options_.model_partner) {
            // Only its calls are asked: no card-play knobs (no player model, no learned cards).
            PimcOptions plain = options_;
            plain.model_miss_call = plain.model_miss_card = 1;
            plain.policy_tricks = 0;
            partner_model_ = std::make_unique<PimcBot>(seed, plain);
        }
    }
    if (options_.policy_tricks > 0) policy_ = std::make_unique<LearnedBot>(seed);
}

void PimcBot::estimate(const SeatView& view) {
    if (estimate_for_ == view.dealt() && estimate_seat_ == view.seat() && !view.dealt().empty()) return;
    estimate_for_ = view.dealt();
    estimate_seat_ = view.seat();
    const Seat me = view.seat();
    const CardSet hand = view.dealt();
    mean_tricks_ = {};
    spread_ = {};
    solved_spread_ = false;
    if (options_.bid_samples == 0) {
        for (Suit su : kSuits) mean_tricks_[static_cast<std::size_t>(index(su))] = model_tricks(hand, su);
        return;
    }
    Rng rng(derive_seed(seed_, mix64(hand.bits()) ^ static_cast<std::uint64_t>(index(me))));
    std::vector<Hands> layouts;
    std::array<Card, 39> rest{};
    int n = 0;
    for (Card c : CardSet::deck() - hand) rest[static_cast<std::size_t>(n++)] = c;
    for (int k = 0; k < options_.bid_samples; ++k) {
        for (int i = n - 1; i > 0; --i)
            std::swap(rest[static_cast<std::size_t>(i)], rest[static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(i) + 1))]);
        Hands h{};
        h[me] = hand;
        int pos = 0;
        for (Seat s : kSeats)
            if (s != me)
                for (int j = 0; j < 13; ++j) h[s] |= rest[static_cast<std::size_t>(pos++)];
        layouts.push_back(h);
    }
    std::vector<solver::DdTable> tables(layouts.size());
    if (solver::tables(layouts, tables) != SolveError::ok) {
        // No solver answer: fall back to the model rather than bid on nothing.
        for (Suit su : kSuits) mean_tricks_[static_cast<std::size_t>(index(su))] = model_tricks(hand, su);
        return;
    }
    const double w = 1.0 / static_cast<double>(layouts.size());
    for (const auto& t : tables)
        for (Suit su : kSuits) {
            const int tricks = t.at(su, me);
            mean_tricks_[static_cast<std::size_t>(index(su))] += w * tricks;
            spread_[static_cast<std::size_t>(index(su))][static_cast<std::size_t>(tricks)] += w;
        }
    solved_spread_ = true;
}

std::array<double, 4> PimcBot::team_means(const SeatView& view) {
    estimate(view);
    const AuctionRead a = read_auction(view);
    const PimcBidding& b = options_.bidding;
    std::array<double, 4> m = mean_tricks_;
    for (double& x : m) {
        if (a.partner_bid > 0) x = std::max(x, a.partner_bid + b.partner_base + b.partner_slope * (x - kModelMeanBest));
        else if (a.partner_passed) x -= b.partner_passed;
        x -= b.opponent_bid * a.opponent_bids;
    }
    return m;
}

double PimcBot::chance(Suit trump, int level, double mean) const {
    const auto t = static_cast<std::size_t>(index(trump));
    if (!solved_spread_) {
        // P(tricks >= L) for a normal spread, with the continuity correction.
        const double z = (level - 0.5 - mean) / options_.bidding.sd;
        return 0.5 * std::erfc(z / std::sqrt(2.0));
    }
    // The solved layouts' spread, moved by what the auction added to the mean.
    const double shift = mean - mean_tricks_[t];
    double p = 0;
    for (int k = 0; k <= 13; ++k)
        if (k + shift >= level - 0.5) p += spread_[t][static_cast<std::size_t>(k)];
    return p;
}

PimcBot::Chances PimcBot::bid_chances(const SeatView& view) {
    const auto m = team_means(view);
    Chances ch{};
    for (Suit su : kSuits)
        for (int level = 0; level <= 13; ++level)
            ch[static_cast<std::size_t>(index(su))][static_cast<std::size_t>(level)] = chance(su, level, m[static_cast<std::size_t>(index(su))]);
    return ch;
}

Action PimcBot::decide_call(const SeatView& view) {
    const Rules& rules = view.rules();
    const PimcBidding& b = options_.bidding;
    const Chances ch = bid_chances(view);
    auto best_chance = [&](int level) {
        double p = 0;
        for (const auto& c : ch) p = std::max(p, c[static_cast<std::size_t>(level)]);
        return p;
    };
    const int high = view.high_bid();
    const bool partner_high = high > 0 && view.high_bidder() == partner(view.seat());

    if (rules.scoring == ScoringStyle::bid_value && b.expected_points) {
        // Levantine by expected points: the team's double-dummy tricks as declarer and as
        // defender from models fitted with the partner's and the opponents' calls (kPimcModel).
        const double own = *std::max_element(mean_tricks_.begin(), mean_tricks_.end());
        const int bid = levantine_expected_points_call(view, own, kPimcModel, b.pass_margin, b.preempt,
                                                       b.declarer_shift, b.defender_shift);
        return bid > 0 ? Action::bid(bid) : Action::pass();
    }
    if (rules.scoring == ScoringStyle::tricks_won) {
        // Classic pays the tricks won: bid only the least that wins the auction, never over
        // the partner.
        if (partner_high) return Action::pass();
        const std::optional<int> need = view.lowest_bid();  // rules.md "Auction", from core
        if (need && best_chance(*need) >= b.classic_threshold) return Action::bid(*need);
        return Action::pass();
    }
    // Levantine pays the bid: bid the most whose chance reaches the threshold.
    int most = 0;
    for (int l = rules.max_bid; l >= rules.min_bid && most == 0; --l)
        if (best_chance(l) >= b.threshold) most = l;
    if (partner_high) {
        // Raise a bidding partner once, and only with clear strength of this seat's own.
        const double own = *std::max_element(mean_tricks_.begin(), mean_tricks_.end());
        if (read_auction(view).my_bid == 0 && own >= b.raise_min && most > high) return Action::bid(most);
        return Action::pass();
    }
    if (const std::optional<int> need = view.lowest_bid(); need && most >= *need) return Action::bid(most);
    return Action::pass();
}

Action PimcBot::decide_trump(const SeatView& view) {
    const auto m = team_means(view);
    std::array<double, 4> p{};  // per trump: the chance of making the contract
    for (Suit su : kSuits) p[static_cast<std::size_t>(index(su))] = chance(su, view.contract()->bid, m[static_cast<std::size_t>(index(su))]);
    Suit best = Suit::spades;
    for (int s = 3; s >= 0; --s) {
        const auto i = static_cast<std::size_t>(s), b = static_cast<std::size_t>(index(best));
        if (p[i] > p[b] + 1e-12 || (std::abs(p[i] - p[b]) <= 1e-12 && m[i] > m[b])) best = static_cast<Suit>(s);
    }
    return Action::name_trump(best);
}

Action PimcBot::decide_card(const SeatView& view) {
    const CardSet legal = view.legal_cards();
    if (legal.size() == 1) return Action::play(legal.lowest());
    if ((legal - view.equivalents(legal.lowest())).empty()) return Action::play(legal.lowest());  // all equivalent
    if (policy_ && view.tricks_played() < options_.policy_tricks) return policy_->decide_card(view);

    // What the contract still needs from the side to play (this seat's team).
    const Team us = team_of(view.seat());
    const Contract contract = *view.contract();
    const bool declaring = us == contract.team();
    const int left = 13 - view.tricks_played();
    const int need = (declaring ? contract.bid : contract.tricks_to_set()) - view.tricks(us);
    const bool open = need > 0 && need <= left;
    const bool null_window = open && options_.null_window;

    // The samples, drawn up front so that the decision does not depend on the thread count.
    Rng rng(derive_seed(seed_, view_key(view)));
    const std::vector<WeightedLayout> layouts = card_layouts(view, rng, options_, model_.get(), partner_model_.get());
    if (layouts.empty()) return Action::play(weakest_card(legal, view.trump()));

    Position base;
    base.trump = view.trump();
    base.leader = view.trick_leader();
    const auto trick = view.current_trick();
    base.trick_size = static_cast<int>(trick.size());
    for (std::size_t i = 0; i < trick.size(); ++i) base.trick[i] = trick[i];

    std::vector<CardScores> results(layouts.size());
    std::vector<char> solved(layouts.size(), 0);
    const auto start = std::chrono::steady_clock::now();
    const double budget = options_.time_budget_ms;
    std::atomic<bool> cut{false};
    auto work = [&](int worker, int workers) {
        Solver solver;
        int done = 0;
        for (std::size_t k = static_cast<std::size_t>(worker); k < layouts.size(); k += static_cast<std::size_t>(workers)) {
            if (budget > 0 && k > 0) {
                // Start a sample only if it is expected to end before the deadline (its expected
                // time: this worker's mean so far; before any, half the budget).
                const double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                const double next = done > 0 ? spent / done : budget / 2;
                if (spent + next > budget) {
                    cut = true;
                    break;
                }
            }
            Position p = base;
            p.hands = layouts[k].hands;
            const SolveError e = null_window ? solver.cards_reaching(p, need, results[k]) : solver.all_cards(p, results[k]);
            solved[k] = e == SolveError::ok;
            ++done;
        }
    };
    const int workers = std::min<int>(options_.threads, static_cast<int>(layouts.size()));
    if (workers <= 1) {
        work(0, 1);
    } else {
        std::vector<std::thread> pool;
        for (int w = 0; w < workers; ++w) pool.emplace_back(work, w, workers);
        for (auto& t : pool) t.join();
    }
    budget_cuts_ += cut.load();

    // Score every legal card: the weight of the layouts reaching the contract's need (or, with
    // points_objective, the weighted points the round ends with), then the weighted total
    // tricks (sampled layouts weigh 1 each, so these are counts).
    const bool by_points = options_.points_objective && !null_window;
    std::array<double, 14> points{};  // by the tricks this side takes from here on
    if (by_points)
        for (int t = 0; t <= left; ++t) {
            const int ours = view.tricks(us) + t;
            const RoundScore rs = score_round(view.rules(), contract.bid, declaring ? ours : 13 - ours);
            points[static_cast<std::size_t>(t)] = declaring ? rs.declarers - rs.defenders : rs.defenders - rs.declarers;
        }
    std::array<double, 64> objective{};
    std::array<double, 64> tricks{};
    double used = 0;
    for (std::size_t k = 0; k < layouts.size(); ++k) {
        if (!solved[k]) continue;
        const double w = layouts[k].weight;
        used += w;
        for (const auto& cs : results[k].cards()) {
            const double worth = by_points ? points[static_cast<std::size_t>(std::clamp(cs.tricks, 0, left))]
                                           : open && cs.tricks >= need;
            objective[static_cast<std::size_t>(cs.card.bit())] += w * worth;
            tricks[static_cast<std::size_t>(cs.card.bit())] += w * cs.tricks;
        }
    }
    if (!(used > 0)) return Action::play(weakest_card(legal, view.trump()));
    // Sums of weights equal within rounding are ties (exact for counts).
    const double eps = 1e-9 * used;
    auto same = [eps](double a, double b) { return std::abs(a - b) <= eps; };
    Card best = legal.lowest();
    CardSet ties;
    for (Card c : legal) {
        const auto i = static_cast<std::size_t>(c.bit()), b = static_cast<std::size_t>(best.bit());
        const bool objective_same = same(objective[i], objective[b]);
        if (ties.empty() || (!objective_same && objective[i] > objective[b]) || (objective_same && !same(tricks[i], tricks[b]) && tricks[i] > tricks[b])) {
            best = c;
            ties = CardSet(c);
        } else if (objective_same && same(tricks[i], tricks[b])) {
            ties |= c;
        }
    }
    // Equal outcomes: keep the high cards (the timer's weakest-card order).
    return Action::play(weakest_card(ties, view.trump()));
}

}  // namespace tarneeb::bots
