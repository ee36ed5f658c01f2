#!/usr/bin/env bash
# A Maven repository of one Spark release's jars, taken from its PyPI distribution, for a Spark
# line that Maven Central does not serve yet: its profile in pom.xml names the release
# (spark.version), pins the pyspark source archive's SHA-256 (spark.dist.sha256) and reads the
# repository this script makes (~/.cache/kae-shuffle/spark-repo-<version>). An archive with
# another SHA-256 is refused. Each jar of the archive's deps/jars/ is laid out under its own
# coordinates (read from the jar's META-INF/maven/*/pom.properties). The release's whole
# dependency tree is stated once, as the aggregate pom
# io.github.kaeshuffle.spark-dist:spark-dist_<scala>:<version>, whose dependencies are every jar
# the distribution ships (each with its transitive dependencies excluded); each of Spark's own
# jars depends on that aggregate, as a real spark-core brings Spark's tree, and every other jar's
# pom lists no dependencies. Maven keeps copies of what it took from here in its local repository
# (KAE_MAVEN_REPO, default ~/.m2/repository); laying the jars out anew (a new archive or `layout`)
# removes those of this release, so that Maven takes the new poms. A jar without Maven
# metadata (scala-library, zstd-jni, ...) is listed under the group io.github.kaeshuffle.spark-dist,
# its file name split into artifact and version. Made once per machine; .build/test-line.sh runs it
# for such a profile. The archive is kept in KAE_SPARK_CACHE (default ~/.cache/kae-shuffle), where
# integration-tests' spark-dist.sh takes the same checked archive; the repository stays under
# ~/.cache/kae-shuffle, the URL the profile names.
#   usage: spark-dist-repo.sh <profile>   (e.g. spark-4.3)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:?usage: spark-dist-repo.sh <profile, e.g. spark-4.3>}

# A property of the profile's block in pom.xml.
property() {
  awk -v id="<id>$profile</id>" -v p="$1" '
    index($0, id) { inside = 1 }
    inside && index($0, "</profile>") { exit }
    inside && index($0, "<" p ">") { sub(".*<" p ">", ""); sub("</" p ">.*", ""); print; exit }
  ' pom.xml
}
version=$(property spark.version)
sha=$(property spark.dist.sha256)
scala=$(property scala.binary.version)
scala=${scala:-2.13}
[ -n "$version" ] && [ -n "$sha" ] || {
  echo "[kae] ERROR: pom.xml's profile $profile pins no spark.version and spark.dist.sha256" >&2
  exit 2; }
repo="$HOME/.cache/kae-shuffle/spark-repo-$version"
aggregate="io/github/kaeshuffle/spark-dist/spark-dist_$scala/$version"
layout=3
if [ -f "$repo/$aggregate/spark-dist_$scala-$version.pom" ] &&
   [ "$(cat "$repo/.made" 2>/dev/null)" = "$sha layout $layout" ]; then
  echo "[kae] Spark $version's jars: $repo" >&2
  exit 0
fi

# The archive lives where spark-dist.sh looks for it, so both use one checked download.
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
sdist="$cache/pyspark-$version.tar.gz"
mkdir -p "$cache"
[ -f "$sdist" ] || integration-tests/src/test/scripts/pyspark-sdist.sh "$version" "$sdist" "$sha"
actual=$(sha256sum "$sdist" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  mv "$sdist" "$sdist.refused"
  echo "[kae] ERROR: $sdist has SHA-256 $actual, the build pins $sha;" \
       "kept as $sdist.refused and not used" >&2
  exit 1
fi

tmp=$(mktemp -d "$repo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "[kae] laying out Spark $version's jars as a Maven repository in $repo" >&2
tar -xzf "$sdist" -C "$tmp" --wildcards "pyspark-$version/deps/jars/*.jar"
jars="$tmp/pyspark-$version/deps/jars"

# "group artifact version classifier" of a jar: the Maven metadata entry its file is named for.
coordinates() {
  local jar=$1 name entry props g a v
  name=$(basename "$jar" .jar)
  for entry in $(unzip -Z1 "$jar" 'META-INF/maven/*/pom.properties' 2>/dev/null); do
    props=$(unzip -p "$jar" "$entry" | tr -d '\r')
    g=$(sed -n 's/^groupId=//p' <<< "$props")
    a=$(sed -n 's/^artifactId=//p' <<< "$props")
    v=$(sed -n 's/^version=//p' <<< "$props")
    if [ "$name" = "$a-$v" ]; then echo "$g $a $v -"; return; fi
    case $name in "$a-$v-"*) echo "$g $a $v ${name#"$a-$v-"}"; return ;; esac
  done
  if [[ $name =~ ^([^-]+(-[^0-9][^-]*)*)-([0-9].*)$ ]]; then
    echo "io.github.kaeshuffle.spark-dist ${BASH_REMATCH[1]} ${BASH_REMATCH[3]} -"
  else
    echo "io.github.kaeshuffle.spark-dist $name $version -"
  fi
}

pom() { # group artifact version packaging [dependencies xml]
  cat <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>$1</groupId>
  <artifactId>$2</artifactId>
  <version>$3</version>
  <packaging>$4</packaging>
  <description>From pyspark $version (sdist SHA-256 $sha) by .build/spark-dist-repo.sh.</description>
${5:-}
</project>
POM
}

# A Spark jar's dependencies: the whole distribution, through the aggregate.
tree="  <dependencies><dependency><groupId>io.github.kaeshuffle.spark-dist</groupId>"
tree+="<artifactId>spark-dist_$scala</artifactId><version>$version</version><type>pom</type>"
tree+="</dependency></dependencies>"
deps=""
for jar in "$jars"/*.jar; do
  read -r g a v c < <(coordinates "$jar")
  dir="$tmp/repo/${g//.//}/$a/$v"
  mkdir -p "$dir"
  if [ "$c" = - ]; then cp "$jar" "$dir/$a-$v.jar"; else cp "$jar" "$dir/$a-$v-$c.jar"; fi
  if [ ! -f "$dir/$a-$v.pom" ]; then
    if [ "$g" = org.apache.spark ]; then pom "$g" "$a" "$v" jar "$tree" > "$dir/$a-$v.pom"
    else pom "$g" "$a" "$v" jar > "$dir/$a-$v.pom"; fi
  fi
  deps+="    <dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>"
  [ "$c" = - ] || deps+="<classifier>$c</classifier>"
  deps+="<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion>"
  deps+="</exclusions></dependency>"$'\n'
done
mkdir -p "$tmp/repo/$aggregate"
pom io.github.kaeshuffle.spark-dist "spark-dist_$scala" "$version" pom \
  "  <dependencies>"$'\n'"$deps  </dependencies>" > "$tmp/repo/$aggregate/spark-dist_$scala-$version.pom"
echo "$sha layout $layout" > "$tmp/repo/.made"
rm -rf "$repo"
mv "$tmp/repo" "$repo"
m2=${KAE_MAVEN_REPO:-$HOME/.m2/repository}
rm -rf "$m2"/org/apache/spark/*/"$version" "$m2"/io/github/kaeshuffle/spark-dist
echo "[kae] Spark $version: $(ls "$jars"/*.jar | wc -l) jars in $repo" >&2
