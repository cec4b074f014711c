// A table: four seats, a match run authoritatively by the rules engine, turn timers, bot
// seats, disconnected players' seats held then played by a stand-in bot, and several matches
// in a row (docs/protocol.md). No sockets, no clock, no database and no JSON of its own: the
// caller passes the time (Unix ms) into every call and calls tick() when next_wakeup() comes.
// The table is the engine; src/room/protocol.cpp is its adapter to the protocol's bytes.
//
// Changes are made in two steps so that the journal is written before a change and off the
// event loop (docs/architecture.md "Server threads"): prepare_*() checks a request and returns
// the Change (the journal entry, journal.hpp) without changing anything; the caller writes the
// entry to the journal and then calls commit(entry), which makes the change. Between the two
// the caller must not prepare another change of the same table (the hall keeps the table
// busy). A failed write is simply never committed: the table is as it was. A refused request
// carries a typed Refusal (events.hpp: a protocol error or a rule error, stable codes).
//
// Versions: every journaled change increases version() by one; a start entry carries the
// version it leaves the table at, so that a table rebuilt from a compacted journal never goes
// back to a lower version (across matches and restarts). Connection changes (disconnected,
// stand-in, reclaimed) are not journaled and keep the version: they do not change what a seat
// may do.
//
// Events: every change emits typed events (events.hpp) in order, taken with take_events().
// replay(entry) applies an entry without events (restart); a table rebuilt from its settings
// and entries is in the same state (bots are recreated from their seeds).
//
// Bots: a bot-controlled seat to act is offered once through bot_turn() (the bot and the
// seat's view, by value, for a worker thread); the decision comes back through decided() and
// is applied by prepare_due() once the bot delay has passed. A decision for a turn that is
// gone (the table moved on, the seat was reclaimed) is dropped.
//
// Hidden information: the table hands out SeatView::of(match, seat) only (a bot's turn; the
// protocol builds each seat's message from it); events carry public information only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/match.hpp"
#include "tarneeb/core/seat_view.hpp"
#include "tarneeb/room/events.hpp"
#include "tarneeb/room/journal.hpp"

namespace tarneeb::server {

/// Unix time in milliseconds.
using Millis = std::int64_t;

/// Makes a bot by registry name and seed (production: tarneeb::bots::make_bot); nullptr when
/// the name is unknown.
using BotFactory = std::function<std::unique_ptr<bots::Bot>(std::string_view name, std::uint64_t seed)>;

/// What a table's creator chooses (docs/protocol.md "create").
struct TableSettings {
    Preset preset = Preset::levantine;
    int target = 31;         ///< points to win, 1..500
    int turn_seconds = 30;   ///< 0 = no turn timer, else 1..600
    bool is_private = false;
    std::string code;        ///< join code of a private table, in memory only ("" for a public one)
    std::string code_hash;   ///< hash_token(code): what is stored, and what a join is checked against
    /// A tournament bracket's table (tournament.hpp): a draw at the round cap goes to the team
    /// that won the last round (docs/rules.md "Round cap"). Never set by a client's `create`.
    bool bracket_tiebreak = false;
    /// Its creator made it casual (`create` with "rated": false): no match of it is rated, and
    /// hints are given there. Stored as "casual" in the settings.
    bool casual = false;
    /// A quick-play table (docs/protocol.md "Quick play"): made by the server for `quick_play`,
    /// never by a client's `create`. It starts by itself when four people sit, or when its
    /// fill time comes (Table::fill_at) or a seated person sends `start`: its empty seats get
    /// TableTiming::quick_bot first. Stored as "quick": quick_rating.
    bool quick = false;
    int quick_rating = 0;  ///< quick: the rating of the player it was made for (the pool it matches)

