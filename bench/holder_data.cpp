// holder_data: training positions for the holder model (include/tarneeb/bots/holder_model.hpp;
// tools/train_holder_model.py; docs/analysis.md "A learned holder model").
//
//   holder_data --deals N [--seed S] [--rules levantine|classic] [--positions P] --out FILE
//
// Deal k (deal_from_seed(derive_seed(S, k), dealer k mod 4), the deals of `tarneeb simulate
// --seed S`) is played out by four heuristics; at P moments of its play chosen from the deal's
// own stream (after 1 to 51 cards), the seat to act looks at the cards it has not seen. For each
// such card that more than one other seat may hold, one row of float32 goes to FILE:
//   label (0, 1, 2: the holder among the seats to the viewer's left, across, right),
//   mask[3] (1 where that seat may hold the card), then kHolderFeatures features per seat
//   (zeros where it may not).
// Prints the rows written and the share of them where the prior alone (cards held) puts the
// card on its holder, as a check.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/holder_model.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"

using namespace tarneeb;
using namespace tarneeb::bots;

int main(int argc, char** argv) {
    CLI::App app{"holder_data: positions of heuristic self-play for the holder model"};
    int deals = 1000, positions = 2;
    std::uint64_t seed = 1;
    std::string rules_name = "levantine", out_path;
    app.add_option("--deals", deals)->check(CLI::Range(1, 10000000));
    app.add_option("--seed", seed);
    app.add_option("--rules", rules_name)->check(CLI::IsMember({"levantine", "classic"}));
    app.add_option("--positions", positions, "moments per deal")->check(CLI::Range(1, 51));
    app.add_option("--out", out_path)->required();
    CLI11_PARSE(app, argc, argv);
    const Rules& rules = rules_name == "classic" ? kClassic : kLevantine;

    std::ofstream out(out_path, std::ios::binary);
    if (!out) {
        std::cerr << "holder_data: cannot write " << out_path << "\n";
        return 1;
    }
    HeuristicBot bot;
    std::vector<float> row(4 + 3 * kHolderFeatures);
    std::array<double, kHolderFeatures> f{};
    long rows = 0, prior_right = 0;
    for (int k = 0; k < deals; ++k) {
        const Seat dealer = seat(k % 4);
        const std::uint64_t s = derive_seed(seed, static_cast<std::uint64_t>(k));
        Round r(rules, dealer, deal_from_seed(s, dealer));
        Rng pick(derive_seed(s, 0x401de7));
        std::vector<int> at;
        for (int p = 0; p < positions; ++p) at.push_back(1 + static_cast<int>(pick.below(51)));
        while (!r.over()) {
            const int played = static_cast<int>(r.plays().size());
            if (r.phase() == Phase::play && std::find(at.begin(), at.end(), played) != at.end()) {
                at.erase(std::find(at.begin(), at.end(), played));
                const SeatView v(r, r.to_act());
                const HolderEvidence e = read_evidence(v);
                for (Card c : v.unseen()) {
                    std::fill(row.begin(), row.end(), 0.0f);
                    int may = 0, best = -1, label = -1;
                    for (int rel = 1; rel <= 3; ++rel) {
                        const Seat other = next(v.seat(), rel);
                        if (r.hand(other).contains(c)) label = rel - 1;
                        if (v.cards_left(other) == 0 || v.shown_void(other, c.suit())) continue;
                        ++may;
                        row[static_cast<std::size_t>(rel)] = 1;
                        holder_features(v, e, other, c, f);
                        for (int i = 0; i < kHolderFeatures; ++i)
                            row[static_cast<std::size_t>(4 + (rel - 1) * kHolderFeatures + i)] = static_cast<float>(f[static_cast<std::size_t>(i)]);
                        if (best < 0 || v.cards_left(other) > v.cards_left(next(v.seat(), best + 1))) best = rel - 1;
                    }
                    if (may < 2) continue;
                    row[0] = static_cast<float>(label);
                    out.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
                    ++rows;
                    prior_right += best == label;
                }
            }
            r.apply(bot.decide(SeatView(r, r.to_act())));
        }
    }
    std::cout << "{\"rows\": " << rows << ", \"floats_per_row\": " << row.size() << ", \"prior_argmax_right\": "
              << (rows ? static_cast<double>(prior_right) / static_cast<double>(rows) : 0.0) << "}\n";
    return 0;
}
