"""The benchmark runner against real worker processes: the probe's own worker on this CPU, and one that
really segfaults, hangs or runs out of memory (data/failing_worker.py)."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from gpuconfig.core.failures import Failure
from gpuconfig.core.workers.process import Deadline, run_worker
from gpuconfig.probe.model import BenchmarkResult, Unavailable
from gpuconfig.probe.runner import Limits, SuiteOutcome, benchmark_names, run_suite
from gpuconfig.probe.torch_devices import TorchFacts
from gpuconfig.probe.verdicts import OTHER_FAILURE_ADVICE
from gpuconfig.workers.bench.timing import MAX_SAMPLES, MIN_SAMPLES
from tests.probe.reports import judge_json

FAILING = Path(__file__).parent / "data" / "failing_worker.py"


def ok(outcome: SuiteOutcome, name: str) -> list[BenchmarkResult]:
    found = [r for r in outcome.results if r.name == name and r.status == "ok"]
    for result in found:
        assert result.value is not None and result.value > 0, result
        assert result.unit and result.device, result
    return found


def by_name(outcome: SuiteOutcome) -> dict[str, list[BenchmarkResult]]:
    grouped: dict[str, list[BenchmarkResult]] = {}
    for result in outcome.results:
        grouped.setdefault(result.name, []).append(result)
    return grouped


def test_matmul_and_memory_bandwidth_on_this_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # the CPU path, on a machine with a GPU too
    seen: list[tuple[int, int, str]] = []
    outcome = run_suite(
        "quick",
        only=["matmul", "memory_bandwidth", "h2d_bandwidth"],
        progress=lambda done, total, what: seen.append((done, total, what)),
    )
    assert not outcome.cancelled
    assert isinstance(outcome.torch, TorchFacts)
    assert outcome.torch.version and outcome.torch.device == "cpu"
    matmul = {r.dtype: r for r in ok(outcome, "matmul")}
    assert matmul["fp32"].unit == "TFLOP/s" and matmul["fp32"].device == "cpu"
    # every figure is a distribution: the median of its repeated samples, with what else the CPUs did meanwhile
    for figure in (*matmul.values(), *ok(outcome, "memory_bandwidth")):
        assert MIN_SAMPLES <= len(figure.samples) <= MAX_SAMPLES, figure
        assert figure.value == pytest.approx(statistics.median(figure.samples), rel=1e-5)
        assert 0 <= figure.load["others_cpu"] <= 1 and 0 <= figure.load["steal"] <= 1
        assert isinstance(figure.load["cpus"], int) and figure.load["cpus"] >= 1
    sizes = matmul["fp32"].detail["median_tflops_by_size"]
    assert max(sizes.values()) == pytest.approx(matmul["fp32"].value, rel=1e-3)  # the best size's median
    assert matmul["fp32"].detail["n"] in (1024, 2048) and matmul["bf16"].value
    skipped = {r.dtype: r.reason for r in outcome.results if r.name == "matmul" and r.status == "skipped"}
    assert "tf32" in skipped and "fp8" in skipped
    (bandwidth,) = ok(outcome, "memory_bandwidth")
    assert bandwidth.unit == "GB/s"
    assert bandwidth.detail["buffer_bytes"] >= 8 * bandwidth.detail["cache_bytes"] or bandwidth.detail.get("capped")
    (h2d,) = [r for r in outcome.results if r.name == "h2d_bandwidth"]
    assert h2d.status == "skipped" and "no CUDA device" in h2d.reason
    # one progress call per benchmark as it starts, then the end
    assert [s[0] for s in seen] == [0, 1, 2, 3] and seen[-1] == (3, 3, "done")
    # results are placed on the run's time axis in order
    starts = [r.started for r in outcome.results]
    assert starts == sorted(starts) and all(r.seconds >= 0 for r in outcome.results)
    assert 0 < outcome.seconds < 60


@pytest.mark.parametrize("model", ["train_cnn", "train_transformer"])
def test_training_steps_on_this_cpu(model: str) -> None:
    outcome = run_suite("quick", only=[model])
    runs = {r.variant: r for r in ok(outcome, model)}
    assert set(runs) == {"", "amp", "checkpointing", "amp+checkpointing"}
    assert runs[""].dtype == "fp32" and runs["amp"].dtype == "bf16"
    assert all(r.unit == "samples/s" for r in runs.values())
    assert all(r.detail["peak_memory_bytes"] > 0 and r.detail["peak_rss_growth_bytes"] >= 0 for r in runs.values())
    # Checkpointing keeps only each block's input for the backward pass: fewer live tensor bytes.
    assert runs["checkpointing"].detail["peak_memory_bytes"] < runs[""].detail["peak_memory_bytes"]
    # The variants are measured in interleaved rounds: one sample of each per round, and each other variant
    # against the plain step as the pairs of its rounds (plain seconds over its seconds: throughput ratios).
    rounds = len(runs[""].samples)
    assert rounds >= MIN_SAMPLES and all(len(r.samples) == rounds for r in runs.values())
    assert "vs_plain_samples" not in runs[""].detail
    for variant in ("amp", "checkpointing", "amp+checkpointing"):
        pairs = runs[variant].detail["vs_plain_samples"]
        assert len(pairs) == rounds
        batch = runs[variant].detail["batch"]
        plain_s = [batch / v for v in runs[""].samples]
        own_s = [batch / v for v in runs[variant].samples]
        assert pairs == pytest.approx([p / o for p, o in zip(plain_s, own_s, strict=True)], rel=1e-3)


def test_dataloader_and_disk_on_this_cpu() -> None:
    outcome = run_suite("quick", only=["dataloader", "disk_read"])
    loaders = {r.variant: r for r in ok(outcome, "dataloader")}
    assert set(loaders) == {"num_workers=0", "num_workers=2"}
    for loader in loaders.values():
        # windows of batches once the workers run; starting them is said apart
        detail = loader.detail
        assert loader.unit == "samples/s" and len(loader.samples) >= MIN_SAMPLES and detail["first_batch_s"] > 0
        assert detail["items"] == (1 + detail["batches_per_sample"] * (1 + len(loader.samples))) * detail["batch"]
    (disk,) = ok(outcome, "disk_read")
    assert disk.unit == "MB/s" and disk.detail["file_bytes"] == 64 * 2**20
    assert len(disk.samples) >= MIN_SAMPLES  # each a read of the whole file, dropped from the cache first
    assert isinstance(disk.detail["cache_dropped"], bool) and disk.detail["cache"]


def test_all_reduce_bus_bandwidth_between_two_cpu_ranks_started_by_torchrun() -> None:
    outcome = run_suite("full", only=["allreduce"])
    (result,) = ok(outcome, "allreduce")
    assert result.variant == "gloo" and result.detail["processes"] == 2 and result.unit == "GB/s"
    assert result.detail["launcher"] == "torchrun --standalone"
    assert set(result.detail["by_size"]) == {str(2**20), str(16 * 2**20), str(64 * 2**20)}
    largest = result.detail["by_size"][str(result.detail["bytes"])]
    assert result.value == pytest.approx(largest["algbw_gbs"] * 2 * (2 - 1) / 2, rel=0.01)
    assert len(result.samples) == result.detail["iterations"]  # each all-reduce timed alone


@pytest.mark.parametrize(
    ("name", "words", "failure"),
    [
        ("segfault", "crashed (segmentation fault)", Failure.CRASH),
        ("exhaust_memory", "out of memory: MemoryError", Failure.OUT_OF_MEMORY),
    ],
)
def test_a_crashing_worker_fails_one_benchmark_and_the_rest_still_run(
    name: str, words: str, failure: Failure, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # the CPU path, on a machine with a GPU too
    outcome = run_suite("quick", only=["steady", name, "steady_after"], worker=FAILING)
    results = by_name(outcome)
    assert results["steady"][0].status == "ok" and results["steady"][0].failure is None
    (failed,) = results[name]
    assert failed.status == "failed" and words in failed.reason, failed.reason
    assert failed.failure == failure
    assert failed.device == "cpu"
    assert results["steady_after"][0].status == "ok"  # in a fresh worker
    assert not outcome.cancelled


def test_a_hanging_worker_times_out_and_the_rest_still_run() -> None:
    began = time.monotonic()
    outcome = run_suite("quick", only=["hang", "steady_after"], worker=FAILING, limits=Limits(benchmark_s=2))
    results = by_name(outcome)
    (hung,) = results["hang"]
    assert hung.status == "failed" and hung.reason == "timed out after 2 s" and hung.failure == Failure.TIMEOUT
    assert results["steady_after"][0].status == "ok"
    assert time.monotonic() - began < 10


def test_a_worker_past_a_time_out_under_a_second_says_the_time_out_as_given() -> None:
    request = {"suite": "quick", "only": ["hang"]}
    ended = run_worker(FAILING, request, lambda _event: None, sys.executable, deadline=Deadline(0.4))
    assert ended.failure == Failure.TIMEOUT and ended.reason == "took longer than 0.4 s"


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no signals")
def test_a_worker_the_out_of_memory_killer_ended_is_said_to_have_run_out_of_memory(tmp_path: Path) -> None:
    script = tmp_path / "killed.py"  # what the kernel's out-of-memory killer does to the biggest process
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", encoding="utf-8")
    ended = run_worker(script, {}, lambda _event: None, sys.executable)
    said = "killed by signal 9 (out of memory?)"
    assert (ended.code, ended.failure, ended.reason) == (-signal.SIGKILL, Failure.OUT_OF_MEMORY, said)


def _descendants() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def _alive(pids: list[int], grace_s: float = 2.0) -> list[int]:
    """Those of `pids` still running after `grace_s` (a zombie has ended, it waits only to be reaped).

    SIGKILL is delivered at once but a process takes a moment to exit, above all an orphaned grandchild
    on a busy machine: the grace is for the kernel, not for the runner.
    """
    deadline = time.monotonic() + grace_s
    while True:
        running = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    running.append(pid)
            except psutil.NoSuchProcess:
                continue
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.02)


def _group_members(pgid: int) -> list[int]:
    members = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                members.append(process.pid)
        except (ProcessLookupError, psutil.Error):
            continue
    return members


def _cancel_when(condition: threading.Event, flag: list[float]) -> None:
    condition.wait(60)
    time.sleep(0.3)  # let the worker get going
    flag.append(time.monotonic())


def test_cancel_kills_the_whole_worker_tree_at_once() -> None:
    before = _descendants()
    started = threading.Event()
    cancel_at: list[float] = []
    tree: list[int] = []
    leader: list[int] = []

    def on_result(result: BenchmarkResult) -> None:
        if result.name == "children":
            tree.extend(_descendants() - before)  # the worker (supervisor and script) and two sleeping children
            leader.extend(p.pid for p in psutil.Process().children() if p.pid in tree)
            started.set()

    threading.Thread(target=_cancel_when, args=(started, cancel_at), daemon=True).start()
    outcome = run_suite(
        "quick", only=["steady", "children", "steady_after"], worker=FAILING, on_result=on_result,
        cancelled=lambda: bool(cancel_at),
    )  # fmt: skip
    returned = time.monotonic()
    assert outcome.cancelled
    assert returned - cancel_at[0] < 1.0  # polled every 50 ms, then SIGKILL to the group
    assert [r.name for r in outcome.results] == ["steady", "children"]
    assert len(tree) == 4 and len(leader) == 1
    assert not _alive(tree)
    assert not _group_members(leader[0])  # the worker ran in its own process group: nothing of it is left


def test_cancel_during_the_real_dataloader_leaves_no_process_behind() -> None:
    before = _descendants()
    loading = threading.Event()
    cancel_at: list[float] = []
    tree: list[int] = []
    leader: list[int] = []

    def on_result(result: BenchmarkResult) -> None:
        if result.name == "dataloader":  # the num_workers=0 figure: the next one starts worker processes
            loading.set()

    def watch_tree() -> None:
        while not cancel_at:
            tree.extend(p for p in _descendants() - before if p not in tree)
            leader.extend(p.pid for p in psutil.Process().children() if p.pid in tree and p.pid not in leader)
            time.sleep(0.02)

    threading.Thread(target=_cancel_when, args=(loading, cancel_at), daemon=True).start()
    threading.Thread(target=watch_tree, daemon=True).start()
    outcome = run_suite(
        "quick", only=["dataloader", "disk_read"], on_result=on_result, cancelled=lambda: bool(cancel_at)
    )
    returned = time.monotonic()
    assert outcome.cancelled and returned - cancel_at[0] < 1.0
    assert not [r for r in outcome.results if r.name == "disk_read"]
    assert len(tree) >= 2 and len(leader) == 1  # the worker, and DataLoader workers it had started
    assert not _alive(tree)
    assert not _group_members(leader[0])


def test_a_python_without_torch_gives_the_unavailable_state(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True, timeout=60)
    python = tmp_path / "bare" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    outcome = run_suite("quick", python=str(python))
    assert isinstance(outcome.torch, Unavailable)
    reason = outcome.torch.reason
    assert reason.startswith(f"no torch in {python}") and "No module named 'torch'" in reason
    names = [r.name for r in outcome.results]
    assert "matmul" in names and "disk_read" in names and len(names) == len(set(names))
    assert all(r.status == "skipped" and r.reason == reason for r in outcome.results)


def test_a_python_that_does_not_exist_gives_the_unavailable_state(tmp_path: Path) -> None:
    missing = tmp_path / "no-python"
    outcome = run_suite("quick", python=str(missing), only=["matmul", "disk_read"])
    assert isinstance(outcome.torch, Unavailable) and outcome.torch.reason.startswith(f"cannot run {missing}")
    assert [(r.name, r.status) for r in outcome.results] == [("matmul", "skipped"), ("disk_read", "skipped")]


def test_benchmark_names_come_from_the_worker_without_torch() -> None:
    names = benchmark_names()
    assert names[0] == "matmul" and "allreduce" in names and "disk_read" in names
    assert benchmark_names(FAILING)[:2] == ("steady", "segfault")


def test_a_benchmark_that_raises_fails_as_an_error_and_is_advised_so() -> None:
    outcome = run_suite("quick", only=["warp_drive"])  # the real worker raises for a name it does not know
    (failed,) = outcome.results
    assert failed.status == "failed" and failed.failure == Failure.ERROR
    assert failed.reason.startswith("LookupError: no benchmark named 'warp_drive'; known: matmul, memory_bandwidth")
    (ran,) = [v for v in judge_json({}, [], outcome.torch, outcome.results) if v.check == "Benchmark ran"]
    assert ran.advice == OTHER_FAILURE_ADVICE  # not the memory advice its list of names would match


def test_the_worker_tells_a_failed_allocation_from_other_errors() -> None:
    # In a subprocess of its own, as the worker runs: torch is imported only in worker processes.
    script = (
        "import json, torch\n"
        "from gpuconfig.workers.bench.events import out_of_memory\n"
        "def raised(make):\n"
        "    try:\n        make()\n    except Exception as exc:\n        return out_of_memory(exc)\n"
        "print(json.dumps([\n"
        "    raised(lambda: torch.empty(2**62, dtype=torch.uint8)),  # c10's DefaultCPUAllocator cannot\n"
        "    out_of_memory(MemoryError()),\n"
        "    raised(lambda: torch.ones(2) + torch.ones(3)),  # shapes that do not match\n"
        "    out_of_memory(RuntimeError('could not create a primitive')),\n"
        "]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [True, True, False, False]
