#!/usr/bin/env bash
# Every Spark line's full suite, one after the other (each in its own copy of the tree:
# .build/test-line.sh), and a summary line per line. About 20 minutes per line on 2 cores.
#   usage: .build/test-matrix.sh [profiles...]   (default: every line)
set -uo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(spark-4.2 spark-4.1 spark-4.0 spark-3.5 spark-3.5_2.13)
mkdir -p target
declare -A result
for p in "${lines[@]}"; do
  start=$(date +%s)
  # 3.5 with Scala 2.13: its distribution (assembled from Maven Central) has no spark-yarn.
  tests=""
  [ "$p" = spark-3.5_2.13 ] && tests='!YarnSuite,!YarnShuffleServiceSuite'
  if bash .build/test-line.sh "$p" $tests > "target/lines-$p.log" 2>&1; then r=passed; else r=FAILED; fi
  result[$p]="$r in $(( $(date +%s) - start )) s (log: target/lines-$p.log)"
  echo "[kae] $p: ${result[$p]}"
done
echo "[kae] matrix on $(date -u +%Y-%m-%d):"
failed=0
for p in "${lines[@]}"; do
  echo "  $p: ${result[$p]}"
  [[ ${result[$p]} == passed* ]] || failed=1
done
exit $failed
