// Round trips of every DDS encoding (position.hpp) and position validation.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"
#include "tarneeb/solver/position.hpp"

using namespace tarneeb;
using namespace tarneeb::solver;

namespace {
using test::random_round_at;
}  // namespace

TEST(Encoding, SuitsRanksHands) {
    EXPECT_EQ(dds_suit(Suit::spades), 0);
    EXPECT_EQ(dds_suit(Suit::hearts), 1);
    EXPECT_EQ(dds_suit(Suit::diamonds), 2);
    EXPECT_EQ(dds_suit(Suit::clubs), 3);
    EXPECT_EQ(dds_rank(Rank::two), 2);
    EXPECT_EQ(dds_rank(Rank::ace), 14);
    for (Suit s : kSuits) EXPECT_EQ(suit_from_dds(dds_suit(s)), s);
    for (int r = 0; r < 13; ++r) EXPECT_EQ(rank_from_dds(dds_rank(static_cast<Rank>(r))), static_cast<Rank>(r));
    for (Seat s : kSeats) {
        EXPECT_EQ(seat_from_dds(dds_hand(s)), s);
        // DDS's next hand is our next seat.
        EXPECT_EQ(seat_from_dds((dds_hand(s) + 1) % 4), next(s));
    }
}

TEST(Encoding, Holdings) {
    const CardSet h = CardSet(Card(Suit::spades, Rank::ace)) | Card(Suit::spades, Rank::two) | Card(Suit::clubs, Rank::ten);
    EXPECT_EQ(dds_holding(h, Suit::spades), (1u << 14) | (1u << 2));
    EXPECT_EQ(dds_holding(h, Suit::clubs), 1u << 10);
    EXPECT_EQ(dds_holding(h, Suit::hearts), 0u);
    Rng rng(7);
    for (int k = 0; k < 200; ++k) {
        const CardSet any(rng.next() & CardSet::kDeckMask);
        CardSet back;
        for (Suit s : kSuits) back |= from_dds_holding(dds_holding(any, s), s);
        EXPECT_EQ(back, any);
    }
}

TEST(Encoding, PositionRoundTrip) {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        const Round r = random_round_at(seed, static_cast<int>(seed % 52));
        const Position p = position_of(r);
        ASSERT_EQ(validate(p), SolveError::ok) << seed;
        EXPECT_EQ(p.to_play(), r.to_act());
        EXPECT_EQ(p.legal_cards(), r.legal_cards());
        EXPECT_EQ(p.tricks_left(), 13 - r.tricks_played());
        const DdsDeal d = to_dds(p);
        EXPECT_EQ(d.first, dds_hand(r.trick_leader()));
        EXPECT_EQ(d.trump, dds_suit(r.trump()));
        EXPECT_EQ(from_dds(d), p) << seed;
        EXPECT_EQ(to_dds(from_dds(d)), d) << seed;
    }
}

TEST(Encoding, ValidateRejects) {
    const Round r = random_round_at(11, 5);  // one card into trick 2
    const Position good = position_of(r);
    ASSERT_EQ(good.trick_size, 1);
    Position p = good;
    p.trick_size = 4;
    EXPECT_EQ(validate(p), SolveError::bad_trick_size);
    p = good;
    p.hands[1] |= p.hands[0].lowest();
    EXPECT_NE(validate(p), SolveError::ok);  // duplicate card (and a bad count)
    EXPECT_EQ(validate(p), SolveError::duplicate_card);
    p = good;
    p.hands[index(p.to_play())] -= CardSet(p.hands[index(p.to_play())].lowest());
    EXPECT_EQ(validate(p), SolveError::bad_card_count);
    p = good;
    p.trick_size = 0;  // the trick's card vanished: the leader holds one card fewer
    EXPECT_EQ(validate(p), SolveError::bad_card_count);
    p = good;
    p.hands[0] = CardSet(p.hands[0].bits() | (std::uint64_t{1} << 13));
    EXPECT_EQ(validate(p), SolveError::bad_card);
    Position empty;
    EXPECT_EQ(validate(empty), SolveError::no_cards);
    // A revoke inside the trick: the second player discards while holding the suit led.
    const Hands deal = deal_from_seed(5, Seat::s0);
    Position q = opening_position(deal, Suit::hearts, Seat::s0);
    const Card lead = q.hands[0].lowest();
    const CardSet follow = q.hands[1].of(lead.suit());
    const CardSet other = q.hands[1] - CardSet::suit(lead.suit());
    ASSERT_FALSE(follow.empty());
    ASSERT_FALSE(other.empty());
    q.hands[0] -= CardSet(lead);
    q.hands[1] -= CardSet(other.lowest());
    q.trick[0] = lead;
    q.trick[1] = other.lowest();
    q.trick_size = 2;
    EXPECT_EQ(validate(q), SolveError::revoke_in_trick);
}
