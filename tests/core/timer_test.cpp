// The turn timer's default actions and their tie-breaks (docs/rules.md "Turn timer").
#include <gtest/gtest.h>

#include "tarneeb/core/round.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

using test::card;
using test::cards;

TEST(Timer, AuctionDefaultIsPass) {
    Round r(kLevantine, Seat::s0, test::mixed_deal());
    EXPECT_EQ(r.default_action(), Action::pass());
    ASSERT_EQ(test::auction(r, {"9"}), ErrorCode::ok);
    EXPECT_EQ(r.default_action(), Action::pass());
}

TEST(Timer, TrumpIsTheLongestSuit) {
    EXPECT_EQ(default_trump(cards("2C 3C 4C 5C 6C AS KS QS AH KH AD KD QD")), Suit::clubs);
}

TEST(Timer, EqualLengthGoesToTheHigherCardsFromTheTop) {
    // Hearts A 5 4 3 against spades K Q J T: the ace decides.
    EXPECT_EQ(default_trump(cards("AH 5H 4H 3H KS QS JS TS 2C 3C 4D 5D 6D")), Suit::hearts);
    // Same top card: the next one decides (hearts K Q 3 2 against diamonds K J 9 8).
    EXPECT_EQ(default_trump(cards("KH QH 2H 3H KD JD 9D 8D 3C 4C 5C 6S 7S")), Suit::hearts);
    // Down to the last card: clubs A K Q 3 against spades A K Q 2.
    EXPECT_EQ(default_trump(cards("AC KC QC 3C AS KS QS 2S 4D 5D 6H 7H 8H")), Suit::clubs);
    // Length first: four low diamonds beat three aces-high hearts.
    EXPECT_EQ(default_trump(cards("2D 3D 4D 5D AH KH QH AS KS QS AC KC QC")), Suit::diamonds);
}

TEST(Timer, FullTiesGoBySuitOrderSpadesHeartsDiamondsClubs) {
    EXPECT_EQ(default_trump(cards("AS KS 5S 2S AH KH 5H 2H AD KD 5D AC KC")), Suit::spades);
    EXPECT_EQ(default_trump(cards("AC KC 5C 2C AH KH 5H 2H AD KD 5D AS KS")), Suit::hearts);
    EXPECT_EQ(default_trump(cards("AC KC 5C 2C AD KD 5D 2D AH KH 5H AS KS")), Suit::diamonds);
}

TEST(Timer, FollowingSuitPlaysTheLowestOfTheSuitLed) {
    EXPECT_EQ(weakest_card(cards("9H 4H QH"), Suit::spades), card("4H"));
    EXPECT_EQ(weakest_card(cards("9S 4S QS"), Suit::spades), card("4S"));  // trump led
}

TEST(Timer, OtherwiseTheLowestNonTrumpWithTiesClubsFirst) {
    // Void or leading: lowest rank that is not a trump; 3C and 3H tie: clubs first.
    EXPECT_EQ(weakest_card(cards("2S 3H 3C 9D AS"), Suit::spades), card("3C"));
    EXPECT_EQ(weakest_card(cards("2S 3H 3D 9C"), Suit::spades), card("3D"));
    EXPECT_EQ(weakest_card(cards("2S 4H 3S"), Suit::spades), card("4H"));  // never a trump 2 first
    EXPECT_EQ(weakest_card(cards("5H 5S 5D"), Suit::clubs), card("5D"));
}

TEST(Timer, OnlyTrumpsLeftPlaysTheLowestTrump) {
    EXPECT_EQ(weakest_card(cards("KS 7S 3S"), Suit::spades), card("3S"));
}

TEST(Timer, DefaultsAreLegalInEveryPhase) {
    Round r(kLevantine, Seat::s0, test::mixed_deal());
    ASSERT_EQ(test::auction(r, {"8", "pass", "pass", "pass"}), ErrorCode::ok);
    const Action trump = r.default_action();
    EXPECT_EQ(trump.kind, ActionKind::trump);
    // s1: 2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS KS -> spades (5) is longest.
    EXPECT_EQ(trump.suit(), Suit::spades);
    ASSERT_EQ(r.apply(trump), ErrorCode::ok);
    while (!r.over()) {
        const Action a = r.default_action();
        ASSERT_EQ(r.check(a), ErrorCode::ok);
        ASSERT_EQ(r.apply(a), ErrorCode::ok);
    }
}

}  // namespace
}  // namespace tarneeb
