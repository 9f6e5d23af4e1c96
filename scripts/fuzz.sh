#!/usr/bin/env bash
# Fuzzes one parser of outside input, or all of them, with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh TARGET|all SECONDS [libFuzzer options…]    e.g. scripts/fuzz.sh note-date 60
#   scripts/fuzz.sh list                                       the targets (Fuzz/Targets/*)
#
# Each target is built with `swift build -c release -Xswiftc -sanitize=fuzzer,address` in
# .build-fuzz and runs for SECONDS from its seeds in Fuzz/Corpus/TARGET; what it learns is
# kept in .build-fuzz/work/TARGET/corpus for the next run (the seeds in the repo are not
# touched). A crash, a sanitizer report, a failed property or an input that takes more than
# FUZZ_TIMEOUT seconds (default 60: wall time, and a niced process on a busy machine can
# wait seconds for a core) stops it: the input is saved in .build-fuzz/work/TARGET/findings/
# and the script exits 1. Replay one with the normal build:
# `swift build && .build/debug/fuzz-TARGET FILE`. Runs at `nice` FUZZ_NICE (default 19).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=$(ls Fuzz/Targets)
usage() {
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS [libFuzzer options…]; targets:" $targets >&2
    exit 2
}
[ "${1:-}" = list ] && { echo "$targets"; exit 0; }
[ $# -ge 2 ] || usage
what=$1 seconds=$2
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
if [ "$what" = all ]; then
    selected=$targets
else
    grep -qx -- "$what" <<<"$targets" || usage
    selected=$what
fi
scripts/install-deps.sh
scratch=.build-fuzz
for target in $selected; do
    swift build -c release --scratch-path "$scratch" -Xswiftc -sanitize=fuzzer,address \
        --product "fuzz-$target" 2>&1 | grep -E "error|warning: unre|Build complete" || true
    [ -x "$scratch/release/fuzz-$target" ] || { echo "fuzz-$target did not build" >&2; exit 1; }
done
# Leaks of the toolchain's own libraries are listed (and explained) there; ours still fail.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Swift allocates on almost every step, and ASan unwinds the stack at each allocation to
# name it in a report: 1.75 times fewer inputs per second. Reports still name the bad access
# and the input is saved; replay it with ASAN_OPTIONS=malloc_context_size=30 for the stacks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}"
status=0
for target in $selected; do
    # Not under $scratch/artifacts: SwiftPM owns that folder and empties it.
    corpus=$scratch/work/$target/corpus artifacts=$scratch/work/$target/findings
    mkdir -p "$corpus" "$artifacts"
    log=$scratch/fuzz-$target.log
    # New inputs go to the first folder; the repo's seeds are only read.
    options=()
    # FoundationXML leaks on every malformed document (see Fuzz/lsan-suppressions.txt), and
    # libFuzzer then scans the whole heap for leaks after almost every input: 11 inputs/s
    # instead of hundreds. The XML targets run without leak checks.
    case $target in legacy-xml-response | notes-file) options+=(-detect_leaks=0) ;; esac
    started=$(date +%s)
    if nice -n "${FUZZ_NICE:-19}" "$scratch/release/fuzz-$target" \
        -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-60}" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" ${options[@]+"${options[@]}"} "$@" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1
    then
        result=ok
    else
        result="FAILED (see $log and $artifacts/)"
        status=1
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$log" >&2 || tail -n 20 "$log" >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    echo "$target: ${runs:-?} executions in $(($(date +%s) - started)) s (${rate:-?}/s), corpus $(ls "$corpus" | wc -l) inputs: $result"
done
exit $status
