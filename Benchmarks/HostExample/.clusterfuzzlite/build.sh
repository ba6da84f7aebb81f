#!/bin/bash -eu
# ClusterFuzzLite (or OSS-Fuzz) build of a host package's fuzz targets (template: copy
# .clusterfuzzlite/ to your package's root and list your targets below). For each target
# `fuzz-<name>` it leaves in $OUT what the runners expect: the libFuzzer binary, its seed
# corpus zip (the seeds the binary lists: its pages and the slots of each), its dictionary
# (flow-core's page dictionary plus <name>.dict of the package when there is one) and an
# options file.
#
# The flags are flow-core's (Fuzz/lib.sh of the flow-core the package resolved): the
# sanitizers the Swift base builder exports for $SANITIZER (SWIFTFLAGS or SWIFT6_2FLAGS,
# whichever fits the package's tools version) with flow-core's coverage flags on top; without
# the base builder (a local run), lib.sh's own sanitizer flags. Locally:
#
#   SRC=$(mktemp -d) OUT=$(mktemp -d) WORK=$(mktemp -d) HOST_SRC=$PWD .clusterfuzzlite/build.sh
#
# The runners have $OUT, not the source tree: the pages folder is copied beside each binary
# as fuzz-<name>.pages/, where FuzzTarget.host(name:registry:pagesFolder:…) finds it first
# (after the environment variable, which the runners do not set).
: "${SRC:?set SRC}" "${OUT:?set OUT}" "${WORK:?set WORK}"
# The fuzz targets, without their fuzz- prefix.
targets=(price-tag)
# The folder of pages the targets splice into, relative to the package.
pages=pages
host="${HOST_SRC:-$SRC/host}"
cd "$host"

# flow-core's checkout, as the package resolved it (a path dependency or .build/checkouts/):
# the dependency that has Fuzz/lib.sh.
core=""
while read -r path; do
    if [[ -f "$path/Fuzz/lib.sh" ]]; then core="$path"; break; fi
done < <(swift package show-dependencies --format json | sed -nE 's/^ *"path" *: *"([^"]*)".*/\1/p')
[[ -n "$core" ]] || { echo "build.sh: no dependency of $host has Fuzz/lib.sh (is flow-core a dependency?)" >&2; exit 1; }
source "$core/Fuzz/lib.sh"

# The base builder's precompile_swift, when it has not been sourced yet.
if [[ -z "${SWIFTFLAGS:-}${SWIFT6_2FLAGS:-}" && -n "${SANITIZER:-}" ]]; then
    for dir in ${PATH//:/ }; do
        # shellcheck disable=SC1091
        if [[ -f "$dir/precompile_swift" ]]; then source "$dir/precompile_swift"; break; fi
    done
fi
if base_builder_flags "$host/Package.swift"; then
    flags=("${BASE_BUILDER_FLAGS[@]}")
else
    flags=("${FUZZ_COMPILE_FLAGS[@]}")
fi
# The runners have no Swift toolchain: link the Swift runtime and Foundation statically.
flags+=(--static-swift-stdlib --scratch-path "$WORK/host-build")

for t in "${targets[@]}"; do
    echo "== building fuzz-$t"
    swift build "${flags[@]}" --product "fuzz-$t"
done
bin="$(swift build "${flags[@]}" --show-bin-path)"
for t in "${targets[@]}"; do
    name="fuzz-$t"
    cp "$bin/$name" "$OUT/$name"
    rm -rf "$OUT/$name.pages" && cp -R "$host/$pages" "$OUT/$name.pages"
    seeds="$WORK/seeds-$t"
    write_seeds "$bin/$name" "$seeds"
    rm -f "$OUT/${name}_seed_corpus.zip"
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
    cat "$core/Fuzz/flow.dict" > "$OUT/$name.dict"
    if [[ -f "$host/$t.dict" ]]; then cat "$host/$t.dict" >> "$OUT/$name.dict"; fi
    printf '[libfuzzer]\ndict = %s.dict\ntimeout = 25\nrss_limit_mb = 2560\n' "$name" > "$OUT/$name.options"
    echo "== $name: $(unzip -l "$OUT/${name}_seed_corpus.zip" | tail -1 | awk '{print $2}') seeds"
done
