// EngineProcess: one outside program on three pipes (its stdin, stdout and stderr), for an
// engine of the engine protocol (docs/engine-protocol.md "Processes and limits"). POSIX only.
//
// - Started under its guard (engine_guard.hpp: the tarneeb executable's hidden `engine-guard`,
//   posix_spawn'd in a process group of its own, which the engine shares) from an argv (no
//   shell: argv[0] is searched in PATH), with every signal at its default and none blocked,
//   every descriptor but the three pipes closed, no core dumps and optionally an address-space
//   limit (RLIMIT_AS), both set before the engine's exec. Whatever the engine starts, even with
//   setsid, ends with it: the guard kills it when the engine exits, when the host stops it, and
//   when the host dies (even by SIGKILL).
// - The host never blocks without a deadline: writes are queued and written as the pipe takes
//   them (a write to an engine that has exited fails instead of raising SIGPIPE); reads wait at
//   most until a deadline; stderr is read whenever the host waits or writes and forwarded line
//   by line to a sink (the log).
// - Ended by stop() or when destroyed: the guard is told to let go (end of file on its
//   lifeline), SIGKILLs the engine and all it started and exits as the engine ended; if it
//   has not within a second, its process group is SIGKILLed (the last resort). Then reaped.
//
// Not thread-safe: one thread at a time (an EngineBot is used by one thread at a time).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tarneeb::bots {

/// Limits set on an engine's process before its program starts (setrlimit(2) in its guard), and
/// the guard that runs it.
struct ProcessLimits {
    /// RLIMIT_AS in bytes (the address space the engine may map); 0 keeps the host's. An
    /// engine built with AddressSanitizer needs terabytes of address space: leave it 0 then.
    std::uint64_t memory_bytes = 0;
    /// False (the default): RLIMIT_CORE 0, a crashing engine leaves no core file.
    bool core_dumps = false;
    /// The tarneeb executable whose `engine-guard` runs the engine (engine_guard.hpp). Empty:
    /// /proc/self/exe, right when the host is tarneeb itself; another host (a test, a benchmark)
    /// names the tarneeb executable.
    std::string guard;
};

class EngineProcess {
public:
    using Clock = std::chrono::steady_clock;
    /// Receives each line the engine writes to stderr (without its "\n"; at most 4,096 bytes,
    /// longer lines are cut).
    using LineSink = std::function<void(std::string_view line)>;

    /// Starts `argv` (argv[0] searched in PATH) under its guard; returns once the engine's exec
    /// succeeded or failed (at most 10 s for the guard to say so). nullptr when it cannot be
    /// started (no such program, not executable, no more processes, no guard), with the reason
    /// in `error` ("cannot run 'PROGRAM': REASON").
    static std::unique_ptr<EngineProcess> start(const std::vector<std::string>& argv, const ProcessLimits& limits,
                                                LineSink stderr_sink, std::string& error);
    /// Kills the process at once if stop() was not called.
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    /// The engine's process id (its guard's is not shown: it is an implementation detail).
    pid_t pid() const { return pid_; }

    /// Queues `bytes` for the engine's stdin and writes what the pipe takes now, never waiting
    /// (read_line() writes the rest as the pipe takes it). False when the engine closed its
    /// stdin (it exited) or left more than 1 MiB unread.
    bool send(std::string_view bytes);

    enum class Read : std::uint8_t {
        line,      ///< a line was read
        timeout,   ///< the deadline passed first (what arrived of a line stays buffered)
        closed,    ///< the engine closed its stdout (it exited); `line` holds any unfinished line
        too_long,  ///< more than 64 KiB without a newline; `line` holds its start
    };
    /// The next line of the engine's stdout, without its "\n", waiting at most until
    /// `deadline`. Meanwhile queued bytes are written and stderr is forwarded.
    Read read_line(std::string& line, Clock::time_point deadline);
    /// A complete line already read from stdout (by an earlier read_line), if any; no system
    /// call.
    bool try_line(std::string& line);
    /// Forwards whatever the engine wrote to stderr so far (never waits). read_line() does it
    /// whenever stderr has something; observe() calls it between decisions.
    void pump_stderr();

    /// Ends the engine: writes `farewell` (e.g. "quit\n") if its stdin is open, closes its
    /// stdin, waits up to `grace` for it to exit, then has its guard kill it and everything it
    /// started (waiting up to 1 s for the guard, then SIGKILL to the process group) and reaps
    /// the guard. Idempotent.
    void stop(std::string_view farewell, std::chrono::milliseconds grace);
    /// After stop(): "exit N" or "signal N" (how the engine ended, as its guard relays it), else
    /// "running".
    const std::string& exit_status() const { return exit_status_; }

private:
    EngineProcess() = default;
    /// Writes queued bytes until the pipe is full. False when the engine's stdin is closed.
    bool flush();
    /// Reads stdout into out_buf_ (non-blocking). False at end of file.
    bool fill();
    /// Reads stderr and forwards complete lines.
    void drain_stderr();
    void close_fd(int& fd);

    pid_t pid_ = -1;    ///< the engine
    pid_t guard_ = -1;  ///< its guard, our child
    int life_ = -1;     ///< our end of the guard's lifeline (engine_guard.hpp)
    int in_ = -1, out_ = -1, err_ = -1;
    bool out_eof_ = false;
    bool in_broken_ = false;
    std::string pending_;      ///< queued for stdin
    std::string out_buf_;      ///< stdout read but not yet returned as lines
    std::string err_buf_;      ///< stderr read, not yet a complete line
    LineSink stderr_sink_;
    std::string exit_status_ = "running";
};

}  // namespace tarneeb::bots
