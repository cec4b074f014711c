#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

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

// CardSet::nth is pdep in a BMI2 build and detail::select_bit otherwise (and in a build with
// -mno-bmi2, which TARNEEB_ARCH=auto picks on AMD Zen 1/2): both must give the card a naive
// scan gives, for every k of many random sets, whatever this build compiles nth to.
int naive_select(std::uint64_t x, int k) {
    for (int i = 0; i < 64; ++i)
        if (((x >> i) & 1) && k-- == 0) return i;
    return -1;
}

TEST(CardSet, NthAndTheSelectWithoutPdepAgreeWithANaiveScanForEveryK) {
    std::uint64_t state = 0x2545F4914F6CDD1D;  // splitmix64, a fixed seed
    const auto next = [&state] {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
        return z ^ (z >> 31);
    };
    std::vector<std::uint64_t> sets{0, CardSet::kDeckMask, ~std::uint64_t{0}, std::uint64_t{1} << 63, 1,
                                    0x8000000000000001, 0xFF000000000000FF, 0x00FF00FF00FF00FF};
    for (int n = 0; n < 5000; ++n) {
        const std::uint64_t r = next();
        sets.push_back(r);                                    // any 64-bit word (select_bit)
        sets.push_back(r & CardSet::kDeckMask);               // a set of cards
        sets.push_back(r & next() & next() & CardSet::kDeckMask);  // a sparse set (a hand, a suit)
        sets.push_back(r & CardSet::suit(kSuits[static_cast<std::size_t>(n & 3)]).bits());
    }
    for (std::uint64_t x : sets) {
        const int size = std::popcount(x);
        for (int k = 0; k < size; ++k) {
            const int want = naive_select(x, k);
            ASSERT_EQ(detail::select_bit(x, k), want) << std::hex << x << std::dec << " k " << k;
            if ((x & ~CardSet::kDeckMask) == 0) {
                ASSERT_EQ(CardSet(x).nth(k), Card::from_bit(want)) << std::hex << x << std::dec << " k " << k;
            }
        }
    }
    static_assert(detail::select_bit(0x8000000000000001, 1) == 63);  // and in a constant evaluation
    static_assert(CardSet::deck().nth(13) == Card(Suit::diamonds, Rank::two));
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
