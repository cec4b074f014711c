// The engine guard: a small process between the host and an outside engine, so that everything
// the engine starts ends with it (issue 27; docs/engine-protocol.md "Processes and limits").
//
// It is the tarneeb executable itself, run by EngineProcess (engine_process.hpp) as
//
//     tarneeb engine-guard [--memory BYTES] [--core-dumps] -- CMD ARG...
//
// (a hidden subcommand: main() hands it to engine_guard_main before any other parsing), with
// the engine's three pipes as its stdin, stdout and stderr and its **lifeline** as descriptor 3:
// one end of a socket pair whose other end only the host holds. The guard
//
// 1. becomes a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the engine starts, even in
//    another process group or session (setsid, a double fork), stays its descendant;
// 2. forks the engine: signals at their defaults and none blocked, the three pipes, no other
//    descriptor, RLIMIT_CORE 0 unless --core-dumps, RLIMIT_AS BYTES if --memory; then execvp;
// 3. reports on the lifeline, 8 bytes: {int32 errno of the exec (0: it runs), int32 the
//    engine's pid};
// 4. waits (signals blocked, a signalfd and poll) for the engine to exit, or for the host to
//    let go: the lifeline reads end of file (the host closed or shut it down, or died — the
//    kernel closes it even after a SIGKILL) or SIGTERM, SIGHUP, SIGINT come; then SIGKILLs the
//    engine;
// 5. kills every descendant left: its children (read from /proc) are SIGKILLed and reaped,
//    again and again, until it has none (a killed child's own children reparent to it first);
// 6. ends as the engine ended: exit N, or the same signal raised on itself (its own core limit
//    0 first), so the host reads the status it would have read from the engine.
//
// The guard needs no PR_SET_PDEATHSIG: that fires when the *thread* that started it exits,
// which would kill engines started from a short-lived thread; the lifeline follows the host
// process.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tarneeb::bots {

/// The hidden subcommand's name: argv[1] of a guard.
inline constexpr std::string_view kEngineGuardCommand = "engine-guard";
/// The environment variable set in a guard (and removed before the engine runs): a host that
/// finds it set refuses to start engines, so a program that is not tarneeb, started as a guard
/// by mistake, cannot start guards in turn.
inline constexpr const char* kEngineGuardEnv = "TARNEEB_ENGINE_GUARD";
/// The guard's descriptor of its lifeline.
inline constexpr int kGuardLifelineFd = 3;

/// What the guard reports on its lifeline once the engine runs or could not be started.
struct GuardReport {
    std::int32_t error = 0;  ///< errno of the engine's exec; 0: it runs
    std::int32_t pid = 0;    ///< the engine's pid when it runs
};

/// The guard's command line: `guard engine-guard [--memory BYTES] [--core-dumps] -- argv...`.
std::vector<std::string> engine_guard_argv(const std::string& guard, std::uint64_t memory_bytes, bool core_dumps,
                                           const std::vector<std::string>& argv);

/// Runs the guard. `argc`/`argv` are the whole command line (argv[1] is kEngineGuardCommand).
/// Returns only on a usage error (exit status 2) or when the engine cannot be started (127);
/// otherwise it ends as the engine ended (step 6 above).
int engine_guard_main(int argc, char** argv);

}  // namespace tarneeb::bots
