#!/usr/bin/env bash
# The tools and libraries for building the native library for the other Linux architecture
# (x86_64 <-> aarch64) and testing it under emulation; part of the test command's set-up, never
# of the quick start (which builds the host's library only: -Dkae.native.cross=false).
#   source toolchain.sh; ensure_cross_tools aarch64|x86_64 <sysroot dir> [with-qemu]
# Sets CROSS_CC and CROSS_LIBDIR (<sysroot dir>/libs).
#
# What it changes on the machine, and only when missing and running as root:
#  - installs the cross compiler (gcc-<triplet>) and, for the tests, qemu-user, with apt-get
#    --no-install-recommends --no-upgrade, after a dry run shows that no installed package would
#    be upgraded (otherwise it refuses and says what to do);
#  - adds the other architecture to dpkg's list (dpkg --add-architecture) and refreshes apt's
#    package lists, so apt-get can *download* that architecture's zlib and libdeflate. Those are
#    not installed: they are unpacked into <sysroot dir> (under target/) to link against and to
#    run the emulated tests with.
# Set KAE_NATIVE_NO_INSTALL=1 to never change the machine (it then says what is missing).

deb_arch_of() { case "$1" in aarch64) echo arm64 ;; x86_64) echo amd64 ;; esac; }
triplet_of() { case "$1" in aarch64) echo aarch64-linux-gnu ;; x86_64) echo x86_64-linux-gnu ;; esac; }
gcc_pkg_of() { case "$1" in aarch64) echo gcc-aarch64-linux-gnu ;; x86_64) echo gcc-x86-64-linux-gnu ;; esac; }

may_change_machine() {
  [ "${KAE_NATIVE_NO_INSTALL:-}" != 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}

apt_lists_fresh=
refresh_apt_lists() {
  [ -n "$apt_lists_fresh" ] && return 0
  apt-get update -qq >&2
  apt_lists_fresh=1
}

# install_tools <package>...: exact names, nothing recommended, nothing upgraded.
install_tools() {
  [ $# -eq 0 ] && return 0
  local how="apt-get install --no-install-recommends --no-upgrade $*"
  if ! may_change_machine; then
    echo "[kae-native] ERROR: the cross build needs $*. Install them with: $how" >&2
    echo "  (or skip the other architecture: -Dkae.native.cross=false)" >&2
    return 1
  fi
  refresh_apt_lists
  # A dry run first: "Inst name [installed version] ..." means an installed package would change.
  local upgrades
  upgrades=$(apt-get -s install --no-install-recommends --no-upgrade "$@" | awk '/^Inst [^ ]+ \[/ {print $2}')
  if [ -n "$upgrades" ]; then
    echo "[kae-native] ERROR: installing $* would upgrade installed packages ($(echo $upgrades))," >&2
    echo "  which this build never does. Install them yourself ($how) or build with" >&2
    echo "  -Dkae.native.cross=false." >&2
    return 1
  fi
  echo "[kae-native] installing $* (nothing else upgraded)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade "$@" >&2
}

# fetch_libs <deb arch> <triplet> <sysroot> <package>...: downloads and unpacks into <sysroot>,
# then gathers the shared libraries into <sysroot>/libs; installs nothing.
fetch_libs() {
  local deb=$1 triplet=$2 sysroot=$3
  shift 3
  if ! may_change_machine; then
    echo "[kae-native] ERROR: the cross build needs $* unpacked into $sysroot. As root:" >&2
    echo "  dpkg --add-architecture $deb && apt-get update && apt-get download $*" >&2
    echo "  then dpkg-deb -x each .deb into $sysroot (or build with -Dkae.native.cross=false)" >&2
    return 1
  fi
  if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
    echo "[kae-native] adding $deb to dpkg's architectures, to download its libraries" >&2
    dpkg --add-architecture "$deb"
    apt_lists_fresh=
  fi
  refresh_apt_lists
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "$@" >&2)
  mkdir -p "$sysroot/libs"
  for f in "$tmp"/*.deb; do dpkg-deb -x "$f" "$sysroot"; done
  rm -rf "$tmp"
  # Packages put libraries in /lib/<triplet> or /usr/lib/<triplet>: one dir for -L and the loader.
  find "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet" -maxdepth 1 -name 'lib*.so*' \
    -exec cp -P {} "$sysroot/libs/" \; 2>/dev/null
  echo "[kae-native] unpacked $* into $sysroot (not installed)" >&2
}

ensure_cross_tools() {
  local arch=$1 sysroot=$2 qemu=${3:-}
  local deb triplet
  deb=$(deb_arch_of "$arch")
  triplet=$(triplet_of "$arch")
  CROSS_CC="$triplet-gcc"
  CROSS_LIBDIR="$sysroot/libs"
  local tools=() libs=()
  command -v "$CROSS_CC" >/dev/null || tools+=("$(gcc_pkg_of "$arch")")
  # The C library's headers for that architecture: only a Recommends of the compiler package,
  # which --no-install-recommends leaves out.
  [ -e "/usr/$triplet/include/stdio.h" ] || tools+=("libc6-dev-$deb-cross")
  [ -e "$CROSS_LIBDIR/libz.so.1" ] || libs+=("zlib1g:$deb")
  if [ -n "$qemu" ]; then
    command -v "qemu-$arch" >/dev/null || tools+=(qemu-user)
    [ -e "$CROSS_LIBDIR/libdeflate.so.0" ] || libs+=("libdeflate0:$deb")
  fi
  install_tools "${tools[@]}" || return 1
  if [ ${#libs[@]} -gt 0 ]; then fetch_libs "$deb" "$triplet" "$sysroot" "${libs[@]}" || return 1; fi
  # The linker looks for libz.so; the runtime package has only libz.so.1.
  ln -sf libz.so.1 "$CROSS_LIBDIR/libz.so"
}
