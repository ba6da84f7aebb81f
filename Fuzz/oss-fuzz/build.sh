#!/bin/bash -eu
# OSS-Fuzz build script (https://google.github.io/oss-fuzz/getting-started/new-project-guide/):
# compiles every fuzz target of flow-core and lays out $OUT the way the runners expect:
#
#   $OUT/fuzz-<target>                   the libFuzzer binary
#   $OUT/fuzz-<target>_seed_corpus.zip   its seed corpus (Corpus/, JSONTestSuite, generated)
#   $OUT/fuzz-<target>.dict              its dictionary
#   $OUT/fuzz-<target>.options           libFuzzer options (dict, timeout)
#
# Conventions: $SRC holds the checkout ($SRC/flow-core, or FLOW_SRC), $OUT receives the
# results, $WORK is scratch (the build goes to $WORK/flow-core-build). Under the Swift base
# builder the sanitizers come from its variables (see below) and our coverage flags are added
# to them; without them (a plain local run) lib.sh's FUZZ_COMPILE_FLAGS are used.
# Locally, with temporary folders:
#
#   SRC=$(mktemp -d) OUT=$(mktemp -d) WORK=$(mktemp -d)
#   cp -R . "$SRC/flow-core"; SRC=$SRC OUT=$OUT WORK=$WORK Fuzz/oss-fuzz/build.sh
: "${SRC:?set SRC}" "${OUT:?set OUT}" "${WORK:?set WORK}"
project="${FLOW_SRC:-$SRC/flow-core}"
source "$project/Fuzz/lib.sh"

# In OSS-Fuzz's Swift base builder (OSS-Fuzz and ClusterFuzzLite alike) precompile_swift,
# sourced, puts the Swift symbolizer in $OUT and exports the flags for $SANITIZER in two
# forms: SWIFTFLAGS for packages whose swift-tools-version is before 6.2, SWIFT6_2FLAGS for
# 6.2 and later.
if [[ -z "${SWIFTFLAGS:-}${SWIFT6_2FLAGS:-}" && -n "${SANITIZER:-}" ]]; then
    for dir in ${PATH//:/ }; do
        # shellcheck disable=SC1091
        if [[ -f "$dir/precompile_swift" ]]; then source "$dir/precompile_swift"; break; fi
    done
fi

# The variable that fits the fuzz package's tools version; the other when only that one is
# set (a base builder from before 6.2 exports SWIFTFLAGS alone).
tools="$(sed -nE '1s|^// *swift-tools-version: *([0-9]+\.[0-9]+).*|\1|p' "$FUZZ_DIR/Package.swift")"
if [[ "$(printf '%s\n' "${tools:-0}" 6.2 | sort -V | head -1)" == 6.2 ]]; then
    base_variable=SWIFT6_2FLAGS other_variable=SWIFTFLAGS
else
    base_variable=SWIFTFLAGS other_variable=SWIFT6_2FLAGS
fi
[[ -n "${!base_variable:-}" ]] || base_variable=$other_variable

# swift_build_flags WORD...: the base builder's flags as `swift build` needs them for our
# executables. SwiftPM links an executable target against its renamed entry point
# (fuzz_<target>_main) unless it is told itself that libFuzzer provides main: a sanitizer
# passed to swiftc alone (-Xswiftc -sanitize=fuzzer,address, as in SWIFTFLAGS) links, then
# fails on that missing symbol. So every sanitizer becomes SwiftPM's --sanitize=NAME (once
# each); -Xswiftc -parse-as-library is left out because every fuzz target declares it in
# Fuzz/Package.swift (it concerns only the entry points); every other flag (the static
# standard library, -Xcc=/-Xcxx= from $CFLAGS/$CXXFLAGS, the coverage build's profiling
# flags) passes as it is.
swift_build_flags() {
    local kept=() sanitizers=() names s
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
    printf '%s\n' "${kept[@]}"
}

scratch="$WORK/flow-core-build"
if [[ -n "${!base_variable:-}" ]]; then
    # shellcheck disable=SC2086
    mapfile -t base < <(swift_build_flags ${!base_variable})
    # Ours on top: without -sanitize-coverage Swift 6.3 compiles no coverage counters, and
    # libFuzzer would run blind ("Is the code instrumented for coverage?").
    flags=(-c release "${base[@]}" "${FUZZ_COVERAGE_FLAGS[@]}")
    echo "== flags from \$$base_variable (swift-tools-version ${tools:-unknown}): ${flags[*]}"
else
    # FUZZ_COMPILE_FLAGS: FUZZ_BUILD_FLAGS without their scratch path (this build has its own).
    flags=("${FUZZ_COMPILE_FLAGS[@]}")
fi
# The runners have no Swift toolchain: link the Swift runtime and Foundation statically.
flags+=(--static-swift-stdlib --scratch-path "$scratch")

mapfile -t targets < <(fuzz_targets)
for t in "${targets[@]}"; do
    echo "== building fuzz-$t"
    (cd "$FUZZ_DIR" && swift build "${flags[@]}" --product "fuzz-$t")
done
bin="$(cd "$FUZZ_DIR" && swift build "${flags[@]}" --show-bin-path)"

for t in "${targets[@]}"; do
    name="fuzz-$t"
    cp "$bin/$name" "$OUT/$name"
    seeds="$WORK/seeds-$t"
    write_seeds "$bin/$name" "$seeds"
    if [[ -d "$REPO_ROOT/Corpus/regressions/$t" ]]; then
        regression_files "$t" | while read -r f; do cp "$f" "$seeds/regression_$(basename "$f")"; done
    fi
    rm -f "$OUT/${name}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
    cp "$(dict_for "$t")" "$OUT/$name.dict"
    printf '[libfuzzer]\ndict = %s.dict\ntimeout = 25\nrss_limit_mb = 2560\n' "$name" > "$OUT/$name.options"
    echo "== $name: $(unzip -l "$OUT/${name}_seed_corpus.zip" | tail -1 | awk '{print $2}') seeds"
done
