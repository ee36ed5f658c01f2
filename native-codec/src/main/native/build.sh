#!/usr/bin/env bash
# Builds libkaeshuffle for this machine; called by Maven (native-codec/pom.xml), also runnable by hand:
#   bash build.sh <java_home> <jni_header_dir> <classes_dir> <version>
# Puts the library at <classes_dir>/<os>/<arch>/libkaeshuffle-<version>.so, the resource path the
# Java loader (NativeLoader) looks up, with the same os/arch names.
set -euo pipefail
java_home=$1 headers=$2 classes=$3 version=$4
here=$(cd "$(dirname "$0")" && pwd)

fail() { echo "[kae-native] ERROR: $*" >&2; exit 1; }

case "$(uname -s)" in
  Linux) os=linux ;;
  *) fail "only Linux is supported for the native library (found $(uname -s))" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac

CC=${CC:-gcc}
command -v "$CC" >/dev/null || fail "no C compiler '$CC' on PATH: install it with 'apt-get install gcc'"
echo '#include <zlib.h>' | "$CC" -E -x c - >/dev/null 2>&1 \
  || fail "zlib headers missing: install them with 'apt-get install zlib1g-dev'"
[ -f "$java_home/include/jni.h" ] \
  || fail "no jni.h under $java_home/include: build with a JDK (not a JRE), e.g. 'apt-get install openjdk-17-jdk-headless'"
[ -f "$headers/io_github_kaeshuffle_codec_NativeLib.h" ] \
  || fail "JNI header missing in $headers: compile the Java sources first (mvn compile)"

out="$classes/$os/$arch"
mkdir -p "$out"
lib="$out/libkaeshuffle-$version.so"
"$CC" -std=c11 -D_GNU_SOURCE -O2 -fPIC -shared -fvisibility=hidden -fstack-protector-strong \
  -D_FORTIFY_SOURCE=2 -Wall -Wextra -Werror \
  -I"$java_home/include" -I"$java_home/include/$os" -I"$headers" -I"$here" \
  -Wl,--version-script="$here/exports.map" -Wl,-z,relro,-z,now,-z,noexecstack \
  -o "$lib" "$here"/kae_jni.c "$here"/zlib_backend.c "$here"/libdeflate_backend.c \
  "$here"/kae_error_text.c -lz -ldl
echo "[kae-native] built $lib"
