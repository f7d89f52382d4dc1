"""`gpuconfig --self-test` from a Python install (the bundle's own run is tests/packaging)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.paths import DATA_DIR_ENV
from gpuconfig.core.userdata.store import open_default_store
from gpuconfig.core.workers.search import ADDED_SETTING


def _self_test(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env[DATA_DIR_ENV] = str(data)
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", "--self-test", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


def test_the_self_test_checks_every_part_and_leaves_the_users_data_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / "report" / "self-test.json"
    done = _self_test("--out", str(out), data=data)
    assert done.returncode == 0, done.stdout + done.stderr
    run = json.loads(out.read_text(encoding="utf-8"))
    steps = {step["name"]: step for step in run["steps"]}
    assert run["passed"] is True and run["frozen"] is False
    assert [s["status"] for s in steps.values()] == ["passed"] * 8, steps
    # With or without an NVIDIA driver, what NVML answered, read without risking a crash.
    assert steps["nvidia"]["detail"].startswith(("no NVIDIA GPU: ", "NVML sees ")), steps["nvidia"]
    assert steps["python"]["detail"].startswith(f"{sys.executable} (Python")
    assert "7 tabs opened and drawn (Catalog, Workload, Build, Probe, Guide, eGPU, Fleet)" in steps["tabs"]["detail"]
    assert sorted(Path(f).name for f in run["files"])[0] == "self-test-0-catalog.png"
    # Each step's line on stdout, in order, and the report's place.
    lines = done.stdout.strip().splitlines()
    assert [line.split()[1] for line in lines[:8]] == list(steps)
    assert lines[-1] == f"wrote {out}"
    # It ran in a scratch folder: nothing of the user's (the database, the trace cache) was written.
    assert list(data.iterdir()) == []


def test_a_wrong_option_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _self_test("--outt", "x.json", data=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == "gpuconfig --self-test: error: unrecognized arguments: --outt x.json"


def test_a_named_python_without_torch_fails_the_run_with_the_reason(tmp_path: Path) -> None:
    without = tmp_path / "env" / "bin" / "python"
    without.parent.mkdir(parents=True)
    without.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n', encoding="utf-8")  # -S: no site, no torch
    without.chmod(0o755)
    out = tmp_path / "self-test.json"
    done = _self_test("--out", str(out), "--python", str(without), data=tmp_path)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"gpuconfig self-test failed: python: {without} (--python) has no torch"
    steps = {s["name"]: s["status"] for s in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps == {
        "version": "passed", "nvidia": "passed", "catalog": "passed", "files": "passed", "tabs": "passed",
        "python": "failed", "estimate": "skipped", "probe": "skipped",
    }  # fmt: skip


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a shell script stands in for the interpreter")
def test_the_self_test_runs_in_the_python_added_in_the_probe_tab(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "started.log"
    added = tmp_path / "added" / "bin" / "python"  # this Python (it has torch), noting each start
    added.parent.mkdir(parents=True)
    added.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    added.chmod(0o755)
    with pytest.MonkeyPatch.context() as patch:  # saved in the user's database, as the Probe tab's Add... saves it
        patch.setenv(DATA_DIR_ENV, str(data))
        store = open_default_store()
        store.user.set_setting(ADDED_SETTING, json.dumps([str(added)]))
        store.close()
    out = tmp_path / "self-test.json"
    done = _self_test("--out", str(out), data=data)
    assert done.returncode == 0, done.stdout + done.stderr
    steps = {step["name"]: step for step in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps["python"]["detail"].startswith(f"{added} (Python") and steps["python"]["detail"].endswith("; added)")
    started = log.read_text(encoding="utf-8")
    assert "workers/tracer" in started and "workers/bench" in started  # the estimate and the probe ran in it
