"""Whether a machine's figures repeat: each figure held against the same figure in this machine's earlier
runs (a real SQLite history), the report's account of it, and the processes NVML lists on a GPU."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gpuconfig.probe import nvml
from gpuconfig.probe.context import GpuProcess, what_else
from gpuconfig.probe.history import ProbeHistory, earlier_in
from gpuconfig.probe.model import BenchmarkResult, Unavailable
from gpuconfig.probe.session import ProbeRun, with_earlier
from gpuconfig.probe.verdicts import judge
from tests.probe.reports import typed

QUIET = {"others_cpu": 0.0, "steal": 0.0, "cpus": 2, "source": "test"}


def matmul(value: float, spread: float = 0.01, sampled: bool = True) -> BenchmarkResult:
    samples = (value * (1 - spread), value, value * (1 + spread)) if sampled else ()
    return BenchmarkResult("matmul", "fp32", "cpu", value, "TFLOP/s", samples=samples, load=QUIET)


def a_run(started_at: str, value: float, host: str = "lab-7", torch: str = "2.13.0", **kw: object) -> ProbeRun:
    machine, devices, facts = typed({"cpu": {"model": "Test CPU"}}, [], {"version": torch, "cuda": None})
    results = (matmul(value, **kw),)  # type: ignore[arg-type]
    verdicts = judge(machine, devices, facts, results)
    return ProbeRun(started_at, "quick", "/usr/bin/python3", host, machine, devices, facts, results, verdicts)


def test_each_figure_keeps_its_values_in_this_machines_earlier_alike_runs(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    history = ProbeHistory(path)
    history.save(a_run("2026-11-20T10:00:00+00:00", 0.50))
    history.save(a_run("2026-11-21T10:00:00+00:00", 0.90, spread=0.5))  # unsteady in its own run: left out
    history.save(a_run("2026-11-22T10:00:00+00:00", 0.52))
    history.save(a_run("2026-11-22T11:00:00+00:00", 0.70, torch="2.12.0"))  # another torch: not alike
    history.save(a_run("2026-11-23T10:00:00+00:00", 0.40, host="lab-8"))  # another machine
    history.save(a_run("2026-11-19T10:00:00+00:00", 0.61, sampled=False))  # a report from before samples
    history.close()
    past = earlier_in(path)("lab-7", "quick")
    assert [r.started_at[:10] for r in past] == ["2026-11-22", "2026-11-22", "2026-11-21", "2026-11-20", "2026-11-19"]
    now = a_run("2026-11-24T10:00:00+00:00", 0.51)
    (figure,) = with_earlier(now.results, past, now.python, now.torch)
    # newest first; the same figure in the same Python and torch, measured the same way (sampled)
    assert figure.earlier == (0.52, 0.50)
    assert earlier_in(tmp_path / "missing" / "none.sqlite3")("lab-7", "quick") == []


def test_the_report_says_how_the_run_compares_with_the_earlier_ones() -> None:
    steady = replace(matmul(0.51), earlier=(0.52, 0.50))
    moved = replace(matmul(0.30), earlier=(0.52, 0.50))
    lines = {h.topic: h for h in what_else([steady], None, None, 0)}
    line = lines["Against this machine's earlier runs"]
    assert not line.notable and line.text == "1 figures held against up to 2 earlier runs: median 0.0 % off"
    lines = {h.topic: h for h in what_else([moved], None, None, 0)}
    line = lines["Against this machine's earlier runs"]
    assert line.notable and "1 more than ±5 % away: Matrix multiply fp32 (cpu)" in line.text
    assert "Matrix multiply fp32 (cpu)" in lines["Figures not judged"].text
    first = {h.topic: h for h in what_else([matmul(0.5)], None, None, 0)}
    assert first["Against this machine's earlier runs"].text.startswith("no earlier run")


def test_the_processes_on_a_gpu_as_nvml_lists_them() -> None:
    raw = {
        "nvmlDeviceGetComputeRunningProcesses()": [{"pid": 4242, "usedGpuMemory": 3 * 2**30}, {"pid": "bad"}],
        "nvmlDeviceGetGraphicsRunningProcesses()": [{"pid": 4242, "usedGpuMemory": None}, {"pid": 77}],
    }
    assert nvml.processes_from_raw(raw) == [(4242, 3 * 2**30, "compute"), (77, None, "graphics")]
    missing = {"unavailable": "not supported on this GPU"}
    one_missing = {**raw, "nvmlDeviceGetGraphicsRunningProcesses()": missing}
    assert nvml.processes_from_raw(one_missing) == [(4242, 3 * 2**30, "compute")]
    both = nvml.processes_from_raw(dict.fromkeys(raw, missing))
    assert isinstance(both, Unavailable) and both.reason == "not supported on this GPU"
    seen = (GpuProcess(0, 4242, "python3", 3 * 2**30, "compute", "start"),)
    lines = {h.topic: h for h in what_else([matmul(0.5)], seen, None, 1)}
    other = lines["Other processes on the GPUs"]
    assert other.notable and other.text == "GPU 0: python3 (pid 4242, 3.0 GiB) at the start"
    none = {h.topic: h for h in what_else([matmul(0.5)], (), None, 1)}
    assert none["Other processes on the GPUs"].text == "none at the start or the end of the run"
