// The engine protocol's overhead (Google Benchmark; docs/performance.md "Engine protocol"):
//   - BM_EngineRoundTrip/<engine>: one decision of an EngineBot whose engine already knows the
//     position: the host writes "go ...", the engine answers "action X", the host reads and
//     checks it. Engines: echo_engine (the smallest possible: the pipes and the text alone),
//     `tarneeb engine --bot random` (our adapter: the view rebuilt, a bot asked) and, when
//     python3 is found, examples/engines/simple_engine.py.
//   - BM_EngineDeal: a whole deal with `tarneeb engine --bot random` in seat 0 and random bots
//     in-process in the others; items = the engine's decisions, so the rate includes the
//     observe lines between them.
//   - BM_FeedSync, BM_EngineGameApply: the text alone, in-process (a whole deal's lines).
// Rates and times, never asserted (the goal, <= 50 us per round trip, is checked by reading).
#include <benchmark/benchmark.h>

#include <sstream>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/bots/engine_protocol.hpp"
#include "tarneeb/core/random.hpp"

namespace {

using namespace tarneeb;

bots::EngineConfig engine_config(std::vector<std::string> argv) {
    bots::EngineConfig c;
    c.name = argv.back();
    c.argv = std::move(argv);
    c.budget_ms = 10000;
    c.startup_ms = 30000;
    c.limits.guard = TARNEEB_BINARY;  // this benchmark is not tarneeb: its engines' guard is
    c.log = [](bots::EngineLogLevel level, const std::string& line) {
        if (level >= bots::EngineLogLevel::warn) bots::log_to_stderr(level, line);
    };
    return c;
}

std::vector<std::string> engine_argv(int which) {
    switch (which) {
        case 0: return {ECHO_ENGINE};
        case 1: return {TARNEEB_BINARY, "engine", "--bot", "random"};
        default: return {TARNEEB_PYTHON, TARNEEB_EXAMPLES "/engines/simple_engine.py"};
    }
}

void BM_EngineRoundTrip(benchmark::State& state) {
    if (state.range(0) == 2 && std::string(TARNEEB_PYTHON).empty()) {
        state.SkipWithError("no python3");
        return;
    }
    bots::EngineBot bot(engine_config(engine_argv(static_cast<int>(state.range(0)))), 1);
    // A position in play, the engine's seat to act (what the engine is told once).
    Round r(kLevantine, Seat::s0, deal_from_seed(3, Seat::s0));
    r.apply(Action::bid(7));
    for (int i = 0; i < 3; ++i) r.apply(Action::pass());
    r.apply(Action::name_trump(Suit::spades));
    r.apply(r.default_action());
    const SeatView view(r, r.to_act());
    if (view.check(bot.decide(view)) != ErrorCode::ok) state.SkipWithError("the engine did not answer");
    for (auto _ : state) {
        const Action a = bot.decide(view);
        benchmark::DoNotOptimize(a);
    }
    state.SetItemsProcessed(state.iterations());
    state.SetLabel(state.range(0) == 0 ? "echo_engine" : state.range(0) == 1 ? "tarneeb engine --bot random"
                                                                              : "simple_engine.py");
}
BENCHMARK(BM_EngineRoundTrip)->Arg(0)->Arg(1)->Arg(2)->ArgName("engine")->UseRealTime();

void BM_EngineDeal(benchmark::State& state) {
    bots::EngineBot bot(engine_config(engine_argv(1)), 1);
    auto r1 = bots::make_bot("random", 1), r2 = bots::make_bot("random", 2), r3 = bots::make_bot("random", 3);
    std::uint64_t k = 0, decisions = 0;
    const bots::DecisionTimer count = [&decisions](Seat s, std::uint64_t) { decisions += s == Seat::s0; };
    for (auto _ : state) {
        // Seat 0 is the engine; random bots bid on nearly every deal, so deals are played out.
        const bots::Lineup lineup{&bot, r1.get(), r2.get(), r3.get()};
        const Match m = bots::play_deal(kLevantine, seat(static_cast<int>(k)), deal_from_seed(k, seat(static_cast<int>(k))),
                                        lineup, nullptr, &count);
        ++k;
        benchmark::DoNotOptimize(m);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(decisions));
    state.counters["engine_decisions_per_deal"] = static_cast<double>(decisions) / static_cast<double>(k);
}
BENCHMARK(BM_EngineDeal)->UseRealTime();

/// Every line one seat's engine is told in a whole random deal.
std::vector<std::string> deal_lines(std::uint64_t seed) {
    Match m(kLevantine, Seat::s0);
    m.start_round(deal_from_seed(seed, Seat::s0));
    Rng rng(seed);
    bots::EngineFeed feed;
    std::vector<std::string> lines;
    std::string text = feed.sync(SeatView::of(m, Seat::s1));
    while (!m.round().over()) {
        const ActionList legal = m.round().legal_actions();
        // A bid first, so that the deal is played out.
        m.apply(m.round().phase() == Phase::auction && m.round().calls().empty() ? Action::bid(7)
                                                                                 : legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))]);
        text += feed.sync(SeatView::of(m, Seat::s1));
    }
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

void BM_FeedSync(benchmark::State& state) {
    Match m(kLevantine, Seat::s0);
    m.start_round(deal_from_seed(5, Seat::s0));
    std::vector<SeatView> views{SeatView::of(m, Seat::s1)};
    Rng rng(5);
    m.apply(Action::bid(7));
    views.push_back(SeatView::of(m, Seat::s1));
    while (!m.round().over()) {
        const ActionList legal = m.round().legal_actions();
        m.apply(legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))]);
        views.push_back(SeatView::of(m, Seat::s1));
    }
    for (auto _ : state) {
        bots::EngineFeed feed;
        std::size_t bytes = 0;
        for (const SeatView& v : views) bytes += feed.sync(v).size();
        benchmark::DoNotOptimize(bytes);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(views.size()));
}
BENCHMARK(BM_FeedSync);

void BM_EngineGameApply(benchmark::State& state) {
    const std::vector<std::string> lines = deal_lines(5);
    for (auto _ : state) {
        bots::EngineGame game;
        for (const std::string& l : lines) benchmark::DoNotOptimize(game.apply(l));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(lines.size()));
}
BENCHMARK(BM_EngineGameApply);

}  // namespace

BENCHMARK_MAIN();
