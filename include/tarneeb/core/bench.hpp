// The engine's benchmark and signature (as chess engines' `bench`): a fixed, seeded workload
// whose node count changes only when the engine's behaviour changes, plus measured rates.
#pragma once

#include <cstdint>

namespace tarneeb {

struct EngineBenchReport {
    std::uint64_t signature = 0;      ///< behaviour fingerprint (independent of speed)
    double rounds_per_second = 0;     ///< full random rounds (shuffle, deal, auction, play, score)
    double shuffles_per_second = 0;   ///< bare 52-card shuffles with the same generator
    double round_to_shuffle = 0;      ///< cost of a round / cost of a shuffle
};

/// The signature alone: the sum, over 2,000 seeded random matches of each preset, of the number
/// of legal actions at every decision plus every round's points.
std::uint64_t engine_signature();

/// Runs the signature and times `rounds` random rounds and as many shuffles (one thread).
EngineBenchReport run_engine_bench(std::uint64_t rounds);

}  // namespace tarneeb
