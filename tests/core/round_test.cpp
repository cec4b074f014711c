// The auction and the play of one round (docs/rules.md "Common", each preset's "Auction").
#include <gtest/gtest.h>

#include <optional>
#include <type_traits>
#include <vector>

#include "tarneeb/core/round.hpp"
#include "tarneeb/core/simulate.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

using test::auction;
using test::card;
using test::snapshot;

static_assert(std::is_trivially_copyable_v<Round>, "bots copy rounds freely");

Round levantine(Seat dealer = Seat::s0) { return Round(kLevantine, dealer, test::mixed_deal()); }
Round classic(Seat dealer = Seat::s0) { return Round(kClassic, dealer, test::mixed_deal()); }

/// Applies `a` expecting `want`; on an error the round must be exactly as before.
void expect_apply(Round& r, Action a, ErrorCode want) {
    const std::string before = snapshot(r);
    EXPECT_EQ(r.apply(a), want) << to_string(a);
    if (want != ErrorCode::ok) {
        EXPECT_EQ(snapshot(r), before) << "a rejected action changed the round";
    }
}

// ---- levantine auction ------------------------------------------------------------------------

TEST(LevantineAuction, StartsAfterTheDealer) {
    EXPECT_EQ(levantine(Seat::s2).to_act(), Seat::s3);
    EXPECT_EQ(levantine(Seat::s3).to_act(), Seat::s0);
}

TEST(LevantineAuction, ThreePassesAfterTheHighBidCloseIt) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"8", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::auction);
    ASSERT_EQ(auction(r, {"pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::trump);
    EXPECT_EQ(r.contract().value().declarer, Seat::s1);
    EXPECT_EQ(r.contract().value().bid, 8);
    EXPECT_EQ(r.to_act(), Seat::s1);  // the declarer names trump
    expect_apply(r, Action::pass(), ErrorCode::auction_closed);
}

TEST(LevantineAuction, APlayerWhoPassedMayBidAgainLater) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"pass", "8", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.to_act(), Seat::s1);  // s1 passed first; the turn is back
    EXPECT_TRUE(r.legal_actions().contains(Action::bid(9)));
    ASSERT_EQ(auction(r, {"9", "pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.contract().value().declarer, Seat::s1);
    EXPECT_EQ(r.contract().value().bid, 9);
}

TEST(LevantineAuction, ThirteenLeavesOnlyPasses) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"13"}), ErrorCode::ok);
    const ActionList legal = r.legal_actions();
    ASSERT_EQ(legal.size(), 1);
    EXPECT_EQ(legal[0], Action::pass());
    expect_apply(r, Action::bid(13), ErrorCode::bid_too_low);
    ASSERT_EQ(auction(r, {"pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::trump);
}

TEST(LevantineAuction, EqualBidsAreRefusedEvenOverThePartner) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"8", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.to_act(), Seat::s3);  // s1's partner
    expect_apply(r, Action::bid(8), ErrorCode::bid_too_low);
    expect_apply(r, Action::bid(7), ErrorCode::bid_too_low);
    EXPECT_FALSE(r.legal_actions().contains(Action::bid(8)));
    expect_apply(r, Action::bid(9), ErrorCode::ok);
}

TEST(LevantineAuction, TheDealerMayNotEqualEither) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"8", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.to_act(), Seat::s0);  // the dealer
    expect_apply(r, Action::bid(8), ErrorCode::bid_too_low);
}

TEST(LevantineAuction, BidsOutsideSevenToThirteenAreBadBids) {
    Round r = levantine();
    expect_apply(r, Action::bid(6), ErrorCode::bad_bid);
    expect_apply(r, Action::bid(14), ErrorCode::bad_bid);
    expect_apply(r, Action::bid(1), ErrorCode::bad_bid);
}

TEST(LevantineAuction, FourPassesPassTheDealOut) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::auction);
    ASSERT_EQ(auction(r, {"pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::passed_out);
    EXPECT_TRUE(r.over());
    EXPECT_FALSE(r.has_contract());
    EXPECT_TRUE(r.legal_actions().empty());
    expect_apply(r, Action::name_trump(Suit::spades), ErrorCode::no_contract);
    expect_apply(r, Action::play(card("7C")), ErrorCode::no_contract);
}

TEST(LevantineAuction, ThreePassesThenABidKeepGoing) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"pass", "pass", "pass", "7"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::auction);
    ASSERT_EQ(auction(r, {"pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.contract().value().declarer, Seat::s0);
}

TEST(LevantineAuction, LegalCallsArePassAndEveryHigherBid) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"10"}), ErrorCode::ok);
    const ActionList legal = r.legal_actions();
    ASSERT_EQ(legal.size(), 4);
    EXPECT_EQ(legal[0], Action::pass());
    EXPECT_EQ(legal[1], Action::bid(11));
    EXPECT_EQ(legal[3], Action::bid(13));
}

