// SqliteStorage, tournaments (issue 15; include/tarneeb/store/storage.hpp "tournaments"): each
// tournament's whole state as one JSON row, replaced after each change.
#include <cstdint>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "sqlite_util.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

void SqliteStorage::migrate_tournaments() {
    exec("CREATE TABLE IF NOT EXISTS tournaments(n INTEGER PRIMARY KEY AUTOINCREMENT, state TEXT NOT NULL)");
}

std::string SqliteStorage::create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) {
    std::string id;
    transaction([&] {
        Stmt ins(db_, "INSERT INTO tournaments(state) VALUES('{}')");
        ins.step();
        id = "T" + std::to_string(sqlite3_last_insert_rowid(db_));
        save_tournament(id, state(id));
    });
    return id;
}

void SqliteStorage::save_tournament(const std::string& id, const nlohmann::json& state) {
    std::int64_t n = -1;  // "T7" → 7
    if (id.size() >= 2 && id[0] == 'T') try { n = std::stoll(id.substr(1)); } catch (...) {}
    Stmt s(db_, "UPDATE tournaments SET state = ? WHERE n = ?");
    s.bind(1, state.dump()).bind(2, n);
    s.step();
}

std::vector<nlohmann::json> SqliteStorage::tournaments() {
    std::vector<nlohmann::json> out;
    Stmt s(db_, "SELECT state FROM tournaments ORDER BY n");
    while (s.step()) {
        auto j = nlohmann::json::parse(s.text(0), nullptr, /*allow_exceptions=*/false);
        if (j.is_object() && !j.empty()) out.push_back(std::move(j));
    }
    return out;
}

}  // namespace tarneeb::server
