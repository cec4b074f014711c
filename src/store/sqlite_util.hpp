// SQLite helpers shared by SqliteStorage's source files (sqlite_*.cpp, one per role):
// the StorageError code of a failed call, a prepared statement that finalizes itself, and
// SqliteStorage::transaction.
// Internal to the server library (not a public header).
#pragma once

#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>

#include <sqlite3.h>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {
namespace {

/// The StorageError code of the connection's last error (storage.hpp lists them). Called right
/// after the failing call: SQLite does not always keep the system error (sqlite3_system_errno
/// is 0 after a write refused with EFBIG), so errno is read too.
std::string error_code(sqlite3* db) {
    const int last_errno = errno;
    const int primary = sqlite3_extended_errcode(db) & 0xff;
    int sys = sqlite3_system_errno(db);
    if (sys == 0) sys = last_errno;
    if (primary == SQLITE_FULL || sys == ENOSPC || sys == EFBIG || sys == EDQUOT) return "storage_full";
    if (primary == SQLITE_READONLY || primary == SQLITE_PERM || primary == SQLITE_CANTOPEN || sys == EROFS || sys == EACCES)
        return "storage_read_only";
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) return "storage_corrupt";
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) return "storage_busy";
    return "storage_io";
}

[[noreturn]] void throw_error(sqlite3* db, const std::string& what) {
    throw StorageError(error_code(db), what + ": " + sqlite3_errmsg(db));
}

/// A prepared statement that finalizes itself.
class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) throw_error(db, "sqlite prepare");
    }
    ~Stmt() { sqlite3_finalize(s_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    Stmt& bind(int i, std::string_view text) {
        sqlite3_bind_text(s_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, std::int64_t v) { sqlite3_bind_int64(s_, i, v); return *this; }
    Stmt& bind(int i, double v) { sqlite3_bind_double(s_, i, v); return *this; }
    /// True while a row is available.
    bool step() {
        const int rc = sqlite3_step(s_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw_error(db_, "sqlite step");
    }
    std::string text(int col) {
        const auto* p = sqlite3_column_text(s_, col);
        return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, col))) : std::string();
    }
    std::int64_t integer(int col) { return sqlite3_column_int64(s_, col); }
    double real(int col) { return sqlite3_column_double(s_, col); }
    /// Ready to run again with new bindings.
    void reset() { sqlite3_reset(s_); }

private:
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
};

}  // namespace

template <class F>
void SqliteStorage::transaction(F&& body) {
    // Inside a transaction already (the schema's, when the store opens): the body is part of it.
    if (sqlite3_get_autocommit(db_) == 0) return body();
    exec("BEGIN");
    try {
        body();
        exec("COMMIT");
    } catch (...) {
        // SQLite may have rolled back already (e.g. SQLITE_FULL): ignore "no transaction".
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

}  // namespace tarneeb::server
