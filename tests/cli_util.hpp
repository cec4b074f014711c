// Running the real `tarneeb` executable (TARNEEB_BINARY) from a test, as a user would.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace tarneeb::test {

struct Result {
    int status = -1;   ///< exit status, or -1 if the process did not exit normally
    std::string out;   ///< everything written to standard output
};

/// Runs `tarneeb ARGS` through the shell (so ARGS may redirect), capturing standard output.
inline Result run(const std::string& args) {
    const std::string cmd = std::string(TARNEEB_BINARY) + " " + args;
    Result r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace tarneeb::test
