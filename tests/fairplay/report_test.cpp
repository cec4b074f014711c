// The fair-play report's counting and scores on hand-made tallies (include/tarneeb/fairplay/report.hpp).
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tarneeb/fairplay/report.hpp"

namespace tarneeb::fairplay {
namespace {

/// A match whose four seats each made `n` non-obvious decisions, `best[s]` of them best, half
/// of them hidden-dependent with the same share of best.
MatchTally match_of(std::array<std::string, 4> names, std::array<int, 4> best, int n = 100) {
    MatchTally m;
    m.names = std::move(names);
    for (std::size_t s = 0; s < 4; ++s) {
        m.seats[s] = Tally{n + 10, n, best[s], n / 2, best[s] / 2};
    }
    return m;
}

const PlayerLine& player(const Report& r, const std::string& name) {
    for (const PlayerLine& p : r.players)
        if (p.name == name) return p;
    throw std::runtime_error("no player " + name);
}

TEST(FairplayReport, TwoPlayersScoredAgainstEachOtherByHand) {
    // A 60/100 and B 80/100 (C, D below min_decisions): each one's population is the other.
    std::vector<MatchTally> ms{match_of({"A", "B", "C", "D"}, {60, 80, 0, 0})};
    ms[0].seats[2] = Tally{5, 5, 5, 0, 0};
    ms[0].seats[3] = Tally{5, 5, 0, 0, 0};
    const Report r = build_report(ms, ReportOptions{40, 3.0, 200, 10});
    const PlayerLine& a = player(r, "A");
    const PlayerLine& b = player(r, "B");
    ASSERT_TRUE(a.rate.z && b.rate.z);
    EXPECT_NEAR(*a.rate.z, (0.6 - 0.8) / std::sqrt(0.8 * 0.2 / 100), 1e-9);  // -5
    EXPECT_NEAR(*b.rate.z, (0.8 - 0.6) / std::sqrt(0.6 * 0.4 / 100), 1e-9);  // +4.08
    EXPECT_EQ(b.rate.population, 1);
    EXPECT_FALSE(b.rate.band);  // one other player: too few for a band of its own
    EXPECT_TRUE(b.flagged);
    EXPECT_FALSE(a.flagged);
    // Too few decisions: reported, never scored or flagged, however perfect.
    EXPECT_FALSE(player(r, "C").rate.z);
    EXPECT_FALSE(player(r, "C").flagged);
    EXPECT_EQ(player(r, "C").rate.rate, 1.0);
    // Flagged first.
    EXPECT_EQ(r.players.front().name, "B");
}

TEST(FairplayReport, PlayersAndPartnershipsSumOverMatchesAndSeats) {
    // P sits at seat 0 then seat 3; its partners are Q, then R.
    std::vector<MatchTally> ms{match_of({"P", "X", "Q", "Y"}, {70, 70, 70, 70}),
                               match_of({"X", "Y", "R", "P"}, {70, 70, 70, 50})};
    const Report r = build_report(ms, {});
    EXPECT_EQ(r.matches, 2);
    const PlayerLine& p = player(r, "P");
    EXPECT_EQ(p.matches, 2);
    EXPECT_EQ(p.tally, (Tally{220, 200, 120, 100, 60}));
    ASSERT_EQ(r.partnerships.size(), 4u);  // P&Q, X&Y (twice), P&R... and Y&X is X&Y
    int xy = 0;
    for (const PartnershipLine& q : r.partnerships) {
        EXPECT_LT(q.names[0], q.names[1]);  // in name order
        if (q.names == std::array<std::string, 2>{"X", "Y"}) {
            xy = q.matches;
            EXPECT_EQ(q.tally.decisions, 200);
        }
    }
    EXPECT_EQ(xy, 1);  // X, Y partners only in the first match (X at 1, Y at 3)
}

TEST(FairplayReport, ABandOfEnoughPlayersIsItsOwnPopulationWithItsSpread) {
    // Twenty-four players rated 1500 at about 70 %, twenty-four rated 1900 at about 85 %.
    std::vector<MatchTally> ms;
    for (int i = 0; i < 6; ++i) {
        MatchTally low = match_of({"l" + std::to_string(2 * i), "l" + std::to_string(2 * i + 1), "L" + std::to_string(2 * i),
                                   "L" + std::to_string(2 * i + 1)},
                                  {70 + i % 3, 69 - i % 3, 70, 70}, 100);
        MatchTally high = match_of({"h" + std::to_string(2 * i), "h" + std::to_string(2 * i + 1), "H" + std::to_string(2 * i),
                                    "H" + std::to_string(2 * i + 1)},
                                   {85 + i % 3, 84 - i % 3, 85, 85}, 100);
        for (auto& r : low.ratings) r = 1500;
        for (auto& r : high.ratings) r = 1900;
        ms.push_back(low);
        ms.push_back(high);
    }
    const Report r = build_report(ms, ReportOptions{40, 3.0, 200, 10});
    // Against its own band a strong honest player is ordinary; against everybody it would not be.
    const PlayerLine& h = player(r, "h0");
    ASSERT_TRUE(h.rate.z);
    EXPECT_TRUE(h.rate.band);
    EXPECT_EQ(h.rate.population, 23);
    EXPECT_NEAR(h.rate.expected, 0.85, 0.01);
    EXPECT_LT(std::abs(*h.rate.z), 1.0);
    for (const PlayerLine& p : r.players) EXPECT_FALSE(p.flagged) << p.name;
    // One wide band: the strong players stand out against the whole population's median, by
    // about one spread between players (tau2 from the middle half of the rates)...
    const Report pooled = build_report(ms, ReportOptions{40, 3.0, 10000, 10});
    ASSERT_TRUE(player(pooled, "H0").rate.z);
    EXPECT_GT(*player(pooled, "H0").rate.z, *h.rate.z + 0.5);
    EXPECT_LT(*player(pooled, "H0").rate.z, 2.0);
    // ... and by 1.85 against the pooled rate without it (min_band above the population's size).
    const Report binomial = build_report(ms, ReportOptions{40, 3.0, 10000, 1000});
    EXPECT_NEAR(*player(binomial, "H0").rate.z, 1.85, 0.1);
}

TEST(FairplayReport, JsonAndTextSayTheSame) {
    const std::vector<MatchTally> ms{match_of({"A", "B", "C", "D"}, {60, 95, 60, 62})};
    const Report r = build_report(ms, ReportOptions{40, 3.0, 200, 10});
    const nlohmann::json j = report_json(r);
    EXPECT_EQ(j["matches"], 1);
    EXPECT_EQ(j["options"]["min_decisions"], 40);
    ASSERT_EQ(j["players"].size(), 4u);
    EXPECT_EQ(j["players"][0]["name"], "B");
    EXPECT_EQ(j["players"][0]["flagged"], true);
    EXPECT_EQ(j["players"][0]["decisions"], 100);
    EXPECT_EQ(j["players"][0]["best"], 95);
    EXPECT_EQ(j["players"][0]["population"], "all");
    EXPECT_TRUE(j["players"][0]["rating"].is_null());
    EXPECT_EQ(j["players"][0]["hidden"]["decisions"], 50);
    EXPECT_EQ(j["partnerships"].size(), 2u);
    EXPECT_EQ(j["partnerships"][0]["players"].size(), 2u);
    const std::string text = report_text(r);
    EXPECT_NE(text.find("FLAG B "), std::string::npos) << text;
    EXPECT_EQ(text.find("FLAG A "), std::string::npos) << text;
}

}  // namespace
}  // namespace tarneeb::fairplay
