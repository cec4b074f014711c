// heuristic_duel: duplicate deals between variants of the fast bots, to measure bidding
// changes in seconds (docs/bots.md "Bidding fitted to data").
//
//   heuristic_duel A B [--deals N] [--seed S] [--rules levantine|classic] [--threads T]
//                      [--per-deal FILE] [--dd TABLES --shift MA,SA,MB,SB] [--seat-seeds]
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
// side's contracts declared and made. --threads: deals played on T threads (same results).
// --per-deal: each deal's difference as "k d" lines, to pair two runs on the same deals.
// --seat-seeds: each bot's seed is its seat's, in both plays of a deal (common random numbers):
// without it each side's bots draw their own seeds, so two pimc of the same options already
// differ by their samples; with it two equal bots score exactly 0 on every deal, and a variant
// that changes a few decisions differs only on the deals where one of them is played.
// --dd: score each table not by its card play but by the double-dummy tricks of its contract
// (TABLES: bench/bid_data --tables-out of the same seed; deals without a table are skipped)
// plus a shift normal(MA, SA) when A declares, normal(MB, SB) when B does, rounded: an
// auction's worth for a given card play in seconds (the shifts measured from records of that
// card play against the double-dummy tables).
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>
#include <map>
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
#include "deal_options.hpp"
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {

/// Per deal id: the declaring seat's double-dummy tricks per trump [suit][seat].
std::map<int, std::array<std::array<int, 4>, 4>> read_tables(const std::string& path) {
    std::map<int, std::array<std::array<int, 4>, 4>> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        auto& t = out[j["id"].get<int>()];
        for (Suit su : kSuits)
            for (std::size_t s = 0; s < 4; ++s) t[static_cast<std::size_t>(index(su))][s] = j["tricks"][std::string(1, suit_letter(su))][s];
    }
    return out;
}

