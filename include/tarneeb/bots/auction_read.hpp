// AuctionRead: what the auction so far shows to one seat, for the computer players' bidding
// (heuristic and pimc). Knowledge any player at the table has, derived from a SeatView only.
// Calls are bids 7..13 or 0 for a pass (rules.md "Auction").
#pragma once

#include "tarneeb/core/seat_view.hpp"

namespace tarneeb::bots {

struct AuctionRead {
    int partner_bid = 0;         ///< the partner's first bid (0 if none): what its own hand showed
    int my_bid = 0;              ///< this seat's highest bid so far (0 if none)
    bool partner_passed = false; ///< the partner passed at least once
    int opponent_bids = 0;       ///< opponents (0..2) who bid at least once
};

/// The auction so far seen from `view.seat()`.
AuctionRead read_auction(const SeatView& view);

}  // namespace tarneeb::bots
