// RedisClient: one hiredis connection with lazy connects and capped exponential backoff, and
// the redis:// URL (include/tarneeb/cluster/cluster.hpp).
#include <hiredis.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "redis_context.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {

namespace redis_detail {

timeval to_timeval(std::chrono::milliseconds ms) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return tv;
}

std::string describe(const redisContext* ctx, const RedisOptions& options) {
    std::string where = "redis " + options.host + ":" + std::to_string(options.port) + ": ";
    if (ctx == nullptr) return where + "cannot allocate a connection";
    return where + (ctx->errstr[0] != '\0' ? std::string(ctx->errstr) : std::string("connection failed"));
}

RedisReply convert(const redisReply* r) {
    RedisReply out;
    switch (r->type) {
    case REDIS_REPLY_NIL:
        out.kind = RedisReply::Kind::nil;
        break;
    case REDIS_REPLY_INTEGER:
        out.kind = RedisReply::Kind::integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
        out.kind = r->type == REDIS_REPLY_STRING ? RedisReply::Kind::string : RedisReply::Kind::status;
        out.str.assign(r->str, r->len);
        break;
    case REDIS_REPLY_ARRAY:
        out.kind = RedisReply::Kind::array;
        out.elements.reserve(r->elements);
        for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
        break;
    case REDIS_REPLY_ERROR: {
        std::string text(r->str, r->len);
        // LOADING: a restarted Redis still reading its data set; try again like a lost connection.
        if (text.rfind("LOADING", 0) == 0) throw ClusterError("redis_unavailable", "redis: " + text);
        // NOAUTH / WRONGPASS: this client's password is missing or wrong (Redis changed it, say).
        if (text.rfind("NOAUTH", 0) == 0 || text.rfind("WRONGPASS", 0) == 0)
            throw ClusterError("redis_auth", "redis: " + text);
        throw ClusterError("redis_error", "redis: " + text);
    }
    default:
        throw ClusterError("redis_reply", "redis: unexpected reply type " + std::to_string(r->type));
    }
    return out;
}

ReplyPtr run(redisContext* ctx, const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    argv.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
        argv.push_back(a.data());
        lens.push_back(a.size());
    }
    QuietSigpipe quiet;
    auto* raw = static_cast<redisReply*>(
        redisCommandArgv(ctx, static_cast<int>(argv.size()), argv.data(), lens.data()));
    if (raw == nullptr) throw ClusterError("redis_unavailable", std::string("redis: ") + ctx->errstr);
    return ReplyPtr(raw);
}

ContextPtr open(const RedisOptions& options, bool select_db) {
    ContextPtr ctx(redisConnectWithTimeout(options.host.c_str(), options.port, to_timeval(options.connect_timeout)));
    if (!ctx || ctx->err) throw ClusterError("redis_unavailable", describe(ctx.get(), options));
    // The whole set-up is bounded by connect_timeout, then each command by command_timeout.
    if (redisSetTimeout(ctx.get(), to_timeval(options.connect_timeout)) != REDIS_OK || redisEnableKeepAlive(ctx.get()) != REDIS_OK)
        throw ClusterError("redis_unavailable", describe(ctx.get(), options));
    auto setup = [&](const std::vector<std::string>& args) {
        ReplyPtr reply = run(ctx.get(), args);
        if (reply->type == REDIS_REPLY_ERROR)
            throw ClusterError("redis_auth", "redis " + args[0] + ": " + std::string(reply->str, reply->len));
    };
    if (!options.password.empty()) {
        if (options.username.empty()) setup({"AUTH", options.password});
        else setup({"AUTH", options.username, options.password});
    }
    if (select_db && options.db != 0) setup({"SELECT", std::to_string(options.db)});
    if (redisSetTimeout(ctx.get(), to_timeval(options.command_timeout)) != REDIS_OK)
        throw ClusterError("redis_unavailable", describe(ctx.get(), options));
    return ctx;
}

}  // namespace redis_detail

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(std::string_view s, std::string_view url) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size()) throw ClusterError("redis_url_invalid", "bad %-escape in " + std::string(url));
        const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
        if (hi < 0 || lo < 0) throw ClusterError("redis_url_invalid", "bad %-escape in " + std::string(url));
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

