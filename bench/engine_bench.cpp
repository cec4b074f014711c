// Engine throughput (Google Benchmark): a full random round through the engine's public API
// against a bare 52-card shuffle with the same generator. Goal (issue 2): a round costs at
// most 8x a shuffle and the engine plays at least 1.5 million random rounds per second on one
// core. Results: docs/performance.md.
#include <benchmark/benchmark.h>

#include "tarneeb/core/simulate.hpp"

namespace {

using namespace tarneeb;

void BM_Shuffle(benchmark::State& state) {
    Rng rng(1);
    for (auto _ : state) {
        Deck d = shuffled_deck(rng);
        benchmark::DoNotOptimize(d);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Shuffle);

void BM_RandomRound(benchmark::State& state) {
    Rng rng(1);
    const Rules rules = state.range(0) == 0 ? kLevantine : kClassic;
    int dealer = 0;
    for (auto _ : state) {
        Round r = play_random_round(rules, seat(dealer++), rng);
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RandomRound)->Arg(0)->Arg(1)->ArgName("classic");

void BM_LegalCards(benchmark::State& state) {
    Round r(kLevantine, Seat::s0, deal_from_seed(3, Seat::s0));
    r.apply(Action::bid(7));
    for (int i = 0; i < 3; ++i) r.apply(Action::pass());
    r.apply(Action::name_trump(Suit::spades));
    r.apply(r.default_action());
    for (auto _ : state) benchmark::DoNotOptimize(r.legal_cards());
}
BENCHMARK(BM_LegalCards);

}  // namespace

BENCHMARK_MAIN();
