"""ruff and mypy, as configured in pyproject.toml, are clean."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean() -> None:
    """The whole tree (scripts in docs/, resources/ and packaging/ too), as pyproject.toml configures it."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr


# The team's own notes live outside this repository: the product cites public sources or its own files.
NOTES = re.compile(r"\.\./shared|\bresearch/[\w-]+\.md|\bDESIGN\.md|\bSTYLE\.md|\bseeds/")
SHIPPED = ("gpuconfig", "catalog", "resources", "packaging", "docs", "benchmarks", "tests", ".github", ".ci")


def test_no_citation_of_files_outside_the_repository() -> None:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in SHIPPED:
        files += [path for path in (ROOT / folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts]
    hits = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # images, compiled translations
            continue
        hits += [
            f"{path.relative_to(ROOT)}:{number}"
            for number, line in enumerate(text.splitlines(), 1)
            if NOTES.search(line) and path.name != "test_code_quality.py"
        ]
    assert hits == []
