#!/bin/bash
# Runs each libFuzzer target from its checked-in seed corpus, new inputs going to a scratch corpus
# under .build/: for FUZZ_SECONDS (default 60) each, or, with FUZZ_RUNS=N (`make fuzz-long`), to N
# executions each. Prints per target the executions, the time they took and executions per second.
# Crash inputs are kept in Fuzz/crashes/<target>/ to be turned into regression tests.
set -u
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
status=0
for target in ${FUZZ_TARGETS:-FuzzCSV FuzzFrontMatter FuzzMustache FuzzSlug FuzzIndex FuzzSettings FuzzHTTP FuzzTokenizer}; do
  work=.build/corpus/$target
  mkdir -p "$work" crashes/$target
  log=.build/$target.log
  if [ -n "$runs" ]; then
    limit=(-runs="$runs")
    guard=()
  else
    limit=(-max_total_time="$seconds")
    guard=(timeout $((seconds + 60)))
  fi
  # Inputs up to FUZZ_MAX_LEN bytes (default 4096, libFuzzer's own): an execution costs more the
  # longer its input, and at 65536 a ten-million run's rate fell fourfold as its inputs grew.
  # FuzzTokenizer's default is 512: its state is per token, and every threshold it has (24 lead
  # words, a word set grown past 32 words, joins of 4 pieces) is reached well inside 512 bytes,
  # while its rate fell from 1,400 to 311 a second as its inputs grew toward 1,310.
  maxlen=${FUZZ_MAX_LEN:-4096}
  [ "$target" = FuzzTokenizer ] && maxlen=${FUZZ_MAX_LEN:-512}
  started=$(date +%s)
  # No allocation stacks: ASan still catches every bad access, but its reports name only the
  # access's stack, and recording one at each of Swift's many allocations costs a third of the time.
  ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0 "${guard[@]}" .build/release/$target "$work" corpus/$target \
    "${limit[@]}" -max_len="$maxlen" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=crashes/$target/ -print_final_stats=1 >"$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - started ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  crashes=$(ls crashes/$target | wc -l)
  printf '%-16s %10s executions in %ss, %s per second, exit %s, %s crash inputs in Fuzz/crashes/%s\n' \
    "$target" "${execs:-?}" "$took" "${rate:-?}" "$rc" "$crashes" "$target"
  [ "$rc" = 0 ] || { status=1; grep -m3 -E 'ERROR|Fatal error|panic|deadly' "$log"; }
done
exit $status
