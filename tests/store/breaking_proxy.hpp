// A TCP proxy on a free loopback port in front of a server (tests/store/storage_test.cpp: the
// test's PostgreSQL), on a thread of its own, that breaks the connections open at the moment
// the test says, in a way the client's socket does not show until the client writes again (a
// connection cut by a middlebox, a restart whose FIN was lost), which a check of an idle socket
// cannot see:
//   - Cut::before_server: the server's side is closed at once; the client's next bytes are
//     dropped and its side closed (nothing it sends reaches the server);
//   - Cut::after_server: the client's next bytes are delivered to the server, then the client's
//     side is closed; the server's answer is read and dropped (the statement ran; the client
//     never learns it).
// Connections opened after a cut are forwarded normally. answered() waits until the server
// answered everything delivered after a cut (a ReadyForQuery message came back), so that a test
// reads the database only once the dropped statement is over.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tarneeb::server::testing {

class BreakingProxy {
public:
    enum class Cut { before_server, after_server };

    explicit BreakingProxy(int upstream_port) : upstream_port_(upstream_port) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a = loopback(0);
        socklen_t len = sizeof a;
        if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 16) != 0 ||
            ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0 || ::pipe(wake_) != 0)
            throw std::runtime_error("BreakingProxy: cannot listen");
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { run(); });
    }
    ~BreakingProxy() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        poke();
        thread_.join();
        for (Pair& p : pairs_) {
            if (p.client >= 0) ::close(p.client);
            if (p.server >= 0) ::close(p.server);
        }
        ::close(listener_);
        ::close(wake_[0]);
        ::close(wake_[1]);
    }
    BreakingProxy(const BreakingProxy&) = delete;
    BreakingProxy& operator=(const BreakingProxy&) = delete;

    int port() const { return port_; }

    /// Breaks every connection open now, as `how` says; returns once the proxy's thread did.
    void cut(Cut how) {
        std::unique_lock lock(mutex_);
        cut_ = how;
        cut_pending_ = true;
        poke();
        changed_.wait(lock, [&] { return !cut_pending_; });
    }
    /// Waits (at most `limit`, a liveness bound) until every statement delivered after a cut
    /// was answered by the server. False when the limit passed first.
    bool answered(std::chrono::seconds limit) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return delivered_ > 0 && unanswered_ == 0; });
    }

private:
    struct Pair {
        int client = -1, server = -1;
        bool broken = false;      // cut: the client's next bytes end it
        Cut how = Cut::before_server;
        bool awaiting = false;    // after_server: delivered, its ReadyForQuery not seen yet
        std::string tail;         // the last bytes from the server, to find 'Z' across reads
    };

    static sockaddr_in loopback(int port) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<unsigned short>(port));
        return a;
    }
    void poke() {
        const char c = 0;
        (void)!::write(wake_[1], &c, 1);
    }
    static bool send_all(int fd, const char* data, ssize_t n) {
        while (n > 0) {
            const ssize_t w = ::send(fd, data, static_cast<std::size_t>(n), MSG_NOSIGNAL);
            if (w <= 0) return false;
            data += w;
            n -= w;
        }
        return true;
    }

    void run() {
        char buf[65536];
        for (;;) {
            std::vector<pollfd> fds{{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
            for (const Pair& p : pairs_) {
                fds.push_back({p.client, static_cast<short>(p.client >= 0 ? POLLIN : 0), 0});
                fds.push_back({p.server, static_cast<short>(p.server >= 0 ? POLLIN : 0), 0});
            }
            if (::poll(fds.data(), fds.size(), -1) < 0) continue;
            if (fds[1].revents & POLLIN) {
                (void)!::read(wake_[0], buf, sizeof buf);
                std::lock_guard lock(mutex_);
                if (stopping_) return;
                if (cut_pending_) {
                    for (Pair& p : pairs_) {
                        if (p.client < 0 || p.broken) continue;
                        p.broken = true;
                        p.how = cut_;
                        if (p.how == Cut::before_server && p.server >= 0) {
                            ::close(p.server);
                            p.server = -1;
                        }
                    }
                    cut_pending_ = false;
                    changed_.notify_all();
                }
            }
            for (std::size_t i = 0; i < pairs_.size(); ++i) {
                Pair& p = pairs_[i];
                const pollfd& c = fds[2 + 2 * i];
                const pollfd& s = fds[3 + 2 * i];
                if (p.client >= 0 && (c.revents & (POLLIN | POLLHUP | POLLERR))) {
                    const ssize_t n = ::recv(p.client, buf, sizeof buf, 0);
                    if (p.broken) {
                        if (n > 0 && p.how == Cut::after_server && p.server >= 0 && send_all(p.server, buf, n)) {
                            std::lock_guard lock(mutex_);
                            ++delivered_;
                            ++unanswered_;
                            p.awaiting = true;
                        }
                        ::close(p.client);  // the client reads the end of the stream
                        p.client = -1;
                    } else if (n <= 0 || p.server < 0 || !send_all(p.server, buf, n)) {
                        ::close(p.client);
                        p.client = -1;
                    }
                }
                if (p.server >= 0 && (s.revents & (POLLIN | POLLHUP | POLLERR))) {
                    const ssize_t n = ::recv(p.server, buf, sizeof buf, 0);
                    if (n > 0 && p.awaiting) {
                        // ReadyForQuery: 'Z', length 5, status. The statement is over.
                        p.tail = (p.tail + std::string(buf, static_cast<std::size_t>(n)));
                        if (p.tail.size() > 64) p.tail.erase(0, p.tail.size() - 64);
                        if (p.tail.find(std::string("Z\0\0\0\x05", 5)) != std::string::npos) {
                            std::lock_guard lock(mutex_);
                            p.awaiting = false;
                            --unanswered_;
                            changed_.notify_all();
                        }
                    }
                    if (n <= 0) {
                        ::close(p.server);
                        p.server = -1;
                        if (p.awaiting) {  // the server ended it: answered as much as it ever will
                            std::lock_guard lock(mutex_);
                            p.awaiting = false;
                            --unanswered_;
                            changed_.notify_all();
                        }
                    } else if (p.client >= 0 && !p.broken && !send_all(p.client, buf, n)) {
                        ::close(p.client);
                        p.client = -1;
                    }
                }
            }
            if (fds[0].revents & POLLIN) {
                const int client = ::accept(listener_, nullptr, nullptr);
                const int server = ::socket(AF_INET, SOCK_STREAM, 0);
                const sockaddr_in to = loopback(upstream_port_);
                if (client >= 0 && server >= 0 && ::connect(server, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) {
                    Pair p;
                    p.client = client;
                    p.server = server;
                    pairs_.push_back(p);
                } else {
                    if (client >= 0) ::close(client);
                    if (server >= 0) ::close(server);
                }
            }
        }
    }

    int upstream_port_;
    int port_ = 0;
    int listener_ = -1;
    int wake_[2] = {-1, -1};
    std::thread thread_;
    std::vector<Pair> pairs_;  // the proxy's thread only
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false, cut_pending_ = false;  // under mutex_
    Cut cut_ = Cut::before_server;                 // under mutex_
    int delivered_ = 0, unanswered_ = 0;           // under mutex_
};

}  // namespace tarneeb::server::testing
