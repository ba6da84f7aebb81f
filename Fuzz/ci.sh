#!/usr/bin/env bash
# CI's fuzzing step (called from .ci/run): replays each target's regressions, then fuzzes it
# for FUZZ_SECONDS (default 30). A crash or invariant failure fails the step and prints the
# reproducer's path (copied to Corpus/regressions/TARGET/, where `swift test` replays it
# from then on).
#
#   Fuzz/ci.sh [--binaries DIR] [--parallel N] [TARGET...]
#
#   --binaries DIR   fuzz the targets already built in DIR (DIR/fuzz-TARGET, as the OSS-Fuzz
#                    build leaves them in $OUT) instead of building them with lib.sh's flags
#   --parallel N     fuzz N targets at once (default 1; one core each). Each target still
#                    gets FUZZ_SECONDS of its own; its output is printed when it finishes.
#
#   Fuzz/ci.sh                      every target, built here, FUZZ_SECONDS each
#   FUZZ_SECONDS=120 Fuzz/ci.sh json page
set -uo pipefail
source "$(dirname "$0")/lib.sh"

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 64; }

seconds="${FUZZ_SECONDS:-30}" binaries="" parallel=1 targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binaries) binaries="${2:?--binaries needs a folder}"; shift
                    [[ -d "$binaries" ]] || { echo "--binaries expects a folder of built targets, got '$binaries' (no such folder)" >&2; exit 64; } ;;
        --parallel) parallel="${2:?--parallel needs a number}"; shift
                    [[ "$parallel" =~ ^[1-9][0-9]*$ ]] || { echo "--parallel expects a number of targets, 1 or more, got '$parallel'" >&2; exit 64; } ;;
        -h|--help) usage ;;
        -*) echo "unknown option $1" >&2; usage ;;
        *) targets+=("$1") ;;
    esac
    shift
done
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(fuzz_targets)

if [[ -z "$binaries" ]]; then
    build_targets -- "${targets[@]}" || { echo "fuzz: build failed" >&2; exit 1; }
fi

# One target: its regressions replayed, then fuzzed; its output goes to $logs/TARGET.log and
# the name of what failed, if anything did, to $logs/TARGET.failed.
run_target() {
    local t="$1" options=()
    exec > "$logs/$t.log" 2>&1
    if [[ -n "$binaries" ]]; then
        [[ -x "$binaries/fuzz-$t" ]] || { echo "fuzz: --binaries $binaries holds no fuzz-$t"; echo "$t (no binary)" > "$logs/$t.failed"; return; }
        options=(--binary "$binaries/fuzz-$t")
    fi
    "$FUZZ_DIR/fuzz.sh" "$t" --replay "${options[@]}" || echo "$t (regression)" >> "$logs/$t.failed"
    "$FUZZ_DIR/fuzz.sh" "$t" "$seconds" "${options[@]}" || echo "$t" >> "$logs/$t.failed"
}

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
# Up to $parallel targets at a time; each one's output is printed whole when it ends.
declare -A names=()
report_one() {
    local pid
    wait -n -p pid || true
    cat "$logs/${names[$pid]}.log"
    unset "names[$pid]"
}
for t in "${targets[@]}"; do
    (( ${#names[@]} < parallel )) || report_one
    run_target "$t" &
    names[$!]="$t"
done
while (( ${#names[@]} > 0 )); do report_one; done

failed=()
for t in "${targets[@]}"; do
    [[ -f "$logs/$t.failed" ]] && mapfile -t -O "${#failed[@]}" failed < "$logs/$t.failed"
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: FAILED: ${failed[*]} (reproducers listed above, under Corpus/regressions/)" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} target(s), ${seconds}s each${binaries:+, built in $binaries}, $parallel at a time, no crash."
