// What the tests of outside engines through the real executable share (engine_cli_test.cpp,
// engine_simulate_test.cpp): a fresh temporary directory, the example engines as engine:CMD,
// a file's text, and counting a part of a log.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../cli_util.hpp"

#define REQUIRE_PYTHON() \
    if (std::string(TARNEEB_PYTHON).empty()) GTEST_SKIP() << "no python3 found by CMake"

namespace tarneeb::test {

/// An empty directory under the system's temporary directory, named after `name` and this
/// process.
inline std::filesystem::path temp_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() / ("tarneeb_engine_cli_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

/// engine:"PYTHON examples/engines/SCRIPT ARGS", quoted for the shell that runs the test command.
inline std::string engine(const std::string& script, const std::string& args = "") {
    return "'engine:" + std::string(TARNEEB_PYTHON) + " " + TARNEEB_EXAMPLES + "/engines/" + script +
           (args.empty() ? "" : " " + args) + "'";
}

/// The whole text of `f` ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// How many times `part` occurs in `text`, not overlapping.
inline int count(const std::string& text, const std::string& part) {
    int n = 0;
    for (std::size_t at = 0; (at = text.find(part, at)) != std::string::npos; at += part.size()) ++n;
    return n;
}

/// Time limits no loaded machine reaches (a Python engine took more than the default 2 s to
/// start while CI's two cores were busy): the tests of engines that behave are about what
/// they play, not how fast; the fault tests set their own budget.
inline const std::string kPatient = " --engine-startup-ms 30000 --engine-budget-ms 10000";

}  // namespace tarneeb::test
