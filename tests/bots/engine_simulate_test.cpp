// `tarneeb simulate` keeps an outside engine's process for the whole run (issue 29;
// docs/engine-protocol.md "Processes and limits"): one process per engine seat per worker
// thread however many units it plays, each unit announced by `newmatch` right after the unit's
// seed (`setoption name seed`), the same summary whatever --threads for a seeded engine, and
// after a fault that replaced the engine, the next unit starts it again.
#include <gtest/gtest.h>

#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_cli_util.hpp"
#include "tarneeb/core/random.hpp"

namespace {

namespace fs = std::filesystem;
using tarneeb::derive_seed;
using tarneeb::test::count;
using tarneeb::test::kPatient;
using tarneeb::test::read_file;
using tarneeb::test::Result;
using tarneeb::test::run;
using tarneeb::test::temp_dir;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = text.find('\n', at);
        out.push_back(text.substr(at, end - at));
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

/// What one engine process of a duplicate run with team 0 an engine read on its stdin.
struct Told {
    int slot = -1;            ///< 1 (seat 0 first: --team0's x) or 3 (seat 2 first: x2); -1 none
    std::set<int> units;      ///< the units it was given, by their seeds
    int newmatches = 0;
    std::string error;        ///< what does not fit, or ""
};

/// Reads one process's stdin: every `setoption name seed value S` must be unit k's seed for
/// the slot (derive_seed(derive_seed(run_seed, k), slot), as cmd_simulate.cpp gives each of
/// the unit's four bots), and the next lines the unit's `newmatch` in the slot's seat and its
/// deal (dealer k mod 4).
Told told(const std::string& text, std::uint64_t run_seed, int units) {
    std::map<std::uint64_t, std::pair<int, int>> unit_of;  // seed -> (unit, slot)
    for (int k = 0; k < units; ++k)
        for (int slot : {1, 3}) unit_of[derive_seed(derive_seed(run_seed, static_cast<std::uint64_t>(k)), slot)] = {k, slot};
    Told t;
    const auto fail = [&t](const std::string& why) {
        t.error = why;
        return t;
    };
    const auto lines = lines_of(text);
    const std::string set_seed = "setoption name seed value ";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        t.newmatches += lines[i].starts_with("newmatch ");
        if (!lines[i].starts_with(set_seed)) continue;
        std::uint64_t s = 0;
        const std::string v = lines[i].substr(set_seed.size());
        const auto read = std::from_chars(v.data(), v.data() + v.size(), s);
        const auto it = unit_of.find(s);
        if (read.ec != std::errc() || it == unit_of.end()) return fail("not a unit's seed: " + lines[i]);
        const auto [k, slot] = it->second;
        if (t.slot >= 0 && slot != t.slot) return fail("seeds of two slots");
        t.slot = slot;
        if (!t.units.insert(k).second) return fail("unit " + std::to_string(k) + " twice");
        const std::string seat = slot == 1 ? "0" : "2";
        if (i + 2 >= lines.size() || !lines[i + 1].starts_with("newmatch seat " + seat + " ") ||
            !lines[i + 2].starts_with("deal dealer " + std::to_string(k % 4) + " "))
            return fail("unit " + std::to_string(k) + "'s seed is not followed by its newmatch and deal");
    }
    return t;
}

