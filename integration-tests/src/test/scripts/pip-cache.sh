#!/usr/bin/env bash
# Sourced by older-java.sh and .build/release-smoke.sh (whose job is PySpark): installs one PyPI
# package into a cache directory, through a temporary directory beside it, so an interrupted
# install never leaves a half-filled cache that a later build would take for a whole one.
#   pip_into_cache <directory> <package==version> [pip install options...]

pip_into_cache() {
  local dir=$1 package=$2
  shift 2
  python3 -m pip --version >/dev/null 2>&1 || {
    echo "[kae] ERROR: python3 and pip are needed to install $package:" \
         "apt-get install python3 python3-pip" >&2
    exit 1; }
  mkdir -p "$(dirname "$dir")"
  local tmp
  tmp=$(mktemp -d "$dir.XXXXXX")
  # No trap: a caller's own EXIT trap stays in force.
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target "$tmp" "$@" "$package" >&2 || { rm -rf "$tmp"; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
}
