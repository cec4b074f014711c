// GET /api/matches/{id}/analysis?deal=N on the real `tarneeb serve` (issue 14): queued (202),
// polled until done (200), one job for two requests, served from the database afterwards and
// after a restart, the errors (404, 400, 503 analysis_busy, 422 too_slow), and /healthz
// answered while analyses run. One match is played to its end by three bots and a client
// once; each test starts its own server on a copy of that database. No timing assertions:
// polls wait for a positive answer, with a liveness bound only.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tarneeb/core/cards.hpp"
#include "ws_harness.hpp"

namespace tarneeb::server {
namespace {

using namespace testing;

/// A database holding one finished match (played once per test process) and its id.
struct FinishedMatch {
    std::string db;
    std::string id;
    json record;
};

const FinishedMatch& finished_match() {
    static const FinishedMatch m = [] {
        FinishedMatch out;
        out.db = temp_db("analysis-source");
        ServerProcess server(out.db);
        net::io_context ioc;
        Client c(ioc, server.port());
        sign_in(ioc, c, "Layla");
        c.send({{"type", "create"}, {"turn_seconds", 0}});
        EXPECT_TRUE(pump(ioc, [&] { return !c.last("created").is_null(); }));
        c.send({{"type", "join"}, {"table", c.last("created")["table"]}, {"seat", 0}});
        for (int s : {1, 2, 3}) c.send({{"type", "add_bot"}, {"seat", s}});
        c.send({{"type", "start"}});
        EXPECT_TRUE(play(ioc, {&c}, [&] { return c.has_event("match_over"); }));
        for (const auto& f : c.frames) {
            const json j = json::parse(f);
            if (j["type"] == "table")
                for (const auto& e : j["events"])
                    if (e["event"] == "match_over") out.id = e["record"];
        }
        const auto [status, body] = http_get(server.port(), "/api/matches/" + out.id);
        EXPECT_EQ(status, 200);
        out.record = json::parse(body);
        return out;
    }();
    return m;
}

/// A copy of the finished match's database for one test.
std::string analysis_db_copy(const std::string& name) {
    const FinishedMatch& m = finished_match();
    const std::string db = temp_db(name);
    for (const char* suffix : {"", "-wal"})
        if (std::filesystem::exists(m.db + suffix)) std::filesystem::copy_file(m.db + suffix, db + suffix);
    return db;
}

/// The deals of the record with all 52 cards played.
std::vector<int> played_deals(const json& record) {
    std::vector<int> out;
    for (std::size_t i = 0; i < record["deals"].size(); ++i)
        if (record["deals"][i].contains("play") && record["deals"][i]["play"].size() == 52) out.push_back(static_cast<int>(i));
    return out;
}

std::string analysis_target(const std::string& id, int deal) {
    return "/api/matches/" + id + "/analysis?deal=" + std::to_string(deal);
}

/// GETs `target` (with `token` as its bearer token when not empty) until its status is not 202
/// (sleeping retry_after_ms between); the last answer.
std::pair<int, std::string> poll_analysis(unsigned short port, const std::string& target, const std::string& token = {}) {
    const auto end = std::chrono::steady_clock::now() + 300s;  // liveness only
    for (;;) {
        auto r = http_get(port, target, token);
        if (r.first != 202 || std::chrono::steady_clock::now() > end) return r;
        const json j = json::parse(r.second);
        EXPECT_TRUE(j["status"] == "queued" || j["status"] == "running") << r.second;
        // test-wait: a client's pause before it asks again, as the server's retry_after_ms says.
        std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(j["retry_after_ms"].get<int>(), 10, 500)));
    }
}

