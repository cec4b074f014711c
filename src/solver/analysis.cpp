// Card-by-card analysis of a played deal (include/tarneeb/solver/analysis.hpp, docs/analysis.md).
#include "tarneeb/solver/analysis.hpp"

namespace tarneeb::solver {

using nlohmann::json;

const CardValue* CardValues::find(Card c) const {
    for (const CardValue& v : cards())
        if (v.card == c) return &v;
    return nullptr;
}

SolveError card_values(Solver& solver, const Round& round, CardValues& out) {
    if (round.phase() != Phase::play) return SolveError::not_in_play;
    CardScores scores;
    if (const SolveError e = solver.all_cards(position_of(round), scores); e != SolveError::ok) return e;
    const Team decl = round.contract()->team();
    const bool declaring = team_of(round.to_act()) == decl;
    const int left = 13 - round.tricks_played();  // the current trick included
    out.size = 0;
    for (const CardScore& cs : scores.cards())
        out.items[static_cast<std::size_t>(out.size++)] = {cs.card, cs.tricks,
                                                            round.tricks(decl) + (declaring ? cs.tricks : left - cs.tricks)};
    return SolveError::ok;
}

std::optional<Round> round_after(const Round& played, int cards) {
    if (!played.trump_named() || cards < 0 || cards > played.cards_played() || cards > 51) return std::nullopt;
    Round r(played.rules(), played.dealer(), played.dealt_hands());
    for (std::uint8_t c : played.calls()) r.apply(c == 0 ? Action::pass() : Action::bid(c));
    r.apply(Action::name_trump(played.trump()));
    for (int i = 0; i < cards; ++i) r.apply(Action::play(played.plays()[static_cast<std::size_t>(i)]));
    return r;
}

Preset preset_of(const Rules& rules) {
    const Rules c = kClassic;
    return rules.auction == c.auction && rules.scoring == c.scoring ? Preset::classic : Preset::levantine;
}

SolveError analyse_deal(const Round& played, DealAnalysis& out, const KeepGoing& keep_going) {
    out = DealAnalysis{};
    out.preset = preset_of(played.rules());
    out.dealer = played.dealer();
    if (const SolveError e = table(played.dealt_hands(), out.table); e != SolveError::ok) return e;
    out.par = par(out.table, played.rules(), out.dealer);
    out.contract = played.contract();
    out.taken = {played.tricks(Team::t0), played.tricks(Team::t1)};
    if (played.phase() == Phase::scored) out.made = played.made();
    std::optional<Round> start = round_after(played, 0);
    if (!start) return SolveError::ok;  // passed out, or no trump: no play to analyse
    Round r = *start;
    const Team decl = out.contract->team();
    const int bid = out.contract->bid;
    // One Solver (one DDS thread index) for every position: DDS reuses its transposition
    // table between consecutive positions of the same deal and trump.
    Solver solver;
    out.positions.reserve(static_cast<std::size_t>(played.cards_played()));
    for (int k = 0; k < played.cards_played(); ++k) {
        if (keep_going && !keep_going(k)) return SolveError::stopped;
        PositionAnalysis p;
        p.index = k;
        p.seat = r.to_act();
        p.played = played.plays()[static_cast<std::size_t>(k)];
        if (const SolveError e = card_values(solver, r, p.cards); e != SolveError::ok) return e;
        const CardValue* v = p.cards.find(p.played);
        if (v == nullptr || p.cards.size == 0) return SolveError::dds_failure;  // a replayed card is always legal
        p.best = p.cards.items[0].declarer_tricks;  // best first for the side to play
        p.value = v->declarer_tricks;
        p.cost = team_of(p.seat) == decl ? p.best - p.value : p.value - p.best;
        if (!out.turning_point && (p.best >= bid) != (p.value >= bid))
            out.turning_point = TurningPoint{k, p.seat, p.cost, p.value >= bid};
        out.positions.push_back(p);
        r.apply(Action::play(p.played));
    }
    return SolveError::ok;
}

json par_json(const Par& p, Preset preset, Seat dealer) {
    json j = {{"preset", to_string(preset)}, {"dealer", index(dealer)}, {"passed_out", p.passed_out}};
    if (!p.passed_out) {
        j["declarer"] = index(p.declarer);
        j["trump"] = std::string(1, suit_letter(p.trump));
        j["bid"] = p.bid;
        j["tricks"] = p.tricks;
    }
    j["points"] = p.points;
    return j;
}

json analysis_json(const DealAnalysis& a, int deal) {
    json j = {{"deal", deal}, {"dealer", index(a.dealer)}};
    const bool trump = a.contract && a.contract->trump;
    j["declarer"] = a.contract ? json(index(a.contract->declarer)) : json(nullptr);
    j["bid"] = a.contract ? json(a.contract->bid) : json(nullptr);
    j["trump"] = trump ? json(std::string(1, suit_letter(*a.contract->trump))) : json(nullptr);
    j["made"] = a.made ? json(*a.made) : json(nullptr);
    j["taken"] = {a.taken[Team::t0], a.taken[Team::t1]};
    j["par"] = par_json(a.par, a.preset, a.dealer);
    json positions = json::array();
    for (const PositionAnalysis& p : a.positions) {
        json cards = json::array();
        for (const CardValue& c : p.cards.cards()) cards.push_back({{"card", to_string(c.card)}, {"tricks", c.declarer_tricks}});
        positions.push_back({{"index", p.index}, {"seat", index(p.seat)}, {"played", to_string(p.played)},
                             {"cards", std::move(cards)}, {"best", p.best}, {"cost", p.cost}});
    }
    j["positions"] = std::move(positions);
    j["turning_point"] = a.turning_point ? json{{"index", a.turning_point->index},
                                                {"seat", index(a.turning_point->seat)},
                                                {"cost", a.turning_point->cost},
                                                {"makes", a.turning_point->makes}}
                                         : json(nullptr);
    return j;
}

}  // namespace tarneeb::solver
