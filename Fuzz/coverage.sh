#!/usr/bin/env bash
# Source coverage of fuzz targets: which lines of flow-core their inputs reach.
#
#   Fuzz/coverage.sh TARGET [CORPUS...]   one target (also: Fuzz/fuzz.sh TARGET --coverage [CORPUS...])
#   Fuzz/coverage.sh all                  every target, then all of them together, as a table
#   Fuzz/coverage.sh TARGET|all --seeds-only   its seeds alone
#   Fuzz/coverage.sh TARGET|all --committed    its seeds and Corpus/regressions/TARGET (what CI prints)
#   Fuzz/coverage.sh --help
#
# Builds the target with -profile-generate -profile-coverage-mapping (debug, in
# Fuzz/.build/fuzz-coverage: a scratch path of its own, so it never mixes with the fuzz build
# or a plain one), replays the inputs through libFuzzer's driver (-runs=0: every file run
# once, nothing generated), merges the profiles with llvm-profdata and writes, under
# Fuzz/.work/coverage/TARGET/ (`all` for the union):
#   report.txt     llvm-cov report: per file, regions, functions and lines
#   html/          llvm-cov show -format=html (open html/index.html)
#   summary.json   llvm-cov export -summary-only
# and prints the line coverage of Sources/FlowCore and Sources/FlowJSON.
#
# CORPUS: files or folders to replay. Default: the target's seeds (as the binary writes them;
# none is an error), its working corpus Fuzz/.work/TARGET/corpus and Corpus/regressions/TARGET,
# whichever exist. --seeds-only: the seeds alone; --committed: the seeds and the committed
# regressions (the folder must exist), without the working corpus. Either keeps the figures
# from moving with what earlier fuzzing on this machine found; --committed reaches what the
# kept finds reach too. With `all`, each target replays its inputs as chosen here.
# Needs llvm-profdata and llvm-cov beside `swift` in the toolchain, and python3.
# Exit status: 0 done; 1 failure (build, no inputs, a replay that failed, llvm tools missing);
# 64 usage.
set -euo pipefail
# A failing tool inside a function or $(...) fails the run too, not a row of wrong numbers.
shopt -s inherit_errexit
source "$(dirname "$0")/lib.sh"

usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit "${1:-64}"; }

# inputs_from: "" (seeds, working corpus, regressions), seeds (--seeds-only) or committed
# (--committed: seeds and regressions); option: the one given, for messages.
target="" corpus=() inputs_from="" option=""
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage 0 ;;
        --seeds-only|--committed)
            [[ -z "$option" || "$option" == "$arg" ]] || { echo "$option and $arg choose the inputs two ways: pass one" >&2; exit 64; }
            option="$arg"
            if [[ "$arg" == --seeds-only ]]; then inputs_from=seeds; else inputs_from=committed; fi ;;
        -*) echo "unknown option $arg" >&2; usage ;;
        *) if [[ -z "$target" ]]; then target="$arg"; else corpus+=("$arg"); fi ;;
    esac
done
[[ -n "$target" ]] || usage
case "$inputs_from" in
    seeds) what="the seeds" ;;
    committed) what="the seeds and the committed regressions" ;;
