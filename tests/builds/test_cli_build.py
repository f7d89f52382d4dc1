"""`gpuconfig build check` as users run it: exit 0 for a sound build, 1 for a failed rule, 2 for a bad file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.builds.test_check import SOUND


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120, check=False
    )


def write(tmp_path: Path, parts: dict[str, int], **extra: object) -> Path:
    path = tmp_path / "build.json"
    path.write_text(
        json.dumps({"name": "lab box", "parts": [{"id": i, "count": n} for i, n in parts.items()], **extra}),
        encoding="utf-8",
    )
    return path


def test_a_sound_build_passes(tmp_path: Path) -> None:
    result = run("build", "check", str(write(tmp_path, SOUND)), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["verdict"] == "pass"
    assert record["total"]["currency"] == "USD" and record["total"]["amount"] > 2000
    assert record["power"]["psu_w"] == 1200 and record["power"]["required_psu_w"] <= 1200


def test_a_failing_build_exits_1_with_each_problem_and_fix(tmp_path: Path) -> None:
    parts = {**SOUND, "nvidia-geforce-rtx-4090": 2}
    result = run("build", "check", str(write(tmp_path, parts)))
    assert result.returncode == 1
    assert "FAIL  psu-watts" in result.stdout and "Fix:" in result.stdout
    assert "verdict: fail" in result.stdout


def test_totals_in_cny_and_a_circuit_from_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, SOUND)
    record = json.loads(
        run("build", "check", str(path), "--currency", "CNY", "--circuit", "cn-220v-10a", "--json").stdout
    )
    assert record["total"]["currency"] == "CNY"
    assert record["power"]["circuit"]["watts"] == 1760


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"parts": [{"id": "no-such-gpu"}]}', "'no-such-gpu' is not in the catalog"),
        ('{"parts": [{"id": "nvidia-geforce-rtx-4090"}], "circuit": "moon"}', "circuit: 'moon'"),
    ],
)
def test_a_bad_build_file_is_one_line_and_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("build", "check", str(path))
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    result = run("build", "check", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "nope.json: no such file" in result.stderr
