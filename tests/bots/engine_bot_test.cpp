// EngineBot with real processes (include/tarneeb/bots/engine_bot.hpp): our own bots behind
// `tarneeb engine` play exactly as they do in-process, the Python example engine plays whole
// matches, and every fault path of examples/engines/fault_engine.py ends in the rules' default
// action, a log line with the engine's name and the offending line, a restart, and after
// max_faults the fallback bot; the match always finishes and no decision waits much longer
// than the budget plus the grace. Processes die with their bot, with everything they started.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using bots::EngineBot;
using bots::EngineConfig;
using bots::EngineFault;

#define REQUIRE_PYTHON() \
    if (std::string(TARNEEB_PYTHON).empty()) GTEST_SKIP() << "no python3 found by CMake"

std::string example(const std::string& file) { return std::string(TARNEEB_EXAMPLES) + "/engines/" + file; }

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tarneeb_engine_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// Collects an EngineBot's log lines (from any thread).
class Logs {
public:
    bots::EngineLogger logger() {
        return [this](bots::EngineLogLevel, const std::string& line) {
            std::lock_guard lock(mutex_);
            lines_.push_back(line);
        };
    }
    int count(const std::string& part) const {
        std::lock_guard lock(mutex_);
        int n = 0;
        for (const auto& l : lines_) n += l.find(part) != std::string::npos;
        return n;
    }
    std::string all() const {
        std::lock_guard lock(mutex_);
        std::string out;
        for (const auto& l : lines_) out += l + "\n";
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::string> lines_;
};

EngineConfig config(const std::string& name, std::vector<std::string> argv, Logs& logs) {
    EngineConfig c;
    c.name = name;
    c.argv = std::move(argv);
    c.log = logs.logger();
    c.budget_ms = 2000;
    c.startup_ms = 10000;  // a loaded test machine: a slow start is not what these tests are about
    c.limits.guard = TARNEEB_BINARY;  // this test program is not tarneeb: its guard is
    return c;
}

/// Process limits with the guard this test program needs (it is not tarneeb).
bots::ProcessLimits guarded() {
    bots::ProcessLimits l;
    l.guard = TARNEEB_BINARY;
    return l;
}

EngineConfig python(const std::string& name, const std::string& script, std::vector<std::string> args, Logs& logs) {
    std::vector<std::string> argv{TARNEEB_PYTHON, example(script)};
    argv.insert(argv.end(), args.begin(), args.end());
    return config(name, std::move(argv), logs);
}

/// An EngineBot seen from the loop: for each decision that faulted, the action the loop then
/// applied must be the rules' default action; it also times every decision and checks that
/// the process of a faulting engine is gone.
class Watch final : public bots::Bot {
public:
    explicit Watch(EngineBot& engine) : engine_(engine) {}
    std::string_view name() const override { return engine_.name(); }
    Action decide_call(const SeatView& v) override { return ask(v); }
    Action decide_trump(const SeatView& v) override { return ask(v); }
    Action decide_card(const SeatView& v) override { return ask(v); }
    void observe(const SeatView& v, Seat actor, Action a) override {
        if (expected_ && actor == v.seat()) {
            EXPECT_EQ(a, *expected_) << "the loop did not play the default action after a fault";
            ++defaults_played;
            expected_.reset();
        }
        engine_.observe(v, actor, a);
    }

    int decisions = 0;
    int defaults_played = 0;
    std::vector<EngineFault> faults;
    std::chrono::milliseconds slowest_fault{0};

private:
    Action ask(const SeatView& v) {
        ++decisions;
        const pid_t before = engine_.pid();
        const auto t0 = std::chrono::steady_clock::now();
        try {
            return engine_.decide(v);
        } catch (const bots::EngineError& e) {
            faults.push_back(e.fault());
            slowest_fault = std::max(slowest_fault, std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        std::chrono::steady_clock::now() - t0));
            expected_ = v.default_action();
            if (before > 0) {
                EXPECT_TRUE(::kill(before, 0) == -1 && errno == ESRCH) << "the faulty engine still runs";
            }
            EXPECT_EQ(engine_.pid(), -1);
            throw;
        }
    }
    EngineBot& engine_;
    std::optional<Action> expected_;
};

