// Outside engines through the real executable (TARNEEB_BINARY): `tarneeb simulate` and `tarneeb
// play` with engine:CMD (the Python example engine against the heuristic, whole matches and
// duplicate), every fault path ending with a finished match and a log line naming the engine
// and its line, `tarneeb engine` speaking the protocol, and the hidden-information check on
// the very bytes each engine read on its stdin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "engine_cli_util.hpp"
#include "engine_leaks.hpp"

namespace {

namespace fs = std::filesystem;
using tarneeb::test::Result;
using tarneeb::test::run;
using tarneeb::test::count;
using tarneeb::test::engine;
using tarneeb::test::kPatient;
using tarneeb::test::read_file;
using tarneeb::test::temp_dir;

TEST(EngineCli, ThePythonEnginePlaysWholeMatchesAndDuplicateAgainstTheHeuristic) {
    REQUIRE_PYTHON();
    const Result m = run("simulate --team0 " + engine("simple_engine.py") + " --team1 heuristic --matches 2 --target 21 --seed 4" + kPatient);
    ASSERT_EQ(m.status, 0) << m.out;
    const auto s = nlohmann::json::parse(m.out);
    EXPECT_EQ(s["matches"], 2);
    EXPECT_EQ(s["team0_wins"].get<int>() + s["team1_wins"].get<int>() + s["draws"].get<int>(), 2);
    EXPECT_EQ(s["illegal_actions"], 0);
    EXPECT_GT(s["contracts_declared"][0].get<int>(), 0);  // it bids

    const Result d = run("simulate --team0 heuristic --team1 " + engine("simple_engine.py") +
                         " --deals 6 --duplicate --rules classic --seed 4" + kPatient);
    ASSERT_EQ(d.status, 0) << d.out;
    const auto ds = nlohmann::json::parse(d.out);
    EXPECT_EQ(ds["deals_played"], 12);
    EXPECT_EQ(ds["illegal_actions"], 0);
    EXPECT_TRUE(ds["duplicate"]["mean_diff"].is_number());
}

// docs/engine-protocol.md "A full example session": the block is what the documented command
// makes the engine in seat 2 read and write, byte for byte (simple_engine.py --transcript-dir
// records it), so that neither the document nor the host can change without the other. The
// block leaves out the middle of the run's second pair (one line "…"): the session begins with
// the part before it and ends with the part after it.
TEST(EngineCli, TheDocumentedExampleSessionIsWhatTheHostWrites) {
    REQUIRE_PYTHON();
    const std::string doc = read_file(fs::path(TARNEEB_DOCS) / "engine-protocol.md");
    const auto section = doc.find("\n## A full example session\n");
    ASSERT_NE(section, std::string::npos);
    const auto open = doc.find("\n```\n", section);
    ASSERT_NE(open, std::string::npos);
    const auto close = doc.find("\n```\n", open + 5);
    ASSERT_NE(close, std::string::npos);
    std::string intro = doc.substr(section, open - section);
    std::replace(intro.begin(), intro.end(), '\n', ' ');
    // The command the document gives (the test runs it with the interpreter and the example's
    // paths of this build, and time limits no loaded machine reaches — also for its exit after
    // `quit`, the transcript's last line; the budget is the default, since `go` shows it).
    ASSERT_NE(intro.find("`tarneeb simulate --team0 engine:\"python3 examples/engines/simple_engine.py\" --team1 "
                         "heuristic --deals 2 --duplicate --seed 3 --engine-option margin=4`"),
              std::string::npos)
        << intro;
    ASSERT_NE(intro.find("seat 2"), std::string::npos) << intro;
    const std::string block = doc.substr(open + 5, close + 1 - (open + 5));
    const std::string elided = "\n…\n";
    const auto cut = block.find(elided);
    ASSERT_NE(cut, std::string::npos);
    ASSERT_EQ(block.find(elided, cut + 1), std::string::npos) << "one elision only";
    const std::string head = block.substr(0, cut + 1), tail = block.substr(cut + elided.size());

    const fs::path dir = temp_dir("example");
    const Result r = run("simulate --team0 " + engine("simple_engine.py", "--transcript-dir " + dir.string()) +
                         " --team1 heuristic --deals 2 --duplicate --seed 3 --engine-option margin=4"
                         " --engine-startup-ms 30000 --engine-grace-ms 30000 --engine-quit-ms 30000");
    ASSERT_EQ(r.status, 0) << r.out;
    // Seats 0 and 2 each had their engine for the whole run; the session of the one that
    // began in seat 2.
    int files = 0;
    std::string session;
    for (const auto& f : fs::directory_iterator(dir)) {
        ++files;
        const std::string t = read_file(f.path());
        if (t.find("\n> newmatch seat 2 ") != std::string::npos && t.find("\n> newmatch seat 0 ") == std::string::npos)
            session = t;
    }
    EXPECT_EQ(files, 2);
    ASSERT_GT(session.size(), head.size() + tail.size());
    EXPECT_EQ(session.substr(0, head.size()), head);
    EXPECT_EQ(session.substr(session.size() - tail.size()), tail);
    EXPECT_EQ(count(session, "\n> newmatch seat 2 "), 2);  // both pairs, each in seat 2 then seat 3
    EXPECT_EQ(count(session, "\n> newmatch seat 3 "), 2);
    fs::remove_all(dir);
}

TEST(EngineCli, OurBotBehindTarneebEngineGivesTheSameSummaryAsInProcess) {
    const std::string wrapped = "'engine:" + std::string(TARNEEB_BINARY) + " engine --bot heuristic'";
    for (const std::string mode : {"--matches 2", "--deals 5 --duplicate --rules classic"}) {
        Result a = run("simulate --team0 " + wrapped + " --team1 random --seed 9 " + mode + " 2>/dev/null");
        Result b = run("simulate --team0 heuristic --team1 random --seed 9 " + mode);
        ASSERT_EQ(a.status, 0);
        auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
        ja.erase("team0");
        jb.erase("team0");
        EXPECT_EQ(ja, jb) << mode;
    }
}

TEST(EngineCli, EveryFaultPlaysTheDefaultActionIsLoggedAndTheMatchFinishes) {
    REQUIRE_PYTHON();
    const fs::path dir = temp_dir("faults");
    struct Case {
        std::string mode, fault, line;
    };
    for (const Case& c : {Case{"crash", "crash", "line=\"\""}, Case{"hang", "timeout", "line=\"\""},
                          Case{"garbage", "garbage", "line=\"this is not an action\""},
                          Case{"illegal", "illegal", "line=\"action "}}) {
        const fs::path err = dir / (c.mode + ".log");
        const std::string spec = engine("fault_engine.py", c.mode + " --after 2");
        const Result r = run("simulate --team0 " + spec + " --team1 heuristic --matches 1 --target 11 --seed 3"
                             " --engine-startup-ms 30000 --engine-budget-ms 200 --engine-grace-ms 100 --engine-max-faults 2 2>" +
                             err.string());
        ASSERT_EQ(r.status, 0) << c.mode << "\n" << read_file(err);
        const auto s = nlohmann::json::parse(r.out);
        EXPECT_EQ(s["matches"], 1);
        // Both seats of team 0 fault twice (their restarted engine answers once more first),
        // and play the default action each time; the heuristic plays the rest.
        EXPECT_EQ(s["illegal_actions"], 4) << c.mode;
        const std::string log = read_file(err);
        const std::string name = "engine=\"" + std::string(TARNEEB_PYTHON) + " " + TARNEEB_EXAMPLES +
                                 "/engines/fault_engine.py " + c.mode + " --after 2\"";
        EXPECT_EQ(count(log, name + " event=fault fault=" + c.fault), 4) << log;
        EXPECT_EQ(count(log, "fault=" + c.fault + " seat="), 4);
        EXPECT_GE(count(log, c.line), 4) << log;
        EXPECT_EQ(count(log, "event=restart"), 2);
        EXPECT_EQ(count(log, "event=replaced by=\"heuristic\""), 2);
    }
    fs::remove_all(dir);
}

TEST(EngineCli, AnEngineReadsNoCardItsSeatMayNotSee) {
    REQUIRE_PYTHON();
    const fs::path dir = temp_dir("hidden");
    for (const std::string mode : {"--matches 2 --target 21", "--deals 4 --duplicate"}) {
        const fs::path logs = dir / "stdin", records = dir / "records";
        fs::remove_all(logs);
        fs::remove_all(records);
        fs::create_directories(logs);
        const Result r = run("simulate --team0 " + engine("simple_engine.py", "--log-dir " + logs.string()) +
                             " --team1 heuristic --seed 11 --records " + records.string() + " " + mode + kPatient);
        ASSERT_EQ(r.status, 0) << r.out;
        // Every seat's real hand in every deal played, from the records.
        std::map<int, std::set<std::string>> hands_by_seat;
        for (const auto& f : fs::directory_iterator(records)) {
            const auto rec = nlohmann::json::parse(read_file(f.path()));
            for (const auto& deal : rec["deals"])
                for (int seat = 0; seat < 4; ++seat) {
                    // Record hands are in the hand order of to_string(CardSet), as is the deal line.
                    hands_by_seat[seat].insert(deal["hands"][static_cast<std::size_t>(seat)].get<std::string>());
                }
        }
        int files = 0, deals = 0;
        for (const auto& f : fs::directory_iterator(logs)) {
            const std::string transcript = read_file(f.path());
            const auto report = tarneeb::test::engine_leaks(transcript);
            EXPECT_TRUE(report.leaks.empty()) << f.path() << ": " << report.leaks.front();
            EXPECT_GT(report.cards_checked, 13);
            // The hand it was told is its seat's real hand (the check above is not vacuous).
            for (const auto& [seat, hand] : report.hands) {
                EXPECT_TRUE(seat == 0 || seat == 2 || mode.find("duplicate") != std::string::npos) << seat;
                EXPECT_TRUE(hands_by_seat[seat].count(hand)) << "seat " << seat << ": " << hand;
            }
            ++files;
            deals += report.deals;
        }
        // One process per engine seat for the whole run (one thread), told every deal of it.
        EXPECT_EQ(files, 2);
        if (mode.find("duplicate") != std::string::npos) {
            EXPECT_EQ(deals, 2 * 8);
        } else {
            EXPECT_GT(deals, 2 * 4);
        }
    }
    fs::remove_all(dir);
}

TEST(EngineCli, PlayAgainstThreeEngines) {
    REQUIRE_PYTHON();
    const fs::path dir = temp_dir("play");
    std::string block = "7\npass\ns\n";
    for (const char* s : {"S", "H", "D", "C"})
        for (const char* r : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) block += std::string(r) + s + "\n";
    {
        std::ofstream in(dir / "input.txt");
        for (int i = 0; i < 1500; ++i) in << block;
    }
    const Result r = run("play --bots " + engine("simple_engine.py") + kPatient + " --seed 5 --target 11 --record " +
                         (dir / "match.json").string() + " < " + (dir / "input.txt").string() + " 2>&1");
    EXPECT_EQ(r.status, 0) << r.out.substr(0, 2000);
    EXPECT_NE(r.out.find("Match over"), std::string::npos) << r.out.substr(r.out.size() > 2000 ? r.out.size() - 2000 : 0);
    EXPECT_EQ(r.out.find("event=fault"), std::string::npos);
    EXPECT_EQ(count(r.out, "event=started"), 3);  // one engine per seat
    fs::remove_all(dir);
}

TEST(EngineCli, TarneebEngineSpeaksTheProtocol) {
    const fs::path dir = temp_dir("speak");
    {
        std::ofstream in(dir / "session.txt");
        in << "tarneeb-engine 1\n"
              "setoption name samples value 3\n"  // not an option of the heuristic: reported, ignored
              "setoption name seed value 5\n"
              "newmatch seat 1 rules levantine auction open scoring bid_value pass_out_dealer next min_bid 7 "
              "max_bid 13 target 31 round_cap 50 pass_out_close 8 bracket_tiebreak false total0 0 total1 0\n"
              "deal dealer 0 hand 2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS KS\n"
              "go budget_ms 1000 legal pass 7 8 9 10 11 12 13\n"
              "call 1 7\ncall 2 8\ncall 3 pass\ncall 0 pass\ncall 1 pass\ncontract 2 8\ntrump 2 H\n"
              "play 2 AH\nplay 3 5H\nplay 0 4H\n"
              "go budget_ms 1000 legal 9H\n"
              "quit\n";
    }
    const Result r = run("engine --bot heuristic < " + (dir / "session.txt").string() + " 2>" + (dir / "err").string());
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out,
              "id name tarneeb heuristic\nid author the tarneeb project\n"
              "option name seed type int default 1 min 0\nready\naction 7\naction 9H\n");
    EXPECT_NE(read_file(dir / "err").find("no option samples"), std::string::npos);

