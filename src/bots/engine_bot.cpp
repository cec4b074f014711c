// An outside engine as a computer player (include/tarneeb/bots/engine_bot.hpp).
#include "tarneeb/bots/engine_bot.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace tarneeb::bots {

namespace {

using Clock = EngineProcess::Clock;
using std::chrono::milliseconds;

/// `text` in double quotes for a log line: quotes and backslashes escaped, control bytes as
/// \xNN, cut after 200 bytes.
std::string quoted(std::string_view text) {
    std::string out = "\"";
    const std::size_t n = std::min<std::size_t>(text.size(), 200);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (text.size() > n) out += "...";
    return out + "\"";
}

const char* level_name(EngineLogLevel l) {
    switch (l) {
        case EngineLogLevel::debug: return "debug";
        case EngineLogLevel::info: return "info";
        case EngineLogLevel::warn: return "warn";
        case EngineLogLevel::error: return "error";
    }
    return "?";
}

}  // namespace

void log_to_stderr(EngineLogLevel level, const std::string& line) {
    if (level == EngineLogLevel::debug) return;
    const std::string text = std::string(level_name(level)) + " " + line + "\n";
    std::fwrite(text.data(), 1, text.size(), stderr);
}

std::string_view to_string(EngineFault f) {
    switch (f) {
        case EngineFault::start: return "start";
        case EngineFault::handshake: return "handshake";
        case EngineFault::crash: return "crash";
        case EngineFault::timeout: return "timeout";
        case EngineFault::garbage: return "garbage";
        case EngineFault::illegal: return "illegal";
    }
    return "?";
}

EngineBot::EngineBot(EngineConfig config, std::uint64_t seed) : config_(std::move(config)), seed_(seed) {
    config_.max_faults = std::max(1, config_.max_faults);
}

EngineBot::~EngineBot() {
    if (process_) process_->stop("quit\n", milliseconds(config_.quit_ms));
}

void EngineBot::log(EngineLogLevel level, const std::string& text) const {
    const std::string line = "engine=" + quoted(config_.name) + " " + text;
    if (config_.log) config_.log(level, line);
    else log_to_stderr(level, line);
}

bool EngineBot::declared(std::string_view name) const {
    return std::any_of(declared_.begin(), declared_.end(), [name](const EngineOption& o) { return o.name == name; });
}

void EngineBot::new_match(std::uint64_t seed) {
    seed_ = seed;
    faults_ = 0;
    fallback_.reset();
    feed_.reset();  // the next sync starts with newmatch
    if (!process_) return;  // a (re)start sends the seed after its handshake
    process_->pump_stderr();
    if (declared("seed") && !process_->send(setoption_line("seed", std::to_string(seed_))))
        fault(EngineFault::crash, nullptr, "", "it stopped reading its stdin");
}

bool EngineBot::start() {
    if (process_) return true;
    if (fallback_) return false;
    return launch(Clock::now() + milliseconds(config_.startup_ms), nullptr);
}

