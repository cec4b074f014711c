// A throwaway PostgreSQL 15 server for one test binary (tests/store/storage_test.cpp): made in
// a mkdtemp directory with `initdb -A trust -U tarneeb`, started with `pg_ctl` on a free
// loopback port (socket in the same directory, fsync off: nothing here must survive a power
// cut), and stopped (`pg_ctl stop -m immediate`) and removed when the binary exits. Each test
// gets a database of its own (fresh_url: CREATE DATABASE t_N). freeze() hangs the whole server
// (SIGSTOP of the postmaster and every backend: sockets stay open, nothing answers), as a frozen
// host would; the Frozen it returns sends SIGCONT when it goes.
//
// The binaries come from /usr/lib/postgresql/15/bin (Debian's postgresql-15, which
// scripts/setup.sh installs; TARNEEB_PG_BINDIR overrides it). When they are missing, pg()
// throws and the tests fail with that message: they are never skipped. initdb and postgres
// refuse to run as root (CI and the build machine run as root): then they run as `nobody`
// (setpriv --reuid=nobody --regid=nogroup --clear-groups), which owns the directory.
#pragma once

#include <arpa/inet.h>
#include <grp.h>
#include <signal.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <pqxx/pqxx>

namespace tarneeb::server::testing {

class PgServer {
public:
    PgServer() {
        const char* env = std::getenv("TARNEEB_PG_BINDIR");
        bindir_ = env && *env ? env : "/usr/lib/postgresql/15/bin";
        for (const char* tool : {"initdb", "pg_ctl", "postgres"})
            if (!std::filesystem::exists(bindir_ + "/" + tool))
                throw std::runtime_error("PostgreSQL 15 is not installed: no " + bindir_ + "/" + tool +
                                         " (scripts/setup.sh installs postgresql-15; TARNEEB_PG_BINDIR names another directory)");
        char tmpl[] = "/tmp/tarneeb-pg-XXXXXX";
        if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
        dir_ = tmpl;
        if (::geteuid() == 0) {
            const passwd* pw = ::getpwnam("nobody");
            const group* gr = ::getgrnam("nogroup");
            if (!pw || !gr) throw std::runtime_error("running as root, and there is no user nobody / group nogroup to run PostgreSQL as");
            if (::chown(dir_.c_str(), pw->pw_uid, gr->gr_gid) != 0) throw std::runtime_error("cannot chown " + dir_);
            as_user_ = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
        }
        try {
            run(bindir_ + "/initdb -D " + dir_ + "/data -A trust -U tarneeb -E UTF8 --locale=C --no-sync", "initdb");
            // A free loopback port: the kernel picks one for a socket that is closed at once
            // (another process could take it before the server does: then another is tried).
            for (int attempt = 0;; ++attempt) {
                port_ = free_port();
                try {
                    start();
                    break;
                } catch (const std::exception&) {
                    if (attempt == 2) throw;
                }
            }
        } catch (...) {
            std::error_code ec;
            std::filesystem::remove_all(dir_, ec);
            throw;
        }
    }
    ~PgServer() {
        thaw();  // a test that failed while the server was frozen: pg_ctl could not stop it
        std::system((as_user_ + bindir_ + "/pg_ctl -D " + dir_ + "/data stop -m immediate >/dev/null 2>&1").c_str());
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    PgServer(const PgServer&) = delete;
    PgServer& operator=(const PgServer&) = delete;

    /// Starts the server (again) on its port and returns once it accepts connections.
    void start() {
        run(bindir_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ + "/server.log -w -t 120 -o \"-p " + std::to_string(port_) +
                " -k " + dir_ + " -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off\" start",
            "pg_ctl start");
        // pg_ctl -w returned once the server accepts; one connection says so for sure.
        pqxx::connection c(url("postgres"));
    }
    /// Stops the server at once (`pg_ctl stop -m fast`: every connection is cut).
    void stop_fast() { run(bindir_ + "/pg_ctl -D " + dir_ + "/data -w -t 120 stop -m fast", "pg_ctl stop"); }

    /// The URL of database `db` on this server.
    std::string url(const std::string& db) const {
        return "postgresql://tarneeb@127.0.0.1:" + std::to_string(port_) + "/" + db;
    }
    /// A new empty database (t_1, t_2, ...) and its URL.
    std::string fresh_url() {
        const std::string name = "t_" + std::to_string(++databases_);
        pqxx::connection c(url("postgres"));
        pqxx::nontransaction n(c);
        n.exec("CREATE DATABASE " + name);
        return url(name);
    }
    int port() const { return port_; }

    /// Sends SIGCONT to the server's processes when it goes (also when a test fails meanwhile).
    class Frozen {
    public:
        explicit Frozen(PgServer& s) : s_(s) {}
        ~Frozen() { s_.thaw(); }
        Frozen(const Frozen&) = delete;
        Frozen& operator=(const Frozen&) = delete;

    private:
        PgServer& s_;
    };
    /// Stops the postmaster and then each of its children (backends, checkpointer, ...) with
    /// SIGSTOP and returns once every one is stopped: connections stay open and the kernel still
    /// accepts new ones, but nothing is answered until the Frozen goes.
    [[nodiscard]] Frozen freeze() {
        const pid_t postmaster = postmaster_pid();
        if (postmaster <= 0) throw std::runtime_error("freeze: no postmaster.pid");
        ::kill(postmaster, SIGSTOP);
        wait_stopped(postmaster);
        // The postmaster forks no more: its children now are all there will be.
        for (const pid_t child : children(postmaster)) {
            ::kill(child, SIGSTOP);
            wait_stopped(child);
        }
        return Frozen(*this);
    }
    /// SIGCONT to the postmaster's children and then to the postmaster (none when not running).
    void thaw() {
        const pid_t postmaster = postmaster_pid();
        if (postmaster <= 0) return;
        for (const pid_t child : children(postmaster)) ::kill(child, SIGCONT);
        ::kill(postmaster, SIGCONT);
    }

private:
    /// The postmaster's pid (the first line of data/postmaster.pid), 0 when the server is not running.
    pid_t postmaster_pid() const {
        std::ifstream f(dir_ + "/data/postmaster.pid");
        long pid = 0;
        if (!(f >> pid)) return 0;
        return static_cast<pid_t>(pid);
    }
    /// The state letter and parent of process `pid` (/proc/PID/stat), {'?', 0} when it is gone.
    static std::pair<char, pid_t> proc_stat(pid_t pid) {
        std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(f, line)) return {'?', 0};
        const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
        if (close == std::string::npos) return {'?', 0};
        std::istringstream rest(line.substr(close + 1));
        char state = '?';
        long ppid = 0;
        rest >> state >> ppid;
        return {state, static_cast<pid_t>(ppid)};
    }
    static std::vector<pid_t> children(pid_t parent) {
        std::vector<pid_t> out;
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            const std::string name = e.path().filename().string();
            if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
            const auto pid = static_cast<pid_t>(std::stol(name));
            if (proc_stat(pid).second == parent) out.push_back(pid);
        }
        return out;
    }
    /// Returns once `pid` is stopped ('T') or gone: a stop signal takes effect asynchronously.
    static void wait_stopped(pid_t pid) {
        for (;;) {
            const char state = proc_stat(pid).first;
            if (state == 'T' || state == 't' || state == '?' || state == 'Z' || state == 'X') return;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));  // test-wait: between two reads of /proc
        }
    }

    /// Runs `command` in the directory (as nobody when root); throws with its output on failure.
    void run(const std::string& command, const char* what) {
        const std::string out = dir_ + "/command.out";
        const std::string line = "cd " + dir_ + " && " + as_user_ + command + " >" + out + " 2>&1";
        if (std::system(line.c_str()) != 0) {
            std::ifstream in(out);
            std::stringstream text;
            text << in.rdbuf();
            std::ifstream log(dir_ + "/server.log");
            std::stringstream server;
            server << log.rdbuf();
            throw std::runtime_error(std::string(what) + " failed: " + line + "\n" + text.str() + "\nserver.log:\n" + server.str());
        }
    }
    static int free_port() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        socklen_t len = sizeof a;
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
            if (fd >= 0) ::close(fd);
            throw std::runtime_error("no free loopback port");
        }
        ::close(fd);
        return ntohs(a.sin_port);
    }

    std::string bindir_, dir_, as_user_;
    int port_ = 0;
    int databases_ = 0;
};

/// The test binary's one server, started at its first use and stopped when the binary exits.
inline PgServer& pg() {
    static PgServer server;
    return server;
}

}  // namespace tarneeb::server::testing