    const Result pimc = run("engine --bot pimc --samples 4 < /dev/null");
    EXPECT_EQ(pimc.status, 0);
    std::ofstream(dir / "v1") << "tarneeb-engine 1\n";
    std::ofstream(dir / "v2") << "tarneeb-engine 2\n";
    const Result hello = run("engine --bot pimc --samples 4 < " + (dir / "v1").string());
    EXPECT_NE(hello.out.find("option name samples type int default 4 min 1 max 10000\n"), std::string::npos) << hello.out;
    const Result v2 = run("engine < " + (dir / "v2").string());
    EXPECT_EQ(v2.status, 1);
    EXPECT_TRUE(v2.out.starts_with("error ")) << v2.out;
    EXPECT_EQ(run("engine --bot nobody < /dev/null 2>/dev/null").status, 2);
    fs::remove_all(dir);
}

TEST(EngineCli, UsageErrors) {
    EXPECT_EQ(run("simulate --team0 engine: --matches 1 2>/dev/null").status, 2);
    EXPECT_EQ(run("simulate --team0 \"engine:a 'b\" --matches 1 2>/dev/null").status, 2);
    EXPECT_EQ(run("play --bots engine: < /dev/null 2>/dev/null").status, 2);
    for (const char* bad : {"x", "=cmd", "Bad=cmd", "heuristic=cmd", "e=", "e=sh:"})
        EXPECT_EQ(run(std::string("serve --port 0 --db :memory: --engine '") + bad + "' 2>/dev/null").status, 2) << bad;
    EXPECT_EQ(run("serve --port 0 --db :memory: --engine e=x --engine e=y 2>/dev/null").status, 2);
    const Result help = run("simulate --help");
    EXPECT_NE(help.out.find("engine:CMD"), std::string::npos);
    EXPECT_NE(help.out.find("--engine-budget-ms"), std::string::npos);
    EXPECT_NE(run("serve --help").out.find("--engine"), std::string::npos);
    EXPECT_NE(run("engine --help").out.find("docs/engine-protocol.md"), std::string::npos);
}

}  // namespace
