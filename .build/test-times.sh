#!/usr/bin/env bash
# Each test class's time from the Surefire reports under a tree (default: this one, and the
# other lines' copies under target/lines), slowest first, with its module and test counts; last,
# the tests of every report: "tests: N passed, N failed, N skipped".
#   usage: .build/test-times.sh [root] [how many rows, default 10; 0 for all]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
rows=${2:-10}
python3 - "$root" "$rows" <<'PY'
import glob, os, sys
import xml.etree.ElementTree as ET

root, rows = sys.argv[1], int(sys.argv[2])
found = []
for f in glob.glob(os.path.join(root, "**/target/surefire-reports/TEST-*.xml"), recursive=True):
    suite = ET.parse(f).getroot()
    rel = os.path.relpath(f, root).split("/target/surefire-reports/")[0]
    cases = suite.findall("testcase")
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
    found.append((float(suite.get("time") or 0), suite.get("name").split(".")[-1], rel,
                  len(cases) - skipped, skipped, failed))
found.sort(reverse=True)
total = sum(t for t, *_ in found)
print(f"{len(found)} test classes, {total / 60:.1f} min in all (Surefire's per-class times)")
print(f"{'seconds':>8}  {'class':<46} {'run':>4} {'skip':>4} {'fail':>4}  module")
for t, name, rel, run, skipped, failed in found[: rows or len(found)]:
    print(f"{t:8.1f}  {name:<46} {run:>4} {skipped:>4} {failed:>4}  {rel}")
# Every report's tests, in the plain form CI reads as a run's closing line.
ran, skipped, failed = (sum(f[i] for f in found) for i in (3, 4, 5))
print(f"tests: {ran - failed} passed, {failed} failed, {skipped} skipped")
PY