/// Expected levantine/classic points (declaring team, defenders) of `bid` when the declaring
/// team's tricks are dd + normal(mu, sd) rounded to 0..13.
std::array<double, 2> dd_points(const Rules& rules, int bid, int dd, double mu, double sd) {
    std::array<double, 2> out{};
    double below = 0;
    for (int t = 0; t <= 13; ++t) {
        const double x = t + 0.5 - dd - mu;
        const double c = t == 13 ? 1.0 : sd <= 0 ? (x > 0 ? 1.0 : 0.0) : 0.5 * std::erfc(-x / (sd * std::sqrt(2.0)));
        const double p = c - below;
        below = c;
        const bool made = t >= bid;
        const double mine = made ? (rules.scoring == ScoringStyle::bid_value ? bid : t) : -bid;
        out[0] += p * mine;
        out[1] += p * (made ? 0 : 13 - t);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"heuristic_duel: duplicate deals between variants of the fast bots (bench/bot_specs.hpp)"};
    bench::last_value_wins(app);
    std::string a, b;
    int deals = 0, threads = 0;
    std::uint64_t seed = 0;
    Rules rules;
    std::string per_deal, dd_file;
    std::array<double, 4> shift{};
    const CLI::Validator spec([](std::string& s) { return spec_error(s); }, "SPEC");
    app.add_option("A", a, "the first side's bot (bench/bot_specs.hpp)")->required()->check(spec);
    app.add_option("B", b, "the second side's bot")->required()->check(spec);
    bench::add_deals(app, deals, 20000);
    bench::add_seed(app, seed, 1);
    bench::add_rules(app, rules, Preset::levantine);
    bench::add_threads(app, threads, 1, "deals played on T threads (same results)");
    app.add_option("--per-deal", per_deal, "write each deal's difference as \"k d\" lines here");
    bool seat_seeds = false;
    app.add_flag("--seat-seeds", seat_seeds, "each bot's seed is its seat's in both plays (common random numbers)");
    app.add_option("--dd", dd_file, "score each table by the double-dummy tricks of its contract, tables from this file "
                                    "(bid_data --tables-out)");
    app.add_option_function<std::string>(
           "--shift",
           [&shift](const std::string& v) {
               std::istringstream in(v);
               for (double& x : shift) {
                   std::string w;
                   std::getline(in, w, ',');
                   char* end = nullptr;
                   x = std::strtod(w.c_str(), &end);
                   if (w.empty() || *end != '\0') throw CLI::ValidationError("--shift", "not four numbers MA,SA,MB,SB: " + v);
               }
               if (in.peek() != std::char_traits<char>::eof()) throw CLI::ValidationError("--shift", "more than four numbers: " + v);
           },
           "with --dd: tricks added when A declares normal(MA, SA), when B does normal(MB, SB)")
        ->type_name("MA,SA,MB,SB");
    CLI11_PARSE(app, argc, argv);
    const auto tables = dd_file.empty() ? decltype(read_tables("")){} : read_tables(dd_file);
    std::vector<double> diff(static_cast<std::size_t>(deals), 0);
    std::vector<char> used(static_cast<std::size_t>(deals), 0);
    std::mutex mu;
    std::array<long long, 2> declared{}, made{};
    std::array<double, 2> points{};
    long long passed = 0;
    auto work = [&](int worker) {
        for (int k = worker; k < deals; k += threads) {
            const std::uint64_t unit = derive_seed(seed, static_cast<std::uint64_t>(k));
            const Seat dealer = seat(k);
            const Hands hands = deal_from_seed(unit, dealer);
            const auto table = tables.find(k);
            if (!dd_file.empty() && table == tables.end()) continue;
            auto x = make_spec_bot(a, derive_seed(unit, 1)), y = make_spec_bot(b, derive_seed(unit, 2)),
                 x2 = make_spec_bot(a, derive_seed(unit, 3)), y2 = make_spec_bot(b, derive_seed(unit, 4));
            // --seat-seeds: the second play's bots take the seeds of the seats they sit in.
            std::unique_ptr<Bot> sx, sy, sx2, sy2;
            if (seat_seeds) {
                sy = make_spec_bot(b, derive_seed(unit, 1));
                sx = make_spec_bot(a, derive_seed(unit, 2));
                sy2 = make_spec_bot(b, derive_seed(unit, 3));
                sx2 = make_spec_bot(a, derive_seed(unit, 4));
            }
            std::array<double, 2> by{};
            std::array<long long, 2> dec{}, mad{};
            long long pass_out = 0;
            for (int pass = 0; pass < 2; ++pass) {
                const bool sw = pass == 1;
                const Lineup l = !sw        ? Lineup{x.get(), y.get(), x2.get(), y2.get()}
                                 : seat_seeds ? Lineup{sy.get(), sx.get(), sy2.get(), sx2.get()}
                                              : Lineup{y.get(), x.get(), y2.get(), x2.get()};
                const Round r = play_deal(rules, dealer, hands, l).round();
                if (r.phase() == Phase::passed_out) { ++pass_out; continue; }
                const auto side = static_cast<std::size_t>(index(team_of(r.contract()->declarer)) ^ static_cast<int>(sw));
                ++dec[side];
                if (dd_file.empty()) {
                    for (Team t : {Team::t0, Team::t1}) by[static_cast<std::size_t>(index(t) ^ static_cast<int>(sw))] += r.points(t);
                    mad[side] += r.made();
                } else {
                    const Contract c = *r.contract();
                    const int dd = table->second[static_cast<std::size_t>(index(r.trump()))][static_cast<std::size_t>(index(c.declarer))];
                    const auto p = dd_points(rules, c.bid, dd, shift[2 * side], shift[2 * side + 1]);
                    by[side] += p[0];
                    by[1 - side] += p[1];
                    mad[side] += dd + static_cast<int>(std::lround(shift[2 * side])) >= c.bid;
                }
            }
            const std::lock_guard lock(mu);
            diff[static_cast<std::size_t>(k)] = (by[0] - by[1]) / 2.0;
            used[static_cast<std::size_t>(k)] = 1;
            for (std::size_t i = 0; i < 2; ++i) { points[i] += by[i]; declared[i] += dec[i]; made[i] += mad[i]; }
            passed += pass_out;
        }
    };
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) pool.emplace_back(work, w);
    for (auto& t : pool) t.join();
    double sum = 0, sq = 0;
    int n = 0;
    std::ofstream out;
    if (!per_deal.empty()) out.open(per_deal);
    for (int k = 0; k < deals; ++k) {
        if (!used[static_cast<std::size_t>(k)]) continue;
        const double d = diff[static_cast<std::size_t>(k)];
        ++n;
        sum += d;
        sq += d * d;
        if (out) out << k << ' ' << d << '\n';
    }
    const auto ci = mean_ci95(n, sum, sq);
    std::cout << a << " vs " << b << " (" << (rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic") << ", "
              << n << " deals, seed " << seed << (dd_file.empty() ? "" : ", double-dummy scored") << "): " << sum / std::max(n, 1)
              << " [" << (ci ? ci->first : 0) << ", " << (ci ? ci->second : 0) << "] points/deal; points/deal "
              << points[0] / (2.0 * std::max(n, 1)) << " / " << points[1] / (2.0 * std::max(n, 1)) << "; declared (made) "
              << declared[0] << " (" << made[0] << ") / " << declared[1] << " (" << made[1] << "); passed out " << passed
              << " of " << 2 * n << "\n";
}
