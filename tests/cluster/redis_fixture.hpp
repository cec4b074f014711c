// A throwaway Redis for the cluster tests: Debian's `redis-server` in a child process, on a free
// port of 127.0.0.1, in a fresh mkdtemp directory, without persistence (`--save "" --appendonly
// no`). It can be stopped (SIGKILL: Redis gone at once, as in a crash) and started again on the
// same port (empty: a restart without persistence loses everything). The destructor kills it and
// removes the directory; the child also dies with the test process (PR_SET_PDEATHSIG).
// No redis-server on the machine is a test failure that says so (scripts/setup.sh installs it).
#pragma once

#include <fcntl.h>
#include <hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server::testing {

class RedisServer {
public:
    RedisServer() {
        std::string templ = (std::filesystem::temp_directory_path() / "tarneeb-redis-XXXXXX").string();
        if (::mkdtemp(templ.data()) != nullptr) dir_ = templ;
    }
    ~RedisServer() {
        stop();
        if (!dir_.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(dir_, ec);
        }
    }
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    /// Starts redis-server (on a new free port the first time, on the same port afterwards) and
    /// waits until it answers PING. Returns "" when it is up, else why not (for ASSERT_EQ).
    std::string start() {
        if (dir_.empty()) return "mkdtemp failed";
        const std::string binary = find_binary();
        if (binary.empty())
            return "redis-server not found in PATH: install Debian's redis-server (scripts/setup.sh does)";
        const bool fresh_port = port_ == 0;
        for (int attempt = 0; attempt < (fresh_port ? 5 : 1); ++attempt) {
            if (fresh_port) port_ = free_port();
            if (port_ == 0) return "no free port on 127.0.0.1";
            spawn(binary);
            if (wait_ping()) return "";
            stop();
        }
        return "redis-server did not answer PING on 127.0.0.1:" + std::to_string(port_) + "; its log:\n" + log_tail();
    }

    /// Kills redis-server at once (SIGKILL) and waits for it: every client sees its
    /// connection end, nothing is saved.
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }

    /// SIGSTOP / SIGCONT: Redis stops answering while its sockets stay open (a hung or
    /// partitioned host), then goes on where it was.
    void pause() {
        if (pid_ > 0) ::kill(pid_, SIGSTOP);
    }
    void resume() {
        if (pid_ > 0) ::kill(pid_, SIGCONT);
    }

    /// stop() then start() on the same port: an empty Redis.
    std::string restart() {
        stop();
        return start();
    }

    /// From the next start(): Redis asks for this password (`--requirepass`); options() carries it.
    void require_password(std::string password) { password_ = std::move(password); }

    bool running() const { return pid_ > 0; }
    int port() const { return port_; }

    /// Options for a client of this server: short timeouts and backoff, as tests want.
    RedisOptions options() const {
        RedisOptions o;
        o.host = "127.0.0.1";
        o.port = port_;
        o.connect_timeout = std::chrono::milliseconds(2000);
        o.command_timeout = std::chrono::milliseconds(5000);
        o.backoff_initial = std::chrono::milliseconds(10);
        o.backoff_max = std::chrono::milliseconds(100);
        o.subscriber_ping_interval = std::chrono::milliseconds(1000);
        o.password = password_;
        return o;
    }

private:
    static std::string find_binary() {
        const char* path = std::getenv("PATH");
        std::stringstream dirs(std::string(path != nullptr ? path : "") + ":/usr/bin:/usr/sbin:/usr/local/bin");
        std::string d;
        while (std::getline(dirs, d, ':')) {
            if (d.empty()) continue;
            const std::string candidate = d + "/redis-server";
            if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        }
        return "";
    }

    // A port the kernel had free a moment ago (bind to port 0, read it, close). Another process
    // may take it before redis-server binds: start() then tries another one.
    static int free_port() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) return 0;
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        socklen_t len = sizeof a;
        int port = 0;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
        ::close(fd);
        return port;
    }

    void spawn(const std::string& binary) {
        const std::string port = std::to_string(port_);
        const std::string log = dir_ + "/redis.log";
        std::vector<std::string> args{binary, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                      "--dir", dir_, "--daemonize", "no", "--logfile", log};
        if (!password_.empty()) {
            args.push_back("--requirepass");
            args.push_back(password_);
        }
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        const pid_t parent = ::getpid();
        pid_ = ::fork();
        if (pid_ == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // Redis dies with the test, even on a sanitizer abort
            if (::getppid() != parent) ::_exit(125);
            const int null = ::open("/dev/null", O_RDWR);
            ::dup2(null, 0);
            ::dup2(null, 1);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
    }

    // PING every 20 ms for up to 30 s (a loaded CI machine), or until the child exits.
    bool wait_ping() {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (pid_ <= 0 || ::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return false;
            }
            timeval tv{1, 0};
            redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, tv);
            bool up = false;
            if (c != nullptr && c->err == 0) {
                redisSetTimeout(c, tv);
                if (!password_.empty()) {
                    auto* a = static_cast<redisReply*>(redisCommand(c, "AUTH %s", password_.c_str()));
                    if (a != nullptr) freeReplyObject(a);
                }
                auto* r = static_cast<redisReply*>(redisCommand(c, "PING"));
                up = r != nullptr && r->type == REDIS_REPLY_STATUS && std::string(r->str, r->len) == "PONG";
                if (r != nullptr) freeReplyObject(r);
            }
            if (c != nullptr) redisFree(c);
            if (up) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));  // test-wait: between two PINGs of the poll
        }
        return false;
    }

    std::string log_tail() const {
        std::ifstream in(dir_ + "/redis.log");
        std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return all.size() > 2000 ? all.substr(all.size() - 2000) : all;
    }

    std::string dir_;
    std::string password_;
    int port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace tarneeb::server::testing
