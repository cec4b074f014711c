// bid_data: the data the computer players' bidding is fitted to (tools/fit_bidding.py,
// docs/bots.md "Bidding fitted to data").
//
//   bid_data [--deals N] [--seed S] [--first K] [--rules levantine|classic] [--bot NAME] [--dd]
//            [--tables-out FILE] [--tables-in FILE]
//
// Deal k (k = K .. K+N-1): hands deal_from_seed(derive_seed(S, k), dealer k mod 4), the same
// deals as `tarneeb simulate --duplicate --seed S`. For every deal it first finds what each seat
// would take as declarer: the heuristic bot playing all four seats with that seat declaring
// in its best_trump (`play`), and with --dd the double-dummy table (DDS, solver::tables: about
// 0.4 s of CPU per deal). Then four copies of bot NAME (default heuristic) bid; every call
// decision prints one CSV row: what the seat knows (its own estimate, the auction so far) and
// what its team would take if it declared (or defended against the standing high bidder).
// --tables-out writes each deal's hands and table as JSON lines in the format of
// tests/data/dd_oracle_2000.jsonl; --tables-in reads such a file instead of dealing and
// solving (dealer id mod 4; the oracle file itself works), so other auctions of the same
// deals cost no solving.
//
// Columns:
//   deal, dealer, seat, ncalls       deal id, dealer, the seat to call, calls made before it
//   est                              estimate_tricks(hand, best_trump(hand)) (heuristic)
//   model                            max over trumps of model_tricks (pimc's model)
//   partner_bid, partner_passed      AuctionRead of the seat
//   opp_bids, my_bid
//   high, high_rel                   standing high bid (0 none); 0 none, 1 partner, 2 opponent, 3 self
//   play_decl                        team tricks if this seat declares its best_trump (heuristic play)
//   play_def                         team tricks if the standing high bidder declares its best_trump
//                                    (heuristic play; -1 when no bid stands)
//   dd_decl, dd_best                 DD team tricks: this seat declares the trump of its best
//                                    model_tricks (pimc's choice) / its best trump (the table's)
//   dd_def                           DD team tricks defending the high bidder declaring the trump
//                                    of its best model_tricks (-1: none)
//   (dd_* are -1 without --dd)
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tarneeb/bots/auction_read.hpp"
#include "tarneeb/bots/bid_model.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"
#include "tarneeb/solver/par.hpp"
#include "tarneeb/solver/solver.hpp"
#include "deal_options.hpp"

using namespace tarneeb;

