// Positions of heuristic self-play, and how well layouts sampled there place the hidden cards
// (pimc_test.cpp's PlayerModel and holder_model_test.cpp's HolderModel measure the same thing).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"

namespace tarneeb::bots::self_play {

/// A round dealt from `seed` (the dealer seed % 4) and played by four heuristics through the
/// auction and up to `plays` cards; nullopt if it was passed out or ended before.
inline std::optional<Round> heuristic_round_at(std::uint64_t seed, int plays, const Rules& rules = kLevantine) {
    HeuristicBot h;
    const Seat dealer = seat(static_cast<int>(seed % 4));
    Round r(rules, dealer, deal_from_seed(seed, dealer));
    while (!r.over() && (r.phase() != Phase::play || static_cast<int>(r.plays().size()) < plays))
        r.apply(h.decide(SeatView(r, r.to_act())));
    if (r.phase() != Phase::play) return std::nullopt;
    return r;
}

/// For each of `models`: the share of the hidden cards that 40 layouts sampled with it
/// (sample_layouts, 40 tries each, auction slack 0.5 and spread 1) give to their true holder,
/// averaged over the same 30 positions of heuristic self-play (deal seeds from 100 on,
/// 8 + seed % 24 cards played) and the same random draws (0: none right, 1: all).
inline std::vector<double> hidden_cards_placed_right(const std::vector<PlayerModel>& models) {
    constexpr int kPositions = 30;
    std::vector<double> share(models.size(), 0.0);
    int positions = 0;
    for (std::uint64_t seed = 100; positions < kPositions; ++seed) {
        const auto r = heuristic_round_at(seed, 8 + static_cast<int>(seed % 24));
        if (!r) continue;
        ++positions;
        const SeatView v(*r, r->to_act());
        for (std::size_t m = 0; m < models.size(); ++m) {
            Rng rng(seed);
            const auto layouts = sample_layouts(v, rng, 40, 40, 0.5, 1.0, models[m]);
            double right = 0;
            for (const Hands& l : layouts)
                for (Seat s : kSeats)
                    if (s != v.seat()) right += static_cast<double>((l[s] & r->hand(s)).size()) / static_cast<double>(v.unseen().size());
            share[m] += right / static_cast<double>(layouts.size()) / kPositions;
        }
    }
    return share;
}

}  // namespace tarneeb::bots::self_play
