#!/usr/bin/env bash
# Fails when a test waits for time instead of for an event, bounds how fast something is, or
# asserts what cannot fail (issue 25: a fast, deterministic test suite). Grep-based: no build.
#
#   scripts/check-test-waits.sh          # from anywhere in the repository
#
# Scans tests/ (*.cpp, *.hpp) and web/e2e/*.mjs, and lists file:line for every
#   - fixed sleep: sleep_for, sleep_until, usleep, nanosleep, Python's time.sleep (C++ tests);
#     waitForTimeout, setTimeout (end-to-end tests);
#   - fixed-time pump: a wait on `[] { return false; }` (it can only end when its time is up),
#     and a bare io_context run_for;
#   - assertion that cannot fail: EXPECT_GE/ASSERT_GE(..., 0) with a literal 0 (say what the
#     value really is: a sentinel, a range, an exact relation);
#   - timed bound: EXPECT_/ASSERT_ LT, LE, GT on something named like a time (ms, _ms, _us,
#     latency, worst(), duration, elapsed, secs, seconds), but for GT 0 (present, not a bound).
# A hit is allowed only when its line, or the line right before it, carries a comment with
# `test-wait:` saying why it is not a synchronisation (the pause of a polling helper, a retry
# back-off, a deliberate race, a liveness bound). Keep those few, and each one justified.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cpp_files=()
while IFS= read -r -d '' f; do cpp_files+=("$f"); done < <(find tests -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z)
web_files=()
if [[ -d web/e2e ]]; then
    while IFS= read -r -d '' f; do web_files+=("$f"); done < <(find web/e2e -maxdepth 1 -type f -name '*.mjs' -print0 | sort -z)
fi

# One awk pass per language: prints "file:line: why: text" for each hit not excused.
scan() {
    local lang="$1"
    shift
    [[ $# -gt 0 ]] || return 0
    awk -v lang="$lang" '
        FNR == 1 { prev = "" }
        {
            line = $0
            why = ""
            if (lang == "cpp") {
                if (line ~ /(sleep_for|sleep_until|usleep|nanosleep)[ \t]*\(/) why = "fixed sleep"
                else if (line ~ /time\.sleep[ \t]*\(/) why = "fixed sleep (Python)"
                else if (line ~ /\[[&=]?\][ \t]*(\(\)[ \t]*)?\{[ \t]*return[ \t]+false;[ \t]*\}/) why = "fixed-time wait on `return false`"
                else if (line ~ /\.run_for[ \t]*\(/) why = "io_context run_for"
                else if (line ~ /(EXPECT|ASSERT)_GE[ \t]*\(.*,[ \t]*0(u|U|ul|UL|ull|ULL|\.0)?[ \t]*\)/) why = "GE 0: cannot fail on a non-negative value"
                else if (line ~ /(EXPECT|ASSERT)_(LT|LE|GT)[ \t]*\(/ &&
                         line ~ /([0-9]ms|_ms|_us|[Ll]atency|worst\(\)|[Dd]uration|elapsed|secs|seconds)/ &&
                         line !~ /_GT[ \t]*\(.*,[ \t]*0(\.0)?[ \t]*\)/) why = "timed bound"  # (x > 0 is no bound)
            } else {
                if (line ~ /waitForTimeout[ \t]*\(/) why = "fixed wait (waitForTimeout)"
                else if (line ~ /setTimeout[ \t]*\(/) why = "timer (setTimeout)"
            }
            if (why != "" && line !~ /test-wait:/ && prev !~ /test-wait:/) {
                sub(/^[ \t]+/, "", line)
                printf "%s:%d: %s: %s\n", FILENAME, FNR, why, line
                hits++
            }
            prev = $0
        }
        END { exit hits > 0 ? 1 : 0 }
    ' "$@"
}

status=0
scan cpp "${cpp_files[@]}" || status=1
scan web "${web_files[@]}" || status=1
if [[ $status -ne 0 ]]; then
    echo "check-test-waits: wait for an event (a message, a pong barrier, a polled condition) with a" >&2
    echo "liveness bound, or say on the line (or the one before) why it is not a synchronisation: // test-wait: ..." >&2
    exit 1
fi
echo "check-test-waits: no fixed waits, timed bounds or assertions that cannot fail (${#cpp_files[@]} C++ and ${#web_files[@]} e2e files)"