// ---- classic auction --------------------------------------------------------------------------

TEST(ClassicAuction, OneCallEachThenClosed) {
    Round r = classic();
    ASSERT_EQ(auction(r, {"pass", "8", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::auction);
    ASSERT_EQ(auction(r, {"pass"}), ErrorCode::ok);  // the dealer speaks last
    EXPECT_EQ(r.phase(), Phase::trump);
    EXPECT_EQ(r.contract().value().declarer, Seat::s2);
    expect_apply(r, Action::bid(9), ErrorCode::auction_closed);
}

TEST(ClassicAuction, TheDealerMayEqualTheHighBid) {
    Round r = classic();
    ASSERT_EQ(auction(r, {"9", "pass", "pass"}), ErrorCode::ok);
    EXPECT_TRUE(r.legal_actions().contains(Action::bid(9)));
    EXPECT_FALSE(r.legal_actions().contains(Action::bid(8)));
    expect_apply(r, Action::bid(8), ErrorCode::bid_too_low);
    expect_apply(r, Action::bid(9), ErrorCode::ok);
    EXPECT_EQ(r.contract().value().declarer, Seat::s0);
    EXPECT_EQ(r.contract().value().bid, 9);
}

TEST(ClassicAuction, OthersMayNotEqual) {
    Round r = classic();
    ASSERT_EQ(auction(r, {"9"}), ErrorCode::ok);
    expect_apply(r, Action::bid(9), ErrorCode::bid_too_low);
    expect_apply(r, Action::bid(10), ErrorCode::ok);
}

TEST(ClassicAuction, ThePassedPlayerGetsNoSecondChance) {
    Round r = classic();
    ASSERT_EQ(auction(r, {"pass", "8", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::trump);  // s1 passed and never speaks again
    EXPECT_EQ(r.to_act(), Seat::s2);
}

TEST(ClassicAuction, FourPassesThrowTheCardsIn) {
    Round r = classic();
    ASSERT_EQ(auction(r, {"pass", "pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::passed_out);
}

// ---- trump and play ---------------------------------------------------------------------------

TEST(Play, TrumpBeforeTheAuctionClosesIsRefused) {
    Round r = levantine();
    expect_apply(r, Action::name_trump(Suit::hearts), ErrorCode::auction_open);
    expect_apply(r, Action::play(card("AD")), ErrorCode::auction_open);
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);
    expect_apply(r, Action::play(card("AD")), ErrorCode::trump_missing);
    expect_apply(r, Action::name_trump(Suit::hearts), ErrorCode::ok);
    expect_apply(r, Action::name_trump(Suit::spades), ErrorCode::trump_named);
}

TEST(Play, TheDeclarerLeadsTheFirstTrick) {
    Round r = levantine();
    ASSERT_EQ(auction(r, {"pass", "8", "pass", "pass", "pass"}), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::name_trump(Suit::clubs)), ErrorCode::ok);
    EXPECT_EQ(r.phase(), Phase::play);
    EXPECT_EQ(r.to_act(), Seat::s2);
    EXPECT_EQ(r.trick_leader(), Seat::s2);
    EXPECT_EQ(r.legal_cards(), r.hand(Seat::s2));  // any card may be led
}

TEST(Play, MustFollowSuit) {
    Round r = levantine(Seat::s3);  // s0 bids first
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("7C"))), ErrorCode::ok);
    // s1 holds 2C 4C JC KC: must play a club.
    EXPECT_EQ(r.legal_cards(), test::cards("2C 4C JC KC"));
    expect_apply(r, Action::play(card("9H")), ErrorCode::must_follow_suit);
    expect_apply(r, Action::play(card("KS")), ErrorCode::must_follow_suit);
    expect_apply(r, Action::play(card("AC")), ErrorCode::card_not_held);  // s0 holds it
    expect_apply(r, Action::play(card("7C")), ErrorCode::card_not_held);  // already played
    expect_apply(r, Action::play(card("KC")), ErrorCode::ok);
}

TEST(Play, TrumpingIsNeverForced) {
    // s2 holds no diamond; trump hearts. s2 may discard a club though it holds hearts.
    Round r = levantine(Seat::s0);
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);  // s1 declares
    ASSERT_EQ(r.apply(Action::name_trump(Suit::hearts)), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("AD"))), ErrorCode::ok);  // s1 leads a diamond
    EXPECT_EQ(r.to_act(), Seat::s2);
    EXPECT_EQ(r.legal_cards(), r.hand(Seat::s2));
    ASSERT_EQ(r.apply(Action::play(card("3H"))), ErrorCode::ok);  // s2 trumps low
    ASSERT_EQ(r.apply(Action::play(card("2D"))), ErrorCode::ok);  // s3 follows
    // s0 holds diamonds, so must follow; the trick is s2's.
    ASSERT_EQ(r.apply(Action::play(card("3D"))), ErrorCode::ok);
    EXPECT_EQ(r.tricks(Team::t0), 1);
    EXPECT_EQ(r.to_act(), Seat::s2);  // the winner leads the next trick
}

