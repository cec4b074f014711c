// The store's parts that no backend owns (include/tarneeb/store/storage.hpp): token hashes,
// table ids, open_storage, and Storage's default methods. The SQLite backend is in
// sqlite_*.cpp, the PostgreSQL one in postgres_*.cpp (docs/architecture.md "store").
#include "tarneeb/store/storage.hpp"

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "tarneeb/core/random.hpp"
#include "tarneeb/store/postgres_storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

std::string hash_token(std::string_view token) {
    std::uint64_t a = 0x243F6A8885A308D3ULL, b = 0x13198A2E03707344ULL;
    for (unsigned char ch : token) {
        a = mix64(a ^ ch);
        b = mix64(b + ch + (a >> 7));
    }
    a = mix64(a ^ token.size());
    b = mix64(b ^ a);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return buf;
}

std::string unheld_token_hash() { return hash_token("revoked:" + secure_random_string(32, "0123456789abcdef")); }

bool is_postgres_url(std::string_view spec) {
    return spec.starts_with("postgresql://") || spec.starts_with("postgres://");
}

std::unique_ptr<Storage> open_storage(const std::string& spec, bool full_sync) {
    if (is_postgres_url(spec)) return std::make_unique<PostgresStorage>(spec);
    return std::make_unique<SqliteStorage>(spec, full_sync);
}


std::int64_t table_number(const std::string& id) {
    if (id.size() < 2 || id[0] != 't') return -1;
    try { return std::stoll(id.substr(1)); } catch (...) { return -1; }
}


std::vector<JournalResult> Storage::write_journal(std::span<const JournalWrite> writes) {
    // The default for a backend without a transaction of its own for this: one call per write,
    // each its own transaction (so a failure is that write's alone).
    std::vector<JournalResult> results;
    results.reserve(writes.size());
    for (const JournalWrite& w : writes) {
        try {
            // The entries' text read back into the trees append and rewrite take.
            std::vector<nlohmann::json> entries;
            for (const auto& e : w.entries) entries.push_back(nlohmann::json::parse(e));
            if (w.rewrite) rewrite(w.table, entries, w.fence);
            else if (entries.size() == 1) append(w.table, entries.front(), w.fence);
            else throw StorageError("storage_io", "table " + w.table + ": an append takes one entry");
            results.emplace_back();
        } catch (const StorageError& e) {
            results.emplace_back(e);
        } catch (const std::exception& e) {
            results.emplace_back(StorageError("storage_io", e.what()));
        }
    }
    return results;
}

std::vector<std::string> Storage::live_table_ids() {
    std::vector<std::string> ids;
    for (auto& t : live_tables()) ids.push_back(std::move(t.id));
    return ids;
}

std::optional<LiveTable> Storage::live_table(const std::string& id) {
    for (auto& t : live_tables())
        if (t.id == id) return std::move(t);
    return std::nullopt;
}

}  // namespace tarneeb::server
