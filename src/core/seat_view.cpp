#include "tarneeb/core/seat_view.hpp"

#include <algorithm>

namespace tarneeb {

SeatView::SeatView(const Round& round, Seat seat, std::array<int, 2> scores)
    : round_(round), seat_(seat), scores_(scores) {
    round_.erase_hands_except(seat);
    const auto plays = round.plays();
    for (int i = 0; i < static_cast<int>(plays.size()); ++i) {
        const Suit led = plays[static_cast<std::size_t>(i & ~3)].suit();
        if (plays[static_cast<std::size_t>(i)].suit() != led)
            voids_[round.played_by(i)] |= static_cast<std::uint8_t>(1u << index(led));
    }
}

SeatView SeatView::of(const Match& match, Seat seat) {
    const Round& r = match.round();
    return SeatView(r, seat, r.over() ? match.totals_after(static_cast<int>(match.rounds().size()) - 1) : match.totals());
}

int SeatView::cards_left(Seat s) const {
    const int played_by_s = [&] {
        int n = 0;
        for (int i = 0; i < round_.cards_played(); ++i) n += round_.played_by(i) == s;
        return n;
    }();
    return 13 - played_by_s;
}

}  // namespace tarneeb
