// tarneeb simulate: bots against bots at scale, matches or duplicate deals, JSON summary.
//
// Determinism: unit k (match k, or deal pair k) uses seed derive_seed(run seed, k) for its
// cards and its bots, results are stored by k and summed in index order, so the summary is the
// same whatever --threads. Decision times (--timing) are the only part that varies.
//
// Bots: a unit has four bot slots (x, y, x2, y2: each seat of a team its own bot). A bot is
// made anew for each unit with the unit's seeds, but an outside engine (engine:CMD) is one
// EngineBot, and so one process, per slot per worker thread for the whole run, told each unit
// and its seed (EngineBot::new_match): an engine's start costs far more than its decisions
// (docs/engine-protocol.md "Processes and limits").
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "engine_flags.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/stats.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb::cli {

namespace {

struct SimOptions {
    std::string team0 = "heuristic";
    std::string team1 = "random";
    std::string seat0;  ///< matches only: seat 0's bot instead of team0's ("" = team0's)
    int matches = 0;
    int deals = 0;
    bool duplicate = false;
    std::string rules = "levantine";
    int target = 0;
    std::uint64_t seed = 1;
    int threads = 1;
    std::string records;
    bool timing = false;
    bots::EngineConfig engine;  ///< defaults of engine:CMD players
};

/// What one unit (a match, or a duplicate deal pair) contributes to the summary.
struct UnitResult {
    int winner = -1;           ///< match: winning team (-1 none); duplicate: 0 if team0's bot won the pair, 1, or -1
    bool drawn = false;
    bool closed = false;
    int deals = 0;             ///< deals played (passed-out ones included)
    int passed_out = 0;
    int contracts = 0;
    int made = 0;
    int bid_sum = 0;
    std::array<long long, 2> points{};  ///< by team (match) or by bot: [team0's bot, team1's bot] (duplicate)
    std::array<int, 2> declared{};      ///< contracts declared, by team (match) or by bot (duplicate)
    std::array<int, 2> made_by{};       ///< of which made
    double diff = 0;                    ///< duplicate: team0's bot minus team1's bot, per deal of the pair
    std::uint64_t illegal = 0;
};

/// Counts a finished round; `side` is the index (team or bot) of the declaring team's side.
void count_round(const Round& r, UnitResult& u, bool swapped = false) {
    ++u.deals;
    if (r.phase() == Phase::passed_out) {
        ++u.passed_out;
        return;
    }
    const auto side = static_cast<std::size_t>(index(team_of(r.contract()->declarer)) ^ static_cast<int>(swapped));
    ++u.declared[side];
    u.made_by[side] += r.made();
    ++u.contracts;
    u.made += r.made();
    u.bid_sum += r.contract()->bid;
}

bool write_record(const std::string& dir, const std::string& name, const Match& m) {
    std::ofstream out(std::filesystem::path(dir) / name);
    out << records::record_json(m).dump() << "\n";
    return static_cast<bool>(out);
}

std::string numbered(const char* prefix, int k, const char* suffix) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%06d%s", prefix, k, suffix);
    return buf;
}

/// One of a unit's four bot slots, kept by a worker thread for the whole run: the player of
/// `spec` for each unit the thread plays (see the file's comment).
class Slot {
public:
    /// `spec` a bot's name, engine:CMD, or a seeing test bot, already checked (player_error);
    /// `engine` the defaults of an engine's configuration.
    Slot(std::string spec, const bots::EngineConfig& engine) : spec_(std::move(spec)), engine_defaults_(engine) {}

    /// The player for a unit: `seed` is the slot's seed in the unit, `match` the unit's match
    /// (given to a seeing test bot). A bot is made anew; an engine's EngineBot is made at the
    /// first unit and given new_match(seed) at each. The reference stays valid until the next
    /// call.
    bots::Bot& for_unit(std::uint64_t seed, const Match& match) {
        if (engine_) {
            engine_->new_match(seed);
            return *engine_;
        }
        if (spec_.starts_with(bots::kEnginePrefix)) {
            auto config = bots::engine_config(std::string_view(spec_).substr(bots::kEnginePrefix.size()), engine_defaults_);
            if (config) {
                engine_ = std::make_unique<bots::EngineBot>(std::move(*config), seed);
                return *engine_;
            }
        }
        bot_ = bots::is_seeing_bot(spec_) ? bots::make_seeing_bot(spec_, seed, match)
                                          : bots::make_player(spec_, seed, engine_defaults_);
        return *bot_;
    }

private:
    std::string spec_;
    const bots::EngineConfig& engine_defaults_;
    std::unique_ptr<bots::EngineBot> engine_;
    std::unique_ptr<bots::Bot> bot_;
};

