#include "tarneeb/bots/auction_read.hpp"

#include <algorithm>

namespace tarneeb::bots {

AuctionRead read_auction(const SeatView& v) {
    AuctionRead a;
    const auto calls = v.calls();
    BySeat<bool> bid{};
    for (int i = 0; i < static_cast<int>(calls.size()); ++i) {
        const Seat s = v.caller(i);
        const int c = calls[static_cast<std::size_t>(i)];
        if (s == partner(v.seat())) {
            if (c == 0) a.partner_passed = true;
            if (a.partner_bid == 0) a.partner_bid = c;
        }
        if (s == v.seat()) a.my_bid = std::max(a.my_bid, c);
        if (c != 0) bid[s] = true;
    }
    a.opponent_bids = bid[next(v.seat(), 1)] + bid[next(v.seat(), 3)];
    return a;
}

}  // namespace tarneeb::bots
