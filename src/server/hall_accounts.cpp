// The hall, accounts (docs/protocol.md "hello", "Accounts"; accounts.hpp): hello (a new guest's
// name, a returning token, or a registered player's password), registering a guest, changing the password, signing out one device or every device.
//
// Threads: a password is hashed or checked on the hall's password threads (on_passwords: a
// bounded queue, `busy` when full), every database access on the writer thread, as everywhere
// in the hall; this file only starts them and answers. A request holds its connection (its
// guest, once signed in) until it is answered, so a guest's messages stay in order.
// No password is kept beyond the job that needs it, written to the database or logged.
#include <algorithm>
#include <string>

#include "tarneeb/server/hall.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {
constexpr std::string_view kHex = "0123456789abcdef";
}  // namespace

void Hall::hello(ConnId conn, Conn& c, const HelloRequest& h, const json& id) {
    if (!c.name.empty()) return error(conn, id, to_string(ProtocolError::bad_message), "already signed in");
    if (h.kind == HelloRequest::Kind::password) return sign_in(conn, c, h, id);  // a registered player (hall_accounts.cpp)
    if (h.kind == HelloRequest::Kind::token) {
        const std::string token = h.token;
        auto found = std::make_shared<std::optional<TokenOwner>>();
        hold(conn);
        on_reader("hello", [token, found, now = now_](Storage& s) { *found = s.token_owner(token, now); },
                  [this, conn, id, token, found](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e) storage_error(conn, id, *e);
                      else if (!*found) error(conn, id, to_string(ProtocolError::unknown_token));
                      else signed_in(conn, id, (*found)->name, token, (*found)->registered, /*returning=*/true);
                  });
        return;
    }
    if (h.kind == HelloRequest::Kind::name) {
        // Any script, NFC; unique by confusable skeleton and case (names.hpp, docs/protocol.md).
        const NameResult checked = normalize_name(*h.name, config_.reserved_names);
        if (!checked.name) return error(conn, id, to_string(ProtocolError::bad_name), std::string(describe(checked.problem)));
        const std::string name = checked.name->text;
        if (config_.new_guests_per_address > 0)
            if (const Millis wait = new_guests_.wait_ms(c.address, now_); wait > 0)
                return error(conn, id, kTooManyAttempts,
                             "too many new guests from this address; try again in " + std::to_string((wait + 999) / 1000) + " s");
        new_guests_.failed(c.address, now_);  // counted while it is written (hellos sent at once stay within the limit)
        const std::string token = secure_random_string(32, "0123456789abcdef");
        auto registered = std::make_shared<bool>(false);
        hold(conn);
        on_writer("hello", [name, token, registered](Storage& s) { *registered = s.register_name(name, token); },
                  [this, conn, id, name, token, registered, address = c.address](const std::optional<StorageError>& e) {
                      release(conn);
                      if (e || !*registered) new_guests_.forgive(address);  // no guest made: not counted
                      if (e) storage_error(conn, id, *e);
                      else if (!*registered) error(conn, id, to_string(ProtocolError::name_taken));
                      else signed_in(conn, id, name, token, /*registered=*/false, /*returning=*/false);
                  });
        return;
    }
    error(conn, id, to_string(ProtocolError::bad_message), "hello needs a name or a token");
}

void Hall::signed_in(ConnId conn, const json& id, const std::string& name, const std::string& token, bool registered,
                     bool returning) {
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;  // closed meanwhile
    if (auto known = guests_.find(name);
        known != guests_.end() && static_cast<int>(known->second.conns.size()) >= config_.max_connections_per_guest)
        return error(conn, id, to_string(ProtocolError::too_many_connections),
                     "too many connections with this token (at most " + std::to_string(config_.max_connections_per_guest) + ")");
    it->second.name = name;
    it->second.token_hash = hash_token(token);
    it->second.registered = registered;
    guests_[name].conns.insert(conn);
    // Where it sits: at once for a table of this process; in a cluster maybe another node's.
    // Meanwhile this connection's next messages wait (its guest's other connections do not).
    it->second.busy = true;
    tables_->locate(name, [this, conn, id, name, token, registered](std::optional<Place> place) {
        auto c = conns_.find(conn);
        if (c == conns_.end()) return;  // closed meanwhile
        c->second.busy = false;
        pumps_.push_back(conn);
        json welcome = welcome_json(name, token, place ? place->table : "", place ? place->seat : std::nullopt);
        welcome["registered"] = registered;  // accounts (docs/protocol.md "Accounts")
        reply(conn, id, std::move(welcome));
        tables_->connected(name);  // its table's message and chat, after the welcome
    }, returning);
}

