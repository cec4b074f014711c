#include <gtest/gtest.h>

#include "tarneeb/core/cards.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

TEST(Cards, ParsesEveryNotationOfRecordFormat) {
    EXPECT_EQ(parse_card("AS"), Card(Suit::spades, Rank::ace));
    EXPECT_EQ(parse_card("td"), Card(Suit::diamonds, Rank::ten));
    EXPECT_EQ(parse_card("10H"), Card(Suit::hearts, Rank::ten));
    EXPECT_EQ(parse_card("2c"), Card(Suit::clubs, Rank::two));
    EXPECT_EQ(parse_card("qS"), Card(Suit::spades, Rank::queen));
}

TEST(Cards, RejectsUnreadableCards) {
    for (const char* bad : {"", "A", "1S", "11H", "AX", " AS", "AS ", "10", "1OH", "ZZ", "AAS", "0S"})
        EXPECT_FALSE(parse_card(bad).has_value()) << bad;
}

TEST(Hands, ParseWhiteSpaceSeparatedCards) {
    const ParsedHand h = parse_hand("  AS 10h\tkd\n2c ");
    EXPECT_EQ(h.error, ErrorCode::ok);
    EXPECT_EQ(h.count, 4);
    EXPECT_EQ(to_string(h.cards), "2C KD TH AS");
    EXPECT_EQ(parse_hand("").count, 0);
    EXPECT_EQ(parse_hand("").error, ErrorCode::ok);
}

TEST(Hands, AnUnreadableCardWinsOverARepeatedOne) {
    EXPECT_EQ(parse_hand("AS AS").error, ErrorCode::bad_hands);
    EXPECT_EQ(parse_hand("AS AS XX").error, ErrorCode::bad_card);
    EXPECT_EQ(parse_hand("AS,KS").error, ErrorCode::bad_card);
    EXPECT_EQ(parse_hand("1S").error, ErrorCode::bad_card);
}

TEST(Hands, EveryCanonicalHandRoundTrips) {
    const CardSet set = test::cards("2C 5C AD 3H TH QS AS");
    const ParsedHand h = parse_hand(to_string(set));
    EXPECT_EQ(h.cards, set);
    EXPECT_EQ(h.count, set.size());
    EXPECT_EQ(parse_hand(to_string(CardSet::deck())).cards, CardSet::deck());
}

TEST(Cards, CanonicalFormRoundTripsForAll52) {
    int n = 0;
    for (Card c : CardSet::deck()) {
        const std::string s = to_string(c);
        ASSERT_EQ(s.size(), 2u);
        EXPECT_EQ(parse_card(s), c);
        ++n;
    }
    EXPECT_EQ(n, 52);
    EXPECT_EQ(to_string(Card(Suit::hearts, Rank::ten)), "TH");
}

TEST(Cards, DenseIndexIsABijection) {
    for (int i = 0; i < 52; ++i) EXPECT_EQ(Card::from_dense(i).dense(), i);
    EXPECT_EQ(Card(Suit::clubs, Rank::two).dense(), 0);
    EXPECT_EQ(Card(Suit::spades, Rank::ace).dense(), 51);
}

TEST(CardSet, SuitsRanksAndIteration) {
    const CardSet h = test::cards("AS KS 2S TH 3D");
    EXPECT_EQ(h.size(), 5);
    EXPECT_EQ(h.of(Suit::spades).size(), 3);
    EXPECT_EQ(h.of(Suit::clubs).size(), 0);
    EXPECT_EQ(h.ranks(Suit::spades), (1u << 12) | (1u << 11) | 1u);
    EXPECT_EQ(h.lowest(), test::card("3D"));
    EXPECT_EQ(h.highest(), test::card("AS"));
    EXPECT_EQ(h.nth(1), test::card("TH"));
    EXPECT_EQ(to_string(h), "3D TH 2S KS AS");
    EXPECT_EQ(CardSet::deck().size(), 52);
    EXPECT_EQ((h - test::cards("AS")).size(), 4);
}

TEST(Seats, TurnOrderPartnersAndTeams) {
    EXPECT_EQ(next(Seat::s3), Seat::s0);
    EXPECT_EQ(partner(Seat::s1), Seat::s3);
    EXPECT_EQ(team_of(Seat::s2), Team::t0);
    EXPECT_EQ(team_of(Seat::s3), Team::t1);
    EXPECT_EQ(seat(-1), Seat::s3);
}

TEST(Suits, ParseLettersAndSymbols) {
    EXPECT_EQ(parse_suit("s"), Suit::spades);
    EXPECT_EQ(parse_suit("\u2665"), Suit::hearts);
    EXPECT_EQ(parse_suit("D"), Suit::diamonds);
    EXPECT_FALSE(parse_suit("x").has_value());
    EXPECT_FALSE(parse_suit("NT").has_value());
}

}  // namespace
}  // namespace tarneeb
