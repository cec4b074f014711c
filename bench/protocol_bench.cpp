// protocol_bench: the cost of one table message (docs/protocol.md "table") at a change, for
// its five recipients (four seats and a spectator), early in a match and late in it, when the
// "history" of finished rounds is large: built for every message, or written from the table's
// HistoryCache (as the hall does). Reports the bytes of one seat's message too.
//
// The tables are played by uniformly random legal actions from fixed seeds, so the positions
// are the same at every run.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/room/protocol.hpp"

namespace {

using namespace tarneeb;
using namespace tarneeb::server;

/// A four-player table in the play phase of a match with `rounds` finished rounds (or fewer, if
/// the match ends first: the benchmark reports how many).
std::unique_ptr<Table> table_after(int rounds) {
    TableSettings settings;
    settings.target = 500;  // no team reaches it: the match goes on
    settings.turn_seconds = 0;
    auto t = std::make_unique<Table>("t1", settings, TableTiming{},
                                     [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
    for (Seat s : kSeats) t->commit(t->prepare_sit(s, "p" + std::to_string(index(s))).entry(), 0);
    Rng rng(2024);
    const std::uint64_t seed = rng.next();  // drawn in order (not two arguments of one call)
    const std::uint64_t deal_seed = rng.next();
    t->commit(t->prepare_start(seed, deal_seed).entry(), 0);
    auto finished = [&] { return static_cast<int>(t->match().rounds().size()) - 1; };
    // Into the play phase of round rounds + 1, a few tricks in.
    while (t->state() == TableState::playing &&
           (finished() < rounds || t->match().round().phase() != Phase::play || t->match().round().tricks_played() < 5)) {
        const Round& r = t->match().round();
        const auto legal = r.legal_actions();
        const Action a = legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))];
        t->commit(t->prepare_act(r.to_act(), a, t->version(), rng.next()).entry(), 0);
    }
    t->take_events();
    return t;
}

/// Arg 0: finished rounds wanted; arg 1: 1 = with the table's HistoryCache.
void BM_TableMessage(benchmark::State& state) {
    const auto table = table_after(static_cast<int>(state.range(0)));
    const bool cached = state.range(1) != 0;
    HistoryCache cache;
    std::size_t bytes = 0;
    for (auto _ : state) {
        const TableMessage message(*table, 1, {}, 1'767'225'600'000, cached ? &cache : nullptr);
        for (int s = -1; s < 4; ++s) {
            const std::string text = message.to(s < 0 ? std::nullopt : std::optional<Seat>(seat(s)));
            bytes = text.size();
            benchmark::DoNotOptimize(text.data());
        }
    }
    state.counters["rounds"] = static_cast<double>(table->match().rounds().size() - 1);
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_TableMessage)->Args({0, 0})->Args({0, 1})->Args({12, 0})->Args({12, 1})->ArgNames({"rounds", "cached"});

}  // namespace

BENCHMARK_MAIN();
