// The only file that includes DDS (dds/dll.h). Everything DDS-specific stays here: the
// configuration, the thread-index leases, the copies into DDS's structs, the error codes.
// See include/tarneeb/solver/solver.hpp for the global-state contract.
#include <dds/dll.h>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "tarneeb/solver/solver.hpp"

namespace tarneeb::solver {
namespace {

// ---- the process-wide DDS state (forced by DDS's global thread memory) ------------------

struct DdsState {
    std::once_flag once;
    Config config;
    std::string version;
    std::mutex mutex;
    std::condition_variable changed;
    unsigned leased = 0;   // bit i: thread index i is leased by a Solver
    bool batch = false;    // a batch call (CalcAllTables) is using every DDS thread
    int batch_waiting = 0; // batch calls waiting: new leases wait for them (no starvation)
    int threads = 1;
};

DdsState& state() {
    static DdsState s;  // the one global: DDS's own memory is global, so is its bookkeeping
    return s;
}

DdsState& configured(const Config* wanted) {
    DdsState& s = state();
    std::call_once(s.once, [&] {
        Config c = wanted ? *wanted : Config{};
        c.threads = std::clamp(c.threads, 1, 16);
        c.memory_mb = std::max(c.memory_mb, 0);
        SetResources(c.memory_mb, c.threads);
        DDSInfo info{};
        GetDDSInfo(&info);
        s.threads = std::clamp(info.noOfThreads, 1, c.threads);
        c.threads = s.threads;
        s.config = c;
        s.version = info.versionString;
    });
    return s;
}

/// RAII lease of every DDS thread for a batch call.
class BatchLease {
public:
    BatchLease() : s_(configured(nullptr)) {
        std::unique_lock lock(s_.mutex);
        ++s_.batch_waiting;
        s_.changed.wait(lock, [&] { return s_.leased == 0 && !s_.batch; });
        --s_.batch_waiting;
        s_.batch = true;
    }
    ~BatchLease() {
        {
            std::lock_guard lock(s_.mutex);
            s_.batch = false;
        }
        s_.changed.notify_all();
    }
    BatchLease(const BatchLease&) = delete;
    BatchLease& operator=(const BatchLease&) = delete;

private:
    DdsState& s_;
};

deal to_dds_struct(const Position& p) {
    const DdsDeal m = to_dds(p);
    deal d{};
    d.trump = m.trump;
    d.first = m.first;
    for (std::size_t i = 0; i < 3; ++i) {
        d.currentTrickSuit[i] = m.trick_suit[i];
        d.currentTrickRank[i] = m.trick_rank[i];
    }
    for (std::size_t h = 0; h < 4; ++h)
        for (std::size_t su = 0; su < 4; ++su) d.remainCards[h][su] = m.remain[h][su];
    return d;
}

/// DDS's answer → every legal card with its score, "equals" expanded, best first.
void decode(const futureTricks& fut, CardScores& out) {
    out.size = 0;
    for (int i = 0; i < fut.cards && out.size < 13; ++i) {
        const Suit su = suit_from_dds(fut.suit[i]);
        const int score = std::max(fut.score[i], 0);
        out.items[static_cast<std::size_t>(out.size++)] = {Card(su, rank_from_dds(fut.rank[i])), score};
        const unsigned eq = static_cast<unsigned>(fut.equals[i]);
        for (int r = 2; r <= 14 && out.size < 13; ++r)
            if ((eq >> r) & 1u) out.items[static_cast<std::size_t>(out.size++)] = {Card(su, rank_from_dds(r)), score};
    }
    std::stable_sort(out.items.begin(), out.items.begin() + out.size, [](const CardScore& a, const CardScore& b) {
        return a.tricks != b.tricks ? a.tricks > b.tricks : a.card < b.card;
    });
}

}  // namespace

Config configure(const Config& config) { return configured(&config).config; }

std::string_view dds_version() { return configured(nullptr).version; }

int CardScores::tricks_of(Card c) const {
    for (const CardScore& s : cards())
        if (s.card == c) return s.tricks;
    return -1;
}

// ---- Solver: one leased thread index ----------------------------------------------------

Solver::Solver() {
    DdsState& s = configured(nullptr);
    std::unique_lock lock(s.mutex);
    const unsigned all = (1u << s.threads) - 1u;
    s.changed.wait(lock, [&] { return !s.batch && s.batch_waiting == 0 && (s.leased & all) != all; });
    for (int i = 0; i < s.threads; ++i)
        if (!((s.leased >> i) & 1u)) {
            s.leased |= 1u << i;
            index_ = i;
            break;
        }
}

Solver::~Solver() {
    if (index_ < 0) return;
    DdsState& s = state();
    {
        std::lock_guard lock(s.mutex);
        s.leased &= ~(1u << index_);
    }
    s.changed.notify_all();
}

Solver::Solver(Solver&& other) noexcept : index_(other.index_) { other.index_ = -1; }

Solver& Solver::operator=(Solver&& other) noexcept {
    if (this != &other) {
        Solver dropped(std::move(*this));  // releases our lease on scope exit
        index_ = other.index_;
        other.index_ = -1;
    }
    return *this;
}

namespace {
SolveError solve(const Position& p, int target, int solutions, int thread, futureTricks& fut) {
    if (const SolveError e = validate(p); e != SolveError::ok) return e;
    const int rc = SolveBoard(to_dds_struct(p), target, solutions, /*mode=*/1, &fut, thread);
    return rc == RETURN_NO_FAULT ? SolveError::ok : SolveError::dds_failure;
}
}  // namespace

SolveError Solver::best_tricks(const Position& p, int& tricks) {
    futureTricks fut{};
    const SolveError e = solve(p, -1, 1, index_, fut);
    if (e == SolveError::ok) tricks = fut.score[0];
    return e;
}

SolveError Solver::all_cards(const Position& p, CardScores& out) {
    futureTricks fut{};
    const SolveError e = solve(p, -1, 3, index_, fut);
    if (e == SolveError::ok) decode(fut, out);
    return e;
}

SolveError Solver::cards_reaching(const Position& p, int target, CardScores& out) {
    if (const SolveError e = validate(p); e != SolveError::ok) return e;
    if (target < 0 || target > p.tricks_left()) return SolveError::bad_target;
    if (target == 0) {
        out.size = 0;
        for (Card c : p.legal_cards()) out.items[static_cast<std::size_t>(out.size++)] = {c, 0};
        return SolveError::ok;
    }
    futureTricks fut{};
    const SolveError e = solve(p, target, 3, index_, fut);
    if (e != SolveError::ok) return e;
    decode(fut, out);
    for (int i = 0; i < out.size; ++i) {
        CardScore& cs = out.items[static_cast<std::size_t>(i)];
        cs.tricks = cs.tricks >= target ? target : 0;
    }
    return SolveError::ok;
}

// ---- tables ------------------------------------------------------------------------------

namespace {
constexpr int kTablesPerCall = MAXNOOFBOARDS / 4;  // 4 strains (no-trump filtered out)

SolveError check_deal(const Hands& h) {
    const SolveError e = validate(opening_position(h, Suit::spades, Seat::s0));
    if (e != SolveError::ok) return e;
    for (CardSet hand : h)
        if (hand.size() != 13) return SolveError::bad_card_count;
    return SolveError::ok;
}
}  // namespace

// The table on one Solver's thread index (solver.hpp): 16 opening leads, no batch.
SolveError Solver::table(const Hands& hands, DdTable& out) {
    if (const SolveError e = check_deal(hands); e != SolveError::ok) return e;
    DdTable t;
    for (Suit su : kSuits)  // one trump at a time: DDS reuses its table between the four leaders
        for (Seat s : kSeats) {
            int tricks = 0;
            if (const SolveError e = best_tricks(opening_position(hands, su, s), tricks); e != SolveError::ok) return e;
            t.tricks[static_cast<std::size_t>(index(su))][static_cast<std::size_t>(index(s))] = tricks;
        }
    out = t;
    return SolveError::ok;
}

SolveError tables(std::span<const Hands> deals, std::span<DdTable> out) {
    if (out.size() != deals.size()) return SolveError::too_many_deals;
    for (const Hands& h : deals)
        if (const SolveError e = check_deal(h); e != SolveError::ok) return e;
    auto in = std::make_unique<ddTableDeals>();
    auto res = std::make_unique<ddTablesRes>();
    auto par = std::make_unique<allParResults>();
    int filter[DDS_STRAINS] = {0, 0, 0, 0, 1};  // 1 = leave out: no-trump does not exist here
    BatchLease lease;
    for (std::size_t start = 0; start < deals.size(); start += kTablesPerCall) {
        const std::size_t n = std::min<std::size_t>(kTablesPerCall, deals.size() - start);
        in->noOfTables = static_cast<int>(n);
        for (std::size_t k = 0; k < n; ++k) {
            const Hands& h = deals[start + k];
            for (Seat s : kSeats)
                for (Suit su : kSuits)
                    in->deals[k].cards[dds_hand(s)][dds_suit(su)] = dds_holding(h[s], su);
        }
        const int rc = CalcAllTables(in.get(), /*mode: no par*/ -1, filter, res.get(), par.get());
        if (rc != RETURN_NO_FAULT) return SolveError::dds_failure;
        for (std::size_t k = 0; k < n; ++k) {
            DdTable& t = out[start + k];
            for (Suit su : kSuits)
                for (Seat s : kSeats)
                    t.tricks[static_cast<std::size_t>(index(su))][static_cast<std::size_t>(index(s))] =
                        13 - res->results[k].resTable[dds_suit(su)][dds_table_declarer(s)];
        }
    }
    return SolveError::ok;
}

SolveError table(const Hands& hands, DdTable& out) {
    return tables(std::span<const Hands>(&hands, 1), std::span<DdTable>(&out, 1));
}

}  // namespace tarneeb::solver
