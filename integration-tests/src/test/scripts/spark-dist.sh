#!/usr/bin/env bash
# Makes sure a Spark distribution of a version is available for the tests that start separate
# JVMs (local-cluster, spark-submit, the shuffle services, YARN): Spark's jars under jars/ and
# bin/spark-class and bin/spark-submit, which run Spark's own launcher (spark-bin/). Assembled
# once per machine and version into the cache directory, reused by every clone and build, and
# printed. Called by Maven (integration-tests/pom.xml) before the tests run. Needs no pip:
# - a released Spark: its jars from Maven Central, the modules a distribution carries that the
#   tests run (core, SQL, MLlib, GraphX, Streaming, YARN) with the versions Spark's own build pins
#   (spark-parent as BOM), and Guava, which Spark's assembly restores to compile scope;
# - a Spark whose jars Maven Central does not serve (4.3, and patch releases such as 4.2.1 that
#   PyPI serves first): the jars of its pyspark source archive, unpacked: the one
#   .build/spark-dist-repo.sh pinned, or else downloaded from PyPI with curl and checked against
#   the SHA-256 PyPI's index gives.
#   usage: spark-dist.sh <spark version> <scala binary version | any>   (e.g. 4.2.0 2.13)
#   "any" takes the Scala that version's released distribution is built for (2.12 up to 3.5,
#   2.13 from 4.0), for Java applications, which run on either.
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
version=${1:?usage: spark-dist.sh <spark version> <scala binary version | any>}
scala=${2:?usage: spark-dist.sh <spark version> <scala binary version | any>}
if [ "$scala" = any ]; then
  case "$version" in 3.*) scala=2.12 ;; *) scala=2.13 ;; esac
fi
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
home="$cache/spark-dist-$version-$scala"
here="$(cd "$(dirname "$0")" && pwd)"
scripts="$here/spark-bin"

# The tests need what Spark's assembly puts in jars/ for these modules.
assembly_pom() {
  local module extra=""
  case "$version" in
    # Spark 3's YARN application master names Hadoop's web proxy filter; 4 carries its own.
    3.*) extra="<dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-yarn-server-web-proxy</artifactId></dependency>" ;;
  esac
  cat <<POM
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
POM
  # spark-core first: where two modules pull one library, Maven takes the first one's version.
  for module in core sql mllib graphx streaming yarn; do
    echo "    <dependency><groupId>org.apache.spark</groupId><artifactId>spark-${module}_$scala</artifactId><version>$version</version></dependency>"
  done
  cat <<POM
    <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><scope>compile</scope></dependency>
    $extra
  </dependencies>
</project>
POM
}

# Spark's jars from Maven Central into $1/jars; fails where Central has no such release.
maven_jars() {
  local into=$1
  echo "[kae] assembling Spark $version for Scala $scala from Maven Central into $home" \
       "(about 300 MB, once per machine)" >&2
  assembly_pom > "$into/pom.xml"
  (cd "$into" && mvn -B -q -Dstyle.color=never \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DoutputDirectory=jars -DincludeScope=runtime > maven.log 2>&1) || return 1
  rm -f "$into/pom.xml" "$into/maven.log"
}

# Into $1/jars: the pinned or fetched archive's jars, or Maven Central's.
fill_jars() {
  local into=$1 archive="$cache/pyspark-$version.tar.gz"
  if [ ! -f "$archive" ]; then
    maven_jars "$into" && return 0
    grep -m1 -o "[A-Za-z ]*org.apache.spark:spark-parent_$scala:pom:$version[^@]*" "$into/maven.log" >&2 ||
      tail -20 "$into/maven.log" >&2
    rm -rf "${into:?}"/*
    "$here/pyspark-sdist.sh" "$version" "$archive" || return 1
  fi
  echo "[kae] unpacking Spark $version's jars from $archive into $home" >&2
  tar -xzf "$archive" -C "$into" --wildcards "pyspark-$version/deps/jars/*.jar"
  mv "$into/pyspark-$version/deps/jars" "$into/jars"
  rm -rf "${into:?}/pyspark-$version"
}

if [ ! -f "$home/jars/spark-core_$scala-$version.jar" ]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$home.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  fill_jars "$tmp" || exit 1
  [ -f "$tmp/jars/spark-core_$scala-$version.jar" ] || {
    echo "[kae] ERROR: Spark $version's jars hold no spark-core_$scala" >&2; exit 1; }
  rm -rf "$home"
  mv "$tmp" "$home"
  trap - EXIT
fi
# The scripts follow the tree that calls this, so a changed script reaches every cached copy.
mkdir -p "$home/bin"
for script in spark-class spark-submit; do
  cmp -s "$scripts/$script" "$home/bin/$script" || install -m 755 "$scripts/$script" "$home/bin/$script"
done
echo "$home"