bool EngineBot::launch(Clock::time_point deadline, const SeatView* view) {
    std::string error;
    auto process = EngineProcess::start(
        config_.argv, config_.limits,
        [this](std::string_view line) { log(EngineLogLevel::info, "event=stderr line=" + quoted(line)); }, error);
    ++starts_;
    if (!process) {
        fault(EngineFault::start, view, "", error);
        return false;
    }
    process_ = std::move(process);
    feed_.reset();
    if (starts_ > 1) log(EngineLogLevel::warn, "event=restart pid=" + std::to_string(process_->pid()) + " starts=" + std::to_string(starts_));
    id_name_.clear();
    id_author_.clear();
    declared_.clear();
    if (!process_->send(hello_line())) {
        fault(EngineFault::crash, view, "", "it closed its stdin at once");
        return false;
    }
    std::string line;
    for (;;) {
        line.clear();
        switch (process_->read_line(line, deadline)) {
            case EngineProcess::Read::timeout:
                fault(EngineFault::handshake, view, line, "no ready within " + std::to_string(config_.startup_ms) + " ms");
                return false;
            case EngineProcess::Read::closed:
                fault(EngineFault::crash, view, line, "it exited during the handshake");
                return false;
            case EngineProcess::Read::too_long:
                fault(EngineFault::handshake, view, line, "a line longer than 64 KiB");
                return false;
            case EngineProcess::Read::line: break;
        }
        const EngineLine l = parse_engine_line(line);
        switch (l.kind) {
            case EngineLine::Kind::id_name: id_name_ = l.text; continue;
            case EngineLine::Kind::id_author: id_author_ = l.text; continue;
            case EngineLine::Kind::option: declared_.push_back(l.option); continue;
            case EngineLine::Kind::info: log(EngineLogLevel::debug, "event=info line=" + quoted(l.text)); continue;
            case EngineLine::Kind::ready: break;
            case EngineLine::Kind::error:
                fault(EngineFault::handshake, view, line, "the engine gave up");
                return false;
            default:
                fault(EngineFault::handshake, view, line, "not a handshake line");
                return false;
        }
        break;
    }
    std::string setup;
    if (declared("seed")) setup += setoption_line("seed", std::to_string(seed_));
    for (const auto& [n, v] : config_.options) {
        if (declared(n)) setup += setoption_line(n, v);
        else log(EngineLogLevel::warn, "event=unknown_option option=" + quoted(n));
    }
    if (!setup.empty() && !process_->send(setup)) {
        fault(EngineFault::crash, view, "", "it exited after its handshake");
        return false;
    }
    log(EngineLogLevel::info, "event=started pid=" + std::to_string(process_->pid()) + " id=" + quoted(id_name_) +
                                  " author=" + quoted(id_author_));
    return true;
}

void EngineBot::fault(EngineFault kind, const SeatView* view, std::string_view line, const std::string& detail) {
    ++faults_;
    std::string status;
    if (process_) {
        process_->stop({}, milliseconds(kind == EngineFault::crash ? config_.quit_ms : 0));
        status = " status=" + quoted(process_->exit_status());
        process_.reset();
    }
    feed_.reset();
    std::string text = "event=fault fault=" + std::string(to_string(kind));
    if (view) text += " seat=" + std::to_string(index(view->seat()));
    text += " line=" + quoted(line) + " detail=" + quoted(detail) + status + " faults=" + std::to_string(faults_);
    if (view) text += " played=" + quoted(action_token(view->default_action()));
    log(EngineLogLevel::error, text);
    if (faults_ >= config_.max_faults && !fallback_) {
        fallback_ = make_bot(config_.fallback, seed_);
        if (!fallback_) fallback_ = make_bot("heuristic", seed_);
        log(EngineLogLevel::error, "event=replaced by=" + quoted(fallback_->name()) + " faults=" + std::to_string(faults_));
    } else if (!fallback_) {
        log(EngineLogLevel::warn, "event=will_restart faults=" + std::to_string(faults_) + " of " +
                                      std::to_string(config_.max_faults));
    }
}

void EngineBot::fail(EngineFault kind, const SeatView& view, std::string_view line, const std::string& detail) {
    fault(kind, &view, line, detail);
    throw EngineError(kind, config_.name + ": " + std::string(to_string(kind)));
}

void EngineBot::observe(const SeatView& view, Seat, Action) {
    if (!process_) return;  // told everything again from the view when it (re)starts
    const std::string lines = feed_.sync(view);
    // Not this seat's turn: no default action is played for it, so no view in the log line.
    if (!lines.empty() && !process_->send(lines)) {
        fault(EngineFault::crash, nullptr, "", "it stopped reading its stdin");
        return;
    }
    process_->pump_stderr();
}

