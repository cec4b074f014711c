#include "tarneeb/support/workers.hpp"

#include <pthread.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace tarneeb::server {

WorkQueue::WorkQueue(std::string name, unsigned threads, std::size_t capacity)
    : name_(std::move(name)), capacity_(capacity) {
    if (threads == 0) threads = 1;
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

WorkQueue::~WorkQueue() { stop(); }

bool WorkQueue::submit(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || jobs_.size() >= capacity_) return false;
        jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
    return true;
}

std::size_t WorkQueue::waiting() const {
    std::lock_guard lock(mutex_);
    return jobs_.size();
}

void WorkQueue::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty()) return;
        stopping_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
}

void WorkQueue::run() {
    // The queue's name on its threads (`top -H`, `perf`, /proc/PID/task/*/comm: at most 15 bytes).
    pthread_setname_np(pthread_self(), name_.substr(0, 15).c_str());
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) return;  // stopping and drained
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job();
    }
}

std::uint64_t secure_random_u64() {
    std::uint64_t v = 0;
    auto* p = reinterpret_cast<unsigned char*>(&v);
    std::size_t got = 0;
    while (got < sizeof v) {
        const ssize_t n = getrandom(p + got, sizeof v - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("getrandom failed");
        }
        got += static_cast<std::size_t>(n);
    }
    return v;
}

std::string secure_random_string(std::size_t n, std::string_view alphabet) {
    std::string out;
    out.reserve(n);
    const auto size = static_cast<std::uint64_t>(alphabet.size());
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % size;  // no modulo bias
    while (out.size() < n) {
        const std::uint64_t r = secure_random_u64();
        if (r >= limit) continue;
        out.push_back(alphabet[static_cast<std::size_t>(r % size)]);
    }
    return out;
}

}  // namespace tarneeb::server
