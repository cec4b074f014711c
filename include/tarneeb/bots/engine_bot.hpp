// EngineBot: an outside program (an "engine") as a computer player, through the engine
// protocol (docs/engine-protocol.md; the text in engine_protocol.hpp, the process in
// engine_process.hpp).
//
// The engine is told of every action through observe() and asked through decide(); what it is
// told is built from the seat's SeatView only (hidden information stays hidden). Its state is
// rebuilt from the view whenever it (re)starts: newmatch, deal, then every action of the deal so
// far.
//
// Faults (docs/engine-protocol.md "Faults"): an engine that cannot start, fails its handshake,
// exits, does not answer within its budget plus the grace, writes a line that is not an answer
// ("garbage"), or answers an illegal action makes decide() throw EngineError, so the one loop
// (decide_or_default, loop.hpp) plays the rules' default action for that turn (rules.md "Turn
// timer"). Each fault is logged at error level with the engine's name and the offending line,
// and the process is killed; the engine restarts at its seat's next turn. After `max_faults`
// faults the bot stops using the engine and its fallback bot (the heuristic) plays instead.
// A decision never waits longer than budget + grace, plus startup_ms when the engine has to
// start (or restart) first.
//
// Lifetime: one process at a time, from the seat's first turn (or start()) until a fault or the
// bot's end ("quit"). A host that keeps the bot for many matches (`tarneeb simulate`: one per
// engine seat per worker thread for the whole run) calls new_match() before each; the process
// goes on (docs/engine-protocol.md "Processes and limits").
//
// Threads: one thread at a time (the loop; the server's bot worker, where decide() may block
// until its deadline, and the event loop, where observe() never blocks: it only queues text).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/engine_process.hpp"
#include "tarneeb/bots/engine_protocol.hpp"

namespace tarneeb::bots {

enum class EngineLogLevel : std::uint8_t { debug, info, warn, error };
/// Where an EngineBot logs: one complete line per call (no "\n"), e.g.
/// `engine="python3 bot.py" event=fault fault=illegal seat=2 line="action 14" detail="..."`.
using EngineLogger = std::function<void(EngineLogLevel level, const std::string& line)>;
/// The default logger: info and above to stderr, one write per line.
void log_to_stderr(EngineLogLevel level, const std::string& line);

/// What went wrong with an engine (the `fault=` word of its log line).
enum class EngineFault : std::uint8_t {
    start,      ///< the program could not be started
    handshake,  ///< no proper handshake ("ready") within startup_ms, or an "error" line
    crash,      ///< the engine exited (or closed its stdout, or stopped reading its stdin)
    timeout,    ///< no answer within the budget plus the grace
    garbage,    ///< a line that is not "action X" / "info ...", or X is not an action's notation
    illegal,    ///< a readable action the rules refuse now
};
std::string_view to_string(EngineFault f);

/// What decide() throws on a fault; decide_or_default turns it into the default action.
class EngineError : public std::runtime_error {
public:
    EngineError(EngineFault fault, const std::string& what) : std::runtime_error(what), fault_(fault) {}
    EngineFault fault() const { return fault_; }

private:
    EngineFault fault_;
};

struct EngineConfig {
    /// The name in logs and Bot::name(): the NAME of `serve --engine NAME=CMD`, or the command.
    std::string name;
    /// The program and its arguments (argv[0] searched in PATH; no shell).
    std::vector<std::string> argv;
    /// Options set after the handshake (setoption), by name; only those the engine declared are
    /// sent (the others are logged and skipped). An engine that declares an option "seed" is
    /// also given the bot's seed.
    std::vector<std::pair<std::string, std::string>> options;
    int budget_ms = 1000;    ///< thinking time per decision, told to the engine in "go"
    int grace_ms = 100;      ///< waited beyond the budget before the answer counts as late
    int startup_ms = 2000;   ///< for starting the program and its handshake
    int quit_ms = 50;        ///< after "quit", how long it may take to exit before it is killed
    int max_faults = 3;      ///< faults after which the fallback bot plays instead (>= 1)
    std::string fallback = "heuristic";  ///< a registered bot (registry.cpp)
    ProcessLimits limits;
    EngineLogger log;        ///< nullptr: log_to_stderr
};

class EngineBot final : public Bot {
public:
    /// Nothing starts yet: the engine is started at its first turn (or by start()). `seed` is
    /// given to the engine if it declares a "seed" option, and seeds the fallback bot.
    EngineBot(EngineConfig config, std::uint64_t seed);
    /// Sends "quit", waits up to quit_ms for the engine to exit, then kills its process group.
    ~EngineBot() override;

