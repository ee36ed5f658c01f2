#!/usr/bin/env bash
# A node shape for one run (NodeShape, the scale benchmark): a disk as slow as the node's share,
# and the page cache and dirty pages bounded as on the node. What it makes, all named kae-shape-*:
# a sparse image file, a loop device on it with ext4 mounted, that device's read and write rate
# throttled in cgroup v1's blkio (root cgroup: the writeback of every process is held to it), a
# memory cgroup the run's processes join (their heaps and the page cache they fill), and the
# kernel's dirty-page limits (vm.dirty_bytes, vm.dirty_background_bytes), saved first and put back
# when the last shape goes.
#
#   node-shape.sh can                        exit 0, or 1 with the reason it cannot be made here
#   node-shape.sh up <name> <dir> <disk bytes/s> <memory bytes> <dirty bytes> <disk MiB>
#                                            makes shape <name> with its image and mount under
#                                            <dir>; prints "mount <dir>", "cgroup <procs file>",
#                                            "device <maj:min>"
#   node-shape.sh check <name> <bytes/s>     writes and reads 4 s of data through the disk,
#                                            bypassing the page cache; fails when either rate is
#                                            off by more than 20%
#   node-shape.sh down <name>                removes that shape (nothing to remove is no error)
#   node-shape.sh clean                      removes every shape (what a killed run left)
#
# Needs root, util-linux's losetup, e2fsprogs' mkfs.ext4, cgroup v1's blkio and memory.
set -euo pipefail

STATE=/run/kae-node-shape
BLKIO=/sys/fs/cgroup/blkio
MEMORY=/sys/fs/cgroup/memory
VM=/proc/sys/vm

fail() { echo "node-shape: $*" >&2; exit 1; }

cannot() {
  [ "$(id -u)" = 0 ] || { echo "a node shape needs root (this is uid $(id -u))"; return; }
  command -v losetup > /dev/null || { echo "util-linux's losetup is missing"; return; }
  command -v mkfs.ext4 > /dev/null || { echo "e2fsprogs' mkfs.ext4 is missing"; return; }
  [ -w "$BLKIO/blkio.throttle.write_bps_device" ] ||
    { echo "no cgroup v1 blkio throttle at $BLKIO (cgroup v2 only?)"; return; }
  [ -d "$MEMORY" ] || { echo "no cgroup v1 memory controller at $MEMORY"; return; }
  [ -e /dev/loop-control ] || { echo "no loop devices (/dev/loop-control is missing)"; return; }
  true
}

# Saved once, before the first shape changes them; restored when the last shape goes.
save_vm() {
  [ -f "$STATE/vm.saved" ] && return 0
  local k
  for k in dirty_ratio dirty_background_ratio dirty_bytes dirty_background_bytes; do
    echo "$k $(cat "$VM/$k")"
  done > "$STATE/vm.saved"
}

restore_vm() {
  [ -f "$STATE/vm.saved" ] || return 0
  local k v
  # A *_bytes value of 0 means the ratio is in force; writing either zeroes the other.
  while read -r k v; do
    case "$k" in *_bytes) [ "$v" = 0 ] && continue ;; esac
    echo "$v" > "$VM/$k"
  done < "$STATE/vm.saved"
  rm -f "$STATE/vm.saved"
}

up() {
  local name=$1 dir=$2 rate=$3 memory=$4 dirty=$5 mib=$6
  local why
  why=$(cannot) && [ -z "$why" ] || fail "$why"
  [[ "$name" =~ ^[a-z0-9-]+$ ]] || fail "shape name $name: use a-z, 0-9 and -"
  down "$name"
  mkdir -p "$STATE/$name" "$dir"
  local image="$dir/kae-shape-$name.img" mnt="$dir/kae-shape-$name"
  rm -f "$image"
  truncate -s "${mib}M" "$image"
  echo "$image" > "$STATE/$name/image"
  # Inode tables written now, not by ext4's lazy init later through the throttle; one inode per
  # MiB is plenty for Spark's few large files.
  mkfs.ext4 -q -F -i 1048576 -E lazy_itable_init=0,lazy_journal_init=0 "$image"
  local loop
  loop=$(losetup -f --show "$image")
  echo "$loop" > "$STATE/$name/loop"
  mkdir -p "$mnt"
  mount "$loop" "$mnt"
  echo "$mnt" > "$STATE/$name/mount"
  local dev
  dev=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
  echo "$dev" > "$STATE/$name/device"
  echo "$dev $rate" > "$BLKIO/blkio.throttle.write_bps_device"
  echo "$dev $rate" > "$BLKIO/blkio.throttle.read_bps_device"
  local cg="$MEMORY/kae-shape-$name"
  mkdir -p "$cg"
  echo "$memory" > "$cg/memory.limit_in_bytes"
  echo "$cg" > "$STATE/$name/cgroup"
  save_vm
  echo $((dirty / 2)) > "$VM/dirty_background_bytes"
  echo "$dirty" > "$VM/dirty_bytes"
  echo "mount $mnt"
  echo "cgroup $cg/cgroup.procs"
  echo "device $dev"
}