/// A short match: the engine in seat 0, heuristic bots elsewhere.
Match engine_match(bots::Bot& player, std::uint64_t seed, int target = 11) {
    Rules rules = kLevantine;
    rules.target = target;
    auto b1 = bots::make_bot("heuristic", 1), b2 = bots::make_bot("heuristic", 2), b3 = bots::make_bot("heuristic", 3);
    return bots::play_match(rules, Seat::s0, seed, {&player, b1.get(), b2.get(), b3.get()});
}

TEST(EngineBot, OurOwnBotBehindTheProtocolPlaysExactlyAsItDoesInProcess) {
    Logs logs;
    for (const Rules& rules : {kLevantine, kClassic}) {
        for (std::uint64_t k = 0; k < 2; ++k) {
            // Seats 0 and 2: `tarneeb engine --bot heuristic` (seeded through the seed option).
            EngineBot e0(config("e0", {TARNEEB_BINARY, "engine", "--bot", "heuristic"}, logs), derive_seed(k, 1));
            EngineBot e2(config("e2", {TARNEEB_BINARY, "engine", "--bot", "heuristic"}, logs), derive_seed(k, 3));
            auto h0 = bots::make_bot("heuristic", derive_seed(k, 1)), h2 = bots::make_bot("heuristic", derive_seed(k, 3));
            auto y1 = bots::make_bot("random", derive_seed(k, 2)), y3 = bots::make_bot("random", derive_seed(k, 4));
            auto z1 = bots::make_bot("random", derive_seed(k, 2)), z3 = bots::make_bot("random", derive_seed(k, 4));
            bots::LoopStats stats;
            const Match through = bots::play_match(rules, seat(static_cast<int>(k)), k, {&e0, y1.get(), &e2, y3.get()}, &stats);
            const Match inside = bots::play_match(rules, seat(static_cast<int>(k)), k, {h0.get(), z1.get(), h2.get(), z3.get()});
            EXPECT_EQ(records::record_json(through), records::record_json(inside));
            EXPECT_EQ(stats.illegal_actions, 0u);
            EXPECT_EQ(e0.faults() + e2.faults(), 0);
            EXPECT_EQ(e0.starts(), 1);
            EXPECT_EQ(e0.engine_name(), "tarneeb heuristic");
        }
    }
    EXPECT_EQ(logs.count("fault="), 0) << logs.all();
}

/// Plays the rules' default action at every turn: in the auction, pass.
class DefaultBot final : public bots::Bot {
public:
    std::string_view name() const override { return "default"; }
    Action decide_call(const SeatView& v) override { return v.default_action(); }
    Action decide_trump(const SeatView& v) override { return v.default_action(); }
    Action decide_card(const SeatView& v) override { return v.default_action(); }
};

// EngineBot::new_match, as `tarneeb simulate` uses it between units: the same process, the new
// seed before the new match, and `newmatch` even when nothing else would tell the engine that
// a match began. Here a match that closed at 0-0 (one deal passed out, pass_out_close 1) is
// followed by the same deal in the same seat, which the feed alone would take for the deal
// the engine already knows. A shell engine declares `seed` and passes; `tee` keeps its stdin.
TEST(EngineBot, NewMatchKeepsTheProcessSendsTheSeedAndAnnouncesTheMatch) {
    Logs logs;
    const fs::path dir = temp_dir("new_match"), stdin_copy = dir / "stdin.txt";
    const std::string script = "tee " + stdin_copy.string() +
                               " | while read -r word rest; do case $word in"
                               " tarneeb-engine) printf 'option name seed type int default 1\\nready\\n' ;;"
                               " go) set -- $rest; echo \"action $4\" ;;"
                               " quit) exit 0 ;; esac; done";
    Rules rules = kLevantine;
    rules.pass_out_close = 1;
    {
        EngineBot bot(config("passer", {"/bin/sh", "-c", script}, logs), 1);
        DefaultBot d1, d2, d3;
        const Match first = bots::play_match(rules, Seat::s0, 5, {&bot, &d1, &d2, &d3});
        ASSERT_EQ(first.status(), MatchStatus::closed);
        const pid_t first_pid = bot.pid();
        bot.new_match(2);
        const Match second = bots::play_match(rules, Seat::s0, 5, {&bot, &d1, &d2, &d3});
        ASSERT_EQ(second.status(), MatchStatus::closed);
        EXPECT_EQ(bot.pid(), first_pid);
        EXPECT_EQ(bot.starts(), 1);
        EXPECT_EQ(bot.faults(), 0) << logs.all();
    }
    // What the engine read, up to its last "go" (the lines after it may not have reached the
    // file when the process was stopped): the first word or two of each line of the game.
    std::vector<std::string> told;
    std::ifstream in(stdin_copy);
    for (std::string line; std::getline(in, line);)
        for (const char* kind : {"setoption ", "newmatch ", "deal ", "go ", "passout"})
            if (line.starts_with(kind)) told.push_back(line.substr(0, line.find(' ', line.find(' ') + 1)));
    told.resize(std::min<std::size_t>(told.size(), 9));
    EXPECT_EQ(told, (std::vector<std::string>{"setoption name", "newmatch seat", "deal dealer", "go budget_ms", "passout",
                                              "setoption name", "newmatch seat", "deal dealer", "go budget_ms"}));
    const std::string all = [&] {
        std::ifstream f(stdin_copy);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }();
    EXPECT_NE(all.find("setoption name seed value 1\nnewmatch seat 0 "), std::string::npos) << all;
    EXPECT_NE(all.find("\npassout\nsetoption name seed value 2\nnewmatch seat 0 "), std::string::npos) << all;
    fs::remove_all(dir);
}