// `tarneeb engine --bot heuristic` (it declares `seed`) behind `tee`, which keeps what each
// process read; team 0 is the engine, so two engine seats (x in seat 0, x2 in seat 2).
TEST(EngineSimulate, AnEngineSeatKeepsOneProcessPerThreadToldEachUnitAndItsSeed) {
    constexpr int kUnits = 6;
    constexpr std::uint64_t kSeed = 21;
    const std::string mode = " --team1 random --deals 6 --duplicate --seed 21";
    const Result in_process = run("simulate --team0 heuristic" + mode);
    ASSERT_EQ(in_process.status, 0);
    auto expected = nlohmann::json::parse(in_process.out);
    expected.erase("team0");

    for (const int threads : {1, 2}) {
        const fs::path dir = temp_dir("keep" + std::to_string(threads)), err = dir / "stderr.log";
        const fs::path stdins = dir / "stdin";
        fs::create_directories(stdins);
        const std::string engine = "'engine:sh:tee " + (stdins / "$$.txt").string() + " | " + TARNEEB_BINARY +
                                   " engine --bot heuristic'";
        const Result r = run("simulate --team0 " + engine + mode + " --threads " + std::to_string(threads) + kPatient +
                             " 2>" + err.string());
        ASSERT_EQ(r.status, 0) << read_file(err);
        // The same summary as the heuristic in-process, whatever --threads: each unit's seed
        // reached the engine before the unit.
        auto summary = nlohmann::json::parse(r.out);
        summary.erase("team0");
        EXPECT_EQ(summary, expected) << threads;

        const std::string log = read_file(err);
        EXPECT_EQ(count(log, "event=fault"), 0) << log;
        EXPECT_EQ(count(log, "event=restart"), 0) << log;
        const int started = count(log, "event=started");
        // Each process's units, by slot: the units of the two processes of one thread are the
        // same, and each slot's processes share out all the units.
        std::map<int, std::multiset<std::set<int>>> by_slot;
        int processes = 0;
        for (const auto& f : fs::directory_iterator(stdins)) {
            ++processes;
            const Told t = told(read_file(f.path()), kSeed, kUnits);
            EXPECT_EQ(t.error, "") << f.path();
            EXPECT_EQ(t.newmatches, 2 * static_cast<int>(t.units.size())) << f.path();  // both deals of each pair
            by_slot[t.slot].insert(t.units);
        }
        EXPECT_EQ(processes, started);
        ASSERT_EQ(by_slot.size(), 2u);
        EXPECT_EQ(by_slot[1], by_slot[3]);
        for (const auto& [slot, unit_sets] : by_slot) {
            std::multiset<int> all;
            for (const auto& units : unit_sets) all.insert(units.begin(), units.end());
            EXPECT_EQ(all, (std::multiset<int>{0, 1, 2, 3, 4, 5})) << "slot " << slot;
        }
        // One process per engine seat per thread (a thread that found no unit left starts none).
        const int threads_that_played = static_cast<int>(by_slot[1].size());
        EXPECT_TRUE(threads_that_played >= 1 && threads_that_played <= threads) << threads_that_played;
        EXPECT_EQ(started, 2 * threads_that_played) << log;
        if (threads == 1) {
            EXPECT_EQ(started, 2);
        }
        fs::remove_all(dir);
    }
}

// The first engine process of the run crashes at its third decision (in unit 0); with
// --engine-max-faults 1 the heuristic plays that seat for the rest of the unit, and the next
// unit starts the engine again in that seat, which then plays on to the end of the run.
TEST(EngineSimulate, AfterAFaultTheNextUnitRestartsTheEngine) {
    REQUIRE_PYTHON();
    const fs::path dir = temp_dir("restart"), logs = dir / "stdin", err = dir / "stderr.log";
    fs::create_directories(logs);
    const std::string examples = std::string(TARNEEB_EXAMPLES) + "/engines/";
    const std::string python = TARNEEB_PYTHON;
    // mkdir succeeds once: only the first process started crashes.
    const std::string engine = "'engine:sh:if mkdir " + (dir / "crashed").string() + " 2>/dev/null; then exec " + python +
                               " " + examples + "fault_engine.py crash --after 3; else exec " + python + " " + examples +
                               "simple_engine.py --log-dir " + logs.string() + "; fi'";
    const Result r = run("simulate --team0 " + engine + " --team1 heuristic --deals 3 --duplicate --seed 5"
                         " --engine-max-faults 1" + kPatient + " 2>" + err.string());
    ASSERT_EQ(r.status, 0) << read_file(err);
    const auto s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["deals_played"], 6);
    EXPECT_EQ(s["illegal_actions"], 1);
    const std::string log = read_file(err);
    EXPECT_EQ(count(log, "event=fault fault=crash"), 1) << log;
    EXPECT_EQ(count(log, "event=replaced"), 1) << log;
    EXPECT_EQ(count(log, "event=restart"), 1) << log;
    EXPECT_EQ(count(log, "event=started"), 3) << log;  // two seats, and the restart
    EXPECT_LT(log.find("event=replaced"), log.find("event=restart")) << log;
    // The restarted process began with unit 1 (dealer 1) and played to the end of the run; the
    // other seat's process played all three units.
    std::multiset<std::pair<std::string, int>> first_deal_and_matches;
    for (const auto& f : fs::directory_iterator(logs)) {
        const std::string text = read_file(f.path());
        const auto deal = text.find("deal dealer ");
        ASSERT_NE(deal, std::string::npos) << f.path();
        first_deal_and_matches.insert({text.substr(deal, 13), count(text, "newmatch ")});
    }
    EXPECT_EQ(first_deal_and_matches,
              (std::multiset<std::pair<std::string, int>>{{"deal dealer 0", 6}, {"deal dealer 1", 4}}));
    fs::remove_all(dir);
}

}  // namespace
