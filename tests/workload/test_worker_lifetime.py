"""A worker lives no longer than the `gpuconfig` that started it: the real CLI, a real trace worker, real
signals. And the command line's own limits on workers: Ctrl+C, and the time-out options."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.workload.processes import gone

POSIX = os.name == "posix"
# A model big enough that its trace is still running a few seconds in.
SLOW = ["--model", "gpt2-xl", "--batch", "2", "--seq", "512", "--precision", "fp32", "--device", "cpu", "--no-cache"]
TEXT = {"capture_output": True, "text": True, "timeout": 120, "check": False}


def gpuconfig(*args: str, **options: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gpuconfig", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **options,  # type: ignore[call-overload]
    )


def worker_of(cli: subprocess.Popen[str], script: str, within_s: float = 60.0) -> psutil.Process:
    """The worker process `cli` started to run `script`, once it is there."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        for child in psutil.Process(cli.pid).children(recursive=True):
            try:
                if any(part.endswith(script) for part in child.cmdline()):
                    return child
            except psutil.NoSuchProcess:
                continue
        assert cli.poll() is None, cli.communicate()
        time.sleep(0.05)
    raise AssertionError(f"no {script} worker started within {within_s:g} s")


@pytest.fixture
def stuck(tmp_path: Path) -> tuple[list[str], Path]:
    """The estimate of a model file that starts a program of its own (as DataLoader workers and all-reduce
    ranks are started) and then hangs while it is built (it never writes to the worker's channel again),
    and the file where it writes that program's process id once the worker is inside it."""
    inside = tmp_path / "building"
    path = tmp_path / "stuck.py"
    path.write_text(
        "import os, subprocess, time\n"
        "def model_and_inputs(batch, seq):\n"
        "    child = subprocess.Popen(['sleep', '777'])\n"
        f"    with open({str(inside) + '.part'!r}, 'w') as f:\n"
        "        f.write(str(child.pid))\n"
        f"    os.replace({str(inside) + '.part'!r}, {str(inside)!r})\n"
        "    time.sleep(600)\n",
        encoding="utf-8",
    )
    return ["estimate", "--model", str(path), "--device", "cpu", "--no-cache", "--json"], inside


def wait_for(path: Path, cli: subprocess.Popen[str], within_s: float = 60.0) -> psutil.Process:
    """The program the stuck model started, once the worker is inside the model."""
    deadline = time.monotonic() + within_s
    while not path.exists():
        assert cli.poll() is None, cli.communicate()
        assert time.monotonic() < deadline, f"the worker did not reach the model within {within_s:g} s"
        time.sleep(0.05)
    return psutil.Process(int(path.read_text(encoding="utf-8")))


@pytest.fixture
def leftovers() -> Iterator[list[psutil.Process]]:
    """Workers a test found: killed at the end if still running, so a failing test leaves none behind."""
    found: list[psutil.Process] = []
    yield found
    for process in found:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            continue


def default_sigint() -> None:
    """In the CLI's child: Ctrl+C raises KeyboardInterrupt, even where the test runner's shell ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def default_sighup() -> None:
    """In the CLI's child: a hangup ends it, as in a terminal, even where the test runner was started under
    nohup (which leaves SIGHUP ignored in every process it starts)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.skipif(not POSIX, reason="signals")
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGHUP"])
def test_a_killed_estimate_takes_its_trace_worker_with_it(
    how: str, stuck: tuple[list[str], Path], leftovers: list[psutil.Process]
) -> None:
    args, inside = stuck
    cli = gpuconfig(*args, preexec_fn=default_sighup)
    worker = worker_of(cli, "workers/tracer")
    leftovers.append(worker)
    started = wait_for(inside, cli)
    leftovers.append(started)
    cli.send_signal(getattr(signal, how))
    cli.communicate(timeout=30)
    assert gone(worker), f"the trace worker {worker.pid} outlived gpuconfig ({how})"
    assert gone(started), f"the program {started.pid} the model started outlived gpuconfig ({how})"


@pytest.mark.skipif(not POSIX, reason="signals")
def test_ctrl_c_cancels_an_estimate_in_one_line(stuck: tuple[list[str], Path], leftovers: list[psutil.Process]) -> None:
    args, inside = stuck
    cli = gpuconfig(*args, preexec_fn=default_sigint)
    worker = worker_of(cli, "workers/tracer")
    leftovers.append(worker)
    started = wait_for(inside, cli)
    leftovers.append(started)
    cli.send_signal(signal.SIGINT)
    out, err = cli.communicate(timeout=30)
    assert (cli.returncode, out, err.splitlines()) == (130, "", ["gpuconfig: cancelled"])
    assert gone(worker) and gone(started)


@pytest.mark.parametrize(
    "args",
    [
        ["estimate", "--model", "gpt2", "--trace-timeout", "0"],
        ["estimate", "--model", "gpt2", "--trace-timeout", "-5"],
        ["recommend", "--model", "gpt2", "--trace-timeout", "inf"],
        ["egpu", "--trace-timeout", "nan"],
        ["probe", "--start-timeout", "0"],
        ["probe", "--bench-timeout", "forever"],
        ["egpu", "--measure", "--bench-timeout", "-1"],
    ],
)
def test_time_outs_on_the_command_line_are_positive_finite_seconds(args: list[str]) -> None:
    run = subprocess.run([sys.executable, "-m", "gpuconfig", *args], **TEXT)  # type: ignore[call-overload]
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert f"argument {args[-2]}: " in lines[0] and "seconds" in lines[0]


@pytest.mark.parametrize("seconds", ["2", "0.4"])
def test_a_trace_timeout_ends_the_trace_in_one_line(seconds: str) -> None:
    began = time.monotonic()
    cli = gpuconfig("estimate", *SLOW, "--trace-timeout", seconds)
    out, err = cli.communicate(timeout=60)
    assert time.monotonic() - began < 30
    said = f"gpuconfig: trace failed: trace took longer than {seconds} s"  # the limit as given, not rounded to 0
    assert (cli.returncode, out, err.splitlines()) == (1, "", [said])


@pytest.mark.skipif(not POSIX, reason="a shell script stands in for the interpreter")
def test_a_quick_probe_in_a_python_that_never_answers_ends_at_the_start_timeout(tmp_path: Path) -> None:
    silent = tmp_path / "silent" / "bin" / "python"
    silent.parent.mkdir(parents=True)
    silent.write_text("#!/bin/sh\nexec sleep 600\n", encoding="utf-8")
    silent.chmod(0o755)
    began = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "probe", "--quick", "--python", str(silent), "--start-timeout", "2",
         "--json"], **TEXT,
    )  # type: ignore[call-overload]  # fmt: skip
    assert time.monotonic() - began < 60, "the probe waited past its start time-out"
    said = f"no answer from {silent} within 2 s (importing torch)"
    report = json.loads(run.stdout)
    assert report["torch"] == {"unavailable": said, "failure": "timeout"}
    (verdict,) = [v for v in report["verdicts"] if v["check"] == "PyTorch"]
    assert verdict["status"] == "fail" and verdict["message"] == f"PyTorch unavailable: {said}"
    assert "--start-timeout" in verdict["advice"] and run.returncode == 1
    sleeping = [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", "600"]]
    assert not [p for p in sleeping if p.status() != psutil.STATUS_ZOMBIE]  # the silent Python was killed
