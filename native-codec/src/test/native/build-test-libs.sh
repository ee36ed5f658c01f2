#!/usr/bin/env bash
# Builds the native programs and libraries the codec tests use (called by Maven before the tests):
#   bash build-test-libs.sh <out_dir> <cross: true|auto|false> <cross sysroot dir> <java_home>
# For the other architecture (x86_64 <-> aarch64) it also builds the C self-test and the load
# check, run under qemu-user by NativeSelfTest, and the KAEzip model, where the tools are found
# (with cross=true they must be; toolchain.sh says what they are and when it installs them).
set -euo pipefail
out=$1 cross=${2:-auto} sysroot=${3:-} java_home=${4:-${JAVA_HOME:-}}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../main/native" && pwd)
# shellcheck source=../../main/native/toolchain.sh
source "$src/toolchain.sh"
CC=${CC:-gcc}
mkdir -p "$out"
flags=(-std=c11 -D_GNU_SOURCE -O2 -fPIC -shared -Wall -Wextra -Werror)
"$CC" "${flags[@]}" -o "$out/libzstandin.so" "$here/zlib_standin.c" -ldl
"$CC" "${flags[@]}" -DFAIL_INIT -o "$out/libzfailinit.so" "$here/zlib_standin.c" -ldl
"$CC" "${flags[@]}" -DDELAY_US=50000 -o "$out/libzslow.so" "$here/zlib_standin.c" -ldl
# The model's stream entry points (the benchmark's study baseline) call its own deflate/inflate:
# -Bsymbolic binds them inside the library whatever else the process loaded.
"$CC" "${flags[@]}" -pthread -Wl,-Bsymbolic -I"$java_home/include" -I"$java_home/include/linux" \
  -o "$out/libkaezipmodel.so" "$here/kaezip_model.c" "$here/kaezip_model_stream.c" -ldl
"$CC" "${flags[@]}" -o "$out/libnotzlib.so" "$here/not_zlib.c"
"$CC" "${flags[@]}" -o "$out/libabortonload.so" "$here/abort_on_load.c"

programs() { # <arch> <compiler> [libdir]
  local arch=$1 cc=$2 libdir=${3:-}
  "$cc" -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I"$src" ${libdir:+-L"$libdir"} \
    -o "$out/codec_selftest-$arch" "$here/codec_selftest.c" "$src/zlib_backend.c" \
    "$src/libdeflate_backend.c" "$src/kae_error_text.c" "$src/kae_library.c" -lz -ldl
  "$cc" -std=c11 -O2 -Wall -Wextra -o "$out/load_check-$arch" "$here/load_check.c" -ldl
}
case "$(uname -m)" in
  x86_64|amd64) host=x86_64 other=aarch64 ;;
  aarch64|arm64) host=aarch64 other=x86_64 ;;
  *) host=$(uname -m) other= ;;
esac
programs "$host" "$CC"
# Never stale ones from an older build.
[ -z "$other" ] || rm -f "$out"/*-"$other" "$out/libkaezipmodel-$other.so"
status=2
if [ "$cross" != false ] && [ -n "$other" ]; then
  ensure_cross_tools "$other" "$sysroot/$other" "$cross" with-qemu && status=0 || status=$?
fi
case $status in
  0)
    programs "$other" "$CROSS_CC" "$CROSS_LIBDIR"
    # The KAEzip model for the other architecture's JVM (Aarch64JvmSuite loads it there).
    "$CROSS_CC" "${flags[@]}" -pthread -Wl,-Bsymbolic -I"$java_home/include" \
      -I"$java_home/include/linux" -o "$out/libkaezipmodel-$other.so" "$here/kaezip_model.c" \
      "$here/kaezip_model_stream.c" -ldl
    ;;
  2) ;; # not asked for, or auto without the tools: the notice said so, the tests skip
  *) exit 1 ;;
esac
echo "[kae-native] built test libraries and programs in $out"
