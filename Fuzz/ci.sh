#!/usr/bin/env bash
# CI's fuzzing step (called from .ci/run after the tests): builds every registered target,
# replays its regressions, then fuzzes each for FUZZ_SECONDS (default 30). A crash or
# invariant failure fails the step and prints the reproducer's path (copied to
# Corpus/regressions/TARGET/, where `swift test` replays it from then on).
#
#   Fuzz/ci.sh                      every target, FUZZ_SECONDS each
#   FUZZ_SECONDS=120 Fuzz/ci.sh json page
set -uo pipefail
source "$(dirname "$0")/lib.sh"

seconds="${FUZZ_SECONDS:-30}"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(fuzz_targets)

build_targets -- "${targets[@]}" || { echo "fuzz: build failed" >&2; exit 1; }

failed=()
for t in "${targets[@]}"; do
    "$FUZZ_DIR/fuzz.sh" "$t" --replay || failed+=("$t (regression)")
    "$FUZZ_DIR/fuzz.sh" "$t" "$seconds" || failed+=("$t")
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: FAILED: ${failed[*]} (reproducers listed above, under Corpus/regressions/)" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} target(s), ${seconds}s each, no crash."
