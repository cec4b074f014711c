#include "tarneeb/core/match.hpp"

#include "tarneeb/core/random.hpp"

namespace tarneeb {

std::string_view to_string(MatchStatus s) {
    switch (s) {
        case MatchStatus::in_progress: return "in_progress";
        case MatchStatus::won: return "won";
        case MatchStatus::drawn: return "drawn";
        case MatchStatus::closed: return "closed";
    }
    return "?";
}

Match::Match(const Rules& rules, Seat first_dealer)
    : rules_(rules), first_dealer_(first_dealer), next_dealer_(first_dealer) {}

ErrorCode Match::start_round(const Hands& hands) {
    if (over()) return ErrorCode::match_over;
    if (!awaiting_deal()) return ErrorCode::deal_incomplete;
    rounds_.emplace_back(rules_, next_dealer_, hands);
    totals_after_.push_back(totals_);
    return ErrorCode::ok;
}

ErrorCode Match::apply(Seat seat, Action a) {
    if (over()) return ErrorCode::match_over;
    if (awaiting_deal()) return ErrorCode::no_deal;
    const ErrorCode e = rounds_.back().apply(seat, a);
    if (e == ErrorCode::ok && rounds_.back().over()) finish_round();
    return e;
}

ErrorCode Match::apply(Action a) { return has_round() ? apply(round().to_act(), a) : ErrorCode::no_deal; }

void Match::finish_round() {
    const Round& r = rounds_.back();
    if (r.phase() == Phase::passed_out) {
        // rules.md: no contract, no score, not a round; 8 in a row close the table.
        ++pass_outs_in_row_;
        if (rules_.pass_out_dealer == PassOutDealer::next) next_dealer_ = next(next_dealer_);
        if (pass_outs_in_row_ >= rules_.pass_out_close) status_ = MatchStatus::closed;
        return;
    }
    pass_outs_in_row_ = 0;
    ++scored_rounds_;
    next_dealer_ = next(next_dealer_);
    for (Team t : {Team::t0, Team::t1}) {
        totals_[index(t)] += r.points(t);
        if (r.points(t) > 0) last_round_winner_ = t;  // only one team gains in a round
    }
    totals_after_.back() = totals_;
    for (Team t : {Team::t0, Team::t1}) {
        if (totals_[index(t)] >= rules_.target) {
            status_ = MatchStatus::won;
            winner_ = t;
            return;
        }
    }
    if (scored_rounds_ >= rules_.round_cap) {
        // rules.md "Round cap": the higher score wins; equal scores draw, or in a bracket go
        // to the team that won the last round.
        if (totals_[0] != totals_[1]) {
            status_ = MatchStatus::won;
            winner_ = totals_[0] > totals_[1] ? Team::t0 : Team::t1;
        } else if (rules_.bracket_tiebreak && last_round_winner_) {
            status_ = MatchStatus::won;
            winner_ = last_round_winner_;
            tiebreak_ = true;
        } else {
            status_ = MatchStatus::drawn;
        }
    }
}

ErrorCode deal_next_from_seed(Match& match, std::uint64_t match_seed) {
    const auto k = static_cast<std::uint64_t>(match.rounds().size());
    return match.start_round(deal_from_seed(derive_seed(match_seed, k), match.next_dealer()));
}

}  // namespace tarneeb
