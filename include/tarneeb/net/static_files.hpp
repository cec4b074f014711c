// Which file `tarneeb serve --static DIR` may send for an HTTP target (docs/operations.md
// "Static files"). Boost-free so that it is tested without sockets (tests/net/static_files_test.cpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace tarneeb::server {

/// The longest request target (path and query, before decoding) a static file is looked up for.
inline constexpr std::size_t kMaxStaticTarget = 1024;

/// Maps the request target `target` (as sent: "/", "/app.js?v=3", "/assets/a%20b.css") to the
/// regular file it names under `root`, or nullopt (the caller answers 404).
///
/// The query ("?...") and fragment ("#...") are dropped; the path is percent-decoded once; a
/// path ending in "/" names its "index.html". Refused (nullopt): targets longer than
/// kMaxStaticTarget, a malformed escape ("%" not followed by two hex digits), a decoded NUL,
/// control character, backslash or "%" (no second decoding), an empty segment ("//"), a segment
/// "." or ".." or any other segment starting with "." (hidden files), a path that does not exist
/// or is not a regular file, a path that resolves (after following every symlink) outside the
/// canonical `root`, and any file in `forbidden` (compared after resolving both; for each
/// forbidden path P, the SQLite companions P-wal, P-shm and P-journal are forbidden too).
/// Never throws: a file-system error is a refusal. Returns the canonical path of the file.
std::optional<std::filesystem::path> resolve_static(const std::filesystem::path& root, std::string_view target,
                                                    const std::vector<std::filesystem::path>& forbidden);

}  // namespace tarneeb::server
