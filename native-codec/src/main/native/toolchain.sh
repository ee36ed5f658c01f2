#!/usr/bin/env bash
# The tools for building the native library for the other Linux architecture (x86_64 <->
# aarch64) and testing it under emulation.
#   source toolchain.sh; ensure_cross_tools aarch64|x86_64 <sysroot dir> <mode> [with-qemu]
# <mode> is the build's kae.native.cross: "true" (the other architecture is required: the
# release bundle, the gate) or "auto" (built where the tools are found; otherwise one notice and
# a return status of 2, which callers take as "host only").
# Sets CROSS_CC and CROSS_LIBDIR (<sysroot dir>/libs: zlib and libdeflate for the emulated
# tests, which take the C library and its loader from /usr/<triplet>, the compiler's).
#
# Building needs only a cross compiler with its C library: it links against a stand-in libz.so.1
# (zlib_link_stub.sh), since the real one is only needed where the library runs. The
# emulated tests also need qemu-user and the other architecture's zlib and libdeflate.
#
# It changes the machine only when asked (KAE_NATIVE_INSTALL=true, the build's
# -Dkae.native.install=true), as root, where apt-get exists:
#  - installs what is missing of the cross compiler (gcc-<triplet>), its C library's headers and,
#    for the tests, qemu-user, with apt-get --no-install-recommends --no-upgrade, after a dry run
#    shows that no installed package would be upgraded (otherwise it refuses and says what to do);
#  - adds the other architecture to dpkg's list and refreshes apt's package lists, so apt-get can
#    *download* that architecture's zlib and libdeflate. Those are not installed: they are
#    unpacked into <sysroot dir> (under target/) for the emulated tests.

deb_arch_of() { case "$1" in aarch64) echo arm64 ;; x86_64) echo amd64 ;; esac; }
triplet_of() { case "$1" in aarch64) echo aarch64-linux-gnu ;; x86_64) echo x86_64-linux-gnu ;; esac; }
gcc_pkg_of() { case "$1" in aarch64) echo gcc-aarch64-linux-gnu ;; x86_64) echo gcc-x86-64-linux-gnu ;; esac; }

