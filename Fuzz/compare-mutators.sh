#!/usr/bin/env bash
# The envelope mutator against libFuzzer's byte mutations: same binary, same seeds, the
# mutator's share the only difference (fuzz.sh --mutator).
#
#   Fuzz/compare-mutators.sh [SECONDS] [RUNS] [TARGET...]
#       default: 300 s a run, 3 runs a mode, targets page and one-bad-widget
#   MODES="mix bytes" (default): the --mutator modes compared (envelope, bytes, mix, 0-100)
#
# Run N of every mode goes side by side (one process per mode, libFuzzer -seed=N for each),
# so the cores they share with anything else are shared alike; each run has its own --work
# folder, Fuzz/.work/compare/TARGET-MODE-N (its corpus, seeds, run.log), and its own
# regressions folder there (a find is reported, not copied into Corpus/). Every 5 s the last
# `cov:`/`ft:` of each run.log is sampled. After the runs, Fuzz/coverage.sh replays each run's
# corpus and seeds for the line coverage of Sources/FlowCore and Sources/FlowJSON.
#
# Writes, in Fuzz/.work/compare/: samples.tsv (target mode run seconds execs cov ft),
# results.tsv (target mode run cov ft execs flowcore_lines flowjson_lines), and, with
# python3 and matplotlib, chart.png (cov and ft over time, one line per run) and the table
# of medians (compare-mutators.py).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

seconds="${1:-300}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(page one-bad-widget)
read -ra modes <<<"${MODES:-mix bytes}"
out="$FUZZ_DIR/.work/compare"
mkdir -p "$out"

build_targets -- "${targets[@]}"
bin="$(bin_dir)"

# sample LOG TARGET MODE RUN: appends the last cov/ft line of LOG every 5 s while it grows.
sample() {
    local start=$SECONDS line
    while sleep 5; do
        [[ -f "$1" ]] || continue
        line=$(grep -E '^#[0-9]+[[:space:]]' "$1" | grep 'cov:' | tail -1 || true)
        [[ -n "$line" ]] || continue
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" $((SECONDS - start)) \
            "$(grep -oE '^#[0-9]+' <<<"$line" | tr -d '#')" \
            "$(grep -oE 'cov: [0-9]+' <<<"$line" | grep -oE '[0-9]+')" \
            "$(grep -oE 'ft: [0-9]+' <<<"$line" | grep -oE '[0-9]+')" >>"$out/samples.tsv"
    done
}

printf 'target\tmode\trun\tseconds\texecs\tcov\tft\n' >"$out/samples.tsv"
printf 'target\tmode\trun\tcov\tft\texecs\tflowcore_lines\tflowjson_lines\n' >"$out/results.tsv"
for t in "${targets[@]}"; do
    for n in $(seq 1 "$runs"); do
        pids=() samplers=()
        for m in "${modes[@]}"; do
            work="$out/$t-$m-$n"
            rm -rf "$work" && mkdir -p "$work"
            echo "== $t, mode $m, run $n: ${seconds}s in $work"
            FUZZ_ARGS="-seed=$n" "$FUZZ_DIR/fuzz.sh" "$t" "$seconds" --binary "$bin/fuzz-$t" --mutator "$m" \
                --work "$work" --regressions "$work/regressions" >"$work/summary.txt" 2>&1 &
            pids+=($!)
            sample "$work/run.log" "$t" "$m" "$n" &
            samplers+=($!)
        done
        for p in "${pids[@]}"; do wait "$p" || echo "   (a run exited non-zero: see its summary.txt)"; done
        for s in "${samplers[@]}"; do kill "$s" 2>/dev/null || true; done
    done
done

# Line coverage of each run's corpus (its finds and the seeds it started from).
for t in "${targets[@]}"; do
    for n in $(seq 1 "$runs"); do
        for m in "${modes[@]}"; do
            work="$out/$t-$m-$n"
            summary=$(grep 'coverage:' "$work/summary.txt" || true)
            execs=$(grep 'executions:' "$work/summary.txt" | grep -oE '[0-9]+' || echo 0)
            row=$("$FUZZ_DIR/coverage.sh" "$t" "$work/corpus" "$work/seeds" 2>"$work/coverage.log" | grep -E "^$t " || true)
            lines=($(grep -oE '[0-9.]+%' <<<"$row" || true))
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$m" "$n" \
                "$(grep -oE 'cov: [0-9]+' <<<"$summary" | grep -oE '[0-9]+')" \
                "$(grep -oE 'ft: [0-9]+' <<<"$summary" | grep -oE '[0-9]+')" "$execs" \
                "${lines[0]:-n/a}" "${lines[1]:-n/a}" | tee -a "$out/results.tsv"
        done
    done
done

if python3 -c 'import matplotlib' 2>/dev/null; then
    python3 "$FUZZ_DIR/compare-mutators.py" "$out"
else
    echo "no matplotlib: the chart is left out (pip install matplotlib, then python3 $FUZZ_DIR/compare-mutators.py $out)"
fi
