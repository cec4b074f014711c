// Tricks, the contract and the lowest legal bid: the rules core answers once for every layer
// (docs/rules.md "Common to both presets", Play; each preset's "Auction").
#include <gtest/gtest.h>

#include <type_traits>

#include "tarneeb/core/round.hpp"
#include "tarneeb/core/simulate.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

using test::auction;
using test::card;

static_assert(std::is_trivially_copyable_v<Trick>);

TEST(Beats, TrumpBeatsEveryOtherSuitAndTheHigherCardOfTheSuitLedWins) {
    const Suit led = Suit::diamonds, trump = Suit::hearts;
    EXPECT_TRUE(beats(card("KD"), card("QD"), led, trump));
    EXPECT_FALSE(beats(card("QD"), card("KD"), led, trump));
    EXPECT_TRUE(beats(card("2H"), card("AD"), led, trump));   // a trump beats the suit led
    EXPECT_FALSE(beats(card("AD"), card("2H"), led, trump));
    EXPECT_TRUE(beats(card("3H"), card("2H"), led, trump));   // the higher trump
    EXPECT_FALSE(beats(card("AS"), card("2D"), led, trump));  // another suit never wins
    EXPECT_FALSE(beats(card("AS"), card("2H"), led, trump));
    EXPECT_FALSE(beats(card("AS"), card("KS"), led, trump));  // two discards: neither takes it
    EXPECT_TRUE(beats(card("2D"), card("AS"), led, trump));
}

TEST(TrickValue, KeepsTheWinnerAsCardsAreAdded) {
    Trick t(Seat::s1, Suit::hearts);
    EXPECT_TRUE(t.empty());
    t.add(card("AD"));
    EXPECT_EQ(t.winner(), Seat::s1);
    EXPECT_EQ(t.led(), Suit::diamonds);
    t.add(card("3H"));  // s2 trumps
    t.add(card("KS"));  // s3 discards
    EXPECT_EQ(t.winner(), Seat::s2);
    EXPECT_FALSE(t.complete());
    t.add(card("5H"));  // s0 over-trumps
    EXPECT_TRUE(t.complete());
    EXPECT_EQ(t.winner(), Seat::s0);
    EXPECT_EQ(t.winning_card(), card("5H"));
    EXPECT_EQ(t.player(3), Seat::s0);
    EXPECT_EQ(t[1], card("3H"));
    EXPECT_EQ(t.cards().size(), 4u);
}

TEST(RoundTricks, EveryFinishedTricksWinnerLeadsTheNextAndTakesItsTeamsTrick) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        Rng rng(seed);
        const Round r = play_random_round(seed % 2 ? kClassic : kLevantine, seat(static_cast<int>(seed)), rng);
        if (r.phase() == Phase::passed_out) continue;
        int won[2] = {0, 0};
        for (int t = 0; t < 13; ++t) {
            const Trick trick = r.trick(t);
            ASSERT_TRUE(trick.complete());
            EXPECT_EQ(trick.leader(), r.leader_of_trick(t));
            EXPECT_EQ(trick.winner(), r.trick_winner(t));
            if (t < 12) {
                EXPECT_EQ(r.leader_of_trick(t + 1), r.trick_winner(t));
            }
            ++won[index(team_of(trick.winner()))];
        }
        EXPECT_EQ(won[0], r.tricks(Team::t0));
        EXPECT_EQ(won[1], r.tricks(Team::t1));
    }
}

TEST(RoundTricks, TheTrickInProgressShowsWhoIsWinningSoFar) {
    Round r(kLevantine, Seat::s0, test::mixed_deal());
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);  // s1 declares
    ASSERT_EQ(r.apply(Action::name_trump(Suit::hearts)), ErrorCode::ok);
    EXPECT_TRUE(r.trick(0).empty());
    ASSERT_EQ(r.apply(Action::play(card("AD"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("3H"))), ErrorCode::ok);
    EXPECT_EQ(r.trick(0).size(), 2);
    EXPECT_EQ(r.trick(0).winner(), Seat::s2);
}

