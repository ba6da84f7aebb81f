#!/usr/bin/env bash
# Fuzz one target with libFuzzer: build it, seed it, run it, summarise.
#
#   Fuzz/fuzz.sh TARGET [SECONDS] [--jobs N]   fuzz (default 60 s); N parallel workers
#   Fuzz/fuzz.sh TARGET --merge                minimise the working corpus (-merge=1)
#   Fuzz/fuzz.sh TARGET --replay               run Corpus/regressions/TARGET only
#   Fuzz/fuzz.sh TARGET|all --coverage [CORPUS...]   line coverage of its inputs (Fuzz/coverage.sh)
#   Fuzz/fuzz.sh --list                        the targets
#   Fuzz/fuzz.sh TARGET --canary [SECONDS]     the positive control (default 60 s): the run
#                       must find a crash planted in a widget type added to the target
#                       (FLOW_FUZZ_CANARY=1; a host's target, FuzzTarget.host, adds it);
#                       exit 0 when found, 1 when not: the fuzzing does not reach registered types
# Options for a team's own pages and fuzz targets (README, "Your own pages and widget types"):
#   --seeds DIR         also seed from DIR's files (captured pages; repeatable; read only)
#   --binary PATH       fuzz this already built target (a host's), named TARGET in reports;
#                       it must be a fuzz build (Fuzz/lib.sh's FUZZ_BUILD_FLAGS), or the run fails
#   --dict FILE         add FILE's entries (libFuzzer dictionary format) to the target's
#                       dictionary (repeatable; combined in the work folder)
#   --regressions DIR   reproducers go to, and --replay reads, DIR (default Corpus/regressions/TARGET)
#   --work DIR          working files in DIR (default Fuzz/.work/TARGET)
#   --mutator MODE      how inputs are mutated (page-shaped targets): envelope (structure-aware
#                       edits whenever the input parses), bytes (libFuzzer's byte mutations
#                       only), mix (the default share of each), or a number: the percentage of
#                       envelope edits. Sets FLOW_MUTATOR_SHARE for the binary.
#
# Working files live in Fuzz/.work/TARGET/ (gitignored): corpus/ (what libFuzzer found,
# kept between runs), seeds/ (rewritten each run), artifacts/, run.log (fuzz-N.log with
# --jobs). A crash, leak, timeout or out-of-memory input is copied to
# Corpus/regressions/TARGET/ (kept forever; `swift test` replays it) and fails the run, as
# does a run that checked nothing: no input executed, or no coverage counters loaded.
# Environment: FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# --coverage is coverage.sh's job (a build and arguments of its own): the rest goes to it.
for arg in "$@"; do
    if [[ "$arg" == --coverage ]]; then
        rest=()
        for a in "$@"; do [[ "$a" == --coverage ]] || rest+=("$a"); done
        exec "$FUZZ_DIR/coverage.sh" "${rest[@]}"
    fi
done

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 64; }

target="" seconds=60 jobs=1 mode=fuzz binary="" regressions="" work="" extra_seeds=() extra_dicts=()
# A folder named on the command line, checked and made absolute (the run cds into $work).
folder() { [[ -d "$1" ]] || { echo "$2 expects a folder, got '$1' (no such folder)" >&2; exit 64; }; (cd "$1" && pwd); }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --list) fuzz_targets; exit 0 ;;
        --seeds) extra_seeds+=("$(folder "${2:?--seeds needs a folder}" --seeds)"); shift ;;
        --binary) binary="${2:?--binary needs a path}"; shift ;;
        --dict) [[ -f "${2:?--dict needs a file}" ]] || { echo "--dict expects a file, got '$2' (no such file)" >&2; exit 64; }
                extra_dicts+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift ;;
        --regressions) mkdir -p "${2:?--regressions needs a folder}"; regressions="$(folder "$2" --regressions)"; shift ;;
        --work) mkdir -p "${2:?--work needs a folder}"; work="$(folder "$2" --work)"; shift ;;
        --mutator) case "${2:?--mutator needs envelope, bytes, mix or a percentage}" in
                       envelope) export FLOW_MUTATOR_SHARE=100 ;;
                       bytes) export FLOW_MUTATOR_SHARE=0 ;;
                       mix) unset FLOW_MUTATOR_SHARE ;;
                       *) [[ "$2" =~ ^[0-9]+$ && "$2" -le 100 ]] || { echo "--mutator expects envelope, bytes, mix or 0-100, got '$2'" >&2; exit 64; }
                          export FLOW_MUTATOR_SHARE="$2" ;;
                   esac; shift ;;
        --jobs) jobs="${2:?--jobs needs a number}"; shift ;;
        --jobs=*) jobs="${1#--jobs=}" ;;
        --merge) mode=merge ;;
        --canary) mode=canary; export FLOW_FUZZ_CANARY=1 ;;
        --replay) mode=replay ;;
        -h|--help) usage ;;
        -*) echo "unknown option $1" >&2; usage ;;
        *) if [[ -z "$target" ]]; then target="$1"; else seconds="$1"; fi ;;
    esac
    shift
