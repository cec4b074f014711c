// The hall's database thread and its group commit (include/tarneeb/server/store_writer.hpp).
#include "tarneeb/server/store_writer.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

namespace tarneeb::server {

struct StoreWriter::Batch {
    std::mutex mutex;
    bool started = false;              ///< the writer took the writes: none may join (under mutex)
    std::vector<JournalWrite> writes;  ///< under mutex; moved out by the writer when it starts
    std::vector<Check> checks;         ///< one per write (may be empty), under mutex like them
    std::vector<Done> dones;           ///< the hall's thread only: what runs with each result
};

StoreWriter::StoreWriter(Storage& storage, std::function<void(std::function<void()>)> post, std::size_t queue,
                         std::size_t batch, std::function<void()> after_batch, const char* name)
    : storage_(storage), post_(std::move(post)), batch_(std::max<std::size_t>(1, batch)),
      after_batch_(std::move(after_batch)), queue_(name, 1, queue) {}

StoreWriter::~StoreWriter() { stop(); }

void StoreWriter::stop() { queue_.stop(); }

void StoreWriter::run(std::function<void(Storage&)> job, Done done) {
    auto alive = std::weak_ptr<bool>(alive_);
    auto finish = [this, alive, done = std::move(done)](Result e) mutable {
        post_([alive, done = std::move(done), e = std::move(e)] {
            if (!alive.expired() && done) done(e);
        });
    };
    auto work = [this, job = std::move(job), finish]() mutable {
        Result e;
        try {
            job(storage_);
        } catch (const StorageError& x) {
            e = x;
        } catch (const std::exception& x) {
            e = StorageError("storage_io", x.what());
        }
        finish(std::move(e));
    };
    if (!queue_.submit(std::move(work))) {
        // The database is far behind (locked or slow): refuse rather than wait.
        finish(StorageError("storage_busy", "the database queue is full"));
        return;
    }
    // This job runs after the open batch's: a journal write from now on must not join that
    // batch (it would be written before this job), so it opens a new one. (A refused job runs
    // never, so it closes nothing.)
    open_.reset();
}

void StoreWriter::append(JournalWrite write, Done done, Check check) {
    if (open_) {
        // Its job is the last one submitted: joining it keeps the writer's order. It may have
        // started meanwhile, or be full: then a new batch.
        std::lock_guard lock(open_->mutex);
        if (!open_->started && open_->writes.size() < batch_) {
            open_->writes.push_back(std::move(write));
            open_->checks.push_back(std::move(check));
            open_->dones.push_back(std::move(done));
            return;
        }
    }
    auto batch = std::make_shared<Batch>();
    batch->writes.push_back(std::move(write));
    batch->checks.push_back(std::move(check));
    batch->dones.push_back(std::move(done));
    auto alive = std::weak_ptr<bool>(alive_);
    auto work = [this, alive, batch] {
        std::vector<JournalWrite> writes;
        std::vector<Check> checks;
        {
            std::lock_guard lock(batch->mutex);
            batch->started = true;
            writes = std::move(batch->writes);
            checks = std::move(batch->checks);
        }
        // The checks first: a refused write is left out of the transaction, its error its result.
        std::vector<JournalResult> results(writes.size());
        std::vector<JournalWrite> made;
        std::vector<std::size_t> made_at;
        for (std::size_t i = 0; i < writes.size(); ++i) {
            if (checks[i]) results[i] = checks[i]();
            if (results[i]) continue;
            made.push_back(std::move(writes[i]));
            made_at.push_back(i);
        }
        std::vector<JournalResult> written;
        if (!made.empty()) {
            try {
                written = storage_.write_journal(made);
            } catch (const StorageError& x) {
                written.assign(made.size(), x);
            } catch (const std::exception& x) {
                written.assign(made.size(), StorageError("storage_io", x.what()));
            }
            if (written.size() != made.size()) written.assign(made.size(), StorageError("storage_io", "write_journal: wrong result count"));
        }
        for (std::size_t k = 0; k < made_at.size(); ++k) results[made_at[k]] = std::move(written[k]);
        post_([this, alive, batch, results = std::move(results), n = made.size()] {
            if (!alive.expired()) finish(*batch, results, n);
        });
    };
    if (!queue_.submit(std::move(work))) {
        // The database is far behind (locked or slow): refuse rather than wait (the result on
        // the hall's thread later, as every result).
        open_.reset();
        post_([this, alive, batch] {
            if (!alive.expired()) finish(*batch, {StorageError("storage_busy", "the database queue is full")}, 0);
        });
        return;
    }
    open_ = std::move(batch);
}

void StoreWriter::finish(Batch& batch, const std::vector<JournalResult>& results, std::size_t made) {
    if (made > 0) {
        ++counts_.batches;
        counts_.writes += made;
        counts_.last_batch = made;
        counts_.max_batch = std::max(counts_.max_batch, made);
    }
    auto dones = std::move(batch.dones);
    for (std::size_t i = 0; i < dones.size(); ++i)
        if (dones[i]) dones[i](i < results.size() ? results[i] : results.back());
    if (after_batch_) after_batch_();
}

}  // namespace tarneeb::server
