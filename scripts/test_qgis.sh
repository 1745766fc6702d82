#!/usr/bin/env bash
# The project on a newer QGIS: a Debian 13 (trixie) chroot with trixie's QGIS 3.40 or trixie-backports' 3.44,
# built once with debootstrap and cached outside the repository. A copy of this checkout goes in, the project's own
# set-up (scripts/setup.sh: QGIS from Debian, .venv, router) runs inside, then the command: by default the whole
# suite headless, as `make test` runs it.
#   scripts/test_qgis.sh 3.44                        # the suite on QGIS 3.44
#   scripts/test_qgis.sh 3.40 make bench-functions   # any command in the checkout's copy
# FRESH=1 rebuilds the version's chroot from the cached base (set-up from scratch again); the cache folder is
# GEOCLERK_CHROOT_CACHE (default /var/cache/geoclerk/chroots). Needs root (debootstrap, chroot, mounts).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VERSION=${1:?usage: scripts/test_qgis.sh 3.40|3.44 [command...]}
shift
CACHE=${GEOCLERK_CHROOT_CACHE:-/var/cache/geoclerk/chroots}
MIRROR=${GEOCLERK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie

case "$VERSION" in
  3.40) backports=no ;;  # trixie's own QGIS
  3.44) backports=yes ;; # trixie-backports
  *) echo "test-qgis: QGIS $VERSION is not one this script builds (3.40 or 3.44)" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "test-qgis: needs root (debootstrap, chroot and mounts)" >&2; exit 1; }
for tool in debootstrap rsync; do
  command -v "$tool" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$tool" >/dev/null; }
done

base="$CACHE/$SUITE-base"
target="$CACHE/$SUITE-qgis$VERSION"
mkdir -p "$CACHE"
now() { date +%s; }

if [ ! -d "$base" ]; then
  echo "test-qgis: debootstrap $SUITE into $base (once)..."
  t0=$(now)
  rm -rf "$base.tmp"
  debootstrap --variant=minbase --include=make,ca-certificates "$SUITE" "$base.tmp" "$MIRROR" >"$CACHE/$SUITE-base.log"
  mv "$base.tmp" "$base"
  echo "test-qgis: base system in $(($(now) - t0)) s"
fi
# Mounts a killed earlier run left in the chroot: gone before anything is deleted or mounted there again.
unmount_leftovers() {
  awk -v t="$target/" 'index($2, t) == 1 { print $2 }' /proc/mounts | sort -r | while read -r where; do
    umount "$where" 2>/dev/null || umount -l "$where"
  done
}
unmount_leftovers
if [ "${FRESH:-0}" = 1 ] || [ ! -d "$target" ]; then
  echo "test-qgis: a fresh chroot for QGIS $VERSION: $target"
  rm -rf --one-file-system "$target"
  cp -a "$base" "$target.tmp"
  if [ "$backports" = yes ]; then
    echo "deb $MIRROR $SUITE-backports main" >"$target.tmp/etc/apt/sources.list.d/backports.list"
    # Backports are not chosen by default (priority 100); at trixie's priority apt takes their newer QGIS, and
    # whatever that needs, as `apt-get install -t trixie-backports qgis` would.
    printf 'Package: *\nPin: release n=%s-backports\nPin-Priority: 500\n' "$SUITE" \
      >"$target.tmp/etc/apt/preferences.d/backports"
  fi
  mv "$target.tmp" "$target"
fi
cp /etc/resolv.conf "$target/etc/resolv.conf"
# The host's own certificate authorities (a proxy's, say): pip in the chroot reaches what the host's pip reaches.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$target/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$target/usr/local/share/ca-certificates/"
  chroot "$target" update-ca-certificates >/dev/null 2>&1
fi

mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"
  done
}
trap cleanup EXIT
mount_in() { # mount_in TARGET-IN-CHROOT mount-args...
  local where="$target$1"
  shift
  mkdir -p "$where"
  mount "$@" "$where"
  mounts+=("$where")
}
mount_in /proc -t proc proc
mount_in /sys -t sysfs sys
mount_in /dev --bind /dev
mount_in /dev/pts --bind /dev/pts
mount_in /dev/shm -t tmpfs tmpfs
mount_in /tmp -t tmpfs tmpfs

# A copy, not a bind mount: the set-up writes .venv into the checkout, and this one's .venv belongs to the host.
# The chroot's own .venv and trained router survive between runs (excluded from the copy and from --delete).
work=/opt/geoclerk
mkdir -p "$target$work"
rsync -a --delete --exclude /.venv --exclude /router/model/ --exclude /.git --exclude __pycache__ \
  --exclude /tests/artifacts/ --exclude /dist/ --exclude /build/ --exclude '/demo-output*' --exclude /bench/out/ \
  --exclude '*.qm' --exclude /.qgis-settings/ "$ROOT/" "$target$work/"

if [ $# = 0 ]; then
  set -- .venv/bin/python -m pytest -m "not slow and not model" -q -p no:cacheprovider
fi
inside() {
  chroot "$target" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime-root \
    bash -c 'cd "$0" && mkdir -p -m 700 "$XDG_RUNTIME_DIR" && "$@"' "$work" "$@"
}

t0=$(now)
inside make setup
echo "test-qgis: set-up in $(($(now) - t0)) s"
inside .venv/bin/python -c "from qgis.core import Qgis; import numpy, sys
print(f'test-qgis: QGIS {Qgis.QGIS_VERSION}, Python {sys.version.split()[0]}, NumPy {numpy.__version__}')"
case "$(inside .venv/bin/python -c 'from qgis.core import Qgis; print(Qgis.QGIS_VERSION)')" in
  "$VERSION".*) ;;
  *) echo "test-qgis: the chroot's QGIS is not $VERSION" >&2; exit 1 ;;
esac
t0=$(now)
status=0
inside "$@" || status=$?
echo "test-qgis: '$*' on QGIS $VERSION: exit $status in $(($(now) - t0)) s"
exit "$status"
