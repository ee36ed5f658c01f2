#!/usr/bin/env bash
# Checks a release bundle as an operator receives it: unpacks it, checks its SHA-256 sums, then
# for every application jar submits a job with that jar alone (spark-submit, local-cluster: two
# executor JVMs fetching from each other) to the distribution of its Spark line, checks its
# results and that KAE Shuffle's stage summaries are in the driver's log, replays the job's event
# log through the bundle's doctor command (tuning.md), and runs the bundle's preflight command
# against that distribution.
#   usage: .build/release-smoke.sh target/release/kae-shuffle-<version>.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
. integration-tests/src/test/scripts/pip-cache.sh
bundle=$(realpath "${1:?usage: release-smoke.sh <bundle .tar.gz>}")
work=$(mktemp -d /tmp/kae-release-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
logs=target/release-smoke
rm -rf "$logs" && mkdir -p "$logs"
tar -C "$work" -xzf "$bundle"
root=$(ls -d "$work"/kae-shuffle-*)
(cd "$root" && sha256sum -c --quiet SHA256SUMS) && echo "[kae] smoke: SHA256SUMS match"
# The driver logs one such line per stage KAE Shuffle wrote or read.
summary='KAE Shuffle stage .* codec calls'
failed=0
for jar in "$root"/jars/kae-shuffle-spark*.jar; do
  base=$(basename "$jar" .jar)                  # kae-shuffle-spark4.2_2.13-0.1.0
  line=${base#kae-shuffle-spark}; line=${line%%_*}
  scala=${base#*_}; scala=${scala%%-*}
  profile=spark-$line
  [ "$line" = 3.5 ] && [ "$scala" = 2.13 ] && profile=spark-3.5_2.13
  spark=$(bash .build/maven-value.sh spark.version "-P$profile")
  home=$(bash integration-tests/src/test/scripts/spark-dist.sh "$spark" "$scala")
  extra=()
  # Spark 3.5 creates the shuffle manager before it loads spark.jars (docs/yarn.md).
  [ "$line" = 3.5 ] && extra=(--conf "spark.executor.extraClassPath=$jar")
  echo "[kae] smoke: $(basename "$jar") on Spark $spark ($home)"
  # The smoke job is a PySpark script: pyspark's Python package (and py4j) from PyPI, which
  # the distributions the tests assemble from Maven Central do not carry.
  python_path=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}/pyspark-$spark
  [ -d "$python_path/pyspark" ] || pip_into_cache "$python_path" "pyspark==$spark"
  events=$work/events-$base
  mkdir -p "$events"
  if PYTHONPATH=$python_path "$home/bin/spark-submit" --master 'local-cluster[2,1,1024]' \
      --jars "$jar" "${extra[@]}" \
      --conf spark.eventLog.enabled=true --conf "spark.eventLog.dir=$events" \
      --conf spark.shuffle.manager=org.apache.spark.shuffle.kae.KaeShuffleManager \
      .build/release/smoke.py > "$logs/$base.log" 2>&1 &&
      grep -q '^result ok' "$logs/$base.log" &&
      grep -q "$summary" "$logs/$base.log"; then
    grep '^shuffle manager\|^result' "$logs/$base.log"
    echo "  $(grep -c "$summary" "$logs/$base.log") stage summaries of KAE Shuffle in the driver's log"
  else
    echo "[kae] smoke: FAILED on Spark $spark (log $logs/$base.log):"
    grep -m 20 -E 'ERROR|Exception|Error:|^result' "$logs/$base.log"
    failed=1
  fi
  # The event-log command as tuning.md gives it, with the bundle's doctor jar of this line.
  doctor=$root/tools/${base/kae-shuffle-spark/kae-shuffle-doctor-spark}.jar
  java=${JAVA_HOME:+$JAVA_HOME/bin/}java
  if "$java" -cp "$jar:$doctor:$home/jars/*" org.apache.spark.shuffle.kae.KaeShuffleDoctor \
      "$(ls -d "$events"/*)" --no-rates > "$logs/$base-doctor.log" 2>&1 &&
      grep -q 'KAE Shuffle doctor: stage' "$logs/$base-doctor.log"; then
    echo "[kae] smoke: the doctor read the event log: $(grep -c 'KAE Shuffle doctor: stage' "$logs/$base-doctor.log") stage diagnoses"
  else
    echo "[kae] smoke: doctor FAILED (log $logs/$base-doctor.log):"; tail -20 "$logs/$base-doctor.log"
    failed=1
  fi
  # No KAEzip here: the preflight must run and say so (exit 1), not fail to start (exit 2+);
  # also where a vendor added to Spark's version (spark-core_2.12-3.5.9-amzn-0.jar).
  vendor=$work/vendor-$base
  mkdir -p "$vendor/jars"
  for j in "$home"/jars/*.jar; do
    name=$(basename "$j")
    [[ $name == spark-core_* ]] && name=${name%.jar}-vendor-0.jar
    ln -s "$j" "$vendor/jars/$name"
  done
  for h in "$home" "$vendor"; do
    set +e
    "$root/bin/kae-preflight" "$h" > "$logs/$base-preflight.log" 2>&1
    code=$?
    set -e
    if [ "$code" -le 1 ] && grep -q 'KAEzip verdict' "$logs/$base-preflight.log"; then
      echo "[kae] smoke: preflight ran on $(basename "$(ls "$h"/jars/spark-core_*)") (exit $code):" \
        "$(grep 'KAEzip verdict' "$logs/$base-preflight.log")"
    else
      echo "[kae] smoke: preflight FAILED (exit $code):"; cat "$logs/$base-preflight.log"; failed=1
    fi
  done
done
[ "$failed" = 0 ] && echo "[kae] smoke: every line's jar ran from the bundle"
exit $failed
