// SqliteStorage, live tables (include/tarneeb/store/storage.hpp "live tables"): table ids, the
// journal of each live table, its fence (claim_table) and the group commit (write_journal).
#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include "sqlite_util.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

std::string SqliteStorage::create_table(const nlohmann::json& settings) {
    Stmt s(db_, "INSERT INTO tables(settings) VALUES(?)");
    s.bind(1, settings.dump());
    s.step();
    return "t" + std::to_string(sqlite3_last_insert_rowid(db_));
}


namespace {
/// Throws storage_fenced unless `fence` is 0 or table `n`'s current fence (inside the caller's
/// transaction: in WAL mode a write that follows this read fails with SQLITE_BUSY_SNAPSHOT when
/// another connection wrote in between, so the check and the write are atomic).
void check_fence(sqlite3* db, std::int64_t n, std::int64_t fence, const std::string& id) {
    if (fence == 0) return;
    Stmt s(db, "SELECT 1 FROM tables WHERE n = ? AND fence = ?");
    s.bind(1, n).bind(2, fence);
    if (!s.step()) throw StorageError("storage_fenced", "table " + id + ": fence " + std::to_string(fence) + " is not the current one");
}
}  // namespace

void SqliteStorage::close_table(const std::string& id, std::int64_t fence) {
    transaction([&] {
        check_fence(db_, table_number(id), fence, id);
        Stmt a(db_, "UPDATE tables SET live = 0 WHERE n = ?");
        a.bind(1, table_number(id));
        a.step();
        Stmt b(db_, "DELETE FROM journal WHERE table_n = ?");
        b.bind(1, table_number(id));
        b.step();
    });
}

bool SqliteStorage::insert_entry(const std::string& table, std::string_view entry, std::int64_t fence) {
    const std::int64_t n = table_number(table);
    // The entry's seq: its table's last one + 1 (1 for the first), read apart: an INSERT whose
    // SELECT reads the journal itself would go through a temporary table (a b-tree opened and
    // closed per row).
    if (!next_seq_ && sqlite3_prepare_v2(db_, "SELECT COALESCE(max(seq), 0) + 1 FROM journal WHERE table_n = ?", -1, &next_seq_,
                                         nullptr) != SQLITE_OK)
        fail("sqlite prepare");
    sqlite3_bind_int64(next_seq_, 1, n);
    const int found = sqlite3_step(next_seq_);
    const std::int64_t seq = sqlite3_column_int64(next_seq_, 0);
    if (found != SQLITE_ROW) {
        const StorageError e(error_code(db_), std::string("sqlite journal: ") + sqlite3_errmsg(db_));
        sqlite3_reset(next_seq_);
        throw e;
    }
    sqlite3_reset(next_seq_);
    // One statement: the fence check and the insert (a stale fence inserts no row).
    if (!append_ && sqlite3_prepare_v2(db_, "INSERT INTO journal(table_n, seq, entry) SELECT ?1, ?4, ?2"
                                            " WHERE ?3 = 0 OR EXISTS (SELECT 1 FROM tables WHERE n = ?1 AND fence = ?3)",
                                       -1, &append_, nullptr) != SQLITE_OK)
        fail("sqlite prepare");
    sqlite3_bind_int64(append_, 1, n);
    // STATIC: the text outlives the statement's run (cleared below, whatever its result).
    sqlite3_bind_text(append_, 2, entry.data(), static_cast<int>(entry.size()), SQLITE_STATIC);
    sqlite3_bind_int64(append_, 3, fence);
    sqlite3_bind_int64(append_, 4, seq);
    const int rc = sqlite3_step(append_);
    if (rc != SQLITE_DONE) {
        const StorageError e(error_code(db_), std::string("sqlite journal: ") + sqlite3_errmsg(db_));
        sqlite3_reset(append_);
        sqlite3_clear_bindings(append_);
        throw e;
    }
    sqlite3_reset(append_);
    sqlite3_clear_bindings(append_);
    return sqlite3_changes(db_) == 1;
}

