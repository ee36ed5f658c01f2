#!/usr/bin/env bash
# Builds the libFuzzer target fuzz_codec.c with AddressSanitizer and UndefinedBehaviorSanitizer
# and runs it for a bounded time. Usage: fuzz.sh <seconds> <output dir>
# Needs clang with libFuzzer (Debian: clang-14 libclang-rt-14-dev, installed here when missing
# and running as root), zlib1g-dev and libdeflate0.
set -euo pipefail
seconds=${1:-60}
out=${2:-target/fuzz}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../main/native" && pwd)
mkdir -p "$out/corpus" "$out/artifacts"
out=$(cd "$out" && pwd)

CLANG=$(command -v clang-14 || command -v clang || true)
fuzzer_rt() { [ -n "$CLANG" ] && ls "$("$CLANG" -print-resource-dir)"/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; }
if ! fuzzer_rt; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "[kae-fuzz] installing clang-14 and libclang-rt-14-dev"
    apt-get install -y -q clang-14 libclang-rt-14-dev >/dev/null
    CLANG=$(command -v clang-14)
  else
    echo "[kae-fuzz] needs clang with libFuzzer: apt-get install clang-14 libclang-rt-14-dev" >&2
    exit 1
  fi
fi

"$CLANG" -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -I"$src" -o "$out/fuzz_codec" "$here/fuzz_codec.c" \
  "$src/zlib_backend.c" "$src/libdeflate_backend.c" "$src/kae_error_text.c" \
  "$src/kae_library.c" -lz -ldl

# Seeds: valid blocks of each backend's format (zlib) for a few sizes, so the fuzzer starts from
# blocks that decode and mutates them.
python3 - "$out/corpus" <<'PY'
import os, sys, zlib, random
d = sys.argv[1]
r = random.Random(7)
for i, n in enumerate([0, 1, 100, 4096, 65536]):
    raw = bytes(r.choice(b"abcdefgh ") for _ in range(n))
    block = zlib.compress(raw, 1)
    for backend in range(3):
        with open(os.path.join(d, f"seed-{i}-{backend}"), "wb") as f:
            f.write(bytes([backend, (n >> 16) & 255, (n >> 8) & 255, n & 255]) + block)
PY

echo "[kae-fuzz] running fuzz_codec for $seconds s"
set +e
"$out/fuzz_codec" "$out/corpus" -max_total_time="$seconds" -print_final_stats=1 \
  -rss_limit_mb=4096 -max_len=262144 -artifact_prefix="$out/artifacts/" \
  > "$out/fuzz.log" 2>&1
rc=$?
set -e
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/fuzz.log" | grep -o '[0-9]*$' || echo 0)
cov=$(grep -o 'cov: [0-9]*' "$out/fuzz.log" | tail -1 | grep -o '[0-9]*' || echo ?)
echo "fuzz_codec: $runs executions in $seconds s, coverage $cov edges, exit $rc, $(date -u +%F)" \
  | tee "$out/fuzz-report.txt"
if [ $rc -ne 0 ]; then
  tail -40 "$out/fuzz.log" >&2
  exit $rc
fi
