#include "tarneeb/core/round.hpp"

#include <algorithm>

namespace tarneeb {

std::string to_string(Action a) {
    switch (a.kind) {
        case ActionKind::call: return a.is_pass() ? "pass" : std::to_string(a.bid_value());
        case ActionKind::trump: return std::string("trump ") + suit_letter(a.suit());
        case ActionKind::play: return to_string(a.card());
    }
    return "?";
}

bool ActionList::contains(Action a) const {
    for (Action x : *this)
        if (x == a) return true;
    return false;
}

Round::Round(const Rules& rules, Seat dealer, const Hands& hands)
    : rules_(rules), dealt_(hands), dealer_(dealer) {
    state_.hands = hands;
    state_.to_act = next(dealer);
}

// ---- auction ------------------------------------------------------------------------------

ErrorCode Round::check_call(int value) const {
    if (value == 0) return ErrorCode::ok;
    if (value < rules_.min_bid || value > rules_.max_bid) return ErrorCode::bad_bid;
    // rules.md: a bid must be higher than the standing high bid; in the classic preset the
    // dealer, who speaks last, may equal it (lowest_bid_value).
    if (value < lowest_bid_value()) return ErrorCode::bid_too_low;
    return ErrorCode::ok;
}

// ---- play -----------------------------------------------------------------------------------

Trick Round::trick(int t) const {
    Trick trick(leader_of_trick(t), trump_);
    const int end = std::min<int>(state_.num_played, 4 * t + 4);
    for (int i = 4 * t; i < end; ++i) trick.add(plays_[static_cast<std::size_t>(i)]);
    return trick;
}

// ---- actions --------------------------------------------------------------------------------

ErrorCode Round::check(Action a) const {
    switch (a.kind) {
        case ActionKind::call:
            if (phase_ != Phase::auction) return ErrorCode::auction_closed;
            return check_call(a.bid_value());
        case ActionKind::trump:
            switch (phase_) {
                case Phase::auction: return ErrorCode::auction_open;
                case Phase::passed_out: return ErrorCode::no_contract;
                case Phase::trump: return a.value < 4 ? ErrorCode::ok : ErrorCode::bad_trump;
                default: return ErrorCode::trump_named;
            }
        case ActionKind::play:
            switch (phase_) {
                case Phase::auction: return ErrorCode::auction_open;
                case Phase::passed_out: return ErrorCode::no_contract;
                case Phase::trump: return ErrorCode::trump_missing;
                case Phase::scored: return ErrorCode::deal_over;
                case Phase::play: return check_play(a.card());
            }
    }
    return ErrorCode::bad_format;
}

ErrorCode Round::apply(Seat seat, Action a) {
    if (!over() && seat != state_.to_act) return ErrorCode::out_of_turn;
    return apply(a);
}

ErrorCode Round::apply_other(Action a) {
    if (const ErrorCode e = check(a); e != ErrorCode::ok) return e;
    switch (a.kind) {
        case ActionKind::call: {
            const int value = a.bid_value();
            calls_[num_calls_++] = static_cast<std::uint8_t>(value);
            if (value == 0) {
                ++passes_in_row_;
            } else {
                passes_in_row_ = 0;
                high_bid_ = static_cast<std::uint8_t>(value);
                high_bidder_ = state_.to_act;
            }
            bool closed = false;
            if (rules_.auction == AuctionStyle::open) {
                // rules.md levantine: closes when three in a row pass after the high bid;
                // four passes with no bid pass the deal out.
                closed = high_bid_ > 0 ? passes_in_row_ >= 3 : passes_in_row_ >= 4;
            } else {
                closed = num_calls_ == 4;  // classic: one call each, the dealer last
            }
            if (!closed) {
                state_.to_act = next(state_.to_act);
            } else if (high_bid_ == 0) {
                phase_ = Phase::passed_out;
            } else {
                phase_ = Phase::trump;
                state_.to_act = high_bidder_;
            }
            return ErrorCode::ok;
        }
        case ActionKind::trump:
            trump_ = a.suit();
            phase_ = Phase::play;
            state_.to_act = high_bidder_;  // rules.md: the declarer leads the first trick
            trick_leaders_[0] = high_bidder_;
            return ErrorCode::ok;
        case ActionKind::play:  // only reached in phase play, which apply() handles inline
            play(a.card());
            return ErrorCode::ok;
    }
    return ErrorCode::bad_format;
}

RoundScore score_round(const Rules& rules, int bid, int declarer_tricks) {
    if (declarer_tricks >= bid)
        return {true, rules.scoring == ScoringStyle::bid_value ? bid : declarer_tricks, 0};
    return {false, -bid, 13 - declarer_tricks};
}

void Round::score() {
    phase_ = Phase::scored;
    const Team declaring = team_of(high_bidder_);
    const RoundScore s = score_round(rules_, high_bid_, state_.tricks[declaring]);
    made_ = s.made;
    points_[declaring] = static_cast<std::int8_t>(s.declarers);
    points_[other(declaring)] = static_cast<std::int8_t>(s.defenders);
}

ActionList Round::legal_actions() const {
    ActionList list;
    switch (phase_) {
        case Phase::auction:
            list.push_back(Action::pass());
            for (int b = rules_.min_bid; b <= rules_.max_bid; ++b)
                if (check_call(b) == ErrorCode::ok) list.push_back(Action::bid(b));
            break;
        case Phase::trump:
            for (Suit s : kSuits) list.push_back(Action::name_trump(s));
            break;
        case Phase::play:
            for (Card c : legal_cards()) list.push_back(Action::play(c));
            break;
        default: break;
    }
    return list;
}

Action Round::default_action() const {
    switch (phase_) {
        case Phase::trump: return Action::name_trump(default_trump(state_.hands[state_.to_act]));
        case Phase::play: return Action::play(weakest_card(legal_cards(), trump_));
        default: return Action::pass();
    }
}

Suit default_trump(CardSet hand) {
    Suit best = Suit::spades;
    for (Suit s : {Suit::hearts, Suit::diamonds, Suit::clubs}) {  // S > H > D > C on full ties
        const int len = hand.of(s).size(), best_len = hand.of(best).size();
        if (len > best_len || (len == best_len && hand.ranks(s) > hand.ranks(best))) best = s;
    }
    return best;
}

Card weakest_card(CardSet legal, Suit trump) {
    const CardSet plain = legal - CardSet::suit(trump);
    if (plain.empty()) return legal.lowest();
    Card best = plain.lowest();
    for (Card c : plain)  // ascending C, D, H, S: a strictly lower rank replaces, ties keep C first
        if (c.rank() < best.rank()) best = c;
    return best;
}

}  // namespace tarneeb
