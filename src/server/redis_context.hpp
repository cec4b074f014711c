// hiredis behind our types, shared by RedisClient (cluster_redis.cpp) and Subscriber
// (cluster_pubsub.cpp): the only two files that include hiredis. Internal to the server library.
#pragma once

#include <hiredis.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tarneeb/server/cluster.hpp"

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
