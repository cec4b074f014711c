// resolve_static: which file `tarneeb serve --static DIR` may send (security issue #11).
#include "tarneeb/net/static_files.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace tarneeb::server {
namespace {

namespace fs = std::filesystem;

class StaticFiles : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tarneeb-static-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        root_ = dir_ / "root";
        fs::create_directories(root_ / "assets");
        fs::create_directories(root_ / ".git");
        write(root_ / "index.html", "index");
        write(root_ / "app.js", "js");
        write(root_ / "a b.css", "css");
        write(root_ / "assets" / "index.html", "assets index");
        write(root_ / "assets" / "x.js", "x");
        write(root_ / ".git" / "config", "secret");
        write(root_ / "%2e", "literal percent name");
        write(dir_ / "outside.txt", "outside");
        write(root_ / "game.db", "database");
        write(root_ / "game.db-wal", "wal");
        write(root_ / "game.db-shm", "shm");
        write(root_ / "game.db-journal", "journal");
        fs::create_symlink(dir_ / "outside.txt", root_ / "link-out");
        fs::create_symlink(root_ / "app.js", root_ / "link-in.js");
        fs::create_symlink(root_ / "game.db", root_ / "db-link");
        fs::create_directory_symlink("/etc", root_ / "etc");
        fs::create_hard_link(root_ / "game.db", root_ / "hard.db");
    }
    void TearDown() override { fs::remove_all(dir_); }
    static void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
    std::optional<fs::path> resolve(std::string_view target) const {
        return resolve_static(root_, target, {root_ / "game.db"});
    }

    fs::path dir_, root_;
};

TEST_F(StaticFiles, ServesRegularFilesInsideTheRoot) {
    const auto canon = fs::canonical(root_);
    EXPECT_EQ(resolve("/"), canon / "index.html");
    EXPECT_EQ(resolve("/index.html"), canon / "index.html");
    EXPECT_EQ(resolve("/app.js?v=3"), canon / "app.js");
    EXPECT_EQ(resolve("/app.js#top"), canon / "app.js");
    EXPECT_EQ(resolve("/a%20b.css"), canon / "a b.css");
    EXPECT_EQ(resolve("/assets/"), canon / "assets" / "index.html");
    EXPECT_EQ(resolve("/assets/x.js"), canon / "assets" / "x.js");
    EXPECT_EQ(resolve("/link-in.js"), canon / "app.js");  // a symlink that stays inside
}

TEST_F(StaticFiles, RefusesEveryHostileTarget) {
    const std::string root_abs = fs::canonical(root_).string();
    const std::string hostile[] = {
        "//etc/passwd", "//proc/self/cmdline", "/" + root_abs + "/app.js", "/" + dir_.string() + "/outside.txt",
        "/./app.js", "/./../outside.txt", "/../outside.txt", "/assets/../app.js", "/assets/..", "/..",
        "/%2e%2e/outside.txt", "/%2E%2E/outside.txt", "/%2e%2e%2foutside.txt", "/assets%2f..%2f..%2foutside.txt",
        "/%252e%252e/outside.txt", "/%252e", "/%2e", "/..%5coutside.txt", "/assets\\..\\..\\outside.txt",
        "/%5c..%5coutside.txt", "/app.js%00.html", std::string("/app.js\0.html", 13), "/app%0a.js", "/%", "/%2",
        "/%zz", "/%2fetc%2fpasswd", "/link-out", "/etc/passwd", "/etc/", "/.git/config", "/.git/", "/assets",
        "/missing.js", "", "app.js", "*", "http://x/app.js", "/" + std::string(2000, 'a'),
        "/" + std::string(kMaxStaticTarget, 'a'), "/assets//x.js", "///", "/assets/x.js/",
    };
    for (const auto& t : hostile) EXPECT_EQ(resolve(t), std::nullopt) << "target: " << t;
}

TEST_F(StaticFiles, NeverServesTheDatabaseOrItsCompanions) {
    for (const char* t : {"/game.db", "/game.db-wal", "/game.db-shm", "/game.db-journal", "/db-link", "/hard.db",
                          "/game%2edb", "/game.db?x=1"})
        EXPECT_EQ(resolve(t), std::nullopt) << "target: " << t;
    // The database given relative to another working directory, or through "..": still refused.
    const auto cwd = fs::current_path();
    fs::current_path(root_ / "assets");
    EXPECT_EQ(resolve_static("..", "/game.db-wal", {"../assets/../game.db"}), std::nullopt);
    EXPECT_EQ(resolve_static(".", "/x.js", {"../game.db"}), fs::canonical(root_ / "assets" / "x.js"));
    fs::current_path(cwd);
    // With no forbidden file the same file is served (the refusal above is the database rule).
    EXPECT_EQ(resolve_static(root_, "/game.db", {}), fs::canonical(root_ / "game.db"));
}

TEST_F(StaticFiles, NoRootServesNothing) {
    EXPECT_EQ(resolve_static("", "/index.html", {}), std::nullopt);
    EXPECT_EQ(resolve_static(dir_ / "missing", "/index.html", {}), std::nullopt);
    EXPECT_EQ(resolve_static(root_ / "app.js", "/", {}), std::nullopt);
}

}  // namespace
}  // namespace tarneeb::server
