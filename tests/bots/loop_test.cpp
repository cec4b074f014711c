// The one loop for players (include/tarneeb/bots/loop.hpp): the checked decision with the
// default-action fallback, observers in order, and a player who stops the loop.
#include <optional>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/loop.hpp"
#include "tarneeb/bots/random_bot.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb {
namespace {

/// Answers `answer` whatever the position (or throws when asked to).
class Fixed final : public bots::Bot {
public:
    explicit Fixed(Action answer, bool throws = false) : answer_(answer), throws_(throws) {}
    std::string_view name() const override { return "fixed"; }
    Action decide_call(const SeatView&) override { return answer(); }
    Action decide_trump(const SeatView&) override { return answer(); }
    Action decide_card(const SeatView&) override { return answer(); }

private:
    Action answer() const {
        if (throws_) throw std::runtime_error("no answer");
        return answer_;
    }
    Action answer_;
    bool throws_;
};

/// Records what it is told.
class Listener final : public bots::Bot {
public:
    std::string_view name() const override { return "listener"; }
    Action decide_call(const SeatView& v) override { return v.default_action(); }
    Action decide_trump(const SeatView& v) override { return v.default_action(); }
    Action decide_card(const SeatView& v) override { return v.default_action(); }
    void observe(const SeatView& v, Seat actor, Action a) override {
        EXPECT_EQ(v.seat(), mine);
        seen.push_back({actor, a});
    }
    Seat mine = Seat::s0;
    std::vector<std::pair<Seat, Action>> seen;
};

TEST(Loop, ALegalAnswerIsKept) {
    const Round r(kLevantine, Seat::s3, deal_from_seed(5, Seat::s3));
    Fixed bot(Action::bid(8));
    bool replaced = true;
    EXPECT_EQ(bots::decide_or_default(bot, SeatView(r, r.to_act()), &replaced), Action::bid(8));
    EXPECT_FALSE(replaced);
}

TEST(Loop, AnIllegalAnswerOrAFailureBecomesTheDefaultAction) {
    const Round r(kLevantine, Seat::s3, deal_from_seed(5, Seat::s3));
    const SeatView v(r, r.to_act());
    Fixed bad(Action::bid(20));
    bool replaced = false;
    EXPECT_EQ(bots::decide_or_default(bad, v, &replaced), r.default_action());
    EXPECT_TRUE(replaced);
    Fixed card_now(Action::play(Card(Suit::spades, Rank::ace)));  // a card in the auction
    EXPECT_EQ(bots::decide_or_default(card_now, v), r.default_action());
    Fixed throws(Action::pass(), true);
    replaced = false;
    EXPECT_EQ(bots::decide_or_default(throws, v, &replaced), r.default_action());
    EXPECT_TRUE(replaced);
}

TEST(Loop, EverySeatObservesEachActionThenTheHook) {
    std::array<Listener, 4> players;
    bots::Lineup lineup{};
    for (Seat s : kSeats) {
        players[static_cast<std::size_t>(index(s))].mine = s;
        lineup[static_cast<std::size_t>(index(s))] = &players[static_cast<std::size_t>(index(s))];
    }
    Match match(kLevantine, Seat::s0);
    match.start_round(deal_from_seed(9, Seat::s0));
    std::vector<std::pair<Seat, Action>> hooked;
    bots::LoopStats stats;
    bots::LoopHooks hooks;
    hooks.stats = &stats;
    hooks.observe = [&](const Match& m, Seat actor, Action a) {
        for (const Listener& p : players) EXPECT_EQ(p.seen.size(), hooked.size() + 1);  // the seats first
        EXPECT_EQ(&m, &match);
        hooked.push_back({actor, a});
    };
    EXPECT_TRUE(bots::play_round(match, lineup, hooks));
    EXPECT_TRUE(match.round().over());
    EXPECT_EQ(stats.decisions, hooked.size());
    EXPECT_EQ(stats.illegal_actions, 0u);
    for (const Listener& p : players) EXPECT_EQ(p.seen, hooked);
}

TEST(Loop, StopDropsTheDecisionAndLeavesTheMatchAsItWas) {
    bots::RandomBot a(1), b(2);
    const bots::Lineup lineup{&a, &b, &a, &b};
    Match match(kLevantine, Seat::s0);
    int decisions = 0, dealt = 0, applied = 0;
    std::optional<Round> at_stop;
    bots::LoopHooks hooks;
    hooks.dealt = [&](const Match& m) {
        ++dealt;
        EXPECT_FALSE(m.awaiting_deal());
    };
    hooks.observe = [&](const Match&, Seat, Action) { ++applied; };
    hooks.stop = [&] {
        if (++decisions < 30) return false;
        at_stop = match.round();
        return true;
    };
    EXPECT_FALSE(bots::play_on(match, 42, lineup, hooks));
    EXPECT_GE(dealt, 1);
    EXPECT_EQ(applied, 29);
    ASSERT_TRUE(at_stop);
    EXPECT_EQ(match.round(), *at_stop);
}

TEST(Loop, ArenaMatchesArePlayedToTheEnd) {
    bots::RandomBot a(3), b(4);
    bots::LoopStats stats;
    const Match m = bots::play_match(kLevantine, Seat::s1, 7, {&a, &b, &a, &b}, &stats);
    EXPECT_TRUE(m.over());
    EXPECT_GT(stats.decisions, 0u);
    EXPECT_EQ(stats.illegal_actions, 0u);
}

}  // namespace
}  // namespace tarneeb
