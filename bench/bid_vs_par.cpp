// bid_vs_par: the auction of four copies of one bot against par, on the oracle's deals
// (tests/data/dd_oracle_2000.jsonl, whose tables are known, so no solving is needed).
//
//   bid_vs_par BOT ORACLE_FILE [FIRST_ID] [COUNT]     (pimc's model was fitted on ids 0..1499)
//
// BOT: a registry name or a variant of bot_specs.hpp (heuristic-old, pimc-auction-old, ...).
// Deal id k: dealer k mod 4, levantine. For each deal: the contract the four bots reach and
// name trump for, whether it is double-dummy makeable (table[trump][declarer] >= bid), its
// double-dummy score for the declaring team, and the par contract and score (par.hpp).
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bot_specs.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/round.hpp"
#include "tarneeb/solver/par.hpp"

using namespace tarneeb;

int main(int argc, char** argv) {
    CLI::App app{"bid_vs_par: the auction of four copies of BOT against par on the oracle's deals"};
    std::string name, file;
    int first = 1500, count = 500;
    app.add_option("BOT", name, "a registry bot or a bot_specs.hpp variant")
        ->required()
        ->check(CLI::Validator([](std::string& s) { return bots::spec_error(s); }, "SPEC"));
    app.add_option("ORACLE_FILE", file, "the oracle's deals with their tables (JSON lines)")->required()->check(CLI::ExistingFile);
    app.add_option("FIRST_ID", first, "the first deal id")->capture_default_str()->check(CLI::NonNegativeNumber);
    app.add_option("COUNT", count, "how many deal ids from FIRST_ID")->capture_default_str()->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);
    std::ifstream in(file);
    int n = 0, passed = 0, par_passed = 0, makeable = 0, contracts = 0, above = 0, at = 0, below = 0, side = 0;
    double shortfall = 0;  // par side's net points at par minus its net points in the bots' contract
    for (std::string line; std::getline(in, line);) {
        const auto j = nlohmann::json::parse(line);
        const int id = j["id"];
        if (id < first || id >= first + count) continue;
        Hands hands{};
        for (std::size_t s = 0; s < 4; ++s) {
            std::istringstream h(j["hands"][s].get<std::string>());
            for (std::string w; h >> w;) hands[s] |= *parse_card(w);
        }
        solver::DdTable t;
        for (Suit su : kSuits)
            for (std::size_t s = 0; s < 4; ++s) t.tricks[static_cast<std::size_t>(index(su))][s] = j["tricks"][std::string(1, suit_letter(su))][s];
        const Seat dealer = seat(id);
        BySeat<std::unique_ptr<bots::Bot>> b;
        for (int s = 0; s < 4; ++s) b[static_cast<std::size_t>(s)] = bots::make_spec_bot(name, static_cast<std::uint64_t>(id * 4 + s));
        if (!b[0]) { std::cerr << "unknown bot\n"; return 2; }
        Round r(kLevantine, dealer, hands);
        while (r.phase() == Phase::auction || r.phase() == Phase::trump) {
            const Seat s = r.to_act();
            r.apply(b[s]->decide(SeatView(r, s)));
        }
        const solver::Par p = solver::par(t, kLevantine, dealer);
        ++n;
        par_passed += p.passed_out;
        const Team ps = team_of(p.declarer);
        const double par_net = p.passed_out ? 0 : p.points[ps];
        if (r.phase() == Phase::passed_out) {
            ++passed;
            shortfall += par_net;
            continue;
        }
        ++contracts;
        const Team dt = team_of(r.contract()->declarer);
        const int tricks = t.at(r.trump(), r.contract()->declarer);
        const bool made = tricks >= r.contract()->bid;
        makeable += made;
        const int decl = made ? r.contract()->bid : -r.contract()->bid, def = made ? 0 : 13 - tricks;
        if (!p.passed_out) shortfall += par_net - (dt == ps ? 1 : -1) * (decl - def);
        if (p.passed_out || team_of(p.declarer) != dt) ++side;
        else if (r.contract()->bid > p.bid) ++above;
        else if (r.contract()->bid == p.bid) ++at;
        else ++below;
    }
    std::cout << name << ": " << n << " deals (ids " << first << ".." << first + count - 1 << "), passed out " << passed
              << " (par: " << par_passed << "); contracts " << contracts << ", double-dummy makeable " << makeable
              << "; vs par: above " << above << ", at " << at << ", below " << below
              << ", par on the other side or passed out " << side
              << "; par side's mean shortfall against par " << shortfall / n << " points per deal (double-dummy play)\n";
}