class Progress {
public:
    Progress(int total, bool enabled) : total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
    void show(int done) const {
        if (!enabled_) return;
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        const double rate = secs > 0 ? done / secs : 0;
        const double eta = rate > 0 ? (total_ - done) / rate : 0;
        constexpr int kWidth = 30;
        const int filled = total_ > 0 ? static_cast<int>(static_cast<long long>(done) * kWidth / total_) : kWidth;
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.append(static_cast<std::size_t>(kWidth - filled), '.');
        std::fprintf(stderr, "\r[%s] %d/%d  %.1f/s  ETA %.0fs ", bar.c_str(), done, total_, rate, eta);
        std::fflush(stderr);
    }
    void finish(int done) const {
        show(done);
        if (enabled_) std::fprintf(stderr, "\n");
    }

private:
    int total_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_;
};

int run_simulate(const SimOptions& o) {
    const auto preset = parse_preset(o.rules);
    if (!preset) {
        std::cerr << "tarneeb simulate: unknown rules '" << o.rules << "' (levantine or classic)\n";
        return kExitUsage;
    }
    for (const std::string* name : {&o.team0, &o.team1, &o.seat0}) {
        if (name->empty() || bots::is_seeing_bot(*name)) continue;  // a test bot that sees every hand
        if (const auto why = bots::player_error(*name)) {
            std::cerr << "tarneeb simulate: " << *why << "\n";
            return kExitUsage;
        }
    }
    if (!o.seat0.empty() && o.duplicate) {
        std::cerr << "tarneeb simulate: --seat0 is for matches (--matches N), not duplicate deals\n";
        return kExitUsage;
    }
    if ((o.matches > 0) == (o.deals > 0) || (o.deals > 0) != o.duplicate) {
        std::cerr << "tarneeb simulate: give either --matches N, or --deals N with --duplicate\n";
        return kExitUsage;
    }
    if (!o.records.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(o.records, ec);
        if (ec) {
            std::cerr << "tarneeb simulate: cannot create '" << o.records << "': " << ec.message() << "\n";
            return kExitUsage;
        }
    }
    Rules rules = rules_for(*preset);
    if (o.target > 0) rules.target = o.target;

    const int units = o.duplicate ? o.deals : o.matches;
    const int threads = std::max(1, std::min(o.threads, units));
    std::vector<UnitResult> results(static_cast<std::size_t>(units));
    std::atomic<int> next_unit{0}, done{0};
    std::atomic<bool> write_failed{false};
    std::mutex hist_mutex;
    std::array<DurationHistogram, 2> hist;  // by bot: team0's, team1's

    auto worker = [&] {
        std::array<DurationHistogram, 2> local;
        // x, y, x2, y2 (an engine's process lives until the worker ends: "quit" then).
        std::array<Slot, 4> slots{Slot(o.seat0.empty() ? o.team0 : o.seat0, o.engine), Slot(o.team1, o.engine),
                                  Slot(o.team0, o.engine), Slot(o.team1, o.engine)};
        for (int k = next_unit++; k < units; k = next_unit++) {
            const std::uint64_t unit_seed = derive_seed(o.seed, static_cast<std::uint64_t>(k));
            UnitResult& u = results[static_cast<std::size_t>(k)];
            // The unit's match (duplicate: each pass's, assigned anew in place), made first so
            // that a seeing test bot can be given it.
            Match m(rules, seat(k));
            bots::Bot* x = &slots[0].for_unit(derive_seed(unit_seed, 1), m);
            bots::Bot* y = &slots[1].for_unit(derive_seed(unit_seed, 2), m);
            bots::Bot* x2 = &slots[2].for_unit(derive_seed(unit_seed, 3), m);
            bots::Bot* y2 = &slots[3].for_unit(derive_seed(unit_seed, 4), m);
            bots::LoopStats stats;
            if (!o.duplicate) {
                // Team 0 (seats 0, 2) is team0's bot; each seat has its own bot object.
                const bots::Lineup lineup{x, y, x2, y2};
                const bots::DecisionTimer timer = [&](Seat s, std::uint64_t ns) { local[index(team_of(s))].add(ns); };
                // As bots::play_match, on the match made above.
                bots::LoopHooks hooks;
                hooks.stats = &stats;
                hooks.timer = o.timing ? &timer : nullptr;
                bots::play_on(m, unit_seed, lineup, hooks);
                for (const Round& r : m.rounds()) {
                    count_round(r, u);
                    for (Team t : {Team::t0, Team::t1}) u.points[index(t)] += r.points(t);
                }
                u.winner = m.winner() ? index(*m.winner()) : -1;
                u.drawn = m.status() == MatchStatus::drawn;
                u.closed = m.status() == MatchStatus::closed;
                if (!o.records.empty() && !write_record(o.records, numbered("match-", k, ".json"), m))
                    write_failed = true;
            } else {
                // The same cards to the same seats twice, the bots swapping seats.
                const Seat dealer = seat(k);
                const Hands hands = deal_from_seed(unit_seed, dealer);
                std::array<long long, 2> by_bot{};
                for (int pass = 0; pass < 2; ++pass) {
                    const bool swapped = pass == 1;
                    const bots::Lineup lineup = swapped ? bots::Lineup{y, x, y2, x2} : bots::Lineup{x, y, x2, y2};
                    // Bot b (0 = team0's bot) sits on team b ^ swapped.
                    const bots::DecisionTimer timer = [&](Seat s, std::uint64_t ns) {
                        local[static_cast<std::size_t>(index(team_of(s)) ^ static_cast<int>(swapped))].add(ns);
                    };
                    // As bots::play_deal, on the unit's match.
                    m = Match(rules, dealer);
                    m.start_round(hands);
                    bots::LoopHooks hooks;
                    hooks.stats = &stats;
                    hooks.timer = o.timing ? &timer : nullptr;
                    bots::play_round(m, lineup, hooks);
                    const Round& r = m.round();
                    count_round(r, u, swapped);
                    for (Team t : {Team::t0, Team::t1})
                        by_bot[static_cast<std::size_t>(index(t) ^ static_cast<int>(swapped))] += r.points(t);
                    if (!o.records.empty() && !write_record(o.records, numbered("deal-", k, swapped ? "-b.json" : "-a.json"), m))
                        write_failed = true;
                }
                u.points = by_bot;
                u.diff = static_cast<double>(by_bot[0] - by_bot[1]) / 2.0;
                u.winner = by_bot[0] > by_bot[1] ? 0 : by_bot[0] < by_bot[1] ? 1 : -1;
                u.drawn = u.winner < 0;
            }
            u.illegal = stats.illegal_actions;
            ++done;
        }
        if (o.timing) {
            std::lock_guard lock(hist_mutex);
            for (std::size_t b = 0; b < 2; ++b) hist[b].merge(local[b]);
        }
    };

    const Progress progress(units, isatty(STDERR_FILENO) != 0);
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
    while (done.load() < units) {
        progress.show(done.load());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    for (auto& t : pool) t.join();
    progress.finish(units);

    // Aggregate in index order.
    long long wins0 = 0, wins1 = 0, draws = 0, closed = 0, deals = 0, passed_out = 0, contracts = 0, made = 0,
              bid_sum = 0;
    std::uint64_t illegal = 0;
    std::array<long long, 2> points{}, declared{}, made_by{};
    double diff_sum = 0, diff_sq = 0;
    for (const UnitResult& u : results) {
        wins0 += u.winner == 0;
        wins1 += u.winner == 1;
        draws += u.drawn;
        closed += u.closed;
        deals += u.deals;
        passed_out += u.passed_out;
        contracts += u.contracts;
        made += u.made;
        bid_sum += u.bid_sum;
        points[0] += u.points[0];
        points[1] += u.points[1];
        for (std::size_t i = 0; i < 2; ++i) {
            declared[i] += u.declared[i];
            made_by[i] += u.made_by[i];
        }
        diff_sum += u.diff;
        diff_sq += u.diff * u.diff;
        illegal += u.illegal;
    }
    auto round2 = [](double v) { return std::round(v * 10000) / 10000; };
    nlohmann::json out = {
        {"team0", o.team0},
        {"team1", o.team1},
        {"rules", o.rules},
        {"seed", o.seed},
    };
    if (!o.seat0.empty()) out["seat0"] = o.seat0;
    out[o.duplicate ? "deals" : "matches"] = units;
    out["deals_played"] = deals;
    out["passed_out"] = passed_out;
    out["team0_wins"] = wins0;
    out["team1_wins"] = wins1;
    out["draws"] = draws;
    out["closed"] = closed;
    out["contracts_made_pct"] = contracts ? round2(100.0 * static_cast<double>(made) / static_cast<double>(contracts)) : 0.0;
    out["avg_bid"] = contracts ? round2(static_cast<double>(bid_sum) / static_cast<double>(contracts)) : 0.0;
    out["points_per_deal"] = {deals ? round2(static_cast<double>(points[0]) / static_cast<double>(deals)) : 0.0,
                              deals ? round2(static_cast<double>(points[1]) / static_cast<double>(deals)) : 0.0};
    out["contracts_declared"] = declared;
    out["contracts_made"] = made_by;
    out["illegal_actions"] = illegal;
    if (o.duplicate) {
        // Student's t with units - 1 degrees of freedom; one deal pair gives no interval (null).
        const double mean = diff_sum / units;
        const auto ci = mean_ci95(units, diff_sum, diff_sq);
        out["duplicate"] = {{"mean_diff", round2(mean)},
                            {"ci95", ci ? nlohmann::json{round2(ci->first), round2(ci->second)} : nlohmann::json(nullptr)}};
    }
    if (o.timing) {
        nlohmann::json t;
        for (std::size_t b = 0; b < 2; ++b)
            t[b == 0 ? "team0" : "team1"] = {{"decisions", hist[b].total()},
                                             {"median_us", round2(hist[b].quantile(0.5) / 1000)},
                                             {"p99_us", round2(hist[b].quantile(0.99) / 1000)}};
        out["decision_time"] = t;
    }
    std::cout << out.dump(2) << "\n";
    if (write_failed) {
        std::cerr << "tarneeb simulate: could not write every record under '" << o.records << "'\n";
        return kExitRejected;
    }
    return kExitOk;
}

}  // namespace

