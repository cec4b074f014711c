// hiredis behind our types, shared by RedisClient (cluster_redis.cpp) and Subscriber
// (cluster_pubsub.cpp): the only two files that include hiredis. Internal to the server library.
#pragma once

#include <hiredis.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server::redis_detail {

struct ReplyFree {
    void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyFree>;

struct ContextFree {
    void operator()(redisContext* c) const { redisFree(c); }
};
using ContextPtr = std::unique_ptr<redisContext, ContextFree>;

timeval to_timeval(std::chrono::milliseconds ms);

/// While alive, a write by this thread to a socket Redis closed fails with EPIPE instead of
/// raising SIGPIPE (hiredis writes with write(2)): SIGPIPE is blocked for the thread and one it
/// raised is taken back before the mask is restored. The process's disposition of SIGPIPE is
/// left alone (the library changes no process-wide state), as in engine_process.cpp.
class QuietSigpipe {
public:
    QuietSigpipe() {
        sigemptyset(&pipe_);
        sigaddset(&pipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
    }
    ~QuietSigpipe() {
        if (!sigismember(&old_, SIGPIPE)) {
            sigset_t pending;
            sigpending(&pending);
            if (sigismember(&pending, SIGPIPE)) {
                const timespec zero{0, 0};
                sigtimedwait(&pipe_, nullptr, &zero);
            }
        }
        pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    }
    QuietSigpipe(const QuietSigpipe&) = delete;
    QuietSigpipe& operator=(const QuietSigpipe&) = delete;

private:
    sigset_t pipe_, old_;
};

/// Opens a connection: TCP connect within connect_timeout, keepalive, command_timeout on the
/// socket, AUTH and SELECT as the options say (SELECT skipped when `select_db` is false).
/// Throws ClusterError redis_unavailable or redis_auth.
ContextPtr open(const RedisOptions& options, bool select_db);

/// Sends one command (argv form, binary-safe) and reads its reply. Throws redis_unavailable
/// when the connection fails (the context is then unusable: the caller drops it).
ReplyPtr run(redisContext* ctx, const std::vector<std::string>& args);

/// Our value of a reply; an error reply throws redis_error (LOADING: redis_unavailable).
RedisReply convert(const redisReply* r);

/// The context's error as a message ("redis 127.0.0.1:6379: Connection refused").
std::string describe(const redisContext* ctx, const RedisOptions& options);

}  // namespace tarneeb::server::redis_detail