    std::string_view name() const override { return config_.name; }
    Action decide_call(const SeatView& view) override { return ask(view); }
    Action decide_trump(const SeatView& view) override { return ask(view); }
    Action decide_card(const SeatView& view) override { return ask(view); }
    /// Queues the lines that tell the engine of the action (EngineFeed) and writes what the
    /// pipe takes; never waits and never throws. A dead engine is noted as a crash.
    void observe(const SeatView& view, Seat actor, Action action) override;

    /// Starts the engine now (within startup_ms) rather than at its first turn. False on a
    /// fault (logged and counted as in decide()).
    bool start();

    /// A new unit of play for a bot kept across matches (`tarneeb simulate`: a match, or a
    /// duplicate deal pair; docs/engine-protocol.md "Processes and limits"):
    /// - `seed` becomes the bot's seed: the fallback bot's, and the engine's `seed` option. A
    ///   running engine that declared `seed` is sent `setoption name seed value SEED` now,
    ///   before the unit's newmatch; one that starts later gets it with its handshake.
    /// - The next line about the game is `newmatch`, even when seat, rules and totals look like
    ///   the last match's (a match that closed at 0-0, then one in the same seat).
    /// - The faults start again from 0 and a fallback is dropped: a faulted or replaced engine
    ///   has max_faults chances in each unit, (re)started at its seat's next turn.
    /// The process is not restarted. Never waits; an engine found dead while sending the seed
    /// is a crash fault of the new unit (logged as in observe()).
    void new_match(std::uint64_t seed);

    /// Faults since the bot was made or since the last new_match().
    int faults() const { return faults_; }
    /// Processes started so far, over the bot's life (1 + restarts).
    int starts() const { return starts_; }
    /// True once the fallback bot plays instead of the engine (until the next new_match()).
    bool replaced() const { return fallback_ != nullptr; }
    /// The running engine's process id, or -1.
    pid_t pid() const { return process_ ? process_->pid() : -1; }
    /// What the engine said in its last handshake.
    const std::string& engine_name() const { return id_name_; }
    const std::string& engine_author() const { return id_author_; }
    const std::vector<EngineOption>& engine_options() const { return declared_; }

private:
    Action ask(const SeatView& view);
    /// Starts the process and runs the handshake until `deadline`; on failure records the fault
    /// (for the decision on `view`, if given).
    bool launch(EngineProcess::Clock::time_point deadline, const SeatView* view);
    /// Logs, kills the process, counts; after max_faults installs the fallback. `view`: the
    /// decision it happened in (its seat and default action go into the log line), if any.
    void fault(EngineFault kind, const SeatView* view, std::string_view line, const std::string& detail);
    [[noreturn]] void fail(EngineFault kind, const SeatView& view, std::string_view line, const std::string& detail);
    void log(EngineLogLevel level, const std::string& text) const;
    /// True when the engine declared option `name` in its last handshake.
    bool declared(std::string_view name) const;

    EngineConfig config_;
    std::uint64_t seed_;
    std::unique_ptr<EngineProcess> process_;
    EngineFeed feed_;
    std::unique_ptr<Bot> fallback_;
    int faults_ = 0;
    int starts_ = 0;
    std::string id_name_, id_author_;
    std::vector<EngineOption> declared_;
};

/// "engine:CMD" or "engine:sh:CMD" as written on a command line.
inline constexpr std::string_view kEnginePrefix = "engine:";

/// The configuration of the engine given by `command` (the part after "engine:"): CMD split by
/// split_command into argv; "sh:CMD" runs /bin/sh -c CMD (the shell only when asked). The name
/// is the command as written. nullopt when CMD is empty or its quotes do not close.
std::optional<EngineConfig> engine_config(std::string_view command, EngineConfig defaults = {});

/// A player from a command-line name: a registered bot (make_bot), or "engine:CMD" (an
/// EngineBot from engine_config(CMD, defaults)). nullptr when neither. Only for trusted input
/// (the person at the command line): a server must never run a command a client sent.
std::unique_ptr<Bot> make_player(std::string_view spec, std::uint64_t seed, const EngineConfig& defaults = {});
/// Why `spec` names no player (for a usage error), or nullopt when it does.
std::optional<std::string> player_error(std::string_view spec);

}  // namespace tarneeb::bots
