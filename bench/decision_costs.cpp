// decision_costs: several bots' card decisions on the same positions, each valued double dummy
// against the best card for the side to play (issue 29: comparing card players at the cost of a
// few thousand decisions instead of a duplicate match).
//
//   decision_costs --bot A --bot B ... [--deals N] [--seed S] [--first K] [--rules levantine|classic]
//                  [--from-trick T] [--to-trick T] [--by-trick]
//
// Deal k of seed S (the deals of `simulate --duplicate --seed S`, table a; k from K to K+N-1) is
// played by four heuristics; at every card decision with more than one legal card the position
// (in tricks T..T' with --from-trick/--to-trick) is solved double dummy (solver/analysis.hpp card_values) and each bot (bot_specs.hpp: registry
// names and knob specs, e.g. "pimc:threads=1") is asked for its card from that seat's view
// (SeatView only: a fresh bot per position, seeded by the deal and the position). A card's cost
// is what it gives away against the best card for the side to play: in tricks, and in points
// (the preset's score of the deal for the side to play, made or set, net of the other side's,
// if the rest is played double dummy). Prints per bot: decisions, the share of best cards,
// tricks and points given away per decision, and for each bot after the first the paired
// difference in points per decision against the first with its 95 % interval (stats.hpp);
// with --by-trick, also each bot's points given away per decision in each of the 13 tricks.
// Double dummy sees every card: a cost is against perfect information, not what the seat could
// know, so read differences between bots, not the costs themselves, as the result.
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tarneeb/core/random.hpp"
#include "tarneeb/core/stats.hpp"
#include "tarneeb/solver/analysis.hpp"
#include "bot_specs.hpp"
#include "deal_options.hpp"
#include "self_play.hpp"

using namespace tarneeb;

namespace {

/// The deal's points for the side to play (`declaring`: the declaring team) when the declaring
/// team ends with `declarer_tricks`: its own points minus the other side's.
int side_points(const Rules& rules, int bid, int declarer_tricks, bool declaring) {
    const RoundScore s = score_round(rules, bid, declarer_tricks);
    return declaring ? s.declarers - s.defenders : s.defenders - s.declarers;
}

struct Tally {
    long decisions = 0, best = 0, tricks = 0;
    double points = 0;
    double diff = 0, diff_sq = 0;  ///< points given away minus the first bot's, summed and squared
    std::array<long, 13> trick_decisions{};  ///< by trick (0 = the first): decisions
    std::array<double, 13> trick_points{};   ///< ... and points given away
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"decision_costs: several bots' card decisions on the same positions, valued double dummy"};
    bench::last_value_wins(app);
    int deals = 0, first = 0;
    std::uint64_t seed = 0;
    Rules rules;
    bench::add_deals(app, deals, 100, "deals of heuristic self-play");
    bench::add_seed(app, seed, 1);
    bench::add_rules(app, rules, Preset::levantine);
    app.add_option("--first", first, "the first deal's number")->check(bench::non_negative())->capture_default_str();
    std::vector<std::string> specs;
    app.add_option("--bot", specs, "a bot to compare (bot_specs.hpp), once per bot; the first is the reference")
        ->required()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    int from_trick = 1, to_trick = 13;
    app.add_option("--from-trick", from_trick, "only decisions in this trick or later (1-13)")->check(CLI::Range(1, 13))->capture_default_str();
    app.add_option("--to-trick", to_trick, "only decisions in this trick or earlier (1-13)")->check(CLI::Range(1, 13))->capture_default_str();
    bool by_trick = false;
    app.add_flag("--by-trick", by_trick, "also print each bot's points given away per decision in each trick");
    CLI11_PARSE(app, argc, argv);
    for (const std::string& spec : specs)
        if (const std::string e = bots::spec_error(spec); !e.empty()) {
            std::fprintf(stderr, "decision_costs: %s\n", e.c_str());
            return 2;
        }