    Rules rules() const;
};  // JSON forms: settings_json / parse_settings (protocol.hpp)

/// Server-wide timing of tables.
struct TableTiming {
    Millis bot_delay_ms = 800;       ///< a bot acts this long after its turn starts
    Millis grace_ms = 20000;         ///< a disconnected player's seat is held this long
    /// After a deal is scored or passed out, the next deal's first turn starts this long later:
    /// no turn clock runs and no bot acts meanwhile, while the players read the round summary.
    Millis summary_ms = 4000;
    std::string standin_bot = "heuristic";  ///< plays a disconnected or departed player's seat
    /// A quick-play table waits this long after its first person sits for more people, then its
    /// empty seats get `quick_bot`s and it starts.
    Millis quick_fill_ms = 20000;
    std::string quick_bot = "medium";
};

enum class TableState : std::uint8_t { waiting, playing, finished };

/// A change of a table, checked and ready to journal (Table::prepare_*()): write `entries` to
/// the table's journal (append the one entry, or replace the whole journal by them when
/// `rewrite`: a compaction), then Table::commit(entry()). When the request is refused, `error`
/// holds why (a stable code, docs/protocol.md "Errors") and there is nothing to write.
struct Change {
    std::optional<Refusal> error;
    std::vector<JournalEntry> entries;
    bool rewrite = false;
    /// The entries commit makes, the last ones (a quick-play fill: its bots and its start).
    std::size_t commits = 1;

    bool ok() const { return !error; }
    const JournalEntry& entry() const { return entries.back(); }
    static Change refused(Refusal why) { return Change{why, {}, false}; }
};

/// The name a bot seat is shown under (docs/protocol.md "table", seats): its kind and the
/// seat's number 1..4, e.g. "heuristic 2" for a heuristic bot at seat 1, so that four bots of one
/// kind are told apart at the table and on the score sheet. The kind (the bot registry's name or
/// an outside engine's, what `add_bot` named) is kept beside it (SeatInfo::bot_kind).
std::string bot_display_name(std::string_view kind, Seat seat);

/// Who holds a seat, as everyone at the table may see it.
struct SeatInfo {
    enum class Kind : std::uint8_t { empty, human, bot } kind = Kind::empty;
    std::string name;        ///< the player's name, or the bot's display name (bot_display_name)
    std::string bot_kind;    ///< bot: "heuristic", "pimc", an engine's name ("" for a human)
    bool connected = false;  ///< human: has an open connection
    bool standin = false;    ///< human: a bot plays the seat meanwhile
};

/// A bot's turn, handed to a worker thread: the bot and its seat's view, owned by value (the
/// table may move on or close meanwhile). Give the decision back with Table::decided(request, a).
struct BotTurn {
    std::uint64_t request = 0;
    Seat seat = Seat::s0;
    SeatView view;
    std::shared_ptr<bots::Bot> bot;
};
std::string_view to_string(TableState s);

/// A match that just ended, for the caller to store.
struct FinishedMatch {
    std::string id;                        ///< "<table>-<match number>"
    std::array<std::string, 4> names;
    std::array<bool, 4> bots{};
    bool rated = false;                    ///< Table::rated() when it ended
    nlohmann::json record;                 ///< tarneeb-record/1 plus "players"
    std::string status;                    ///< won, drawn, closed, abandoned (Table::abandon)
    int winner = -1;
    std::array<int, 2> scores{};
    Match match;                           ///< the match as it ended (its seats' numbers: seat_stats)
};

class Table {
public:
    Table(std::string id, TableSettings settings, TableTiming timing, BotFactory bots);

    const std::string& id() const { return id_; }
    const TableSettings& settings() const { return settings_; }
    TableState state() const { return state_; }
    std::uint64_t version() const { return version_; }
    int match_number() const { return match_number_; }
    const Match& match() const { return match_; }
    /// Who holds `seat`.
    SeatInfo seat_info(Seat seat) const;
    /// The bot playing `seat` (a bot seat's, or a human's stand-in), null when none. A caller may
    /// keep it past the seat's change to let it go elsewhere (an outside engine ends in its own
    /// time: TableHost lets it go on a worker).
    std::shared_ptr<bots::Bot> seat_bot(Seat seat) const { return seats_[seat].bot; }
    /// When the human seat to act runs out of time (Unix ms), if a turn timer runs.
    std::optional<Millis> deadline() const { return turn_deadline_; }
    /// Until when the round summary holds the new deal's first turn (TableTiming::summary_ms):
    /// the turn clock and the bots start then. Null when no summary pause is set.
    std::optional<Millis> summary_until() const { return summary_until_; }
    /// The seat held by player `name` (a human), if any.
    std::optional<Seat> seat_of(const std::string& name) const;
    /// True when no human holds a seat.
    bool no_humans() const;
    /// Whether the table's match counts for ratings (issue 27; docs/protocol.md "Ratings"): not
    /// casual, and four people seated — at the start of the match being played or last finished
    /// (a seat a stand-in took from a leaver still belongs to the leaver), or now while the
    /// table waits. A rated table gives no hints.
    bool rated() const;
    /// True when some seated human has an open connection.
    bool humans_connected() const;

