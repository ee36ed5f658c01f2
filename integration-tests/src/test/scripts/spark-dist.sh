#!/usr/bin/env bash
# Makes sure a Spark distribution of the build's Spark line is available for tests that start
# separate executor JVMs (local-cluster, spark-submit): pip's pyspark package is one (bin/, jars/).
# Installed once per machine and version into the cache directory, reused by every clone and
# build. Called by Maven (integration-tests/pom.xml) before the tests run; prints the
# distribution's path.
# pyspark carries one Scala build of Spark (2.12 up to 3.5, 2.13 from 4.0). For the other one
# (Spark 3.5 with Scala 2.13) the distribution is pyspark's scripts with Spark's Scala 2.13 jars
# from Maven Central, resolved with the versions Spark's own build pins (spark-parent as BOM).
#   usage: spark-dist.sh <spark version> <scala binary version>   (e.g. 4.2.0 2.13)
#   A Scala version of "any" takes pyspark's own (for Java applications, which run on either).
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
. "$(dirname "$0")/pip-cache.sh"
version=${1:?usage: spark-dist.sh <spark version> <scala binary version>}
scala=${2:?usage: spark-dist.sh <spark version> <scala binary version>}
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/pyspark-$version"
home="$dir/pyspark"

# Whether a directory holds Spark's jars of this version, for either Scala.
has_spark() { ls "$1"/jars/spark-core_*-"$version".jar >/dev/null 2>&1; }

if ! has_spark "$home"; then
  echo "[kae] installing pyspark $version into $dir (about 500 MB, once per machine)" >&2
  # The archive a line from its distribution pinned and checked (.build/spark-dist-repo.sh).
  source="pyspark==$version"
  [ -f "$cache/pyspark-$version.tar.gz" ] && source="$cache/pyspark-$version.tar.gz"
  pip_into_cache "$dir" "$source"
  has_spark "$home" || {
    rm -rf "$dir"
    echo "[kae] ERROR: pyspark $version installed without Spark's jars" >&2; exit 1; }
fi
chmod +x "$home"/bin/* 2>/dev/null || true
if [ "$scala" = any ] || [ -f "$home/jars/spark-core_$scala-$version.jar" ]; then
  echo "$home"; exit 0
fi

# pyspark's Spark is built for the other Scala: assemble this one's jars from Maven Central.
assembled="$cache/spark-$version-scala$scala"
if [ ! -f "$assembled/jars/spark-core_$scala-$version.jar" ]; then
  echo "[kae] assembling Spark $version for Scala $scala from Maven Central into $assembled" >&2
  tmp=$(mktemp -d "$cache/spark-$version-scala$scala.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cp -r "$home/bin" "$home/sbin" "$tmp/"
  cat > "$tmp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.kaeshuffle</groupId>
  <artifactId>spark-dist-assembly</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.apache.spark</groupId>
        <artifactId>spark-parent_$scala</artifactId>
        <version>$version</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency>
      <groupId>org.apache.spark</groupId>
      <artifactId>spark-sql_$scala</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
</project>
POM
  (cd "$tmp" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DoutputDirectory=jars -DincludeScope=runtime >&2)
  [ -f "$tmp/jars/spark-core_$scala-$version.jar" ] || {
    echo "[kae] ERROR: Maven Central gave no spark-core_$scala $version" >&2; exit 1; }
  rm -f "$tmp/pom.xml"
  rm -rf "$assembled"
  mv "$tmp" "$assembled"
  trap - EXIT
fi
chmod +x "$assembled"/bin/* 2>/dev/null || true
echo "$assembled"
