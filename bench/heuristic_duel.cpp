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

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {

class AuctionOnly final : public Bot {
public:
    AuctionOnly(std::uint64_t seed, const PimcOptions& o) : pimc_(seed, o) {}
    std::string_view name() const override { return "pimc-auction"; }
    Action decide_call(const SeatView& v) override { return pimc_.decide_call(v); }
    Action decide_trump(const SeatView& v) override { return pimc_.decide_trump(v); }
    Action decide_card(const SeatView& v) override { return heuristic_.decide_card(v); }

private:
    PimcBot pimc_;
    HeuristicBot heuristic_;
};

std::unique_ptr<Bot> make(const std::string& spec, std::uint64_t seed) {
    const auto colon = spec.find(':');
    const std::string base = spec.substr(0, colon);
    std::vector<std::pair<std::string, double>> knobs;
    if (colon != std::string::npos) {
        std::istringstream in(spec.substr(colon + 1));
        for (std::string kv; std::getline(in, kv, ',');) {
            const auto eq = kv.find('=');
            knobs.emplace_back(kv.substr(0, eq), std::stod(kv.substr(eq + 1)));
        }
    }
    if (base == "heuristic" || base == "heuristic-old") {
        HeuristicParams p;
        p.expected_points = base == "heuristic";
        for (const auto& [k, v] : knobs) {
            if (k == "base") p.base = v;
            else if (k == "slope") p.slope = v;
            else if (k == "partner_extra") p.partner_extra = v;
            else if (k == "opponent_bid") p.opponent_bid = v;
            else if (k == "margin_levantine") p.margin_levantine = v;
            else if (k == "margin_classic") p.margin_classic = v;
            else if (k == "raise_min_own") p.raise_min_own = v;
            else if (k == "pass_margin") p.pass_margin = v;
            else if (k == "preempt") p.preempt = v;
            else throw std::runtime_error("unknown heuristic knob " + k);
        }
        return std::make_unique<HeuristicBot>(seed, p);
    }
    if (base == "pimc-auction" || base == "pimc-auction-old") {
        PimcOptions o = base == "pimc-auction" ? registry_pimc_options() : PimcOptions{};
        auto& b = o.bidding;
        for (const auto& [k, v] : knobs) {
            if (k == "threshold") b.threshold = v;
            else if (k == "classic_threshold") b.classic_threshold = v;
            else if (k == "partner_base") b.partner_base = v;
            else if (k == "partner_slope") b.partner_slope = v;
            else if (k == "opponent_bid") b.opponent_bid = v;
            else if (k == "raise_min") b.raise_min = v;
            else if (k == "sd") b.sd = v;
            else if (k == "expected_points") b.expected_points = v != 0;
            else if (k == "pass_margin") b.pass_margin = v;
            else if (k == "preempt") b.preempt = v;
            else throw std::runtime_error("unknown pimc knob " + k);
        }
        return std::make_unique<AuctionOnly>(seed, o);
    }
    throw std::runtime_error("unknown player " + spec);
}

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
        auto x = make(a, derive_seed(unit, 1)), y = make(b, derive_seed(unit, 2)), x2 = make(a, derive_seed(unit, 3)),
             y2 = make(b, derive_seed(unit, 4));
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
