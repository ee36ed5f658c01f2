#!/usr/bin/env bash
# One NodeManager serving the applications of two Spark lines, as docs/yarn.md installs it
# (TwoLinesYarnSuite): builds another line's jars in a copy of the tree (.build/test-line.sh,
# without its tests), assembles that line's Spark distribution (spark-dist.sh), then runs the
# suite on the default line (4.2) with both. Part of .build/test-matrix.sh; about 10 minutes.
#   usage: .build/test-two-lines.sh [the other line's profile, default spark-3.5]
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-spark-3.5}
bash .build/test-line.sh "$profile" '' -DskipTests
spark=$(bash .build/maven-value.sh spark.version "-P$profile")
scala=$(bash .build/maven-value.sh scala.binary.version "-P$profile")
home=$(bash integration-tests/src/test/scripts/spark-dist.sh "$spark" "$scala")
echo "[kae] two lines: this tree's default line beside $profile (Spark $spark, $home)"
mvn -B verify -pl integration-tests -am -Dtest=TwoLinesYarnSuite -Dsurefire.failIfNoSpecifiedTests=false \
  "-Dkae.test.otherLine.dir=$PWD/target/lines/$profile" "-Dkae.test.otherLine.sparkHome=$home"
