// SqliteStorage's journal (src/store/sqlite_journal.cpp) where only SQLite can be made to fail
// or be found older: its kept transaction statements (BEGIN IMMEDIATE, COMMIT, ROLLBACK,
// prepared once) after a COMMIT refused for space; the journal of a new file (one b-tree keyed
// by table and seq) keeping each table's order through rewrites and closes; an older file's
// journal (rowid, AUTOINCREMENT, an index) migrated with its rows in order. The contracts both
// backends share are in storage_test.cpp.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sqlite3.h>

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

/// The statements' result, one line per row, columns joined by '|'.
std::string query(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::string out;
    sqlite3_exec(db, sql, [](void* o, int n, char** values, char**) {
        auto& text = *static_cast<std::string*>(o);
        for (int i = 0; i < n; ++i) text += (i ? "|" : "") + std::string(values[i] ? values[i] : "NULL");
        text += '\n';
        return 0;
    }, &out, nullptr);
    sqlite3_close(db);
    return out;
}

TEST(SqliteJournal, AnOlderFilesJournalIsMigratedWithEachTablesEntriesInOrder) {
    TempDb db;
    // The journal as it was: seq INTEGER PRIMARY KEY AUTOINCREMENT over every table, an index.
    EXPECT_EQ(query(db.path,
                    "CREATE TABLE tables(n INTEGER PRIMARY KEY AUTOINCREMENT, settings TEXT NOT NULL, live INTEGER NOT NULL DEFAULT 1);"
                    "CREATE TABLE journal(seq INTEGER PRIMARY KEY AUTOINCREMENT, table_n INTEGER NOT NULL, entry TEXT NOT NULL);"
                    "CREATE INDEX journal_table ON journal(table_n, seq);"
                    "INSERT INTO tables(settings) VALUES('{}'), ('{}');"
                    "INSERT INTO journal(table_n, entry) VALUES(2, '{\"n\":1}'), (1, '{\"n\":1}'), (2, '{\"n\":2}'),"
                    " (1, '{\"n\":2}'), (2, '{\"n\":3}');"
                    "DELETE FROM journal WHERE seq = 1;"
                    "SELECT count(*) FROM journal;"),
              "4\n");
    {
        SqliteStorage s(db.path);
        EXPECT_EQ(entries_of(s, "t1"), (std::vector<std::string>{R"({"n":1})", R"({"n":2})"}));
        EXPECT_EQ(entries_of(s, "t2"), (std::vector<std::string>{R"({"n":2})", R"({"n":3})"}));
        ASSERT_EQ(codes(s.write_journal(std::vector<JournalWrite>{add("t2", {{"n", 4}}), add("t1", {{"n", 3}})})),
                  (std::vector<std::string>{"ok", "ok"}));
    }
    SqliteStorage again(db.path);  // migrated once: opened again, nothing to do
    EXPECT_EQ(entries_of(again, "t1"), (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})"}));
    EXPECT_EQ(entries_of(again, "t2"), (std::vector<std::string>{R"({"n":2})", R"({"n":3})", R"({"n":4})"}));
    EXPECT_EQ(query(db.path, "SELECT name FROM sqlite_master WHERE tbl_name = 'journal' ORDER BY name;"
                             "SELECT table_n, seq FROM journal ORDER BY table_n, seq;"),
              "journal\n1|2\n1|4\n1|5\n2|3\n2|5\n2|6\n");
}

TEST(SqliteJournal, ANewFilesJournalKeepsEachTablesOrderThroughRewritesAndCloses) {
    TempDb db;
    SqliteStorage s(db.path);
    const std::string a = s.create_table(json::object()), b = s.create_table(json::object());
    // Each table's seq goes on from its last row; after a rewrite or a close it starts again,
    // after every row still there, so each table's order stays the order of its writes.
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
