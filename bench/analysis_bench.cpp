// A whole deal's card-by-card analysis (solver::analyse_deal: the double-dummy table and par,
// then every legal card of each of the 52 positions), as the server's analysis queue runs it
// for GET /api/matches/{id}/analysis (issue 14). Goal: <= 2 s of CPU per deal
// (docs/performance.md "Analysis"). CPU time is the process's, so DDS's own table threads count.
//
//   build/release/bench/analysis_bench [--benchmark_repetitions=3]
//
// The deals are the first finished deals (52 cards played) of the shared record examples
// (tests/data/records: played by the engine's bots), so the numbers are reproducible.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/analysis.hpp"

using namespace tarneeb;

namespace {

/// Finished deals from the record examples, at most `count`.
std::vector<Round> finished_deals(std::size_t count) {
    std::vector<Round> out;
    for (int n = 0; n < 200 && out.size() < count; ++n) {
        char name[64];
        std::snprintf(name, sizeof name, "%s/records/rec%04d.json", TARNEEB_TEST_DATA, n);
        std::ifstream in(name, std::ios::binary);
        if (!in) continue;
        std::ostringstream ss;
        ss << in.rdbuf();
        const records::Replay rep = records::replay(ss.str());
        for (const Round& r : rep.match.rounds())
            if (r.phase() == Phase::scored && r.cards_played() == 52 && out.size() < count) out.push_back(r);
    }
    return out;
}

/// Arg: how many different deals (each iteration analyses one of them, in turn).
void BM_AnalyseDeal(benchmark::State& state) {
    const auto deals = finished_deals(static_cast<std::size_t>(state.range(0)));
    if (deals.empty()) {
        state.SkipWithError("no record examples found");
        return;
    }
    std::size_t i = 0;
    std::int64_t positions = 0;
    for (auto _ : state) {
        solver::DealAnalysis a;
        if (solver::analyse_deal(deals[i++ % deals.size()], a) != solver::SolveError::ok) {
            state.SkipWithError("solver error");
            return;
        }
        positions += static_cast<std::int64_t>(a.positions.size());
        benchmark::DoNotOptimize(a);
    }
    state.SetItemsProcessed(state.iterations());  // items = deals: items_per_second = deals per CPU second
    state.counters["positions_per_s"] = benchmark::Counter(static_cast<double>(positions), benchmark::Counter::kIsRate);
}

/// The par's table alone (part of every analysis): CalcAllTables over the four trumps.
void BM_TableOnly(benchmark::State& state) {
    const auto deals = finished_deals(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        solver::DdTable t;
        benchmark::DoNotOptimize(solver::table(deals[i++ % deals.size()].dealt_hands(), t));
    }
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_AnalyseDeal)->Arg(12)->Unit(benchmark::kMillisecond)->Iterations(12);
BENCHMARK(BM_TableOnly)->Arg(12)->Unit(benchmark::kMillisecond)->Iterations(12);
BENCHMARK_MAIN();
