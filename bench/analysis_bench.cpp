// A whole deal's card-by-card analysis (solver::analyse_deal: the double-dummy table and par,
// then every legal card of each of the 52 positions, all on one DDS thread index), as the server's analysis queue runs it
// for GET /api/matches/{id}/analysis (issue 14). Goal: <= 2 s of CPU per deal
// (docs/performance.md "Analysis"). CPU time is the process's (MeasureProcessCPUTime), so DDS's
// own threads count too when CalcAllTables uses them (BM_TableOnly/1).
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

/// The par's table alone (part of every analysis): Arg 0, Solver::table (16 opening leads on
/// one thread index: what analyse_deal uses); Arg 1, table() (DDS's CalcAllTables over the
/// four trumps, on all of DDS's threads).
void BM_TableOnly(benchmark::State& state) {
    const auto deals = finished_deals(12);
    std::size_t i = 0;
    for (auto _ : state) {
        solver::DdTable t;
        const Hands& h = deals[i++ % deals.size()].dealt_hands();
        if (state.range(0) == 0) {
            solver::Solver s;
            benchmark::DoNotOptimize(s.table(h, t));
        } else {
            benchmark::DoNotOptimize(solver::table(h, t));
        }
    }
    state.SetItemsProcessed(state.iterations());
}

/// The 52 positions of a deal without the table, in play order on one Solver (what
/// analyse_deal does: DDS reuses its transposition table from one position to the next), or
/// (Arg 1) interleaved with the positions of another deal, which makes DDS start afresh at
/// every call: the difference is what the reuse saves. Time per deal.
void BM_PositionsOnly(benchmark::State& state) {
    const auto deals = finished_deals(12);
    const bool interleaved = state.range(0) == 1;
    std::vector<std::vector<Round>> rounds;  // rounds[d][k]: deal d before card k
    for (const Round& played : deals) {
        rounds.emplace_back();
        for (int k = 0; k < 52; ++k) rounds.back().push_back(*solver::round_after(played, k));
    }
    solver::Solver solver;
    solver::CardValues values;
    std::size_t d = 0;
    for (auto _ : state) {
        const auto& a = rounds[d % rounds.size()];
        const auto& b = rounds[(d + 1) % rounds.size()];
        for (int k = 0; k < 52; ++k) {
            benchmark::DoNotOptimize(solver::card_values(solver, a[static_cast<std::size_t>(k)], values));
            if (interleaved) benchmark::DoNotOptimize(solver::card_values(solver, b[static_cast<std::size_t>(k)], values));
        }
        d += interleaved ? 2 : 1;
    }
    state.SetItemsProcessed(state.iterations() * (interleaved ? 2 : 1));  // deals
}

}  // namespace

BENCHMARK(BM_PositionsOnly)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(6)->MeasureProcessCPUTime();
BENCHMARK(BM_AnalyseDeal)->Arg(12)->Unit(benchmark::kMillisecond)->Iterations(12)->MeasureProcessCPUTime();
BENCHMARK(BM_TableOnly)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(12)->MeasureProcessCPUTime();
BENCHMARK_MAIN();
