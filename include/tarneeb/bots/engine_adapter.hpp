// The engine's side of the engine protocol for any Bot (docs/engine-protocol.md): reads the
// host's lines, rebuilds the seat's view with EngineGame and answers each "go" with the bot's
// decision. `tarneeb engine --bot NAME` is this loop on stdin and stdout, so that other
// programs can use our bots as engines.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/engine_protocol.hpp"

namespace tarneeb::bots {

/// An engine made of a bot.
struct EngineAdapter {
    std::string name;                   ///< "id name"
    std::string author;                 ///< "id author"
    std::vector<EngineOption> options;  ///< declared in the handshake; each starts at its default
    /// Makes the bot from the options' values (every declared option, by name) and the budget
    /// (ms) of the "go" it is first asked for.
    std::function<std::unique_ptr<Bot>(const std::map<std::string, std::string>& values, int budget_ms)> make;
    /// Make the bot again when a "go" brings another budget (for a bot that spends its budget,
    /// e.g. pimc); otherwise only when an option changes.
    bool remake_on_budget = false;
};

/// Runs the protocol on `in` / `out` until "quit" or the end of input; what goes wrong (a line
/// it cannot read, a host that disagrees with the rules) is reported on `log` and the game goes
/// on. A "go" is always answered: with the bot's decision if the round accepts it, else the
/// default action (decide_or_default), or the first legal token if the engine lost track of
/// the game. Returns 0, or 1 when the first line is not "tarneeb-engine 1" (after an "error"
/// line).
int run_engine(const EngineAdapter& adapter, std::istream& in, std::ostream& out, std::ostream& log);

}  // namespace tarneeb::bots
