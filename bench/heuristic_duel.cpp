// heuristic_duel: duplicate deals between variants of the fast bots, to measure bidding
// changes in seconds (docs/bots.md "Bidding fitted to data").
//
//   heuristic_duel A B [--deals N] [--seed S] [--rules levantine|classic]
//
// A and B are one of
//   heuristic                 the registry's heuristic (HeuristicParams defaults)
//   heuristic-old             the heuristic before issue 13 (expected_points = false)
//   heuristic-old:KNOB=V,...  / heuristic:KNOB=V,...   with HeuristicParams knobs changed
//                             (base, slope, partner_extra, opponent_bid, margin_levantine,
//                             margin_classic, raise_min_own, pass_margin)
//   pimc-auction[:KNOB=V,...] the registry pimc's auction and trump (PimcBidding knobs changed),
//                             heuristic card play (no solving: the fitted model), the pairing of
//                             pimc_match --auction-only; pimc-auction-old: PimcOptions defaults
//                             (the threshold auction of issue 4)
// Deal k: deal_from_seed(derive_seed(S, k), dealer k mod 4) (the deals of `tarneeb simulate
// --duplicate --seed S`); each deal is played twice with the seats swapped. Prints A's mean
// net points per deal over B (half the pair's difference) with its 95 % interval, and each
// side's contracts declared and made.
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/stats.hpp"
#include "bot_specs.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: heuristic_duel A B [--deals N] [--seed S] [--rules levantine|classic]\n";
        return 2;
    }
    const std::string a = argv[1], b = argv[2];
    int deals = 20000;
    std::uint64_t seed = 1;
    Rules rules = kLevantine;
    for (int i = 3; i < argc; ++i) {
        const std::string o = argv[i];
        auto val = [&] { return std::string(i + 1 < argc ? argv[++i] : ""); };
        if (o == "--deals") deals = std::stoi(val());
        else if (o == "--seed") seed = std::stoull(val());
        else if (o == "--rules") rules = val() == "classic" ? kClassic : kLevantine;
        else { std::cerr << "unknown option " << o << "\n"; return 2; }
    }
    double sum = 0, sq = 0;
    std::array<long long, 2> declared{}, made{}, points{};
    long long passed = 0;
    for (int k = 0; k < deals; ++k) {
        const std::uint64_t unit = derive_seed(seed, static_cast<std::uint64_t>(k));
        const Seat dealer = seat(k);
        const Hands hands = deal_from_seed(unit, dealer);
        auto x = make_spec_bot(a, derive_seed(unit, 1)), y = make_spec_bot(b, derive_seed(unit, 2)), x2 = make_spec_bot(a, derive_seed(unit, 3)),
             y2 = make_spec_bot(b, derive_seed(unit, 4));
        std::array<long long, 2> by{};
        for (int pass = 0; pass < 2; ++pass) {
            const bool sw = pass == 1;
            const Lineup l = sw ? Lineup{y.get(), x.get(), y2.get(), x2.get()} : Lineup{x.get(), y.get(), x2.get(), y2.get()};
            const Round r = play_deal(rules, dealer, hands, l).round();
            for (Team t : {Team::t0, Team::t1}) by[static_cast<std::size_t>(index(t) ^ static_cast<int>(sw))] += r.points(t);
            if (r.phase() == Phase::passed_out) { ++passed; continue; }
            const auto side = static_cast<std::size_t>(index(team_of(r.contract()->declarer)) ^ static_cast<int>(sw));
            ++declared[side];
            made[side] += r.made();
        }
        const double d = static_cast<double>(by[0] - by[1]) / 2.0;
        sum += d;
        sq += d * d;
        points[0] += by[0];
        points[1] += by[1];
    }
    const auto ci = mean_ci95(deals, sum, sq);
    std::cout << a << " vs " << b << " (" << (rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic") << ", "
              << deals << " deals, seed " << seed << "): " << sum / deals << " [" << (ci ? ci->first : 0) << ", "
              << (ci ? ci->second : 0) << "] points/deal; points/deal " << static_cast<double>(points[0]) / (2.0 * deals)
              << " / " << static_cast<double>(points[1]) / (2.0 * deals) << "; declared (made) " << declared[0] << " ("
              << made[0] << ") / " << declared[1] << " (" << made[1] << "); passed out " << passed << " of "
              << 2 * deals << "\n";
}
