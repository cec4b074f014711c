// The smallest engine of the engine protocol (docs/engine-protocol.md): it answers every "go"
// with its first legal action and ignores everything else. engine_protocol_bench uses it to
// measure what the protocol itself costs per decision (pipes, text, two context switches).
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.rfind("tarneeb-engine", 0) == 0) {
            std::cout << "id name echo\nid author the tarneeb project (bench)\nready" << std::endl;
        } else if (line.rfind("go ", 0) == 0) {
            const auto at = line.find(" legal ");
            const auto end = line.find(' ', at + 7);
            std::cout << "action " << line.substr(at + 7, end == std::string::npos ? end : end - at - 7) << std::endl;
        } else if (line == "quit") {
            return 0;
        }
    }
    return 0;
}
