"""An NVIDIA library that crashes when NVML starts is a reported state, not a vanished app.

A stand-in libnvidia-ml.so.1 (tests/probe/fake_nvml.py) is built here with the C compiler and put first
on LD_LIBRARY_PATH of the real `gpuconfig` commands, run as subprocesses: one whose nvmlInit reads through a
null pointer, one whose nvmlInit never returns, and one that starts and has no GPU (the path the crash check
must leave as it was).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from gpuconfig.probe import nvml_guard
from tests.probe.fake_nvml import build, environment
from tests.workload.processes import gone

CRASH = "the NVIDIA library (libnvidia-ml) crashed (signal 11, SIGSEGV) when NVML started"
REASON = f"{CRASH}, so it is not used: {nvml_guard.ADVICE}"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stand-in library is a Linux .so")


@pytest.fixture(scope="module")
def libraries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    kinds = ("crashing", "hanging", "working")
    return {kind: build(tmp_path_factory.mktemp(kind), kind == "crashing", kind == "hanging") for kind in kinds}


def gpuconfig(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args],
        capture_output=True,
        text=True,
        env=environment(library),
        timeout=300,
        check=False,
    )


def test_the_stand_in_library_really_crashes_a_process_that_starts_nvml(libraries: dict[str, Path]) -> None:
    code = "import pynvml; pynvml.nvmlInit(); print('survived')"
    env = environment(libraries["crashing"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == -11 and "survived" not in done.stdout
    assert subprocess.run(nvml_guard.command(), env=env, timeout=60).returncode == -11


def test_the_probe_reports_the_crash_and_finishes(libraries: dict[str, Path]) -> None:
    done = gpuconfig(libraries["crashing"], "probe", "--only", "disk_read", "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    run = json.loads(done.stdout)
    assert run["system"]["gpu"] == {"unavailable": REASON}
    assert run["devices"] == [] and run["series"]["unavailable"]["gpu"] == REASON
    gpu = next(v for v in run["verdicts"] if v["check"] == "GPU")
    assert gpu["status"] == "info" and CRASH in gpu["message"]
    assert [b["status"] for b in run["benchmarks"]] == ["ok"]  # the rest of the run went on


def test_the_egpu_check_reports_the_crash_in_its_json(libraries: dict[str, Path]) -> None:
    done = gpuconfig(libraries["crashing"], "egpu", "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert report["detected"]["gpus"] == {"unavailable": REASON}


def test_a_library_that_starts_is_used_in_the_process_as_before(libraries: dict[str, Path]) -> None:
    done = gpuconfig(libraries["working"], "probe", "--only", "disk_read", "--json")
    assert done.returncode == 0, done.stderr
    gpu = json.loads(done.stdout)["system"]["gpu"]
    # The stand-in's own answers, read in the app's process after the child came back.
    assert (gpu["count"], gpu["driver_version"]) == (0, "test-library")
    assert gpu["devices"] == {"unavailable": "NVML found no NVIDIA GPU"}


def test_the_self_test_fails_its_nvidia_step_with_the_reason_and_runs_the_rest(
    libraries: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "self-test.json"
    without_torch = tmp_path / "env" / "bin" / "python"
    without_torch.parent.mkdir(parents=True)
    without_torch.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n', encoding="utf-8")  # no site: no torch
    without_torch.chmod(0o755)
    done = gpuconfig(libraries["crashing"], "--self-test", "--out", str(out), "--python", str(without_torch))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == f"gpuconfig self-test failed: nvidia: NVML unavailable: {REASON}"
    steps = {s["name"]: s for s in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps["nvidia"]["status"] == "failed" and CRASH in steps["nvidia"]["detail"]
    assert steps["tabs"]["status"] == "passed"  # the Probe and eGPU tabs opened in a process that lived


def test_a_hung_nvml_check_dies_with_the_app_that_started_it(libraries: dict[str, Path]) -> None:
    app = subprocess.Popen(
        [sys.executable, "-m", "gpuconfig", "probe", "--only", "disk_read", "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment(libraries["hanging"]),
    )
    try:
        check = _nvml_check_of(app)
        time.sleep(1.0)  # well into nvmlInit, which never returns
    finally:
        app.kill()
        app.wait(timeout=30)
    try:
        assert gone(check), f"the NVML check {check.pid} outlived the app that started it"
    finally:
        with contextlib.suppress(psutil.NoSuchProcess):
            check.kill()


def _nvml_check_of(app: subprocess.Popen[bytes], within_s: float = 60.0) -> psutil.Process:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        for child in psutil.Process(app.pid).children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                if nvml_guard.CHECK_NVML in child.cmdline():
                    return child
        assert app.poll() is None, "the probe ended before it checked NVML"
        time.sleep(0.05)
    raise AssertionError(f"no NVML check started within {within_s:g} s")
