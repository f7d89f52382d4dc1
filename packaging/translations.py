"""The interface's translations, with Qt's own tools (the PySide6 package's lupdate and lrelease).

    python packaging/translations.py update     # lupdate: every tr() string of gpuconfig/ into each .ts
    python packaging/translations.py release    # lrelease: each .ts compiled into the .qm Qt loads

The .ts files in resources/translations/ are the sources translators edit (Qt Linguist opens them); the .qm files
are built from them by the package build (setup.py) for pip installs, editable ones and the bundles alike, and
never committed. Qt Linguist manual: https://doc.qt.io/qt-6/linguist-manager.html
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "resources" / "translations"
SOURCES = ROOT / "gpuconfig"
SCHEMA = ROOT / "catalog" / "schema.toml"
RULES = ROOT / "catalog" / "build_rules.toml"
EGPU = ROOT / "catalog" / "egpu.toml"
DATA_STRINGS = SOURCES / "core" / "data_strings.py"


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


def data_strings() -> str:
    """The module that marks the data files' texts for lupdate (lupdate reads no TOML): the catalog schema's labels
    and choices, the wall circuits' and markets' labels, the eGPU tables' reasons, fixes and notes."""
    import tomllib

    schema = tomllib.loads(SCHEMA.read_text(encoding="utf-8"))
    rules = tomllib.loads(RULES.read_text(encoding="utf-8"))
    texts: list[tuple[str, str]] = []
    for kind in schema["kinds"].values():
        texts.append(("CatalogSchema", kind["label"]))
        for field in kind["fields"]:
            texts.append(("CatalogSchema", field["label"]))
            texts += [("CatalogSchema", choice) for choice in field.get("choices", [])]
            texts += [("CatalogSchema", "yes"), ("CatalogSchema", "no")] if field["type"] == "bool" else []
    texts += [("Circuits", circuit["label"]) for circuit in rules["circuits"].values()]
    texts += [("Markets", market["label"]) for market in rules["markets"].values()]
    egpu = tomllib.loads(EGPU.read_text(encoding="utf-8"))
    for table in egpu.values():  # the eGPU check's reasons, fixes and driver notes, shown as the check's words
        for row in table if isinstance(table, list) else []:
            texts += [("EgpuData", row[key]) for key in ("reason", "fix", "text") if row.get(key)]
    lines = [
        '"""The data files\' texts, marked for lupdate: written from catalog/schema.toml, build_rules.toml and',
        "egpu.toml by `python packaging/translations.py update` (never by hand). FieldSpec.title, KindSpec.title,",
        "units.format_value, Circuit.title, Market.title and egpu.check.data_text translate them under these",
        'contexts."""',
        "",
        "# ruff: noqa: E501  (each text on one line, as the data file has it)",
        "",
        "from gpuconfig.core.i18n import QT_TRANSLATE_NOOP",
        "",
        "# fmt: off",
        "TEXTS = (",
        *(
            f"    QT_TRANSLATE_NOOP({json.dumps(context)}, {json.dumps(text, ensure_ascii=False)}),"
            for context, text in dict.fromkeys(texts)
        ),
        ")",
        "# fmt: on",
        "",
    ]
    return "\n".join(lines)


def update(ts_files: list[Path] | None = None, write_data: bool = True) -> str:
    """lupdate every source into each .ts (no file locations, no obsolete entries: a diff shows only text), the
    data files' texts written out for it first (unless `write_data` is false: a check that changes nothing)."""
    if write_data:
        DATA_STRINGS.write_text(data_strings(), encoding="utf-8")
    targets = ts_files if ts_files is not None else sorted(TRANSLATIONS.glob("*.ts"))
    command = [str(tool("lupdate")), "-locations", "none", "-no-obsolete"]
    command += [str(path) for path in python_sources()]
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
