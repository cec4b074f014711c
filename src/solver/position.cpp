// Positions and the DDS encodings (no DDS include here: see position.hpp).
#include "tarneeb/solver/position.hpp"

namespace tarneeb::solver {

std::string_view to_string(SolveError e) {
    switch (e) {
        case SolveError::ok: return "ok";
        case SolveError::bad_trick_size: return "bad_trick_size";
        case SolveError::bad_card: return "bad_card";
        case SolveError::duplicate_card: return "duplicate_card";
        case SolveError::bad_card_count: return "bad_card_count";
        case SolveError::no_cards: return "no_cards";
        case SolveError::revoke_in_trick: return "revoke_in_trick";
        case SolveError::bad_target: return "bad_target";
        case SolveError::too_many_deals: return "too_many_deals";
        case SolveError::not_in_play: return "not_in_play";
        case SolveError::dds_failure: return "dds_failure";
        case SolveError::stopped: return "stopped";
    }
    return "unknown";
}

int Position::tricks_left() const {
    const int n = hands[to_play()].size();
    return n;  // the seat to play holds one card per trick left, the current one included
}

CardSet Position::legal_cards() const {
    const CardSet hand = hands[to_play()];
    if (trick_size == 0) return hand;
    const CardSet follow = hand.of(trick[0].suit());
    return follow.empty() ? hand : follow;
}

Position position_of(const Round& round) {
    Position p;
    for (Seat s : kSeats) p.hands[s] = round.hand(s);
    p.trump = round.trump();
    p.leader = round.trick_leader();
    const auto trick = round.current_trick();
    p.trick_size = static_cast<int>(trick.size());
    for (std::size_t i = 0; i < trick.size(); ++i) p.trick[i] = trick[i];
    return p;
}

Position opening_position(const Hands& hands, Suit trump, Seat declarer) {
    Position p;
    p.hands = hands;
    p.trump = trump;
    p.leader = declarer;
    return p;
}

SolveError validate(const Position& p) {
    if (p.trick_size < 0 || p.trick_size > 3) return SolveError::bad_trick_size;
    CardSet seen;
    for (CardSet h : p.hands) {
        if ((h.bits() & ~CardSet::kDeckMask) != 0) return SolveError::bad_card;
        if (!(seen & h).empty()) return SolveError::duplicate_card;
        seen |= h;
    }
    for (int i = 0; i < p.trick_size; ++i) {
        const Card c = p.trick[static_cast<std::size_t>(i)];
        if (index(c.rank()) > 12 || (c.bit() >> 4) > 3) return SolveError::bad_card;
        if (seen.contains(c)) return SolveError::duplicate_card;
        seen |= c;
    }
    const int n = p.hands[p.to_play()].size();
    if (n == 0 && p.trick_size == 0) {
        for (CardSet h : p.hands)
            if (!h.empty()) return SolveError::bad_card_count;
        return SolveError::no_cards;
    }
    if (n == 0 || n > 13) return SolveError::bad_card_count;
    for (int i = 0; i < 4; ++i) {
        const Seat s = next(p.leader, i);
        const int want = i < p.trick_size ? n - 1 : n;
        if (p.hands[s].size() != want) return SolveError::bad_card_count;
    }
    if (p.trick_size > 0) {
        const Suit led = p.trick[0].suit();
        for (int i = 1; i < p.trick_size; ++i) {
            const Seat s = next(p.leader, i);
            if (p.trick[static_cast<std::size_t>(i)].suit() != led &&
                !p.hands[s].of(led).empty())
                return SolveError::revoke_in_trick;
        }
    }
    return SolveError::ok;
}

DdsDeal to_dds(const Position& p) {
    DdsDeal d;
    d.trump = dds_suit(p.trump);
    d.first = dds_hand(p.leader);
    for (int i = 0; i < p.trick_size && i < 3; ++i) {
        d.trick_suit[static_cast<std::size_t>(i)] = dds_suit(p.trick[static_cast<std::size_t>(i)].suit());
        d.trick_rank[static_cast<std::size_t>(i)] = dds_rank(p.trick[static_cast<std::size_t>(i)].rank());
    }
    for (Seat s : kSeats)
        for (Suit su : kSuits)
            d.remain[static_cast<std::size_t>(dds_hand(s))][static_cast<std::size_t>(dds_suit(su))] =
                dds_holding(p.hands[s], su);
    return d;
}

Position from_dds(const DdsDeal& d) {
    Position p;
    p.trump = suit_from_dds(d.trump);
    p.leader = seat_from_dds(d.first);
    while (p.trick_size < 3 && d.trick_rank[static_cast<std::size_t>(p.trick_size)] != 0) {
        const auto i = static_cast<std::size_t>(p.trick_size);
        p.trick[i] = Card(suit_from_dds(d.trick_suit[i]), rank_from_dds(d.trick_rank[i]));
        ++p.trick_size;
    }
    for (int h = 0; h < 4; ++h)
        for (int su = 0; su < 4; ++su)
            p.hands[seat_from_dds(h)] |=
                from_dds_holding(d.remain[static_cast<std::size_t>(h)][static_cast<std::size_t>(su)], suit_from_dds(su));
    return p;
}

}  // namespace tarneeb::solver
