// `tarneeb fairplay` and `tarneeb simulate --seat0 cheater` through the real executable.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../cli_util.hpp"

namespace tarneeb::test {
namespace {

namespace fs = std::filesystem;

/// A fresh directory under the test's temporary directory.
fs::path fresh_dir(const char* name) {
    std::string tmpl = (fs::path(::testing::TempDir()) / (std::string(name) + "-XXXXXX")).string();
    const char* made = mkdtemp(tmpl.data());
    EXPECT_NE(made, nullptr);
    return fs::path(tmpl);
}

TEST(FairplayCli, ReportsSimulatedMatchesWithACheaterSeat) {
    const fs::path dir = fresh_dir("fairplay");
    const Result sim = run("simulate --matches 2 --team0 heuristic --team1 heuristic --seat0 cheater --target 11 --seed 3 "
                           "--records " + (dir / "records").string());
    ASSERT_EQ(sim.status, 0) << sim.out;
    EXPECT_EQ(nlohmann::json::parse(sim.out)["seat0"], "cheater");
    const Result r = run("fairplay --json --min-decisions 10 " + (dir / "records").string());
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["matches"], 2);
    EXPECT_EQ(j["options"]["min_decisions"], 10);
    ASSERT_EQ(j["players"].size(), 8u);  // no "players" in simulate's records: FILE#SEAT each
    ASSERT_EQ(j["partnerships"].size(), 4u);
    for (const auto& p : j["players"]) {
        const std::string name = p["name"];
        if (name.ends_with("#0")) {
            EXPECT_EQ(p["best"], p["decisions"]) << name;  // the cheater found every best card
        }
    }
    // The text report names the same players.
    const Result text = run("fairplay --min-decisions 10 " + (dir / "records" / "match-000000.json").string());
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("match-000000.json#0"), std::string::npos) << text.out;
    // A rejected record: reported as such (exit 1), the others still counted.
    std::ofstream(dir / "records" / "bad.json") << R"({"format":"tarneeb-record/1","deals":[{"hands":["AS"]}]})";
    const Result bad = run("fairplay --json " + (dir / "records").string() + " 2>/dev/null");
    EXPECT_EQ(bad.status, 1);
    EXPECT_EQ(nlohmann::json::parse(bad.out)["matches"], 2);
    fs::remove_all(dir);
}

TEST(FairplayCli, UsageErrorsAndHelp) {
    EXPECT_EQ(run("fairplay 2>/dev/null").status, 2);
    EXPECT_EQ(run("fairplay /no/such/dir 2>/dev/null").status, 2);
    EXPECT_EQ(run("fairplay --threshold -1 . 2>/dev/null").status, 2);
    const Result help = run("fairplay --help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--min-decisions"), std::string::npos);
    // The cheater is for simulations only: never a player of `tarneeb play`, nor in duplicate.
    EXPECT_EQ(run("play --bots cheater </dev/null >/dev/null 2>&1").status, 2);
    EXPECT_EQ(run("simulate --deals 1 --duplicate --seat0 cheater 2>/dev/null").status, 2);
}

}  // namespace
}  // namespace tarneeb::test
