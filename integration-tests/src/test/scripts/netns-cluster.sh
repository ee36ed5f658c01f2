#!/usr/bin/env bash
# Test hosts as network namespaces on one bridge, for the cluster tests and benchmarks
# (NetnsCluster). Nothing leaves the machine: the bridge has no address in the root namespace,
# and the addresses (198.18.0.0/15, reserved for network benchmarks, RFC 2544) exist only inside
# the namespaces this script makes.
#
#   netns-cluster.sh up <owner> <hosts> <rate>   host i is namespace kae<owner>-h<i>, address
#                                                198.18.0.<i+1>/24, its link limited to <rate>
#                                                (tc's units, e.g. 1gbit, 250mbit; "none": no limit)
#                                                in both directions
#   netns-cluster.sh down <owner>                removes that cluster's processes, namespaces and
#                                                links (nothing to remove is not an error)
#   netns-cluster.sh clean                       removes every cluster whose owner process is gone
#                                                (a killed run's)
#
# <owner> is the process id of the JVM that owns the cluster. Needs root and iproute2's ip and tc.
set -euo pipefail

fail() { echo "netns-cluster: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "test hosts in network namespaces need root (this is uid $(id -u))"
command -v ip > /dev/null || fail "iproute2's ip is missing (apt-get install iproute2)"
command -v tc > /dev/null || fail "iproute2's tc is missing (apt-get install iproute2)"

bridge() { echo "kaebr$1"; }

# Names of the namespaces of one owner's cluster.
namespaces() { ip netns list | awk '{print $1}' | grep -E "^kae$1-h[0-9]+$" || true; }

down() {
  local owner=$1 ns
  for ns in $(namespaces "$owner"); do
    # Processes first: a namespace with processes in it outlives its name.
    ip netns pids "$ns" 2> /dev/null | xargs -r kill -9 2> /dev/null || true
    ip netns delete "$ns" 2> /dev/null || true
  done
  # Deleting a namespace deletes the veth ends in it and so their peers on the bridge.
  ip link delete "$(bridge "$owner")" 2> /dev/null || true
}

# tbf's burst: 5 ms at the rate, and at least 64 KiB (a GSO segment must fit in it).
burst() {
  local rate=$1 bits
  bits=$(echo "$rate" | awk '
    /[0-9]gbit$/ {sub(/gbit/, ""); print $0 * 1e9; next}
    /[0-9]mbit$/ {sub(/mbit/, ""); print $0 * 1e6; next}
    /[0-9]kbit$/ {sub(/kbit/, ""); print $0 * 1e3; next}
    {print "bad"}')
  [ "$bits" != bad ] || fail "rate $rate: use tc's gbit, mbit or kbit, or none"
  awk -v b="$bits" 'BEGIN { x = b / 8 * 0.005; if (x < 65536) x = 65536; printf "%d\n", x }'
}

limit() {
  local dev=$1 rate=$2 ns=${3:-}
  [ "$rate" = none ] && return 0
  local cmd=(tc qdisc replace dev "$dev" root tbf rate "$rate" burst "$(burst "$rate")" latency 50ms)
  if [ -n "$ns" ]; then ip netns exec "$ns" "${cmd[@]}"; else "${cmd[@]}"; fi
}

up() {
  local owner=$1 hosts=$2 rate=$3 br i ns
  [[ $owner =~ ^[0-9]+$ ]] || fail "owner must be a process id: $owner"
  [[ $hosts =~ ^[0-9]+$ ]] && [ "$hosts" -ge 1 ] && [ "$hosts" -le 200 ] ||
    fail "hosts must be 1 to 200: $hosts"
  [ "$rate" = none ] || burst "$rate" > /dev/null
  down "$owner"
  br=$(bridge "$owner")
  ip link add "$br" type bridge
  ip link set "$br" up
  for ((i = 0; i < hosts; i++)); do
    ns="kae$owner-h$i"
    ip netns add "$ns"
    ip link add "kv${owner}h$i" type veth peer name eth0 netns "$ns"
    ip link set "kv${owner}h$i" master "$br" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "198.18.0.$((i + 1))/24" dev eth0
    ip -n "$ns" link set eth0 up
    # Both directions: what the host sends (its eth0) and what it receives (the bridge's port).
    limit eth0 "$rate" "$ns"
    limit "kv${owner}h$i" "$rate"
  done
}

clean() {
  local owner
  for owner in $(ip netns list | awk '{print $1}' | sed -nE 's/^kae([0-9]+)-h[0-9]+$/\1/p' | sort -u); do
    [ -d "/proc/$owner" ] || down "$owner"
  done
  for owner in $(ip -o link show type bridge | sed -nE 's/^[0-9]+: kaebr([0-9]+)[:@].*/\1/p'); do
    [ -d "/proc/$owner" ] || down "$owner"
  done
}

case "${1:-}" in
  up) up "${2:?owner}" "${3:?hosts}" "${4:?rate}" ;;
  down) down "${2:?owner}" ;;
  clean) clean ;;
  *) fail "usage: netns-cluster.sh up <owner> <hosts> <rate|none> | down <owner> | clean" ;;
esac