down() {
  local name=$1 d="$STATE/$1"
  [ -d "$d" ] || return 0
  # The throttle goes first: a process of the run deleting files (Spark's `rm -rf` of its local
  # dirs) waits for their pages under writeback, which at the shape's rate took minutes.
  if [ -f "$d/device" ]; then
    local dev
    dev=$(cat "$d/device")
    echo "$dev 0" > "$BLKIO/blkio.throttle.write_bps_device" 2> /dev/null || true
    echo "$dev 0" > "$BLKIO/blkio.throttle.read_bps_device" 2> /dev/null || true
  fi
  if [ -f "$d/cgroup" ]; then
    local cg pid
    cg=$(cat "$d/cgroup")
    if [ -d "$cg" ]; then
      # A killed run's processes still hold the cgroup (and maybe the mount): end them. One in
      # the kernel's D state leaves only when its wait ends.
      for pid in $(cat "$cg/cgroup.procs" 2> /dev/null); do kill -9 "$pid" 2> /dev/null || true; done
      for _ in $(seq 120); do rmdir "$cg" 2> /dev/null && break; sleep 0.5; done
      [ ! -d "$cg" ] || echo "node-shape: $cg still holds $(cat "$cg/cgroup.procs" | wc -l) processes; left" >&2
    fi
  fi
  if [ -f "$d/mount" ]; then
    local mnt
    mnt=$(cat "$d/mount")
    mountpoint -q "$mnt" && umount "$mnt"
    rmdir "$mnt" 2> /dev/null || true
  fi
  [ -f "$d/loop" ] && losetup -d "$(cat "$d/loop")" 2> /dev/null || true
  [ -f "$d/image" ] && rm -f "$(cat "$d/image")"
  rm -rf "$d"
  # The last shape puts the kernel's dirty limits back.
  [ -n "$(ls -A "$STATE" 2> /dev/null | grep -v '^vm.saved$')" ] || restore_vm
}

# Bytes per second of a dd run, from its byte count and the time it took.
rate_of() {
  local start=$1 end=$2 bytes=$3
  awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "%d\n", b / ((e - s) / 1e9) }'
}

check() {
  local name=$1 want=$2 d="$STATE/$1"
  [ -f "$d/mount" ] || fail "no shape $name is up"
  local file mib start end wrote read
  file="$(cat "$d/mount")/self-check"
  mib=$(awk -v r="$want" 'BEGIN { m = int(r * 4 / 1048576); if (m < 4) m = 4; print m }')
  start=$(date +%s%N)
  dd if=/dev/zero of="$file" bs=1M count="$mib" oflag=direct conv=fsync status=none
  end=$(date +%s%N)
  wrote=$(rate_of "$start" "$end" $((mib * 1048576)))
  start=$(date +%s%N)
  dd if="$file" of=/dev/null bs=1M iflag=direct status=none
  end=$(date +%s%N)
  read=$(rate_of "$start" "$end" $((mib * 1048576)))
  rm -f "$file"
  echo "write $wrote read $read want $want"
  awk -v w="$wrote" -v r="$read" -v x="$want" 'BEGIN {
    ok = w > 0.8 * x && w < 1.2 * x && r > 0.8 * x && r < 1.2 * x; exit ok ? 0 : 1 }' ||
    fail "shape $name: wrote $wrote B/s and read $read B/s, not within 20% of $want B/s"
}

clean() {
  local d
  for d in "$STATE"/*/; do
    [ -d "$d" ] && down "$(basename "$d")"
  done
  restore_vm
}

case "${1:-}" in
  can) why=$(cannot); [ -z "$why" ] || { echo "$why"; exit 1; } ;;
  up) [ $# = 7 ] || fail "usage: up <name> <dir> <disk bytes/s> <memory bytes> <dirty bytes> <disk MiB>"; shift; up "$@" ;;
  check) [ $# = 3 ] || fail "usage: check <name> <bytes/s>"; check "$2" "$3" ;;
  down) [ $# = 2 ] || fail "usage: down <name>"; down "$2" ;;
  clean) clean ;;
  *) fail "usage: node-shape.sh can | up | check | down | clean (see the script's head)" ;;
esac
