// Storage's analysis table (issue 14): a database from before it gains the table when opened,
// keeps its matches, and stored analyses survive reopening.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {
namespace {

TEST(StorageAnalysis, OldDatabasesGainTheAnalysisTableAndKeepTheirMatches) {
    const auto path = std::filesystem::temp_directory_path() / ("tarneeb_analysis_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(path);
    {
        // The matches table as it was before analyses, with one match.
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db,
                               "CREATE TABLE matches(id TEXT PRIMARY KEY, table_id TEXT NOT NULL, finished INTEGER NOT NULL,"
                               " status TEXT NOT NULL, winner INTEGER NOT NULL, score0 INTEGER NOT NULL,"
                               " score1 INTEGER NOT NULL, record TEXT NOT NULL);"
                               "INSERT INTO matches VALUES('t1-1', 't1', 0, 'won', 0, 31, 12, '{\"format\":1}');",
                               nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    {
        SqliteStorage s(path.string());
        EXPECT_EQ(s.match_record("t1-1"), std::optional<std::string>(R"({"format":1})"));
        EXPECT_EQ(s.match_analysis("t1-1", 0), std::nullopt);
        s.store_analysis("t1-1", 0, R"({"deal":0})");
        s.store_analysis("t1-1", 2, R"({"deal":2,"v":1})");
        s.store_analysis("t1-1", 2, R"({"deal":2,"v":2})");  // replaced, not added
        EXPECT_EQ(s.match_analysis("t1-1", 1), std::nullopt);
    }
    {
        SqliteStorage s(path.string());  // reopened: nothing migrates again, the analyses are kept
        EXPECT_EQ(s.match_analysis("t1-1", 0), std::optional<std::string>(R"({"deal":0})"));
        EXPECT_EQ(s.match_analysis("t1-1", 2), std::optional<std::string>(R"({"deal":2,"v":2})"));
        EXPECT_EQ(s.match_analysis("t2-1", 0), std::nullopt);
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

}  // namespace
}  // namespace tarneeb::server
