#!/usr/bin/env bash
# The release bundle (docs/operations.md#the-release-bundle): every Spark line's application jar
# and NodeManager service jar, each named for its line, built in a copy of the tree per line
# (.build/test-line.sh, tests skipped: the gate and the matrix test them), with SHA-256 sums,
# LICENSE, NOTICE, CHANGELOG.md, the docs and the preflight command, packed as
# target/release/kae-shuffle-<version>.tar.gz. Then .build/release-smoke.sh checks the bundle.
#   usage: .build/release.sh [profiles...]   (default: every line)
# About 2 minutes per line on 2 cores, and the smoke test about 3.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(spark-4.2 spark-4.3 spark-4.1 spark-4.0 spark-3.5 spark-3.5_2.13)
version=$(bash .build/maven-value.sh project.version)
name=kae-shuffle-$version
out=target/release/$name
rm -rf "$out" "$out.tar.gz" && mkdir -p "$out/jars" "$out/service" "$out/tools" "$out/bin"
for p in "${lines[@]}"; do
  echo "[kae] release: building $p"
  bash .build/test-line.sh "$p" '' -DskipTests -Dspotless.check.skip=true > "target/release-$p.log" 2>&1 ||
    { echo "[kae] release: $p failed to build, see target/release-$p.log" >&2; exit 1; }
  tree=target/lines/$p
  cp "$tree"/shuffle-core/target/kae-shuffle-spark*_*-"$version".jar "$out/jars/"
  cp "$tree"/shuffle-service/target/kae-shuffle-service-spark*_*-"$version"-yarn.jar "$out/service/"
  # The doctor is built against the line's Spark: named for it as the application jar is.
  app=$(basename "$tree"/shuffle-core/target/kae-shuffle-spark*_*-"$version".jar)
  cp "$tree/shuffle-core/doctor/target/kae-shuffle-doctor-$version.jar" \
    "$out/tools/${app/kae-shuffle-spark/kae-shuffle-doctor-spark}"
done
cp LICENSE NOTICE CHANGELOG.md "$out/"
cp -r docs "$out/docs"
install -m 755 .build/release/kae-preflight "$out/bin/kae-preflight"
(cd "$out" && sha256sum jars/*.jar service/*.jar tools/*.jar > SHA256SUMS)
tar -C target/release -czf "$out.tar.gz" "$name"
echo "[kae] release: $out.tar.gz"
cat "$out/SHA256SUMS"
bash .build/release-smoke.sh "$out.tar.gz"