bool Hall::on_passwords(std::function<void()> work, std::function<void()> done) {
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = passwords_->submit([this, alive, work = std::move(work), done = std::move(done)]() mutable {
        work();
        work = nullptr;  // the password it captured is dropped here, on the password thread
        out_.post([this, alive, done = std::move(done)] {
            if (alive.expired()) return;
            --outstanding_;
            done();
            run_pumps();
        });
    });
    if (!queued) {
        --outstanding_;
        ++password_refusals_;
    }
    return queued;
}

std::optional<std::string> Hall::attempts_refused(const std::string& key, const std::string& address) {
    const std::int64_t wait = attempts_.wait_ms(key, address, now_);
    if (wait <= 0) return std::nullopt;
    return "too many failed sign-ins; try again in " + std::to_string((wait + 999) / 1000) + " s";
}

void Hall::close_sessions_here(const std::string& name, ConnId keep, const std::string& only_token_hash,
                               const std::string& keep_token_hash) {
    auto g = guests_.find(name);
    if (g == guests_.end()) return;
    std::vector<ConnId> gone;
    for (ConnId other : g->second.conns) {
        auto it = conns_.find(other);
        if (other == keep || it == conns_.end()) continue;
        const std::string& hash = it->second.token_hash;
        if ((!only_token_hash.empty() && hash != only_token_hash) || (!keep_token_hash.empty() && hash == keep_token_hash)) continue;
        gone.push_back(other);
    }
    for (ConnId other : gone) {
        out_.close(other, 4001, "signed out");
        closed(other, now_);  // at once: a message it sends meanwhile is ignored
    }
}

void Hall::close_sessions(const std::string& name, ConnId keep, const std::string& only_token_hash,
                          const std::string& keep_token_hash) {
    close_sessions_here(name, keep, only_token_hash, keep_token_hash);
    if (cluster_.signed_out) cluster_.signed_out(name, only_token_hash, keep_token_hash);
}

void Hall::sign_out_here(const std::string& name, const std::string& only_token_hash, const std::string& keep_token_hash) {
    close_sessions_here(name, ConnId(-1), only_token_hash, keep_token_hash);
}

