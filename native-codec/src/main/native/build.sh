#!/usr/bin/env bash
# Builds libkaeshuffle for this machine's architecture and, where it can, for the other one
# (x86_64 <-> aarch64), so the one jar serves both; called by Maven (native-codec/pom.xml):
#   bash build.sh <java_home> <jni_header_dir> <classes_dir> <version> <cross: true|auto|false> \
#     <cross sysroot dir>
# cross (kae.native.cross): true requires the other architecture (the release bundle), auto
# builds it where a cross compiler is found (toolchain.sh), false never. Says which
# architectures the jar carries. Puts each library at <classes_dir>/linux/<arch>/
# libkaeshuffle-<version>.so, the resource path the Java loader (NativeLoader) looks up.
set -euo pipefail
java_home=$1 headers=$2 classes=$3 version=$4 cross=${5:-auto} sysroot=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=toolchain.sh
source "$here/toolchain.sh"

fail() { echo "[kae-native] ERROR: $*" >&2; exit 1; }

case "$cross" in true|auto|false) ;; *) fail "kae.native.cross is '$cross': use true, auto or false" ;; esac
[ "$(uname -s)" = Linux ] || fail "only Linux is supported for the native library (found $(uname -s))"
case "$(uname -m)" in
  x86_64|amd64) host=x86_64 other=aarch64 ;;
  aarch64|arm64) host=aarch64 other=x86_64 ;;
  *) host=$(uname -m) other= ;;
esac

CC=${CC:-gcc}
command -v "$CC" >/dev/null || fail "no C compiler '$CC' on PATH: install gcc (Debian/Ubuntu: apt-get install gcc; openEuler, RHEL: dnf install gcc)"
echo '#include <zlib.h>' | "$CC" -E -x c - >/dev/null 2>&1 \
  || fail "zlib headers missing: install them (Debian/Ubuntu: zlib1g-dev; openEuler, RHEL: zlib-devel)"
[ -f "$java_home/include/jni.h" ] \
  || fail "no jni.h under $java_home/include: build with a JDK (not a JRE), e.g. Debian's openjdk-17-jdk-headless or openEuler's java-17-openjdk-devel"
[ -f "$headers/io_github_kaeshuffle_codec_NativeLib.h" ] \
  || fail "JNI header missing in $headers: compile the Java sources first (mvn compile)"

# build <arch> <compiler> [extra linker dir]: jni_md.h is the same for every 64-bit Linux.
# libdl.so.2 by name and always needed: glibc before 2.34 defines the dl functions there
# (kae_dl.h), -ldl would take a newer glibc's empty libdl.a, and nothing resolves from it here.
build() {
  local arch=$1 cc=$2 libdir=${3:-}
  local out="$classes/linux/$arch"
  mkdir -p "$out"
  local lib="$out/libkaeshuffle-$version.so"
  "$cc" -std=c11 -D_GNU_SOURCE -O2 -fPIC -shared -fvisibility=hidden -fstack-protector-strong \
    -D_FORTIFY_SOURCE=2 -Wall -Wextra -Werror \
    -I"$java_home/include" -I"$java_home/include/linux" -I"$headers" -I"$here" \
    ${libdir:+-L"$libdir"} \
    -Wl,--version-script="$here/exports.map" -Wl,-z,relro,-z,now,-z,noexecstack \
    -o "$lib" "$here"/kae_jni.c "$here"/zlib_backend.c "$here"/libdeflate_backend.c \
    "$here"/kae_error_text.c "$here"/kae_library.c "$here"/kae_memory.c -pthread -lz \
    -Wl,--no-as-needed -l:libdl.so.2 -Wl,--as-needed
  echo "[kae-native] built $lib"
}

build "$host" "$CC"
if [ -n "$other" ]; then
  rm -f "$classes/linux/$other/libkaeshuffle-$version.so" # never a stale one from an older build
fi
if [ "$cross" != false ] && [ -n "$other" ]; then
  status=0
  ensure_cross_tools "$other" "$sysroot/$other" "$cross" || status=$?
  case $status in
    0)
      bash "$here/zlib_link_stub.sh" "$classes/linux/$host/libkaeshuffle-$version.so" "$CROSS_CC" \
        "$sysroot/$other/link"
      build "$other" "$CROSS_CC" "$sysroot/$other/link"
      machine=$(od -An -tu2 -j18 -N2 "$classes/linux/$other/libkaeshuffle-$version.so" | tr -d ' ')
      case "$other:$machine" in
        aarch64:183|x86_64:62) ;;
        *) fail "the $other library has ELF machine $machine" ;;
      esac
      ;;
    2) ;; # auto, and no cross compiler: the notice said so
    *) exit 1 ;;
  esac
fi
carried=$(cd "$classes/linux" && ls -d */libkaeshuffle-"$version".so | cut -d/ -f1 | paste -sd' ')
missing=
if [ -n "$other" ] && [ ! -e "$classes/linux/$other/libkaeshuffle-$version.so" ]; then
  missing=" (not $other: kae.native.cross=$cross)"
fi
echo "[kae-native] the jar carries the native library for: $carried$missing"