    // ---- changes (prepare, journal, commit) ------------------------------------------
    /// Seats player `name` (moving it when already seated here). Errors: table_playing,
    /// seat_taken.
    Change prepare_sit(Seat seat, const std::string& name) const;
    /// The player leaves its seat; during a match a bot takes the seat for good. Errors: not_seated.
    Change prepare_leave(const std::string& name) const;
    /// A bot made by the factory from `seed`. Errors: table_playing, seat_taken, unknown_bot.
    Change prepare_add_bot(Seat seat, const std::string& bot, std::uint64_t seed) const;
    /// Errors: table_playing, bad_seat (no bot there).
    Change prepare_remove_bot(Seat seat) const;
    /// Starts a match: the dealer and the bots' seeds from `seed`, the first deal from
    /// `deal_seed`. Compacts the journal (a rewrite). Errors: table_playing, not_enough_players.
    Change prepare_start(std::uint64_t seed, std::uint64_t deal_seed) const;
    /// A quick-play table's start: each empty seat gets TableTiming::quick_bot (its seed from
    /// `seed`), then the match starts (prepare_start's rewrite, the bots and the start
    /// committed: Change::commits). Errors: table_playing, not_seated (no person seated),
    /// bad_settings (not a quick table).
    Change prepare_fill(const std::function<std::uint64_t()>& seed) const;
    /// A quick-play table waiting for people: when its empty seats are filled (nullopt: it is
    /// not waiting, or nobody sits there yet).
    std::optional<Millis> fill_at() const { return fill_at_; }
    /// A seated player's action at table version `version`; `deal_seed` deals the next round
    /// when this action ends one. Errors: stale, no_deal, match_over, deal_over, out_of_turn and
    /// the engine's rule errors (docs/rules.md).
    Change prepare_act(Seat seat, Action action, std::uint64_t version, std::uint64_t deal_seed) const;
    /// The same, with `deal_seed` called only when the action ends a round (the server's CSPRNG
    /// is asked once per deal, not once per action).
    Change prepare_act(Seat seat, Action action, std::uint64_t version, const std::function<std::uint64_t()>& deal_seed) const;
    /// The action due at `now`, if any: a bot's decision (given through decided(); an illegal
    /// one is replaced by the rules' default action) once the bot delay has passed, or the
    /// default action of a human seat whose turn timer ran out (docs/rules.md "Timer").
    /// `deal_seed` is called only when the action ends a round. A quick-play table's fill
    /// (prepare_fill) is due when four people sit or its fill_at() comes.
    std::optional<Change> prepare_due(Millis now, const std::function<std::uint64_t()>& deal_seed) const;
    /// Makes a change whose entry was written to the journal (events for the clients).
    void commit(const JournalEntry& entry, Millis now);

    // ---- bots -----------------------------------------------------------------------
    /// The bot-controlled seat to act, offered once per turn; nullopt when there is none or it
    /// was offered already.
    std::optional<BotTurn> bot_turn();
    /// A bot's decision for `request` (from bot_turn()); dropped when that turn is gone.
    void decided(std::uint64_t request, Action action);

    // ---- connections and time ---------------------------------------------------------
    /// Player `name` has an open connection again (reclaims its seat from a stand-in).
    void connected(const std::string& name, Millis now);
    /// Player `name`'s last connection closed (the grace period starts).
    void disconnected(const std::string& name, Millis now);
    /// Applies what is due at `now` and is not journaled: stand-ins after the grace period.
    void tick(Millis now);
    /// The earliest time something is due (tick() or prepare_due()); nullopt when nothing is scheduled.
    std::optional<Millis> next_wakeup() const;

    // ---- journal --------------------------------------------------------------------
    /// Applies a journal entry without events (restart). False if it was rejected.
    bool replay(const JournalEntry& entry, Millis now);

