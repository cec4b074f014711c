// PostgresStorage, accounts (include/tarneeb/store/storage.hpp "accounts"; the contracts of
// sqlite_accounts.cpp): players' password hashes and the sessions table.
#include <string>

#include "postgres_tx.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using pg_detail::transact;
using pg_detail::Tx;

std::optional<TokenOwner> PostgresStorage::token_owner(std::string_view token, std::int64_t now_ms) {
    return transact(*conn_, [&](Tx& w) -> std::optional<TokenOwner> {
        const std::string hash = hash_token(token);
        if (const auto r = w.exec_params("SELECT name, password_hash IS NOT NULL FROM players WHERE token_hash = $1", hash); !r.empty())
            return TokenOwner{r[0][0].as<std::string>(), r[0][1].as<bool>()};
        if (const auto r = w.exec_params("SELECT name FROM sessions WHERE token_hash = $1 AND expires > $2", hash, now_ms); !r.empty())
            return TokenOwner{r[0][0].as<std::string>(), true};
        return std::nullopt;
    });
}

std::optional<Credentials> PostgresStorage::credentials(std::string_view name) {
    return transact(*conn_, [&](Tx& w) -> std::optional<Credentials> {
        const auto r = w.exec_params("SELECT name, COALESCE(password_hash, '') FROM players WHERE name_key = $1", name_key(name));
        if (r.empty()) return std::nullopt;
        return Credentials{r[0][0].as<std::string>(), r[0][1].as<std::string>()};
    });
}

bool PostgresStorage::register_password(const std::string& name, const std::string& password_hash,
                                        const std::string& token_hash, std::int64_t now_ms, std::int64_t expires_ms) {
    return transact(*conn_, [&](Tx& w) {
        const auto u = w.exec_params("UPDATE players SET password_hash = $1, token_hash = $2 WHERE name = $3 AND password_hash IS NULL",
                                     password_hash, unheld_token_hash(), name);
        if (u.affected_rows() != 1) return false;  // unknown, or registered already: nothing changes
        w.exec_params("INSERT INTO sessions(token_hash, name, created, expires) VALUES($1, $2, $3, $4)"
                      " ON CONFLICT (token_hash) DO UPDATE SET name = EXCLUDED.name, created = EXCLUDED.created,"
                      " expires = EXCLUDED.expires, seq = DEFAULT",
                      token_hash, name, now_ms, expires_ms);
        return true;
    });
}

void PostgresStorage::add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms) {
    transact(*conn_, [&](Tx& w) {
        w.exec_params("DELETE FROM sessions WHERE name = $1 AND expires <= $2", name, now_ms);
        w.exec_params("INSERT INTO sessions(token_hash, name, created, expires) VALUES($1, $2, $3, $4)"
                      " ON CONFLICT (token_hash) DO UPDATE SET name = EXCLUDED.name, created = EXCLUDED.created,"
                      " expires = EXCLUDED.expires, seq = DEFAULT",
                      hash_token(token), name, now_ms, expires_ms);
        // The oldest beyond kMaxSessionsPerPlayer are revoked (a bound on what one name keeps).
        w.exec_params("DELETE FROM sessions WHERE name = $1 AND seq NOT IN"
                      " (SELECT seq FROM sessions WHERE name = $1 ORDER BY created DESC, seq DESC LIMIT $2)",
                      name, kMaxSessionsPerPlayer);
    });
}

int PostgresStorage::change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash) {
    return transact(*conn_, [&](Tx& w) {
        w.exec_params("UPDATE players SET password_hash = $1, token_hash = $2 WHERE name = $3", password_hash,
                      unheld_token_hash(), name);
        return static_cast<int>(
            w.exec_params("DELETE FROM sessions WHERE name = $1 AND token_hash <> $2", name, keep_token_hash).affected_rows());
    });
}

int PostgresStorage::revoke_sessions(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        w.exec_params("UPDATE players SET token_hash = $1 WHERE name = $2", unheld_token_hash(), name);
        return static_cast<int>(w.exec_params("DELETE FROM sessions WHERE name = $1", name).affected_rows());
    });
}

void PostgresStorage::revoke_session(const std::string& token_hash) {
    transact(*conn_, [&](Tx& w) { w.exec_params("DELETE FROM sessions WHERE token_hash = $1", token_hash); });
}

bool PostgresStorage::is_registered(const std::string& name) {
    return transact(*conn_, [&](Tx& w) {
        return !w.exec_params("SELECT 1 FROM players WHERE name = $1 AND password_hash IS NOT NULL", name).empty();
    });
}

}  // namespace tarneeb::server
