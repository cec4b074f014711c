// Work off the event loop: a queue of jobs run by worker threads (docs/architecture.md
// "Server threads"). The hall runs two: one writer thread for the SQLite database (so a locked
// or slow disk never stalls the event loop) and a pool of bot threads (so a computer player
// that thinks for a second never delays another table or a ping).
//
// Jobs run in the order they were submitted when there is one thread; with several threads
// they start in that order. A job must not throw (an exception ends the process: catch inside).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tarneeb::server {

class WorkQueue {
public:
    /// Starts `threads` worker threads (at least 1); at most `capacity` jobs wait at once.
    WorkQueue(std::string name, unsigned threads, std::size_t capacity);
    /// Runs the jobs already queued, then joins the threads (stop()).
    ~WorkQueue();
    WorkQueue(const WorkQueue&) = delete;
    WorkQueue& operator=(const WorkQueue&) = delete;

    /// Queues a job. False (and the job is dropped) when `capacity` jobs are waiting or the
    /// queue is stopped: the caller refuses the request instead of waiting.
    bool submit(std::function<void()> job);
    /// Jobs waiting (not yet started).
    std::size_t waiting() const;
    /// Stops taking jobs, lets the threads finish the queued ones, joins them. Idempotent.
    void stop();

private:
    void run();

    std::string name_;
    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

/// 64 bits from the operating system's CSPRNG (getrandom(2)); throws std::runtime_error when the
/// kernel refuses (never in practice). For online deal seeds, tokens and join codes.
std::uint64_t secure_random_u64();
/// `n` random characters from `alphabet` (uniform: rejection sampling), from the OS CSPRNG.
std::string secure_random_string(std::size_t n, std::string_view alphabet);

}  // namespace tarneeb::server
