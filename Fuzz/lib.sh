# Shared by fuzz.sh, ci.sh and oss-fuzz/build.sh: where things are, how a target is built.
# shellcheck shell=bash

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(dirname "$FUZZ_DIR")"

# The toolchain's libFuzzer and AddressSanitizer. `-sanitize=fuzzer` alone links libFuzzer
# but (Swift 6.3.1, SwiftPM) compiles without coverage counters, so libFuzzer would fuzz
# blind: ask for inline 8-bit counters, the PC table and comparison tracing explicitly. The
# -Xswiftc flags reach every module, the library's included. FLOW_FUZZING leaves out a fuzz
# target's stand-in `main` (which a plain build links, and which only says how to build it).
# FUZZ_COVERAGE_FLAGS are the coverage part alone: Fuzz/oss-fuzz/build.sh adds them to the
# sanitizer flags OSS-Fuzz's base builder chooses.
FUZZ_COVERAGE_FLAGS=(-Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DFLOW_FUZZING)
FUZZ_COMPILE_FLAGS=(-c release --sanitize=fuzzer --sanitize=address "${FUZZ_COVERAGE_FLAGS[@]}")
# The same, built in .build/fuzz of the package (run from its folder): beside a plain
# `swift build -c release` in .build, so that neither rebuilds the other's modules.
FUZZ_BUILD_FLAGS=("${FUZZ_COMPILE_FLAGS[@]}" --scratch-path .build/fuzz)

# Swift's own crash backtracer runs after an oracle's abort() and trips AddressSanitizer while
# reading memory: libFuzzer's report is the one we want.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# LeakSanitizer's suppressions for every fuzz run (lsan-suppressions.txt): memory the Swift
# runtime keeps for the process's life, which it reports as leaked where the standard library
# is linked statically (the OSS-Fuzz build's binaries, which CI fuzzes).
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$FUZZ_DIR/lsan-suppressions.txt"

# AddressSanitizer's quarantine for every fuzz run: 64 MB of freed memory held back from
# reuse, not the default 256 MB. A use after free is still caught unless 64 MB were freed
# between the free and the use, more than an execution of a page-shaped target frees on the
# inputs measured; what the smaller quarantine saves is the cache and page misses of a heap
# that never reuses warm memory (Fuzz/README.md, "Where an execution goes"). A caller's own
# ASAN_OPTIONS come after, so theirs win.
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

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

# The pages Fuzz/pages.manifest names (relative to the repository root), one per line, in order.
fuzz_pages() {
    awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$FUZZ_DIR/pages.manifest"
}

# copy_fuzz_pages DIR: the manifest and the pages it names into DIR (replaced), laid out as the
# repository (DIR/Fuzz/pages.manifest, DIR/Corpus/pages/...): a binary's <binary>.pages/,
# which it reads before the checkout (FuzzPages+Manifest.swift).
copy_fuzz_pages() {
    local p
    rm -rf "$1" && mkdir -p "$1/Fuzz"
    cp "$FUZZ_DIR/pages.manifest" "$1/Fuzz/pages.manifest"
    while read -r p; do
        mkdir -p "$1/$(dirname "$p")" && cp "$REPO_ROOT/$p" "$1/$p" || return 1
    done < <(fuzz_pages)
}

