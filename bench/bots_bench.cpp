// bots_bench: the time one bot decision takes (issue 3: median at most 5 us for `heuristic`).
//
// The positions are every decision of 2,000 deals the heuristic bot plays against itself
// (auction, trump and card decisions in their natural proportions), stored as SeatViews; each
// benchmark iteration asks for one decision, cycling through them. Run with
// `--benchmark_repetitions=9 --benchmark_report_aggregates_only=true` for the median.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bot_specs.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/core/random.hpp"

namespace {

using namespace tarneeb;

/// Every decision point of `deals` heuristic self-play deals, filtered by phase (-1: all).
std::vector<SeatView> positions(int phase_filter) {
    std::vector<SeatView> out;
    bots::HeuristicBot bot;
    for (std::uint64_t k = 0; k < 2000; ++k) {
        const Rules rules = (k & 1) ? kClassic : kLevantine;
        const Seat dealer = seat(static_cast<int>(k));
        Round r(rules, dealer, deal_from_seed(derive_seed(2024, k), dealer));
        while (!r.over()) {
            SeatView v(r, r.to_act());
            if (phase_filter < 0 || static_cast<int>(r.phase()) == phase_filter) out.push_back(v);
            r.apply(bot.decide(v));
        }
    }
    return out;
}

std::unique_ptr<bots::Bot> bench_bot(const std::string& name) {
    if (name == "heuristic-oldplay") return std::make_unique<bots::HeuristicBot>(1, bots::oldplay_params());
    if (name == "learned") return bots::make_spec_bot(name, 1);  // a bench spec (bot_specs.hpp)
    return bots::make_bot(name, 1);
}

void run(benchmark::State& state, const char* name, int phase_filter) {
    const std::vector<SeatView> views = positions(phase_filter);
    auto bot = bench_bot(name);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(bot->decide(views[i]));
        if (++i == views.size()) i = 0;
    }
    state.SetLabel(std::to_string(views.size()) + " positions");
}

void BM_HeuristicDecision(benchmark::State& s) { run(s, "heuristic", -1); }
void BM_HeuristicCall(benchmark::State& s) { run(s, "heuristic", static_cast<int>(Phase::auction)); }
void BM_HeuristicCard(benchmark::State& s) { run(s, "heuristic", static_cast<int>(Phase::play)); }
void BM_HeuristicCardOldPlay(benchmark::State& s) { run(s, "heuristic-oldplay", static_cast<int>(Phase::play)); }
void BM_RandomDecision(benchmark::State& s) { run(s, "random", -1); }
/// The learned card player (learned_bot.hpp): the heuristic's card, the holder model and the
/// policy's network on every legal card (issue 29, "A fast learned player").
void BM_LearnedCard(benchmark::State& s) { run(s, "learned", static_cast<int>(Phase::play)); }

/// Making the view a bot receives (copying the round, erasing three hands, finding voids).
void BM_SeatView(benchmark::State& state) {
    Round r(kLevantine, Seat::s0, deal_from_seed(7, Seat::s0));
    bots::HeuristicBot bot;
    while (r.cards_played() < 26) r.apply(bot.decide(SeatView(r, r.to_act())));
    for (auto _ : state) benchmark::DoNotOptimize(SeatView(r, r.to_act()));
}

/// A whole heuristic deal (about 60 decisions plus four views per action to observe).
void deal(benchmark::State& state, const char* name) {
    std::vector<std::unique_ptr<bots::Bot>> b;
    for (int s = 0; s < 4; ++s) b.push_back(bench_bot(name));
    const bots::Lineup lineup{b[0].get(), b[1].get(), b[2].get(), b[3].get()};
    std::uint64_t k = 0;
    for (auto _ : state) {
        const Seat dealer = seat(static_cast<int>(k));
        benchmark::DoNotOptimize(bots::play_deal(kLevantine, dealer, deal_from_seed(k, dealer), lineup));
        ++k;
    }
}
void BM_HeuristicDeal(benchmark::State& s) { deal(s, "heuristic"); }
/// The same with the card play before issue 29: the cost of issue 29's card rules.
void BM_HeuristicDealOldPlay(benchmark::State& s) { deal(s, "heuristic-oldplay"); }
void BM_LearnedDeal(benchmark::State& s) { deal(s, "learned"); }

BENCHMARK(BM_HeuristicDecision);
BENCHMARK(BM_HeuristicCall);
BENCHMARK(BM_HeuristicCard);
BENCHMARK(BM_HeuristicCardOldPlay);
BENCHMARK(BM_RandomDecision);
BENCHMARK(BM_LearnedCard);
BENCHMARK(BM_SeatView);
BENCHMARK(BM_HeuristicDeal);
BENCHMARK(BM_HeuristicDealOldPlay);
BENCHMARK(BM_LearnedDeal);

}  // namespace

BENCHMARK_MAIN();
