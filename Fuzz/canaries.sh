#!/usr/bin/env bash
# The positive control of fuzzing: how long the fuzz setup takes to find each crash planted
# in the `canary` widget type (FuzzTarget.canary, Sources/FlowWorkloads/Canary.swift).
#
#   Fuzz/canaries.sh [SECONDS]       every canary with each mutator, three runs each (limit
#                                    SECONDS per run, default 60): a table and a chart
#   Fuzz/canaries.sh --ci            CI: the default mutator, one run per canary (a second, with
#                                    another seed, for a miss), the canaries in
#                                    canary-expected-misses.txt left out; exit 1 naming any
#                                    canary neither run found within SECONDS
# Options:
#   --runs N          runs per canary and mutator (default 3; the table gives the median)
#   --mutators LIST   comma-separated: default (FLOW_MUTATOR_SHARE unset), bytes (libFuzzer's
#                     byte mutations only), envelope (structure-aware edits only); default all
#   --canaries LIST   comma-separated numbers 1-8 (default all)
#   --parallel N      runs at a time (default 2)
#   --binary PATH     a built fuzz-canary (default: built with lib.sh's flags)
#   --work DIR        working files (default Fuzz/.work/canaries)
#   --save            also write the table and chart to Fuzz/canary-results.md and .svg (the
#                     committed figures: run with the defaults, on an otherwise idle machine)
#
# Each run starts from the target's seeds alone (no corpus kept between runs), with
# flow.dict and a seed of its own, and stops at the armed canary's crash or at the limit.
# The time to find is the run's wall time, start to crash. Writes in the work folder:
# results.tsv (one line per run), table.md (median time to find and executions per second,
# per canary and mutator) and chart.svg. A crash that is not the armed canary's is a real
# finding: it is reported with its reproducer and fails the run.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 64; }

seconds=60 runs=3 mutators="default,bytes,envelope" canaries="1,2,3,4,5,6,7,8" parallel=2 binary="" ci=0 save=0
work="$FUZZ_DIR/.work/canaries"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift ;;
        --mutators) mutators="${2:?--mutators needs a list}"; shift ;;
        --canaries) canaries="${2:?--canaries needs a list}"; shift ;;
        --parallel) parallel="${2:?--parallel needs a number}"; shift ;;
        --binary) binary="${2:?--binary needs a path}"; shift ;;
        --work) work="${2:?--work needs a folder}"; shift ;;
        --ci) ci=1 ;;
        --save) save=1 ;;
        -h|--help) usage ;;
        -*) echo "canaries.sh: unknown option $1" >&2; usage ;;
        *) seconds="$1" ;;
    esac
    shift
done
[[ "$seconds" =~ ^[0-9]+$ && "$runs" =~ ^[0-9]+$ && "$parallel" =~ ^[0-9]+$ && "$runs" -ge 1 && "$parallel" -ge 1 ]] || usage
IFS=, read -ra mutator_list <<<"$mutators"
IFS=, read -ra canary_list <<<"$canaries"
for m in "${mutator_list[@]}"; do
    [[ "$m" =~ ^(default|bytes|envelope)$ ]] || { echo "canaries.sh: --mutators takes default, bytes and envelope, got '$m'" >&2; exit 64; }
done
for c in "${canary_list[@]}"; do
    [[ "$c" =~ ^[1-8]$ ]] || { echo "canaries.sh: --canaries takes numbers 1-8, got '$c'" >&2; exit 64; }
done

# The one place that lists what the default mutator cannot find yet: CI leaves these out.
misses_file="$FUZZ_DIR/canary-expected-misses.txt"
expected_misses=()
mapfile -t expected_misses < <(sed -e 's/#.*//' "$misses_file" | awk 'NF { print $1 }')
if [[ $ci == 1 ]]; then
    runs=1 mutator_list=(default)
    kept=()
    for c in "${canary_list[@]}"; do
        [[ " ${expected_misses[*]} " == *" $c "* ]] || kept+=("$c")
    done
    canary_list=("${kept[@]}")
    echo "== canaries: ${canary_list[*]} with the default mutator, ${seconds}s each at most; expected misses left out: ${expected_misses[*]:-none} ($misses_file)"
fi

if [[ -z "$binary" ]]; then
    build_targets -- canary
    binary="$(bin_dir)/fuzz-canary"
