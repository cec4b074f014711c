// The adapter's overhead: Solver::all_cards (validation, encoding, decoding, equals expanded)
// against a raw DDS SolveBoard call on the same positions with the same parameters
// (target -1, solutions 3, mode 1, the same thread index). docs/bots.md "pimc" reports it.
#include <benchmark/benchmark.h>
#include <dds/dll.h>

#include <vector>

#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"
#include "tarneeb/solver/solver.hpp"

using namespace tarneeb;
using namespace tarneeb::solver;

namespace {

/// Positions after `cards` random legal cards, one per seed.
std::vector<Position> positions(int cards, int count) {
    std::vector<Position> out;
    for (std::uint64_t seed = 1; static_cast<int>(out.size()) < count; ++seed) {
        Rng rng(seed);
        Round r(kLevantine, Seat::s0, deal_hands(shuffled_deck(rng), Seat::s0));
        while (r.phase() == Phase::auction || r.phase() == Phase::trump) r.apply(random_action(r, rng));
        if (r.phase() != Phase::play) continue;
        while (r.cards_played() < cards) r.apply(random_action(r, rng));
        out.push_back(position_of(r));
    }
    return out;
}

deal raw_deal(const Position& p) {
    const DdsDeal m = to_dds(p);
    deal d{};
    d.trump = m.trump;
    d.first = m.first;
    for (std::size_t i = 0; i < 3; ++i) {
        d.currentTrickSuit[i] = m.trick_suit[i];
        d.currentTrickRank[i] = m.trick_rank[i];
    }
    for (std::size_t h = 0; h < 4; ++h)
        for (std::size_t s = 0; s < 4; ++s) d.remainCards[h][s] = m.remain[h][s];
    return d;
}

void BM_RawSolveBoard(benchmark::State& state) {
    const auto ps = positions(static_cast<int>(state.range(0)), 8);
    std::vector<deal> deals;
    for (const auto& p : ps) deals.push_back(raw_deal(p));
    Solver lease;  // the same thread index as the adapter's run
    std::size_t i = 0;
    for (auto _ : state) {
        futureTricks fut{};
        benchmark::DoNotOptimize(SolveBoard(deals[i++ % deals.size()], -1, 3, 1, &fut, lease.thread_index()));
        benchmark::DoNotOptimize(fut);
    }
}

void BM_AdapterAllCards(benchmark::State& state) {
    const auto ps = positions(static_cast<int>(state.range(0)), 8);
    Solver solver;
    std::size_t i = 0;
    for (auto _ : state) {
        CardScores out;
        benchmark::DoNotOptimize(solver.all_cards(ps[i++ % ps.size()], out));
        benchmark::DoNotOptimize(out);
    }
}

}  // namespace

// Argument: cards already played (0 = the opening lead, 21 = one card into trick 6).
BENCHMARK(BM_RawSolveBoard)->Arg(0)->Arg(21)->Arg(34)->Unit(benchmark::kMillisecond)->Iterations(48);
BENCHMARK(BM_AdapterAllCards)->Arg(0)->Arg(21)->Arg(34)->Unit(benchmark::kMillisecond)->Iterations(48);
BENCHMARK_MAIN();
