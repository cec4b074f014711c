// pimc_match: duplicate deals of pimc against random, heuristic or pimc, with pimc's options
// on the command line, its decision times (wall and thread CPU), contracts made and bidding
// against par (docs/analysis.md "pimc"). `tarneeb simulate --duplicate --team0 pimc` plays the
// same duplicate with pimc's default options; this harness was written before it existed
// and adds what the report needs.
//
//   pimc_match [--deals N] [--seed S] [--samples K] [--first-samples K1] [--second-samples K2]
//              [--old-auction] [--threads T] [--null-window] [--par]
//              [--bid-samples N] [--opponent random|heuristic|pimc] [--preset levantine|classic]
//              [--threshold P] [--budget-ms B] [--progress N] [--cards-only | --auction-only]
//              [--first K] [--bid NAME=V ...] [--tries N] [--slack X] [--spread X]
// --cards-only: pimc plays the cards, the heuristic bids and names trump for it.
// --auction-only: pimc bids and names trump, the heuristic plays its cards (fast: compares
// the auctions alone). --first K: start at deal K (to split a run over processes). --bid
// NAME=V (repeatable) sets one PimcBidding knob; --old-auction, --threshold and --bid apply in
// command-line order (--old-auction resets the knobs set before it). --help lists them all.
//
// pimc starts from the registry's options (registry_pimc_options()); the flags change them.
// Deal k: hands deal_from_seed(derive_seed(S, k), dealer k mod 4). Table A seats pimc at
// 0 and 2, table B at 1 and 3, on the same cards; a deal's result is pimc's net points
// (its team's points minus the other team's) summed over both tables, halved.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bot_specs.hpp"
#include "deal_options.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/pimc_bot.hpp"
#include "tarneeb/bots/random_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/stats.hpp"
#include "tarneeb/solver/par.hpp"
#ifdef PIMC_MATCH_HEURISTIC  // built by hand with the heuristic bot (docs/analysis.md)
#include "tarneeb/bots/heuristic_bot.hpp"

namespace {
/// Half pimc, half heuristic: pimc's card play with the heuristic's auction and trump
/// (--cards-only: isolates the card play), or pimc's auction and trump with the heuristic's
/// card play (--auction-only: isolates the bidding, fast).
class PimcHalf final : public tarneeb::bots::Bot {
public:
    PimcHalf(std::uint64_t seed, const tarneeb::bots::PimcOptions& o, bool pimc_cards)
        : pimc_(seed, o), heuristic_(seed), pimc_cards_(pimc_cards) {}
    std::string_view name() const override { return pimc_cards_ ? "pimc-cards" : "pimc-auction"; }
    tarneeb::Action decide_call(const tarneeb::SeatView& v) override { return auction().decide_call(v); }
    tarneeb::Action decide_trump(const tarneeb::SeatView& v) override { return auction().decide_trump(v); }
    tarneeb::Action decide_card(const tarneeb::SeatView& v) override {
        return pimc_cards_ ? pimc_.decide_card(v) : heuristic_.decide_card(v);
    }
private:
    tarneeb::bots::Bot& auction() { return pimc_cards_ ? static_cast<tarneeb::bots::Bot&>(heuristic_) : pimc_; }
    tarneeb::bots::PimcBot pimc_;
    tarneeb::bots::HeuristicBot heuristic_;
    bool pimc_cards_;
};
bool g_cards_only = false;
bool g_auction_only = false;
}  // namespace
#endif

using namespace tarneeb;
using namespace tarneeb::bots;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
    std::vector<double> card_ms, call_ms, card_cpu_ms;
    std::array<double, 13> cpu_by_trick{};
    std::uint64_t budget_cuts = 0;  ///< card decisions cut short by the time budget  ///< thread CPU of card decisions, by trick (0..12)
    int pimc_contracts = 0, pimc_made = 0, other_contracts = 0, other_made = 0, passed_out = 0;
    int par_compared = 0, above_par = 0, at_par = 0, below_par = 0, wrong_side = 0;
};

