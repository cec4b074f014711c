// SqliteStorage's group commit (src/store/sqlite_journal.cpp) where only SQLite can be made to
// fail: its kept transaction statements (BEGIN IMMEDIATE, COMMIT, ROLLBACK, prepared once) after
// a COMMIT refused for space, and the journal of a new file (seq without AUTOINCREMENT) keeping
// each table's order through rewrites and closes. The contracts both backends share are in
// storage_test.cpp.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

std::vector<std::string> codes(const std::vector<JournalResult>& results) {
    std::vector<std::string> out;
    for (const auto& r : results) out.push_back(r ? r->code() : "ok");
    return out;
}

JournalWrite add(const std::string& table, const json& entry) { return {table, false, {entry.dump()}, 0}; }

std::vector<std::string> entries_of(Storage& s, const std::string& table) {
    std::vector<std::string> out;
    for (const auto& t : s.live_tables())
        if (t.id == table)
            for (const auto& e : t.entries) out.push_back(e.dump());
    return out;
}

/// A fresh database file's path (removed with its -wal and -shm by the destructor).
struct TempDb {
    std::string path = (std::filesystem::temp_directory_path() / ("tarneeb-sqlite-journal-" + std::to_string(getpid()) + ".db")).string();
    TempDb() { remove(); }
    ~TempDb() { remove(); }
    void remove() const {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

TEST(SqliteJournal, AGroupCommitRefusedForSpaceWritesNothingAndTheNextOneWorks) {
    TempDb db;
    SqliteStorage s(db.path);
    const std::string t = s.create_table(json{{"target", 31}});
    ASSERT_EQ(codes(s.write_journal(std::vector<JournalWrite>{add(t, {{"n", 1}})})), std::vector<std::string>{"ok"});
    // Files may grow by 64 KiB at most: the next entry (256 KiB, written to the WAL by its
    // COMMIT) is refused with EFBIG, which SQLite reports as SQLITE_FULL.
    const auto size = std::max(std::filesystem::file_size(db.path), std::filesystem::file_size(db.path + "-wal"));
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = static_cast<rlim_t>(size + 64 * 1024);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const auto refused = s.write_journal(std::vector<JournalWrite>{add(t, {{"n", 2}}), add(t, {{"big", std::string(256 * 1024, 'x')}})});
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_EQ(codes(refused), (std::vector<std::string>{"storage_full", "storage_full"}));
    // Nothing of the refused batch is there; the kept BEGIN and COMMIT run again.
    EXPECT_EQ(entries_of(s, t), std::vector<std::string>{R"({"n":1})"});
    for (int n = 3; n <= 4; ++n)
        EXPECT_EQ(codes(s.write_journal(std::vector<JournalWrite>{add(t, {{"n", n}})})), std::vector<std::string>{"ok"});
    EXPECT_EQ(entries_of(s, t), (std::vector<std::string>{R"({"n":1})", R"({"n":3})", R"({"n":4})"}));
    // And the file, opened again, holds what was committed.
    SqliteStorage again(db.path);
    EXPECT_EQ(entries_of(again, t), (std::vector<std::string>{R"({"n":1})", R"({"n":3})", R"({"n":4})"}));
}

TEST(SqliteJournal, ANewFilesJournalKeepsEachTablesOrderThroughRewritesAndCloses) {
    TempDb db;
    SqliteStorage s(db.path);
    const std::string a = s.create_table(json::object()), b = s.create_table(json::object());
    // The newest row goes (a's rewrite, then b's close): seq values may come again, after every
    // row still there, so each table's order stays the order of its writes.
    ASSERT_EQ(codes(s.write_journal(std::vector<JournalWrite>{add(a, {{"n", 1}}), add(b, {{"n", 1}}), add(a, {{"n", 2}}),
                                                               add(b, {{"n", 2}})})),
              (std::vector<std::string>{"ok", "ok", "ok", "ok"}));
    s.close_table(b);
    ASSERT_EQ(codes(s.write_journal(std::vector<JournalWrite>{{a, true, {R"({"n":"r"})"}, 0}, add(a, {{"n", 3}})})),
              (std::vector<std::string>{"ok", "ok"}));
    const std::string c = s.create_table(json::object());
    ASSERT_EQ(codes(s.write_journal(std::vector<JournalWrite>{add(c, {{"n", 1}}), add(a, {{"n", 4}}), add(c, {{"n", 2}})})),
              (std::vector<std::string>{"ok", "ok", "ok"}));
    EXPECT_EQ(entries_of(s, a), (std::vector<std::string>{R"({"n":"r"})", R"({"n":3})", R"({"n":4})"}));
    EXPECT_EQ(entries_of(s, b), std::vector<std::string>{});
    EXPECT_EQ(entries_of(s, c), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
}

}  // namespace
}  // namespace tarneeb::server
