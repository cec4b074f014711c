// The levels a person picks (easy, medium, hard, expert: levels.hpp) as registry entries, the
// engine names mapped to their nearest level, and the easy level's weakened heuristic.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/levels.hpp"
#include "tarneeb/bots/weakened_bot.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb {
namespace {

TEST(Levels, EveryLevelIsARegisteredBotThatReportsItsName) {
    std::string names;
    for (const bots::LevelInfo& level : bots::levels()) {
        auto bot = bots::make_bot(level.name, 1);
        ASSERT_NE(bot, nullptr) << level.name;
        EXPECT_EQ(bot->name(), level.name);
        EXPECT_FALSE(level.description.empty());
        names += std::string(names.empty() ? "" : ", ") + std::string(level.name);
    }
    EXPECT_EQ(names, "easy, medium, hard, expert");  // weakest first
}

TEST(Levels, OldNamesStayRegistered) {
    for (const char* name : {"random", "heuristic", "pimc"}) EXPECT_NE(bots::make_bot(name, 1), nullptr) << name;
    EXPECT_EQ(bots::make_bot("cheater", 1), nullptr);
    EXPECT_EQ(bots::make_bot("Easy", 1), nullptr);  // names are exact
}

TEST(Levels, EngineNamesMapToTheirNearestLevel) {
    EXPECT_EQ(bots::level_of("easy"), "easy");
    EXPECT_EQ(bots::level_of("medium"), "medium");
    EXPECT_EQ(bots::level_of("hard"), "hard");
    EXPECT_EQ(bots::level_of("expert"), "expert");
    EXPECT_EQ(bots::level_of("heuristic"), "medium");
    EXPECT_EQ(bots::level_of("pimc"), "expert");
    EXPECT_EQ(bots::level_of("random"), "");  // weaker than every level: a plain bot
    EXPECT_EQ(bots::level_of("stockfish"), "");
    EXPECT_EQ(bots::level_of(""), "");
}

TEST(Levels, HardIsPimcWithASmallerBudgetThanExpert) {
    const auto hard = bots::pimc_options_of("hard"), expert = bots::pimc_options_of("expert");
    ASSERT_TRUE(hard && expert);
    EXPECT_LT(hard->samples, expert->samples);
    // test-wait: two configured budgets compared (settings, not a measured duration)
    EXPECT_LT(hard->time_budget_ms, expert->time_budget_ms);
    EXPECT_GT(hard->time_budget_ms, 0);
    EXPECT_EQ(bots::pimc_options_of("pimc")->samples, expert->samples);
    EXPECT_FALSE(bots::pimc_options_of("medium"));
    EXPECT_FALSE(bots::pimc_options_of("easy"));
}

/// Plays whole matches of four `name` bots against four heuristics asked the same questions:
/// counts the card decisions with more than one legal card, and those that differ.
struct Agreement {
    int choices = 0;
    int differ = 0;
};

class Compare final : public bots::Bot {
public:
    Compare(std::unique_ptr<bots::Bot> bot, Agreement& out) : bot_(std::move(bot)), out_(out) {}
    std::string_view name() const override { return bot_->name(); }
    Action decide_call(const SeatView& v) override { return bot_->decide_call(v); }
    Action decide_trump(const SeatView& v) override { return bot_->decide_trump(v); }
    Action decide_card(const SeatView& v) override {
        const Action a = bot_->decide_card(v);
        if (v.legal_cards().size() > 1) {
            ++out_.choices;
            if (a != heuristic_.decide_card(v)) ++out_.differ;
            EXPECT_EQ(a, bot_->decide_card(v)) << "asked again, the same card";
        }
        return a;
    }

private:
    std::unique_ptr<bots::Bot> bot_;
    bots::HeuristicBot heuristic_;
    Agreement& out_;
};

Agreement agreement(const std::function<std::unique_ptr<bots::Bot>(std::uint64_t)>& make) {
    Agreement out;
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        Compare a(make(seed * 4), out), b(make(seed * 4 + 1), out), c(make(seed * 4 + 2), out), d(make(seed * 4 + 3), out);
        bots::LoopStats stats;
        bots::play_match(kLevantine, Seat::s0, seed, {&a, &b, &c, &d}, &stats);
        EXPECT_EQ(stats.illegal_actions, 0u);
    }
    return out;
}

Agreement agreement(std::string_view name) {
    return agreement([name](std::uint64_t seed) { return bots::make_bot(name, seed); });
}

TEST(Levels, MediumPlaysExactlyAsTheHeuristic) {
    const Agreement a = agreement("medium");
    EXPECT_GT(a.choices, 500);
    EXPECT_EQ(a.differ, 0);
}

TEST(Levels, EasyPlaysAShareOfRandomCardsAndOtherwiseTheHeuristics) {
    const Agreement a = agreement("easy");
    ASSERT_GT(a.choices, 500);
    // A random card is the heuristic's own about 1 time in 2-4: with 35 % random choices, about
    // 20-30 % of the cards differ (and the heuristic's choices diverge as the tricks do).
    const double share = static_cast<double>(a.differ) / a.choices;
    EXPECT_GT(share, 0.12) << a.differ << " of " << a.choices;
    EXPECT_LT(share, 0.45) << a.differ << " of " << a.choices;
}

TEST(Levels, WeakenedBotAtTheExtremes) {
    EXPECT_EQ(bots::WeakenedBot(3, 7.5).random_share(), 1.0);
    EXPECT_EQ(bots::WeakenedBot(3, -1.0).random_share(), 0.0);
    EXPECT_EQ(bots::WeakenedBot(3, 0.5).name(), "easy");
    // Share 0: the heuristic exactly; share 1: a random card at every choice (the heuristic's
    // own now and then, by chance).
    const Agreement none = agreement([](std::uint64_t seed) { return std::make_unique<bots::WeakenedBot>(seed, 0.0); });
    EXPECT_EQ(none.differ, 0);
    const Agreement all = agreement([](std::uint64_t seed) { return std::make_unique<bots::WeakenedBot>(seed, 1.0); });
    EXPECT_GT(all.differ, all.choices / 2) << all.differ << " of " << all.choices;
}

TEST(Levels, EasyLosesToMediumInDuplicate) {
    // 300 deals, each played twice with the seats swapped: the medium pair's points minus the
    // easy pair's (a fixed seed: the same result on every machine).
    long long diff = 0;
    for (std::uint64_t deal = 0; deal < 300; ++deal) {
        const Seat dealer = static_cast<Seat>(deal % 4);
        const Hands hands = deal_from_seed(derive_seed(42, deal), dealer);
        for (int swap = 0; swap < 2; ++swap) {
            auto e0 = bots::make_bot("easy", deal * 8 + 0), e1 = bots::make_bot("easy", deal * 8 + 1);
            auto m0 = bots::make_bot("medium", deal * 8 + 2), m1 = bots::make_bot("medium", deal * 8 + 3);
            const bots::Lineup lineup = swap ? bots::Lineup{m0.get(), e0.get(), m1.get(), e1.get()}
                                             : bots::Lineup{e0.get(), m0.get(), e1.get(), m1.get()};
            const Match m = bots::play_deal(kLevantine, dealer, hands, lineup);
            const int t0 = m.round().points(Team::t0), t1 = m.round().points(Team::t1);
            diff += swap ? (t0 - t1) : (t1 - t0);  // medium minus easy
        }
    }
    EXPECT_GT(diff, 300) << "medium over easy, points in 600 deals";  // at least +0.5 per deal
}

}  // namespace
}  // namespace tarneeb
