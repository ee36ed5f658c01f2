#!/usr/bin/env bash
# Builds and tests one Spark line (a Maven profile of pom.xml, e.g. spark-4.0) in a copy of this
# tree under target/lines/<profile>, so the default line's build in the modules' target/ stays as
# it is. Used by README's test command (.build/test.sh) and the full matrix (.build/test-matrix.sh).
#   usage: .build/test-line.sh <profile> [surefire -Dtest patterns, '' for all] [maven args...]
# The copy holds the files git tracks or would track (uncommitted changes included). Spark's
# distribution for the line's multi-JVM tests is installed by the build itself (spark-dist.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:?usage: .build/test-line.sh <profile> [test patterns] [maven args...]}
tests=${2:-}
shift $(( $# < 2 ? $# : 2 ))
grep -q "<id>$profile</id>" pom.xml || { echo "[kae] no profile $profile in pom.xml" >&2; exit 2; }
dir=target/lines/$profile
rm -rf "$dir"
mkdir -p "$dir"
# Files deleted but not yet committed are listed by git and skipped by tar.
git ls-files -co --exclude-standard -z | tar --null --ignore-failed-read -T - -cf - 2>/dev/null |
  (cd "$dir" && tar -xf -)
echo "[kae] Spark line $profile: building and testing in $dir${tests:+ (tests: $tests)}"
cd "$dir"
# A line taken from its released distribution (its profile pins the archive) needs its jars laid
# out as a Maven repository first.
if sed -n "/<id>$profile<\/id>/,/<\/profile>/p" pom.xml | grep -q '<spark.dist.sha256>'; then
  bash .build/spark-dist-repo.sh "$profile"
fi
# Each line's jar carries the native library for both architectures (installing the cross tools
# where missing, as root with apt), as the test command's default line does.
args=(-B "-P$profile" verify -Dkae.native.cross=true -Dkae.native.install=true "$@")
if [ -n "$tests" ]; then
  args+=("-Dtest=$tests" -Dsurefire.failIfNoSpecifiedTests=false)
fi
mvn "${args[@]}"