void add_simulate(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("simulate", "Play bots against bots: whole matches or duplicate deals");
    cmd->footer(
        "Matches: team 0 (seats 0, 2) is --team0's bot, team 1 (seats 1, 3) --team1's; match k starts\n"
        "with dealer k mod 4. Duplicate: deal k (dealer k mod 4) is played twice with the same cards\n"
        "in the same seats, the bots swapping seats; mean_diff is team0's bot's points minus team1's\n"
        "bot's points per deal (the pair's difference halved), ci95 its 95% confidence interval\n"
        "(Student's t over the deal pairs; null for a single deal).\n"
        "points_per_deal, contracts_declared, contracts_made: by team (matches) or by bot (duplicate);\n"
        "in duplicate mode team0_wins, team1_wins and draws count deal pairs.\n"
        "Prints a JSON summary on standard output; a progress bar on standard error when it is a\n"
        "terminal. The same --seed gives the same summary whatever --threads (--timing adds the\n"
        "bots' decision times, which vary; an outside engine is as deterministic as it is).\n" +
        std::string(kEngineHelp) +
        "\nEach seat of a team gets its own engine process (its own bot), which lives for the whole run:\n"
        "one per engine seat per --threads worker, told each unit (match or deal pair) and its seed,\n"
        "restarted only after a fault.");
    auto o = std::make_shared<SimOptions>();
    cmd->add_option("--team0", o->team0, "bot for team 0 (" + bots::bot_names() + ", or engine:CMD; or the cheater test bot)");
    cmd->add_option("--team1", o->team1, "bot for team 1 (the same choices)");
    cmd->add_option("--seat0", o->seat0,
                    "matches only: seat 0's bot instead of --team0's, e.g. the `cheater` test bot (sees every hand; "
                    "docs/fairplay.md) among honest ones");
    cmd->add_option("--matches", o->matches, "number of matches")->check(CLI::Range(1, 100000000));
    cmd->add_option("--deals", o->deals, "number of duplicate deals (with --duplicate)")->check(CLI::Range(1, 100000000));
    cmd->add_flag("--duplicate", o->duplicate, "duplicate deals: each deal twice with the bots swapped");
    cmd->add_option("--rules", o->rules, "levantine (default) or classic");
    cmd->add_option("--target", o->target, "match target (default: the preset's 31)")->check(CLI::Range(1, 10000));
    cmd->add_option("--seed", o->seed, "64-bit run seed (default 1)");
    cmd->add_option("--threads", o->threads, "worker threads (default 1)")->check(CLI::Range(1, 256));
    cmd->add_option("--records", o->records, "write one tarneeb-record/1 per match (or per played deal) here");
    cmd->add_flag("--timing", o->timing, "add decision times per bot to the summary");
    add_engine_flags(cmd, o->engine);
    cmd->callback([o, &exit_code] { exit_code = run_simulate(*o); });
}

}  // namespace tarneeb::cli