TEST(Contract, IsTheHighBidderAndTheBidOnceTheAuctionCloses) {
    Round r(kLevantine, Seat::s0, test::mixed_deal());
    EXPECT_FALSE(r.contract().has_value());
    ASSERT_EQ(auction(r, {"8", "9", "pass", "pass"}), ErrorCode::ok);
    EXPECT_FALSE(r.contract().has_value());  // still open: s1 may speak again
    ASSERT_EQ(auction(r, {"pass"}), ErrorCode::ok);
    ASSERT_TRUE(r.contract().has_value());
    EXPECT_EQ(r.contract()->declarer, Seat::s2);
    EXPECT_EQ(r.contract()->bid, 9);
    EXPECT_EQ(r.contract()->team(), Team::t0);
    EXPECT_EQ(r.contract()->tricks_to_set(), 5);
    EXPECT_FALSE(r.contract()->trump.has_value());
    ASSERT_EQ(r.apply(Action::name_trump(Suit::clubs)), ErrorCode::ok);
    EXPECT_EQ(r.contract()->trump, Suit::clubs);
}

TEST(LowestBid, LevantineIsAboveTheStandingBid) {
    Round r(kLevantine, Seat::s0, test::mixed_deal());
    EXPECT_EQ(r.lowest_bid(), 7);
    ASSERT_EQ(auction(r, {"9"}), ErrorCode::ok);
    EXPECT_EQ(r.lowest_bid(), 10);
    ASSERT_EQ(auction(r, {"13"}), ErrorCode::ok);
    EXPECT_FALSE(r.lowest_bid().has_value());  // only a pass is left
}

TEST(LowestBid, TheClassicDealerMayEqualTheStandingBid) {
    Round r(kClassic, Seat::s3, test::mixed_deal());
    ASSERT_EQ(auction(r, {"8", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.lowest_bid(), 9);
    ASSERT_EQ(auction(r, {"pass"}), ErrorCode::ok);
    EXPECT_EQ(r.to_act(), Seat::s3);  // the dealer
    EXPECT_EQ(r.lowest_bid(), 8);
    EXPECT_EQ(r.check(Action::bid(7)), ErrorCode::bid_too_low);
    EXPECT_EQ(r.check(Action::bid(8)), ErrorCode::ok);
}

TEST(LowestBid, AgreesWithTheLegalActionsEverywhere) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        Rng rng(seed);
        Round r(seed % 2 ? kClassic : kLevantine, seat(static_cast<int>(seed)), deal_from_seed(seed, seat(static_cast<int>(seed))));
        while (r.phase() == Phase::auction) {
            const ActionList legal = r.legal_actions();
            const auto low = r.lowest_bid();
            ASSERT_EQ(legal.size(), 1 + (low ? r.rules().max_bid - *low + 1 : 0));
            if (low) {
                EXPECT_EQ(legal[1], Action::bid(*low));
            }
            r.apply(random_action(r, rng));
        }
        EXPECT_FALSE(r.lowest_bid().has_value());
    }
}

TEST(BySeatAndTeam, IndexBySeatAndTeam) {
    BySeat<int> s{};
    s[Seat::s2] = 5;
    EXPECT_EQ(s[2], 5);
    ByTeam<int> t{};
    t[Team::t1] = 3;
    EXPECT_EQ(t[1], 3);
    Hands h = test::suit_per_seat();
    EXPECT_EQ(h[Seat::s1], CardSet::suit(Suit::hearts));
}

TEST(CardSetNth, IsTheKthCardInIterationOrder) {
    Rng rng(9);
    for (int n = 0; n < 2000; ++n) {
        const CardSet set(rng.next() & CardSet::kDeckMask);
        int k = 0;
        for (Card c : set) EXPECT_EQ(set.nth(k++), c);
    }
    EXPECT_EQ(CardSet::deck().nth(51), card("AS"));
    EXPECT_EQ(CardSet(card("2C")).nth(0), card("2C"));
}

}  // namespace
}  // namespace tarneeb
