#!/usr/bin/env bash
# Makes sure the class path of a Hadoop NodeManager that runs on Java 11 is available, for the
# test that starts one there with our service jar (NodeManagerJavaSuite): Hadoop 3.5, which the
# other YARN tests run, needs Java 17, and clusters on Java 8 or 11 run Hadoop 3.3 or 3.4.
# Resolved from Maven Central once per machine and version into the cache directory (the
# NodeManager and MapReduce's shuffle handler, with their runtime dependencies); prints the
# path of a file holding the class path, or nothing for "none".
#   usage: older-nodemanager.sh <hadoop version | none>   (e.g. 3.4.2)
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
version=${1:?usage: older-nodemanager.sh <hadoop version | none>}
[ "$version" = none ] && exit 0
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/nodemanager-hadoop-$version"
classpath="$dir/nodemanager.classpath"

if [ ! -s "$classpath" ]; then
  echo "[kae] resolving Hadoop $version's NodeManager from Maven Central into $dir (once)" >&2
  mkdir -p "$cache"
  tmp=$(mktemp -d "$dir.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cat > "$tmp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.kaeshuffle</groupId>
  <artifactId>older-nodemanager</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.hadoop</groupId>
      <artifactId>hadoop-yarn-server-nodemanager</artifactId>
      <version>$version</version>
    </dependency>
    <dependency>
      <groupId>org.apache.hadoop</groupId>
      <artifactId>hadoop-mapreduce-client-shuffle</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
</project>
POM
  (cd "$tmp" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DoutputDirectory=jars -DincludeScope=runtime >&2)
  ls "$tmp"/jars/hadoop-yarn-server-nodemanager-"$version".jar >/dev/null || {
    echo "[kae] ERROR: Maven Central gave no hadoop-yarn-server-nodemanager $version" >&2; exit 1; }
  rm -f "$tmp/pom.xml"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
  # The jars' final paths, one class path line.
  find "$dir/jars" -name '*.jar' | sort | paste -sd: > "$classpath"
fi
echo "$classpath"
