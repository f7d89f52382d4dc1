"""One output layer: every command takes --json and --output FILE, and writes the same bytes either way."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from gpuconfig.cli import build_parser


def _leaf_commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    children = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not children:
        return {path: parser}
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    for action in children:
        for name, child in action.choices.items():
            found |= _leaf_commands(child, (*path, name))
    return found


def test_every_command_asks_for_json_and_a_file_the_same_way() -> None:
    leaves = _leaf_commands(build_parser())
    assert len(leaves) == 16, sorted(leaves)
    for path, parser in leaves.items():
        options = {s for a in parser._actions for s in a.option_strings}
        assert {"--json", "--output"} <= options, f"gpuconfig {' '.join(path)}"
        assert "--format" not in options, f"gpuconfig {' '.join(path)}: one way to ask for a form"


def _gpuconfig(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120)


def test_output_writes_what_stdout_would_have_shown(tmp_path: Path) -> None:
    for form in ((), ("--json",)):
        shown = _gpuconfig("catalog", "show", "nvidia-geforce-rtx-4090", *form)
        out = tmp_path / "part.txt"
        written = _gpuconfig("catalog", "show", "nvidia-geforce-rtx-4090", *form, "--output", str(out))
        assert shown.returncode == written.returncode == 0, written.stderr
        assert written.stdout == "" and out.read_text(encoding="utf-8") == shown.stdout
    assert json.loads(out.read_text(encoding="utf-8"))["id"] == "nvidia-geforce-rtx-4090"


def test_a_failed_check_writes_no_output_file(tmp_path: Path) -> None:
    broken = tmp_path / "catalog"
    broken.mkdir()
    (broken / "gpus.toml").write_text("not = [toml", encoding="utf-8")
    out = tmp_path / "counts.json"
    done = _gpuconfig("catalog", "check", "--dir", str(broken), "--json", "--output", str(out))
    assert done.returncode == 2 and done.stderr and not out.exists()
