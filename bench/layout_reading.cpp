// layout_reading: how well each way of reading the other seats places the hidden cards (issue 29,
// "Inference": the share of hidden cards a sampled layout gives to their true holder).
//
//   layout_reading [--players heuristic|pimc] [--positions N] [--seed S]
//
// Deals from S on (levantine, dealer seed % 4) are played by four of --players (pimc: the
// registry's, without its time budget) up to 8 + seed % 24 cards; at each of N such positions
// the seat to act samples 20 layouts of 40 candidates (auction slack 0.5, spread 1) with each
// player model below, from the same random draws. Prints, per model, the mean share of the
// hidden cards on their true holder and the sampling's wall time per decision (one thread).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

int main(int argc, char** argv) {
    CLI::App app{"layout_reading: hidden cards placed on their true holder, per player model"};
    std::string players = "pimc";
    int positions = 30;
    std::uint64_t seed = 100;
    app.add_option("--players", players, "who played the deals")->check(CLI::IsMember({"heuristic", "pimc"}));
    app.add_option("--positions", positions)->check(CLI::Range(1, 100000));
    app.add_option("--seed", seed, "the first deal's seed");
    CLI11_PARSE(app, argc, argv);

    HeuristicBot h;
    PimcOptions o = registry_pimc_options();
    o.time_budget_ms = 0;
    std::unique_ptr<Bot> player = players == "pimc" ? std::unique_ptr<Bot>(std::make_unique<PimcBot>(1, o))
                                                    : std::make_unique<HeuristicBot>();
    struct Named {
        const char* name;
        PlayerModel model;
    };
    const std::vector<Named> models{
        {"uniform (voids and counts)", {}},
        {"heuristic replayed (pimc's)", {&h, &h, 0.3, 0.1}},
        {"policy, opponents", {nullptr, nullptr, 1, 1, 0, 1.0, false}},
        {"policy, opponents and partner", {nullptr, nullptr, 1, 1, 0, 1.0, true}},
        {"policy ^2, opponents and partner", {nullptr, nullptr, 1, 1, 0, 2.0, true}},
        {"heuristic replayed + policy", {&h, &h, 0.3, 0.1, 0, 1.0, true}},
        {"heuristic replayed + holder model", {&h, &h, 0.3, 0.1, 1.0}},
    };
    std::vector<double> share(models.size()), ms(models.size());
    int done = 0;
    for (std::uint64_t s = seed; done < positions; ++s) {
        const Seat dealer = seat(static_cast<int>(s % 4));
        Round r(kLevantine, dealer, deal_from_seed(s, dealer));
        const int plays = 8 + static_cast<int>(s % 24);
        while (!r.over() && (r.phase() != Phase::play || r.cards_played() < plays)) r.apply(player->decide(SeatView(r, r.to_act())));
        if (r.phase() != Phase::play) continue;
        ++done;
        const SeatView v(r, r.to_act());
        for (std::size_t m = 0; m < models.size(); ++m) {
            Rng rng(s);
            const auto t0 = std::chrono::steady_clock::now();
            const auto layouts = sample_layouts(v, rng, 20, 40, 0.5, 1.0, models[m].model);
            ms[m] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            double right = 0;
            for (const Hands& l : layouts)
                for (Seat x : kSeats)
                    if (x != v.seat()) right += static_cast<double>((l[x] & r.hand(x)).size()) / static_cast<double>(v.unseen().size());
            share[m] += right / static_cast<double>(layouts.size());
        }
    }
    std::printf("%d positions of %s play (deal seeds from %llu)\n", positions, players.c_str(),
                static_cast<unsigned long long>(seed));
    for (std::size_t m = 0; m < models.size(); ++m)
        std::printf("  %-36s %.3f placed right   %8.2f ms per decision\n", models[m].name, share[m] / positions, ms[m] / positions);
}
