"""The interface's translations, with Qt's own tools (the PySide6 package's lupdate and lrelease).

    python packaging/translations.py update     # lupdate: every tr() string of gpuconfig/ into each .ts
    python packaging/translations.py release    # lrelease: each .ts compiled into the .qm Qt loads

The .ts files in resources/translations/ are the sources translators edit (Qt Linguist opens them); the .qm files
are built from them by the package build (setup.py) for pip installs, editable ones and the bundles alike, and
never committed. Qt Linguist manual: https://doc.qt.io/qt-6/linguist-manager.html
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "resources" / "translations"
SOURCES = ROOT / "gpuconfig"


def tool(name: str) -> Path:
    """Qt's `name` (lupdate, lrelease) as the PySide6 package ships it."""
    import PySide6

    folder = Path(PySide6.__file__).parent
    for candidate in (folder / name, folder / f"{name}.exe", folder / "Qt" / "libexec" / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"Qt's {name} is not in the PySide6 package at {folder}")


def python_sources(root: Path = SOURCES) -> list[Path]:
    """Every module whose strings the interface may show (the workers' and the core's have none of Qt's)."""
    return sorted(path for path in root.rglob("*.py") if "__pycache__" not in path.parts)


def update(ts_files: list[Path] | None = None, sources: list[Path] | None = None) -> str:
    """lupdate every source into each .ts (no file locations, no obsolete entries: a diff shows only text)."""
    targets = ts_files if ts_files is not None else sorted(TRANSLATIONS.glob("*.ts"))
    command = [str(tool("lupdate")), "-locations", "none", "-no-obsolete"]
    command += [str(path) for path in (sources if sources is not None else python_sources())]
    command += ["-ts", *(str(path) for path in targets)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def release(out_dir: Path = TRANSLATIONS) -> list[Path]:
    """lrelease each .ts into out_dir/<name>.qm; the compiled files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    built = []
    for source in sorted(TRANSLATIONS.glob("*.ts")):
        target = out_dir / f"{source.stem}.qm"
        subprocess.run([str(tool("lrelease")), "-silent", str(source), "-qm", str(target)], check=True)
        built.append(target)
    return built


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        print(update())
        return 0
    if argv[1:] == ["release"]:
        for path in release():
            print(path.relative_to(ROOT))
        return 0
    print(__doc__.strip().splitlines()[2:4], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
