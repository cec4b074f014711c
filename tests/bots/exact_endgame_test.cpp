// Exact play at the end (issue 29): every_layout lists each layout the view admits once, with
// the sampler's weights, and pimc with exact_layouts decides the endgame from all of them, so
// its decisions there no longer depend on its seed.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

#include "../solver/helpers.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/bots/pimc_bot.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {
using test::random_round_at;

/// The layouts the view admits, counted by trying every seat for every unseen card (3^n).
std::size_t brute_count(const SeatView& v) {
    std::vector<Card> unseen(v.unseen().begin(), v.unseen().end());
    std::vector<Seat> others;
    for (Seat s : kSeats)
        if (s != v.seat()) others.push_back(s);
    std::size_t total = 1, count = 0;
    for (std::size_t i = 0; i < unseen.size(); ++i) total *= 3;
    for (std::size_t code = 0; code < total; ++code) {
        BySeat<int> held{};
        bool ok = true;
        std::size_t x = code;
        for (Card c : unseen) {
            const Seat s = others[x % 3];
            x /= 3;
            ok = ok && !v.shown_void(s, c.suit());
            ++held[s];
        }
        for (Seat s : others) ok = ok && held[s] == v.cards_left(s);
        count += ok;
    }
    return count;
}

std::array<std::uint64_t, 4> key(const Hands& h) {
    return {h[Seat::s0].bits(), h[Seat::s1].bits(), h[Seat::s2].bits(), h[Seat::s3].bits()};
}
}  // namespace

TEST(ExactEndgame, EveryLayoutListsEachLayoutTheViewAdmitsOnce) {
    int with_voids = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const Round r = random_round_at(seed, 38 + static_cast<int>(seed % 6));
        const SeatView v(r, r.to_act());
        const std::size_t expected = brute_count(v);
        const auto all = every_layout(v, 1000000, 0.5, 1.0);
        ASSERT_TRUE(all.has_value()) << seed;
        ASSERT_EQ(all->size(), expected) << seed;
        std::set<std::array<std::uint64_t, 4>> seen;
        bool real = false;
        for (const WeightedLayout& l : *all) {
            EXPECT_TRUE(seen.insert(key(l.hands)).second) << "a layout twice, seed " << seed;
            CardSet union_;
            for (Seat s : kSeats) {
                EXPECT_EQ(l.hands[s].size(), v.cards_left(s));
                for (Suit su : kSuits)
                    if (s != v.seat() && v.shown_void(s, su)) {
                        ++with_voids;
                        EXPECT_TRUE(l.hands[s].of(su).empty());
                    }
                union_ |= l.hands[s];
            }
            EXPECT_EQ(l.hands[v.seat()], v.hand());
            EXPECT_EQ(union_, v.unseen() | v.hand());
            // The sampler's weight: the auction's fit (no player model here).
            EXPECT_DOUBLE_EQ(l.weight, auction_fit(v, l.hands, 0.5, 1.0));
            bool is_real = true;
            for (Seat s : kSeats) is_real = is_real && l.hands[s] == r.hand(s);
            real = real || is_real;
        }
        EXPECT_TRUE(real) << "the real layout is among them, seed " << seed;
        // Over the cap: nothing (the caller samples instead).
        EXPECT_FALSE(every_layout(v, expected - 1, 0.5, 1.0).has_value()) << seed;
        EXPECT_TRUE(every_layout(v, expected, 0.5, 1.0).has_value()) << seed;
    }
    EXPECT_GT(with_voids, 0);
}

TEST(ExactEndgame, WeightsReadTheOpponentsAsTheSamplerDoes) {
    HeuristicBot heuristic;
    PlayerModel model{&heuristic, nullptr, 0.3, 0.1};
    int differs = 0;
    for (std::uint64_t seed = 40; seed <= 49; ++seed) {
        const Round r = random_round_at(seed, 40);
        const SeatView v(r, r.to_act());
        const auto all = every_layout(v, 1000000, 0.5, 1.0, model);
        ASSERT_TRUE(all.has_value());
        for (const WeightedLayout& l : *all) {
            const double fit = auction_fit(v, l.hands, 0.5, 1.0);
            const double expected = fit > 0 ? fit * model_fit(v, l.hands, model) : 0;
            EXPECT_DOUBLE_EQ(l.weight, expected);
            differs += l.weight != fit;
        }
    }
    EXPECT_GT(differs, 0);  // random play is not the heuristic's: the model weighs some layouts down
}

TEST(ExactEndgame, TooManyLayoutsEarlyInTheDeal) {
    const Round r = random_round_at(7, 8);
    const SeatView v(r, r.to_act());
    EXPECT_FALSE(every_layout(v, 5000, 0.5, 1.0).has_value());
}

TEST(ExactEndgame, PimcDecidesTheEndgameFromEveryLayoutWhateverItsSeed) {
    // With every layout solved the decision is the same for any seed (nothing is drawn) and
    // legal, and on some views not the card that 3 sampled layouts give.
    int sampled_differ = 0, decisions = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const Round r = random_round_at(seed, 39 + static_cast<int>(seed % 6));
        const SeatView v(r, r.to_act());
        if (v.legal_cards().size() < 2) continue;
        ++decisions;
        PimcOptions exact{.samples = 3, .threads = 1};
        exact.exact_layouts = 5000;
        const Action a = PimcBot(1, exact).decide_card(v);
        EXPECT_TRUE(r.legal_cards().contains(a.card()));
        EXPECT_EQ(PimcBot(977, exact).decide_card(v), a) << "seed " << seed;
        const PimcOptions sampled{.samples = 3, .threads = 1};
        sampled_differ += PimcBot(1, sampled).decide_card(v) != a;
    }
    EXPECT_GT(decisions, 20);
    EXPECT_GT(sampled_differ, 0);
}