TEST(EngineBot, ThePythonExampleEnginePlaysWholeMatches) {
    REQUIRE_PYTHON();
    Logs logs;
    for (std::uint64_t seed : {1, 2}) {
        EngineBot e(python("simple", "simple_engine.py", {}, logs), seed);
        Watch w(e);
        const Match m = engine_match(w, seed, 21);
        EXPECT_TRUE(m.over());
        EXPECT_TRUE(w.faults.empty()) << logs.all();
        EXPECT_GT(w.decisions, 20);
        EXPECT_EQ(e.engine_name(), "simple_engine.py");
        ASSERT_EQ(e.engine_options().size(), 1u);
        EXPECT_EQ(e.engine_options()[0].name, "margin");
    }
}

TEST(EngineBot, ACrashPlaysTheDefaultActionIsLoggedRestartsAndAfterMaxFaultsTheHeuristicPlays) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineConfig c = python("crasher", "fault_engine.py", {"crash", "--after", "2"}, logs);
    c.max_faults = 3;
    EngineBot e(c, 7);
    Watch w(e);
    const Match m = engine_match(w, 7);
    EXPECT_TRUE(m.over());
    EXPECT_EQ(w.faults, std::vector<EngineFault>(3, EngineFault::crash));
    EXPECT_EQ(w.defaults_played, 3);
    EXPECT_EQ(e.starts(), 3);  // two restarts, each answering once before it crashes again
    EXPECT_TRUE(e.replaced());
    EXPECT_GT(w.decisions, 10);  // the heuristic finished the match for it
    EXPECT_EQ(logs.count("engine=\"crasher\" event=fault fault=crash"), 3) << logs.all();
    EXPECT_EQ(logs.count("event=restart"), 2);
    EXPECT_EQ(logs.count("event=replaced by=\"heuristic\" faults=3"), 1);
    EXPECT_EQ(logs.count("event=stderr line=\"boom\""), 3);  // its stderr went to the log
    EXPECT_EQ(logs.count("status=\"exit 3\""), 3);
}

TEST(EngineBot, AHangIsCutAtTheBudgetPlusTheGraceAndKilled) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineConfig c = python("sleeper", "fault_engine.py", {"hang", "--after", "2"}, logs);
    c.budget_ms = 150;
    c.grace_ms = 100;
    c.max_faults = 2;
    EngineBot e(c, 7);
    Watch w(e);
    const Match m = engine_match(w, 7);
    EXPECT_TRUE(m.over());
    EXPECT_EQ(w.faults, std::vector<EngineFault>(2, EngineFault::timeout));
    EXPECT_EQ(w.defaults_played, 2);
    EXPECT_TRUE(e.replaced());
    // The engine would sleep an hour: that the match ended at all shows each turn was cut (the
    // engine killed, checked in Watch::ask), and not before budget + grace (250 ms) had passed.
    // How soon after is not asserted (a loaded machine); the log names the deadline.
    EXPECT_GE(w.slowest_fault, 250ms);
    EXPECT_EQ(logs.count("fault=timeout"), 2) << logs.all();
    EXPECT_EQ(logs.count("detail=\"no answer within 150 + 100 ms\""), 2);
}