may_change_machine() {
  [ "${KAE_NATIVE_INSTALL:-false}" = true ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}

# Why the machine is left as it is, for the messages.
why_unchanged() {
  if [ "${KAE_NATIVE_INSTALL:-false}" != true ]; then
    echo "the build installs nothing unless asked (-Dkae.native.install=true, as root, with apt)"
  elif [ "$(id -u)" != 0 ]; then
    echo "-Dkae.native.install=true needs root"
  else
    echo "-Dkae.native.install=true needs apt-get, which this machine lacks"
  fi
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
  refresh_apt_lists
  # A dry run first: "Inst name [installed version] ..." means an installed package would change.
  local upgrades
  upgrades=$(apt-get -s install --no-install-recommends --no-upgrade "$@" | awk '/^Inst [^ ]+ \[/ {print $2}')
  if [ -n "$upgrades" ]; then
    echo "[kae-native] ERROR: installing $* would upgrade installed packages ($(echo $upgrades))," >&2
    echo "  which this build never does. Install them yourself ($how) or build with" >&2
    echo "  -Dkae.native.cross=auto." >&2
    return 1
  fi
  echo "[kae-native] installing $* (nothing else upgraded)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade "$@" >&2
}

# fetch_libs <deb arch> <triplet> <sysroot> <package>...: downloads and unpacks into <sysroot>,
# then gathers the shared libraries into <sysroot>/libs; installs nothing. Needs root and apt.
fetch_libs() {
  local deb=$1 triplet=$2 sysroot=$3
  shift 3
  if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
    echo "[kae-native] adding $deb to dpkg's architectures, to download its libraries" >&2
    dpkg --add-architecture "$deb"
    apt_lists_fresh=
  fi
  refresh_apt_lists
  local tmp f
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "$@" >&2)
  mkdir -p "$sysroot/libs"
  for f in "$tmp"/*.deb; do dpkg-deb -x "$f" "$sysroot"; done
  rm -rf "$tmp"
  # Packages put libraries in /lib/<triplet> or /usr/lib/<triplet>: one dir for the loader.
  find "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet" -maxdepth 1 -name 'lib*.so*' \
    -exec cp -P {} "$sysroot/libs/" \; 2>/dev/null
  echo "[kae-native] unpacked $* into $sysroot (not installed)" >&2
}

# The other architecture's shared libraries where this machine already has them (a multiarch
# install or a cross sysroot), gathered into <sysroot>/libs without changing the machine.
gather_libs() {
  local triplet=$1 sysroot=$2 name dir
  shift 2
  mkdir -p "$sysroot/libs"
  for name in "$@"; do
    [ -e "$sysroot/libs/$name" ] && continue
    for dir in "/usr/lib/$triplet" "/lib/$triplet" "/usr/$triplet/lib"; do
      if [ -e "$dir/$name" ]; then cp -L "$dir/$name" "$sysroot/libs/$name"; break; fi
    done
  done
}

# The compiler for <triplet> (<triplet>-gcc, as Debian, Ubuntu and openEuler name it), when it
# also has that architecture's C library headers.
find_cross_cc() {
  local cc=$1-gcc
  command -v "$cc" >/dev/null && echo '#include <stdio.h>' | "$cc" -E -x c - >/dev/null 2>&1 &&
    echo "$cc"
}

ensure_cross_tools() {
  local arch=$1 sysroot=$2 mode=$3 qemu=${4:-}
  local deb triplet
  deb=$(deb_arch_of "$arch")
  triplet=$(triplet_of "$arch")
  CROSS_LIBDIR="$sysroot/libs"
  local tools=() libs=()
  # The C library's headers are only a Recommends of Debian's compiler package, which
  # --no-install-recommends leaves out.
  CROSS_CC=$(find_cross_cc "$triplet") || tools+=("$(gcc_pkg_of "$arch")" "libc6-dev-$deb-cross")
  if [ -n "$qemu" ]; then
    command -v "qemu-$arch" >/dev/null || tools+=(qemu-user)
    gather_libs "$triplet" "$sysroot" libz.so.1 libdeflate.so.0
    [ -e "$CROSS_LIBDIR/libz.so.1" ] || libs+=("zlib1g:$deb")
    [ -e "$CROSS_LIBDIR/libdeflate.so.0" ] || libs+=("libdeflate0:$deb")
  fi
  if [ ${#tools[@]} -eq 0 ] && [ ${#libs[@]} -eq 0 ]; then link_names; return 0; fi
  if ! may_change_machine; then
    missing_notice "$arch" "$mode" "$qemu" "${tools[*]}" "${libs[*]}"
    return $([ "$mode" = true ] && echo 1 || echo 2)
  fi
  install_tools "${tools[@]}" || return 1
  CROSS_CC=$(find_cross_cc "$triplet") || return 1
  if [ ${#libs[@]} -gt 0 ]; then fetch_libs "$deb" "$triplet" "$sysroot" "${libs[@]}" || return 1; fi
  link_names
}

# The linker looks for libz.so; the runtime package has only libz.so.1.
link_names() {
  [ ! -e "$CROSS_LIBDIR/libz.so.1" ] || ln -sf libz.so.1 "$CROSS_LIBDIR/libz.so"
}

# missing_notice <arch> <mode> <with-qemu> <tools> <libs>: what is missing and what to do, once.
missing_notice() {
  local arch=$1 mode=$2 qemu=$3 tools=$4 libs=$5 what level
  what=$([ -n "$qemu" ] && echo "the $arch tests under emulation need" || echo "the $arch library needs")
  level=$([ "$mode" = true ] && echo ERROR || echo NOTE)
  {
    echo "[kae-native] $level: $what${tools:+ the packages $tools}${tools:+${libs:+ and}}${libs:+ the $arch libraries $libs}."
    echo "  Not installed: $(why_unchanged)."
    if [ -n "$tools" ]; then
      echo "  Install them yourself (Debian/Ubuntu: apt-get install --no-install-recommends $tools;"
      echo "  elsewhere a cross compiler named $(triplet_of "$arch")-gcc, with its C library, on PATH)."
    fi
    if [ "$mode" = true ]; then
      echo "  Or build without them: -Dkae.native.cross=auto (host only where missing) or false."
    fi
  } >&2
}
