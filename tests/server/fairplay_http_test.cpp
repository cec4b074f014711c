// GET /api/fairplay, the operator's fair-play report (issue 27; hall_fairplay.cpp): not served
// without an operator token, refused without the right one, made on the analysis queue from
// the stored rated matches and their players' ratings, kept until asked for fresh.
#include <gtest/gtest.h>

#include "hall_harness.hpp"

namespace tarneeb::server::testing {
namespace {

using nlohmann::json;

const std::string kToken = "0123456789abcdef0123456789abcdef-operator";

/// A hall whose operator token is kToken, with one rated match of four people played to its end.
struct Reported : HallHarness {
    static HallConfig with_token() {
        HallConfig c = HallHarness::config();
        c.operator_token = kToken;
        return c;
    }
    Reported() : HallHarness(":memory:", with_token()) {
        std::vector<ConnId> cs{connect(), connect(), connect(), connect()};
        seat_four(*this, cs, {{"turn_seconds", 0}, {"target", 1}});
        send(cs[0], {{"type", "start"}});
        play(cs);
        settle();
    }
};

TEST(FairplayHttp, NotServedWithoutAnOperatorToken) {
    HallHarness h;
    const auto r = h.get("/api/fairplay", kToken);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404);
    EXPECT_EQ(json::parse(r->body)["error"], "not_found");
}

TEST(FairplayHttp, OnlyTheOperatorsTokenIsAnswered) {
    Reported h;
    for (const std::string& wrong : {std::string(), kToken.substr(0, kToken.size() - 1), kToken + "x",
                                     std::string("1123456789abcdef0123456789abcdef-operator")}) {
        const auto r = h.get("/api/fairplay", wrong);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 401) << "'" << wrong << "'";
        EXPECT_EQ(json::parse(r->body)["error"], "unauthorized");
        EXPECT_EQ(r->body.find("Layla"), std::string::npos);
    }
    // A player's own sign-in token is not the operator's.
    const ConnId c = h.connect();
    const std::string player = h.sign_in(c, "Nour");
    EXPECT_EQ(h.get("/api/fairplay", player)->status, 401);
}

TEST(FairplayHttp, BadParametersAreRefusedAndStartNothing) {
    Reported h;
    for (const char* q : {"?matches=0", "?matches=5001", "?matches=x", "?matches=", "?fresh=2", "?matches=-1"}) {
        const auto r = h.get(std::string("/api/fairplay") + q, kToken);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << q;
    }
    // Nothing was started: the first good request starts the job.
    EXPECT_EQ(h.get("/api/fairplay", kToken)->status, 202);
}

TEST(FairplayHttp, TheReportIsMadeOffTheLoopFromTheRatedMatchesThenKept) {
    Reported h;
    // The first request starts the job (202); the harness runs it to its end on the real
    // analysis thread before the next request.
    const auto first = h.get("/api/fairplay", kToken);
    ASSERT_TRUE(first);
    ASSERT_EQ(first->status, 202) << first->body;
    EXPECT_EQ(json::parse(first->body)["status"], "running");
    const auto done = h.get("/api/fairplay", kToken);
    ASSERT_TRUE(done);
    ASSERT_EQ(done->status, 200) << done->body;
    const json report = json::parse(done->body);
    EXPECT_EQ(report["matches"], 1);
    EXPECT_EQ(report["rejected"], 0);
    ASSERT_EQ(report["players"].size(), 4u);
    for (const json& p : report["players"]) {
        EXPECT_GT(p["decisions"].get<int>(), 0) << p;
        EXPECT_FALSE(p["flagged"].get<bool>()) << "one deal is under min_decisions";
        // Each player's rating, as stored after the match, went into its band.
        EXPECT_DOUBLE_EQ(p["rating"].get<double>(), h.storage.rating(p["name"].get<std::string>())) << p;
    }
    EXPECT_EQ(report["partnerships"].size(), 2u);
    // Asked again: the same report, no new job. `fresh=1` makes a new one.
    EXPECT_EQ(h.get("/api/fairplay", kToken)->body, done->body);
    EXPECT_EQ(h.get("/api/fairplay?fresh=1", kToken)->status, 202);
    EXPECT_EQ(h.get("/api/fairplay", kToken)->status, 200);
    // Another number of matches is another report.
    EXPECT_EQ(h.get("/api/fairplay?matches=10", kToken)->status, 202);
}

}  // namespace
}  // namespace tarneeb::server::testing
