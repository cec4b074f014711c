// Subscriber: Redis pub/sub on its own connection and thread, resubscribing after reconnects
// (include/tarneeb/cluster/cluster.hpp). The thread waits in poll(2) on the socket and an
// eventfd, so subscription changes and stop() wake it at once.
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "redis_context.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {

namespace {

using Clock = std::chrono::steady_clock;

// Queues the commands on the connection and writes them out; false when the connection broke.
bool send_all(redisContext* ctx, const std::vector<std::vector<std::string>>& commands) {
    for (const auto& args : commands) {
        std::vector<const char*> argv;
        std::vector<size_t> lens;
        for (const auto& a : args) {
            argv.push_back(a.data());
            lens.push_back(a.size());
        }
        if (redisAppendCommandArgv(ctx, static_cast<int>(argv.size()), argv.data(), lens.data()) != REDIS_OK)
            return false;
    }
    redis_detail::QuietSigpipe quiet;
    int done = 0;
    while (!done)
        if (redisBufferWrite(ctx, &done) != REDIS_OK) return false;
    return true;
}

std::vector<std::string> with(std::string verb, const std::set<std::string>& names) {
    std::vector<std::string> args{std::move(verb)};
    args.insert(args.end(), names.begin(), names.end());
    return args;
}

}  // namespace

Subscriber::Subscriber(RedisOptions options, Handler on_message)
    : options_(std::move(options)), on_message_(std::move(on_message)) {
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
    thread_ = std::thread([this] { run(); });
}

Subscriber::~Subscriber() {
    stop();
    if (wake_fd_ >= 0) close(wake_fd_);
}

void Subscriber::wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(wake_fd_, &one, sizeof one);  // EAGAIN: a wake-up is already pending
}

void Subscriber::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake();
    changed_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void Subscriber::subscribe(const std::string& channel) {
    {
        std::lock_guard lock(mutex_);
        if (!channels_.insert(channel).second) return;
        outbox_.push_back({"SUBSCRIBE", channel});
    }
    wake();
}

void Subscriber::psubscribe(const std::string& pattern) {
    {
        std::lock_guard lock(mutex_);
        if (!patterns_.insert(pattern).second) return;
        outbox_.push_back({"PSUBSCRIBE", pattern});
    }
    wake();
}

void Subscriber::unsubscribe(const std::string& channel) {
    {
        std::lock_guard lock(mutex_);
        if (channels_.erase(channel) == 0) return;
        outbox_.push_back({"UNSUBSCRIBE", channel});
    }
    wake();
}

void Subscriber::punsubscribe(const std::string& pattern) {
    {
        std::lock_guard lock(mutex_);
        if (patterns_.erase(pattern) == 0) return;
        outbox_.push_back({"PUNSUBSCRIBE", pattern});
    }
    wake();
}

bool Subscriber::ready_locked() const {
    return connected_ &&
           std::includes(confirmed_channels_.begin(), confirmed_channels_.end(), channels_.begin(), channels_.end()) &&
           std::includes(confirmed_patterns_.begin(), confirmed_patterns_.end(), patterns_.begin(), patterns_.end());
}

bool Subscriber::wait_ready(std::chrono::milliseconds max) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, max, [&] { return stopping_ || ready_locked(); }) && !stopping_;
}

std::uint64_t Subscriber::sessions() const {
    std::lock_guard lock(mutex_);
    return sessions_;
}

std::uint64_t Subscriber::keepalives() const {
    std::lock_guard lock(mutex_);
    return keepalives_;
}

