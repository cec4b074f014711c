// learned_timing: the time of one card decision of the learned player (learned_bot.hpp) and of
// the heuristic on the same positions, natively or in WebAssembly (docs/analysis.md "A learned
// card player"). Standard library only, so the same file builds with em++ and runs in Node:
//
//   learned_timing [deals]        (default 300; deals of heuristic self-play, both presets)
//
// Collects every card position with more than one legal card of `deals` deals the heuristic
// plays against itself (deal_from_seed(derive_seed(2024, k), dealer k mod 4), levantine and
// classic alternately), then times each bot's decision on each position with steady_clock
// (several rounds over the positions; the clock's own cost, tens of ns, is included). Prints
// one line per bot: positions, median, p99 and mean microseconds per decision.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/core/random.hpp"

using namespace tarneeb;

namespace {

void time_bot(const char* name, bots::Bot& bot, const std::vector<SeatView>& views) {
    std::vector<double> us;
    int sink = 0;
    for (int round = 0; round < 3; ++round)
        for (const SeatView& v : views) {
            const auto t0 = std::chrono::steady_clock::now();
            sink += bot.decide_card(v).card().bit();
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
    std::sort(us.begin(), us.end());
    double sum = 0;
    for (double x : us) sum += x;
    std::printf("%-10s %zu positions: median %.2f us, p99 %.2f us, mean %.2f us (%d)\n", name, views.size(), us[us.size() / 2],
                us[us.size() * 99 / 100], sum / static_cast<double>(us.size()), sink & 1);
}

}  // namespace

int main(int argc, char** argv) {
    const int deals = argc > 1 ? std::atoi(argv[1]) : 300;
    std::vector<SeatView> views;
    bots::HeuristicBot heuristic;
    for (int k = 0; k < deals; ++k) {
        const Seat dealer = seat(k);
        Round r(k % 2 ? kClassic : kLevantine, dealer, deal_from_seed(derive_seed(2024, static_cast<std::uint64_t>(k)), dealer));
        while (!r.over()) {
            const SeatView v(r, r.to_act());
            if (r.phase() == Phase::play && r.legal_cards().size() > 1) views.push_back(v);
            r.apply(heuristic.decide(v));
        }
    }
    bots::LearnedBot learned;
    time_bot("heuristic", heuristic, views);
    time_bot("learned", learned, views);
    return 0;
}
