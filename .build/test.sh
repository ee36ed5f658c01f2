#!/usr/bin/env bash
# README's test command (and CI's, through .ci/run): the whole suite on the default Spark line
# (4.2), then the Spark-facing suites on the oldest line we build (3.5 with Scala 2.12, main code
# for Java 8; in a copy of the tree: .build/test-line.sh). Every line's full suite:
# .build/test-matrix.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's chromium for the UI tab's browser test, when missing (.build/browser.sh says what it does).
bash .build/browser.sh
mvn -B verify
# On the other line: the writer's, reader's and manager's suites (Spark-facing; native-codec's
# tests are Spark-free and ran above), the differential and TPC-H differential, local-cluster,
# corruption-recovery and shuffle-service suites, the deployable jar's contents and its refusal
# of another line, Spark 3.5's own ShuffleSuite and HostLocalShuffleReadingSuite, the UI tab
# (javax servlets on 3.5) and metrics suites, YARN's shuffle service with push-based merge (a
# damaged merged chunk included), and a speculative copy beside its original on another host.
bash .build/test-line.sh spark-3.5 \
  'org/apache/spark/shuffle/kae/*Suite,org/apache/spark/shuffle/kae/*Test,io/github/kaeshuffle/writer/*Test,io/github/kaeshuffle/reader/*Test,WorkloadDifferentialSuite,TpchDifferentialSuite,LocalClusterSuite,CorruptionRecoverySuite,KaeShuffleServiceSuite,DeployedJarSuite,KaeShuffleSuite,KaeHostLocalShuffleReadingSuite,UiTabSuite,MetricsSuite,YarnShuffleServiceSuite,SpeculationSuite'