int parse_int(std::string_view s, int lo, int hi, std::string_view what, std::string_view url) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi)
        throw ClusterError("redis_url_invalid", std::string(what) + " out of range in " + std::string(url));
    return v;
}

}  // namespace

void check_redis(const RedisOptions& options) {
    try {
        const redis_detail::ContextPtr ctx = redis_detail::open(options, /*select_db=*/true);
        const redis_detail::ReplyPtr reply = redis_detail::run(ctx.get(), {"PING"});
        const RedisReply r = redis_detail::convert(reply.get());  // NOAUTH: redis_auth
        if (r.kind != RedisReply::Kind::status || r.str != "PONG") throw ClusterError("redis_reply", "redis PING: not PONG");
    } catch (const ClusterError& e) {
        // Where, and the hint an operator needs; never the password.
        const std::string hint = e.code() == "redis_auth" ? " (check the password and database number in --redis)" : "";
        throw ClusterError(e.code(), "the cluster's Redis at " + options.host + ":" + std::to_string(options.port) +
                                         " cannot be used: " + e.what() + hint);
    }
}

RedisOptions parse_redis_url(std::string_view url) {
    constexpr std::string_view scheme = "redis://";
    const std::string u(url);
    if (url.substr(0, scheme.size()) != scheme)
        throw ClusterError("redis_url_invalid", "not a redis:// URL (no TLS): " + u);
    RedisOptions o;
    std::string_view rest = url.substr(scheme.size());
    if (const auto q = rest.find_first_of("?#"); q != std::string_view::npos)
        throw ClusterError("redis_url_invalid", "query or fragment not supported in " + u);
    std::string_view path;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        path = rest.substr(slash + 1);
        rest = rest.substr(0, slash);
    }
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userinfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
        const auto colon = userinfo.find(':');
        if (colon == std::string_view::npos) {
            o.password = percent_decode(userinfo, url);  // redis://PASSWORD@host, as redis-cli reads it
        } else {
            o.username = percent_decode(userinfo.substr(0, colon), url);
            o.password = percent_decode(userinfo.substr(colon + 1), url);
        }
    }
    std::string_view host = rest, port;
    if (!rest.empty() && rest.front() == '[') {
        const auto close = rest.find(']');
        if (close == std::string_view::npos) throw ClusterError("redis_url_invalid", "unclosed [ in " + u);
        host = rest.substr(1, close - 1);
        const std::string_view after = rest.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') throw ClusterError("redis_url_invalid", "junk after ] in " + u);
            port = after.substr(1);
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        port = rest.substr(colon + 1);
    }
    if (host.empty()) throw ClusterError("redis_url_invalid", "no host in " + u);
    o.host = std::string(host);
    if (!port.empty()) o.port = parse_int(port, 1, 65535, "port", url);
    if (!path.empty()) o.db = parse_int(path, 0, 1'000'000, "database", url);
    return o;
}

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {
    try {
        ctx_ = redis_detail::open(options_, true).release();
        ++connects_;
    } catch (const ClusterError& e) {
        last_error_ = e.what();
        last_code_ = e.code();
    }
    reconnector_ = std::thread([this] { reconnect(); });
}

RedisClient::~RedisClient() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    lost_.notify_all();
    reconnector_.join();
    if (ctx_ != nullptr) redisFree(ctx_);
}

void RedisClient::reconnect() {
    std::unique_lock lock(mutex_);
    auto backoff = options_.backoff_initial;
    while (true) {
        lost_.wait(lock, [&] { return stopping_ || ctx_ == nullptr; });
        if (stopping_) return;
        lock.unlock();  // commands keep failing at once while this thread connects
        redis_detail::ContextPtr fresh;
        std::string error, code;
        try {
            fresh = redis_detail::open(options_, true);
        } catch (const ClusterError& e) {
            error = e.what();
            code = e.code();
        }
        lock.lock();
        if (fresh) {
            ctx_ = fresh.release();
            ++connects_;
            backoff = options_.backoff_initial;
            continue;
        }
        last_error_ = std::move(error);
        last_code_ = std::move(code);
        if (lost_.wait_for(lock, backoff, [&] { return stopping_; })) return;
        backoff = std::min(backoff * 2, options_.backoff_max);
    }
}

