// The pimc bot: layouts consistent with the view, legal and reproducible decisions, bidding.
#include <chrono>
#include <cmath>
#include <optional>
#include <iostream>

#include <gtest/gtest.h>

#include "../solver/helpers.hpp"
#include "../test_util.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"
#include "self_play_positions.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {
using test::random_round_at;
}  // namespace

TEST(Pimc, LayoutsRespectTheView) {
    int with_voids = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const Round r = random_round_at(seed, 12 + static_cast<int>(seed % 30));
        const SeatView v(r, r.to_act());
        Rng rng(seed);
        for (int k = 0; k < 5; ++k) {
            const auto h = sample_layout(v, rng);
            ASSERT_TRUE(h.has_value()) << seed;
            CardSet all;
            for (Seat s : kSeats) {
                const CardSet hand = (*h)[s];
                EXPECT_TRUE((all & hand).empty());
                all |= hand;
                EXPECT_EQ(hand.size(), v.cards_left(s));
                for (Suit su : kSuits)
                    if (v.shown_void(s, su)) {
                        ++with_voids;
                        EXPECT_TRUE(hand.of(su).empty()) << "seed " << seed;
                    }
            }
            EXPECT_EQ((*h)[v.seat()], r.hand(v.seat()));
            EXPECT_EQ(all, v.unseen() | v.hand());
        }
    }
    EXPECT_GT(with_voids, 0);  // the voids were exercised
}

TEST(Pimc, SameSeedSameCardWhateverTheThreads) {
    for (std::uint64_t seed = 3; seed <= 8; ++seed) {
        const Round r = random_round_at(seed, 16 + static_cast<int>(seed));
        const SeatView v(r, r.to_act());
        PimcBot one(42, {.samples = 8, .threads = 1});
        PimcBot two(42, {.samples = 8, .threads = 2});
        PimcBot again(42, {.samples = 8, .threads = 1});
        const Action a = one.decide_card(v);
        EXPECT_TRUE(r.legal_cards().contains(a.card()));
        EXPECT_EQ(two.decide_card(v), a);
        EXPECT_EQ(again.decide_card(v), a);
    }
}

TEST(Pimc, PlaysWholeRoundsLegally) {
    for (std::uint64_t seed = 1; seed <= 1; ++seed) {
        std::array<PimcBot, 4> bots{PimcBot(seed, {.samples = 2}), PimcBot(seed + 1, {.samples = 2}),
                                    PimcBot(seed + 2, {.samples = 2, .null_window = true}), PimcBot(seed + 3, {.samples = 2})};
        Round r(kLevantine, Seat::s0, deal_from_seed(seed, Seat::s0));
        while (!r.over()) {
            const Seat s = r.to_act();
            const Action a = bots[static_cast<std::size_t>(index(s))].decide(SeatView(r, s));
            ASSERT_EQ(r.apply(a), ErrorCode::ok) << to_string(a);
        }
    }
}

TEST(Pimc, BidsStrongHandsAndPassesWeakOnes) {
    // Seat 1 speaks first (dealer 0). A hand with eight top spades bids; a flat Yarborough passes.
    Hands strong{};
    strong[1] = test::hand_of("AS KS QS JS TS 9S 8S 7S AH KH AD AC KC");
    ASSERT_EQ(strong[1].size(), 13);
    CardSet rest = CardSet::deck() - strong[1];
    for (std::size_t s : {0u, 2u, 3u})
        for (int k = 0; k < 13; ++k) {
            strong[s] |= rest.lowest();
            rest -= CardSet(rest.lowest());
        }
    Round r(kLevantine, Seat::s0, strong);
    PimcBot bot(1);
    const Action call = bot.decide_call(SeatView(r, Seat::s1));
    EXPECT_GE(call.bid_value(), 9);
    ASSERT_EQ(r.apply(call), ErrorCode::ok);
    // Seat 2 holds the low cards: it passes.
    EXPECT_TRUE(bot.decide_call(SeatView(r, Seat::s2)).is_pass());
}

TEST(Pimc, NamesTheLongStrongSuit) {
    Round r(kLevantine, Seat::s3, deal_from_seed(7, Seat::s3));
    PimcBot bot(9);
    // Let seat 0 bid 7 and the rest pass, then ask for trump.
    ASSERT_EQ(r.apply(Action::bid(7)), ErrorCode::ok);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(r.apply(Action::pass()), ErrorCode::ok);
    ASSERT_EQ(r.phase(), Phase::trump);
    const Action t = bot.decide_trump(SeatView(r, Seat::s0));
    const auto& ch = bot.bid_chances(SeatView(r, Seat::s0));
    for (Suit su : kSuits) EXPECT_GE(ch[static_cast<std::size_t>(index(t.suit()))][7] + 1e-9, ch[static_cast<std::size_t>(index(su))][7]);
}