/// CPU time of the calling thread (pimc with threads = 1 solves in the calling thread), so
/// that decision times can be read on a machine shared with other work.
double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// A pimc seat with its decisions timed (wall and thread CPU) into Stats.
class Timed final : public Bot {
public:
    Timed(Bot& bot, Stats& st) : bot_(bot), st_(st) {}
    std::string_view name() const override { return bot_.name(); }
    Action decide_call(const SeatView& v) override { return timed(v, [&] { return bot_.decide_call(v); }); }
    Action decide_trump(const SeatView& v) override { return timed(v, [&] { return bot_.decide_trump(v); }); }
    Action decide_card(const SeatView& v) override { return timed(v, [&] { return bot_.decide_card(v); }); }
    void observe(const SeatView& v, Seat actor, Action a) override { bot_.observe(v, actor, a); }

private:
    template <class F>
    Action timed(const SeatView& v, F decide) {
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_ms();
        const Action a = decide();
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        (v.phase() == Phase::play ? st_.card_ms : st_.call_ms).push_back(ms);
        if (v.phase() == Phase::play) {
            st_.card_cpu_ms.push_back(thread_cpu_ms() - c0);
            st_.cpu_by_trick[static_cast<std::size_t>(v.tricks_played())] += st_.card_cpu_ms.back();
        }
        return a;
    }
    Bot& bot_;
    Stats& st_;
};

/// Plays one round; pimc sits where `pimc_team` says. Returns the round.
Round play(const Rules& rules, Seat dealer, const Hands& hands, Team pimc_team, std::uint64_t seed,
           const PimcOptions& opt, const std::string& opponent, Stats& st) {
    BySeat<std::unique_ptr<Bot>> bots;
    for (Seat s : kSeats) {
        const std::uint64_t bs = derive_seed(seed, static_cast<std::uint64_t>(index(s)));
        auto& slot = bots[s];
        if (team_of(s) == pimc_team || opponent == "pimc") slot = std::make_unique<PimcBot>(bs, opt);
#ifdef PIMC_MATCH_HEURISTIC
        if (team_of(s) == pimc_team && (g_cards_only || g_auction_only)) slot = std::make_unique<PimcHalf>(bs, opt, g_cards_only);
        else if (team_of(s) != pimc_team && opponent == "heuristic") slot = std::make_unique<HeuristicBot>(bs);
#endif
    }
    // The seats without a bot share one random player (one Rng, drawn in turn order).
    RandomBot random(derive_seed(seed, 99));
    BySeat<std::unique_ptr<Timed>> timed;
    Lineup lineup{};
    for (Seat s : kSeats) {
        lineup[s] = bots[s] ? bots[s].get() : &random;
        if (bots[s] && team_of(s) == pimc_team) lineup[s] = (timed[s] = std::make_unique<Timed>(*bots[s], st)).get();
    }
    LoopStats stats;
    const Match m = play_deal(rules, dealer, hands, lineup, &stats);
    for (Seat s : kSeats)
        if (const auto* p = dynamic_cast<const PimcBot*>(bots[s].get()); p && team_of(s) == pimc_team) st.budget_cuts += p->budget_cuts();
    if (stats.illegal_actions > 0) {
        std::cerr << "illegal action (" << stats.illegal_actions << ")\n";
        std::exit(1);
    }
    return m.round();
}