RedisReply RedisClient::command(const std::vector<std::string>& args) {
    std::lock_guard lock(mutex_);
    if (ctx_ == nullptr)  // redis_auth when the last attempt was refused for its password
        throw ClusterError(last_code_, "redis " + options_.host + ":" + std::to_string(options_.port) +
                                           " away, reconnecting (last attempt: " + last_error_ + ")");
    redis_detail::ReplyPtr reply;
    try {
        reply = redis_detail::run(ctx_, args);
    } catch (const ClusterError& e) {
        lose(e);
    }
    return redis_detail::convert(reply.get());
}

void RedisClient::lose(const ClusterError& e) {
    redisFree(ctx_);
    ctx_ = nullptr;
    last_error_ = e.what();
    last_code_ = e.code();
    lost_.notify_all();
    throw e;
}

void RedisClient::publish_all(const std::vector<std::pair<std::string, std::string>>& messages) {
    std::lock_guard lock(mutex_);
    if (ctx_ == nullptr)
        throw ClusterError(last_code_, "redis " + options_.host + ":" + std::to_string(options_.port) +
                                           " away, reconnecting (last attempt: " + last_error_ + ")");
    redis_detail::QuietSigpipe quiet;
    for (const auto& [channel, payload] : messages) {
        const char* argv[3] = {"PUBLISH", channel.data(), payload.data()};
        const size_t lens[3] = {7, channel.size(), payload.size()};
        if (redisAppendCommandArgv(ctx_, 3, argv, lens) != REDIS_OK) lose(ClusterError("redis_unavailable", std::string("redis: ") + ctx_->errstr));
    }
    for (std::size_t i = 0; i < messages.size(); ++i) {
        void* raw = nullptr;
        if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr)
            lose(ClusterError("redis_unavailable", std::string("redis: ") + ctx_->errstr));
        redis_detail::ReplyPtr reply(static_cast<redisReply*>(raw));  // an integer: the subscribers reached
    }
}

RedisReply RedisClient::eval(std::string_view script, const std::vector<std::string>& keys,
                             const std::vector<std::string>& args) {
    // EVAL rather than EVALSHA: the scripts are a few hundred bytes, and a restarted Redis has
    // an empty script cache (EVALSHA would need a NOSCRIPT fallback for no gain here).
    std::vector<std::string> argv;
    argv.reserve(3 + keys.size() + args.size());
    argv.emplace_back("EVAL");
    argv.emplace_back(script);
    argv.push_back(std::to_string(keys.size()));
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return command(argv);
}

std::int64_t RedisClient::publish(std::string_view channel, std::string_view payload) {
    const RedisReply r = command({"PUBLISH", std::string(channel), std::string(payload)});
    if (r.kind != RedisReply::Kind::integer) throw ClusterError("redis_reply", "redis PUBLISH: not an integer");
    return r.integer;
}

std::chrono::microseconds RedisClient::ping() {
    const auto start = std::chrono::steady_clock::now();
    const RedisReply r = command({"PING"});
    const auto latency = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    if (r.kind != RedisReply::Kind::status || r.str != "PONG") throw ClusterError("redis_reply", "redis PING: not PONG");
    return latency;
}

RedisHealth RedisClient::health() noexcept {
    RedisHealth h;
    try {
        h.latency = ping();
        h.up = true;
    } catch (const ClusterError& e) {
        h.code = e.code();
    } catch (...) {
        h.code = "redis_unavailable";
    }
    return h;
}

bool RedisClient::connected() const {
    std::lock_guard lock(mutex_);
    return ctx_ != nullptr;
}

std::uint64_t RedisClient::connects() const {
    std::lock_guard lock(mutex_);
    return connects_;
}

}  // namespace tarneeb::server
