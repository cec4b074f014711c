// A SQLite store whose writer can be held at a gate, for tests that decide exactly when a
// journal write is done (hall_group_commit_test.cpp, shard_routing_test.cpp).
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server::testing {

/// A real SQLite store (the file `path`, or ":memory:") whose writer thread can be held before
/// each journal batch and whose batches can be made to fail as a whole (every write gets the
/// error, nothing is written: what a full disk or a lost connection does to the transaction). It
/// notes the order of what the writer did: "batch:N" for a batch of N writes, "register" for a
/// sign-in.
class GatedStorage : public SqliteStorage {
public:
    explicit GatedStorage(const std::string& path = ":memory:") : SqliteStorage(path) {}

    /// From now on the writer waits at the next batch until open().
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            closed_ = false;
        }
        changed_.notify_all();
    }
    /// Waits until the writer thread waits at the gate.
    void wait_held() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return held_; });
    }
    /// Every batch from now on fails with `code` (nullopt: they work again).
    void fail_with(std::optional<std::string> code) {
        std::lock_guard lock(mutex_);
        fail_ = std::move(code);
    }
    std::vector<std::string> done() {
        std::lock_guard lock(mutex_);
        return done_;
    }

    std::vector<JournalResult> write_journal(std::span<const JournalWrite> writes) override {
        std::optional<std::string> fail;
        {
            std::unique_lock lock(mutex_);
            held_ = closed_;
            changed_.notify_all();
            changed_.wait(lock, [&] { return !closed_; });
            held_ = false;
            fail = fail_;
            done_.push_back("batch:" + std::to_string(writes.size()));
        }
        if (fail) return std::vector<JournalResult>(writes.size(), StorageError(*fail, "the batch failed (test)"));
        return SqliteStorage::write_journal(writes);
    }
    bool register_name(std::string_view name, std::string_view token) override {
        {
            std::lock_guard lock(mutex_);
            done_.push_back("register");
        }
        return SqliteStorage::register_name(name, token);
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool closed_ = false;
    bool held_ = false;
    std::optional<std::string> fail_;
    std::vector<std::string> done_;
};

}  // namespace tarneeb::server::testing
