// A table: four seats, a match run authoritatively by the rules engine, turn timers, bot
// seats, disconnected players' seats held then played by a stand-in bot, and several matches
// in a row (docs/protocol.md). No sockets and no clock of its own: the caller passes the time
// (Unix ms) into every call, and calls tick() when next_wakeup() comes.
//
// Versions: every change that is journaled (seating, bots, start, each action) increases
// version() by one, so a restarted table that replays its journal has the same version.
// Connection changes (disconnected, stand-in, reclaimed) are not journaled and keep the
// version: they do not change what a seat may do.
//
// Journal: each change is handed to the journal sink before it is made, so a sink that throws
// (a database error) leaves the table unchanged (entry shapes:
// {"op":"sit","seat","name"}, {"op":"leave","seat"}, {"op":"bot","seat","bot","seed"},
// {"op":"unbot","seat"}, {"op":"start","seed"}, {"op":"act","seat","a":action_text}).
// replay(entry) applies an entry without journaling; a table rebuilt from its settings and
// entries is in the same state (bots are recreated from their seeds).
//
// Hidden information: view_json() builds a seat's message only from SeatView::of(match, seat);
// a spectator's has no hand.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/match.hpp"
#include "tarneeb/server/protocol.hpp"

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
    std::string code;        ///< join code of a private table ("" for a public one)

    Rules rules() const;
    nlohmann::json to_json() const;
    /// From the stored or requested JSON; nullopt when a field is out of range.
    static std::optional<TableSettings> from_json(const nlohmann::json& j);
};

/// Server-wide timing of tables.
struct TableTiming {
    Millis bot_delay_ms = 800;       ///< a bot acts this long after its turn starts
    Millis grace_ms = 20000;         ///< a disconnected player's seat is held this long
    std::string standin_bot = "heuristic";  ///< plays a disconnected or departed player's seat
};

enum class TableState : std::uint8_t { waiting, playing, finished };
std::string_view to_string(TableState s);

/// A match that just ended, for the caller to store.
struct FinishedMatch {
    std::string id;                        ///< "<table>-<match number>"
    std::array<std::string, 4> names;
    std::array<bool, 4> bots{};
    nlohmann::json record;                 ///< tarneeb-record/1 plus "players"
    std::string status;                    ///< won, drawn, closed
    int winner = -1;
    std::array<int, 2> scores{};
};

class Table {
public:
    /// Error result of a request: nullopt when done, else the stable error code name.
    using Result = std::optional<std::string>;
    struct JournalSink {
        std::function<void(const nlohmann::json&)> append;              ///< one entry, before the change
        std::function<void(const std::vector<nlohmann::json>&)> rewrite; ///< replace all entries (compaction)
    };

    Table(std::string id, TableSettings settings, TableTiming timing, BotFactory bots, JournalSink journal);

    const std::string& id() const { return id_; }
    const TableSettings& settings() const { return settings_; }
    TableState state() const { return state_; }
    std::uint64_t version() const { return version_; }
    int match_number() const { return match_number_; }
    const Match& match() const { return match_; }
    /// The seat held by player `name` (a human), if any.
    std::optional<Seat> seat_of(const std::string& name) const;
    /// True when no human holds a seat.
    bool no_humans() const;
    /// True when some seated human has an open connection.
    bool humans_connected() const;

    // ---- lobby ----------------------------------------------------------------------
    /// Seats player `name` (moving it when already seated here). Errors: table_playing,
    /// seat_taken.
    Result sit(Seat seat, const std::string& name, Millis now);
    /// The error sit() would give for `seat` (nullopt: it would succeed), changing nothing.
    Result can_sit(Seat seat) const;
    /// The player leaves its seat; during a match a bot takes the seat for good.
    Result leave(const std::string& name, Millis now);
    /// Errors: table_playing, seat_taken, unknown_bot.
    Result add_bot(Seat seat, const std::string& bot, std::uint64_t seed, Millis now);
    /// Errors: table_playing, bad_seat (no bot there).
    Result remove_bot(Seat seat, Millis now);
    /// Starts a match dealt from `seed`. Errors: table_playing, not_enough_players.
    Result start(std::uint64_t seed, Millis now);

