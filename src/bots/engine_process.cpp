// An engine's process on three pipes (include/tarneeb/bots/engine_process.hpp).
#include "tarneeb/bots/engine_process.hpp"

#include "tarneeb/bots/engine_guard.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
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
    if (std::getenv(kEngineGuardEnv)) {  // a program started as a guard that is not one
        error = "cannot run '" + argv[0] + "': this process was started as an engine guard";
        return nullptr;
    }
    // Three pipes for the engine, the lifeline for its guard; the guard's end is moved off
    // descriptor 3, which a dup2 onto itself would leave close-on-exec.
    int fds[8];
    int made = 0;
    const auto undo = [&] {
        for (int i = 0; i < made; ++i) ::close(fds[i]);
    };
    for (; made < 6; made += 2)
        if (::pipe2(fds + made, O_CLOEXEC) != 0) {
            error = std::strerror(errno);
            undo();
            return nullptr;
        }
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds + 6) != 0) {
        error = std::strerror(errno);
        undo();
        return nullptr;
    }
    made = 8;
    if (fds[7] == kGuardLifelineFd) {
        const int moved = ::fcntl(fds[7], F_DUPFD_CLOEXEC, kGuardLifelineFd + 1);
        ::close(fds[7]);
        fds[7] = moved;
    }
    const int in[2] = {fds[0], fds[1]}, out[2] = {fds[2], fds[3]}, err[2] = {fds[4], fds[5]}, life[2] = {fds[6], fds[7]};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_adddup2(&actions, life[1], kGuardLifelineFd);
    posix_spawn_file_actions_addclosefrom_np(&actions, kGuardLifelineFd + 1);  // no other descriptor of the host leaks
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);  // its own group, which the engine shares: the last resort's target
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    const std::string guard = limits.guard.empty() ? "/proc/self/exe" : limits.guard;
    const std::vector<std::string> words = engine_guard_argv(guard, limits.memory_bytes, limits.core_dumps, argv);
    std::vector<char*> args;
    for (const std::string& a : words) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::string marker = std::string(kEngineGuardEnv) + "=1";
    std::vector<char*> env;
    for (char** e = environ; *e; ++e) env.push_back(*e);
    env.push_back(marker.data());
    env.push_back(nullptr);
    pid_t guard_pid = -1;
    const int rc = ::posix_spawn(&guard_pid, guard.c_str(), &actions, &attr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    for (int fd : {in[0], out[1], err[1], life[1]}) ::close(fd);
    const auto give_up = [&](std::string why) {
        error = std::move(why);
        for (int fd : {in[1], out[0], err[0], life[0]}) ::close(fd);
        return nullptr;
    };
    if (rc != 0) return give_up("cannot run the engine guard '" + guard + "': " + std::strerror(rc));
    // The guard says whether the engine's exec succeeded (GuardReport).
    GuardReport report;
    pollfd wait_report{life[0], POLLIN, 0};
    int ready;
    while ((ready = ::poll(&wait_report, 1, 10'000)) < 0 && errno == EINTR) {
    }
    const ssize_t got = ready > 0 ? ::recv(life[0], &report, sizeof report, MSG_WAITALL) : -1;
    int status = 0;
    if (got != static_cast<ssize_t>(sizeof report)) {
        ::kill(-guard_pid, SIGKILL);
        ::kill(guard_pid, SIGKILL);
        ::waitpid(guard_pid, &status, 0);
        return give_up("cannot run '" + argv[0] + "': its guard '" + guard + "' did not start it (" + describe(status) + ")");
    }
    if (report.error != 0) {
        ::waitpid(guard_pid, &status, 0);  // it exits at once
        return give_up("cannot run '" + argv[0] + "': " + std::strerror(report.error));
    }
    std::unique_ptr<EngineProcess> p(new EngineProcess());
    p->pid_ = report.pid;
    p->guard_ = guard_pid;
    p->life_ = life[0];
    p->in_ = in[1];
    p->out_ = out[0];
    p->err_ = err[0];
    p->stderr_sink_ = std::move(stderr_sink);
    set_nonblocking(p->in_);
    set_nonblocking(p->out_);
    set_nonblocking(p->err_);
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
    // finish, so that its own exit status is reported rather than our kill. Its guard follows it
    // at once, and stays a zombie until reaped below (WNOWAIT), so its process group cannot be
    // another's when killed.
    const auto exited = [this] {
        siginfo_t info{};
        return ::waitid(P_PID, static_cast<id_t>(guard_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == guard_;
    };
    bool gone = exited();
    while (!gone && out_eof_ && Clock::now() < deadline) {
        ::usleep(1000);
        gone = exited();
    }
    if (!gone) {
        // The guard's turn: end of file on its lifeline, and it kills the engine and everything
        // the engine started, then exits, closing its end (which this waits for, 1 s at most).
        ::shutdown(life_, SHUT_WR);
        const auto limit = Clock::now() + std::chrono::seconds(1);
        for (auto now = Clock::now(); !gone && now < limit; now = Clock::now()) {
            pollfd fd{life_, POLLIN, 0};
            const auto ms = std::chrono::ceil<std::chrono::milliseconds>(limit - now).count();
            if (::poll(&fd, 1, static_cast<int>(ms)) > 0) {
                char byte;
                const ssize_t r = ::recv(life_, &byte, 1, MSG_DONTWAIT);
                gone = r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR);
            }
        }
    }
    ::kill(-guard_, SIGKILL);  // the last resort: its group, the engine's too unless it moved
    int status = 0;
    while (::waitpid(guard_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_status_ = describe(status);
    drain_stderr();
    pid_ = -1;
    guard_ = -1;
    close_fd(life_);
    close_fd(out_);
    close_fd(err_);
}

}  // namespace tarneeb::bots
