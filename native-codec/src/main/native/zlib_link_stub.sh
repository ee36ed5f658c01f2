#!/usr/bin/env bash
# Makes a stand-in libz.so.1 to link the other architecture's library against, so the cross build
# needs no zlib of that architecture: the stand-in exports, under zlib's soname and symbol
# versions, exactly the zlib functions the host's library takes from zlib (read off it with nm),
# and does nothing else. The real zlib is only needed where the library runs.
#   zlib_link_stub.sh <host library> <cross compiler> <out dir>
set -euo pipefail
host_lib=$1 cc=$2 out=$3
mkdir -p "$out"
# Undefined dynamic symbols: "U name" or "U name@VERSION"; glibc's are not zlib's.
syms=$(nm -D --undefined-only "$host_lib" | awk '$1 == "U" && $2 !~ /@GLIBC/ {print $2}')
[ -n "$syms" ] || { echo "[kae-native] ERROR: no zlib symbols in $host_lib" >&2; exit 1; }
: > "$out/zlib_stub.c"
declare -A nodes=()
for s in $syms; do
  name=${s%%@*}
  echo "void $name(void) {}" >> "$out/zlib_stub.c"
  [ "$s" = "$name" ] || nodes[${s#*@}]+="$name; "
done
: > "$out/zlib_stub.map"
for v in "${!nodes[@]}"; do echo "$v { global: ${nodes[$v]}};" >> "$out/zlib_stub.map"; done
"$cc" -shared -fPIC -o "$out/libz.so" -Wl,-soname,libz.so.1 \
  ${nodes[*]:+-Wl,--version-script="$out/zlib_stub.map"} "$out/zlib_stub.c"
