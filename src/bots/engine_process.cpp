// An engine's process on three pipes (include/tarneeb/bots/engine_process.hpp).
#include "tarneeb/bots/engine_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

extern char** environ;

namespace tarneeb::bots {

namespace {

constexpr std::size_t kMaxLine = 64 * 1024;       ///< a stdout line longer than this is too_long
constexpr std::size_t kMaxStderrLine = 4096;      ///< stderr lines are cut here
constexpr std::size_t kMaxPending = 1024 * 1024;  ///< unread stdin bytes before send() fails

/// write(2) without SIGPIPE: a write to a pipe whose reader has gone fails with EPIPE and the
/// signal it raised for this thread is taken back (the host's disposition of SIGPIPE is left
/// as it is, so the library changes no process-wide state).
ssize_t write_quietly(int fd, const char* data, std::size_t size) {
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    ssize_t n;
    do {
        n = ::write(fd, data, size);
    } while (n < 0 && errno == EINTR);
    const int saved = errno;
    if (n < 0 && saved == EPIPE && !sigismember(&old, SIGPIPE)) {
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            const timespec zero{0, 0};
            sigtimedwait(&pipe_only, nullptr, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = saved;
    return n;
}

bool set_nonblocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

std::string describe(int status) {
    if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
    return "unknown";
}

}  // namespace

std::unique_ptr<EngineProcess> EngineProcess::start(const std::vector<std::string>& argv, const ProcessLimits& limits,
                                                    LineSink stderr_sink, std::string& error) {
    if (argv.empty() || argv[0].empty()) {
        error = "empty command";
        return nullptr;
    }
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        return nullptr;
    }
    if (::pipe2(out, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        ::close(in[0]);
        ::close(in[1]);
        return nullptr;
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
        return nullptr;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // no other descriptor of the host leaks
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);  // its own group: killed with everything it starts
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        error = "cannot run '" + argv[0] + "': " + std::strerror(rc);
        for (int fd : {in[1], out[0], err[0]}) ::close(fd);
        return nullptr;
    }
    std::unique_ptr<EngineProcess> p(new EngineProcess());
    p->pid_ = pid;
    p->in_ = in[1];
    p->out_ = out[0];
    p->err_ = err[0];
    p->stderr_sink_ = std::move(stderr_sink);
    set_nonblocking(p->in_);
    set_nonblocking(p->out_);
    set_nonblocking(p->err_);
    // Right after the start (posix_spawn cannot set limits): no core files, the memory cap.
    if (!limits.core_dumps) {
        const rlimit none_core{0, 0};
        ::prlimit(pid, RLIMIT_CORE, &none_core, nullptr);
    }
    if (limits.memory_bytes > 0) {
        const rlimit mem{limits.memory_bytes, limits.memory_bytes};
        ::prlimit(pid, RLIMIT_AS, &mem, nullptr);
    }
    return p;
}

EngineProcess::~EngineProcess() { stop({}, std::chrono::milliseconds(0)); }

void EngineProcess::close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

bool EngineProcess::flush() {
    while (!pending_.empty() && in_ >= 0) {
        const ssize_t n = write_quietly(in_, pending_.data(), pending_.size());
        if (n > 0) {
            pending_.erase(0, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        in_broken_ = true;  // EPIPE: the engine closed its stdin (exited)
        pending_.clear();
        close_fd(in_);
        return false;
    }
    return !in_broken_;
}

bool EngineProcess::send(std::string_view bytes) {
    if (in_broken_ || in_ < 0) return false;
    pending_.append(bytes);
    if (!flush()) return false;
    return pending_.size() <= kMaxPending;
}

bool EngineProcess::fill() {
    // One read: read_line() polls again if no complete line came (a syscall saved per answer).
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(out_, buf, sizeof buf);
        if (n > 0) {
            out_buf_.append(buf, static_cast<std::size_t>(n));
            return true;
        }
        if (n == 0) {
            out_eof_ = true;
            return false;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) out_eof_ = true;
        return !out_eof_;
    }
}

void EngineProcess::drain_stderr() {
    if (err_ < 0) return;
    char buf[16384];
    for (;;) {
        const ssize_t n = ::read(err_, buf, sizeof buf);
        if (n > 0) {
            err_buf_.append(buf, static_cast<std::size_t>(n));
            std::size_t nl;
            while ((nl = err_buf_.find('\n')) != std::string::npos) {
                if (stderr_sink_) stderr_sink_(std::string_view(err_buf_).substr(0, std::min(nl, kMaxStderrLine)));
                err_buf_.erase(0, nl + 1);
            }
            if (err_buf_.size() > kMaxStderrLine) {
                if (stderr_sink_) stderr_sink_(std::string_view(err_buf_).substr(0, kMaxStderrLine));
                err_buf_.clear();
            }
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            if (!err_buf_.empty() && stderr_sink_) stderr_sink_(err_buf_);
            err_buf_.clear();
            close_fd(err_);
        }
        return;
    }
}

void EngineProcess::pump_stderr() { drain_stderr(); }

bool EngineProcess::try_line(std::string& line) {
    const std::size_t nl = out_buf_.find('\n');
    if (nl == std::string::npos) return false;
    line.assign(out_buf_, 0, nl);
    out_buf_.erase(0, nl + 1);
    return true;
}

EngineProcess::Read EngineProcess::read_line(std::string& line, Clock::time_point deadline) {
    for (;;) {
        const std::size_t nl = out_buf_.find('\n');
        if (nl != std::string::npos) {
            line.assign(out_buf_, 0, nl);
            out_buf_.erase(0, nl + 1);
            return Read::line;
        }
        if (out_buf_.size() > kMaxLine) {
            line.assign(out_buf_, 0, 200);
            return Read::too_long;
        }
        if (out_eof_ || out_ < 0) {
            line = std::exchange(out_buf_, {});
            return Read::closed;
        }
        const auto now = Clock::now();
        if (now >= deadline) return Read::timeout;
        pollfd fds[3];
        nfds_t n = 0;
        fds[n++] = {out_, POLLIN, 0};
        const int err_at = err_ >= 0 ? static_cast<int>(n) : -1;
        if (err_ >= 0) fds[n++] = {err_, POLLIN, 0};
        const int in_at = in_ >= 0 && !pending_.empty() ? static_cast<int>(n) : -1;
        if (in_at >= 0) fds[n++] = {in_, POLLOUT, 0};
        const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now);
        const timespec ts{static_cast<time_t>(wait.count() / 1'000'000'000), static_cast<long>(wait.count() % 1'000'000'000)};
        const int r = ::ppoll(fds, n, &ts, nullptr);
        if (r < 0 && errno != EINTR) return Read::closed;
        if (r <= 0) continue;
        if (err_at >= 0 && fds[err_at].revents) drain_stderr();
        if (in_at >= 0 && fds[in_at].revents) flush();
        if (fds[0].revents) fill();
    }
}

void EngineProcess::stop(std::string_view farewell, std::chrono::milliseconds grace) {
    if (pid_ <= 0) return;
    if (in_ >= 0 && !in_broken_ && !farewell.empty()) send(farewell);
    close_fd(in_);
    // Wait for the engine to close its stdout (it exits), at most `grace`.
    const auto deadline = Clock::now() + grace;
    while (grace.count() > 0 && out_ >= 0 && !out_eof_) {
        std::string ignored;
        const Read r = read_line(ignored, deadline);
        if (r == Read::timeout || r == Read::closed) break;
        if (r == Read::too_long) out_buf_.clear();
    }
    // An engine that closed its stdout is usually exiting: give it the rest of the grace to
    // finish, so that its own exit status is reported rather than our kill. It stays a zombie
    // until reaped below (WNOWAIT), so its process group cannot be another's when killed.
    const auto exited = [this] {
        siginfo_t info{};
        return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
    };
    bool gone = exited();
    while (!gone && out_eof_ && Clock::now() < deadline) {
        ::usleep(1000);
        gone = exited();
    }
    ::kill(-pid_, SIGKILL);  // the whole group: anything the engine started too
    if (!gone) ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_status_ = describe(status);
    drain_stderr();
    pid_ = -1;
    close_fd(out_);
    close_fd(err_);
}

}  // namespace tarneeb::bots
