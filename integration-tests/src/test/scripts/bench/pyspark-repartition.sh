#!/usr/bin/env bash
# Runs repartition_job.py with Spark's shuffle (lz4) and KAE Shuffle's default, alternating, their
# order swapped every pair, each run a process of its own; prints one line per run (the job's
# seconds, the process's wall seconds, the driver JVM's peak RSS, the result) and the medians.
#   usage: pyspark-repartition.sh <pairs> <KAE Shuffle jar> <pyspark directory (the one holding pyspark/)>
set -euo pipefail
pairs=${1:?usage: pyspark-repartition.sh <pairs> <jar> <pyspark dir>}
jar=${2:?usage: pyspark-repartition.sh <pairs> <jar> <pyspark dir>}
export PYTHONPATH=${3:?usage: pyspark-repartition.sh <pairs> <jar> <pyspark dir>}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
for i in $(seq 1 "$pairs"); do
  order="spark-lz4 kae-auto"
  [ $((i % 2)) = 0 ] && order="kae-auto spark-lz4"
  for c in $order; do
    start=$(date +%s%N)
    line=$(python3 "$here/repartition_job.py" "$c" "$jar" 2>/dev/null | grep '^RESULT')
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$i $line $((ms / 1000)).$(printf %03d $((ms % 1000)))" | tee -a "$out"
  done
done
python3 - "$out" <<'PY'
import statistics, sys
runs = [l.split() for l in open(sys.argv[1])]
# fields: pair RESULT config job_s rss_mib checksum keys manager wall_s
by = lambda c, f: {int(r[0]): float(r[f]) for r in runs if r[2] == c}
results = {tuple(r[5:7]) for r in runs}
print("results identical" if len(results) == 1 else f"RESULTS DIFFER: {results}")
for name, f in (("job s", 3), ("wall s", 8), ("peak RSS MiB", 4)):
    s, k = by("spark-lz4", f), by("kae-auto", f)
    ratios = sorted(k[p] / s[p] for p in s if p in k)
    print(f"{name}: spark-lz4 median {statistics.median(s.values()):.2f}, kae-auto median "
          f"{statistics.median(k.values()):.2f}, paired ratios median {statistics.median(ratios):.3f} "
          f"({', '.join(f'{r:.2f}' for r in ratios)})")
PY
rm -f "$out"
