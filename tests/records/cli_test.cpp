// The `tarneeb` executable as a user meets it: replay, deal, bench, help and exit statuses.
#include "../cli_util.hpp"
#include "../test_util.hpp"
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

namespace {

using tarneeb::test::Result;
using tarneeb::test::run;

std::string data(const std::string& name) { return std::string(TARNEEB_TEST_DATA) + "/records/" + name; }

TEST(Cli, ReplayLegalRecordExitsZero) {
    const Result r = run("replay " + data("rec0002.json"));
    EXPECT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["format"], "tarneeb-result/1");
    EXPECT_TRUE(j["ok"].get<bool>());
}

TEST(Cli, ReplayRejectedRecordExitsOne) {
    const Result r = run("replay " + data("rec0001.json"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(nlohmann::json::parse(r.out)["error"]["code"], "auction_closed");
}

TEST(Cli, ReplayReadsStandardInput) {
    const Result r = run("replay - < " + data("special38.json"));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "in_progress");
    const Result garbage = run("replay - < /dev/null");
    EXPECT_EQ(garbage.status, 1);
    EXPECT_EQ(nlohmann::json::parse(garbage.out)["error"]["code"], "bad_format");
}

TEST(Cli, UsageErrorsExitTwo) {
    EXPECT_EQ(run("replay /no/such/file.json").status, 2);
    EXPECT_EQ(run("replay").status, 2);
    EXPECT_EQ(run("deal").status, 2);  // --seed is required
    EXPECT_EQ(run("deal --seed 1 --dealer 7").status, 2);
    EXPECT_EQ(run("no-such-command").status, 2);
    EXPECT_EQ(run("").status, 2);
}

// serve --operator-token-file (issue 27, GET /api/fairplay): a token that could be guessed, or
// that no Authorization header can carry, stops the server before it listens (exit 2, a message).
TEST(Cli, ServeRefusesAnOperatorTokenThatIsShortOrMalformed) {
    const std::string dir = ::testing::TempDir();
    for (const std::string& token : {std::string("short"), std::string(40, 'a') + " b", std::string(129, 'x'), std::string()}) {
        const std::string path = dir + "/operator-token";
        std::ofstream(path) << token << "\n";
        const Result r = run("serve --port 0 --db " + dir + "/unused.db --operator-token-file " + path + " 2>&1");
        EXPECT_EQ(r.status, 2) << "'" << token << "': " << r.out;
        EXPECT_NE(r.out.find("--operator-token-file"), std::string::npos) << r.out;
    }
    EXPECT_EQ(run("serve --port 0 --operator-token-file /no/such/file 2>&1").status, 2);
}

TEST(Cli, HelpOnEverySubcommand) {
    const Result top = run("--help");
    EXPECT_EQ(top.status, 0);
    for (const char* sub : {"replay", "deal", "bench"}) {
        EXPECT_NE(top.out.find(sub), std::string::npos) << sub;
        const Result r = run(std::string(sub) + " --help");
        EXPECT_EQ(r.status, 0) << sub;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
    }
}

TEST(Cli, DealIsReproducibleJsonLines) {
    const Result a = run("deal --seed 17 --count 3 --dealer 2");
    const Result b = run("deal --seed 18 --count 1 --dealer 2");
    ASSERT_EQ(a.status, 0);
    std::vector<nlohmann::json> lines;
    std::size_t start = 0;
    while (start < a.out.size()) {
        const std::size_t end = a.out.find('\n', start);
        lines.push_back(nlohmann::json::parse(a.out.substr(start, end - start)));
        start = end + 1;
    }
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0]["seed"], 17);
    EXPECT_EQ(lines[1]["seed"], 18);
    EXPECT_EQ(lines[0]["dealer"], 2);
    ASSERT_EQ(lines[0]["hands"].size(), 4u);
    EXPECT_EQ(lines[1], nlohmann::json::parse(b.out));  // line k is the deal of seed S+k
    // The hands are a record's hands: feeding them to replay gives a legal record.
    const std::string path = ::testing::TempDir() + "/deal_record.json";
    nlohmann::json rec = {{"format", "tarneeb-record/1"}, {"first_dealer", 2},
                          {"deals", {{{"hands", lines[0]["hands"]}, {"auction", {"pass"}}}}}};
    std::ofstream(path) << rec.dump();
    EXPECT_EQ(run("replay " + path).status, 0);
}

TEST(Cli, BenchSignatureIsStable) {
    // The executable's bench is pure computation, about 100 times slower under ASan + UBSan (36 s):
    // the release build's run checks it; BenchSignature.MatchesTheStoredValue runs the same code in
    // process under every sanitizer.
    if (tarneeb::test::under_sanitizers(false, true)) GTEST_SKIP() << "run by the release build";
    const Result a = run("bench --signature");
    const Result b = run("bench --signature");
    ASSERT_EQ(a.status, 0);
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.out.rfind("signature ", 0), 0u);
    const Result full = run("bench --rounds 2000");
    EXPECT_EQ(full.status, 0);
    EXPECT_EQ(full.out.substr(0, full.out.find('\n')), a.out.substr(0, a.out.find('\n')));
    EXPECT_NE(full.out.find("rounds/s"), std::string::npos);
}

}  // namespace
