"""`gpuconfig probe` end to end on this machine: a real worker process, real inventory, the history."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from gpuconfig.cli import main
from gpuconfig.probe.history import ProbeHistory, default_history_path


def test_quick_probe_writes_the_documented_json_and_keeps_the_run(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    # A budget wider than the quick suite's 60 s: on a machine other processes keep busy the boxes overrun, and a
    # benchmark left to the end is then not run (its own tests hold that); every one must run here.
    assert main(["probe", "--quick", "--budget", "300", "--json", "--output", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"system", "devices", "benchmarks", "verdicts"} <= set(data)
    assert data["system"]["cpu"]["logical_cores"] >= 1
    for result in data["benchmarks"]:
        assert {"name", "dtype", "device", "value", "unit"} <= set(result)
    measured = {(r["name"], r["dtype"]) for r in data["benchmarks"] if r["status"] == "ok"}
    assert {("matmul", "fp32"), ("memory_bandwidth", ""), ("train_cnn", "fp32"), ("disk_read", "")} <= measured
    assert all(r["value"] > 0 for r in data["benchmarks"] if r["status"] == "ok")
    assert data["verdicts"] and all(v["status"] in ("pass", "warn", "fail", "info") for v in data["verdicts"])
    assert data["series"]["t"], "the live metrics recorded during the run are kept with it"
    runs = ProbeHistory.open_default().runs()
    assert len(runs) == 1 and runs[0].suite == "quick"


def test_the_html_report_goes_to_the_output_file_and_nothing_to_stdout(tmp_path: Path) -> None:
    out = tmp_path / "run.html"
    argv = ["probe", "--only", "disk_read", "--html", "--output", str(out)]
    run = subprocess.run([sys.executable, "-m", "gpuconfig", *argv], capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    assert run.stdout == ""
    assert "<title>gpuconfig probe of " in out.read_text(encoding="utf-8")


def a_python_with_a_broken_torch(folder: Path) -> Path:
    """A virtual environment whose torch does not import, as after a wheel for the wrong CUDA."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    package = Path(purelib) / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        'raise ImportError("libcudart.so.12: cannot open shared object file: No such file or directory")\n'
    )
    return python


@pytest.mark.skipif(not sysconfig.get_platform().startswith("linux"), reason="venv layout of Linux")
def test_a_broken_torch_fails_the_probe_with_exit_code_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    python = a_python_with_a_broken_torch(tmp_path / "venv")
    assert main(["probe", "--quick", "--python", str(python), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    verdict = next(v for v in data["verdicts"] if v["check"] == "PyTorch")
    assert verdict["status"] == "fail" and "libcudart.so.12" in verdict["message"]
    assert {r["status"] for r in data["benchmarks"]} == {"skipped"}


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["probe", "--python", "/no/such/python"], "--python /no/such/python: no such interpreter"),
        (["probe", "--quick", "--full"], "not allowed with argument"),
        (
            ["probe", "--output", "/no/such/folder/out.json"],
            "--output /no/such/folder/out.json: no folder /no/such/folder",
        ),
        (["probe", "--json", "--html"], "not allowed with argument"),
        (["probe", "--only", "matmul,warp_drive"], "unknown benchmark 'warp_drive'"),
        (["probe", "--rate", "50"], "--rate 50: choose 1 to 10 samples a second"),
    ],
)
def test_bad_probe_arguments_are_one_line_and_exit_2(argv: list[str], says: str) -> None:
    run = subprocess.run([sys.executable, "-m", "gpuconfig", *argv], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert says in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.parametrize(
    ("form", "target", "says"),
    [("--json", "report.json", "a folder; name a file to write"), ("--html", "no-such-folder/run.html", "no folder")],
)
def test_an_output_that_cannot_be_a_file_is_refused_before_any_benchmark(
    tmp_path: Path, form: str, target: str, says: str
) -> None:
    out = tmp_path / "out"
    (out / "report.json").mkdir(parents=True)
    argv = ["probe", "--only", "disk_read", form, "--output", str(out / target)]
    run = subprocess.run([sys.executable, "-m", "gpuconfig", *argv], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"--output {out / target}: {says}" in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert run.stdout == ""
    assert not default_history_path().exists(), "no benchmark ran, so no run was kept"
    assert [p.name for p in out.rglob("*")] == ["report.json"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_report_the_system_refuses_to_write_is_one_line_and_exit_2() -> None:
    argv = ["probe", "--only", "disk_read", "--html", "--output", "/proc/run.html"]
    run = subprocess.run([sys.executable, "-m", "gpuconfig", *argv], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.startswith("gpuconfig: --output /proc/run.html: not written: "), run.stderr
    assert run.stderr.count("\n") == 1


def test_a_damaged_history_says_how_to_repair_it_and_the_repair_keeps_the_next_run() -> None:
    damaged = default_history_path()
    damaged.write_bytes(b"not a database" * 400)
    probe = [sys.executable, "-m", "gpuconfig", "probe", "--only", "disk_read"]
    run = subprocess.run(probe, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [line] = [text for text in run.stderr.splitlines() if "not saved in the history" in text]
    assert f"{damaged}: not a readable probe history: damaged" in line
    assert line.endswith("; `gpuconfig data repair` moves it aside and rebuilds it, keeping what can be read")
    repair = [sys.executable, "-m", "gpuconfig", "data", "repair"]
    assert subprocess.run(repair, capture_output=True, text=True, timeout=120).returncode == 0
    again = subprocess.run(probe, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "history" not in again.stderr, again.stderr
    history = ProbeHistory.open_default()
    assert len(history.runs()) == 1
    history.close()