TEST(Pimc, LayoutsFollowTheDeclarersBid) {
    // Seat 1 bids 11 and names spades; seat 2, a defender, samples before the first card.
    // Fitting the auction must give the declarer more spades and more high cards than
    // uniform layouts do (over 8 deals), and every layout must still respect the view.
    struct Mean { double spades = 0, points = 0; };
    Mean uniform, fitted;
    int checked = 0;
    for (std::uint64_t seed = 1; checked < 8; ++seed) {
        Round r(kLevantine, Seat::s0, deal_from_seed(seed, Seat::s0));
        if (r.hand(Seat::s2).of(Suit::spades).size() > 3) continue;  // leave room for the declarer's spades
        ASSERT_EQ(r.apply(Action::bid(11)), ErrorCode::ok);
        for (int i = 0; i < 3; ++i) ASSERT_EQ(r.apply(Action::pass()), ErrorCode::ok);
        ASSERT_EQ(r.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
        const SeatView v(r, Seat::s2);
        auto sample = [&](int tries, Mean& m) {
            Rng rng(seed);
            PimcOptions o;
            o.samples = 200;
            o.sample_tries = tries;
            const auto layouts = sample_layouts(v, rng, o);
            ASSERT_EQ(layouts.size(), 200u);
            for (const Hands& h : layouts) {
                EXPECT_EQ(h[2], r.hand(Seat::s2));
                m.spades += h[1].of(Suit::spades).size() / 1600.0;
                for (Card c : h[1]) m.points += std::max(0, index(c.rank()) - 8) / 1600.0;  // A 4, K 3, Q 2, J 1
            }
        };
        sample(1, uniform);
        sample(20, fitted);
        ++checked;
    }
    EXPECT_GT(fitted.spades, uniform.spades + 0.4);
    EXPECT_GT(fitted.points, uniform.points + 1.5);
    std::cout << "[layouts] declarer's spades " << uniform.spades << " -> " << fitted.spades << ", high-card points "
              << uniform.points << " -> " << fitted.points << "\n";
}

TEST(Pimc, ClassicBidsOnlyWhatWinsTheAuctionAndNeverOverItsPartner) {
    // Dealer 0: seat 1 speaks first. A strong seat 1 bids the minimum; its partner (seat 3,
    // also strong) passes over it; the dealer may equal the standing bid.
    int bids = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        Round r(kClassic, Seat::s0, deal_from_seed(seed, Seat::s0));
        PimcBot bot(seed);
        while (r.phase() == Phase::auction) {
            const Seat s = r.to_act();
            const int high = r.high_bid();
            const bool partner_high = high > 0 && r.high_bidder() == partner(s);
            const Action a = bot.decide_call(SeatView(r, s));
            if (!a.is_pass()) {
                ++bids;
                EXPECT_FALSE(partner_high) << "seed " << seed;
                const bool may_equal = s == r.dealer() && high > 0;
                EXPECT_EQ(a.bid_value(), std::max(7, may_equal ? high : high + 1)) << "seed " << seed;
            }
            ASSERT_EQ(r.apply(a), ErrorCode::ok);
        }
    }
    EXPECT_GT(bids, 30);  // the bidding was exercised
}

