// card_policy_data: training positions for the learned card policy (include/tarneeb/bots/
// card_policy.hpp; tools/train_card_policy.py; docs/analysis.md "A learned card player").
//
//   card_policy_data --out FILE [--deals N] [--first K] [--seed S] [--rules levantine|classic]
//                    [--policy MARGIN] [--label dd|rollout] [--trace FILE [--replay OLD [--old-features N]]]
//
// Deals K .. K+N-1 of seed S (deal_from_seed(derive_seed(S, k), dealer k mod 4): the deals of
// `tarneeb simulate --duplicate --seed S`, table a) are played by four heuristics (with
// --policy, four LearnedBots with that margin: positions the learned player reaches). At every
// card decision with more than one legal card the position is solved double dummy
// (solver/analysis.hpp card_values: one DDS call values every legal card) and one row of
// float32 per legal card goes to FILE, in legal_cards() order:
//   position id (k * 52 + cards played before; exact in float32 below 322,000 deals),
//   the side to play's double-dummy tricks of the rest of the deal with this card (0..13),
//   the declaring team's double-dummy total with this card (0..13),
//   1 if the seat to play is of the declaring team, the bid, 1 for the classic preset,
//   then the card's kCardFeatures features (CardFeatures: the view only).
// With --label rollout the two values are instead those of the deal played out by four
// heuristics after the card (on the real hands: microseconds a card, no solver): the worth of a
// card against the heuristic as it plays, rather than against perfect play.
// With --trace FILE every action played is also written (two bytes: kind, value); with --replay
// OLD --trace FILE nothing is played or solved: the deals are replayed from the trace and OLD's
// values copied into rows of today's features (a feature change without solving again).
// Prints the rows, the positions, and the seconds spent (with dd most of it in DDS: a few ms a
// position).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tarneeb/bots/card_policy.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"
#include "tarneeb/solver/analysis.hpp"
#include "deal_options.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

namespace {

/// --replay: the deals of `trace_path` (written by an earlier run with the same deals, seed and
/// rules) replayed; at each decision with a choice, the earlier file's rows of that position
/// (rows of 6 + old_features floats) are written again with today's CardFeatures. Returns the
/// exit code (1 if a file cannot be read or the positions do not match).
int replay(const std::string& old_path, int old_features, const std::string& trace_path, const std::string& out_path, int deals,
           int first, std::uint64_t seed, const Rules& rules) {
    std::ifstream old(old_path, std::ios::binary), trace(trace_path, std::ios::binary);
    std::ofstream out(out_path, std::ios::binary);
    if (!old || !trace || !out) {
        std::cerr << "card_policy_data: cannot read " << old_path << " or " << trace_path << ", or write " << out_path << "\n";
        return 1;
    }
    std::vector<float> in(static_cast<std::size_t>(6 + old_features)), row(6 + kCardFeatures);
    long rows = 0;
    for (int k = first; k < first + deals; ++k) {
        const Seat dealer = seat(k);
        Round r(rules, dealer, deal_from_seed(derive_seed(seed, static_cast<std::uint64_t>(k)), dealer));
        while (!r.over()) {
            char bytes[2];
            if (!trace.read(bytes, 2)) {
                std::cerr << "card_policy_data: " << trace_path << " ends in deal " << k << "\n";
                return 1;
            }
            const Action a{static_cast<ActionKind>(bytes[0]), static_cast<std::uint8_t>(bytes[1])};
            if (r.phase() == Phase::play && r.legal_cards().size() > 1) {
                const SeatView view(r, r.to_act());
                const CardFeatures features(view, heuristic_card(view).card);
                for (int i = 0; i < features.legal().size(); ++i) {
                    old.read(reinterpret_cast<char*>(in.data()), static_cast<std::streamsize>(in.size() * sizeof(float)));
                    if (!old || in[0] != static_cast<float>(k * 52 + r.cards_played())) {
                        std::cerr << "card_policy_data: " << old_path << " does not match the replay in deal " << k << "\n";
                        return 1;
                    }
                    std::copy(in.begin(), in.begin() + 6, row.begin());
                    const auto f = features.of(i);
                    std::copy(f.begin(), f.end(), row.begin() + 6);
                    out.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
                    ++rows;
                }
            }
            if (r.apply(a) != ErrorCode::ok) {
                std::cerr << "card_policy_data: an illegal action in the trace, deal " << k << "\n";
                return 1;
            }
        }
    }
    if (old.read(reinterpret_cast<char*>(in.data()), 4)) {
        std::cerr << "card_policy_data: " << old_path << " has rows beyond the replayed deals\n";
        return 1;
    }
    std::printf("{\"rows\": %ld}\n", rows);
    return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"card_policy_data: heuristic self-play positions with every legal card's double-dummy value"};
    bench::last_value_wins(app);
    int deals = 0, first = 0;
    std::uint64_t seed = 0;
    Rules rules;
    std::string out_path;
    double margin = -1;
    bench::add_deals(app, deals, 1000);
    app.add_option("--first", first, "the first deal id")->capture_default_str()->check(bench::non_negative());
    bench::add_seed(app, seed, 1);
    bench::add_rules(app, rules, Preset::levantine);
    app.add_option("--policy", margin, "play with LearnedBot(margin) instead of the heuristic (negative: the heuristic)");
    std::string label = "dd";
    app.add_option("--label", label, "dd: each card's double-dummy value; rollout: the deal played out by four heuristics after it")
        ->capture_default_str()->check(CLI::IsMember({"dd", "rollout"}));
    app.add_option("--out", out_path, "the float32 rows")->required();
    std::string trace_path, replay_path;
    app.add_option("--trace", trace_path, "also write every action played (two bytes each: kind, value), to replay the deals");
    int old_features = kCardFeatures;
    app.add_option("--replay", replay_path,
                   "no play, no solving: replay the deals of --trace and copy the values of this earlier file's rows, "
                   "with the features recomputed");
    app.add_option("--old-features", old_features, "features per row of the --replay file")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    if (!replay_path.empty()) return replay(replay_path, old_features, trace_path, out_path, deals, first, seed, rules);