namespace {

/// The team tricks when `decl` declares (bid 7) in `trump`, the heuristic playing every seat.
int heuristic_tricks(const Hands& hands, Seat dealer, Seat decl, Suit trump) {
    Round r(kLevantine, dealer, hands);
    while (r.to_act() != decl) r.apply(Action::pass());
    r.apply(Action::bid(7));
    while (r.phase() == Phase::auction) r.apply(Action::pass());
    r.apply(Action::name_trump(trump));
    bots::HeuristicBot bot;
    while (!r.over()) r.apply(bot.decide(SeatView(r, r.to_act())));
    return r.tricks(team_of(decl));
}

/// The trump with the best model_tricks (pimc's bidding model) for `hand`.
Suit model_trump(CardSet hand) {
    Suit best = Suit::spades;
    for (Suit su : kSuits)
        if (bots::model_tricks(hand, su) > bots::model_tricks(hand, best)) best = su;
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bid_data: the data the computer players' bidding is fitted to (tools/fit_bidding.py)"};
    bench::last_value_wins(app);
    int deals = 0, first = 0;
    std::uint64_t seed = 0;
    Rules rules;
    std::string bot = "heuristic";
    bool dd = false;
    std::string tables_out, tables_in;
    bench::add_deals(app, deals, 1000, "deals K .. K+N-1 (with --tables-in: those of its deals whose ids are in that range)");
    app.add_option("--first", first, "the first deal id K")->capture_default_str()->check(bench::non_negative());
    bench::add_seed(app, seed, 1);
    bench::add_rules(app, rules, Preset::levantine);
    app.add_option("--bot", bot, "the bot that bids (a registry name)")
        ->capture_default_str()
        ->check(CLI::Validator([](std::string& name) { return bots::make_bot(name, 0) ? std::string() : "unknown bot " + name; },
                               "BOT"));
    app.add_flag("--dd", dd, "solve each deal's double-dummy table (about 0.4 s of CPU per deal) for the dd_* columns");
    app.add_option("--tables-out", tables_out, "write each deal's hands and table as JSON lines here");
    app.add_option("--tables-in", tables_in, "read the deals and their tables from this file (implies --dd)");
    CLI11_PARSE(app, argc, argv);
    std::printf("deal,dealer,seat,ncalls,est,model,partner_bid,partner_passed,opp_bids,my_bid,high,high_rel,"
                "play_decl,play_def,dd_decl,dd_best,dd_def\n");
    // The deals (ids, hands, tables), from --tables-in or dealt (and solved with --dd) in batches.
    std::vector<int> ids;
    std::vector<Hands> all_hands;
    std::vector<solver::DdTable> all_tables;
    if (!tables_in.empty()) {
        dd = true;
        std::ifstream in(tables_in);
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            const auto j = nlohmann::json::parse(line);
            const int id = j["id"];
            if (id < first || id >= first + deals) continue;
            Hands h{};
            for (std::size_t s = 0; s < 4; ++s) {
                std::istringstream hs(j["hands"][s].get<std::string>());
                for (std::string w; hs >> w;) h[s] |= *parse_card(w);
            }
            solver::DdTable t;
            for (Suit su : kSuits)
                for (std::size_t s = 0; s < 4; ++s)
                    t.tricks[static_cast<std::size_t>(index(su))][s] = j["tricks"][std::string(1, suit_letter(su))][s];
            ids.push_back(id);
            all_hands.push_back(h);
            all_tables.push_back(t);
        }
    }
    std::ofstream out_tables;
    if (!tables_out.empty()) out_tables.open(tables_out);
    constexpr int kBatch = 50;
    const int total = tables_in.empty() ? deals : static_cast<int>(ids.size());
    for (int b0 = 0; b0 < total; b0 += kBatch) {
        const int n = std::min(kBatch, total - b0);
        std::vector<Hands> hands(static_cast<std::size_t>(n));
        std::vector<solver::DdTable> tables(static_cast<std::size_t>(n));
        std::vector<int> batch_ids(static_cast<std::size_t>(n));
        for (int j = 0; j < n; ++j) {
            const auto u = static_cast<std::size_t>(j), g = static_cast<std::size_t>(b0 + j);
            if (!tables_in.empty()) {
                batch_ids[u] = ids[g];
                hands[u] = all_hands[g];
                tables[u] = all_tables[g];
            } else {
                batch_ids[u] = first + b0 + j;
                hands[u] = deal_from_seed(derive_seed(seed, static_cast<std::uint64_t>(batch_ids[u])), seat(batch_ids[u]));
            }
        }
        if (dd && tables_in.empty() && solver::tables(hands, tables) != solver::SolveError::ok) {
            std::cerr << "solver error\n";
            return 1;
        }
        if (out_tables.is_open())
            for (int j = 0; j < n; ++j) {
                const auto u = static_cast<std::size_t>(j);
                nlohmann::json o;
                o["id"] = batch_ids[u];
                for (Seat s : kSeats) o["hands"].push_back(to_string(hands[u][s]));
                for (Suit su : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs})
                    for (Seat s : kSeats) o["tricks"][std::string(1, suit_letter(su))].push_back(tables[u].at(su, s));
                out_tables << o.dump() << "\n" << std::flush;
            }
        for (int j = 0; j < n; ++j) {
            const int k = batch_ids[static_cast<std::size_t>(j)];
            const Seat dealer = seat(k);
            const Hands& h = hands[static_cast<std::size_t>(j)];
            const solver::DdTable& t = tables[static_cast<std::size_t>(j)];
            BySeat<int> play{};
            for (Seat s : kSeats) play[s] = heuristic_tricks(h, dealer, s, bots::best_trump(h[s]));
            BySeat<std::unique_ptr<bots::Bot>> b;
            for (Seat s : kSeats) b[s] = bots::make_bot(bot, derive_seed(seed, 1000003ull * static_cast<std::uint64_t>(k) + static_cast<std::uint64_t>(index(s))));
            Round r(rules, dealer, h);
            while (r.phase() == Phase::auction) {
                const Seat s = r.to_act();
                const SeatView v(r, s);
                const bots::AuctionRead a = bots::read_auction(v);
                double model = -99;
                for (Suit su : kSuits) model = std::max(model, bots::model_tricks(h[s], su));
                const int high = r.high_bid();
                const Seat hb = r.high_bidder();
                const int rel = high == 0 ? 0 : hb == s ? 3 : hb == partner(s) ? 1 : 2;
                const int play_def = high == 0 ? -1 : 13 - play[hb];
                const int dd_decl = dd ? t.at(model_trump(h[s]), s) : -1;
                const int dd_best = dd ? solver::best_tricks_as_declarer(t, s) : -1;
                const int dd_def = dd && high > 0 ? 13 - t.at(model_trump(h[hb]), hb) : -1;
                std::printf("%d,%d,%d,%d,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", k, index(dealer), index(s),
                            static_cast<int>(r.calls().size()), bots::estimate_tricks(h[s], bots::best_trump(h[s])), model,
                            a.partner_bid, a.partner_passed ? 1 : 0, a.opponent_bids, a.my_bid, high, rel, play[s], play_def,
                            dd_decl, dd_best, dd_def);
                r.apply(b[s]->decide(v));
            }
        }
    }
}
