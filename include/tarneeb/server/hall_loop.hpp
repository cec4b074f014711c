// HallLoop: a Hall driven on the calling thread, without sockets or an io_context (used by the
// tests, the protocol fuzzer and anyone embedding the hall synchronously). Outbox::post queues
// a job here and settle() runs the queued jobs on the calling thread until the hall has nothing
// outstanding (its database writes and bot decisions, which run on the hall's real worker
// threads, have all come back). With it, a caller sends a message, settles, and sees every
// answer. Thread-safety: poster() may be called from any thread; settle() from one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>

#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

class HallLoop {
public:
    /// For Outbox::post (any thread).
    std::function<void(std::function<void()>)> poster() {
        return [this](std::function<void()> job) {
            {
                std::lock_guard lock(mutex_);
                jobs_.push_back(std::move(job));
            }
            ready_.notify_one();
        };
    }

    /// Runs posted jobs until `hall` is idle. Throws after 60 s without progress (a hang).
    void settle(const Hall& hall) {
        run_until([] { return false; }, [&] { return hall.idle(); });
    }

    /// Runs posted jobs one at a time until `done()`, or until none is queued and `idle()` (what
    /// posts here has nothing outstanding). Throws after 60 s without a job (a hang).
    void run_until(const std::function<bool()>& done, const std::function<bool()>& idle) {
        for (;;) {
            if (done()) return;
            std::function<void()> job;
            {
                std::unique_lock lock(mutex_);
                if (jobs_.empty() && idle()) return;
                if (!ready_.wait_for(lock, std::chrono::seconds(60), [this] { return !jobs_.empty(); }))
                    throw std::runtime_error("HallLoop: the hall's workers did not answer within 60 s");
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
};

}  // namespace tarneeb::server
