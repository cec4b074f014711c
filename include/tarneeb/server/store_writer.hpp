// The hall's one database thread (issue 26: carved out of Hall). Every job runs on it in the
// order it was submitted, so a table's journal is written in the order its changes were made
// and a read submitted after a write sees it. Journal writes that arrive while the last
// submitted job has not started join it (group commit): one transaction for all of them
// (Storage::write_journal), at most `batch` writes.
//
// Threads: every method runs on the hall's thread (the event loop); jobs run on the writer's
// own thread, and their results come back to the loop through `post`, never from inside a
// method. A result posted after the writer is destroyed is dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

class StoreWriter {
public:
    /// What a job or a journal write ended with: nothing, or the error (storage_busy when the
    /// queue was full and it never ran).
    using Result = std::optional<StorageError>;
    using Done = std::function<void(const Result&)>;
    /// Run on the writer thread just before a journal write, in its batch: an error refuses
    /// the write (it is not made, and is its result); nullopt lets it go.
    using Check = std::function<Result()>;
    /// Group commit since start (/metrics "journal").
    struct Counts {
        std::uint64_t batches = 0;   ///< batches written (transactions)
        std::uint64_t writes = 0;    ///< journal writes in them (a write refused by its check is none)
        std::size_t last_batch = 0;  ///< writes in the last batch
        std::size_t max_batch = 0;   ///< writes in the largest batch
    };

    /// `post`: runs a function on the hall's thread (Outbox::post). `queue`: jobs waiting at
    /// most (then storage_busy). `batch`: journal writes per transaction at most (0 counts as 1).
    /// `after_batch`: runs on the hall's thread after each batch's results (may be null).
    /// `name`: the thread's (`top -H`).
    StoreWriter(Storage& storage, std::function<void(std::function<void()>)> post, std::size_t queue,
                std::size_t batch, std::function<void()> after_batch, const char* name = "writer");
    /// stop().
    ~StoreWriter();
    StoreWriter(const StoreWriter&) = delete;
    StoreWriter& operator=(const StoreWriter&) = delete;
    /// Runs the jobs queued already, then joins the thread; nothing is queued after. Idempotent.
    void stop();

    /// Runs `job` on the writer thread, after every job submitted before; then `done` on the
    /// hall's thread with the StorageError it threw (another exception is storage_io).
    void run(std::function<void(Storage&)> job, Done done);
    /// Writes `write` to its table's journal, in a batch; then `done` on the hall's thread with
    /// its result (storage_fenced for that write alone, or the transaction's error for all).
    /// `check` (may be empty) runs first, on the writer thread (a cluster's seat claims).
    void append(JournalWrite write, Done done, Check check = {});

    /// Jobs waiting for the thread (not the one running).
    std::size_t waiting() const { return queue_.waiting(); }
    const Counts& counts() const { return counts_; }

private:
    /// The journal writes of one job, shared by the hall's thread, which adds writes while the
    /// job has not started, and the writer thread, which takes them all when it starts.
    struct Batch;
    /// On the hall's thread: each write's result, in order; `made`: the writes that went to the
    /// database in one transaction (counted; not those refused by their check or the queue).
    void finish(Batch& batch, const std::vector<JournalResult>& results, std::size_t made);

    Storage& storage_;
    std::function<void(std::function<void()>)> post_;
    std::size_t batch_;
    std::function<void()> after_batch_;
    Counts counts_;
    /// The batch the next write may join: its job is the last one submitted. Null when none
    /// (no batch yet, or another job was submitted since).
    std::shared_ptr<Batch> open_;
    /// Shared with the posted results: expired once the writer is gone (they then do nothing).
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
    WorkQueue queue_;  ///< last: its thread stops (in ~WorkQueue) before the rest goes
};

}  // namespace tarneeb::server
