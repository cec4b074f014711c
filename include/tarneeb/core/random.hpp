// Reproducible, unbiased randomness: the same 64-bit seed gives the same deal on every
// platform and compiler, because nothing here depends on the standard library's
// distributions (std::shuffle and std::uniform_int_distribution differ between libraries).
//
// Generator: xoshiro256** (Blackman & Vigna, 2018), its 256-bit state filled from the seed by
// SplitMix64. Bounded integers: Lemire's multiply-and-reject method ("Fast Random Integer
// Generation in an Interval", 2019), which is exactly uniform. Shuffle: Fisher–Yates from the
// top: for i = 51 down to 1, swap d[i] with d[j], j uniform in [0, i]. The deck before the
// shuffle is in dense card order (Card::dense(): C2..CA, D2..DA, H2..HA, S2..SA), and the deal
// gives d[i] to seat (dealer + 1 + i) mod 4 (rules.md "The deal").
#pragma once

#include <array>
#include <cstdint>

#include "tarneeb/core/cards.hpp"

namespace tarneeb {

/// SplitMix64's output function: a bijective mix of 64 bits, used to derive seeds.
constexpr std::uint64_t mix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// The seed of sub-stream `stream` of `seed` (e.g. deal k of a match, match m of a run).
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
    return mix64(seed ^ mix64(stream + 0x5851F42D4C957F2DULL));
}

/// xoshiro256** seeded through SplitMix64. Copyable; copies continue identically.
class Rng {
public:
    explicit constexpr Rng(std::uint64_t seed) {
        for (auto& word : s_) {
            seed += 0x9E3779B97F4A7C15ULL;
            word = mix64(seed - 0x9E3779B97F4A7C15ULL);
        }
    }
    /// 64 uniformly distributed bits.
    constexpr std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    /// Uniform integer in [0, bound); bound must be >= 1. Unbiased (Lemire's method).
    constexpr std::uint64_t below(std::uint64_t bound) {
        std::uint64_t low = 0;
        std::uint64_t high = mul128(next(), bound, low);
        if (low < bound) {
            const std::uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) high = mul128(next(), bound, low);
        }
        return high;
    }

private:
    /// Full 64x64-bit product: returns the high word, stores the low word.
    static constexpr std::uint64_t mul128(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
#if defined(__SIZEOF_INT128__)
        __extension__ using u128 = unsigned __int128;
        const u128 m = static_cast<u128>(a) * b;
        low = static_cast<std::uint64_t>(m);
        return static_cast<std::uint64_t>(m >> 64);
#else
        const std::uint64_t a_lo = a & 0xFFFFFFFF, a_hi = a >> 32, b_lo = b & 0xFFFFFFFF, b_hi = b >> 32;
        const std::uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
        const std::uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFF) + (hl & 0xFFFFFFFF);
        low = (mid << 32) | (ll & 0xFFFFFFFF);
        return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
    }
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::array<std::uint64_t, 4> s_{};
};

/// A 52-card deck in the shuffled order of the file comment.
using Deck = std::array<Card, 52>;

/// Fisher–Yates shuffle of the dense-order deck with `rng`.
Deck shuffled_deck(Rng& rng);
/// The four hands when `dealer` deals `deck` one card at a time from the next player.
Hands deal_hands(const Deck& deck, Seat dealer);
/// Shuffle with Rng(seed) and deal: the same (seed, dealer) gives the same hands everywhere.
Hands deal_from_seed(std::uint64_t seed, Seat dealer);

}  // namespace tarneeb
