// EngineProcess: one outside program on three pipes (its stdin, stdout and stderr), for an
// engine of the engine protocol (docs/engine-protocol.md "Processes and limits"). POSIX only.
//
// - Started with posix_spawnp from an argv (no shell: argv[0] is searched in PATH), in its own
//   process group, with every signal at its default and none blocked, every descriptor but the
//   three pipes closed, no core dumps and optionally an address-space limit (RLIMIT_AS).
// - The host never blocks without a deadline: writes are queued and written as the pipe takes
//   them (a write to an engine that has exited fails instead of raising SIGPIPE); reads wait at
//   most until a deadline; stderr is read whenever the host waits or writes and forwarded line
//   by line to a sink (the log).
// - Killed (SIGKILL to its process group, then reaped) by stop() or when destroyed.
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

/// Limits set on an engine's process right after it starts (prlimit(2)).
struct ProcessLimits {
    /// RLIMIT_AS in bytes (the address space the engine may map); 0 keeps the host's. An
    /// engine built with AddressSanitizer needs terabytes of address space: leave it 0 then.
    std::uint64_t memory_bytes = 0;
    /// False (the default): RLIMIT_CORE 0, a crashing engine leaves no core file.
    bool core_dumps = false;
};

class EngineProcess {
public:
    using Clock = std::chrono::steady_clock;
    /// Receives each line the engine writes to stderr (without its "\n"; at most 4,096 bytes,
    /// longer lines are cut).
    using LineSink = std::function<void(std::string_view line)>;

    /// Starts `argv` (argv[0] searched in PATH). nullptr when it cannot be started (no such
    /// program, not executable, no more processes), with the reason in `error`.
    static std::unique_ptr<EngineProcess> start(const std::vector<std::string>& argv, const ProcessLimits& limits,
                                                LineSink stderr_sink, std::string& error);
    /// Kills the process at once if stop() was not called.
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

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
    /// stdin, waits up to `grace` for it to exit, then kills its process group (SIGKILL) and
    /// reaps it. Idempotent.
    void stop(std::string_view farewell, std::chrono::milliseconds grace);
    /// After stop(): "exit N" or "signal N" (how the engine ended), else "running".
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

    pid_t pid_ = -1;
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
