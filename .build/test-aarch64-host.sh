#!/usr/bin/env bash
# The native part of the build on an AArch64 host, as a Kunpeng operator runs it: build.sh inside
# a Debian arm64 userland run by qemu-user through binfmt_misc, where `uname -m` says aarch64 and
# gcc is an AArch64 compiler. Checks that
#   1. with Debian's x86-64 cross compiler in the userland (gcc-x86-64-linux-gnu), the host's
#      library is aarch64 and the other one is cross-built for x86_64, each with its ELF machine,
#      and the build says the jar carries both;
#   2. with kae.native.cross=auto and no cross compiler, only aarch64 is built, and the build says
#      why x86_64 is missing;
#   3. with kae.native.cross=true and no cross compiler, the build stops, naming the packages.
# Needs root, binfmt_misc and Debian's package mirror: debootstrap and qemu-user-static are
# downloaded and unpacked, never installed; the userland (about 700 MB, and 370 MB of tools) is
# kept in ~/.cache/kae-shuffle/aarch64-host and made once, in about 5 minutes on 2 cores; a run
# after that takes under a minute. The binfmt_misc entry is registered for the run only and
# removed at the end (also after a failure). Part of .build/test-matrix.sh.
#   usage: .build/test-aarch64-host.sh
#   KAE_SPARK_CACHE  where to keep the userland (default ~/.cache/kae-shuffle)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "[kae] run as root: it registers qemu with binfmt_misc" >&2; exit 2; }
if [ "$(uname -m)" != x86_64 ]; then
  echo "[kae] the host is $(uname -m): a plain build here is the AArch64-host build" >&2
  exit 2
fi
grep -qw binfmt_misc /proc/filesystems ||
  { echo "[kae] this kernel has no binfmt_misc: no AArch64 userland can run here" >&2; exit 2; }

cache=${KAE_SPARK_CACHE:-$HOME/.cache/kae-shuffle}
dir=$cache/aarch64-host
root=$dir/rootfs
binfmt=/proc/sys/fs/binfmt_misc
entry=kae-shuffle-aarch64
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
work=$(mktemp -d /tmp/kae-aarch64-host.XXXXXX)
cross_cc=$root/usr/bin/x86_64-linux-gnu-gcc
mounted_binfmt=
registered=
hidden=

cleanup() {
  local m
  [ -z "$hidden" ] || umount "$cross_cc"
  for m in "$root/kae/src" "$root/kae/jdk" "$root/kae/out" "$root/proc"; do
    ! mountpoint -q "$m" || umount "$m"
  done
  [ -z "$registered" ] || echo -1 > "$binfmt/$entry"
  [ -z "$mounted_binfmt" ] || umount "$binfmt"
  rm -rf "$work"
}
trap cleanup EXIT