namespace {
StorageError fenced_error(const std::string& table, std::int64_t fence) {
    return StorageError("storage_fenced", "table " + table + ": fence " + std::to_string(fence) + " is not the current one");
}
}  // namespace

void SqliteStorage::append(const std::string& table, const nlohmann::json& entry, std::int64_t fence) {
    // One transaction: the entry's seq read and its insert.
    transaction([&] {
        if (!insert_entry(table, entry.dump(), fence)) throw fenced_error(table, fence);
    });
}

void SqliteStorage::rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence) {
    transaction([&] {
        check_fence(db_, table_number(table), fence, table);
        Stmt d(db_, "DELETE FROM journal WHERE table_n = ?");
        d.bind(1, table_number(table));
        d.step();
        for (const auto& e : entries) insert_entry(table, e.dump(), 0);
    });
}

std::vector<JournalResult> SqliteStorage::write_journal(std::span<const JournalWrite> writes) {
    std::vector<JournalResult> results(writes.size());
    if (writes.empty()) return results;
    try {
        // IMMEDIATE: the write lock from the start, so no fence read below can go stale before
        // the writes that follow it (another connection's claim_table waits for the COMMIT).
        run_kept(begin_, "BEGIN IMMEDIATE");
        try {
            for (std::size_t i = 0; i < writes.size(); ++i) {
                const JournalWrite& w = writes[i];
                if (!w.rewrite) {
                    // The append's one statement checks the fence: a stale one inserts nothing.
                    if (w.entries.size() != 1)
                        results[i] = StorageError("storage_io", "table " + w.table + ": an append takes one entry");
                    else if (!insert_entry(w.table, w.entries.front(), w.fence))
                        results[i] = fenced_error(w.table, w.fence);
                    continue;
                }
                // A rewrite checks the fence before it deletes anything.
                try {
                    check_fence(db_, table_number(w.table), w.fence, w.table);
                } catch (const StorageError& e) {
                    results[i] = e;  // storage_fenced, or the database's error (then thrown below)
                    if (e.code() != "storage_fenced") throw;
                    continue;
                }
                Stmt d(db_, "DELETE FROM journal WHERE table_n = ?");
                d.bind(1, table_number(w.table));
                d.step();
                for (const auto& e : w.entries) insert_entry(w.table, e, 0);
            }
            run_kept(commit_, "COMMIT");
        } catch (...) {
            // SQLite may have rolled back already (e.g. SQLITE_FULL): ignore "no transaction".
            try {
                run_kept(rollback_, "ROLLBACK");
            } catch (const StorageError&) {
            }
            throw;
        }
    } catch (const StorageError& e) {
        // The transaction failed: nothing of it is written, and every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::int64_t SqliteStorage::claim_table(const std::string& id, const std::string& node) {
    Stmt s(db_, "UPDATE tables SET fence = fence + 1, owner = ? WHERE n = ? AND live = 1 RETURNING fence");
    s.bind(1, node).bind(2, table_number(id));
    if (!s.step()) throw StorageError("storage_fenced", "table " + id + " is not live");
    const std::int64_t fence = s.integer(0);
    while (s.step()) {}  // finishes the statement (its write commits at the end)
    return fence;
}

std::vector<LiveTable> SqliteStorage::live_tables() {
    std::vector<LiveTable> out;
    {
        Stmt s(db_, "SELECT n, settings FROM tables WHERE live = 1 ORDER BY n");
        while (s.step()) {
            LiveTable t;
            t.id = "t" + std::to_string(s.integer(0));
            t.settings = nlohmann::json::parse(s.text(1));
            out.push_back(std::move(t));
        }
    }
    for (auto& t : out) {
        Stmt s(db_, "SELECT entry FROM journal WHERE table_n = ? ORDER BY seq");
        s.bind(1, table_number(t.id));
        while (s.step()) t.entries.push_back(nlohmann::json::parse(s.text(0)));
    }
    return out;
}

}  // namespace tarneeb::server