# check_instrumented BINARY: fails, saying how to build it, unless BINARY links libFuzzer
# (its driver, fuzzer::FuzzerDriver, or LLVMFuzzerRunDriver) and carries coverage counters (the __sancov_cntrs section
# the compiler emits for inline 8-bit counters). A plain `swift build` of a fuzz target has
# neither: it would run no input, or run inputs without coverage feedback. (Without nm the
# check is skipped; fuzz.sh's checks after a run still fail a blind run.)
check_instrumented() {
    local nm symbols missing=()
    nm="$(command -v nm || command -v llvm-nm)" || { echo "no nm or llvm-nm: cannot check that $1 is a fuzz build" >&2; return 0; }
    symbols="$("$nm" "$1" 2>/dev/null)" || { echo "$1: cannot read its symbols with $nm" >&2; return 1; }
    grep -qE ' (_ZN6fuzzer12FuzzerDriver|LLVMFuzzerRunDriver)' <<<"$symbols" || missing+=("libFuzzer (-sanitize=fuzzer)")
    grep -q ' __start___sancov_cntrs$' <<<"$symbols" || missing+=("coverage counters (-sanitize-coverage=inline-8bit-counters)")
    [[ ${#missing[@]} -eq 0 ]] && return 0
    local lacks
    lacks="$(printf '%s and ' "${missing[@]}")"
    echo "$1 is not a fuzz build: it lacks ${lacks% and }, so fuzzing it would check nothing." >&2
    echo "Build it, from its package's folder, with" >&2
    echo "    source $FUZZ_DIR/lib.sh" >&2
    echo "    swift build \"\${FUZZ_BUILD_FLAGS[@]}\" --product $(basename "$1")" >&2
    echo "and pass --binary \"\$(swift build \"\${FUZZ_BUILD_FLAGS[@]}\" --show-bin-path)/$(basename "$1")\"" >&2
    return 1
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

# check_fuzzes BINARY SEEDS_DIR [RUNS]: runs BINARY on its seeds (and RUNS, default 500, inputs
# more) and fails unless libFuzzer loaded coverage counters and measured coverage: its
# "INFO: Loaded N modules (M inline 8-bit counters)" with M > 0 and a "cov: C" with C > 0.
# Prints what it found. A build that links libFuzzer without instrumenting the code passes
# check_instrumented's symbols test only in part, and fails here. It checks the build, not
# the code: leak detection is off (a leak is a finding for the fuzzing runs, and the Swift
# runtime's type-name cache, kept for the process's life, reads as one under a static
# standard library), and a crash's reproducer goes to a temporary folder, reported.
check_fuzzes() {
    local log counters cov status=0 artifacts
    log="$(mktemp)" artifacts="$(mktemp -d)"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        "$1" -runs="${3:-500}" -max_total_time=60 -timeout=25 -rss_limit_mb=4096 -detect_leaks=0 \
            -artifact_prefix="$artifacts/" "$2" >"$log" 2>&1 || status=$?
    counters=$(sed -nE 's/^INFO: Loaded [0-9]+ modules? +\(([0-9]+) inline 8-bit counters\).*/\1/p' "$log" | head -1)
    cov=$(grep -oE ' cov: [0-9]+' "$log" | grep -oE '[0-9]+' | sort -n | tail -1 || true)
    echo "$(basename "$1"): exit $status, ${counters:-no} inline 8-bit counters loaded, cov: ${cov:-none}"
    if [[ $status -ne 0 || "${counters:-0}" -eq 0 || "${cov:-0}" -eq 0 ]] || grep -q 'Is the code instrumented for coverage' "$log"; then
        echo "$(basename "$1") does not fuzz with coverage; its libFuzzer output:" >&2
        sed 's/^/    /' "$log" | tail -30 >&2
        ls "$artifacts"/* 2>/dev/null | sed 's/^/    reproducer: /' >&2
        rm -f "$log"
        return 1
    fi
    rm -rf "$log" "$artifacts"
}

# base_builder_flags PACKAGE_SWIFT: sets BASE_BUILDER_FLAGS to the `swift build` flags for a
# fuzz build under OSS-Fuzz's Swift base builder (OSS-Fuzz and ClusterFuzzLite alike), whose
# precompile_swift exports the flags for $SANITIZER in two forms: SWIFTFLAGS for packages
# whose swift-tools-version is before 6.2, SWIFT6_2FLAGS for 6.2 and later. It takes the one
# that fits PACKAGE_SWIFT's tools version (the other when only that one is set: a base builder
# from before 6.2 exports SWIFTFLAGS alone), and returns 1 when neither is set.
#
# SwiftPM links an executable target against its renamed entry point (<module>_main) unless
# it is told itself that libFuzzer provides main: a sanitizer passed to swiftc alone
# (-Xswiftc -sanitize=fuzzer,address, as in SWIFTFLAGS) links, then fails on that missing
# symbol. So every sanitizer becomes SwiftPM's --sanitize=NAME (once each). -Xswiftc
# -parse-as-library is left out: it concerns only the entry points, and every fuzz target
# declares it in its package. Every other flag (the static standard library, -Xcc=/-Xcxx=
# from $CFLAGS/$CXXFLAGS, the coverage build's profiling flags) passes as it is, and
# FUZZ_COVERAGE_FLAGS go on top: without -sanitize-coverage Swift 6.3 compiles no coverage
# counters, and libFuzzer would run blind ("Is the code instrumented for coverage?").
base_builder_flags() {
    local tools variable other words kept=() sanitizers=() names s
    tools="$(sed -nE '1s|^// *swift-tools-version: *([0-9]+\.[0-9]+).*|\1|p' "$1")"
    if [[ "$(printf '%s\n' "${tools:-0}" 6.2 | sort -V | head -1)" == 6.2 ]]; then
        variable=SWIFT6_2FLAGS other=SWIFTFLAGS
    else
        variable=SWIFTFLAGS other=SWIFT6_2FLAGS
    fi
    [[ -n "${!variable:-}" ]] || variable=$other
    [[ -n "${!variable:-}" ]] || return 1
    read -ra words <<<"${!variable}"
    set -- "${words[@]}"
    while (( $# )); do
        if [[ "$1" == -Xswiftc && "${2:-}" == -sanitize=* ]]; then
            IFS=, read -ra names <<<"${2#-sanitize=}"; sanitizers+=("${names[@]}"); shift 2
        elif [[ "$1" == -Xswiftc && "${2:-}" == -parse-as-library ]]; then
            shift 2
        elif [[ "$1" == -Xswiftc ]]; then
            kept+=("$1" "${2:-}"); shift 2
        elif [[ "$1" == --sanitize=* ]]; then
            IFS=, read -ra names <<<"${1#--sanitize=}"; sanitizers+=("${names[@]}"); shift
        else
            kept+=("$1"); shift
        fi
    done
    for s in $(printf '%s\n' "${sanitizers[@]}" | awk '!seen[$0]++'); do kept+=("--sanitize=$s"); done
    BASE_BUILDER_FLAGS=(-c release "${kept[@]}" "${FUZZ_COVERAGE_FLAGS[@]}")
    echo "== flags from \$$variable (swift-tools-version ${tools:-unknown}): ${BASE_BUILDER_FLAGS[*]}" >&2
}