fi
[[ -x "$binary" ]] || { echo "canaries.sh: --binary expects a built fuzz-canary, got '$binary'" >&2; exit 64; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
check_instrumented "$binary" || exit 1

mkdir -p "$work"
work="$(cd "$work" && pwd)"
rm -rf "$work/runs" && mkdir -p "$work/runs"
FLOW_CANARY=1 write_seeds "$binary" "$work/seeds"
dict="$FUZZ_DIR/flow.dict"

# run_one CANARY MUTATOR RUN: one libFuzzer run; prints its results.tsv line.
run_one() {
    local canary=$1 mutator=$2 run=$3 dir share=() start end status=0 found executions rate elapsed
    dir="$work/runs/c$canary-$mutator-$run"
    mkdir -p "$dir/corpus"
    case "$mutator" in bytes) share=(FLOW_MUTATOR_SHARE=0) ;; envelope) share=(FLOW_MUTATOR_SHARE=100) ;; esac
    start=$(date +%s.%N)
    (cd "$dir" && env FLOW_CANARY="$canary" "${share[@]}" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -dict="$dict" -seed=$((1000 * canary + run)) -artifact_prefix="$dir/" -print_final_stats=1 \
        "$dir/corpus" "$work/seeds") >"$dir/log" 2>&1 || status=$?
    end=$(date +%s.%N)
    elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
    if grep -q "^==flow-canary== canary $canary " "$dir/log"; then
        found=yes
    elif [[ $status -ne 0 ]]; then
        found=error
    else
        found=no
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$canary" "$mutator" "$run" "$found" "$elapsed" "${executions:-0}" "${rate:-0}"
}

results="$work/results.tsv"
printf 'canary\tmutator\trun\tfound\tseconds\texecutions\texec_per_s\n' >"$results"
total=$(( ${#canary_list[@]} * ${#mutator_list[@]} * runs ))
echo "== $total run(s), $parallel at a time, at most ${seconds}s each; working files in $work"
# launch CANARY MUTATOR RUN: run_one in the background, at most $parallel at a time; its
# line goes to results.tsv, a line for people to the terminal.
launch() {
    while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do wait -n || true; done
    ( line=$(run_one "$1" "$2" "$3"); echo "$line" >>"$results"
      IFS=$'\t' read -r _ _ _ found elapsed _ rate <<<"$line"
      echo "   canary $1, $2, run $3: $( [[ $found == yes ]] && echo "found in ${elapsed}s" || echo "$found after ${elapsed}s") ($rate exec/s)" ) &
}
for r in $(seq 1 "$runs"); do
    for m in "${mutator_list[@]}"; do
        for c in "${canary_list[@]}"; do launch "$c" "$m" "$r"; done
    done
done
wait
# CI gives a canary its first run's miss one more run, with another seed, before failing: a
# broken mutator misses twice, a slow draw rarely does.
if [[ $ci == 1 ]]; then
    retry=$(awk -F'\t' 'NR > 1 && $4 == "no" { print $1 }' "$results" | sort -n | paste -sd' ')
    if [[ -n "$retry" ]]; then
        echo "== not found in the first run: canary $retry; one more run each, with another seed"
        for c in $retry; do launch "$c" default 2; done
        wait
    fi
fi

commit="$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
python3 "$FUZZ_DIR/canaries.py" "$work" --limit "$seconds" \
    --stamp "$(date -u +%Y-%m-%d), commit $commit, $(nproc) cores, $runs run(s) per canary and mutator, $parallel at a time, ${seconds} s limit"
if [[ $save == 1 ]]; then
    cp "$work/table.md" "$FUZZ_DIR/canary-results.md"
    cp "$work/chart.svg" "$FUZZ_DIR/canary-results.svg"
    echo "saved: $FUZZ_DIR/canary-results.md and canary-results.svg"
fi

status=0
errors=$(awk -F'\t' 'NR > 1 && $4 == "error" { print $1 "-" $2 "-" $3 }' "$results")
if [[ -n "$errors" ]]; then
    echo "canaries.sh: a run crashed on something other than its canary: a real finding, or a broken build:" >&2
    for e in $errors; do
        echo "   $work/runs/c$e/log" >&2
        grep -hE '^==flow-fuzz==|^  - |ERROR: ' "$work/runs/c$e/log" | head -8 | sed 's/^/     /' >&2
        ls "$work/runs/c$e"/crash-* 2>/dev/null | sed 's/^/     reproducer: /' >&2
    done
    status=1
fi
if [[ $ci == 1 ]]; then
    missed=$(awk -F'\t' 'NR > 1 { seen[$1] = 1; if ($4 == "yes") found[$1] = 1 } END { for (c in seen) if (!found[c]) print c }' "$results" | sort -n | paste -sd' ')
    if [[ -n "$missed" ]]; then
        echo "canaries.sh: FAILED: the default mutator did not find canary $missed within ${seconds}s in two runs; it is expected to (it is not in $misses_file). Is the mutator or the harness broken? Logs in $work/runs/" >&2
        status=1
    fi
fi
exit $status