/// --bid name=value: one PimcBidding knob.
void set_bid_knob(PimcBidding& b, const std::string& kv) {
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') throw CLI::ValidationError("--bid", "not name=number: " + kv);
    if (!bots::set_bidding_knob(b, k, v)) throw CLI::ValidationError("--bid", "unknown knob " + k);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"pimc_match: duplicate deals of pimc against random, heuristic or pimc, with pimc's decision times"};
    bench::last_value_wins(app);
    int deals = 0, progress = 0, first = 0;
    std::uint64_t seed = 0;
    PimcOptions opt = registry_pimc_options();  // the registry's pimc; flags change it
    bool with_par = false;
    std::string opponent = "random";
    Rules rules;
    bench::add_deals(app, deals, 20);
    app.add_option("--first", first, "start at deal K (to split a run over processes)")
        ->capture_default_str()
        ->check(bench::non_negative());
    bench::add_seed(app, seed, 1);
    app.add_option("--samples", opt.samples, "layouts solved per card decision")->capture_default_str();
    app.add_option("--first-samples", opt.first_trick_samples, "layouts in the first trick (0: --samples)")->capture_default_str();
    app.add_option("--second-samples", opt.second_trick_samples, "layouts in the second trick (0: --samples)")->capture_default_str();
    // The three that change opt.bidding take effect in command-line order, as they always did.
    app.add_flag_callback("--old-auction", [&opt] { opt.bidding = PimcBidding{}; },
                          "the threshold auction of issue 4 (PimcBidding defaults)")
        ->trigger_on_parse();
    bench::add_threads(app, opt.threads, opt.threads, "solver threads per decision");
    app.add_flag("--null-window", opt.null_window, "while the contract is open, solve make-or-set only");
    app.add_flag("--par", with_par, "compare pimc's contracts with the double-dummy par");
    app.add_option("--bid-samples", opt.bid_samples, "0: bid from the fitted model; N: from N solved layouts")->capture_default_str();
    app.add_option("--opponent", opponent, "who plays against pimc")
        ->capture_default_str()
        ->check(CLI::IsMember({"random", "heuristic", "pimc"}));
    bench::add_rules(app, rules, Preset::levantine, "--preset");
    app.add_option("--threshold", opt.bidding.threshold, "PimcBidding::threshold")->capture_default_str()->trigger_on_parse();
    app.add_option_function<std::string>("--bid", [&opt](const std::string& kv) { set_bid_knob(opt.bidding, kv); },
                                         "one PimcBidding knob, name=value (repeatable)")
        ->type_name("NAME=V")
        ->trigger_on_parse();
    app.add_option("--tries", opt.sample_tries, "candidate layouts per sample when fitting the auction")->capture_default_str();
    app.add_option("--slack", opt.auction_slack, "PimcOptions::auction_slack")->capture_default_str();
    app.add_option("--spread", opt.auction_spread, "PimcOptions::auction_spread")->capture_default_str();
    app.add_option("--budget-ms", opt.time_budget_ms, "a card decision's time budget (0: none)")->capture_default_str();
    app.add_option("--progress", progress, "print the running result every N deals (0: never)")
        ->capture_default_str()
        ->check(bench::non_negative());
#ifdef PIMC_MATCH_HEURISTIC
    auto* cards_only = app.add_flag("--cards-only", g_cards_only, "pimc plays the cards, the heuristic bids and names trump");
    app.add_flag("--auction-only", g_auction_only, "pimc bids and names trump, the heuristic plays the cards")
        ->excludes(cards_only);
