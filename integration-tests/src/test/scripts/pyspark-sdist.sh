#!/usr/bin/env bash
# Downloads one pyspark release's source archive from PyPI's simple index with curl (no pip,
# no Python) into <file>, checked against the SHA-256 the index lists and, where the caller pins
# one, against that too. Nothing is left at <file> unless it checked. Used by spark-dist.sh (a
# release Maven Central does not serve) and by .build/spark-dist-repo.sh (the 4.3 line's jars).
#   usage: pyspark-sdist.sh <version> <file> [pinned sha256]
#   KAE_PYPI_INDEX   the index to read (default https://pypi.org/simple/pyspark/)
set -euo pipefail
version=${1:?usage: pyspark-sdist.sh <version> <file> [pinned sha256]}
file=${2:?usage: pyspark-sdist.sh <version> <file> [pinned sha256]}
pinned=${3:-}
index=${KAE_PYPI_INDEX:-https://pypi.org/simple/pyspark/}

echo "[kae] fetching pyspark $version's source archive from $index" \
     "(about 450 MB, once per machine)" >&2
link=$(curl -fsS "$index" | grep -o "https://[^\"]*/pyspark-${version//./\\.}\.tar\.gz#sha256=[0-9a-f]*" |
  head -1) || true
[ -n "$link" ] || { echo "[kae] ERROR: $index lists no pyspark-$version.tar.gz" >&2; exit 1; }
sha=${link##*#sha256=}
if [ -n "$pinned" ] && [ "$sha" != "$pinned" ]; then
  echo "[kae] ERROR: $index gives pyspark-$version.tar.gz the SHA-256 $sha; the build pins" \
       "$pinned. Not downloaded." >&2
  exit 1
fi
curl -fsS -o "$file.part" "${link%%#*}" && echo "$sha  $file.part" | sha256sum -c --quiet >&2 || {
  rm -f "$file.part"
  echo "[kae] ERROR: pyspark-$version.tar.gz did not download whole from PyPI" >&2
  exit 1; }
mv "$file.part" "$file"
