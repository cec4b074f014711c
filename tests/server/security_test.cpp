// Security issue #11 against the real `tarneeb serve`: static files, slow and flooding
// clients, per-guest and per-address limits. Part of the server_ws_tests unity build.
#include <fstream>

#include "ws_harness.hpp"

namespace tarneeb::server::testing {
namespace {

namespace fs = std::filesystem;

// --static DIR with the database inside DIR (as `--static . --db ./tarneeb.db`): hostile targets
// sent as-is get no file outside the root, and never the database or its WAL.
TEST(Security, StaticFilesStayInsideTheRootAndNeverServeTheDatabase) {
    const std::string db = temp_db("static-root");
    const fs::path root = fs::path(db).parent_path() / "static-root";
    fs::remove_all(root);
    fs::create_directories(root / "assets");
    std::ofstream(root / "index.html") << "<html>tarneeb-index</html>";
    std::ofstream(root / "assets" / "app.js") << "tarneeb-app-js";
    std::ofstream(fs::path(db).parent_path() / "outside-secret.txt") << "tarneeb-outside-secret";
    fs::create_symlink(fs::path(db).parent_path() / "outside-secret.txt", root / "link-out");
    const std::string root_db = (root / "tarneeb.db").string();
    ServerProcess server(root_db, {"--static", root.string()});
    ASSERT_NE(server.port(), 0);
    {
        // A guest makes the database hold something worth stealing (a token), and a WAL.
        net::io_context ioc;
        Client c(ioc, server.port());
        ASSERT_FALSE(sign_in(ioc, c, "Victim").empty());
    }
    ASSERT_TRUE(fs::exists(root_db));

    EXPECT_EQ(raw_get(server.port(), "/").first, 200);
    EXPECT_NE(raw_get(server.port(), "/").second.find("tarneeb-index"), std::string::npos);
    EXPECT_EQ(raw_get(server.port(), "/assets/app.js?v=1").first, 200);

    const std::string abs_root = fs::canonical(root).string();
    const std::string hostile[] = {
        "//etc/passwd", "//proc/self/cmdline", "//proc/self/environ", "/" + abs_root + "/tarneeb.db",
        "/" + fs::path(db).parent_path().string() + "/outside-secret.txt", "/./../outside-secret.txt",
        "/../outside-secret.txt", "/assets/../../outside-secret.txt", "/%2e%2e/outside-secret.txt",
        "/%2e%2e%2foutside-secret.txt", "/%252e%252e/outside-secret.txt", "/..%5coutside-secret.txt",
        "/assets\\..\\..\\outside-secret.txt", "/index.html%00.js", "/" + std::string(4000, 'a'), "/link-out",
        "/tarneeb.db", "/tarneeb.db-wal", "/tarneeb.db-shm", "/tarneeb.db-journal", "/tarneeb%2edb",
        "//" + abs_root + "/tarneeb.db-wal",
    };
    for (const auto& target : hostile) {
        const auto [status, response] = raw_get(server.port(), target);
        EXPECT_NE(status, 200) << target;
        EXPECT_EQ(response.find("root:"), std::string::npos) << target;
        EXPECT_EQ(response.find("tarneeb-outside-secret"), std::string::npos) << target;
        EXPECT_EQ(response.find("SQLite format"), std::string::npos) << target;
        EXPECT_EQ(response.find("Victim"), std::string::npos) << target;
        EXPECT_EQ(response.find("serve"), std::string::npos) << target;  // /proc/self/cmdline
    }
    fs::remove_all(root);
}

}  // namespace
}  // namespace tarneeb::server::testing