done
[[ -n "$target" ]] || usage
[[ "$seconds" =~ ^[0-9]+$ && "$jobs" =~ ^[0-9]+$ && "$jobs" -ge 1 ]] || usage

if [[ -n "$binary" ]]; then
    [[ -x "$binary" ]] || { echo "--binary expects a built fuzz target, got '$binary' (not an executable file)" >&2; exit 64; }
    binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
else
    is_target "$target" || { echo "unknown target '$target'; targets: $(fuzz_targets | tr '\n' ' ') (or name a built one with --binary)" >&2; exit 64; }
    build_targets -- "$target"
    binary="$(bin_dir)/fuzz-$target"
fi
check_instrumented "$binary" || exit 1
work="${work:-$FUZZ_DIR/.work/$target}"
# The control fuzzes from the seeds alone, in a folder of its own: its corpus and its
# expected crash stay out of the target's.
[[ "$mode" == canary ]] && work="$work/canary" && rm -rf "$work"
regressions="${regressions:-$REPO_ROOT/Corpus/regressions/$target}"
mkdir -p "$work/corpus" "$work/artifacts"

# The target's dictionary, plus --dict files: libFuzzer takes one -dict.
dict="$(dict_for "$target")"
if [[ ${#extra_dicts[@]} -gt 0 ]]; then
    cat "$dict" "${extra_dicts[@]}" >"$work/dict"
    dict="$work/dict"
fi

# Also proves the target can start (a host's pages folder found and not empty) before a
# replay or a merge, which would otherwise report on whatever inputs there are.
write_seeds "$binary" "$work/seeds"

if [[ "$mode" == replay ]]; then
    mapfile -t files < <(regression_files "$target" "$regressions")
    if [[ ${#files[@]} -eq 0 ]]; then echo "$target: no regression inputs"; exit 0; fi
    echo "== replaying ${#files[@]} regression input(s) of $target"
    status=0
    for f in "${files[@]}"; do
        if "$binary" "$f" >"$work/replay.log" 2>&1; then echo "ok    $f"; else
            echo "FAIL  $f"; grep -E '^==flow-fuzz==|^  - |ERROR: ' "$work/replay.log" | head -20; status=1
        fi
    done
    exit $status
fi

inputs=("$work/corpus" "$work/seeds" "${extra_seeds[@]}")
[[ -n "$(regression_files "$target" "$regressions")" ]] && inputs+=("$regressions")
# The control starts from the target's own seeds (with FLOW_FUZZ_CANARY set: its control
# page's) and nothing else.
[[ "$mode" == canary ]] && inputs=("$work/corpus" "$work/seeds")

if [[ "$mode" == merge ]]; then
    rm -rf "$work/corpus.merged" && mkdir -p "$work/corpus.merged"
    before=$(find "$work/corpus" -type f | wc -l)
    "$binary" -merge=1 -dict="$dict" "$work/corpus.merged" "${inputs[@]}" >"$work/merge.log" 2>&1
    rm -rf "$work/corpus" && mv "$work/corpus.merged" "$work/corpus"
    echo "$target: corpus merged from $before to $(find "$work/corpus" -type f | wc -l) inputs ($(du -sh --apparent-size "$work/corpus" | cut -f1))"
    exit 0
fi

shopt -s nullglob
before_artifacts=$(ls "$work/artifacts" | sort)
rm -f "$work"/fuzz-*.log "$work/run.log"
flags=(-max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=4096
       -dict="$dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1)
[[ "$jobs" -gt 1 ]] && flags+=(-jobs="$jobs" -workers="$jobs")
# shellcheck disable=SC2206
extra=(${FUZZ_ARGS:-})
echo "== fuzzing $target for ${seconds}s ($jobs job(s), mutator share ${FLOW_MUTATOR_SHARE:-default}); log: $work/run.log"
status=0
started=$(date +%s.%N)
(cd "$work" && "$binary" "${flags[@]}" "${extra[@]}" "${inputs[@]}") >"$work/run.log" 2>&1 || status=$?

if [[ "$mode" == canary ]]; then
    elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/run.log" | tail -1)
    if grep -q '^==flow-canary== ' "$work/run.log"; then
        echo "== $target positive control: found the planted crash in ${elapsed}s (${executions:-?} executions):"
        echo "   $(grep -m1 '^==flow-canary== ' "$work/run.log" | sed 's/^==flow-canary== //')"
        echo "   this build fuzzes with coverage and reaches the widget types its registry holds"
        exit 0
    fi
    echo "$target: FAILED: the positive control found nothing in ${seconds}s (${executions:-0} executions, libFuzzer exit $status):" >&2
    echo "   a widget type added to the registry, with a number out of its range planted, was not reached;" >&2
    echo "   does the target decode through FuzzTarget.host, and fuzz its pages? Log: $work/run.log" >&2
    grep -hE '^==flow-fuzz==|^  - |^==[0-9]+==ERROR|^SUMMARY' "$work/run.log" | head -10 | sed 's/^/   /' >&2
    exit 1
fi

# Summary: libFuzzer's final stats (every job's, with --jobs).
logs=("$work/run.log")
[[ "$jobs" -gt 1 ]] && logs=("$work"/fuzz-*.log)
executions=0 rate=0 cov=0 ft=0 corps=()
for log in "${logs[@]}"; do
    e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ -z "$e" ]]; then e=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true); fi
    line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED|RELOAD)' "$log" | grep 'cov:' | tail -1 || true)
    c=$(grep -oE 'cov: [0-9]+' <<<"$line" | grep -oE '[0-9]+' || true)
    f=$(grep -oE 'ft: [0-9]+' <<<"$line" | grep -oE '[0-9]+' || true)
    p=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$line" | cut -d' ' -f2 || true)
    [[ -n "$p" ]] && corps+=("$p")
    executions=$((executions + ${e:-0})); rate=$((rate + ${r:-0}))
    [[ "${c:-0}" -gt "$cov" ]] && cov=$c
    [[ "${f:-0}" -gt "$ft" ]] && ft=$f
done
new_artifacts=$(comm -13 <(echo "$before_artifacts") <(ls "$work/artifacts" | sort) | grep -E '^(crash|leak|timeout|oom)-' || true)
echo "== $target summary"
echo "   executions:  $executions"
echo "   exec/s:      $rate"
echo "   coverage:    cov: $cov ft: $ft"
corp=$(IFS=,; echo "${corps[*]:-n/a}")
echo "   corpus:      libFuzzer corp: $corp (inputs/bytes per job); $(find "$work/corpus" -type f | wc -l) files ($(du -sh --apparent-size "$work/corpus" | cut -f1)) in $work/corpus"
if [[ -n "$new_artifacts" ]]; then
    echo "   crashes:     $(wc -l <<<"$new_artifacts")"
    mkdir -p "$regressions"
    while read -r a; do
        cp "$work/artifacts/$a" "$regressions/$a"
        echo "     reproducer: $regressions/$a"
        echo "     replay:     $binary $regressions/$a"
    done <<<"$new_artifacts"
    grep -hE '^==flow-fuzz==|^  - |^==[0-9]+==ERROR|^SUMMARY' "${logs[@]}" | head -20 | sed 's/^/     /'
    exit 1
fi
echo "   crashes:     0"

# A run that checked nothing is a failure, not a pass: no input executed, or libFuzzer saw no
# coverage (no counters loaded, or its warning that nothing it ran was interesting).
problems=()
[[ "$executions" -gt 0 ]] || problems+=("no input was executed (executions: 0)")
for log in "${logs[@]}"; do
    counters=$(sed -nE 's/^INFO: Loaded [0-9]+ modules? +\(([0-9]+) inline 8-bit counters\).*/\1/p' "$log" | head -1)
    [[ "${counters:-0}" -gt 0 ]] || problems+=("$log: libFuzzer loaded no coverage counters (no 'INFO: Loaded N modules (M inline 8-bit counters)' with M > 0)")
    if grep -q 'Is the code instrumented for coverage' "$log"; then
        problems+=("$log: libFuzzer found no interesting input ('Is the code instrumented for coverage?')")
    fi
done
if [[ ${#problems[@]} -gt 0 ]]; then
    echo "$target: FAILED: not a real fuzzing run:" >&2
    printf '   %s\n' "${problems[@]}" >&2
    echo "   Is $binary a fuzz build (Fuzz/lib.sh's FUZZ_BUILD_FLAGS), and does it start? See ${logs[*]:-$work/run.log}" >&2
    exit 1
fi
if [[ $status -ne 0 ]]; then echo "libFuzzer exited with $status (see ${logs[*]})" >&2; exit "$status"; fi
