// The double-dummy solver: DDS 2.9 (libdds, Bo Haglund & Soren Hein) behind our own types.
//
// What it answers: with every card visible and best play by all four seats, how many of the
// remaining tricks the side to play takes, for a whole table (each trump × each declarer) or
// for each legal card of a position. Tarneeb card play is bridge card play without a dummy
// and without no-trump, and the declarer leads the first trick (rules.md "Common").
//
// Global state (forced by DDS, documented here rather than hidden): DDS keeps one block of
// search memory per "thread index" in process-wide globals, sized once by SetResources().
// This module configures DDS exactly once (configure(), or on first use with the defaults)
// and owns the thread indices: a Solver object leases one index for its lifetime, so two
// Solvers never share DDS memory; batch calls (tables()) use all of DDS's threads and so wait
// until no Solver is alive (and new leases wait for a waiting batch call, so it is not
// starved). A thread must not call tables() while it holds a Solver (it would wait for
// itself). A Solver may be used from one thread at a time. Nothing else is global. All calls use DDS mode 1 ("always search, even with one legal card").
//
// DDS writes `dump.txt` into the working directory whenever SolveBoard rejects its input;
// every position is validated here first (position.hpp validate()), so a normal call never
// reaches that path, and a DDS error that slips through is reported as dds_failure.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "tarneeb/solver/position.hpp"

namespace tarneeb::solver {

/// Set-up of DDS's global memory, applied once for the whole process.
struct Config {
    int threads = 2;        ///< DDS thread indices (1..16); this machine has 2 cores
    int memory_mb = 0;      ///< DDS memory cap in MB (0 = DDS's default per thread)
};

/// Applies `config` if DDS has not been configured yet and returns the configuration in
/// force (the first call wins; later calls and first use without a call get that one).
Config configure(const Config& config = {});

/// DDS's version string, e.g. "2.9.0", and its thread count in force.
std::string_view dds_version();

/// Double-dummy table: tricks[suit][seat] = tricks (0..13) taken by the team of `seat` when
/// `seat` declares and leads the first trick with trump `suit` (our Suit index, C=0..S=3).
/// This is the oracle's definition (tests/data/dd_oracle_2000.jsonl, `tricks[T][k]`).
struct DdTable {
    std::array<std::array<int, 4>, 4> tricks{};
    int at(Suit trump, Seat declarer) const { return tricks[static_cast<std::size_t>(index(trump))][static_cast<std::size_t>(index(declarer))]; }
    friend bool operator==(const DdTable&, const DdTable&) = default;
};

/// One legal card and what it leads to.
struct CardScore {
    Card card;
    /// Tricks (of those left, the current one included) that the side to play takes after
    /// this card with best play. With a null-window target: `target` if the card reaches it,
    /// else 0.
    int tricks = 0;
};

/// Every legal card of a position (each card gets its own entry, DDS's "equals" expanded),
/// best first; for equal scores in card order (clubs 2 upward).
struct CardScores {
    std::array<CardScore, 13> items{};
    int size = 0;
    std::span<const CardScore> cards() const { return {items.data(), static_cast<std::size_t>(size)}; }
    /// The score of `c`, or -1 if it is not in the list.
    int tricks_of(Card c) const;
};

/// A leased DDS thread index (see the file comment). Constructing one blocks while all of
/// DDS's thread indices are leased or a batch call runs. Not copyable; movable.
class Solver {
public:
    Solver();
    ~Solver();
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;
    Solver(Solver&& other) noexcept;
    Solver& operator=(Solver&& other) noexcept;

    /// The DDS thread index this solver owns (0..threads-1).
    int thread_index() const { return index_; }

    /// Best number of tricks the side to play takes from `p` (DDS target -1, solutions 1).
    /// Errors: validate()'s, dds_failure. On error `tricks` is unchanged.
    SolveError best_tricks(const Position& p, int& tricks);

    /// Every legal card with its tricks (DDS target -1, solutions 3). Errors as best_tricks.
    SolveError all_cards(const Position& p, CardScores& out);

    /// Null-window search: for every legal card, whether the side to play still takes at
    /// least `target` tricks (score = target) or not (0). Much cheaper than all_cards when
    /// only make-or-set matters. `target` 1..tricks_left(); target 0 is trivially reached
    /// (every card scores 0) and handled without DDS. Errors: bad_target, as best_tricks.
    SolveError cards_reaching(const Position& p, int target, CardScores& out);

    /// The double-dummy table of a full deal (13 cards each) on this solver's thread index
    /// alone: 16 opening leads (each trump x each declarer leading), solved one after the
    /// other, with no other thread and no batch lease (so it neither waits for other Solvers
    /// nor makes them wait: the server's analysis queue uses it). Same values as table().
    /// Errors: duplicate_card, bad_card_count, as best_tricks.
    SolveError table(const Hands& hands, DdTable& out);

private:
    int index_ = -1;
};

/// The double-dummy table of a full deal (13 cards each; CalcDDtable over 4 trumps).
/// Errors: duplicate_card, bad_card_count, dds_failure.
SolveError table(const Hands& hands, DdTable& out);

/// Tables for many deals at once (CalcAllTables in batches of up to 50, on all DDS threads;
/// the fastest way to solve many deals). Blocks until no Solver is alive (file comment);
/// about 0.4 s of CPU per deal on this machine. `out` must have the size of `deals`.
/// Errors: as table(), for the first failing deal (nothing in `out` is then reliable).
SolveError tables(std::span<const Hands> deals, std::span<DdTable> out);

/// The seat whose team takes the tricks DDS reports for a table entry: DDS's table gives the
/// declarer's tricks with the hand after the declarer on lead, while in Tarneeb the declarer
/// leads. So "seat k declares and leads" is DDS's declarer k-1, and k's team takes 13 minus
/// DDS's value (exposed for the round-trip test).
constexpr int dds_table_declarer(Seat leader) { return index(next(leader, 3)); }

}  // namespace tarneeb::solver
