#!/usr/bin/env bash
# Builds the native libraries the codec tests load (called by Maven before the tests run):
#   bash build-test-libs.sh <out_dir>
set -euo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-gcc}
mkdir -p "$out"
flags=(-std=c11 -D_GNU_SOURCE -O2 -fPIC -shared -Wall -Wextra -Werror)
"$CC" "${flags[@]}" -o "$out/libzstandin.so" "$here/zlib_standin.c" -ldl
"$CC" "${flags[@]}" -DFAIL_INIT -o "$out/libzfailinit.so" "$here/zlib_standin.c" -ldl
"$CC" "${flags[@]}" -o "$out/libnotzlib.so" "$here/not_zlib.c"
"$CC" "${flags[@]}" -o "$out/libabortonload.so" "$here/abort_on_load.c"
echo "[kae-native] built test libraries in $out"
