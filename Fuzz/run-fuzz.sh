#!/bin/bash
# Runs each libFuzzer target for FUZZ_SECONDS (default 60) from its checked-in seed corpus, new
# inputs going to a scratch corpus under .build/; prints executions and crashes per target.
# Crash inputs are kept in Fuzz/crashes/<target>/ to be turned into regression tests.
set -u
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-60}
status=0
for target in ${FUZZ_TARGETS:-FuzzCSV FuzzFrontMatter FuzzMustache FuzzSlug FuzzIndex}; do
  work=.build/corpus/$target
  mkdir -p "$work" crashes/$target
  log=.build/$target.log
  ASAN_OPTIONS=detect_leaks=0 timeout $((seconds + 60)) .build/debug/$target "$work" corpus/$target \
    -max_total_time=$seconds -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix=crashes/$target/ -print_final_stats=1 >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  crashes=$(ls crashes/$target | wc -l)
  printf '%-16s %10s executions in %ss, exit %s, %s crash inputs in Fuzz/crashes/%s\n' "$target" "${execs:-?}" "$seconds" "$rc" "$crashes" "$target"
  [ "$rc" = 0 ] || { status=1; grep -m3 -E 'ERROR|Fatal error|panic|deadly' "$log"; }
done
exit $status