    std::vector<Tally> tally(specs.size());
    solver::Solver solver;
    for (int k = first; k < first + deals; ++k) {
        const std::uint64_t unit = derive_seed(seed, static_cast<std::uint64_t>(k));
        const Round played = bench::heuristic_self_play(rules, seed, k);
        if (played.phase() == Phase::passed_out) continue;
        for (int c = 0; c < 52; ++c) {
            const auto pos = solver::round_after(played, c);
            if (!pos) break;
            if (pos->legal_cards().size() <= 1) continue;
            if (pos->tricks_played() + 1 < from_trick) continue;
            if (pos->tricks_played() + 1 > to_trick) break;
            const Seat s = pos->to_act();
            solver::CardValues values;
            if (solver::card_values(solver, *pos, values) != solver::SolveError::ok) {
                std::fprintf(stderr, "decision_costs: solve error in deal %d\n", k);
                return 1;
            }
            const int bid = pos->contract()->bid;
            const bool declaring = team_of(s) == pos->contract()->team();
            const auto& top = values.cards().front();
            const int best_points = side_points(rules, bid, top.declarer_tricks, declaring);
            double first_cost = 0;
            for (std::size_t b = 0; b < specs.size(); ++b) {
                auto bot = bots::make_spec_bot(specs[b], derive_seed(unit, 100 + static_cast<std::uint64_t>(c)));
                const Action a = bot->decide(SeatView(*pos, s));
                const auto* mine = values.find(a.card());
                if (mine == nullptr) {
                    std::fprintf(stderr, "decision_costs: %s played an illegal card in deal %d\n", specs[b].c_str(), k);
                    return 1;
                }
                const double cost = best_points - side_points(rules, bid, mine->declarer_tricks, declaring);
                Tally& t = tally[b];
                ++t.decisions;
                t.best += mine->tricks == top.tricks;
                t.tricks += top.tricks - mine->tricks;
                t.points += cost;
                const auto trick = static_cast<std::size_t>(pos->tricks_played());
                ++t.trick_decisions[trick];
                t.trick_points[trick] += cost;
                if (b == 0) first_cost = cost;
                t.diff += cost - first_cost;
                t.diff_sq += (cost - first_cost) * (cost - first_cost);
            }
        }
    }
    std::printf("%s, deals %d..%d of seed %llu, heuristic self-play positions\n",
                rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic", first, first + deals - 1,
                static_cast<unsigned long long>(seed));
    std::printf("%-32s %9s %7s %9s %9s  %s\n", "bot", "decisions", "best", "tricks", "points", "points minus the first's [95 % CI]");
    for (std::size_t b = 0; b < specs.size(); ++b) {
        const Tally& t = tally[b];
        const double n = t.decisions > 0 ? static_cast<double>(t.decisions) : 1.0;
        std::printf("%-32s %9ld %7.3f %9.4f %9.4f", specs[b].c_str(), t.decisions, static_cast<double>(t.best) / n,
                    static_cast<double>(t.tricks) / n, t.points / n);
        if (b > 0) {
            if (const auto ci = mean_ci95(t.decisions, t.diff, t.diff_sq))
                std::printf("  %+.4f [%+.4f, %+.4f]", t.diff / n, ci->first, ci->second);
        }
        std::printf("\n");
    }
    if (!by_trick) return 0;
    std::printf("\npoints given away per decision, by trick (decisions per trick: ");
    for (long d : tally.front().trick_decisions) std::printf("%ld ", d);
    std::printf(")\n%-32s", "bot");
    for (int trick = 1; trick <= 13; ++trick) std::printf(" %6d", trick);
    std::printf("\n");
    for (std::size_t b = 0; b < specs.size(); ++b) {
        std::printf("%-32s", specs[b].c_str());
        for (std::size_t trick = 0; trick < 13; ++trick) {
            const long d = tally[b].trick_decisions[trick];
            std::printf(" %6.3f", d > 0 ? tally[b].trick_points[trick] / static_cast<double>(d) : 0.0);
        }
        std::printf("\n");
    }
}
