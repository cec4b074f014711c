#include "tarneeb/core/bench.hpp"

#include <chrono>

#include "tarneeb/core/simulate.hpp"

namespace tarneeb {

std::uint64_t engine_signature() {
    std::uint64_t sum = 0;
    for (Rules rules : {kLevantine, kClassic}) {
        for (std::uint64_t seed = 0; seed < 2000; ++seed) {
            Match match(rules, seat(static_cast<int>(seed % 4)));
            Rng rng(derive_seed(seed, 7));
            while (!match.over()) {
                if (match.awaiting_deal()) {
                    deal_next_from_seed(match, seed);
                    continue;
                }
                const Round& r = match.round();
                sum += r.phase() == Phase::play ? static_cast<std::uint64_t>(r.legal_cards().size())
                                                : static_cast<std::uint64_t>(r.legal_actions().size());
                match.apply(random_action(r, rng));
                if (match.round().phase() == Phase::scored && match.round().cards_played() == 52)
                    sum += static_cast<std::uint64_t>(match.round().points(Team::t0) + 13 * match.round().points(Team::t1) + 200);
            }
            sum += static_cast<std::uint64_t>(match.scored_rounds()) * 1000;
        }
    }
    return sum;
}

EngineBenchReport run_engine_bench(std::uint64_t rounds) {
    using clock = std::chrono::steady_clock;
    EngineBenchReport report;
    report.signature = engine_signature();

    Rng rng(1);
    std::uint64_t sink = 0;
    auto t0 = clock::now();
    for (std::uint64_t i = 0; i < rounds; ++i) {
        const Round r = play_random_round(kLevantine, seat(static_cast<int>(i & 3)), rng);
        sink += static_cast<std::uint64_t>(r.tricks(Team::t0));
    }
    auto t1 = clock::now();
    for (std::uint64_t i = 0; i < rounds; ++i) sink += static_cast<std::uint64_t>(shuffled_deck(rng)[0].bit());
    auto t2 = clock::now();
    const double round_s = std::chrono::duration<double>(t1 - t0).count();
    const double shuffle_s = std::chrono::duration<double>(t2 - t1).count();
    report.rounds_per_second = static_cast<double>(rounds) / round_s;
    report.shuffles_per_second = static_cast<double>(rounds) / shuffle_s;
    report.round_to_shuffle = round_s / shuffle_s;
    volatile std::uint64_t keep = sink;  // the work must not be optimised away
    (void)keep;
    return report;
}

}  // namespace tarneeb