esac
[[ -z "$option" || ${#corpus[@]} -eq 0 ]] || { echo "$option replays $what: name no CORPUS with it" >&2; exit 64; }
if [[ "$target" == all ]]; then
    [[ ${#corpus[@]} -eq 0 ]] || { echo "all replays each target's own inputs: name one target to replay CORPUS" >&2; exit 64; }
    mapfile -t targets < <(fuzz_targets)
else
    is_target "$target" || { echo "unknown target '$target'; targets: $(fuzz_targets | tr '\n' ' ')all" >&2; exit 64; }
    targets=("$target")
fi
for c in "${corpus[@]}"; do [[ -e "$c" ]] || { echo "no such file or folder: $c" >&2; exit 64; }; done

# The LLVM tools must match the compiler's profile format: the toolchain's own, beside swift.
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
for tool in llvm-profdata llvm-cov; do
    [[ -x "$toolchain/$tool" ]] || { echo "$tool missing: expected beside swift, at $toolchain/$tool" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "python3 missing: it reads llvm-cov's JSON summary" >&2; exit 1; }

out_root="$FUZZ_DIR/.work/coverage"
build=(-c debug --sanitize=fuzzer "${FUZZ_COVERAGE_FLAGS[@]}"
       -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping --scratch-path .build/fuzz-coverage)
for t in "${targets[@]}"; do
    echo "== building fuzz-$t with coverage instrumentation" >&2
    (cd "$FUZZ_DIR" && swift build "${build[@]}" --product "fuzz-$t") >&2 || { echo "coverage: build of fuzz-$t failed" >&2; exit 1; }
done
bin="$(cd "$FUZZ_DIR" && swift build "${build[@]}" --show-bin-path)"

# summarize OUT BINARY...: the reports of OUT/coverage.profdata over the binaries' code, and
# one line "FlowCore P% (C/N lines)  FlowJSON ..." on stdout.
summarize() {
    local out="$1" objects=("$2") b
    shift 2
    for b in "$@"; do objects+=(-object "$b"); done
    local profile=(-instr-profile="$out/coverage.profdata" "${objects[@]}")
    "$toolchain/llvm-cov" report "${profile[@]}" "$REPO_ROOT/Sources" >"$out/report.txt"
    rm -rf "$out/html"
    "$toolchain/llvm-cov" show -format=html -output-dir="$out/html" "${profile[@]}" "$REPO_ROOT/Sources"
    "$toolchain/llvm-cov" export -summary-only "${profile[@]}" "$REPO_ROOT/Sources" >"$out/summary.json"
    python3 - "$out/summary.json" "$REPO_ROOT/Sources" <<'EOF'
import json, sys
files = json.load(open(sys.argv[1]))["data"][0]["files"]
cells = []
for module in ("FlowCore", "FlowJSON"):
    prefix = f"{sys.argv[2]}/{module}/"
    lines = [f["summary"]["lines"] for f in files if f["filename"].startswith(prefix)]
    count, covered = sum(l["count"] for l in lines), sum(l["covered"] for l in lines)
    cells.append(f"{100 * covered / max(count, 1):5.1f}% ({covered}/{count})")
print("  ".join(f"{c:<22}" for c in cells).rstrip())
EOF
}

# replay TARGET: runs its inputs through the instrumented binary, writes its reports.
replay() {
    local t="$1" out="$out_root/$1" binary="$bin/fuzz-$1" inputs=() r
    rm -rf "$out" && mkdir -p "$out/profraw" "$out/regressions"
    if [[ ${#corpus[@]} -gt 0 ]]; then
        # Folders as they are; files copied into one (libFuzzer takes all files or all folders).
        mkdir -p "$out/files"
        for c in "${corpus[@]}"; do if [[ -d "$c" ]]; then inputs+=("$c"); else cp "$c" "$out/files/"; fi; done
        [[ -n "$(ls -A "$out/files")" ]] && inputs+=("$out/files")
        [[ -n "$(find "${inputs[@]}" -type f 2>/dev/null | head -1)" ]] || { echo "$t: no input files in ${corpus[*]}" >&2; return 1; }
    else
        # The seeds the binary lists (Corpus/ folders and generated ones); its own profile
        # goes nowhere: writing files is not what is measured.
        LLVM_PROFILE_FILE=/dev/null write_seeds "$binary" "$out/seeds" || { echo "$t: cannot write its seeds" >&2; return 1; }
        [[ -n "$(ls -A "$out/seeds" 2>/dev/null)" ]] || { echo "$t: no seed inputs (its seed folders are empty)" >&2; return 1; }
        inputs=("$out/seeds")
    fi
    if [[ ${#corpus[@]} -eq 0 && "$inputs_from" != seeds ]]; then
        if [[ -z "$inputs_from" && -n "$(ls -A "$FUZZ_DIR/.work/$t/corpus" 2>/dev/null)" ]]; then
            inputs+=("$FUZZ_DIR/.work/$t/corpus")
        fi
        # --committed promises them: a missing folder (an empty one holds a .gitkeep) is an error.
        if [[ "$inputs_from" == committed && ! -d "$REPO_ROOT/Corpus/regressions/$t" ]]; then
            echo "$t: no folder Corpus/regressions/$t: --committed replays its committed regressions" >&2
            return 1
        fi
        # Copied: the folder's README is not an input.
        while read -r r; do [[ -n "$r" ]] && cp "$r" "$out/regressions/"; done < <(regression_files "$t")
        [[ -n "$(ls -A "$out/regressions")" ]] && inputs+=("$out/regressions")
    fi
    echo "== fuzz-$t replays $(find "${inputs[@]}" -type f | wc -l) inputs ($(ls "$out/regressions" | wc -l) committed regressions)" >&2
    # %p and %m: each process (libFuzzer may fork) writes a profile of its own.
    if ! LLVM_PROFILE_FILE="$out/profraw/$t-%p-%m.profraw" \
        "$binary" -runs=0 -timeout=60 -rss_limit_mb=4096 -artifact_prefix="$out/" "${inputs[@]}" >"$out/replay.log" 2>&1; then
        echo "$t: the replay failed; see $out/replay.log" >&2
        grep -E '^==flow-fuzz==|^  - |ERROR: |Test unit written' "$out/replay.log" | head -10 | sed 's/^/    /' >&2
        return 1
    fi
    "$toolchain/llvm-profdata" merge -sparse "$out"/profraw/*.profraw -o "$out/coverage.profdata"
    rm -rf "$out/profraw"
}

printf '%-16s %-22s  %s\n' "target" "FlowCore lines" "FlowJSON lines"
for t in "${targets[@]}"; do
    replay "$t"
    row="$(summarize "$out_root/$t" "$bin/fuzz-$t")"
    printf '%-16s %s\n' "$t" "$row"
done
if [[ "$target" == all ]]; then
    # The union: every target's profile merged, read against every binary.
    out="$out_root/all" binaries=() profiles=()
    rm -rf "$out" && mkdir -p "$out"
    for t in "${targets[@]}"; do binaries+=("$bin/fuzz-$t"); profiles+=("$out_root/$t/coverage.profdata"); done
    "$toolchain/llvm-profdata" merge -sparse "${profiles[@]}" -o "$out/coverage.profdata"
    row="$(summarize "$out" "${binaries[@]}")"
    printf '%-16s %s\n' "all targets" "$row"
fi
echo "reports: $out_root/${target}/report.txt and $out_root/${target}/html/index.html"
