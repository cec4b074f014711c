// par_gap: each bot's points per deal below the double-dummy par on the same deals
// (docs/analysis.md "Par gap"), so the distance to perfect information is visible.
//
//   par_gap --tables FILE --records DIR            the deals of a `tarneeb simulate --duplicate
//                                                  --records DIR` run (both tables of a deal)
//   par_gap --tables FILE --play A B [--rules R]   plays the duplicate itself (bot_specs.hpp; the
//                                                  seeding of `simulate --duplicate`, so A B with
//                                                  registry names give simulate's deals and bots)
//   [--seed S]  the run seed (default 1; --play only)     [--deals N]  at most N deals
//
// FILE: deal ids, hands and double-dummy tables as JSON lines (bench/bid_data --tables-out; deal
// k of seed S: `bid_data --dd --seed S --deals N --tables-out FILE` makes exactly the deals of
// `simulate --duplicate --seed S`). Par (solver/par.hpp) scores the par side its contract and
// the other side 0. For each deal and each bot: the mean over the two tables of (the par points
// of the bot's team minus the points the bot's team scored); mean over the deals with a 95 %
// interval (Student's t, stats.hpp). Also each bot's points per deal and the par's points per
// deal and team (half the par's total).
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bot_specs.hpp"
#include "deal_options.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/stats.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/par.hpp"

using namespace tarneeb;

namespace {

struct Deal {
    Hands hands{};
    solver::DdTable table;
};

std::map<int, Deal> read_tables(const std::string& path) {
    std::map<int, Deal> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        Deal d;
        for (std::size_t s = 0; s < 4; ++s) {
            std::istringstream h(j["hands"][s].get<std::string>());
            for (std::string w; h >> w;) d.hands[s] |= *parse_card(w);
        }
        for (Suit su : kSuits)
            for (std::size_t s = 0; s < 4; ++s)
                d.table.tricks[static_cast<std::size_t>(index(su))][s] = j["tricks"][std::string(1, suit_letter(su))][s];
        out[j["id"].get<int>()] = d;
    }
    return out;
}

/// One duplicate deal: the round at table a (team0's bot on team 0) and at table b (swapped).
struct Pair {
    int id = 0;
    Rules rules = kLevantine;
    Seat dealer = Seat::s0;
    Hands hands{};
    ByTeam<int> a{}, b{};  ///< points by team at each table
    std::array<int, 2> declared{}, made{};  ///< by bot (0: team0's bot), over both tables
    int passed_out = 0;
};

