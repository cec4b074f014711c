// `tarneeb analyze` as a user meets it: the JSON shape, agreement with the oracle and the
// library, position analysis inside a record, and usage errors.
#include "../cli_util.hpp"
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/solver/solver.hpp"

using namespace tarneeb;

namespace {
using tarneeb::test::Result;
using tarneeb::test::run;
}  // namespace

TEST(AnalyzeCli, HandsAgreeWithTheOracle) {
    const auto deals = test::read_oracle();
    const auto& d = deals[3];
    std::string arg;
    for (std::size_t s = 0; s < 4; ++s) {
        if (s > 0) arg += '|';
        arg += to_string(d.hands[s]);
    }
    const Result r = run("analyze --json --hands \"" + arg + "\"");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.size(), 2u);  // exactly "tricks" and "par"
    for (Suit su : kSuits) {
        const auto& row = j["tricks"][std::string(1, suit_letter(su))];
        ASSERT_EQ(row.size(), 4u);
        for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(row[s].get<int>(), d.tricks[static_cast<std::size_t>(index(su))][s]);
    }
    EXPECT_TRUE(j["par"].contains("points"));
}

TEST(AnalyzeCli, SeedMatchesTheLibraryAndPar) {
    const Result r = run("analyze --json --seed 12 --dealer 1 --preset classic");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    solver::DdTable t;
    ASSERT_EQ(solver::table(deal_from_seed(12, Seat::s1), t), solver::SolveError::ok);
    for (Suit su : kSuits)
        for (Seat s : kSeats) EXPECT_EQ(j["tricks"][std::string(1, suit_letter(su))][index(s)].get<int>(), t.at(su, s));
    EXPECT_EQ(j["par"]["preset"], "classic");
    EXPECT_EQ(j["par"]["dealer"], 1);
    if (!j["par"]["passed_out"].get<bool>()) {
        const int decl = j["par"]["declarer"];
        EXPECT_EQ(j["par"]["tricks"].get<int>(), j["tricks"][j["par"]["trump"].get<std::string>()][decl].get<int>());
    }
}

TEST(AnalyzeCli, PositionAfterCardsOfARecord) {
    const std::string rec = std::string(TARNEEB_TEST_DATA) + "/records/rec0000.json";
    const Result r = run("analyze --json --record " + rec + " --deal 0 --after 6");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto& pos = j["position"];
    EXPECT_EQ(pos["after"], 6);
    EXPECT_EQ(pos["tricks_left"], 12);
    ASSERT_GE(pos["cards"].size(), 1u);
    int prev = 14;
    for (const auto& c : pos["cards"]) {  // best first
        EXPECT_LE(c["tricks"].get<int>(), prev);
        prev = c["tricks"];
        const int tricks = c["declarer_tricks"].get<int>();
        EXPECT_TRUE(tricks >= 0 && tricks <= 13) << c.dump();
    }
    const Result text = run("analyze --record " + rec + " --deal 0 --after 6");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("Position after card 6"), std::string::npos);
}

TEST(AnalyzeCli, UsageErrors) {
    EXPECT_EQ(run("analyze --hands \"AS KS|QS\"").status, 2);
    EXPECT_EQ(run("analyze --seed 1 --hands \"a|b|c|d\"").status, 2);
    EXPECT_EQ(run("analyze --seed 1 --after 3").status, 2);
    EXPECT_EQ(run("analyze").status, 2);
    EXPECT_EQ(run("analyze --record /nonexistent/file.json").status, 2);
    EXPECT_EQ(run("analyze --seed 1 --preset bridge").status, 2);
    const std::string rec = std::string(TARNEEB_TEST_DATA) + "/records/rec0000.json";
    EXPECT_EQ(run("analyze --record " + rec + " --deal 999").status, 2);
}