void Subscriber::run() {
    std::chrono::milliseconds backoff{0};
    // Waits up to `d` for stop() (or any wake-up); true when stopping.
    auto pause = [&](std::chrono::milliseconds d) {
        pollfd p{wake_fd_, POLLIN, 0};
        poll(&p, 1, static_cast<int>(d.count()));
        std::uint64_t drained = 0;
        [[maybe_unused]] const ssize_t n = read(wake_fd_, &drained, sizeof drained);
        std::lock_guard lock(mutex_);
        return stopping_;
    };
    while (true) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
        }
        redis_detail::ContextPtr ctx;
        try {
            ctx = redis_detail::open(options_, false);
        } catch (const ClusterError&) {
            backoff = std::min(std::max(backoff * 2, options_.backoff_initial), options_.backoff_max);
            if (pause(backoff)) return;
            continue;
        }
        backoff = std::chrono::milliseconds(0);

        std::vector<std::vector<std::string>> commands;
        bool counted = false;  // this connection's session counted in sessions_
        {
            std::lock_guard lock(mutex_);
            connected_ = true;
            confirmed_channels_.clear();
            confirmed_patterns_.clear();
            outbox_.clear();  // everything wanted is (re)subscribed here
            if (!channels_.empty()) commands.push_back(with("SUBSCRIBE", channels_));
            if (!patterns_.empty()) commands.push_back(with("PSUBSCRIBE", patterns_));
            if (ready_locked()) {
                ++sessions_;
                counted = true;
            }
        }
        changed_.notify_all();

        bool alive = send_all(ctx.get(), commands);
        auto last_read = Clock::now();
        bool ping_out = false;  // a keepalive PING is waiting for its answer
        Clock::time_point ping_sent{};
        while (alive) {
            // Sleep until data, a wake-up, or the next keepalive check.
            const auto now = Clock::now();
            const auto deadline = ping_out ? ping_sent + options_.command_timeout
                                            : last_read + options_.subscriber_ping_interval;
            const auto wait = std::max<std::int64_t>(
                0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1);
            pollfd fds[2] = {{ctx->fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
            const int n = poll(fds, 2, static_cast<int>(std::min<std::int64_t>(wait, 60'000)));
            if (n < 0 && errno != EINTR) break;

            if (fds[1].revents & POLLIN) {
                std::uint64_t drained = 0;
                [[maybe_unused]] const ssize_t r = read(wake_fd_, &drained, sizeof drained);
            }
            std::vector<std::vector<std::string>> outbox;
            {
                std::lock_guard lock(mutex_);
                if (stopping_) return;
                outbox.swap(outbox_);
            }
            if (!outbox.empty() && !send_all(ctx.get(), outbox)) break;

            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                if (redisBufferRead(ctx.get()) != REDIS_OK) break;
                last_read = Clock::now();
                ping_out = false;
                while (true) {
                    void* raw = nullptr;
                    if (redisGetReplyFromReader(ctx.get(), &raw) != REDIS_OK) {
                        alive = false;
                        break;
                    }
                    if (raw == nullptr) break;
                    redis_detail::ReplyPtr reply(static_cast<redisReply*>(raw));
                    const redisReply* r = reply.get();
                    if (r->type != REDIS_REPLY_ARRAY || r->elements < 2 || r->element[0]->type != REDIS_REPLY_STRING)
                        continue;  // an error reply to a bad pattern, say: nothing to deliver
                    const std::string kind(r->element[0]->str, r->element[0]->len);
                    auto text = [&](size_t i) { return std::string(r->element[i]->str, r->element[i]->len); };
                    if (kind == "message" && r->elements == 3) {
                        PubSubMessage m{"", text(1), text(2)};
                        try {
                            on_message_(m);
                        } catch (...) {  // documented: a throwing handler loses its message only
                        }
                    } else if (kind == "pmessage" && r->elements == 4) {
                        PubSubMessage m{text(1), text(2), text(3)};
                        try {
                            on_message_(m);
                        } catch (...) {
                        }
                    } else if (kind == "subscribe" || kind == "psubscribe" || kind == "unsubscribe" ||
                               kind == "punsubscribe") {
                        if (r->element[1]->type != REDIS_REPLY_STRING) continue;
                        std::lock_guard lock(mutex_);
                        auto& set = kind[0] == 'p' ? confirmed_patterns_ : confirmed_channels_;
                        if (kind == "subscribe" || kind == "psubscribe") set.insert(text(1));
                        else set.erase(text(1));
                        if (!counted && ready_locked()) {
                            ++sessions_;
                            counted = true;
                        }
                        changed_.notify_all();
                    } else if (kind == "pong") {  // the keepalive's answer; reading it was the point
                        std::lock_guard lock(mutex_);
                        ++keepalives_;
                    }
                }
                continue;
            }
            // Keepalive: nothing read for a while; ask, and give up on the connection when
            // the answer does not come within command_timeout.
            const auto t = Clock::now();
            if (ping_out) {
                if (t - ping_sent >= options_.command_timeout) break;
            } else if (t - last_read >= options_.subscriber_ping_interval) {
                if (!send_all(ctx.get(), {{"PING"}})) break;
                ping_sent = t;
                ping_out = true;
            }
        }
        {
            std::lock_guard lock(mutex_);
            connected_ = false;
            confirmed_channels_.clear();
            confirmed_patterns_.clear();
            if (stopping_) return;
        }
        changed_.notify_all();
        // Reconnect at once (a restarted Redis is usually back); failures then back off.
    }
}

}  // namespace tarneeb::server
