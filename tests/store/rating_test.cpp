// The rating rule (include/tarneeb/store/rating.hpp; docs/protocol.md "Ratings"): Elo values
// computed by hand, bots at the start rating, and the two teams' changes opposite.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "tarneeb/store/rating.hpp"
#include "tarneeb/store/rating_patterns.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {
namespace {

MatchRow finished(const std::string& status, int winner, std::array<bool, 4> bots = {}) {
    MatchRow row;
    row.id = "t1-1";
    row.table = "t1";
    row.names = {"a", "b", "c", "d"};
    row.bots = bots;
    row.status = status;
    row.winner = winner;
    return row;
}

TEST(Rating, StartAndBotRatingsAre1500) {
    EXPECT_EQ(kStartRating, 1500.0);
    EXPECT_EQ(kBotRating, 1500.0);
    EXPECT_EQ(kRatingK, 32.0);
    EXPECT_EQ(start_rating_sql(), "1500");
}

TEST(Rating, EloOfAWinAndALoss) {
    // Equal teams: E0 = 0.5, so a win is 32 * 0.5 = +16 and a loss -16, a draw 0.
    EXPECT_DOUBLE_EQ(elo_delta(1500, 1500, 1.0), 16.0);
    EXPECT_DOUBLE_EQ(elo_delta(1500, 1500, 0.0), -16.0);
    EXPECT_DOUBLE_EQ(elo_delta(1500, 1500, 0.5), 0.0);
    // 1600 against 1400: E0 = 1 / (1 + 10^(-0.5)) = 0.7597469266...
    EXPECT_NEAR(elo_delta(1600, 1400, 1.0), 7.688098347, 1e-9);
    EXPECT_NEAR(elo_delta(1600, 1400, 0.0), -24.311901653, 1e-9);
    EXPECT_NEAR(elo_delta(1600, 1400, 0.5), -8.311901653, 1e-9);
    // The underdog's side of the same match: the opposite change.
    EXPECT_NEAR(elo_delta(1400, 1600, 0.0), -7.688098347, 1e-9);
    EXPECT_NEAR(elo_delta(1400, 1600, 1.0), 24.311901653, 1e-9);
    // K scales the change.
    EXPECT_DOUBLE_EQ(elo_delta(1500, 1500, 1.0, 10.0), 5.0);
}

TEST(Rating, TeamsGetOppositeChangesFromTheirMeanRatings) {
    // Team 0 (seats 0, 2): mean (1700 + 1500) / 2 = 1600; team 1 (seats 1, 3): (1300 + 1500) / 2 = 1400.
    const auto change = seat_ratings(finished("won", 0), {1700, 1300, 1500, 1500});
    for (std::size_t s = 0; s < 4; ++s) EXPECT_TRUE(change[s].rated) << s;
    EXPECT_NEAR(change[0].rating, 7.688098347, 1e-9);
    EXPECT_EQ(change[0].rating, change[2].rating);
    EXPECT_EQ(change[1].rating, -change[0].rating);
    EXPECT_EQ(change[3].rating, -change[0].rating);
    EXPECT_TRUE(change[0].won && change[2].won);
    EXPECT_FALSE(change[1].won || change[3].won);

    const auto lost = seat_ratings(finished("won", 1), {1700, 1300, 1500, 1500});
    EXPECT_NEAR(lost[0].rating, -24.311901653, 1e-9);
    EXPECT_NEAR(lost[1].rating, 24.311901653, 1e-9);
    EXPECT_TRUE(lost[1].won && lost[3].won);
    EXPECT_FALSE(lost[0].won || lost[2].won);
}

TEST(Rating, OnlyAMatchOfFourPeopleAtATableThatIsNotCasualIsRated) {
    // Issue 27: a human with bots won 1500 → 1590.7 in six easy matches. A bot seat, in either
    // team, makes the whole match unrated.
    for (const std::array<bool, 4> bots : {std::array<bool, 4>{false, true, false, true}, std::array<bool, 4>{false, false, true, false},
                                           std::array<bool, 4>{true, true, true, true}}) {
        const auto change = seat_ratings(finished("won", 0, bots), {1500, 1500, 1500, 1500});
        for (std::size_t s = 0; s < 4; ++s) {
            EXPECT_FALSE(change[s].rated) << s;
            EXPECT_EQ(change[s].rating, 0.0) << s;
        }
    }
    MatchRow casual = finished("won", 0);
    casual.rated = false;
    for (const SeatRating& r : seat_ratings(casual, {1500, 1500, 1500, 1500})) EXPECT_FALSE(r.rated);
    const auto four = seat_ratings(finished("won", 0), {1500, 1500, 1500, 1500});
    for (const SeatRating& r : four) EXPECT_TRUE(r.rated);
    EXPECT_DOUBLE_EQ(four[0].rating, 16.0);
}

TEST(Rating, DrawsAndClosedMatches) {
    const auto drawn = seat_ratings(finished("drawn", -1), {1600, 1400, 1600, 1400});
    EXPECT_NEAR(drawn[0].rating, -8.311901653, 1e-9);
    EXPECT_NEAR(drawn[1].rating, 8.311901653, 1e-9);
    for (std::size_t s = 0; s < 4; ++s) EXPECT_FALSE(drawn[s].won) << s;
    const auto closed = seat_ratings(finished("closed", -1), {1600, 1400, 1600, 1400});
    for (std::size_t s = 0; s < 4; ++s) EXPECT_FALSE(closed[s].rated) << s;
}

TEST(Rating, MeanRating) {
    EXPECT_EQ(mean_rating({}), kStartRating);
    const std::vector<double> one{1620};
    EXPECT_EQ(mean_rating(one), 1620.0);
    const std::array<double, 2> team{1600, kBotRating};
    EXPECT_EQ(mean_rating(team), 1550.0);
}

// Issue 27 (sandbagging and boosting): the operator's report flags a player who loses fast
// again and again, and a pair that meets again and again at private rated tables with one
// side always winning; honest players with the same numbers of matches are not flagged.
TEST(RatingPatterns, FlagsShortLossesAndOneSidedPrivateMeetingsOnly) {
    std::vector<RatedMatch> ms;
    int n = 0;
    auto add = [&](std::array<std::string, 4> names, int winner, int deals, bool is_private) {
        ms.push_back(RatedMatch{"t" + std::to_string(++n) + "-1", n, is_private, winner < 0 ? "drawn" : "won", winner, names, deals});
    };
    // Dumper (team 1) loses six public matches in two deals each; wins none.
    for (int i = 0; i < 6; ++i) add({"A" + std::to_string(i), "Dumper", "B" + std::to_string(i), "Mate" + std::to_string(i)}, 0, 2, false);
    // Booster's friend Feeder loses to Booster seven times at private tables (long matches).
    for (int i = 0; i < 7; ++i) add({"Booster", "Feeder", "Pal", "Feeder2"}, 0, 9, true);
    // Honest: six public matches, half lost, long; and private matches against varied people.
    for (int i = 0; i < 6; ++i) add({"Honest", "C" + std::to_string(i), "D" + std::to_string(i), "E" + std::to_string(i)}, i % 2, 8, i < 3);
    const auto report = rating_patterns(ms);
    auto of = [&](const std::string& name) {
        for (const auto& p : report)
            if (p.name == name) return p;
        return PlayerPatterns{};
    };
    EXPECT_EQ(of("Dumper").flags, (std::vector<std::string>{"short_losses"}));
    EXPECT_EQ(of("Dumper").short_losses, 6);
    EXPECT_EQ(of("Booster").flags, (std::vector<std::string>{"same_opponent"}));
    EXPECT_EQ(of("Booster").meetings, 7);
    EXPECT_EQ(of("Booster").wins_against, 7);
    EXPECT_EQ(of("Feeder").flags, (std::vector<std::string>{"same_opponent"}));
    EXPECT_EQ(of("Feeder").losses_against, 7);
    EXPECT_TRUE(of("Honest").flags.empty());
    EXPECT_EQ(of("Honest").matches, 6);
    EXPECT_EQ(of("Honest").losses, 3);
    // The players who won against Dumper lost nothing: not flagged.
    EXPECT_TRUE(of("A0").flags.empty());
    // Flagged first; the JSON counts them.
    EXPECT_FALSE(report.front().flags.empty());
    const auto j = rating_patterns_json(report, ms.size());
    EXPECT_EQ(j["matches"], ms.size());
    EXPECT_GE(j["flagged"].get<int>(), 4);  // Dumper, Booster, Feeder, and Pal and Feeder2 (the same pair each time)
    // A short loss among long ones is no pattern.
    std::vector<RatedMatch> once(ms.begin() + 6, ms.end());
    once.push_back(RatedMatch{"x-1", 99, false, "won", 1, {"Honest", "F", "G", "H"}, 1});
    for (const auto& p : rating_patterns(once)) {
        if (p.name == "Honest") {
            EXPECT_TRUE(p.flags.empty());
        }
    }
}

}  // namespace
}  // namespace tarneeb::server