TEST(EngineBot, GarbageIsLoggedWithTheOffendingLine) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineConfig c = python("chatterbox", "fault_engine.py", {"garbage", "--after", "3"}, logs);
    c.max_faults = 2;
    EngineBot e(c, 7);
    Watch w(e);
    EXPECT_TRUE(engine_match(w, 7).over());
    EXPECT_EQ(w.faults, std::vector<EngineFault>(2, EngineFault::garbage));
    EXPECT_EQ(logs.count("engine=\"chatterbox\" event=fault fault=garbage seat=0 line=\"this is not an action\""), 2)
        << logs.all();
}

TEST(EngineBot, AnIllegalActionIsLoggedWithTheOffendingLine) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineConfig c = python("cheat", "fault_engine.py", {"illegal"}, logs);
    c.max_faults = 2;
    EngineBot e(c, 7);
    Watch w(e);
    EXPECT_TRUE(engine_match(w, 7).over());
    EXPECT_EQ(w.faults, std::vector<EngineFault>(2, EngineFault::illegal));
    // Its first decision is a call, and it bids 14.
    EXPECT_EQ(logs.count("engine=\"cheat\" event=fault fault=illegal seat=0 line=\"action 14\" detail=\"bad_bid; legal: pass"),
              2)
        << logs.all();
    EXPECT_EQ(logs.count("played=\"pass\""), 2);
}

TEST(EngineBot, AProgramThatCannotStartOrFailsItsHandshakeIsAFault) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineConfig missing = config("missing", {"/nonexistent/engine"}, logs);
    missing.max_faults = 2;
    EngineBot e(missing, 1);
    Watch w(e);
    EXPECT_TRUE(engine_match(w, 3).over());
    EXPECT_EQ(w.faults, std::vector<EngineFault>(2, EngineFault::start));
    EXPECT_EQ(logs.count("engine=\"missing\" event=fault fault=start"), 2) << logs.all();
    EXPECT_EQ(logs.count("cannot run '/nonexistent/engine'"), 2);

    EngineConfig mute = python("mute", "fault_engine.py", {"noready"}, logs);
    mute.startup_ms = 300;
    mute.max_faults = 1;
    EngineBot m(mute, 1);
    EXPECT_FALSE(m.start());
    EXPECT_TRUE(m.replaced());
    EXPECT_EQ(logs.count("engine=\"mute\" event=fault fault=handshake"), 1) << logs.all();
    EXPECT_EQ(logs.count("detail=\"no ready within 300 ms\""), 1);
}

TEST(EngineBot, StderrGoesToTheLogAndInfoLinesAreNotAnswers) {
    REQUIRE_PYTHON();
    Logs logs;
    EngineBot e(python("chatter", "fault_engine.py", {"chatter"}, logs), 1);
    Watch w(e);
    EXPECT_TRUE(engine_match(w, 5).over());
    EXPECT_TRUE(w.faults.empty()) << logs.all();
    EXPECT_GE(logs.count("engine=\"chatter\" event=stderr line=\"chatter: go number"), w.decisions - 1);
    EXPECT_GE(logs.count("event=info line=\"thinking\""), w.decisions - 1);
}

TEST(EngineBot, ItsProcessAndEverythingItStartedDieWithTheBot) {
    REQUIRE_PYTHON();
    Logs logs;
    const fs::path d = temp_dir("die");
    // The shell only when asked (sh:): it starts a grandchild, then becomes the engine.
    const std::string script = "sleep 300 & echo $! > " + (d / "child").string() + "; exec " + TARNEEB_PYTHON + " " +
                               example("simple_engine.py");
    auto c = bots::engine_config("sh:" + script, config("shell", {}, logs));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->argv, (std::vector<std::string>{"/bin/sh", "-c", script}));
    pid_t engine = -1, child = -1;
    {
        EngineBot e(*c, 1);
        ASSERT_TRUE(e.start()) << logs.all();
        engine = e.pid();
        std::ifstream(d / "child") >> child;
        ASSERT_GT(child, 0);
        EXPECT_EQ(::kill(engine, 0), 0);
        EXPECT_EQ(::kill(child, 0), 0);
    }
    EXPECT_TRUE(::kill(engine, 0) == -1 && errno == ESRCH);
    // The grandchild was in the engine's process group; once killed, init reaps it.
    bool gone = false;
    for (int i = 0; i < 500 && !gone; ++i) {
        std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
        std::string pid, comm, state;
        gone = !(stat >> pid >> comm >> state) || state == "Z";
        if (!gone) std::this_thread::sleep_for(10ms);  // test-wait: between two reads of /proc
    }
    EXPECT_TRUE(gone) << "the engine's own child survived it";
    fs::remove_all(d);
}

