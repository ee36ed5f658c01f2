#!/usr/bin/env bash
# Makes sure the tools for building (and testing under emulation) the native library for another
# Linux architecture are here, installing them with apt (Debian multiarch) when missing and we are
# root: the project's own set-up, so `mvn verify` alone works on a fresh machine.
#   source toolchain.sh; ensure_cross_tools aarch64|x86_64 [with-qemu]
# Sets CROSS_CC and CROSS_LIBDIR. Set KAE_NATIVE_NO_INSTALL=1 to never install.

deb_arch_of() { case "$1" in aarch64) echo arm64 ;; x86_64) echo amd64 ;; esac; }
triplet_of() { case "$1" in aarch64) echo aarch64-linux-gnu ;; x86_64) echo x86_64-linux-gnu ;; esac; }
gcc_pkg_of() { case "$1" in aarch64) echo gcc-aarch64-linux-gnu ;; x86_64) echo gcc-x86-64-linux-gnu ;; esac; }

ensure_cross_tools() {
  local arch=$1 qemu=${2:-}
  local deb triplet
  deb=$(deb_arch_of "$arch")
  triplet=$(triplet_of "$arch")
  CROSS_CC="$triplet-gcc"
  CROSS_LIBDIR="/usr/lib/$triplet"
  local missing=()
  command -v "$CROSS_CC" >/dev/null || missing+=("$(gcc_pkg_of "$arch")")
  [ -e "$CROSS_LIBDIR/libz.so" ] || missing+=("zlib1g-dev:$deb")
  if [ -n "$qemu" ]; then
    command -v "qemu-$arch" >/dev/null || missing+=(qemu-user)
    [ -e "$CROSS_LIBDIR/libdeflate.so.0" ] || missing+=("libdeflate0:$deb")
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  local how="dpkg --add-architecture $deb && apt-get update && apt-get install -y ${missing[*]}"
  if [ "${KAE_NATIVE_NO_INSTALL:-}" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "[kae-native] ERROR: building for linux/$arch needs ${missing[*]}. Install them with:" >&2
    echo "  $how" >&2
    echo "  (or build this architecture's library elsewhere: -Dkae.native.cross=false skips it)" >&2
    return 1
  fi
  echo "[kae-native] installing ${missing[*]} for linux/$arch" >&2
  dpkg --add-architecture "$deb"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}
