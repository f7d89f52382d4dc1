"""`gpuconfig guide` as users run it, and the checker's PyTorch-wheel rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.build.model import Item
from gpuconfig.core.build.wheels import wheel_problem
from gpuconfig.core.userdata.store import Store


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_rtx_5090_gets_a_wheel_built_for_sm_120() -> None:
    result = run("guide", "--gpu", "nvidia-geforce-rtx-5090", "--os", "ubuntu-24.04", "--json")
    assert result.returncode == 0, result.stderr
    guide = json.loads(result.stdout)
    text = json.dumps(guide)
    assert "sm_120" in text
    assert any(cu in text for cu in ("whl/cu128", "whl/cu129", "whl/cu130", "whl/cu132"))


def test_gtx_1080_gets_a_build_that_ships_its_code_and_is_told_what_dropped_it() -> None:
    result = run("guide", "--gpu", "nvidia-geforce-gtx-1080", "--os", "ubuntu-22.04")
    assert result.returncode == 0, result.stderr
    assert "whl/cu126" in result.stdout
    assert "dropped" in result.stdout and "No code for it in" in result.stdout


def test_a_driver_older_than_the_runtime_is_flagged() -> None:
    result = run("guide", "--gpu", "nvidia-geforce-rtx-5090", "--os", "ubuntu-24.04", "--driver", "560.35.03", "--json")
    fails = [f for f in json.loads(result.stdout)["findings"] if f["severity"] == "fail"]
    assert fails and "560.35.03" in fails[0]["message"]


def test_a_build_file_and_html_output(tmp_path: Path) -> None:
    build = tmp_path / "b.json"
    build.write_text(json.dumps({"parts": [{"id": "nvidia-geforce-rtx-4090", "count": 2}]}), encoding="utf-8")
    out = tmp_path / "guide.html"
    result = run("guide", "--build", str(build), "--os", "debian-12", "--html", "--output", str(out))
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") or html.lower().startswith("<!doctype html>")
    assert "NCCL_P2P_DISABLE" in html  # two cards without peer-to-peer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gpu", "nope", "--os", "wsl2"], "--gpu: 'nope' is not a GPU"),
        (["--from-probe", "missing.json", "--os", "wsl2"], "missing.json: no such file"),
        (["--gpu", "nvidia-geforce-rtx-4090", "--os", "plan9"], "invalid choice"),
    ],
)
def test_bad_guide_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run("guide", *args)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no-such-folder/guide.md", "no-such-folder/guide.md: no folder"),
        ("a-file/guide.md", "a-file/guide.md: no folder"),
        (".", "a folder; name a file to write"),
    ],
)
def test_an_output_that_cannot_be_a_file_is_one_line_and_exit_2(tmp_path: Path, target: str, message: str) -> None:
    (tmp_path / "a-file").write_text("kept\n", encoding="utf-8")
    before = sorted(tmp_path.rglob("*"))
    output = str(tmp_path / target)
    result = run("guide", "--gpu", "nvidia-geforce-gtx-1080", "--os", "ubuntu-22.04", "--output", output)
    assert result.returncode == 2
    assert result.stderr.startswith("gpuconfig: --output ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr and result.stdout == ""
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_an_output_the_system_refuses_to_write_is_one_line_and_exit_2() -> None:
    result = run("guide", "--gpu", "nvidia-geforce-gtx-1080", "--os", "ubuntu-22.04", "--output", "/proc/guide.md")
    assert result.returncode == 2
    assert result.stderr.startswith("gpuconfig: --output /proc/guide.md: not written: "), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize(
    ("part_id", "warned"),
    [
        ("nvidia-geforce-gtx-1080", True),
        ("nvidia-v100-pcie-32gb", True),
        ("nvidia-geforce-rtx-5090", False),
        ("nvidia-geforce-rtx-4090", False),
        ("amd-radeon-rx-7900-xtx", False),
    ],
)
def test_the_checker_warns_when_current_wheels_lack_the_gpu(store: Store, part_id: str, warned: bool) -> None:
    part = store.part(part_id)
    assert part is not None
    problem = wheel_problem(Item(part, 1))
    assert (problem is not None) == warned
    if problem is not None:
        assert problem.rule == "pytorch-wheels" and "newest build that does" in problem.message