TEST(EngineBot, NoShellUnlessAskedAndTheEngineGetsNoOtherDescriptorNorCoreFiles) {
    REQUIRE_PYTHON();
    // Without sh:, shell syntax is just words of argv.
    const auto plain = bots::engine_config("python3 bot.py; rm -rf / | cat > x");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->argv, (std::vector<std::string>{"python3", "bot.py;", "rm", "-rf", "/", "|", "cat", ">", "x"}));
    EXPECT_FALSE(bots::engine_config(""));
    EXPECT_FALSE(bots::engine_config("sh:  "));
    EXPECT_FALSE(bots::engine_config("a 'b"));

    Logs logs;
    const fs::path d = temp_dir("fds");
    const int leaked = ::open("/dev/null", O_RDONLY);  // not close-on-exec: must not reach the engine
    ASSERT_GE(leaked, 3);
    const std::string program =
        // The guard sets the limits before the engine's exec: they are in place from its start.
        "import os, resource\n"
        "fds = sorted(int(f) for f in os.listdir('/proc/self/fd'))\n"
        "out = open(" + std::string("'") + (d / "report").string() + "', 'w')\n"
        "out.write(' '.join(map(str, fds)) + '\\n')\n"
        "out.write('%d %d\\n' % resource.getrlimit(resource.RLIMIT_CORE))\n"
        "out.write('%d %d\\n' % resource.getrlimit(resource.RLIMIT_AS))\n"
        "out.write('%d\\n' % (os.getpgrp() == os.getppid()))\n"
        "out.close()\n";
    EngineConfig c = config("probe", {TARNEEB_PYTHON, "-c", program}, logs);
    c.limits.memory_bytes = std::uint64_t{3} << 30;
    c.startup_ms = 10000;
    EngineBot e(c, 1);
    EXPECT_FALSE(e.start());  // it exits without a handshake
    ::close(leaked);
    std::ifstream report(d / "report");
    std::string fds, core, as, leader;
    std::getline(report, fds);
    std::getline(report, core);
    std::getline(report, as);
    std::getline(report, leader);
    EXPECT_EQ(fds, "0 1 2 3");  // its three pipes, and the directory it was listing
    EXPECT_EQ(core, "0 0");
    EXPECT_EQ(as, std::to_string(std::uint64_t{3} << 30) + " " + std::to_string(std::uint64_t{3} << 30));
    EXPECT_EQ(leader, "1");  // its guard's process group, which is the guard's own
    fs::remove_all(d);
}

TEST(EngineProcess, SendNeverBlocksOnAnEngineThatDoesNotRead) {
    std::string error;
    auto p = bots::EngineProcess::start({"sleep", "30"}, guarded(), nullptr, error);
    ASSERT_TRUE(p) << error;
    const std::string chunk(64 * 1024, 'x');
    int accepted = 0;
    while (p->send(chunk) && accepted < 100) ++accepted;
    EXPECT_LT(accepted, 100);  // refused once 1 MiB waits unread, without ever blocking
    std::string line;
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(p->read_line(line, t0 + 50ms), bots::EngineProcess::Read::timeout);
    p->stop("quit\n", 0ms);
    EXPECT_EQ(p->exit_status(), "signal 9");
}

TEST(EngineProcess, ALineAfterTheDeadlineIsReadNextTimeAndEndOfOutputIsClosed) {
    std::string error;
    auto p = bots::EngineProcess::start({"/bin/sh", "-c", "read x; echo \"got $x\"; printf partial"}, guarded(), nullptr, error);
    ASSERT_TRUE(p) << error;
    std::string line;
    EXPECT_EQ(p->read_line(line, std::chrono::steady_clock::now() + 10ms), bots::EngineProcess::Read::timeout);
    ASSERT_TRUE(p->send("hello\n"));
    EXPECT_EQ(p->read_line(line, std::chrono::steady_clock::now() + 10s), bots::EngineProcess::Read::line);
    EXPECT_EQ(line, "got hello");
    EXPECT_EQ(p->read_line(line, std::chrono::steady_clock::now() + 10s), bots::EngineProcess::Read::closed);
    EXPECT_EQ(line, "partial");
    p->stop({}, 1000ms);
    EXPECT_EQ(p->exit_status(), "exit 0");
}

}  // namespace
}  // namespace tarneeb
