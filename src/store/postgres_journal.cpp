// PostgresStorage, live tables (include/tarneeb/store/storage.hpp "live tables"): table ids,
// the journal of each live table, its fence (claim_table) and the group commit (write_journal,
// append_journal).
#include <algorithm>
#include <cstdint>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "postgres_tx.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;
using pg_detail::statement;

namespace {

/// Locks table `n`'s row when `fence` is its current fence (FOR UPDATE: a claim_table waits for
/// this transaction, and a claim committed meanwhile is seen); throws storage_fenced when not.
void check_fence(Tx& w, std::int64_t n, std::int64_t fence, const std::string& id) {
    if (fence == 0) return;
    if (w.exec_params("SELECT 1 FROM tables WHERE n = $1 AND fence = $2 FOR UPDATE", n, fence).empty())
        throw StorageError("storage_fenced", "table " + id + ": fence " + std::to_string(fence) + " is not the current one");
}

}  // namespace

std::string PostgresStorage::create_table(const nlohmann::json& settings) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("INSERT INTO tables(settings) VALUES($1) RETURNING n", settings.dump());
        return "t" + std::to_string(r[0][0].as<std::int64_t>());
    });
}

void PostgresStorage::close_table(const std::string& id, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(id);
        check_fence(w, n, fence, id);
        w.exec_params("UPDATE tables SET live = FALSE WHERE n = $1", n);
        w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
    });
}

void PostgresStorage::append(const std::string& table, const nlohmann::json& entry, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(table);
        if (fence == 0) {
            w.exec_params("INSERT INTO journal(table_n, entry) VALUES($1, $2)", n, entry.dump());
            return;
        }
        // One statement: lock the table's row if the fence is current, insert only then.
        const auto r = w.exec_params(
            "WITH owned AS (SELECT n FROM tables WHERE n = $1 AND fence = $3 FOR UPDATE)"
            " INSERT INTO journal(table_n, entry) SELECT n, $2 FROM owned",
            n, entry.dump(), fence);
        if (r.affected_rows() != 1)
            throw StorageError("storage_fenced", "table " + table + ": fence " + std::to_string(fence) + " is not the current one");
    });
}

void PostgresStorage::rewrite(const std::string& table, const std::vector<nlohmann::json>& entries, std::int64_t fence) {
    transact(*conn_, [&](Tx& w) {
        const std::int64_t n = table_number(table);
        check_fence(w, n, fence, table);
        w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
        for (const auto& e : entries) w.exec_params("INSERT INTO journal(table_n, entry) VALUES($1, $2)", n, e.dump());
    });
}

