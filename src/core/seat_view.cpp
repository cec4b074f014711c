#include "tarneeb/core/seat_view.hpp"

namespace tarneeb {

SeatView::SeatView(const Round& round, Seat seat, std::array<int, 2> scores)
    : round_(round), seat_(seat), scores_(scores) {
    round_.erase_hands_except(seat);
}

SeatView SeatView::of(const Match& match, Seat seat) {
    const Round& r = match.round();
    return SeatView(r, seat, r.over() ? match.totals_after(static_cast<int>(match.rounds().size()) - 1) : match.totals());
}

int SeatView::cards_left(Seat s) const {
    // One card a finished trick, and one more if `s` has played to the trick in progress.
    const int place = (index(s) - index(round_.trick_leader()) + 4) % 4;
    const bool played_to_this_trick = place < static_cast<int>(round_.current_trick().size());
    return 13 - round_.tricks_played() - (played_to_this_trick ? 1 : 0);
}

CardSet SeatView::equivalents(Card c) const {
    CardSet gone = round_.played();
    for (Card t : round_.current_trick()) gone -= t;
    const CardSet hand = round_.hand(seat_);
    const std::uint32_t mine = hand.ranks(c.suit()), out = gone.ranks(c.suit());
    // Walk down, then up, from c's rank while each rank is ours or gone for good.
    CardSet same(c);
    for (int r = index(c.rank()) - 1; r >= 0 && ((mine | out) >> r & 1); --r)
        if (mine >> r & 1) same |= Card(c.suit(), static_cast<Rank>(r));
    for (int r = index(c.rank()) + 1; r < 13 && ((mine | out) >> r & 1); ++r)
        if (mine >> r & 1) same |= Card(c.suit(), static_cast<Rank>(r));
    return same;
}

}  // namespace tarneeb