TEST(AnalysisHttp, QueuedThenDoneThenCachedAndKeptAcrossARestart) {
    const FinishedMatch& m = finished_match();
    ASSERT_FALSE(m.id.empty());
    const auto deals = played_deals(m.record);
    ASSERT_FALSE(deals.empty());
    const int deal = deals.front();
    const std::string db = analysis_db_copy("analysis-cache");
    std::string first_body;
    {
        ServerProcess server(db);
        const auto [status, body] = http_get(server.port(), analysis_target(m.id, deal));
        ASSERT_EQ(status, 202) << body;  // never analysed on the request's thread
        const json pending = json::parse(body);
        EXPECT_TRUE(pending["status"] == "queued" || pending["status"] == "running");
        EXPECT_GT(pending["retry_after_ms"].get<int>(), 0);
        const auto again = http_get(server.port(), analysis_target(m.id, deal));  // the same job
        EXPECT_TRUE(again.first == 202 || again.first == 200) << again.second;

        const auto [done_status, done_body] = poll_analysis(server.port(), analysis_target(m.id, deal));
        ASSERT_EQ(done_status, 200) << done_body;
        first_body = done_body;
        const json a = json::parse(done_body);
        EXPECT_EQ(a["match"], m.id);
        EXPECT_EQ(a["deal"], deal);
        const json& rec_deal = m.record["deals"][static_cast<std::size_t>(deal)];
        ASSERT_EQ(a["positions"].size(), 52u);
        EXPECT_TRUE(a["made"].is_boolean());
        EXPECT_EQ(a["taken"].size(), 2u);
        EXPECT_EQ(a["taken"][0].get<int>() + a["taken"][1].get<int>(), 13);
        EXPECT_TRUE(a["par"].contains("points"));
        EXPECT_TRUE(a.contains("turning_point"));
        for (std::size_t k = 0; k < 52; ++k) {
            const json& p = a["positions"][k];
            EXPECT_EQ(p["index"], k);
            ASSERT_FALSE(p["cards"].empty());
            bool found = false;
            for (const auto& c : p["cards"])
                if (c["card"] == p["played"]) {
                    found = true;
                    // What the played card gave away: its distance from the best card's value.
                    EXPECT_EQ(p["cost"].get<int>(), std::abs(p["best"].get<int>() - c["tricks"].get<int>())) << p.dump();
                }
            EXPECT_TRUE(found) << p.dump();
            if (rec_deal["play"][k].is_string() && rec_deal["play"][k] != "timeout") {
                // The record's card (any notation the record reader takes) is the one analysed.
                EXPECT_EQ(parse_hand(rec_deal["play"][k].get<std::string>()).cards.lowest(),
                          parse_hand(p["played"].get<std::string>()).cards.lowest());
            }
        }
        // Two requests, one job; a third request is served from the database.
        EXPECT_EQ(json::parse(http_get(server.port(), "/metrics.json").second)["analysis"]["done"], 1);
        const auto cached = http_get(server.port(), analysis_target(m.id, deal));
        EXPECT_EQ(cached.first, 200);
        EXPECT_EQ(cached.second, first_body);
        EXPECT_EQ(json::parse(http_get(server.port(), "/metrics.json").second)["analysis"]["done"], 1);
    }
    // A restarted server answers from the database at once.
    ServerProcess server(db);
    const auto after = http_get(server.port(), analysis_target(m.id, deal));
    EXPECT_EQ(after.first, 200);
    EXPECT_EQ(after.second, first_body);
}

TEST(AnalysisHttp, UnknownMatchesAndBadDeals) {
    const FinishedMatch& m = finished_match();
    ServerProcess server(analysis_db_copy("analysis-errors"));
    const int deals = static_cast<int>(m.record["deals"].size());
    EXPECT_EQ(http_get(server.port(), analysis_target("t999-1", 0)).first, 404);
    // The table's next match was never played (a match in progress is not offered either).
    const std::string next = m.id.substr(0, m.id.rfind('-')) + "-2";
    EXPECT_EQ(http_get(server.port(), analysis_target(next, 0)).first, 404);
    for (const std::string& q : {std::string("?deal=abc"), std::string("?deal=-1"), std::string(""),
                                 std::string("?deal="), std::string("?deal=1x"), std::string("?deal=") + std::to_string(deals)}) {
        const auto [status, body] = http_get(server.port(), "/api/matches/" + m.id + "/analysis" + q);
        EXPECT_EQ(status, 400) << q << " " << body;
        EXPECT_EQ(json::parse(body)["error"], "bad_deal") << q;
    }
    // Nothing was queued by any of them.
    EXPECT_EQ(json::parse(http_get(server.port(), "/metrics.json").second)["analysis"],
              (json{{"queued", 0}, {"running", 0}, {"done", 0}, {"failed", 0}}));
}

TEST(AnalysisHttp, HealthzAnswersWhileAnalysesRunAndAFullQueueIsRefused) {
    const FinishedMatch& m = finished_match();
    const auto deals = played_deals(m.record);
    ASSERT_GE(deals.size(), 3u);
    ServerProcess server(analysis_db_copy("analysis-busy"), {"--analysis-threads", "1", "--analysis-queue", "2"});
    EXPECT_EQ(http_get(server.port(), analysis_target(m.id, deals[0])).first, 202);
    EXPECT_EQ(http_get(server.port(), analysis_target(m.id, deals[1])).first, 202);
    // Two jobs of 0.1-0.4 s of CPU each (seconds of wall on a loaded machine) are queued or
    // running: the next request is refused. (Asked for each further deal in turn until one is
    // refused, so a test process paused long enough for a job to end cannot make it pass by.)
    std::size_t refused = 0;
    std::pair<int, std::string> busy;
    for (std::size_t d = 2; d < deals.size() && !refused; ++d) {
        busy = http_get(server.port(), analysis_target(m.id, deals[d]));
        if (busy.first == 503) refused = d;
    }
    ASSERT_NE(refused, 0u) << "no request was refused with two jobs in a queue of two";
    EXPECT_EQ(json::parse(busy.second)["error"], "analysis_busy");
    // The event loop answers /healthz meanwhile.
    const auto health = http_get(server.port(), "/healthz");
    EXPECT_EQ(health.first, 200);
    EXPECT_EQ(json::parse(health.second)["status"], "ok");
    // Both finish; then the refused one is taken.
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deals[0])).first, 200);
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deals[1])).first, 200);
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deals[refused])).first, 200);
}

