// Par on hand-made tables (definition: include/tarneeb/solver/par.hpp).
#include <gtest/gtest.h>

#include "tarneeb/solver/par.hpp"

using namespace tarneeb;
using namespace tarneeb::solver;

namespace {
/// A table where every trump gives seat s `m[s]` tricks, except `best` suits get +bonus.
DdTable flat(std::array<int, 4> m) {
    DdTable t;
    for (auto& row : t.tricks) row = m;
    return t;
}
}  // namespace

TEST(Par, HighestMakeableWins) {
    DdTable t = flat({6, 6, 6, 6});
    t.tricks[index(Suit::hearts)][1] = 9;  // seat 1 makes 9 with hearts
    t.tricks[index(Suit::clubs)][2] = 8;
    const Par p = par(t, kLevantine, Seat::s0);
    EXPECT_FALSE(p.passed_out);
    EXPECT_EQ(p.declarer, Seat::s1);
    EXPECT_EQ(p.trump, Suit::hearts);
    EXPECT_EQ(p.bid, 9);
    EXPECT_EQ(p.points, (std::array<int, 2>{0, 9}));
}

TEST(Par, PassedOutWhenNobodyMakesSeven) {
    const Par p = par(flat({6, 6, 6, 6}), kLevantine, Seat::s0);
    EXPECT_TRUE(p.passed_out);
    EXPECT_EQ(p.points, (std::array<int, 2>{0, 0}));
}

TEST(Par, TiesGoToTheFirstSpeakerOrTheClassicDealer) {
    const DdTable t = flat({8, 6, 6, 8});  // seats 0 and 3 both make 8
    // Dealer 3: seat 0 speaks first.
    EXPECT_EQ(par(t, kLevantine, Seat::s3).declarer, Seat::s0);
    EXPECT_EQ(par(t, kClassic, Seat::s3).declarer, Seat::s3);  // the dealer may equal
    // Dealer 1: seat 3 speaks before seat 0 in both presets (seat 1 is not tied).
    EXPECT_EQ(par(t, kLevantine, Seat::s1).declarer, Seat::s3);
    EXPECT_EQ(par(t, kClassic, Seat::s1).declarer, Seat::s3);
}

TEST(Par, TrumpTiesGoSpadesFirstAndClassicScoresTricks) {
    const DdTable t = flat({10, 3, 3, 3});
    const Par p = par(t, kClassic, Seat::s0);
    EXPECT_EQ(p.trump, Suit::spades);
    EXPECT_EQ(p.bid, 10);
    EXPECT_EQ(p.points, (std::array<int, 2>{10, 0}));
    EXPECT_EQ(best_trump(t, Seat::s1), Suit::spades);
}
