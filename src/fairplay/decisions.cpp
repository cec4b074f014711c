// Fair play, step 1: card decisions against the solver (include/tarneeb/fairplay/decisions.hpp).
#include "tarneeb/fairplay/decisions.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "tarneeb/bots/layout_sampler.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/analysis.hpp"

namespace tarneeb::fairplay {

namespace {

/// The cards of `cards` whose value is the best (the lists are best first).
template <class List>
CardSet best_cards(const List& cards) {
    CardSet out;
    for (const auto& c : cards)
        if (c.tricks == cards.front().tricks) out |= c.card;
    return out;
}

/// A key of the deal as dealt, so that the re-dealt layouts depend on the position, not on
/// where the deal sits in a file.
std::uint64_t deal_key(const Round& r, std::uint64_t seed) {
    std::uint64_t key = seed;
    for (Seat s : kSeats) key = derive_seed(key, r.dealt(s).bits());
    return key;
}

}  // namespace

Tally& Tally::operator+=(const Tally& o) {
    positions += o.positions;
    decisions += o.decisions;
    best += o.best;
    hidden += o.hidden;
    hidden_best += o.hidden_best;
    return *this;
}

solver::SolveError tally_round(const Round& played, std::uint64_t seed, BySeat<Tally>& out) {
    const std::optional<Round> start = solver::round_after(played, 0);
    if (!start) return solver::SolveError::ok;  // passed out, or no trump: no card decisions
    Round r = *start;
    // One Solver for the deal: consecutive positions share DDS's transposition table.
    solver::Solver solver;
    const std::uint64_t key = deal_key(played, seed);
    for (int k = 0; k < played.cards_played(); ++k) {
        const Seat seat = r.to_act();
        const Card card = played.plays()[static_cast<std::size_t>(k)];
        solver::CardValues values;
        if (const auto e = solver::card_values(solver, r, values); e != solver::SolveError::ok) return e;
        const solver::CardValue* mine = values.find(card);
        if (mine == nullptr) return solver::SolveError::dds_failure;  // a replayed card is always legal
        Tally& t = out[seat];
        ++t.positions;
        const auto cards = values.cards();
        if (cards.front().tricks != cards.back().tricks) {
            const bool best = mine->tricks == cards.front().tricks;
            ++t.decisions;
            t.best += best;
            // The unseen cards dealt again as the seat could imagine them.
            Rng rng(derive_seed(key, static_cast<std::uint64_t>(k)));
            if (const std::optional<Hands> layout = bots::sample_layout(SeatView(r, seat), rng)) {
                solver::Position p = solver::position_of(r);
                p.hands = *layout;
                solver::CardScores other;
                if (const auto e = solver.all_cards(p, other); e != solver::SolveError::ok) return e;
                if (best_cards(cards) != best_cards(other.cards())) {
                    ++t.hidden;
                    t.hidden_best += best;
                }
            }
        }
        r.apply(Action::play(card));
    }
    return solver::SolveError::ok;
}

solver::SolveError tally_match(const Match& match, std::uint64_t seed, MatchTally& out) {
    for (const Round& r : match.rounds())
        if (const auto e = tally_round(r, seed, out.seats); e != solver::SolveError::ok) return e;
    return solver::SolveError::ok;
}

std::optional<std::string> tally_record(std::string_view text, const std::string& fallback, std::uint64_t seed,
                                        MatchTally& out) {
    const records::Replay rep = records::replay(text);
    if (rep.error) {
        std::string why = "record rejected: " + std::string(to_string(rep.error->code));
        if (rep.error->deal) why += " (deal " + std::to_string(*rep.error->deal) + ")";
        return why;
    }
    out = MatchTally{};
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    const auto players = j.is_object() ? j.find("players") : j.end();
    const bool named = j.is_object() && players != j.end() && players->is_array() && players->size() == 4 &&
                       std::all_of(players->begin(), players->end(), [](const nlohmann::json& p) { return p.is_string(); });
    for (Seat s : kSeats)
        out.names[static_cast<std::size_t>(index(s))] =
            named ? (*players)[static_cast<std::size_t>(index(s))].get<std::string>() : fallback + "#" + std::to_string(index(s));
    MatchTally tally = out;
    if (const auto e = tally_match(rep.match, seed, tally); e != solver::SolveError::ok)
        return "solver: " + std::string(solver::to_string(e));
    out = std::move(tally);
    return std::nullopt;
}

}  // namespace tarneeb::fairplay
