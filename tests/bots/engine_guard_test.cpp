// The engine guard (issue 27; include/tarneeb/bots/engine_guard.hpp): what an engine starts,
// even in a session of its own (setsid), ends with the engine — when the host stops it, and when
// the host is killed with SIGKILL.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tarneeb/bots/engine_process.hpp"

extern char** environ;

namespace {

using namespace std::chrono_literals;
using tarneeb::bots::EngineProcess;
namespace fs = std::filesystem;

/// A shell command that starts `sleep 1000` in a new session (`setsid -f`: a fork, so that the
/// command substitution does not wait for the sleep) and sets $pid to its pid once it runs in
/// that session (the substitution reads the line it writes after setsid).
const std::string kStartGrandchild = "pid=$(setsid -f sh -c 'echo $$; exec sleep 1000 </dev/null >/dev/null 2>&1')";

/// A pidfd of `pid` (Linux 5.3): readable once the process has exited, whoever its parent.
int pidfd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

/// True when the process behind `fd` exits within `bound` (an event, not a pause).
bool exits_within(int fd, std::chrono::milliseconds bound) {
    pollfd p{fd, POLLIN, 0};
    int r;
    while ((r = ::poll(&p, 1, static_cast<int>(bound.count()))) < 0 && errno == EINTR) {
    }
    return r > 0;
}

/// Ends a grandchild a failed test left behind.
void reap_leftover(pid_t pid, int fd) {
    if (!exits_within(fd, 0ms)) ::kill(pid, SIGKILL);
    ::close(fd);
}

tarneeb::bots::ProcessLimits guarded() {
    tarneeb::bots::ProcessLimits l;
    l.guard = TARNEEB_BINARY;  // this test program is not tarneeb
    return l;
}

/// The pid an engine's first "pid N" line names, read within 30 s; -1 when none came.
pid_t read_pid(EngineProcess& p) {
    std::string line;
    if (p.read_line(line, EngineProcess::Clock::now() + 30s) != EngineProcess::Read::line) return -1;
    if (line.rfind("pid ", 0) != 0) return -1;
    return static_cast<pid_t>(std::stol(line.substr(4)));
}

TEST(EngineGuard, WhatAnEngineStartedInANewSessionEndsWhenTheEngineIsStopped) {
    // Two engines: one that exits when its stdin closes (`cat`: the guard sees it exit), one
    // that must be killed (`sleep`: the host lets go of the guard).
    struct Case {
        std::string engine;
        std::chrono::milliseconds grace;
        std::string status;  ///< "" when it may be either
    };
    for (const Case& c : {Case{"exec cat >/dev/null", 30000ms, ""}, Case{"exec sleep 1000", 0ms, "signal 9"}}) {
        SCOPED_TRACE(c.engine);
        std::string error;
        auto p = EngineProcess::start({"/bin/sh", "-c", kStartGrandchild + "; echo \"pid $pid\"; " + c.engine}, guarded(),
                                      nullptr, error);
        ASSERT_TRUE(p) << error;
        const pid_t grandchild = read_pid(*p);
        ASSERT_GT(grandchild, 0);
        const int fd = pidfd(grandchild);
        ASSERT_NE(fd, -1) << "the grandchild is gone before the test looked";
        EXPECT_EQ(::getsid(grandchild), grandchild);  // out of the engine's session and group
        EXPECT_NE(::getpgid(grandchild), ::getpgid(p->pid()));
        p->stop("quit\n", c.grace);
        if (!c.status.empty()) {
            EXPECT_EQ(p->exit_status(), c.status);
        }
        EXPECT_TRUE(exits_within(fd, 20000ms)) << "the engine's grandchild outlived the engine";
        reap_leftover(grandchild, fd);
    }
}

TEST(EngineGuard, WhatAnEngineStartedEndsWhenItsHostIsKilled) {
    // The host: `tarneeb simulate` with an engine that starts a grandchild in a new session and
    // writes its pid into a FIFO this test reads, then plays (`tarneeb engine --bot random`).
    const fs::path dir = fs::temp_directory_path() / ("tarneeb-guard-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string fifo = (dir / "pids").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int pids = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader before any writer
    ASSERT_NE(pids, -1);
    const std::string engine = "engine:sh:" + kStartGrandchild + "; echo $pid > " + fifo + "; exec " TARNEEB_BINARY
                               " engine --bot random";
    std::vector<std::string> words{TARNEEB_BINARY, "simulate", "--team0", engine, "--team1", "random",
                                   "--matches", "100000", "--engine-startup-ms", "60000"};
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t host = -1;
    ASSERT_EQ(::posix_spawn(&host, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);

    // The first grandchild's pid (an event: the FIFO becomes readable).
    pollfd readable{pids, POLLIN, 0};
    ASSERT_EQ(::poll(&readable, 1, 60000), 1) << "no engine started";
    char buf[256];
    const ssize_t n = ::read(pids, buf, sizeof buf - 1);
    ASSERT_GT(n, 0);
    std::istringstream lines(std::string(buf, static_cast<std::size_t>(n)));
    std::vector<std::pair<pid_t, int>> grandchildren;
    for (pid_t pid; lines >> pid;) {
        const int fd = pidfd(pid);
        ASSERT_NE(fd, -1);
        EXPECT_EQ(::getsid(pid), pid);  // a session of its own: the engine's group is not its
        grandchildren.emplace_back(pid, fd);
    }
    ASSERT_FALSE(grandchildren.empty());

    ASSERT_EQ(::kill(host, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(host, &status, 0), host);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    for (const auto& [pid, fd] : grandchildren) {
        EXPECT_TRUE(exits_within(fd, 20000ms)) << "grandchild " << pid << " outlived its SIGKILLed host";
        reap_leftover(pid, fd);
    }
    ::close(pids);
    fs::remove_all(dir);
}

}  // namespace
