#!/usr/bin/env bash
# README's test command (and CI's, through .ci/run): the gate, at most 30 minutes from a clean
# clone on a 2-core machine. Stage 1: every module on the default Spark line (4.2), each test
# class at gate scope (kae.tests=gate: tests the gate leaves out are reported skipped, named
# "[matrix only]"). Stage 2: the oldest line we build (3.5, Scala 2.12, main code for Java 8), in a
# copy of the tree (.build/test-line.sh), for the code that differs per line: the writer's,
# reader's and manager's Spark shims, the YARN service's block handler, the UI page's servlets,
# the deployable jar's start-up checks. Then each test class's time, slowest first.
# Everything else, and every line's full suite: .build/test-matrix.sh (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# Debian's chromium for the UI tab's browser test, when missing (.build/browser.sh says what it does).
bash .build/browser.sh
mvn -B verify
stage1=$(( $(date +%s) - start ))
# On 3.5: the writers and the reader (their own tests, the manager's suites, the differential
# workloads under both serializers), remote fetches, corruption and encryption across executor
# JVMs, SQL rows uncopied, our shuffle service's block handler with Spark 3.5's network code, the
# UI tab (javax servlets), and the deployable jar (its refusal of spark.jars alone and of another
# line, spark-submit on Java 17 and Java 11). Spark-free modules' tests ran in stage 1, and so did
# the KAEzip fallback's and session pool's suites, which use no per-line code.
bash .build/test-line.sh spark-3.5 \
  'io/github/kaeshuffle/writer/*Test,io/github/kaeshuffle/reader/*Test,org/apache/spark/shuffle/kae/*Suite,org/apache/spark/shuffle/kae/*Test,!ShuffleDoctorJobSuite,!HardwareFaultSuite,!SessionReuseSuite,WorkloadDifferentialSuite,LocalClusterSuite,CorruptionRecoverySuite,KaeShuffleServiceSuite,DeployedJarSuite,UiTabSuite' \
  -pl integration-tests -am -Dspotless.check.skip=true
echo "[kae] gate: stage 1 (Spark 4.2) ${stage1} s, stage 2 (Spark 3.5) $(( $(date +%s) - start - stage1 )) s, $(( $(date +%s) - start )) s in all"
bash .build/test-times.sh . 10
