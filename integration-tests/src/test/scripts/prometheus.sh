#!/usr/bin/env bash
# Makes sure a Prometheus server is available for the metrics test that has a real Prometheus
# scrape an application: Debian's `prometheus` package, downloaded with apt-get download and
# unpacked into the cache directory, never installed (its binary is a static Go program). Once per
# machine; prints the path of the prometheus binary, or nothing where apt cannot fetch it (the
# test then cancels and says so).
#   KAE_SPARK_CACHE   where to keep it (default ~/.cache/kae-shuffle)
set -euo pipefail
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/prometheus"
bin="$dir/usr/bin/prometheus"
if [ ! -x "$bin" ]; then
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
    echo "[kae] no apt-get/dpkg-deb here: the Prometheus test will cancel" >&2; exit 0; }
  echo "[kae] fetching Debian's prometheus package into $dir (about 20 MB, once per machine;" \
    "nothing installed)" >&2
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  if ! (cd "$dir.tmp" && apt-get download prometheus >&2); then
    echo "[kae] apt-get download prometheus failed: the Prometheus test will cancel" >&2
    rm -rf "$dir.tmp"
    exit 0
  fi
  dpkg-deb -x "$dir.tmp"/prometheus_*.deb "$dir.tmp"
  rm -f "$dir.tmp"/prometheus_*.deb
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
fi
"$bin" --version >/dev/null 2>&1 || { echo "[kae] ERROR: $bin does not run" >&2; exit 1; }
echo "$bin"
