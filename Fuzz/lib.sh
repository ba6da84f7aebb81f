# Shared by fuzz.sh, ci.sh and oss-fuzz/build.sh: where things are, how a target is built.
# shellcheck shell=bash

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$FUZZ_DIR")"

# The toolchain's libFuzzer and AddressSanitizer. `-sanitize=fuzzer` alone links libFuzzer
# but (Swift 6.3.1, SwiftPM) compiles without coverage counters, so libFuzzer would fuzz
# blind: ask for inline 8-bit counters, the PC table and comparison tracing explicitly. The
# -Xswiftc flags reach every module, the library's included.
FUZZ_BUILD_FLAGS=(-c release --sanitize=fuzzer --sanitize=address
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp)

# Swift's own crash backtracer runs after an oracle's abort() and trips AddressSanitizer while
# reading memory: libFuzzer's report is the one we want.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# The registered targets, from the list in Fuzz/Package.swift (one per line).
fuzz_targets() {
    sed -n 's/^let fuzzTargets = \[\(.*\)\]/\1/p' "$FUZZ_DIR/Package.swift" | tr -d '" ' | tr ',' '\n'
}

is_target() {
    local t
    for t in $(fuzz_targets); do [[ "$t" == "$1" ]] && return 0; done
    return 1
}

# The dictionary of a target: Fuzz/<target>.dict, else the page-contract one, flow.dict.
dict_for() {
    if [[ -f "$FUZZ_DIR/$1.dict" ]]; then echo "$FUZZ_DIR/$1.dict"; else echo "$FUZZ_DIR/flow.dict"; fi
}

# build_targets [SWIFT BUILD ARGS...] -- TARGET...: one `swift build` per product (SwiftPM
# builds one --product at a time; the second and later only compile their entry point).
build_targets() {
    local args=() t
    while [[ $# -gt 0 && "$1" != "--" ]]; do args+=("$1"); shift; done
    shift
    for t in "$@"; do
        echo "== building fuzz-$t" >&2
        (cd "$FUZZ_DIR" && swift build "${FUZZ_BUILD_FLAGS[@]}" "${args[@]}" --product "fuzz-$t") >&2 || return 1
    done
}

bin_dir() {
    (cd "$FUZZ_DIR" && swift build "${FUZZ_BUILD_FLAGS[@]}" "$@" --show-bin-path)
}

# write_seeds BINARY DIR: the target's seed corpus (Corpus/ files, JSONTestSuite when beside
# the clone, structure-aware seeds made in code), as the binary itself lists it.
write_seeds() {
    rm -rf "$2"
    FLOW_FUZZ_WRITE_SEEDS="$2" FLOW_FUZZ_ROOT="$REPO_ROOT" "$1" >/dev/null
}

# The files of Corpus/regressions/TARGET, or of the folder DIR when given (README aside),
# one per line: regression_files TARGET [DIR].
regression_files() {
    local dir="${2:-$REPO_ROOT/Corpus/regressions/$1}"
    [[ -d "$dir" ]] || return 0
    find "$dir" -maxdepth 1 -type f ! -name 'README*' ! -name '.*' | sort
}
