#!/usr/bin/env bash
# README's build, quick start and plain `mvn verify` as an operator meets them on a Kunpeng
# host's OS (openEuler, Kylin: no apt) and without root: from a clean clone of HEAD, as the user
# nobody with a fresh HOME, in a mount namespace where apt-get, apt, dpkg, dpkg-deb, python3 and
# pip are not executable.
#   1. `mvn -B package -DskipTests` with the cross compiler visible: the jar carries both
#      architectures' libraries, built without root or apt;
#   2. the same with the cross compiler hidden too: the jar carries the host's library only, and
#      the build says so;
#   3. README's quick start (`-Pquickstart verify`), whose jobs must give Spark's results;
#   4. with --verify, a plain `mvn -B verify`: every test passes or is reported skipped with the
#      reason its tool (root, apt, qemu, pip) is missing; the Spark distributions come from
#      Maven Central's jars.
# Maven runs offline from a copy of the caller's local repository, so only the build's own
# inputs are used (run any build of the tree first; step 4 also needs the Spark jars that
# spark-dist.sh assembles, so run it after a `mvn verify`). Run as root (it makes the namespace
# and drops to nobody); about 6 minutes on 2 cores, 20 more with --verify. Part of
# .build/test-matrix.sh.
#   usage: .build/test-anywhere.sh [--verify [maven args for step 4, e.g. -Dtest=...]]
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "[kae] run as root: it drops to the user nobody itself" >&2; exit 2; }
verify=${1:-}
shift $(( $# > 0 ? 1 : 0 ))
# Not offline: a local repository that has never run the help plugin fetches it here, once.
repo=$(mvn -B -q help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null |
  sed "s/\x1b\[[0-9;]*m//g") ||
  { echo "[kae] could not ask Maven for its local repository (help:evaluate)" >&2; exit 1; }
work=$(mktemp -d /tmp/kae-anywhere.XXXXXX)
# Kept where a step fails: its logs, clone and home say why (surefire's reports included).
trap '[ $? = 0 ] && rm -rf "$work" || echo "[kae] anywhere: kept $work" >&2' EXIT
git clone -q . "$work/clone"
mkdir -p "$work/home/.m2"
cp -r "$repo" "$work/home/.m2/repository"
rm -rf "$work/home/.m2/repository/io/github/kaeshuffle" # never this project's own artifacts
chown -R 65534:65534 "$work"
chmod 755 "$work"

cross=$(command -v aarch64-linux-gnu-gcc || true)
[ "$(uname -m)" = x86_64 ] || cross=$(command -v x86_64-linux-gnu-gcc || true)
[ -n "$cross" ] || { echo "[kae] no cross compiler here: step 1 would prove nothing" >&2; exit 1; }

# <hide cross compiler: yes|no> <maven args...>: Maven as nobody without apt (and the compiler).
as_operator() {
  local hide=$1
  shift
  unshare -m bash -s "$hide" "$cross" "$work" "$@" <<'EOF'
set -euo pipefail
hide=$1 cross=$2 work=$3
shift 3
for tool in apt-get apt dpkg dpkg-deb python3 pip pip3; do
  for path in $(which -a "$tool" || true); do
    mount --bind /dev/null "$path"
  done
done
[ "$hide" = no ] || mount --bind /dev/null "$cross"
cd "$work/clone"
exec setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH="$PATH" HOME="$work/home" \
  USER=nobody LANG=C.UTF-8 MAVEN_OPTS="-Duser.home=$work/home" mvn -o "$@"
EOF
}

# The architectures whose library the deployable jar carries, sorted.
carried() {
  local jar
  jar=$(ls "$work"/clone/shuffle-core/target/kae-shuffle-spark*_*.jar)
  unzip -l "$jar" | grep -o 'linux/[a-z0-9_]*/libkaeshuffle' | cut -d/ -f2 | sort | paste -sd' '
}

echo "[kae] anywhere 1/4: mvn -B package -DskipTests, as nobody, without apt"
as_operator no -B package -DskipTests > "$work/1.log" 2>&1 || { tail -40 "$work/1.log"; exit 1; }
grep '\[kae-native\] the jar carries' "$work/1.log"
[ "$(carried)" = "aarch64 x86_64" ] || { echo "[kae] FAIL: the jar carries $(carried)" >&2; exit 1; }

echo "[kae] anywhere 2/4: the same without a cross compiler"
as_operator yes -B package -DskipTests > "$work/2.log" 2>&1 || { tail -40 "$work/2.log"; exit 1; }
grep -A2 '\[kae-native\] NOTE' "$work/2.log" | head -3
grep '\[kae-native\] the jar carries' "$work/2.log"
host=$([ "$(uname -m)" = x86_64 ] && echo x86_64 || echo aarch64)
[ "$(carried)" = "$host" ] || { echo "[kae] FAIL: the jar carries $(carried)" >&2; exit 1; }

echo "[kae] anywhere 3/4: README's quick start, as nobody, without apt"
as_operator yes -B -q -pl integration-tests -am -Pquickstart verify -Dquickstart.size=tiny \
  > "$work/3.log" 2>&1 || { tail -40 "$work/3.log"; exit 1; }
grep -E "^results: " "$work/3.log"

if [ "$verify" = --verify ]; then
  echo "[kae] anywhere 4/4: a plain mvn -B verify, as nobody, without apt, python3 or pip"
  as_operator yes -B verify "$@" > "$work/4.log" 2>&1 || {
    grep -E 'FAIL|ERROR' "$work/4.log" | head -40; exit 1; }
  grep -E 'Tests run:.*Skipped' "$work/4.log" | grep -v ' -- in ' | tail -8
  # Reasons are in a skipped test's message (a cancelled test) or its name ("... [reason]", an
  # ignored one); a test that ran is never counted, whatever its name ends with.
  echo "[kae] the skipped tests' reasons (besides [matrix only]):"
  find "$work"/clone -path '*/lines' -prune -o -name 'TEST-*.xml' -print | python3 -c '
import re, sys, xml.etree.ElementTree as ET
for path in sys.stdin.read().split():
    for case in ET.parse(path).iter("testcase"):
        skipped = case.find("skipped")
        if skipped is None:
            continue
        message = skipped.get("message") or "Test ignored."
        tail = re.search(r"\s(\[[^]]*\])$", case.get("name", ""))
        print(tail.group(1) if message == "Test ignored." and tail else message)
' | grep -vE '^(\[matrix only\]|\[matrix, default line only\]|Test ignored\.)$' |
    sort | uniq -c | sort -rn | head -20 || true
fi
echo "[kae] anywhere: passed"