#endif
    CLI11_PARSE(app, argc, argv);
    Stats st;
    std::vector<double> results;
    const auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    for (int k = first; k < first + deals; ++k) {
        const std::uint64_t ds = derive_seed(seed, static_cast<std::uint64_t>(k));
        const Seat dealer = seat(k);
        const Hands hands = deal_from_seed(ds, dealer);
        double net = 0;
        for (Team pt : {Team::t0, Team::t1}) {
            const Round r = play(rules, dealer, hands, pt, derive_seed(ds, 7 + static_cast<std::uint64_t>(index(pt))), opt,
                                 opponent, st);
            net += r.points(pt) - r.points(other(pt));
            if (r.phase() == Phase::passed_out) { ++st.passed_out; continue; }
            const bool pimc_decl = team_of(r.contract()->declarer) == pt;
            (pimc_decl ? st.pimc_contracts : st.other_contracts)++;
            if (r.made()) (pimc_decl ? st.pimc_made : st.other_made)++;
            if (with_par && pimc_decl) {
                solver::DdTable t;
                if (solver::table(hands, t) == solver::SolveError::ok) {
                    const solver::Par p = solver::par(t, rules, dealer);
                    ++st.par_compared;
                    if (p.passed_out || team_of(p.declarer) != pt) ++st.wrong_side;
                    else if (r.contract()->bid > p.bid) ++st.above_par;
                    else if (r.contract()->bid == p.bid) ++st.at_par;
                    else ++st.below_par;
                }
            }
        }
        results.push_back(net / 2);
        if (progress > 0 && (k + 1 - first) % progress == 0) {
            double m = 0, v = 0;
            for (double x : results) m += x;
            m /= static_cast<double>(results.size());
            for (double x : results) v += (x - m) * (x - m);
            v /= std::max<double>(1, static_cast<double>(results.size()) - 1);
            std::cout << "[" << k + 1 - first << " deals] net " << m << " +- " << 1.96 * std::sqrt(v / static_cast<double>(results.size()))
                      << "  pimc made " << st.pimc_made << "/" << st.pimc_contracts << "  opp made " << st.other_made << "/"
                      << st.other_contracts << "  card p50 " << percentile(st.card_ms, 0.5) << " p99 " << percentile(st.card_ms, 0.99)
                      << " ms" << std::endl;
        }
    }
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    double mean = 0;
    for (double x : results) mean += x;
    mean /= static_cast<double>(results.size());
    double var = 0;
    for (double x : results) var += (x - mean) * (x - mean);
    var /= std::max<double>(1, static_cast<double>(results.size()) - 1);
    const double half = 1.96 * std::sqrt(var / static_cast<double>(results.size()));
    std::cout << "deals " << deals << " (" << secs << " s wall, " << cpu << " s CPU) samples " << opt.samples << " threads " << opt.threads
              << (opt.null_window ? " null-window" : "") << " bid " << (opt.bid_samples ? "simulation " + std::to_string(opt.bid_samples) : std::string("model"))
              << " threshold " << opt.bidding.threshold << " vs " << opponent << "\n"
              << "pimc net points per deal: " << mean << " +- " << half << " (95% CI)\n"
              << "card decision ms: p50 " << percentile(st.card_ms, 0.5) << " p90 " << percentile(st.card_ms, 0.9) << " p99 "
              << percentile(st.card_ms, 0.99) << " max " << percentile(st.card_ms, 1.0) << " (n=" << st.card_ms.size() << ")\n"
              << "card decision CPU ms (thread): p50 " << percentile(st.card_cpu_ms, 0.5) << " p90 " << percentile(st.card_cpu_ms, 0.9)
              << " p99 " << percentile(st.card_cpu_ms, 0.99) << " max " << percentile(st.card_cpu_ms, 1.0) << "\n"
              << "card decisions cut by the time budget (" << opt.time_budget_ms << " ms): " << st.budget_cuts << "\n"
              << "card decision CPU s by trick:";
    for (double x : st.cpu_by_trick) std::cout << " " << x / 1000;
    std::cout << "\n"
              << "call/trump decision ms: p50 " << percentile(st.call_ms, 0.5) << " p99 " << percentile(st.call_ms, 0.99)
              << " (n=" << st.call_ms.size() << ")\n"
              << "contracts: pimc " << st.pimc_made << "/" << st.pimc_contracts << " made, opponent " << st.other_made
              << "/" << st.other_contracts << " made, passed out " << st.passed_out << "\n";
    if (with_par)
        std::cout << "pimc contracts vs par (" << st.par_compared << "): above " << st.above_par << ", at " << st.at_par
                  << ", below " << st.below_par << ", par belongs to the other side / passed out " << st.wrong_side << "\n";
}