    // ---- play -----------------------------------------------------------------------
    /// A seated player's action at table version `version`. Errors: stale, no_deal,
    /// match_over, out_of_turn and the engine's rule errors; nothing changes on error.
    Result act(Seat seat, Action action, std::uint64_t version, Millis now);

    // ---- connections and time ---------------------------------------------------------
    /// Player `name` has an open connection again (reclaims its seat from a stand-in).
    void connected(const std::string& name, Millis now);
    /// Player `name`'s last connection closed (the grace period starts).
    void disconnected(const std::string& name, Millis now);
    /// Applies what is due at `now`: stand-ins after the grace period, bot actions, timeouts.
    void tick(Millis now);
    /// The earliest time tick() has something to do; nullopt when nothing is scheduled.
    std::optional<Millis> next_wakeup() const;

    // ---- journal --------------------------------------------------------------------
    /// Applies a journal entry without journaling it (restart). False if it was rejected.
    bool replay(const nlohmann::json& entry, Millis now);

    // ---- messages -------------------------------------------------------------------
    /// The table message (docs/protocol.md "table") for `seat`, or for a spectator (nullopt),
    /// without "type" and "events". `spectators` is the count to show.
    nlohmann::json view_json(std::optional<Seat> seat, int spectators) const;
    /// The parts of a table message that differ between seats, for a message built once and
    /// shared (Hall::publish): `"legal":[...],"timeout_action":...,"you":...,` (with the
    /// trailing comma) for `seat` or a spectator (nullopt), and `"hand":[...],` for a seat
    /// ("" before the first deal). Both come from that seat's SeatView only.
    std::string seat_prefix(std::optional<Seat> seat) const;
    std::string hand_text(Seat seat) const;
    /// The lobby summary of the table.
    nlohmann::json summary_json(int spectators) const;
    /// Events since the last call, in order.
    std::vector<nlohmann::json> take_events();
    /// True when there are events to take.
    bool has_events() const { return !events_.empty(); }
    /// The match that ended since the last call, if any.
    std::optional<FinishedMatch> take_finished();
    /// Actions applied since the table was made (for metrics).
    std::uint64_t actions_applied() const { return actions_applied_; }

private:
    struct SeatHolder {
        enum class Kind : std::uint8_t { empty, human, bot } kind = Kind::empty;
        std::string name;                 ///< the player's or the bot's name
        std::unique_ptr<bots::Bot> bot;   ///< a bot seat's bot, or a human's stand-in
        std::uint64_t bot_seed = 0;
        bool connected = false;           ///< human: has an open connection
        std::optional<Millis> disconnected_since;
        bool standin = false;             ///< human: a bot plays the seat
        /// Bot seat: the human who sat here when the match started and left during it (`leave`);
        /// the match's result for the seat is theirs (stored and rated under this name).
        std::string left_mid_match;
    };

    void journal(const nlohmann::json& entry);
    bool bot_controlled(Seat s) const;
    void apply_action(Seat seat, Action a, bool timeout, Millis now);
    void deal_if_needed();
    void schedule(Millis now);
    void finish_match();
    nlohmann::json seat_json(Seat s) const;
    Result do_sit(Seat seat, const std::string& name);
    Result do_leave(Seat seat);
    Result do_add_bot(Seat seat, const std::string& bot, std::uint64_t seed);
    Result do_start(std::uint64_t seed);

    std::string id_;
    TableSettings settings_;
    TableTiming timing_;
    BotFactory make_bot_;
    JournalSink journal_;
    bool replaying_ = false;

    TableState state_ = TableState::waiting;
    std::uint64_t version_ = 0;
    int match_number_ = 0;
    std::uint64_t match_seed_ = 0;
    Match match_;
    std::array<SeatHolder, 4> seats_;
    std::optional<Millis> turn_deadline_;   ///< a human seat to act runs out of time
    std::optional<Millis> bot_due_;         ///< a bot-controlled seat to act acts
    std::vector<nlohmann::json> events_;
    std::optional<FinishedMatch> finished_;
    std::uint64_t actions_applied_ = 0;
};

}  // namespace tarneeb::server