    std::ofstream out(out_path, std::ios::binary);
    if (!out) {
        std::cerr << "card_policy_data: cannot write " << out_path << "\n";
        return 1;
    }
    std::ofstream trace;
    if (!trace_path.empty()) trace.open(trace_path, std::ios::binary);
    const auto start = std::chrono::steady_clock::now();
    HeuristicBot heuristic;
    LearnedBot learned(0, static_cast<float>(margin));
    Bot& bot = margin < 0 ? static_cast<Bot&>(heuristic) : static_cast<Bot&>(learned);
    solver::Solver solver;
    std::vector<float> row(6 + kCardFeatures);
    long rows = 0, positions = 0;
    for (int k = first; k < first + deals; ++k) {
        const Seat dealer = seat(k);
        Round r(rules, dealer, deal_from_seed(derive_seed(seed, static_cast<std::uint64_t>(k)), dealer));
        while (!r.over()) {
            const SeatView view(r, r.to_act());
            if (r.phase() == Phase::play && r.legal_cards().size() > 1) {
                solver::CardValues values;
                if (label == "rollout") {
                    // Each legal card, then the heuristic for all four seats to the end: the
                    // tricks the side to play takes of the rest, and the declaring team's total.
                    for (Card c : r.legal_cards()) {
                        Round rest = r;
                        rest.apply(Action::play(c));
                        while (!rest.over()) rest.apply(heuristic.decide(SeatView(rest, rest.to_act())));
                        const Team side = team_of(r.to_act());
                        values.items[static_cast<std::size_t>(values.size++)] = {
                            c, rest.tricks(side) - r.tricks(side), rest.tricks(r.contract()->team())};
                    }
                } else if (solver::card_values(solver, r, values) != solver::SolveError::ok) {
                    std::cerr << "card_policy_data: solve error in deal " << k << "\n";
                    return 1;
                }
                const CardFeatures features(view, heuristic_card(view).card);
                const Contract contract = *r.contract();
                int i = 0;
                for (Card c : features.legal()) {
                    const solver::CardValue* v = values.find(c);
                    row[0] = static_cast<float>(k * 52 + r.cards_played());
                    row[1] = static_cast<float>(v->tricks);
                    row[2] = static_cast<float>(v->declarer_tricks);
                    row[3] = team_of(r.to_act()) == contract.team();
                    row[4] = static_cast<float>(contract.bid);
                    row[5] = rules.scoring == ScoringStyle::tricks_won;
                    const auto f = features.of(i++);
                    std::copy(f.begin(), f.end(), row.begin() + 6);
                    out.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
                    ++rows;
                }
                ++positions;
            }
            const Action a = bot.decide(view);
            if (trace.is_open()) {
                const char bytes[2] = {static_cast<char>(a.kind), static_cast<char>(a.value)};
                trace.write(bytes, 2);
            }
            r.apply(a);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"rows\": %ld, \"positions\": %ld, \"floats_per_row\": %zu, \"seconds\": %.1f}\n", rows, positions, row.size(),
                seconds);
    return out ? 0 : 1;
}