namespace {
/// Seat 0 declares 7 in spades (dealer 3) and is to lead the first trick of deal `seed`.
Round opening_lead(std::uint64_t seed) {
    Round r(kLevantine, Seat::s3, deal_from_seed(seed, Seat::s3));
    EXPECT_EQ(r.apply(Action::bid(7)), ErrorCode::ok);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(r.apply(Action::pass()), ErrorCode::ok);
    EXPECT_EQ(r.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
    return r;
}
}  // namespace

TEST(Pimc, TimeBudgetStopsTheSamplingAtTheDeadline) {
    // 200 whole-deal solves (20-100 ms of CPU each) against a 100 ms budget: the sampling stops
    // early (counted in budget_cuts) and the card is still legal. No wall-clock bound: the cut
    // is what budget_cuts counts; bench/pimc_match measures the times.
    const Round r = opening_lead(5);
    const SeatView v(r, Seat::s0);
    PimcBot bot(7, {.samples = 200, .threads = 1, .time_budget_ms = 100});
    const Action a = bot.decide_card(v);
    EXPECT_TRUE(r.legal_cards().contains(a.card()));
    EXPECT_EQ(bot.budget_cuts(), 1u);
}

TEST(Pimc, ADecisionWithinItsBudgetIsTheSameAsWithoutOne) {
    // Mid-deal positions solve in milliseconds: a generous budget is never reached, so the
    // decisions equal those without a budget (same seed, same card) and nothing is cut.
    for (std::uint64_t seed = 3; seed <= 6; ++seed) {
        const Round r = random_round_at(seed, 24 + static_cast<int>(seed));
        const SeatView v(r, r.to_act());
        PimcBot with(42, {.samples = 8, .threads = 2, .time_budget_ms = 60000});
        PimcBot without(42, {.samples = 8, .threads = 2});
        EXPECT_EQ(with.decide_card(v), without.decide_card(v));
        EXPECT_EQ(with.budget_cuts(), 0u);
    }
}

TEST(Pimc, SampleScheduleByTrick) {
    PimcOptions o;
    o.samples = 20;
    o.first_trick_samples = 6;
    o.second_trick_samples = 12;
    const Round lead = opening_lead(5);
    EXPECT_EQ(samples_for(SeatView(lead, Seat::s0), o), 6);
    Round second = lead;
    while (second.tricks_played() < 1) second.apply(second.default_action());
    EXPECT_EQ(samples_for(SeatView(second, second.to_act()), o), 12);
    Round third = second;
    while (third.tricks_played() < 2) third.apply(third.default_action());
    EXPECT_EQ(samples_for(SeatView(third, third.to_act()), o), 20);
    o.samples = 4;  // never more than `samples`
    EXPECT_EQ(samples_for(SeatView(lead, Seat::s0), o), 4);
    o.first_trick_samples = 0;  // 0: `samples`
    EXPECT_EQ(samples_for(SeatView(lead, Seat::s0), o), 4);
}

TEST(Pimc, RegistryBotIsReproducibleAndBidsByExpectedPoints) {
    // The registry's pimc (schedule, expected-points auction): same seed, same decisions; the
    // strong hand of BidsStrongHandsAndPassesWeakOnes bids, the weak one passes. Without its
    // time budget here: a budget cuts the sampling where the machine's load says (a loaded CI
    // machine under a sanitizer), which TimeBudgetStopsTheSamplingAtTheDeadline covers.
    PimcOptions unbudgeted = registry_pimc_options();
    unbudgeted.time_budget_ms = 0;
    for (std::uint64_t seed = 3; seed <= 5; ++seed) {
        const Round r = random_round_at(seed, 20 + static_cast<int>(seed));
        const SeatView v(r, r.to_act());
        PimcBot a(9, unbudgeted), b(9, unbudgeted);
        EXPECT_EQ(a.decide_card(v), b.decide_card(v));
    }
    Hands strong{};
    strong[1] = test::hand_of("AS KS QS JS TS 9S 8S 7S AH KH AD AC KC");
    CardSet rest = CardSet::deck() - strong[1];
    for (std::size_t s : {0u, 2u, 3u})
        for (int k = 0; k < 13; ++k) {
            strong[s] |= rest.lowest();
            rest -= CardSet(rest.lowest());
        }
    Round r(kLevantine, Seat::s0, strong);
    PimcBot bot(1, registry_pimc_options());
    const Action call = bot.decide_call(SeatView(r, Seat::s1));
    EXPECT_GE(call.bid_value(), 9);
    ASSERT_EQ(r.apply(call), ErrorCode::ok);
    EXPECT_TRUE(bot.decide_call(SeatView(r, Seat::s2)).is_pass());
}

using self_play::heuristic_round_at;

TEST(PlayerModel, TheTrueLayoutFitsAndOthersLoseAFactorPerMiss) {
    HeuristicBot h;
    int positions = 0, missed = 0;
    for (std::uint64_t seed = 1; positions < 12; ++seed) {
        const auto r = heuristic_round_at(seed, 6 + static_cast<int>(seed % 30));
        if (!r) continue;
        ++positions;
        const Seat me = r->to_act();
        const SeatView v(*r, me);
        Hands truth{};
        for (Seat s : kSeats) truth[s] = r->hand(s);
        // Four heuristics played: the truth explains every action.
        EXPECT_EQ(model_fit(v, truth, {&h, &h, 0.3, 0.1}), 1.0) << seed;
        const int actions = static_cast<int>(v.calls().size() + v.plays().size()) + 1;
        Rng rng(seed);
        for (int k = 0; k < 10; ++k) {
            const Hands layout = *sample_layout(v, rng);
            EXPECT_EQ(model_fit(v, layout, {&h, nullptr, 1.0, 1.0}), 1.0);  // nothing is modelled at 1
            const double fit = model_fit(v, layout, {&h, &h, 0.5, 0.5});
            EXPECT_LE(fit, 1.0);  // a likelihood: at most 1 (each action not taken halves it)
            const int misses = static_cast<int>(std::lround(-std::log2(fit)));
            EXPECT_LE(misses, actions);
            EXPECT_DOUBLE_EQ(fit, std::ldexp(1.0, -misses));  // 0.5 per action not taken
            missed += misses > 0;
            // Stopping early: the same answer above the bar, something under it below.
            const double early = model_fit(v, layout, {&h, &h, 0.5, 0.5}, 0.2);
            if (fit >= 0.2) EXPECT_EQ(early, fit);
            else EXPECT_LT(early, 0.2);
        }
    }
    EXPECT_GT(missed, 20);  // random layouts do contradict the heuristic's actions
}

TEST(PlayerModel, ReadingTheOpponentsPlacesMoreHiddenCardsRight) {
    // The share of hidden cards a layout gives to their real holder, with and without the
    // model, at the same positions; the opponents and the partner are heuristics.
    HeuristicBot h;
    const auto share = self_play::hidden_cards_placed_right({{}, {&h, &h, 0.3, 0.1}});
    std::cout << "[player model] hidden cards placed right: " << share[0] << " -> " << share[1] << "\n";
    EXPECT_GT(share[1], share[0] + 0.03);  // measured: 0.362 -> 0.416
}

TEST(PlayerModel, ThePolicyReadsTheTrueLayoutAboveUniformOnes) {
    // Policy-based inference (PlayerModel::policy): the layout really dealt explains what the
    // others played better, under the learned policy, than uniform layouts do; every weight is
    // in (0, 1], and counting the partner's cards too can only lower it.
    const PlayerModel opponents{nullptr, nullptr, 1, 1, 0, 1.0, false};
    const PlayerModel with_partner{nullptr, nullptr, 1, 1, 0, 1.0, true};
    double true_log = 0, uniform_log = 0;
    int positions = 0, uniform = 0;
    for (std::uint64_t seed = 100; positions < test::under_sanitizers(20, 4); ++seed) {
        const auto r = self_play::heuristic_round_at(seed, 8 + static_cast<int>(seed % 24));
        if (!r) continue;
        ++positions;
        const SeatView v(*r, r->to_act());
        Hands real;
        for (Seat s : kSeats) real[s] = s == v.seat() ? v.hand() : r->hand(s);
        const double fit = model_fit(v, real, opponents);
        EXPECT_GT(fit, 0.0);
        EXPECT_LE(fit, 1.0);
        EXPECT_LE(model_fit(v, real, with_partner), fit + 1e-12);
        true_log += std::log(fit);
        Rng rng(seed);
        for (int k = 0; k < 10; ++k) {
            const auto l = sample_layout(v, rng);
            ASSERT_TRUE(l.has_value());
            uniform_log += std::log(model_fit(v, *l, opponents));
            ++uniform;
        }
    }
    std::cout << "[policy reading] mean log weight: true layout " << true_log / positions << ", uniform " << uniform_log / uniform << "\n";
    EXPECT_GT(true_log / positions, uniform_log / uniform + 0.5);
}

TEST(Pimc, PolicyTricksPlayTheLearnedCardsThenItsOwn) {
    // policy_tricks = 1: in the first trick the learned player's card (no solving), from the
    // second on pimc's own, the card pimc without the knob plays.
    PimcOptions plain{.samples = 3, .threads = 1};
    PimcOptions policy = plain;
    policy.policy_tricks = 1;
    int first_trick = 0, own_differs = 0;
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(test::under_sanitizers(10, 3)); ++seed) {
        const Round r = random_round_at(seed, static_cast<int>(seed % 4));
        const SeatView v(r, r.to_act());
        if (v.legal_cards().size() >= 2) {
            ++first_trick;
            const Action a = PimcBot(seed, policy).decide_card(v);
            EXPECT_EQ(a, LearnedBot(seed).decide_card(v)) << "seed " << seed;
            own_differs += PimcBot(seed, plain).decide_card(v) != a;
        }
        const Round later = random_round_at(seed, 8 + static_cast<int>(seed % 8));
        const SeatView w(later, later.to_act());
        EXPECT_EQ(PimcBot(seed, policy).decide_card(w), PimcBot(seed, plain).decide_card(w)) << "seed " << seed;
    }
    EXPECT_GT(first_trick, 0);
    if (test::under_sanitizers(1, 0) == 1) {
        EXPECT_GT(own_differs, 0);  // the knob changes some first-trick cards
    }
}
