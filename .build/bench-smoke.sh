#!/usr/bin/env bash
# The benchmarks' smoke runs, part of the full matrix (.build/test-matrix.sh): each harness that
# takes an output folder runs once, at its smallest size, into target/bench-smoke (never over
# docs/benchmarks), so a change that breaks a harness is found before someone needs its numbers.
# Each checks its results against Spark's own shuffle as in a real run. Minutes, not hours.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/target/bench-smoke
rm -rf "$out" && mkdir -p "$out"
mvn -B -q install -DskipTests -Dspotless.check.skip=true
run() { echo "[kae] bench smoke: $*"; mvn -B -q -pl integration-tests verify "$@"; }
run -Pbench -Dbench.size=tiny -Dbench.reps=1 -Dbench.workloads=sort,lda-edges,sql-join \
  -Dbench.configs=all "-Dbench.out=$out"
run -Pbench-tpch -Dbench.sf=0.01 -Dbench.reps=1 -Dbench.queries=q1,q3,q18 \
  "-Dbench.tpchData=$out/tpch-data" "-Dbench.out=$out"
# TPC-DS with the configurations alternating query by query, TPC-H above by whole passes.
run -Pbench-tpcds -Dbench.sf=0.01 -Dbench.reps=1 -Dbench.queries=q5,q14a,q47 \
  -Dbench.interleave=query "-Dbench.tpcdsData=$out/tpcds-data" "-Dbench.out=$out"
run -Pbench-partitions -Dbench.partitions=200,2000 -Dbench.reps=1 -Dbench.rows=200000 \
  "-Dbench.out=$out"
# The cluster benchmark makes network namespaces, so it needs root, as NetnsClusterSuite does.
if [ "$(id -u)" = 0 ]; then
  run -Pbench-cluster -Dbench.rates=1gbit -Dbench.workloads=sort,tpch -Dbench.size=tiny \
    -Dbench.sf=0.01 -Dbench.reps=1 -Dbench.configs=spark-lz4,kae-auto \
    "-Dbench.tpchData=$out/tpch-data" "-Dbench.out=$out/cluster"
else
  echo "[kae] bench smoke: the cluster benchmark left out: it needs root (network namespaces)"
fi
echo "[kae] bench smoke: every harness ran; pages under $out"