# unpack <dir> <package>...: Debian's packages for this machine, unpacked, not installed.
unpack() {
  local to=$1 f
  shift
  mkdir -p "$to" "$work/debs"
  (cd "$work/debs" && apt-get download -qq -o APT::Sandbox::User=root "$@")
  for f in "$work"/debs/*.deb; do dpkg-deb -x "$f" "$to"; done
  rm -f "$work"/debs/*.deb
}

# A static qemu, so that the kernel can start it inside the userland's chroot; with the flag F
# it opens the binary when the entry is registered.
register_qemu() {
  [ -e "$binfmt/register" ] || { mount -t binfmt_misc binfmt_misc "$binfmt"; mounted_binfmt=1; }
  [ -x "$dir/tools/usr/bin/qemu-aarch64-static" ] || unpack "$dir/tools" qemu-user-static
  [ ! -e "$binfmt/$entry" ] || echo -1 > "$binfmt/$entry" # a killed run's
  # AArch64 ELF executables: the magic and mask qemu's own binfmt script registers.
  echo ":$entry:M::"'\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'":"'\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'":$dir/tools/usr/bin/qemu-aarch64-static:F" \
    > "$binfmt/register"
  registered=1
}

# The userland: Debian's minimal arm64 system with gcc, zlib's headers and the x86-64 cross
# compiler, made once by debootstrap (whose second stage runs emulated).
make_userland() {
  [ -x "$root/usr/bin/x86_64-linux-gnu-gcc" ] && return 0
  echo "[kae] making a Debian arm64 userland in $root (once; about 5 minutes)"
  [ -x "$dir/tools/usr/sbin/debootstrap" ] || unpack "$dir/tools" debootstrap
  [[ $root == "$cache"/* ]] || { echo "[kae] ERROR: refusing to replace $root" >&2; exit 1; }
  rm -rf "$root"
  DEBOOTSTRAP_DIR=$dir/tools/usr/share/debootstrap "$dir/tools/usr/sbin/debootstrap" \
    --arch=arm64 --variant=minbase \
    --include=gcc,libc6-dev,zlib1g-dev,gcc-x86-64-linux-gnu,libc6-dev-amd64-cross \
    bookworm "$root" http://deb.debian.org/debian > "$work/debootstrap.log" 2>&1 ||
    { tail -30 "$work/debootstrap.log"; exit 1; }
}

# build <cross mode> <hide the cross compiler: yes|no>: build.sh in the userland, as Maven calls
# it, into a fresh output directory; its output in $work/build.log.
build() {
  local cross=$1 hide=$2
  rm -rf "${work:?}"/out/* && mkdir -p "$work/out/classes" # the directory itself is mounted
  cp -r native-codec/target/native/include "$work/out/headers"
  [ "$hide" = no ] || { mount --bind /dev/null "$cross_cc"; hidden=1; }
  local status=0
  chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root bash -c '
    [ "$(uname -m)" = aarch64 ] || { echo "uname -m says $(uname -m)"; exit 1; }
    exec bash /kae/src/build.sh /kae/jdk /kae/out/headers /kae/out/classes 0-aarch64-host "$1" \
      /kae/out/cross' build "$cross" > "$work/build.log" 2>&1 || status=$?
  [ -z "$hidden" ] || { umount "$cross_cc"; hidden=; }
  return $status
}

# The ELF machine of the library built for <arch>: 183 aarch64, 62 x86_64.
machine() {
  od -An -tu2 -j18 -N2 "$work/out/classes/linux/$1/libkaeshuffle-0-aarch64-host.so" | tr -d ' '
}

fail() { echo "[kae] FAIL: $*" >&2; cat "$work/build.log" >&2; exit 1; }

[ -d native-codec/target/native/include ] ||
  { echo "[kae] build the tree first (mvn -B install -DskipTests): it needs the JNI headers" >&2; exit 2; }
register_qemu
make_userland
mkdir -p "$root/kae/src" "$root/kae/jdk" "$root/kae/out" "$work/out"
mount --bind native-codec/src/main/native "$root/kae/src"
mount --bind -o ro "$java_home" "$root/kae/jdk"
mount --bind "$work/out" "$root/kae/out"
mount -t proc proc "$root/proc"

echo "[kae] aarch64 host 1/3: build.sh with the x86-64 cross compiler (cross=auto)"
build auto no || fail "build.sh failed"
[ "$(machine aarch64)" = 183 ] || fail "the aarch64 library has ELF machine $(machine aarch64)"
[ "$(machine x86_64)" = 62 ] || fail "the x86_64 library has ELF machine $(machine x86_64)"
grep -q 'the jar carries the native library for: aarch64 x86_64$' "$work/build.log" ||
  fail "build.sh did not say it carries both"
grep '\[kae-native\]' "$work/build.log"

echo "[kae] aarch64 host 2/3: without a cross compiler (cross=auto)"
build auto yes || fail "build.sh failed"
[ "$(machine aarch64)" = 183 ] || fail "the aarch64 library has ELF machine $(machine aarch64)"
[ ! -e "$work/out/classes/linux/x86_64" ] || [ -z "$(ls -A "$work/out/classes/linux/x86_64")" ] ||
  fail "an x86_64 library was built without a cross compiler"
grep -q 'not x86_64: kae.native.cross=auto' "$work/build.log" || fail "build.sh did not say why"
grep -q 'gcc-x86-64-linux-gnu' "$work/build.log" || fail "the notice does not name the compiler"
grep '\[kae-native\]' "$work/build.log"

echo "[kae] aarch64 host 3/3: without a cross compiler (cross=true) the build stops"
if build true yes; then fail "build.sh succeeded without the x86_64 library"; fi
grep -q 'ERROR: the x86_64 library needs the packages gcc-x86-64-linux-gnu' "$work/build.log" ||
  fail "the error does not name the packages"
grep '\[kae-native\] ERROR' "$work/build.log"
echo "[kae] aarch64 host: passed"
