// tarneeb replay FILE|- : check a tarneeb-record/1 and print its tarneeb-result/1.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "commands.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb::cli {

void add_replay(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("replay", "Check a game record (tarneeb-record/1) and print its result JSON");
    cmd->footer(
        "Prints one tarneeb-result/1 JSON object (docs/record-format.md).\n"
        "Exit status: 0 the record is legal (complete or not), 1 it is rejected, 2 usage error.");
    auto file = std::make_shared<std::string>();
    auto pretty = std::make_shared<bool>(false);
    cmd->add_option("file", *file, "record file, or - for standard input")->required();
    cmd->add_flag("--pretty", *pretty, "indent the JSON");
    cmd->callback([file, pretty, &exit_code] {
        std::string text;
        if (*file == "-") {
            text.assign(std::istreambuf_iterator<char>(std::cin), {});
        } else {
            std::ifstream in(*file, std::ios::binary);
            if (!in) {
                std::cerr << "tarneeb replay: cannot read '" << *file << "'\n";
                exit_code = kExitUsage;
                return;
            }
            std::ostringstream ss;
            ss << in.rdbuf();
            text = ss.str();
        }
        const records::Replay result = records::replay(text);
        std::cout << records::result_json(result).dump(*pretty ? 2 : -1) << "\n";
        exit_code = result.error ? kExitRejected : kExitOk;
    });
}

}  // namespace tarneeb::cli
