// The engine guard (include/tarneeb/bots/engine_guard.hpp): a subreaper that runs one engine and
// kills everything the engine started when the engine ends or the host lets go.
#include "tarneeb/bots/engine_guard.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tarneeb::bots {

namespace {

/// The guard's children now (zombies included): /proc/self/task/PID/children, or where the
/// kernel lacks that file, every /proc/N/stat whose parent is the guard.
std::vector<pid_t> guard_children() {
    const pid_t self = ::getpid();
    std::vector<pid_t> out;
    std::ifstream list("/proc/self/task/" + std::to_string(self) + "/children");
    if (list) {
        for (pid_t p; list >> p;) out.push_back(p);
        return out;
    }
    DIR* proc = ::opendir("/proc");
    if (!proc) return out;
    while (const dirent* e = ::readdir(proc)) {
        pid_t pid = 0;
        const std::string_view name(e->d_name);
        if (std::from_chars(name.data(), name.data() + name.size(), pid).ec != std::errc() || pid <= 0) continue;
        std::ifstream stat("/proc/" + std::string(name) + "/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = text.rfind(')');  // the command name may hold spaces and parentheses
        if (close == std::string::npos) continue;
        std::istringstream rest(text.substr(close + 1));
        char state = 0;
        pid_t parent = 0;
        if (rest >> state >> parent && parent == self) out.push_back(pid);
    }
    ::closedir(proc);
    return out;
}

/// Kills and reaps every descendant: the children are SIGKILLed and reaped, and again for the
/// children that reparented to the guard meanwhile, until it has none. The engine's status goes
/// to `engine_status` if it is reaped here.
void kill_guarded(pid_t engine, int& engine_status) {
    for (;;) {
        const std::vector<pid_t> kids = guard_children();
        if (kids.empty()) break;
        for (pid_t p : kids) ::kill(p, SIGKILL);
        for (pid_t p : kids) {
            int status = 0;
            pid_t r;
            while ((r = ::waitpid(p, &status, 0)) < 0 && errno == EINTR) {
            }
            if (r == engine) engine_status = status;
        }
    }
    int status = 0;  // any child the listing missed and that has exited already
    for (pid_t r; (r = ::waitpid(-1, &status, WNOHANG)) > 0;)
        if (r == engine) engine_status = status;
}

/// Ends the guard as `status` says the engine ended.
[[noreturn]] void end_guard_as(int status) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);  // the engine's crash, not a core of the guard
        ::signal(sig, SIG_DFL);
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, sig);
        ::sigprocmask(SIG_UNBLOCK, &one, nullptr);
        ::kill(::getpid(), sig);
        ::_exit(128 + sig);  // a signal whose default is not to end a process: 128 + N
    }
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int guard_usage(const char* why) {
    std::fprintf(stderr, "tarneeb engine-guard: %s (an internal command of the engine host)\n", why);
    return 2;
}

bool send_guard_report(const GuardReport& report) {
    ssize_t n;
    while ((n = ::send(kGuardLifelineFd, &report, sizeof report, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    return n == static_cast<ssize_t>(sizeof report);
}

}  // namespace

std::vector<std::string> engine_guard_argv(const std::string& guard, std::uint64_t memory_bytes, bool core_dumps,
                                           const std::vector<std::string>& argv) {
    std::vector<std::string> out{guard, std::string(kEngineGuardCommand)};
    if (memory_bytes > 0) {
        out.emplace_back("--memory");
        out.push_back(std::to_string(memory_bytes));
    }
    if (core_dumps) out.emplace_back("--core-dumps");
    out.emplace_back("--");
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

int engine_guard_main(int argc, char** argv) {
    std::uint64_t memory = 0;
    bool core_dumps = false;
    int i = 2;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        if (std::strcmp(argv[i], "--core-dumps") == 0) {
            core_dumps = true;
        } else if (std::strcmp(argv[i], "--memory") == 0 && i + 1 < argc) {
            const std::string_view v(argv[++i]);
            if (std::from_chars(v.data(), v.data() + v.size(), memory).ec != std::errc()) return guard_usage("--memory expects bytes");
        } else {
            return guard_usage("unknown argument");
        }
    }
    if (i + 1 >= argc) return guard_usage("no engine command after --");
    char** command = argv + i + 1;
    if (::fcntl(kGuardLifelineFd, F_SETFD, FD_CLOEXEC) != 0) return guard_usage("no lifeline on descriptor 3");
    ::unsetenv(kEngineGuardEnv);

    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    sigset_t watched, none;
    sigemptyset(&watched);
    sigemptyset(&none);
    for (int s : {SIGCHLD, SIGTERM, SIGHUP, SIGINT}) sigaddset(&watched, s);
    ::sigprocmask(SIG_BLOCK, &watched, nullptr);
    const int signals = ::signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);
    int exec_result[2];
    if (signals < 0 || ::pipe2(exec_result, O_CLOEXEC) != 0) {
        send_guard_report({errno, 0});
        return 127;
    }
    const pid_t engine = ::fork();
    if (engine == 0) {
        // The engine: as EngineProcess promised it (signals at their defaults, none blocked,
        // only the three pipes, its limits), then its own program.
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (!core_dumps) {
            const rlimit no_core{0, 0};
            ::setrlimit(RLIMIT_CORE, &no_core);
        }
        if (memory > 0) {
            const rlimit mem{memory, memory};
            ::setrlimit(RLIMIT_AS, &mem);
        }
        ::execvp(command[0], command);
        const int e = errno;
        (void)!::write(exec_result[1], &e, sizeof e);
        ::_exit(127);
    }
    ::close(exec_result[1]);
    if (engine < 0) {
        send_guard_report({errno, 0});
        return 127;
    }
    int exec_errno = 0;
    ssize_t n;
    while ((n = ::read(exec_result[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
    }
    ::close(exec_result[0]);
    if (n == static_cast<ssize_t>(sizeof exec_errno)) {
        send_guard_report({exec_errno, 0});
        int status = 0;
        ::waitpid(engine, &status, 0);
        return 127;
    }
    send_guard_report({0, static_cast<std::int32_t>(engine)});
    // Only the engine writes the stdout pipe and reads the stdin pipe: the host sees its stdout
    // close when it exits. The guard keeps stderr for its own few words.
    if (const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC); null >= 0) {
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::close(null);
    }

    int engine_status = 0;
    bool engine_gone = false;
    bool let_go = false;
    while (!engine_gone && !let_go) {
        pollfd fds[2] = {{signals, POLLIN, 0}, {kGuardLifelineFd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            let_go = true;  // cannot wait: end it all rather than leave the engine unguarded
            break;
        }
        if (fds[1].revents) {
            char byte;
            const ssize_t r = ::recv(kGuardLifelineFd, &byte, 1, MSG_DONTWAIT);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) let_go = true;  // the host let go, or died
        }
        signalfd_siginfo info;
        while (::read(signals, &info, sizeof info) == static_cast<ssize_t>(sizeof info))
            if (info.ssi_signo != SIGCHLD) let_go = true;
        int status = 0;
        for (pid_t r; (r = ::waitpid(-1, &status, WNOHANG)) > 0;) {
            if (r != engine) continue;  // an orphan the engine left, reaped
            engine_status = status;
            engine_gone = true;
        }
    }
    if (!engine_gone) ::kill(engine, SIGKILL);
    kill_guarded(engine, engine_status);
    end_guard_as(engine_status);
}

}  // namespace tarneeb::bots