    // ---- events -----------------------------------------------------------------------
    /// Events since the last call, in order.
    std::vector<TableEvent> take_events();
    /// True when there are events to take.
    bool has_events() const { return !events_.empty(); }
    /// The match that ended since the last call, if any.
    std::optional<FinishedMatch> take_finished();
    /// The match under way, ended where it stands because its table closes (issue 27: the last
    /// person left a table of bots, and the match vanished): status "abandoned", the scores so
    /// far; each seat still the player's who sat there at its start. Its winner: the team of
    /// nobody who left first with `leave` (abandoning is a loss for the leaver's team, as
    /// Lichess counts it; rating.hpp rates it at a rated table), -1 when nobody left (everyone
    /// dropped). nullopt when no match is under way. The table is finished after it.
    std::optional<FinishedMatch> abandon();
    /// Actions applied since the table was made (for metrics).
    std::uint64_t actions_applied() const { return actions_applied_; }

private:
    struct SeatHolder {
        enum class Kind : std::uint8_t { empty, human, bot } kind = Kind::empty;
        std::string name;                 ///< the player's name, or the bot's kind (registry name, journaled)
        std::shared_ptr<bots::Bot> bot;   ///< a bot seat's bot, or a human's stand-in (shared with a thinking worker)
        std::uint64_t bot_seed = 0;
        bool connected = false;           ///< human: has an open connection
        std::optional<Millis> disconnected_since;
        bool standin = false;             ///< human: a bot plays the seat
        /// Bot seat: the human who sat here when the match started and left during it (`leave`);
        /// the match's result for the seat is theirs (stored and rated under this name).
        std::string left_mid_match;
    };

    bool bot_controlled(Seat s) const;
    /// Applies a journal entry; false when it does not apply. Events are made either way
    /// (replay() drops them).
    bool apply_entry(const JournalEntry& entry, Millis now);
    Change act_change(Seat seat, Action a, bool timeout, const std::function<std::uint64_t()>& deal_seed) const;
    void apply_action(Seat seat, Action a, bool timeout, std::optional<std::uint64_t> deal_seed, Millis now);
    void deal_if_needed(std::optional<std::uint64_t> deal_seed);
    void schedule(Millis now);
    void finish_match();
    /// Ends the match under way (the table is finished) and returns its record: `status`, `winner` (−1: none).
    FinishedMatch match_record(std::string status, int winner);
    void do_sit(Seat seat, const std::string& name);
    void do_leave(Seat seat);
    bool do_add_bot(Seat seat, const std::string& bot, std::uint64_t seed);
    void do_start(std::uint64_t seed, std::optional<std::uint64_t> deal_seed, std::optional<std::uint64_t> version);

    std::string id_;
    TableSettings settings_;
    TableTiming timing_;
    BotFactory make_bot_;

    TableState state_ = TableState::waiting;
    std::uint64_t version_ = 0;
    int match_number_ = 0;
    bool four_humans_at_start_ = false;  ///< at the start of the current (or last) match
    std::optional<Seat> first_leaver_;  ///< the seat whose person left this match first (abandon)
    std::uint64_t match_seed_ = 0;
    Match match_;
    BySeat<SeatHolder> seats_;
    std::optional<Millis> turn_deadline_;   ///< a human seat to act runs out of time
    std::optional<Millis> bot_due_;         ///< a bot-controlled seat to act acts (once decided)
    std::optional<Millis> summary_until_;   ///< the round summary's pause ends (summary_until())
    std::optional<Millis> fill_at_;         ///< a quick-play table fills its empty seats (fill_at())
    /// A turn: the match, the deal and the actions so far.
    using TurnKey = std::tuple<int, std::size_t, std::uint64_t>;
    TurnKey turn_key() const;
    void drop_decision();
    std::uint64_t requests_made_ = 0;
    std::uint64_t offered_ = 0;             ///< the request offered for this turn (0: none)
    TurnKey offered_key_{-1, 0, 0};         ///< the turn it was offered for
    std::uint64_t thinking_ = 0;            ///< the request a worker still holds a bot for (0: none)
    std::optional<Action> bot_decision_;    ///< the decision for offered_
    std::vector<TableEvent> events_;
    std::optional<FinishedMatch> finished_;
    std::uint64_t actions_applied_ = 0;
};

}  // namespace tarneeb::server
