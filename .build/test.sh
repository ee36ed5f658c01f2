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
# The docs against the tree: links, settings and class names (a second; fails before the build).
python3 .build/check-docs.py .
# Debian's chromium for the UI tab's browser test, when missing (.build/browser.sh says what it does).
bash .build/browser.sh
# Both architectures' libraries and their emulated tests: the cross tools, qemu-user and the
# other architecture's zlib are installed or fetched where missing, as root with apt
# (native-codec/src/main/native/toolchain.sh says exactly what).
mvn -B verify -Dkae.native.cross=true -Dkae.native.install=true
stage1=$(( $(date +%s) - start ))
# On 3.5, what differs per line: the writers' and reader's shims (map-side combine and spills in
# the manager's suites, SQL rows uncopied, local segments, remote fetches and their corruption
# diagnosis, IO encryption across executor JVMs), our shuffle service's block handler with Spark
# 3.5's network code, the UI tab (javax servlets), and the deployable jar (its refusal of
# spark.jars alone and of another line, spark-submit on Java 17 and Java 11). The rest is the same
# code on every line and ran in stage 1: the Spark-free modules, the writers' own logic
# (KaeShuffleWriterSuite), the workloads under every codec, the KAEzip fallback, the session pool.
bash .build/test-line.sh spark-3.5 \
  'org/apache/spark/shuffle/kae/**/*Suite,org/apache/spark/shuffle/kae/**/*Test,!ShuffleDoctorJobSuite,!HardwareFaultSuite,!SessionReuseSuite,!KaeShuffleWriterSuite,LocalClusterSuite,CorruptionRecoverySuite,KaeShuffleServiceSuite,DeployedJarSuite,UiTabSuite' \
  -pl integration-tests -am -Dspotless.check.skip=true
echo "[kae] gate: stage 1 (Spark 4.2) ${stage1} s, stage 2 (Spark 3.5) $(( $(date +%s) - start - stage1 )) s, $(( $(date +%s) - start )) s in all"
bash .build/test-times.sh . 10
