#!/usr/bin/env bash
# Idempotent set-up: QGIS from Debian when missing, .venv with the pinned dependencies, the
# checkout importable as `geoclerk`, and the `geoclerk` command. Quick when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
SYS_PY=/usr/bin/python3
stamp="$VENV/.geoclerk-setup"

# Pins that depend on the release (constraints/): Debian 12's GDAL bindings need NumPy 1, Debian 13's NumPy 2.
# Elsewhere the system Python's NumPy (what its GDAL bindings were built against) decides.
release=$( . /etc/os-release 2>/dev/null; echo "${ID:-}${VERSION_ID:-}" )
case "$release" in
  debian12 | debian13) constraints="constraints/$release.txt" ;;
  *) if "$SYS_PY" -c "import sys, numpy; sys.exit(int(numpy.__version__.split('.')[0]) < 2)" 2>/dev/null; then
       constraints=constraints/debian13.txt
     else
       constraints=constraints/debian12.txt
     fi
     echo "setup: ${release:-this system} is neither Debian 12 nor 13; using the pins of $constraints" >&2 ;;
esac
want=$( (cat requirements.txt "$constraints" scripts/setup.sh; echo "$ROOT") | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$VENV/bin/geoclerk" ]; then
  exit 0
fi

need_qgis() { ! "$SYS_PY" -c "import qgis.core" >/dev/null 2>&1; }
apt_pkgs="qgis python3-qgis qgis-providers python3-venv qttools5-dev-tools xvfb fonts-wqy-microhei"  # the last two: the desktop test (skipped without Xvfb where we cannot install)
if need_qgis || ! command -v lrelease >/dev/null 2>&1 || ! "$SYS_PY" -c "import ensurepip" >/dev/null 2>&1 || { ! command -v Xvfb >/dev/null 2>&1 && [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; }; then
  if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
    echo "setup: installing QGIS and tools from Debian ($apt_pkgs)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $apt_pkgs >/dev/null
  else
    echo "setup: PyQGIS is not importable from $SYS_PY (or lrelease / python3-venv is missing)." >&2
    echo "  On Debian/Ubuntu run as root:  apt-get install $apt_pkgs" >&2
    echo "  Elsewhere install QGIS 3.22+ with its Python bindings and Qt's lrelease, then run 'make setup' again." >&2
    exit 1
  fi
fi

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating .venv (with system site packages, so PyQGIS is visible)..."
  "$SYS_PY" -m venv --system-site-packages "$VENV"
fi
echo "setup: installing pinned Python dependencies..."
"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r requirements.txt -c "$constraints"

# The checkout is the plugin package; QGIS installs it as the folder `geoclerk`. A symlink named
# geoclerk in a folder on sys.path makes `import geoclerk` work for the CLI and the tests.
site=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
mkdir -p "$VENV/geoclerk_src"
ln -sfn "$ROOT" "$VENV/geoclerk_src/geoclerk"
echo "$VENV/geoclerk_src" > "$site/geoclerk_src.pth"
rm -rf "$site/geoagent_src.pth" "$VENV/geoagent_src"  # the product's old name (GeoAgent): its import path goes

cat > "$VENV/bin/geoclerk" <<EOS
#!$VENV/bin/python
"""The geoclerk command line (written by scripts/setup.sh)."""
import sys

from geoclerk.cli.main import main

if __name__ == "__main__":  # the local Dask cluster's worker processes import this script again: never a second run
    sys.exit(main())
EOS
chmod +x "$VENV/bin/geoclerk"
ln -sfn geoclerk "$VENV/bin/geoagent"  # the old command name, kept for one release
"$VENV/bin/python" -c "import geoclerk, geopandas, sklearn, openai, qgis.core" \
  || { echo "setup: the environment does not import; see the messages above." >&2; exit 1; }
echo "$want" > "$stamp"
echo "setup: done."
