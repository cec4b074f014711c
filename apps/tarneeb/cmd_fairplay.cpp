// tarneeb fairplay: the fair-play report over game records (issue 27; docs/fairplay.md).
//
// Determinism: record k's tally depends only on its text and --seed; tallies are stored by k
// and the report is built from them in file order, so the output is the same whatever --threads.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "tarneeb/fairplay/report.hpp"

namespace tarneeb::cli {

namespace {

namespace fs = std::filesystem;

struct FairplayOptions {
    std::vector<std::string> paths;
    bool json = false;
    fairplay::ReportOptions report;
    std::uint64_t seed = 1;
    int threads = 1;
};

/// The record files named by `paths`: a file as it is, a directory's *.json files (not its
/// subdirectories), each directory's in name order. False (with a message) for a missing path.
bool record_files(const std::vector<std::string>& paths, std::vector<fs::path>& out) {
    for (const std::string& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<fs::path> found;
            for (const auto& entry : fs::directory_iterator(p, ec))
                if (entry.is_regular_file() && entry.path().extension() == ".json") found.push_back(entry.path());
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(p, ec)) {
            out.emplace_back(p);
        } else {
            std::cerr << "tarneeb fairplay: no such file or directory '" << p << "'\n";
            return false;
        }
    }
    return true;
}

int run_fairplay(const FairplayOptions& o) {
    std::vector<fs::path> files;
    if (!record_files(o.paths, files)) return kExitUsage;
    if (files.empty()) {
        std::cerr << "tarneeb fairplay: no record files (*.json) given\n";
        return kExitUsage;
    }
    std::vector<fairplay::MatchTally> tallies(files.size());
    std::vector<std::string> errors(files.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t k = next++; k < files.size(); k = next++) {
            std::ifstream in(files[k], std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            if (!in) {
                errors[k] = "cannot read the file";
                continue;
            }
            if (auto why = fairplay::tally_record(text.str(), files[k].string(), o.seed, tallies[k])) errors[k] = *why;
        }
    };
    std::vector<std::thread> pool;
    const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(files.size())));
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
    for (auto& t : pool) t.join();

    std::vector<fairplay::MatchTally> counted;
    bool rejected = false;
    for (std::size_t k = 0; k < files.size(); ++k) {
        if (errors[k].empty()) {
            counted.push_back(std::move(tallies[k]));
        } else {
            rejected = true;
            std::cerr << "tarneeb fairplay: " << files[k].string() << ": " << errors[k] << " (not counted)\n";
        }
    }
    const fairplay::Report report = fairplay::build_report(counted, o.report);
    if (o.json) std::cout << fairplay::report_json(report).dump(2) << "\n";
    else std::cout << fairplay::report_text(report);
    return rejected ? kExitRejected : kExitOk;
}

}  // namespace

void add_fairplay(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("fairplay", "Fair-play report: how often each player and partnership found the double-dummy best card");
    cmd->footer(
        "Reads tarneeb-record/1 files (a directory: its *.json files). Players are a record's\n"
        "\"players\" (as the server stores them), else PATH#SEAT (the file's path as found: each seat of\n"
        "each file its own player). For each player: its non-obvious card decisions (the legal cards do\n"
        "not all have the same double-dummy value), how many were a double-dummy best card, and a\n"
        "z-score against the other players of its rating band (records carry no ratings, so here: all\n"
        "other players); flagged at z >= --threshold with at least\n"
        "--min-decisions decisions. For each partnership the same on the hidden-dependent decisions\n"
        "(the best card changes when the unseen cards are dealt again), both partners together.\n"
        "Definitions and limits: docs/fairplay.md. --json prints one JSON object.\n"
        "Exit status: 0 report printed, 1 some record was rejected (the others are reported),\n"
        "2 usage error (bad flags, no such file, no records).");
    auto o = std::make_shared<FairplayOptions>();
    cmd->add_option("records", o->paths, "record files or directories")->required();
    cmd->add_flag("--json", o->json, "print one JSON object");
    cmd->add_option("--min-decisions", o->report.min_decisions, "decisions needed to be scored or flagged")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--threshold", o->report.threshold, "flag at z >= this")->capture_default_str()->check(CLI::Range(0.0, 100.0));
    cmd->add_option("--band-width", o->report.band_width, "Elo points per rating band")->capture_default_str()
        ->check(CLI::Range(1.0, 10000.0));
    cmd->add_option("--min-band", o->report.min_band, "players a rating band needs to be its own population")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--seed", o->seed, "seed of the re-dealt layouts (default 1)");
    cmd->add_option("--threads", o->threads, "records solved at once (default 1; DDS has 2 thread slots)")
        ->check(CLI::Range(1, 16));
    cmd->callback([o, &exit_code] { exit_code = run_fairplay(*o); });
}

}  // namespace tarneeb::cli
