#!/usr/bin/env bash
# Makes sure a Spark distribution of the build's Spark line is available for tests that start
# separate executor JVMs (local-cluster, spark-submit): pip's pyspark package is one (bin/, jars/).
# Installed once per machine and version into the cache directory, reused by every clone and
# build. Called by Maven (integration-tests/pom.xml) before the tests run; prints the
# distribution's path.
#   usage: spark-dist.sh <spark version> <scala binary version>   (e.g. 4.2.0 2.13)
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
version=${1:?usage: spark-dist.sh <spark version> <scala binary version>}
scala=${2:?usage: spark-dist.sh <spark version> <scala binary version>}
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/pyspark-$version"
home="$dir/pyspark"

if [ ! -f "$home/jars/spark-core_$scala-$version.jar" ]; then
  command -v python3 >/dev/null || {
    echo "[kae] ERROR: python3 is needed to install pyspark $version (a Spark distribution for" \
         "the multi-JVM tests): apt-get install python3 python3-pip" >&2; exit 1; }
  python3 -m pip --version >/dev/null 2>&1 || {
    echo "[kae] ERROR: pip is needed to install pyspark $version: apt-get install python3-pip" >&2
    exit 1; }
  echo "[kae] installing pyspark $version into $dir (about 500 MB, once per machine)" >&2
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/pyspark-$version.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target "$tmp" "pyspark==$version" >&2
  [ -f "$tmp/pyspark/jars/spark-core_$scala-$version.jar" ] || {
    echo "[kae] ERROR: pyspark $version installed without Spark's jars" >&2; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
fi
chmod +x "$home"/bin/* 2>/dev/null || true
echo "$home"