TEST(AnalysisHttp, OneAddressGetsOnlyItsShareOfTheQueue) {
    const FinishedMatch& m = finished_match();
    const auto deals = played_deals(m.record);
    ASSERT_GE(deals.size(), 3u);
    // A queue of eight, one job per address: this test's requests all come from 127.0.0.1.
    ServerProcess server(analysis_db_copy("analysis-share"),
                         {"--analysis-threads", "1", "--analysis-queue", "8", "--analysis-per-address", "1"});
    EXPECT_EQ(http_get(server.port(), analysis_target(m.id, deals[0])).first, 202);
    // Asked for deal after deal until one is refused (a job that ended meanwhile frees the share).
    std::size_t refused = 0;
    std::pair<int, std::string> busy;
    for (std::size_t d = 1; d < deals.size() && !refused; ++d) {
        busy = http_get(server.port(), analysis_target(m.id, deals[d]));
        if (busy.first == 503) refused = d;
    }
    ASSERT_NE(refused, 0u) << "no request was refused with the address's one job in the queue";
    EXPECT_EQ(json::parse(busy.second), (json{{"error", "analysis_busy"}, {"scope", "address"}}));
    // The same deal asked again is the same job, not a new one: never refused.
    EXPECT_NE(http_get(server.port(), analysis_target(m.id, deals[0])).first, 503);
    // Once the address's job is done, its next one is taken.
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deals[0])).first, 200);
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deals[refused])).first, 200);
}

TEST(AnalysisHttp, AJobOverItsCpuBudgetFailsAndIsNotRetried) {
    const FinishedMatch& m = finished_match();
    const int deal = played_deals(m.record).front();
    const std::string db = analysis_db_copy("analysis-budget");
    {
        // 1 ms of CPU: the deal's table alone takes more (a quarter of a second), so the check
        // before the first position stops the job.
        ServerProcess server(db, {"--analysis-budget-ms", "1"});
        const auto [status, body] = poll_analysis(server.port(), analysis_target(m.id, deal));
        EXPECT_EQ(status, 422) << body;
        EXPECT_EQ(json::parse(body), (json{{"status", "failed"}, {"error", "too_slow"}}));
        EXPECT_EQ(http_get(server.port(), analysis_target(m.id, deal)).first, 422);  // no new job
        const json metrics = json::parse(http_get(server.port(), "/metrics.json").second)["analysis"];
        EXPECT_EQ(metrics["failed"], 1);
        EXPECT_EQ(metrics["queued"], 0);
    }
    // The failure is not stored: a server with the default budget analyses the deal.
    ServerProcess server(db);
    EXPECT_EQ(poll_analysis(server.port(), analysis_target(m.id, deal)).first, 200);
}

// GET /api/fairplay on the real server (issue 27): served with --operator-token-file, to that
// token only; the report is made off the event loop (202, then 200).
TEST(AnalysisHttp, TheFairPlayReportIsTheOperatorsOnly) {
    const std::string token = "f00dfeed0123456789abcdef0123456789abcdef";
    const std::string path = temp_db("operator-token") + ".txt";
    std::ofstream(path) << token << "\n";
    ServerProcess server(temp_db("fairplay-http"), {"--operator-token-file", path});
    EXPECT_EQ(http_get(server.port(), "/api/fairplay").first, 401);
    EXPECT_EQ(http_get(server.port(), "/api/fairplay", token + "0").first, 401);
    const auto [status, body] = poll_analysis(server.port(), "/api/fairplay", token);
    ASSERT_EQ(status, 200) << body;
    EXPECT_EQ(json::parse(body)["matches"], 0);
    // Without the option the path is not served.
    ServerProcess plain(temp_db("fairplay-none"));
    EXPECT_EQ(http_get(plain.port(), "/api/fairplay", token).first, 404);
}

}  // namespace
}  // namespace tarneeb::server
