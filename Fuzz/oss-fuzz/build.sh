#!/bin/bash -eu
# OSS-Fuzz build script (https://google.github.io/oss-fuzz/getting-started/new-project-guide/):
# compiles every fuzz target of flow-core and lays out $OUT the way the runners expect:
#
#   $OUT/fuzz-<target>                   the libFuzzer binary
#   $OUT/fuzz-<target>.pages/            the fuzz pages it reads at start (Fuzz/pages.manifest
#                                        and the files it names, laid out as in the checkout)
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
# sourced, puts the Swift symbolizer in $OUT and exports the flags for $SANITIZER.
if [[ -z "${SWIFTFLAGS:-}${SWIFT6_2FLAGS:-}" && -n "${SANITIZER:-}" ]]; then
    for dir in ${PATH//:/ }; do
        # shellcheck disable=SC1091
        if [[ -f "$dir/precompile_swift" ]]; then source "$dir/precompile_swift"; break; fi
    done
fi

scratch="$WORK/flow-core-build"
# The base builder's flags for the fuzz package's tools version, with our coverage flags
# on top (lib.sh's base_builder_flags).
if base_builder_flags "$FUZZ_DIR/Package.swift"; then
    flags=("${BASE_BUILDER_FLAGS[@]}")
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
    # The runners have $OUT, not this tree: the binary reads its pages from beside it. Every
    # binary gets them (json and decodable read none today), so none depends on the tree.
    copy_fuzz_pages "$OUT/$name.pages"
    seeds="$WORK/seeds-$t"
    # The binary in $OUT, so the seeds come from the pages it will fuzz with.
    write_seeds "$OUT/$name" "$seeds"
    if [[ -d "$REPO_ROOT/Corpus/regressions/$t" ]]; then
        regression_files "$t" | while read -r f; do cp "$f" "$seeds/regression_$(basename "$f")"; done
    fi
    rm -f "$OUT/${name}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
    cp "$(dict_for "$t")" "$OUT/$name.dict"
    printf '[libfuzzer]\ndict = %s.dict\ntimeout = 25\nrss_limit_mb = 2560\n' "$name" > "$OUT/$name.options"
    echo "== $name: $(unzip -l "$OUT/${name}_seed_corpus.zip" | tail -1 | awk '{print $2}') seeds"
done
