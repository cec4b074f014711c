// The learned holder model (include/tarneeb/bots/holder_model.hpp): its probabilities are a
// distribution over the seats that may hold each card, what it reads from play, and the share of
// hidden cards the sampled layouts give to their real holder with it (issue 29: 0.416 with the
// heuristic replayed in the opponents' place).
#include <cmath>
#include <iostream>
#include <optional>

#include <gtest/gtest.h>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/holder_model.hpp"
#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "self_play_positions.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {
/// Seeds from 1,000,000 on: bench/holder_data's training deals are derive_seed(1, k) for small k.
std::optional<Round> played_to(std::uint64_t seed, int plays) { return self_play::heuristic_round_at(seed, plays); }
}  // namespace

TEST(HolderModel, EachUnseenCardIsSharedOutAmongTheSeatsThatMayHoldIt) {
    int positions = 0;
    for (std::uint64_t seed = 1'000'000; positions < 20; ++seed) {
        const auto r = played_to(seed, 4 + static_cast<int>(seed % 40));
        if (!r) continue;
        ++positions;
        const SeatView v(*r, r->to_act());
        const HolderModel m(v);
        for (Card c : CardSet::deck()) {
            double sum = 0;
            for (Seat s : kSeats) {
                const double p = m.p(c, s);
                const bool may = v.unseen().contains(c) && s != v.seat() && v.cards_left(s) > 0 && !v.shown_void(s, c.suit());
                if (!may) {
                    EXPECT_EQ(p, 0.0) << to_string(c) << " at seat " << index(s);
                }
                sum += p;
            }
            if (v.unseen().contains(c)) {
                EXPECT_NEAR(sum, 1.0, 1e-9) << to_string(c);
            } else {
                EXPECT_EQ(sum, 0.0);
            }
        }
    }
}

TEST(HolderModel, LayoutsDrawnFromItRespectTheView) {
    // Every layout drawn from the model deals each hidden card once, each seat exactly the cards
    // it has left, none of a suit it has shown out of, and the viewer its own hand.
    int positions = 0;
    for (std::uint64_t seed = 2'000'000; positions < 40; ++seed) {
        const auto r = played_to(seed, 1 + static_cast<int>(seed % 50));
        if (!r) continue;
        ++positions;
        const SeatView v(*r, r->to_act());
        Rng rng(seed);
        for (const Hands& l : sample_layouts(v, rng, 8, 4, 0.5, 1.0, {nullptr, nullptr, 1.0, 1.0, 1.0})) {
            CardSet all;
            for (Seat s : kSeats) {
                if (s == v.seat()) {
                    EXPECT_EQ(l[s], v.hand());
                    continue;
                }
                EXPECT_EQ(l[s].size(), v.cards_left(s)) << seed;
                for (Suit su : kSuits) {
                    if (v.shown_void(s, su)) {
                        EXPECT_TRUE(l[s].of(su).empty()) << seed;
                    }
                }
                EXPECT_TRUE((all & l[s]).empty());
                all |= l[s];
            }
            EXPECT_EQ(all, v.unseen()) << seed;
        }
    }
}

TEST(HolderModel, PimcWithLearnedLayoutsPlaysWholeRoundsLegally) {
    for (std::uint64_t seed = 3; seed <= 3; ++seed) {
        std::array<PimcBot, 4> bots{PimcBot(seed, {.samples = 3, .model_learned = 1}), PimcBot(seed + 1, {.samples = 3}),
                                    PimcBot(seed + 2, {.samples = 3, .model_learned = 1}), PimcBot(seed + 3, {.samples = 3})};
        Round r(kLevantine, Seat::s0, deal_from_seed(seed, Seat::s0));
        while (!r.over()) {
            const Seat s = r.to_act();
            const Action a = bots[static_cast<std::size_t>(index(s))].decide(SeatView(r, s));
            ASSERT_EQ(r.apply(a), ErrorCode::ok) << to_string(a);
        }
    }
}

TEST(HolderModel, ItReadsTheSuitsASeatLedAndDiscarded) {
    // Features of one seat and card: leading a suit raises a seat's share of the suit's higher
    // cards, discarding a suit lowers it (the fitted weights' signs; tools/train_holder_model.py).
    const HolderWeights& w = fitted_holder_weights();
    EXPECT_GT(w[13], 0.0) << "led_suit";
    EXPECT_LT(w[14], 0.0) << "discarded_suit";
    EXPECT_GT(w[8], 0.0) << "the declarer holds trumps";
    EXPECT_GT(w[3], 0.0) << "more cards held, more chances";
}

TEST(HolderModel, LayoutsDrawnFromItPlaceMoreHiddenCardsRight) {
    // The share of hidden cards a layout gives to their real holder, at the same positions as
    // PlayerModel.ReadingTheOpponentsPlacesMoreHiddenCardsRight: uniform layouts, the
    // heuristic replayed (model_fit), layouts drawn from the holder model, and both.
    HeuristicBot h;
    const auto share = self_play::hidden_cards_placed_right({{}, {&h, &h, 0.3, 0.1}, {nullptr, nullptr, 1.0, 1.0, 1.0},
                                                           {&h, &h, 0.3, 0.1, 1.0}});
    const double plain = share[0], read = share[1], learned = share[2], both = share[3];
    std::cout << "[holder model] hidden cards placed right: uniform " << plain << ", heuristic replayed " << read
              << ", learned " << learned << ", both " << both << "\n";
    // Measured with the committed weights: 0.362 uniform, 0.416 replayed, 0.389 learned, 0.436
    // both. The replay is the exact policy that played these deals; the learned model, some 35
    // times cheaper, gets half of the way and adds to it.
    EXPECT_GT(learned, plain + 0.02);
    EXPECT_GT(both, read);
}
