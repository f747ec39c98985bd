#!/usr/bin/env bash
# The release artefacts, checked where they must work: builds the release preset (static
# third-party libraries and libstdc++, glibc only), packs the .tar.gz and .deb with CPack, checks the
# binary's dynamic section and glibc floor (tests/release/check_binary.py), then unpacks the tarball
# into a minimal Debian root made with debootstrap (no -dev packages, no build tree) and runs
# `ncdx --version`, `ncdx doctor --quick` and `ncdx triage --example` there under chroot.
# The root is made once and kept at a fixed path (NCDX_SMOKE_ROOT) so later runs reuse it.
# Needs root (debootstrap, chroot). Prints sizes and times; exit 0 only when every step held.
# Usage: bash scripts/release-smoke.sh [--no-chroot]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOTFS=${NCDX_SMOKE_ROOT:-/opt/ncdx/smoke-root-bookworm}
BUILD=build-release
t0=$(date +%s)
# ccache, when installed, makes an unchanged file free here too (CMake >= 3.17 takes the launcher
# from the environment; the preset names none). CI exports the ccache settings it keys on.
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
fi
cmake --preset release >/dev/null
cmake --build --preset release
t1=$(date +%s)
echo "release-smoke: release build took $((t1 - t0)) s"
(cd "$BUILD" && cpack -G "TGZ;DEB" >/dev/null)
tgz=$(ls "$BUILD"/ncdx-*-Linux-*.tar.gz | head -1)
deb=$(ls "$BUILD"/ncdx-*-Linux-*.deb | head -1)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
tar -xzf "$tgz" -C "$stage"
bin=$(find "$stage" -type f -name ncdx -path '*/bin/*' | head -1)
python3 tests/release/check_binary.py "$bin"
echo "release-smoke: stripped binary $(stat -c %s "$bin") bytes; $(basename "$tgz") $(stat -c %s "$tgz") bytes; $(basename "$deb") $(stat -c %s "$deb") bytes"
dpkg-deb --info "$deb" | grep -E 'Package|Version|Depends' | sed 's/^/release-smoke: deb /'
[ "${1:-}" = "--no-chroot" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then echo "release-smoke: SKIP chroot smoke test: needs root" >&2; exit 0; fi
if [ ! -x "$ROOTFS/bin/sh" ]; then
  command -v debootstrap >/dev/null || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  mkdir -p "$(dirname "$ROOTFS")"
  debootstrap --variant=minbase bookworm "$ROOTFS.tmp" http://deb.debian.org/debian >/dev/null
  mv "$ROOTFS.tmp" "$ROOTFS"
fi
if [ -d "$ROOTFS/usr/include/c++" ] || ls "$ROOTFS"/usr/lib/x86_64-linux-gnu/libfmt* >/dev/null 2>&1; then
  echo "release-smoke: $ROOTFS is not minimal (has C++ headers or libfmt)" >&2; exit 1
fi
rm -rf "$ROOTFS/opt/ncdx-smoke" && mkdir -p "$ROOTFS/opt/ncdx-smoke"
tar -xzf "$tgz" -C "$ROOTFS/opt/ncdx-smoke" --strip-components=1
run() { chroot "$ROOTFS" /opt/ncdx-smoke/bin/ncdx "$@"; }
run --version
set +e
run doctor --quick --no-color >/dev/null; rc_doctor=$?
run triage --example --no-color >/dev/null; rc_triage=$?
set -e
echo "release-smoke: in the chroot: doctor --quick exit $rc_doctor (0/1/2 = ran), triage --example exit $rc_triage (2 expected)"
[ $rc_doctor -le 2 ] && [ $rc_triage -eq 2 ]