Action EngineBot::ask(const SeatView& view) {
    if (fallback_) return fallback_->decide(view);
    if (!process_ && !launch(Clock::now() + milliseconds(config_.startup_ms), &view))
        throw EngineError(EngineFault::start, config_.name + ": could not start");
    // Lines the engine wrote unasked, read along with an earlier answer, are dropped: an
    // answer must follow its "go" (exactly one per go; docs/engine-protocol.md).
    std::string line;
    while (process_->try_line(line)) {
        const EngineLine l = parse_engine_line(line);
        if (l.kind == EngineLine::Kind::info) log(EngineLogLevel::debug, "event=info line=" + quoted(l.text));
        else log(EngineLogLevel::warn, "event=unexpected line=" + quoted(line));
    }
    const auto asked = Clock::now();
    const auto deadline = asked + milliseconds(config_.budget_ms + config_.grace_ms);
    if (!process_->send(feed_.sync(view) + go_line(view, config_.budget_ms)))
        fail(EngineFault::crash, view, "", "it stopped reading its stdin");
    for (;;) {
        line.clear();  // a timeout has no offending line (an earlier info line is not one)
        switch (process_->read_line(line, deadline)) {
            case EngineProcess::Read::timeout:
                fail(EngineFault::timeout, view, line,
                     "no answer within " + std::to_string(config_.budget_ms) + " + " + std::to_string(config_.grace_ms) + " ms");
            case EngineProcess::Read::closed: fail(EngineFault::crash, view, line, "it exited");
            case EngineProcess::Read::too_long: fail(EngineFault::garbage, view, line, "a line longer than 64 KiB");
            case EngineProcess::Read::line: break;
        }
        const EngineLine l = parse_engine_line(line);
        if (l.kind == EngineLine::Kind::info) {
            log(EngineLogLevel::debug, "event=info line=" + quoted(l.text));
            continue;
        }
        if (l.kind != EngineLine::Kind::action) fail(EngineFault::garbage, view, line, "not an answer to go");
        const auto a = parse_action_token(l.text, view.phase());
        if (!a) fail(EngineFault::garbage, view, line, "not an action of this phase");
        if (const ErrorCode e = view.check(*a); e != ErrorCode::ok)
            fail(EngineFault::illegal, view, line, std::string(to_string(e)) + "; legal: " + legal_tokens(view));
        return *a;
    }
}

std::optional<EngineConfig> engine_config(std::string_view command, EngineConfig defaults) {
    EngineConfig c = std::move(defaults);
    c.name = std::string(command);
    if (command.starts_with("sh:")) {
        const std::string_view script = command.substr(3);
        if (script.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
        c.argv = {"/bin/sh", "-c", std::string(script)};
        return c;
    }
    auto words = split_command(command);
    if (!words || words->empty()) return std::nullopt;
    c.argv = std::move(*words);
    return c;
}

std::unique_ptr<Bot> make_player(std::string_view spec, std::uint64_t seed, const EngineConfig& defaults) {
    if (spec.starts_with(kEnginePrefix)) {
        auto config = engine_config(spec.substr(kEnginePrefix.size()), defaults);
        if (!config) return nullptr;
        return std::make_unique<EngineBot>(std::move(*config), seed);
    }
    return make_bot(spec, seed);
}

std::optional<std::string> player_error(std::string_view spec) {
    // (Built with append: GCC 12 warns falsely on operator+ chains here, bug 105329.)
    std::string why;
    if (spec.starts_with(kEnginePrefix)) {
        if (engine_config(spec.substr(kEnginePrefix.size()))) return std::nullopt;
        why.append("'").append(spec).append("': no command, or a quote that does not close");
        return why;
    }
    if (make_bot(spec, 0)) return std::nullopt;
    why.append("unknown bot '").append(spec).append("' (one of: ").append(bot_names()).append(", or engine:COMMAND)");
    return why;
}

}  // namespace tarneeb::bots