void Hall::sign_in(ConnId conn, Conn& c, const HelloRequest& h, const json& id) {
    const auto& name = h.name;
    const auto& password = h.password;
    if (!name || !password) return error(conn, id, to_string(ProtocolError::bad_message), "hello with a password needs a name");
    // No stored name or password has these lengths: refused at once (the same answer either way).
    if (name->size() > kMaxNameBytes || !password_length_ok(*password)) return error(conn, id, kBadCredentials);
    const std::string key = name_key(*name);
    if (auto refused = attempts_refused(key, c.address)) return error(conn, id, kTooManyAttempts, *refused);
    // Counted as failed from now until it succeeds: attempts sent at once stay within the limits.
    attempts_.failed(key, c.address, now_);
    auto found = std::make_shared<std::optional<Credentials>>();
    hold(conn);
    on_writer("sign_in", [name = *name, found](Storage& s) { *found = s.credentials(name); },
              [this, conn, id, key, address = c.address, password = *password, found](const std::optional<StorageError>& e) {
                  if (e) {
                      attempts_.forgive(key, address);
                      release(conn);
                      return storage_error(conn, id, *e);
                  }
                  // A guest (no password) or an unknown name checks the dummy hash: the same work.
                  const std::string stored = *found ? (*found)->password_hash : std::string();
                  auto good = std::make_shared<bool>(false);
                  const bool queued = on_passwords(
                      [stored, password, good] {
                          try {
                              *good = stored.empty() ? check_dummy_password(password) : check_password(stored, password);
                          } catch (const std::exception&) {
                              *good = false;
                          }
                      },
                      [this, conn, id, key, address, found, good] {
                          if (!*good) {
                              release(conn);
                              return error(conn, id, kBadCredentials);
                          }
                          attempts_.succeeded(key, address);
                          const std::string account = (*found)->name;
                          const std::string token = secure_random_string(32, kHex);
                          on_writer("sign_in",
                                    [account, token, now = now_, ttl = config_.session_ttl_ms](Storage& s) {
                                        s.add_session(account, token, now, now + ttl);
                                    },
                                    [this, conn, id, account, token](const std::optional<StorageError>& e2) {
                                        release(conn);
                                        if (e2) return storage_error(conn, id, *e2);
                                        signed_in(conn, id, account, token, /*registered=*/true, /*returning=*/true);
                                    });
                      });
                  if (!queued) {
                      attempts_.forgive(key, address);
                      release(conn);
                      error(conn, id, kBusy, "too many sign-ins at once; try again");
                  }
              },
              /*write=*/false);
}

void Hall::on_register(ConnId conn, Conn& c, const RegisterRequest& reg, const json& id) {
    if (c.registered) return error(conn, id, kAlreadyRegistered);
    const auto& password = reg.password;
    if (!password) return error(conn, id, to_string(ProtocolError::bad_message), "register needs a password");
    if (!password_length_ok(*password))
        return error(conn, id, kBadPassword,
                     "a password has " + std::to_string(kMinPasswordChars) + " to " + std::to_string(kMaxPasswordChars) + " characters");
    // Registrations never take the whole password queue: sign-ins keep half of it.
    if (const Millis wait = registrations_.wait_ms(c.address, now_); wait > 0)
        return error(conn, id, kTooManyAttempts,
                     "too many registrations from this address; try again in " + std::to_string((wait + 999) / 1000) + " s");
    if (registering_ >= std::max<std::size_t>(1, config_.password_queue / 2))
        return error(conn, id, kBusy, "too many registrations at once; try again");
    registrations_.failed(c.address, now_);
    ++registering_;
    auto hash = std::make_shared<std::string>();
    hold(conn);
    const bool queued = on_passwords(
        [password = *password, hash] {
            try {
                *hash = hash_password(password);
            } catch (const std::exception&) {
                hash->clear();
            }
        },
        [this, conn, id, name = c.name, token_hash = c.token_hash, hash] {
            --registering_;
            if (hash->empty()) {
                release(conn);
                return error(conn, id, kBusy, "the server cannot hash a password now; try again");
            }
            auto done = std::make_shared<bool>(false);
            on_writer("register",
                      [name, token_hash, hash, done, now = now_, ttl = config_.session_ttl_ms](Storage& s) {
                          *done = s.register_password(name, *hash, token_hash, now, now + ttl);
                      },
                      [this, conn, id, name, done](const std::optional<StorageError>& e) {
                          release(conn);
                          if (e) return storage_error(conn, id, *e);
                          if (!*done) return error(conn, id, kAlreadyRegistered);
                          // Every connection of the guest held its token, now this session.
                          if (auto g = guests_.find(name); g != guests_.end())
                              for (ConnId other : g->second.conns)
                                  if (auto it = conns_.find(other); it != conns_.end()) it->second.registered = true;
                          json ok = ok_json();
                          ok["registered"] = true;
                          reply(conn, id, std::move(ok));
                      });
        });
    if (!queued) {
        --registering_;
        release(conn);
        error(conn, id, kBusy, "too many passwords at once; try again");
    }
}