/// Counts the round's contract for bot (team ^ swapped).
void count(const Round& r, bool swapped, Pair& p) {
    if (r.phase() == Phase::passed_out) {
        ++p.passed_out;
        return;
    }
    const auto bot = static_cast<std::size_t>(index(team_of(r.contract()->declarer)) ^ static_cast<int>(swapped));
    ++p.declared[bot];
    p.made[bot] += r.made();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"par_gap: each bot's points per deal below the double-dummy par on the same deals"};
    bench::last_value_wins(app);
    std::string tables_path, records, bot_a, bot_b;
    Rules rules;
    std::uint64_t seed = 0;
    int max_deals = 0;
    std::pair<std::string, std::string> play;
    app.add_option("--tables", tables_path, "deal ids, hands and double-dummy tables as JSON lines (bid_data --tables-out)")
        ->required();
    auto* records_opt = app.add_option("--records", records, "the records of a `tarneeb simulate --duplicate --records DIR` run");
    app.add_option("--play", play, "play the duplicate of bots A and B (bench/bot_specs.hpp) on the tables' deals")
        ->type_name("A B")
        ->check(CLI::Validator([](std::string& s) { return bots::spec_error(s); }, "SPEC"))
        ->excludes(records_opt);
    bench::add_rules(app, rules, Preset::levantine)->description("rules preset (--play only)");
    bench::add_seed(app, seed, 1, "run seed (--play only)");
    bench::add_deals(app, max_deals, 1 << 30, "at most N deals")->default_str("all");
    CLI11_PARSE(app, argc, argv);
    if (records.empty() && play.first.empty()) return app.exit(CLI::RequiredError("--records or --play"));
    std::tie(bot_a, bot_b) = play;
    const auto deals = read_tables(tables_path);
    std::vector<Pair> pairs;
    std::string name_a = bot_a, name_b = bot_b, rules_name;
    if (!records.empty()) {
        for (const auto& [id, d] : deals) {
            if (static_cast<int>(pairs.size()) >= max_deals) break;
            char fa[64], fb[64];
            std::snprintf(fa, sizeof fa, "deal-%06d-a.json", id);
            std::snprintf(fb, sizeof fb, "deal-%06d-b.json", id);
            const auto pa = std::filesystem::path(records) / fa, pb = std::filesystem::path(records) / fb;
            if (!std::filesystem::exists(pa) || !std::filesystem::exists(pb)) break;  // a prefix of the run
            Pair p;
            p.id = id;
            int k = 0;
            for (const auto& path : {pa, pb}) {
                std::ifstream in(path);
                const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                const records::Replay r = records::replay(text);
                if (r.error || r.match.rounds().empty()) { std::cerr << "bad record " << path << "\n"; return 1; }
                const Round& round = r.match.rounds().front();
                p.rules = r.match.rules();
                p.dealer = round.dealer();
                for (Seat s : kSeats) p.hands[s] = round.dealt(s);
                count(round, k == 1, p);
                auto& pts = k++ == 0 ? p.a : p.b;
                for (Team t : {Team::t0, Team::t1}) pts[t] = round.points(t);
            }
            if (p.hands != d.hands) { std::cerr << "deal " << id << ": the records' hands are not the table's\n"; return 1; }
            pairs.push_back(p);
        }
        name_a = "team0's bot";
        name_b = "team1's bot";
    } else {
        for (const auto& [id, d] : deals) {
            if (static_cast<int>(pairs.size()) >= max_deals) break;
            const std::uint64_t unit = derive_seed(seed, static_cast<std::uint64_t>(id));
            Pair p;
            p.id = id;
            p.rules = rules;
            p.dealer = seat(id);
            p.hands = d.hands;
            auto x = bots::make_spec_bot(bot_a, derive_seed(unit, 1)), y = bots::make_spec_bot(bot_b, derive_seed(unit, 2)),
                 x2 = bots::make_spec_bot(bot_a, derive_seed(unit, 3)), y2 = bots::make_spec_bot(bot_b, derive_seed(unit, 4));
            for (int pass = 0; pass < 2; ++pass) {
                const bots::Lineup l = pass == 1 ? bots::Lineup{y.get(), x.get(), y2.get(), x2.get()}
                                                 : bots::Lineup{x.get(), y.get(), x2.get(), y2.get()};
                const Round r = bots::play_deal(rules, p.dealer, p.hands, l).round();
                count(r, pass == 1, p);
                auto& pts = pass == 0 ? p.a : p.b;
                for (Team t : {Team::t0, Team::t1}) pts[t] = r.points(t);
            }
            pairs.push_back(p);
        }
    }
    if (pairs.empty()) { std::cerr << "no deals\n"; return 1; }
    rules_name = pairs.front().rules.scoring == ScoringStyle::bid_value ? "levantine" : "classic";
    // Sums: gap of each bot, its points, the par's points per team.
    double ga = 0, ga2 = 0, gb = 0, gb2 = 0, pa = 0, pb = 0, par_half = 0, diff = 0, diff2 = 0;
    int par_passed = 0, passed_out = 0, won = 0, lost = 0;
    std::array<int, 2> declared{}, made{};
    for (const Pair& p : pairs) {
        passed_out += p.passed_out;
        for (std::size_t i = 0; i < 2; ++i) declared[i] += p.declared[i], made[i] += p.made[i];
        const solver::Par par = solver::par(deals.at(p.id).table, p.rules, p.dealer);
        par_passed += par.passed_out;
        const double half = (par.points[Team::t0] + par.points[Team::t1]) / 2.0;
        const double a_pts = (p.a[Team::t0] + p.b[Team::t1]) / 2.0;  // team0's bot, per table
        const double b_pts = (p.a[Team::t1] + p.b[Team::t0]) / 2.0;
        const double gap_a = (par.points[Team::t0] - p.a[Team::t0] + par.points[Team::t1] - p.b[Team::t1]) / 2.0;
        const double gap_b = (par.points[Team::t1] - p.a[Team::t1] + par.points[Team::t0] - p.b[Team::t0]) / 2.0;
        ga += gap_a, ga2 += gap_a * gap_a, gb += gap_b, gb2 += gap_b * gap_b;
        pa += a_pts, pb += b_pts, par_half += half;
        diff += a_pts - b_pts, diff2 += (a_pts - b_pts) * (a_pts - b_pts);
        won += a_pts > b_pts, lost += a_pts < b_pts;
    }
    const int n = static_cast<int>(pairs.size());
    auto ci = [&](double s, double s2) {
        const auto c = mean_ci95(n, s, s2);
        char buf[96];
        std::snprintf(buf, sizeof buf, "%+.3f [%+.3f, %+.3f]", s / n, c ? c->first : 0.0, c ? c->second : 0.0);
        return std::string(buf);
    };
    std::printf("%s, %d deals (ids %d..%d), par passed out %d: par points per deal and team %.3f\n", rules_name.c_str(), n,
                pairs.front().id, pairs.back().id, par_passed, par_half / n);
    std::printf("  %-28s points/deal %.3f  below par %s  declared %d (made %d)\n", name_a.c_str(), pa / n,
                ci(ga, ga2).c_str(), declared[0], made[0]);
    std::printf("  %-28s points/deal %.3f  below par %s  declared %d (made %d)\n", name_b.c_str(), pb / n,
                ci(gb, gb2).c_str(), declared[1], made[1]);
    std::printf("  passed out %d of %d played deals\n", passed_out, 2 * n);
    std::printf("  difference (first minus second, = simulate's mean_diff) %s; deal pairs won / lost / tied %d / %d / %d\n",
                ci(diff, diff2).c_str(), won, lost, n - won - lost);
}