TEST(Play, TheTwoOfTrumpsBeatsAnAceAndOffSuitNeverWins) {
    // Each seat holds one whole suit: s0 spades, s1 hearts, s2 clubs, s3 diamonds.
    Round r(kLevantine, Seat::s3, test::suit_per_seat());
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);  // s0 declares
    ASSERT_EQ(r.apply(Action::name_trump(Suit::hearts)), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("AS"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("2H"))), ErrorCode::ok);  // trump 2
    ASSERT_EQ(r.apply(Action::play(card("AC"))), ErrorCode::ok);  // off-suit ace
    ASSERT_EQ(r.apply(Action::play(card("AD"))), ErrorCode::ok);
    EXPECT_EQ(r.tricks(Team::t1), 1);
    EXPECT_EQ(r.to_act(), Seat::s1);
    EXPECT_EQ(r.leader_of_trick(1), Seat::s1);
    // Now s1 leads 3H; the others cannot follow or trump: the highest of the suit led wins.
    ASSERT_EQ(r.apply(Action::play(card("3H"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("KC"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("KD"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("KS"))), ErrorCode::ok);
    EXPECT_EQ(r.tricks(Team::t1), 2);
}

TEST(Play, TheHigherTrumpWins) {
    Round r = levantine(Seat::s0);
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);  // s1 declares
    ASSERT_EQ(r.apply(Action::name_trump(Suit::hearts)), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("AD"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("3H"))), ErrorCode::ok);  // s2 trumps
    ASSERT_EQ(r.apply(Action::play(card("2D"))), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(card("3D"))), ErrorCode::ok);
    EXPECT_EQ(r.trick_winner(0), Seat::s2);
}

TEST(Play, AllThirteenTricksArePlayedEvenOnceTheContractIsDecided) {
    Round r(kLevantine, Seat::s3, test::suit_per_seat());
    ASSERT_EQ(auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
    for (int i = 0; i < 28; ++i) ASSERT_EQ(r.apply(r.default_action()), ErrorCode::ok);
    EXPECT_EQ(r.tricks(Team::t0), 7);  // made already
    EXPECT_EQ(r.phase(), Phase::play);
    test::play_out(r);
    EXPECT_EQ(r.cards_played(), 52);
    EXPECT_EQ(r.tricks(Team::t0), 13);
    EXPECT_EQ(r.phase(), Phase::scored);
    expect_apply(r, Action::play(card("2S")), ErrorCode::deal_over);
}

TEST(Play, OutOfTurnIsRefused) {
    Round r = levantine();
    const std::string before = snapshot(r);
    EXPECT_EQ(r.apply(Seat::s2, Action::pass()), ErrorCode::out_of_turn);
    EXPECT_EQ(snapshot(r), before);
    EXPECT_EQ(r.apply(Seat::s1, Action::pass()), ErrorCode::ok);
}

TEST(Play, CopiesBehaveIdentically) {
    Round a = levantine();
    ASSERT_EQ(auction(a, {"9", "pass", "pass", "pass"}), ErrorCode::ok);
    ASSERT_EQ(a.apply(Action::name_trump(Suit::diamonds)), ErrorCode::ok);
    Round b = a;
    test::play_out(a);
    test::play_out(b);
    EXPECT_EQ(snapshot(a), snapshot(b));
    EXPECT_EQ(a.points(Team::t0), b.points(Team::t0));
}

// ---- play_out: the rest of the cards in one call ---------------------------------------------

/// A round after a random auction and trump and `cards` random cards (seeded), or nullopt if
/// the auction passed out.
std::optional<Round> in_play(std::uint64_t seed, int cards) {
    Rng rng(seed);
    Round r(seed % 2 ? kClassic : kLevantine, seat(static_cast<int>(seed)), deal_from_seed(seed, seat(static_cast<int>(seed))));
    while (r.phase() == Phase::auction || r.phase() == Phase::trump) r.apply(random_action(r, rng));
    if (r.phase() != Phase::play) return std::nullopt;
    while (r.cards_played() < cards) r.apply(random_action(r, rng));
    return r;
}

/// A chooser that picks the k-th legal card, k from its own generator.
auto kth_legal(Rng& rng) {
    return [&rng](CardSet legal) { return legal.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))); };
}

