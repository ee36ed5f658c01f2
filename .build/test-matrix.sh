#!/usr/bin/env bash
# The full matrix (README names it beside the gate, .build/test.sh): every Spark line's full suite
# with the matrix profile (kae.tests=full: every test the gate leaves out, at full size), one line
# after the other, each in its own copy of the tree (.build/test-line.sh), then the benchmarks'
# smoke runs on the default line, one NodeManager serving two lines (.build/test-two-lines.sh),
# then README's build, quick start and `mvn verify` as a user without root, apt or pip
# (.build/test-anywhere.sh --verify), the native build on an emulated AArch64 host
# (.build/test-aarch64-host.sh), and a summary line each. Hours on 2 cores (docs/testing.md has
# the last recorded run).
#   usage: .build/test-matrix.sh [profiles...]   (default: every line, the benchmarks, two-lines, anywhere, aarch64-host)
#   A profile named "bench" runs only the benchmarks' smoke runs, "two-lines" only the two lines'
#   NodeManager, "anywhere" only README's build as an operator, "aarch64-host" only the
#   AArch64-host build.
set -uo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(spark-4.2 spark-4.3 spark-4.1 spark-4.0 spark-3.5 spark-3.5_2.13 bench two-lines anywhere aarch64-host)
mkdir -p target
# Debian's chromium for the UI tab's browser test, when missing, as the gate does (.build/browser.sh).
bash .build/browser.sh
declare -A result
for p in "${lines[@]}"; do
  start=$(date +%s)
  log="target/matrix-$p.log"
  if [ "$p" = bench ]; then
    bash .build/bench-smoke.sh > "$log" 2>&1
  elif [ "$p" = two-lines ]; then
    bash .build/test-two-lines.sh > "$log" 2>&1
  elif [ "$p" = anywhere ]; then
    bash .build/test-anywhere.sh --verify > "$log" 2>&1
  elif [ "$p" = aarch64-host ]; then
    bash .build/test-aarch64-host.sh > "$log" 2>&1
  else
    bash .build/test-line.sh "$p" '' -Pmatrix > "$log" 2>&1
  fi
  if [ $? = 0 ]; then r=passed; else r=FAILED; fi
  result[$p]="$r in $(( $(date +%s) - start )) s (log: $log)"
  echo "[kae] $p: ${result[$p]}"
done
echo "[kae] matrix on $(date -u +%Y-%m-%d):"
failed=0
for p in "${lines[@]}"; do
  echo "  $p: ${result[$p]}"
  [[ ${result[$p]} == passed* ]] || failed=1
done
bash .build/test-times.sh . 20
exit $failed
