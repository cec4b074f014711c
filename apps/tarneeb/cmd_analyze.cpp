// tarneeb analyze: the double-dummy table and par of a deal, and the value of every legal
// card at a position inside a record (issue 4; definitions in docs/analysis.md).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/analysis.hpp"
#include "tarneeb/solver/par.hpp"
#include "tarneeb/solver/solver.hpp"

namespace tarneeb::cli {
namespace {

using nlohmann::json;

/// "a|b|c|d" in record hand notation (core's parse_hand) → four hands partitioning the deck,
/// or nullopt.
std::optional<Hands> parse_hands(const std::string& text) {
    Hands hands{};
    std::size_t start = 0;
    for (Seat s : kSeats) {
        const std::size_t bar = text.find('|', start);
        if ((s != Seat::s3) == (bar == std::string::npos)) return std::nullopt;
        const ParsedHand hand = parse_hand(std::string_view(text).substr(start, s != Seat::s3 ? bar - start : std::string::npos));
        if (hand.error != ErrorCode::ok) return std::nullopt;
        hands[s] = hand.cards;
        start = bar + 1;
    }
    CardSet all;
    for (CardSet h : hands) {
        if (h.size() != 13 || !(all & h).empty()) return std::nullopt;
        all |= h;
    }
    return hands;
}

json table_json(const solver::DdTable& t) {
    json tricks = json::object();
    for (int su = 3; su >= 0; --su) {
        const Suit suit = static_cast<Suit>(su);
        json row = json::array();
        for (Seat s : kSeats) row.push_back(t.at(suit, s));
        tricks[std::string(1, suit_letter(suit))] = row;
    }
    return tricks;
}

void print_table(const solver::DdTable& t, const solver::Par& p, Preset preset, Seat dealer) {
    std::cout << "Double-dummy tricks of the declarer's team (the declarer leads the first trick)\n"
              << "trump  seat0 seat1 seat2 seat3\n";
    for (int su = 3; su >= 0; --su) {
        const Suit suit = static_cast<Suit>(su);
        std::cout << "  " << suit_letter(suit) << "  ";
        for (Seat s : kSeats) std::cout << std::setw(6) << t.at(suit, s);
        std::cout << "\n";
    }
    std::cout << "Par (" << to_string(preset) << ", dealer " << index(dealer) << "): ";
    if (p.passed_out) {
        std::cout << "passed out (no seat makes " << rules_for(preset).min_bid << ")\n";
    } else {
        std::cout << "seat " << index(p.declarer) << " bids " << p.bid << " with trump " << suit_letter(p.trump)
                  << " and takes " << p.tricks << ": team " << index(team_of(p.declarer)) << " +"
                  << p.points[team_of(p.declarer)] << "\n";
    }
}

struct Options {
    std::optional<std::uint64_t> seed;
    std::string hands;
    std::string record;
    int deal = 0;
    int after = -1;
    int dealer = -1;
    std::string preset;
    bool json = false;
};

int run(const Options& o) {
    const int sources = (o.seed ? 1 : 0) + (o.hands.empty() ? 0 : 1) + (o.record.empty() ? 0 : 1);
    if (sources != 1) {
        std::cerr << "tarneeb analyze: give exactly one of --seed, --hands, --record\n";
        return kExitUsage;
    }
    if (o.after >= 0 && o.record.empty()) {
        std::cerr << "tarneeb analyze: --after needs --record and --deal\n";
        return kExitUsage;
    }
    Preset preset = Preset::levantine;
    if (!o.preset.empty()) {
        const auto p = parse_preset(o.preset);
        if (!p) {
            std::cerr << "tarneeb analyze: unknown preset '" << o.preset << "' (levantine, classic)\n";
            return kExitUsage;
        }
        preset = *p;
    }
    Seat dealer = seat(o.dealer < 0 ? 0 : o.dealer);
    Hands hands{};
    std::optional<Round> position_round;
    if (o.seed) {
        hands = deal_from_seed(*o.seed, dealer);
    } else if (!o.hands.empty()) {
        const auto h = parse_hands(o.hands);
        if (!h) {
            std::cerr << "tarneeb analyze: --hands needs four 13-card hands \"a|b|c|d\" that share no card\n";
            return kExitUsage;
        }
        hands = *h;
    } else {
        std::ifstream in(o.record, std::ios::binary);
        if (!in) {
            std::cerr << "tarneeb analyze: cannot read '" << o.record << "'\n";
            return kExitUsage;
        }
        std::ostringstream ss;
        ss << in.rdbuf();
        const records::Replay rep = records::replay(ss.str());
        const auto& rounds = rep.match.rounds();
        if (rep.error && (!rep.error->deal || *rep.error->deal <= o.deal)) {
            std::cerr << "tarneeb analyze: the record is rejected at or before deal " << o.deal << ": "
                      << to_string(rep.error->code) << "\n";
            return kExitRejected;
        }
        if (o.deal < 0 || o.deal >= static_cast<int>(rounds.size())) {
            std::cerr << "tarneeb analyze: --deal must be 0.." << static_cast<int>(rounds.size()) - 1 << "\n";
            return kExitUsage;
        }
        const Round& r = rounds[static_cast<std::size_t>(o.deal)];
        hands = r.dealt_hands();
        if (o.dealer < 0) dealer = r.dealer();
        if (o.preset.empty()) preset = solver::preset_of(r.rules());
        if (o.after >= 0) {
            position_round = solver::round_after(r, o.after);
            if (!position_round) {
                if (!r.trump_named())
                    std::cerr << "tarneeb analyze: the deal has no contract and trump, so no card play\n";
                else
                    std::cerr << "tarneeb analyze: --after must be 0.." << std::min(r.cards_played(), 51)
                              << " for this deal\n";
                return kExitUsage;
            }
        }
    }

    solver::DdTable table;
    if (const auto e = solver::table(hands, table); e != solver::SolveError::ok) {
        std::cerr << "tarneeb analyze: solver error " << solver::to_string(e) << "\n";
        return kExitRejected;
    }
    const solver::Par par = solver::par(table, rules_for(preset), dealer);
    json out = {{"tricks", table_json(table)}, {"par", solver::par_json(par, preset, dealer)}};
    if (!o.json) print_table(table, par, preset, dealer);

    if (position_round) {
        const Round& r = *position_round;
        solver::CardValues values;
        solver::Solver solver;
        if (const auto e = solver::card_values(solver, r, values); e != solver::SolveError::ok) {
            std::cerr << "tarneeb analyze: solver error " << solver::to_string(e) << "\n";
            return kExitRejected;
        }
        const Seat to_play = r.to_act();
        const int left = 13 - r.tricks_played();
        json cards = json::array();
        for (const auto& cv : values.cards())
            cards.push_back({{"card", to_string(cv.card)}, {"tricks", cv.tricks}, {"declarer_tricks", cv.declarer_tricks},
                             {"makes", cv.declarer_tricks >= r.contract()->bid}});
        out["position"] = {{"deal", o.deal}, {"after", o.after}, {"to_play", index(to_play)},
                           {"declarer", index(r.contract()->declarer)}, {"bid", r.contract()->bid},
                           {"trump", std::string(1, suit_letter(r.trump()))},
                           {"tricks_won", {r.tricks(Team::t0), r.tricks(Team::t1)}}, {"tricks_left", left},
                           {"cards", cards}};
        if (!o.json) {
            std::cout << "Position after card " << o.after << " of deal " << o.deal << ": seat " << index(to_play)
                      << " to play; contract " << r.contract()->bid << " " << suit_letter(r.trump()) << " by seat "
                      << index(r.contract()->declarer) << "; tricks won " << r.tricks(Team::t0) << "-" << r.tricks(Team::t1)
                      << ", " << left << " left\n"
                      << "card  tricks(side to play, of those left)  declarer's team total\n";
            for (const auto& c : cards)
                std::cout << c["card"].get<std::string>() << "    " << std::setw(2) << c["tricks"].get<int>()
                          << "                                   " << std::setw(2)
                          << c["declarer_tricks"].get<int>() << (c["makes"].get<bool>() ? "  makes" : "  set")
                          << "\n";
        }
    }
    if (o.json) std::cout << out.dump() << "\n";
    return kExitOk;
}

}  // namespace

void add_analyze(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("analyze", "Double-dummy table, par and card-by-card analysis of a deal");
    cmd->footer(
        "The deal: --seed S [--dealer D] (as `tarneeb deal`), --hands \"a|b|c|d\" (seats 0-3 in record\n"
        "notation), or --record FILE --deal N (0-based deal of a tarneeb-record/1).\n"
        "Prints, for each trump and each seat as declarer (the declarer leads the first trick), the\n"
        "tricks the declarer's team takes with every card visible, and the par result for the preset\n"
        "and dealer (definition: docs/analysis.md). --after M (with --record) also solves the position\n"
        "after the first M cards of the deal's play: each legal card with the tricks it leads to.\n"
        "--json: {\"tricks\": {\"S\": [t0,t1,t2,t3], \"H\": [...], \"D\": [...], \"C\": [...]}, \"par\": {...}}\n"
        "(plus \"position\" with --after). Exit status: 0 ok, 1 rejected record, 2 usage error.");
    auto o = std::make_shared<Options>();
    cmd->add_option("--seed", o->seed, "deal from this 64-bit seed");
    cmd->add_option("--hands", o->hands, "\"a|b|c|d\": seat 0..3's 13 cards each");
    cmd->add_option("--record", o->record, "a tarneeb-record/1 file");
    cmd->add_option("--deal", o->deal, "deal index in the record (0-based)")->check(CLI::NonNegativeNumber);
    cmd->add_option("--after", o->after, "with --record: analyse the position after this many cards")
        ->check(CLI::Range(0, 51));
    cmd->add_option("--dealer", o->dealer, "dealer seat 0-3 (default 0, or the record's)")->check(CLI::Range(0, 3));
    cmd->add_option("--preset", o->preset, "levantine (default) or classic: the par's auction and scoring");
    cmd->add_flag("--json", o->json, "print one JSON object");
    cmd->callback([o, &exit_code] { exit_code = run(*o); });
}

}  // namespace tarneeb::cli
