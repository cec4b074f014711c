// Perft: counts of legal play sequences from fixed positions, checked against an independent
// naive move generator and against stored numbers (a change in either means a rules change).
#include <gtest/gtest.h>

#include <vector>

#include "tarneeb/core/random.hpp"
#include "tarneeb/core/round.hpp"

namespace tarneeb {
namespace {

/// Leaf count through the engine.
std::uint64_t perft(const Round& r, int depth) {
    if (depth == 0 || r.over()) return 1;
    std::uint64_t n = 0;
    for (Card c : r.legal_cards()) {
        Round child = r;
        if (child.apply(Action::play(c)) != ErrorCode::ok) ADD_FAILURE() << "legal card refused";
        n += perft(child, depth - 1);
    }
    return n;
}

/// An independent, deliberately naive model: hands as vectors of (suit, rank) pairs.
struct Naive {
    std::array<std::vector<std::pair<int, int>>, 4> hands;
    std::vector<std::pair<int, int>> trick;
    int to_act = 0;
    int trump = 0;

    std::uint64_t count(int depth) {
        if (depth == 0 || (hands[0].empty() && hands[1].empty() && hands[2].empty() && hands[3].empty())) return 1;
        auto& hand = hands[static_cast<std::size_t>(to_act)];
        bool can_follow = false;
        if (!trick.empty())
            for (auto& c : hand) can_follow |= c.first == trick.front().first;
        std::uint64_t n = 0;
        for (std::size_t i = 0; i < hand.size(); ++i) {
            const auto c = hand[i];
            if (can_follow && c.first != trick.front().first) continue;
            Naive child = *this;
            auto& h = child.hands[static_cast<std::size_t>(to_act)];
            h.erase(h.begin() + static_cast<long>(i));
            child.trick.push_back(c);
            if (child.trick.size() == 4) {
                int best = 0;
                for (int k = 1; k < 4; ++k) {
                    const auto& a = child.trick[static_cast<std::size_t>(k)];
                    const auto& b = child.trick[static_cast<std::size_t>(best)];
                    const bool beats = (a.first == b.first && a.second > b.second) || (a.first == trump && b.first != trump);
                    if (beats) best = k;
                }
                child.to_act = (to_act + 1 + best) % 4;  // to_act played the 4th card
                child.trick.clear();
            } else {
                child.to_act = (to_act + 1) % 4;
            }
            n += child.count(depth - 1);
        }
        return n;
    }
};

Naive naive_of(const Round& r) {
    Naive n;
    for (Seat s : kSeats)
        for (Card c : r.hand(s)) n.hands[static_cast<std::size_t>(index(s))].push_back({index(c.suit()), index(c.rank())});
    for (Card c : r.current_trick()) n.trick.push_back({index(c.suit()), index(c.rank())});
    n.to_act = index(r.to_act());
    n.trump = index(r.trump());
    return n;
}

/// A round from seed `seed`: s1 declares 8 with `trump`, then `skip` cards by the timer.
Round position(std::uint64_t seed, Suit trump, int skip) {
    Round r(kLevantine, Seat::s0, deal_from_seed(seed, Seat::s0));
    r.apply(Action::bid(8));
    for (int i = 0; i < 3; ++i) r.apply(Action::pass());
    r.apply(Action::name_trump(trump));
    for (int i = 0; i < skip; ++i) r.apply(r.default_action());
    return r;
}

struct PerftCase {
    std::uint64_t seed;
    Suit trump;
    int skip, depth;
    std::uint64_t expected;
};

// Stored counts (computed by this engine and confirmed by the naive model at the time).
const PerftCase kCases[] = {
    {1, Suit::spades, 0, 4, 366},
    {2, Suit::hearts, 0, 5, 4536},
    {3, Suit::clubs, 36, 16, 33696},
    {4, Suit::diamonds, 38, 14, 14976},
    {5, Suit::spades, 33, 12, 77112},
};

TEST(Perft, EngineAgreesWithANaiveModelAndStoredCounts) {
    for (const PerftCase& c : kCases) {
        const Round r = position(c.seed, c.trump, c.skip);
        const std::uint64_t engine = perft(r, c.depth);
        Naive naive = naive_of(r);
        EXPECT_EQ(engine, naive.count(c.depth)) << "seed " << c.seed;
        EXPECT_EQ(engine, c.expected) << "seed " << c.seed;
    }
}

}  // namespace
}  // namespace tarneeb
