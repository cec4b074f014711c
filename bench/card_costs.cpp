// card_costs: where the heuristic's card play loses tricks, by the rule that chose each card
// (docs/analysis.md "The heuristic's card play (issue 29)").
//
//   card_costs [--deals N] [--seed S] [--rules levantine|classic] [--cards MASK] [--show LABEL]
//
// Deal k of seed S (the deals of `simulate --duplicate --seed S`, table a) is played by four
// heuristics (HeuristicParams::card_rules = MASK, default all); at every card of the play the
// position is solved double dummy (solver/analysis.hpp card_values) and the card's cost is the
// tricks it gives away against the best card for the side to play. Prints, per rule label
// (heuristic_card's CardChoice::rule) and side (declaring team / defenders): decisions, total
// cost and cost per decision. Double dummy sees every card, so a cost is what was possible,
// not what the seat could know: read the totals as where to look, not as a verdict.
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/solver/analysis.hpp"
#include "deal_options.hpp"
#include "self_play.hpp"

using namespace tarneeb;

int main(int argc, char** argv) {
    CLI::App app{"card_costs: where the heuristic's card play loses tricks, by the rule that chose each card"};
    bench::last_value_wins(app);
    int deals = 0;
    std::uint64_t seed = 0;
    Rules rules;
    unsigned mask = bots::kDefaultCardRules;
    std::string show;  // print the positions where this rule gave a trick away
    bench::add_deals(app, deals, 200, "deals of heuristic self-play");
    bench::add_seed(app, seed, 1);
    bench::add_rules(app, rules, Preset::levantine);
    app.add_option("--cards", mask, "HeuristicParams::card_rules, a bit mask of the card rules")->capture_default_str();
    app.add_option("--show", show, "print the positions where the rule with this label gave a trick away");
    CLI11_PARSE(app, argc, argv);
    bots::HeuristicParams params;
    params.card_rules = mask;
    struct Sum { long n = 0, cost = 0; };
    std::map<std::pair<std::string, int>, Sum> by;  // (rule, declaring side?)
    solver::Solver solver;
    long total = 0, decisions = 0;
    for (int k = 0; k < deals; ++k) {
        const Round played = bench::heuristic_self_play(rules, seed, k, params);
        if (played.phase() == Phase::passed_out) continue;
        for (int c = 0; c < 52; ++c) {
            const auto pos = solver::round_after(played, c);
            if (!pos) break;
            const Seat s = pos->to_act();
            if (pos->legal_cards().size() <= 1) continue;
            const auto choice = bots::heuristic_card(SeatView(*pos, s), params);
            solver::CardValues v;
            if (solver::card_values(solver, *pos, v) != solver::SolveError::ok) { std::fprintf(stderr, "solve error\n"); return 1; }
            const auto* mine = v.find(choice.card);
            const int cost = v.cards().front().tricks - mine->tricks;
            const int decl = team_of(s) == pos->contract()->team() ? 1 : 0;
            if (cost > 0 && show == choice.rule) {
                std::printf("deal %d: %s, trump %c, contract %d by seat %d, tricks %d-%d, seat %d to play", k,
                            rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic", suit_letter(pos->trump()),
                            pos->contract()->bid, index(pos->contract()->declarer), pos->tricks(Team::t0), pos->tricks(Team::t1),
                            index(s));
                std::printf("; trick so far:");
                for (Card t : pos->current_trick()) std::printf(" %s", to_string(t).c_str());
                std::printf("\n");
                for (Seat h : kSeats) {
                    std::printf("  seat %d%s:", index(h), h == s ? "*" : "");
                    for (Suit su : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs}) {
                        std::printf(" %c:", suit_letter(su));
                        for (int r = 12; r >= 0; --r)
                            if (pos->hand(h).contains(Card(su, static_cast<Rank>(r)))) std::printf("%s", to_string(Card(su, static_cast<Rank>(r))).substr(0, 1).c_str());
                    }
                    std::printf("\n");
                }
                std::printf("  played %s (%d), best:", to_string(choice.card).c_str(), mine->tricks);
                for (const auto& cv : v.cards()) std::printf(" %s=%d", to_string(cv.card).c_str(), cv.tricks);
                std::printf("\n");
            }
            auto& e = by[{choice.rule, decl}];
            ++e.n;
            e.cost += cost;
            total += cost;
            ++decisions;
        }
    }
    std::printf("%s, %d deals, seed %d, cards %u: %ld decisions with a choice, %ld tricks given away (%.3f per deal)\n",
                rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic", deals, static_cast<int>(seed), mask, decisions,
                total, static_cast<double>(total) / deals);
    std::printf("%-36s %-9s %8s %8s %8s\n", "rule", "side", "n", "cost", "per");
    for (const auto& [key, e] : by)
        std::printf("%-36s %-9s %8ld %8ld %8.3f\n", key.first.c_str(), key.second ? "declarer" : "defender", e.n, e.cost,
                    static_cast<double>(e.cost) / static_cast<double>(e.n));
}
