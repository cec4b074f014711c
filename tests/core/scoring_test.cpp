// Scoring: every example of docs/rules.md and of the seeds' scoring sections, both presets.
#include <gtest/gtest.h>

#include "tarneeb/core/round.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

struct Example {
    int bid, taken;
    int lev_declarers, lev_defenders;  // levantine (seed 000)
    int cls_declarers, cls_defenders;  // classic (seed 003)
};

// rules.md "Preset levantine" lists these; the classic column follows "Preset classic":
// made scores the tricks won, set costs the bid and the defenders score their tricks.
constexpr Example kExamples[] = {
    {8, 11, 8, 0, 11, 0},    // bid 8 take 11: overtricks count for nothing in levantine
    {9, 7, -9, 6, -9, 6},    // bid 9 take 7
    {7, 6, -7, 7, -7, 7},    // bid 7 take 6: missing by one costs as much as by many
    {7, 0, -7, 13, -7, 13},  // bid 7 take 0: the biggest swing
    {13, 13, 13, 0, 13, 0},  // 13 made: no bonus
    {13, 12, -13, 1, -13, 1},// 13 set
    {7, 7, 7, 0, 7, 0},      // exactly made
};

TEST(Scoring, RulesAndSeedExamplesLevantine) {
    for (const Example& e : kExamples) {
        const RoundScore s = score_round(kLevantine, e.bid, e.taken);
        EXPECT_EQ(s.made, e.taken >= e.bid);
        EXPECT_EQ(s.declarers, e.lev_declarers) << "bid " << e.bid << " take " << e.taken;
        EXPECT_EQ(s.defenders, e.lev_defenders) << "bid " << e.bid << " take " << e.taken;
    }
}

TEST(Scoring, RulesAndSeedExamplesClassic) {
    for (const Example& e : kExamples) {
        const RoundScore s = score_round(kClassic, e.bid, e.taken);
        EXPECT_EQ(s.declarers, e.cls_declarers) << "bid " << e.bid << " take " << e.taken;
        EXPECT_EQ(s.defenders, e.cls_defenders) << "bid " << e.bid << " take " << e.taken;
    }
}

// The same through whole rounds played by the engine: each seat holds one suit.
// s0 declaring spades takes all 13; s1 declaring clubs takes none (s2 trumps everything).
TEST(Scoring, WholeRoundsThroughTheEngine) {
    for (const Rules& rules : {kLevantine, kClassic}) {
        Round made(rules, Seat::s3, test::suit_per_seat());
        ASSERT_EQ(test::auction(made, {"9", "pass", "pass", "pass"}), ErrorCode::ok);
        ASSERT_EQ(made.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
        test::play_out(made);
        EXPECT_TRUE(made.made());
        EXPECT_EQ(made.tricks(Team::t0), 13);
        EXPECT_EQ(made.points(Team::t0), rules == kLevantine ? 9 : 13);
        EXPECT_EQ(made.points(Team::t1), 0);

        Round set(rules, Seat::s0, test::suit_per_seat());
        ASSERT_EQ(test::auction(set, {"7", "pass", "pass", "pass"}), ErrorCode::ok);
        ASSERT_EQ(set.apply(Action::name_trump(Suit::clubs)), ErrorCode::ok);
        test::play_out(set);
        EXPECT_FALSE(set.made());
        EXPECT_EQ(set.tricks(Team::t1), 0);
        EXPECT_EQ(set.points(Team::t1), -7);
        EXPECT_EQ(set.points(Team::t0), 13);
    }
}

}  // namespace
}  // namespace tarneeb