std::vector<JournalResult> PostgresStorage::write_journal(std::span<const JournalWrite> writes) {
    std::vector<JournalResult> results(writes.size());
    if (writes.empty()) return results;
    auto fenced = [](const JournalWrite& jw) {
        return StorageError("storage_fenced", "table " + jw.table + ": fence " + std::to_string(jw.fence) + " is not the current one");
    };
    if (std::none_of(writes.begin(), writes.end(), [](const JournalWrite& jw) { return jw.rewrite; }))
        return append_journal(writes);
    try {
        // One transaction under one deadline, in a few round trips whatever the batch's size:
        //  1. the rows of every table a fenced write names are locked (FOR UPDATE, in the order
        //     of n, so two nodes' batches never deadlock) and their fences read: a claim_table
        //     of one of them waits for this COMMIT, so each check stays true until the writes
        //     are committed, atomic with them as in append and rewrite;
        //  2. the inserts, in the writes' order: one multi-row INSERT per run of entries (a
        //     rewrite's DELETE ends a run), rows numbered in the order given (ORDER BY ord).
        // A write whose fence is stale is left out alone: nothing of it is written.
        transact(*conn_, [&](Tx& w) {
            std::string locked = "{";
            for (const JournalWrite& jw : writes)
                if (jw.fence != 0) locked += (locked.size() > 1 ? "," : "") + std::to_string(table_number(jw.table));
            locked += "}";
            std::map<std::int64_t, std::int64_t> fences;  // table n -> its current fence
            if (locked.size() > 2)
                for (const auto row : w.exec_params("SELECT n, fence FROM tables WHERE n = ANY($1::bigint[]) ORDER BY n FOR UPDATE", locked))
                    fences[row[0].as<std::int64_t>()] = row[1].as<std::int64_t>();
            nlohmann::json run = nlohmann::json::array();  // [{"ord", "n", "entry"}...] not inserted yet
            auto flush = [&] {
                if (run.empty()) return;
                w.exec_params(
                    "INSERT INTO journal(table_n, entry) SELECT x.n, x.entry"
                    " FROM json_to_recordset($1::json) AS x(ord BIGINT, n BIGINT, entry TEXT) ORDER BY x.ord",
                    run.dump());
                run = nlohmann::json::array();
            };
            for (std::size_t i = 0; i < writes.size(); ++i) {
                const JournalWrite& jw = writes[i];
                const std::int64_t n = table_number(jw.table);
                if (!jw.rewrite && jw.entries.size() != 1) {
                    results[i] = StorageError("storage_io", "table " + jw.table + ": an append takes one entry");
                    continue;
                }
                if (jw.fence != 0) {
                    const auto f = fences.find(n);
                    if (f == fences.end() || f->second != jw.fence) {
                        results[i] = fenced(jw);
                        continue;
                    }
                }
                if (jw.rewrite) {
                    flush();  // the entries before it, of this table too, go first
                    w.exec_params("DELETE FROM journal WHERE table_n = $1", n);
                }
                for (const auto& e : jw.entries) run.push_back({{"ord", run.size()}, {"n", n}, {"entry", e}});
            }
            flush();
        });
    } catch (const StorageError& e) {
        // The transaction failed (rolled back, or its COMMIT got no answer): every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::vector<JournalResult> PostgresStorage::append_journal(std::span<const JournalWrite> writes) {
    // A batch of appends only (the usual one: actions), in ONE statement and round trip, atomic
    // as write_journal's transaction: the rows of the fenced tables are locked (FOR UPDATE, in
    // the order of n) and their fences read, and each entry is inserted only when its write's
    // fence is 0 or the current one, in the order given; the fences come back, so each write
    // learns whether it was left out (storage_fenced) by the rule the statement applied.
    std::vector<JournalResult> results(writes.size());
    std::string locked = "{";
    nlohmann::json rows = nlohmann::json::array();  // [{"ord", "n", "fence", "entry"}...]
    for (std::size_t i = 0; i < writes.size(); ++i) {
        const JournalWrite& jw = writes[i];
        if (jw.entries.size() != 1) {
            results[i] = StorageError("storage_io", "table " + jw.table + ": an append takes one entry");
            continue;
        }
        const std::int64_t n = table_number(jw.table);
        if (jw.fence != 0) locked += (locked.size() > 1 ? "," : "") + std::to_string(n);
        rows.push_back({{"ord", rows.size()}, {"n", n}, {"fence", jw.fence}, {"entry", jw.entries.front()}});
    }
    locked += "}";
    try {
        const auto fences = statement(*conn_, [&](Tx& w) {
            std::map<std::int64_t, std::int64_t> current;  // table n -> its fence
            const auto r = w.exec_params(
                "WITH locked AS (SELECT n, fence FROM tables WHERE n = ANY($1::bigint[]) ORDER BY n FOR UPDATE),"
                " ins AS (INSERT INTO journal(table_n, entry) SELECT x.n, x.entry"
                " FROM json_to_recordset($2::json) AS x(ord BIGINT, n BIGINT, fence BIGINT, entry TEXT)"
                " WHERE x.fence = 0 OR x.fence = (SELECT l.fence FROM locked l WHERE l.n = x.n) ORDER BY x.ord RETURNING 1)"
                " SELECT n, fence FROM locked",
                locked, rows.dump());
            for (const auto row : r) current[row[0].as<std::int64_t>()] = row[1].as<std::int64_t>();
            return current;
        });
        for (std::size_t i = 0; i < writes.size(); ++i) {
            const JournalWrite& jw = writes[i];
            if (results[i] || jw.fence == 0) continue;
            const auto f = fences.find(table_number(jw.table));
            if (f == fences.end() || f->second != jw.fence)
                results[i] = StorageError("storage_fenced", "table " + jw.table + ": fence " + std::to_string(jw.fence) + " is not the current one");
        }
    } catch (const StorageError& e) {
        // Nothing was written (or, without an answer, it is unknown): every write says why.
        std::fill(results.begin(), results.end(), JournalResult(e));
    } catch (const std::exception& e) {
        std::fill(results.begin(), results.end(), JournalResult(StorageError("storage_io", e.what())));
    }
    return results;
}

std::int64_t PostgresStorage::claim_table(const std::string& id, const std::string& node) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec_params("UPDATE tables SET fence = fence + 1, owner = $2 WHERE n = $1 AND live RETURNING fence",
                                     table_number(id), node);
        if (r.empty()) throw StorageError("storage_fenced", "table " + id + " is not live");
        return r[0][0].as<std::int64_t>();
    });
}

std::vector<LiveTable> PostgresStorage::live_tables() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<LiveTable> out;
        std::map<std::int64_t, std::size_t> index;
        for (const auto& row : w.exec("SELECT n, settings FROM tables WHERE live ORDER BY n")) {
            const auto n = row[0].as<std::int64_t>();
            index[n] = out.size();
            out.push_back({"t" + std::to_string(n), nlohmann::json::parse(row[1].as<std::string>()), {}});
        }
        for (const auto& row : w.exec("SELECT j.table_n, j.entry FROM journal j JOIN tables t ON t.n = j.table_n"
                                      " WHERE t.live ORDER BY j.table_n, j.seq"))
            if (auto it = index.find(row[0].as<std::int64_t>()); it != index.end())
                out[it->second].entries.push_back(nlohmann::json::parse(row[1].as<std::string>()));
        return out;
    });
}

std::vector<std::string> PostgresStorage::live_table_ids() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<std::string> out;
        for (const auto& row : w.exec("SELECT n FROM tables WHERE live ORDER BY n"))
            out.push_back("t" + std::to_string(row[0].as<std::int64_t>()));
        return out;
    });
}

std::optional<LiveTable> PostgresStorage::live_table(const std::string& id) {
    return transact(*conn_, [&](Tx& w) -> std::optional<LiveTable> {
        const std::int64_t n = table_number(id);
        const auto t = w.exec_params("SELECT settings FROM tables WHERE n = $1 AND live", n);
        if (t.empty()) return std::nullopt;
        LiveTable out{id, nlohmann::json::parse(t[0][0].as<std::string>()), {}};
        for (const auto& row : w.exec_params("SELECT entry FROM journal WHERE table_n = $1 ORDER BY seq", n))
            out.entries.push_back(nlohmann::json::parse(row[0].as<std::string>()));
        return out;
    });
}

}  // namespace tarneeb::server
