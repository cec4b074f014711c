// SeatView holds exactly what one seat may know (docs/rules.md; hidden information).
#include <gtest/gtest.h>

#include "tarneeb/core/seat_view.hpp"
#include "tarneeb/core/simulate.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

Round started(const Hands& hands) {
    Round r(kLevantine, Seat::s0, hands);
    test::auction(r, {"8", "pass", "pass", "pass"});
    r.apply(Action::name_trump(Suit::hearts));
    return r;
}

TEST(SeatView, ShowsOnlyTheSeatsOwnHand) {
    Round r = started(test::mixed_deal());
    for (int i = 0; i < 6; ++i) r.apply(r.default_action());
    for (Seat s : kSeats) {
        const SeatView v(r, s);
        EXPECT_EQ(v.hand(), r.hand(s));
        EXPECT_EQ(v.unseen(), CardSet::deck() - r.hand(s) - r.played());
        EXPECT_EQ(v.played(), r.played());
        EXPECT_EQ(v.plays().size(), 6u);
    }
}

TEST(SeatView, PositionsThatDifferOnlyInHiddenCardsGiveEqualViews) {
    // Swap two unplayed cards between s2 and s3: s0 and s1 cannot tell.
    Hands a = test::mixed_deal();
    Hands b = a;
    const Card x = test::card("5C"), y = test::card("3C");  // s2 holds 5C, s3 holds 3C
    b[2] = (b[2] - x) | y;
    b[3] = (b[3] - y) | x;
    const Round ra = started(a), rb = started(b);
    EXPECT_TRUE(SeatView(ra, Seat::s0) == SeatView(rb, Seat::s0));
    EXPECT_TRUE(SeatView(ra, Seat::s1) == SeatView(rb, Seat::s1));
    EXPECT_FALSE(SeatView(ra, Seat::s2) == SeatView(rb, Seat::s2));
}

TEST(SeatView, ShownVoidsAreRecorded) {
    // Each seat holds one suit: every follower shows out of the suit led.
    Round r(kLevantine, Seat::s3, test::suit_per_seat());
    test::auction(r, {"7", "pass", "pass", "pass"});
    r.apply(Action::name_trump(Suit::spades));
    for (int i = 0; i < 4; ++i) r.apply(r.default_action());
    const SeatView v(r, Seat::s0);
    EXPECT_TRUE(v.shown_void(Seat::s1, Suit::spades));
    EXPECT_TRUE(v.shown_void(Seat::s3, Suit::spades));
    EXPECT_FALSE(v.shown_void(Seat::s0, Suit::spades));
    EXPECT_FALSE(v.shown_void(Seat::s1, Suit::hearts));
    EXPECT_EQ(v.cards_left(Seat::s1), 12);
}

TEST(SeatView, VoidsAndCardsLeftAgreeWithTheCardsPlayedAtEveryPoint) {
    // The round keeps shown voids as cards are played and the view counts cards left from the
    // tricks; both must equal what a scan of every card played says.
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        Round r(seed % 2 ? kClassic : kLevantine, seat(static_cast<int>(seed)), deal_from_seed(seed, seat(static_cast<int>(seed))));
        Rng rng(seed);
        while (!r.over()) {
            const SeatView v(r, seat(static_cast<int>(seed / 4)));
            BySeat<std::uint8_t> voids{};
            BySeat<int> played{};
            for (int i = 0; i < r.cards_played(); ++i) {
                const Suit led = r.plays()[static_cast<std::size_t>(i & ~3)].suit();
                if (r.plays()[static_cast<std::size_t>(i)].suit() != led)
                    voids[r.played_by(i)] |= static_cast<std::uint8_t>(1u << index(led));
                ++played[r.played_by(i)];
            }
            for (Seat s : kSeats) {
                for (Suit suit : kSuits) ASSERT_EQ(v.shown_void(s, suit), ((voids[s] >> index(suit)) & 1) != 0);
                ASSERT_EQ(v.cards_left(s), 13 - played[s]);
                ASSERT_EQ(r.hand(s).size(), 13 - played[s]);
            }
            r.apply(random_action(r, rng));
        }
    }
}

TEST(SeatView, LegalActionsMatchTheRoundOnTheSeatsTurn) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        Round r(kClassic, Seat::s1, deal_from_seed(seed, Seat::s1));
        Rng rng(seed);
        while (!r.over()) {
            const SeatView v(r, r.to_act());
            ASSERT_TRUE(v.my_turn());
            ASSERT_EQ(v.legal_cards(), r.phase() == Phase::play ? r.legal_cards() : v.legal_cards());
            ASSERT_EQ(v.legal_actions().size(), r.legal_actions().size());
            ASSERT_EQ(v.default_action(), r.default_action());
            r.apply(random_action(r, rng));
        }
    }
}

TEST(SeatView, MatchScoresAreIncluded) {
    Match m(kLevantine, Seat::s0);
    m.start_round(test::suit_per_seat());
    test::play_contract(m, Seat::s0, 9, Suit::spades);
    const SeatView v = SeatView::of(m, Seat::s1);
    EXPECT_EQ(v.scores(), (std::array<int, 2>{9, 0}));
}

}  // namespace
}  // namespace tarneeb
