// SqliteStorage, accounts (include/tarneeb/store/storage.hpp "accounts"): players' password hashes
// and the sessions table. Only hashes are stored: the password's `$argon2id$...` string
// (accounts.hpp) and hash_token of each session token.
#include <string>
#include <vector>

#include "sqlite_util.hpp"
#include "tarneeb/support/names.hpp"
#include "tarneeb/store/storage.hpp"
#include "tarneeb/support/workers.hpp"

namespace tarneeb::server {

void SqliteStorage::migrate_accounts() {
    bool has_password = false;
    {
        Stmt info(db_, "PRAGMA table_info(players)");
        while (info.step()) has_password = has_password || info.text(1) == "password_hash";
    }
    transaction([&] {
        // NULL: a guest. Every player of an older database is one.
        if (!has_password) exec("ALTER TABLE players ADD COLUMN password_hash TEXT");
        exec("CREATE TABLE IF NOT EXISTS sessions(token_hash TEXT PRIMARY KEY, name TEXT NOT NULL,"
             " created INTEGER NOT NULL, expires INTEGER NOT NULL)");
        exec("CREATE INDEX IF NOT EXISTS sessions_name ON sessions(name, created)");
    });
}

std::optional<TokenOwner> SqliteStorage::token_owner(std::string_view token, std::int64_t now_ms) {
    const std::string hash = hash_token(token);
    {
        Stmt s(db_, "SELECT name, password_hash IS NOT NULL FROM players WHERE token_hash = ?");
        s.bind(1, hash);
        if (s.step()) return TokenOwner{s.text(0), s.integer(1) != 0};
    }
    Stmt s(db_, "SELECT name FROM sessions WHERE token_hash = ? AND expires > ?");
    s.bind(1, hash).bind(2, now_ms);
    if (s.step()) return TokenOwner{s.text(0), true};
    return std::nullopt;
}

std::optional<Credentials> SqliteStorage::credentials(std::string_view name) {
    Stmt s(db_, "SELECT name, password_hash FROM players WHERE name_key = ?");
    s.bind(1, name_key(name));
    if (s.step()) return Credentials{s.text(0), s.text(1)};  // NULL reads as ""
    return std::nullopt;
}

bool SqliteStorage::register_password(const std::string& name, const std::string& password_hash, const std::string& token_hash,
                                std::int64_t now_ms, std::int64_t expires_ms) {
    bool done = false;
    transaction([&] {
        Stmt u(db_, "UPDATE players SET password_hash = ?, token_hash = ? WHERE name = ? AND password_hash IS NULL");
        u.bind(1, password_hash).bind(2, unheld_token_hash()).bind(3, name);
        u.step();
        if (sqlite3_changes(db_) != 1) return;  // unknown, or registered already: nothing changes
        Stmt ins(db_, "INSERT OR REPLACE INTO sessions(token_hash, name, created, expires) VALUES(?, ?, ?, ?)");
        ins.bind(1, token_hash).bind(2, name).bind(3, now_ms).bind(4, expires_ms);
        ins.step();
        done = true;
    });
    return done;
}

void SqliteStorage::add_session(const std::string& name, std::string_view token, std::int64_t now_ms, std::int64_t expires_ms) {
    transaction([&] {
        Stmt gone(db_, "DELETE FROM sessions WHERE name = ? AND expires <= ?");
        gone.bind(1, name).bind(2, now_ms);
        gone.step();
        Stmt ins(db_, "INSERT OR REPLACE INTO sessions(token_hash, name, created, expires) VALUES(?, ?, ?, ?)");
        ins.bind(1, hash_token(token)).bind(2, name).bind(3, now_ms).bind(4, expires_ms);
        ins.step();
        // The oldest beyond kMaxSessionsPerPlayer are revoked (a bound on what one name keeps).
        Stmt old(db_, "DELETE FROM sessions WHERE name = ?1 AND rowid NOT IN"
                      " (SELECT rowid FROM sessions WHERE name = ?1 ORDER BY created DESC, rowid DESC LIMIT ?2)");
        old.bind(1, name).bind(2, std::int64_t{kMaxSessionsPerPlayer});
        old.step();
    });
}

int SqliteStorage::change_password(const std::string& name, const std::string& password_hash, const std::string& keep_token_hash) {
    int revoked = 0;
    transaction([&] {
        Stmt u(db_, "UPDATE players SET password_hash = ?, token_hash = ? WHERE name = ?");
        u.bind(1, password_hash).bind(2, unheld_token_hash()).bind(3, name);
        u.step();
        Stmt d(db_, "DELETE FROM sessions WHERE name = ? AND token_hash <> ?");
        d.bind(1, name).bind(2, keep_token_hash);
        d.step();
        revoked = sqlite3_changes(db_);
    });
    return revoked;
}

int SqliteStorage::revoke_sessions(const std::string& name) {
    int revoked = 0;
    transaction([&] {
        Stmt u(db_, "UPDATE players SET token_hash = ? WHERE name = ?");
        u.bind(1, unheld_token_hash()).bind(2, name);
        u.step();
        Stmt d(db_, "DELETE FROM sessions WHERE name = ?");
        d.bind(1, name);
        d.step();
        revoked = sqlite3_changes(db_);
    });
    return revoked;
}

void SqliteStorage::revoke_session(const std::string& token_hash) {
    Stmt d(db_, "DELETE FROM sessions WHERE token_hash = ?");
    d.bind(1, token_hash);
    d.step();
}

bool SqliteStorage::is_registered(const std::string& name) {
    Stmt s(db_, "SELECT 1 FROM players WHERE name = ? AND password_hash IS NOT NULL");
    s.bind(1, name);
    return s.step();
}

}  // namespace tarneeb::server
