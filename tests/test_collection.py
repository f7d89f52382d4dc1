"""Every test file under tests/ is collected: a folder pytest passes over (it skips `build`, `dist`, dotted
and virtual-env folders by default) would hide its tests while the run still looks green."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_file_is_collected() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    collected = {line.split("::", 1)[0] for line in result.stdout.splitlines() if "::" in line}
    on_disk = {path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").rglob("test_*.py")}
    assert on_disk - collected == set()
    assert "tests/builds/test_check.py" in collected