TEST(PlayOut, PlaysExactlyAsApplyDoesFromAnyPoint) {
    int rounds = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const int start = static_cast<int>(seed % 52);  // also in the middle of a trick
        const auto r = in_play(seed, start);
        if (!r) continue;
        ++rounds;
        Round by_apply = *r, by_play_out = *r;
        Rng a(seed + 1), b(seed + 1);
        const auto choose_a = kth_legal(a);
        while (by_apply.phase() == Phase::play) {
            const CardSet legal = by_apply.legal_cards();
            ASSERT_EQ(by_apply.apply(Action::play(choose_a(legal))), ErrorCode::ok);
        }
        int asked = 0;
        EXPECT_EQ(by_play_out.play_out([&](CardSet legal) {
            ++asked;
            return kth_legal(b)(legal);
        }), ErrorCode::ok);
        EXPECT_EQ(asked, 52 - start);
        EXPECT_EQ(by_play_out.phase(), Phase::scored);
        EXPECT_TRUE(by_play_out == by_apply) << "seed " << seed;  // every field, the score too
    }
    EXPECT_GT(rounds, 300);
}

TEST(PlayOut, IsGivenTheSameLegalCardsAsLegalCards) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const auto r = in_play(seed, 0);
        if (!r) continue;
        Round by_apply = *r, by_play_out = *r;
        std::vector<CardSet> want, got;
        Rng a(seed), b(seed);
        const auto choose_a = kth_legal(a);
        while (by_apply.phase() == Phase::play) {
            want.push_back(by_apply.legal_cards());
            by_apply.apply(Action::play(choose_a(want.back())));
        }
        by_play_out.play_out([&](CardSet legal) { got.push_back(legal); return kth_legal(b)(legal); });
        EXPECT_EQ(got, want);
    }
}

TEST(PlayOut, StopsBeforeAnIllegalCardWithTheErrorApplyGives) {
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const auto r = in_play(seed, 0);
        if (!r) continue;
        const int good = static_cast<int>(seed % 52);  // legal cards before the bad one
        Round expected = *r;
        Rng a(seed);
        const auto choose_a = kth_legal(a);
        for (int i = 0; i < good; ++i) expected.apply(Action::play(choose_a(expected.legal_cards())));
        // The bad card: one not held, one of another suit when following, or no card at all.
        const CardSet hand = expected.hand(expected.to_act());
        const CardSet legal = expected.legal_cards();
        Card bad = Card::from_bit(15);  // no such card (rank bits 13..15 are unused)
        if (seed % 3 == 1) bad = (CardSet::deck() - hand).lowest();
        if (seed % 3 == 2 && legal != hand) bad = (hand - legal).lowest();
        const ErrorCode want = expected.check(Action::play(bad));
        ASSERT_NE(want, ErrorCode::ok);
        Round got = *r;
        Rng b(seed);
        int asked = 0;
        EXPECT_EQ(got.play_out([&](CardSet cards) { return asked++ < good ? kth_legal(b)(cards) : bad; }), want);
        EXPECT_TRUE(got == expected) << "seed " << seed << ": the round must stand after the last legal card";
        ++checked;
    }
    EXPECT_GT(checked, 150);
}

TEST(PlayOut, DoesNothingOutsideThePlay) {
    Round r = levantine();
    const Round before = r;
    EXPECT_EQ(r.play_out([](CardSet legal) { return legal.lowest(); }), ErrorCode::ok);
    EXPECT_TRUE(r == before);
}

}  // namespace
}  // namespace tarneeb
