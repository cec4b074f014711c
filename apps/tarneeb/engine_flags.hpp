// The command-line flags that tune outside engines (docs/engine-protocol.md), shared by the
// subcommands that seat players by name: simulate, play and serve.
#pragma once

#include <CLI/CLI.hpp>

#include "tarneeb/bots/engine_bot.hpp"

namespace tarneeb::cli {

/// Adds --engine-budget-ms, --engine-grace-ms, --engine-startup-ms, --engine-memory-mb,
/// --engine-max-faults and --engine-option to `cmd`, writing into `config` (the defaults of every EngineBot the
/// subcommand makes).
inline void add_engine_flags(CLI::App* cmd, bots::EngineConfig& config) {
    cmd->add_option_function<std::vector<std::string>>(
           "--engine-option",
           [&config](const std::vector<std::string>& flags) {
               for (const std::string& f : flags) {
                   const auto eq = f.find('=');
                   config.options.emplace_back(f.substr(0, eq), eq == std::string::npos ? "" : f.substr(eq + 1));
               }
           },
           "engines: NAME=VALUE, sent as 'setoption' to every engine that declares NAME (repeatable)")
        ->check([](const std::string& f) {
            const auto eq = f.find('=');
            const bool ok = eq != std::string::npos && eq > 0 && eq + 1 < f.size() &&
                            f.find_first_of(" \t\r\n") == std::string::npos;
            return ok ? std::string() : std::string("expects NAME=VALUE without spaces");
        })
        ->group("Engines");
    cmd->add_option("--engine-budget-ms", config.budget_ms, "engines: thinking time per decision, told in 'go'")
        ->capture_default_str()->check(CLI::Range(1, 600000))->group("Engines");
    cmd->add_option("--engine-grace-ms", config.grace_ms,
                    "engines: waited beyond the budget before the rules' default action is played")
        ->capture_default_str()->check(CLI::Range(0, 60000))->group("Engines");
    cmd->add_option("--engine-startup-ms", config.startup_ms, "engines: time to start and finish the handshake")
        ->capture_default_str()->check(CLI::Range(1, 600000))->group("Engines");
    cmd->add_option("--engine-quit-ms", config.quit_ms,
                    "engines: after 'quit', time an engine may take to exit before its processes are killed")
        ->capture_default_str()->check(CLI::Range(0, 60000))->group("Engines");
    cmd->add_option_function<std::uint64_t>(
           "--engine-memory-mb", [&config](std::uint64_t mb) { config.limits.memory_bytes = mb << 20; },
           "engines: address space each engine process may map (RLIMIT_AS), in MiB; 0 (default) = no limit")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 24))->group("Engines");
    cmd->add_option("--engine-max-faults", config.max_faults,
                    "engines: faults (crash, timeout, garbage, illegal action) before the heuristic bot replaces one")
        ->capture_default_str()->check(CLI::Range(1, 1000000))->group("Engines");
}

/// The help text's paragraph on `engine:CMD`.
inline constexpr const char* kEngineHelp =
    "An outside engine plays as engine:CMD (docs/engine-protocol.md): CMD is split into words like\n"
    "a shell would (quotes, backslashes) but run without a shell; engine:sh:CMD runs /bin/sh -c CMD.\n"
    "An engine that crashes, hangs past its budget, writes garbage or an illegal action plays the\n"
    "rules' default action for that turn (logged on stderr) and is restarted; after\n"
    "--engine-max-faults faults the heuristic bot plays instead.";

}  // namespace tarneeb::cli