void Hall::on_change_password(ConnId conn, Conn& c, const ChangePasswordRequest& cp, const json& id) {
    if (!c.registered) return error(conn, id, kNotRegistered);
    const auto& current = cp.current;
    const auto& password = cp.password;
    if (!current || !password) return error(conn, id, to_string(ProtocolError::bad_message), "change_password needs current and password");
    if (!password_length_ok(*password))
        return error(conn, id, kBadPassword,
                     "a password has " + std::to_string(kMinPasswordChars) + " to " + std::to_string(kMaxPasswordChars) + " characters");
    const std::string key = name_key(c.name);
    if (auto refused = attempts_refused(key, c.address)) return error(conn, id, kTooManyAttempts, *refused);
    if (current->size() > kMaxPasswordBytes) return error(conn, id, kBadCredentials);
    attempts_.failed(key, c.address, now_);  // until the current password is found right (as sign_in)
    auto found = std::make_shared<std::optional<Credentials>>();
    hold(conn);
    on_writer("change_password", [name = c.name, found](Storage& s) { *found = s.credentials(name); },
              [this, conn, id, key, address = c.address, name = c.name, token_hash = c.token_hash, current = *current,
               password = *password, found](const std::optional<StorageError>& e) {
                  if (e) {
                      attempts_.forgive(key, address);
                      release(conn);
                      return storage_error(conn, id, *e);
                  }
                  const std::string stored = *found ? (*found)->password_hash : std::string();
                  auto hash = std::make_shared<std::optional<std::string>>();  // nullopt: wrong current password
                  const bool queued = on_passwords(
                      [stored, current, password, hash] {
                          try {
                              if (check_password(stored, current)) *hash = hash_password(password);
                          } catch (const std::exception&) {
                              *hash = std::string();
                          }
                      },
                      [this, conn, id, key, address, name, token_hash, hash] {
                          if (!*hash) {
                              release(conn);
                              return error(conn, id, kBadCredentials);
                          }
                          attempts_.forgive(key, address);  // the current password was right
                          if ((*hash)->empty()) {
                              release(conn);
                              return error(conn, id, kBusy, "the server cannot hash a password now; try again");
                          }
                          on_writer("change_password",
                                    [name, token_hash, hash](Storage& s) { s.change_password(name, **hash, token_hash); },
                                    [this, conn, id, name, token_hash](const std::optional<StorageError>& e2) {
                                        release(conn);
                                        if (e2) return storage_error(conn, id, *e2);
                                        close_sessions(name, conn, "", token_hash);  // other devices are signed out
                                        reply(conn, id, ok_json());
                                    });
                      });
                  if (!queued) {
                      attempts_.forgive(key, address);
                      release(conn);
                      error(conn, id, kBusy, "too many passwords at once; try again");
                  }
              },
              /*write=*/false);
}

void Hall::on_sign_out(ConnId conn, Conn& c, const json& id) {
    if (!c.registered) return error(conn, id, kNotRegistered, "a guest's token is its only key to its name; register first");
    hold(conn);
    on_writer("sign_out", [token_hash = c.token_hash](Storage& s) { s.revoke_session(token_hash); },
              [this, conn, id, name = c.name, token_hash = c.token_hash](const std::optional<StorageError>& e) {
                  release(conn);
                  if (e) return storage_error(conn, id, *e);
                  // Other tabs holding this very token are signed out with it.
                  if (!token_hash.empty()) close_sessions(name, conn, token_hash, "");
                  reply(conn, id, ok_json());
              });
}

void Hall::on_sign_out_everywhere(ConnId conn, Conn& c, const json& id) {
    if (!c.registered) return error(conn, id, kNotRegistered, "a guest's token is its only key to its name; register first");
    hold(conn);
    on_writer("sign_out_everywhere", [name = c.name](Storage& s) { s.revoke_sessions(name); },
              [this, conn, id, name = c.name](const std::optional<StorageError>& e) {
                  release(conn);
                  if (e) return storage_error(conn, id, *e);
                  close_sessions(name, conn, "", "");
                  reply(conn, id, ok_json());
              });
}

}  // namespace tarneeb::server
