// PostgresStorage, tournaments (issue 15; include/tarneeb/store/storage.hpp "tournaments"):
// each tournament's whole state as one JSON row, replaced after each change.
#include <cstdint>
#include <string>
#include <vector>

#include "postgres_tx.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;

std::string PostgresStorage::create_tournament(const std::function<nlohmann::json(const std::string& id)>& state) {
    return transact(*conn_, [&](Tx& w) {
        const auto r = w.exec("INSERT INTO tournaments(state) VALUES('{}') RETURNING n");
        const auto n = r[0][0].as<std::int64_t>();
        const std::string id = "T" + std::to_string(n);
        w.exec_params("UPDATE tournaments SET state = $1 WHERE n = $2", state(id).dump(), n);
        return id;
    });
}

void PostgresStorage::save_tournament(const std::string& id, const nlohmann::json& state) {
    std::int64_t n = -1;  // "T7" → 7
    if (id.size() >= 2 && id[0] == 'T') try { n = std::stoll(id.substr(1)); } catch (...) {}
    transact(*conn_, [&](Tx& w) { w.exec_params("UPDATE tournaments SET state = $1 WHERE n = $2", state.dump(), n); });
}

std::vector<nlohmann::json> PostgresStorage::tournaments() {
    return transact(*conn_, [&](Tx& w) {
        std::vector<nlohmann::json> out;
        for (const auto& t : w.exec("SELECT state FROM tournaments ORDER BY n")) {
            auto j = nlohmann::json::parse(t[0].as<std::string>(), nullptr, /*allow_exceptions=*/false);
            if (j.is_object() && !j.empty()) out.push_back(std::move(j));
        }
        return out;
    });
}

}  // namespace tarneeb::server
