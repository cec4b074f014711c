// The `cheater` test bot (include/tarneeb/bots/cheater_bot.hpp).
#include "tarneeb/bots/cheater_bot.hpp"

#include "tarneeb/solver/solver.hpp"

namespace tarneeb::bots {

Action CheaterBot::decide_card(const SeatView& view) {
    const Round& round = match_.round();
    // The view and the match must be the same position (the loop asks with the match's view).
    if (round.phase() != Phase::play || round.to_act() != view.seat() || round.cards_played() != static_cast<int>(view.plays().size()))
        return heuristic_.decide_card(view);
    solver::Solver solver;
    solver::CardScores scores;
    if (solver.all_cards(solver::position_of(round), scores) != solver::SolveError::ok || scores.size == 0)
        return heuristic_.decide_card(view);
    return Action::play(scores.items[0].card);  // best first; equal scores in card order
}

}  // namespace tarneeb::bots
