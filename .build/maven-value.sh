#!/usr/bin/env bash
# Prints one value of the project's Maven model, e.g. project.version, or spark.version under a
# line's profile. Maven colours even -DforceStdout output on some terminals; the escapes go.
#   usage: .build/maven-value.sh <expression> [maven args, e.g. -Pspark-3.5]
set -euo pipefail
cd "$(dirname "$0")/.."
expression=${1:?usage: maven-value.sh <expression> [maven args]}
shift
mvn -B -q -Dstyle.color=never help:evaluate "-Dexpression=$expression" -DforceStdout "$@" |
  sed 's/\x1b\[[0-9;]*m//g'
