#!/usr/bin/env bash
# Makes sure an AArch64 Java 17 runtime is available to run under qemu-user emulation, for the
# tests that run the deployable jar on an AArch64 JVM. Debian's openjdk-17-jre-headless:arm64 and
# the AArch64 libraries it needs beyond the C library (libstdc++, libgcc, zlib) are downloaded
# with apt-get download and unpacked into the cache directory, never installed; the C library
# and its loader are the cross toolchain's (/usr/aarch64-linux-gnu), and qemu-user runs it.
# Downloading needs root and apt, and is done only when the build asks for installs
# (-Dkae.native.install=true, as the test command does), once per machine. Prints the JAVA_HOME
# to use: a directory whose bin/java starts the AArch64 java under qemu-aarch64, so Spark's own
# launcher (spark-submit) runs on it unchanged.
# Prints nothing (and the suite cancels, saying why) where the build makes no library for
# another architecture (cross false), the host is AArch64 already (its JVM is one), or the
# runtime is missing and may not be fetched (cross auto; with cross true that is an error).
#   usage: aarch64-java.sh [cross: true|auto|false]
#   KAE_SPARK_CACHE     where to keep it (default ~/.cache/kae-shuffle)
#   KAE_NATIVE_INSTALL  true to fetch what is missing (root, apt)
set -euo pipefail
cross=${1:-auto}
[ "$cross" != false ] && [ "$(uname -m)" = x86_64 ] || exit 0
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../../../native-codec/src/main/native/toolchain.sh
source "$here/../../../../native-codec/src/main/native/toolchain.sh"
cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir="$cache/aarch64-java-17"
sysroot="$dir/sysroot"
home="$dir/home"
glibc=/usr/aarch64-linux-gnu

if [ ! -x "$home/bin/java" ] && ! may_change_machine; then
  echo "[kae] $([ "$cross" = true ] && echo ERROR || echo NOTE): no AArch64 Java runtime in $dir" \
    "for the emulated JVM's tests; $(why_unchanged)." >&2
  [ "$cross" = true ] && exit 1 || exit 0
fi
if [ ! -x "$home/bin/java" ]; then
  echo "[kae] fetching an AArch64 Java 17 runtime from Debian's packages into $dir" \
    "(about 45 MB, once per machine; nothing installed)" >&2
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  # qemu-user and the cross C library where missing; zlib and libdeflate into the sysroot.
  ensure_cross_tools aarch64 "$dir.tmp/sysroot" "$cross" with-qemu
  fetch_libs arm64 aarch64-linux-gnu "$dir.tmp/sysroot" \
    openjdk-17-jre-headless:arm64 libstdc++6:arm64 libgcc-s1:arm64
  real=$(find "$dir.tmp/sysroot/usr/lib/jvm" -path '*/bin/java' -type f | head -1)
  [ -n "$real" ] || { echo "[kae] ERROR: no bin/java in openjdk-17-jre-headless:arm64" >&2; exit 1; }
  real=${real#"$dir.tmp/"}
  mkdir -p "$dir.tmp/home/bin"
  # The wrapper: the guest's loader and C library from the cross toolchain, the other libraries
  # from the unpacked packages (set for the guest only: qemu itself is a host program).
  cat > "$dir.tmp/home/bin/java" <<EOF
#!/bin/sh
exec qemu-aarch64 -L $glibc -E LD_LIBRARY_PATH=$sysroot/libs $dir/$real "\$@"
EOF
  chmod +x "$dir.tmp/home/bin/java"
  [[ $dir == "$cache"/* ]] || { echo "[kae] ERROR: refusing to replace $dir" >&2; exit 1; }
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
fi
"$home/bin/java" -XshowSettings:properties -version 2>&1 | grep -q "os.arch = aarch64" || {
  echo "[kae] ERROR: $home/bin/java does not start as an AArch64 JVM:" >&2
  "$home/bin/java" -version >&2 || true
  exit 1
}
echo "$home"
