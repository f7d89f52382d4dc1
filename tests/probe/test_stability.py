"""Whether a figure can be trusted: the spread of its samples, what else used the CPUs, ratios from pairs,
and the worker's own account of other processes' CPU use, against real busy processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.probe.stability import paired_ratio, spread_of, stability
from gpuconfig.probe.verdicts.host import cpu_figures, technique_verdicts

QUIET = {"others_cpu": 0.01, "steal": 0.0, "cpus": 2, "source": "test"}
BUSY = {"others_cpu": 0.48, "steal": 0.02, "cpus": 2, "source": "test"}


def figure(samples: tuple[float, ...], device: str = "cpu", load: dict | None = None, **kw: object) -> BenchmarkResult:
    ordered = sorted(samples)
    value = ordered[len(ordered) // 2]
    fields = {"name": "matmul", "dtype": "fp32", "unit": "TFLOP/s"} | kw
    return BenchmarkResult(device=device, value=value, samples=samples, load=load or QUIET, **fields)  # type: ignore[arg-type]


def test_the_spread_is_half_the_interquartile_range_over_the_median() -> None:
    spread = spread_of([1.0, 2.0, 3.0, 4.0])
    assert spread is not None
    # inclusive quartiles of 1..4 are 1.75 and 3.25: half their distance, 0.75, over the median 2.5
    assert spread.median == 2.5 and spread.spread == pytest.approx(0.3) and spread.samples == 4
    assert spread_of([5.0]) is None  # one number says nothing of its spread


def test_a_figure_is_judged_only_when_its_samples_agree_and_the_cpus_were_its_own() -> None:
    steady = figure((100.0, 101.0, 99.0, 100.5, 100.2))
    assert stability(steady).stable
    wide = figure((60.0, 100.0, 140.0, 80.0, 120.0))
    found = stability(wide)
    assert not found.stable and "more than ±10 %" in found.why and "over 5 samples" in found.why
    busy_cpu = figure((100.0, 101.0, 99.0), load=BUSY)
    found = stability(busy_cpu)
    assert not found.stable and "other processes used 48 % of the 2 CPUs" in found.why
    # A GPU figure is not slowed by busy CPUs as such: busy is only named as the likely cause of a wide spread.
    assert stability(figure((100.0, 101.0, 99.0), device="cuda:0", load=BUSY)).stable
    gpu_wide = stability(figure((60.0, 100.0, 140.0), device="cuda:0", load=BUSY))
    assert not gpu_wide.stable and "likely cause: other processes used 48 %" in gpu_wide.why
    # An older report's figure is one number: nothing to say it is unstable.
    assert stability(replace(steady, samples=(), load={})).stable


def test_an_unstable_figure_gets_a_warning_in_place_of_its_verdict() -> None:
    verdicts = cpu_figures([figure((60.0, 100.0, 140.0, 80.0, 120.0))])
    (verdict,) = verdicts
    assert verdict.status == "warn" and verdict.message.startswith("not judged: 100 TFLOP/s is unstable")
    assert "idle" in verdict.advice and "±10 %" in verdict.threshold
    (shown,) = cpu_figures([figure((100.0, 101.0, 99.0))])
    assert shown.status == "info" and shown.message == "100 TFLOP/s"


def training(
    variant: str, samples: tuple[float, ...], pairs: tuple[float, ...] = (), load: dict | None = None
) -> BenchmarkResult:
    detail = {"vs_plain_samples": list(pairs)} if pairs else {}
    return figure(samples, name="train_cnn", dtype="fp32", unit="samples/s", variant=variant, detail=detail)


def test_a_ratio_comes_from_its_pairs_and_is_not_judged_from_unstable_figures() -> None:
    plain = training("", (100.0, 102.0, 98.0, 101.0))
    amp = training("amp", (150.0, 155.0, 149.0, 152.0), pairs=(1.5, 1.52, 1.49, 1.51))
    ratio = paired_ratio(amp, plain, "vs_plain_samples")
    assert ratio is not None and ratio.stability.stable and ratio.value == pytest.approx(1.505)
    (shown, *_) = technique_verdicts([plain, amp])
    assert shown.status == "info" and shown.unit == "x" and "in interleaved pairs" in shown.threshold
    assert shown.message.startswith("1.50x the throughput of the plain step (±")
    shaky = training("", (40.0, 100.0, 160.0, 90.0))
    (warned,) = technique_verdicts([shaky, amp])
    assert warned.status == "warn" and "CNN training step fp32 (cpu) is unstable" in warned.message
    scattered = training("amp", (150.0, 155.0, 149.0, 152.0), pairs=(1.0, 2.0, 1.5, 3.0))
    (warned,) = technique_verdicts([plain, scattered])
    assert warned.status == "warn" and "its pairs spread" in warned.message


def test_checkpointing_faster_than_the_plain_step_is_called_a_disturbed_measurement() -> None:
    plain = training("", (100.0, 101.0, 99.0))
    faster = training("checkpointing", (123.0, 124.0, 122.0), pairs=(1.23, 1.24, 1.22))
    (warned,) = technique_verdicts([plain, faster])
    assert warned.status == "warn" and "recomputes its forward pass" in warned.message


MEASURE = """
import json, time
from pathlib import Path
from gpuconfig.workers.bench import load as counters
from gpuconfig.workers.bench.load import CpuLoad
if {without_proc}:
    counters.PROC = Path("/no/proc/here")  # as on Windows: psutil's counters instead
with CpuLoad() as load:
    end = time.monotonic() + 1.5
    while {spin} and time.monotonic() < end:
        pass
    time.sleep(0 if {spin} else 1.5)
print(json.dumps(load.record()))
"""


def measure(spin: bool, without_proc: bool) -> dict:
    code = MEASURE.format(spin=spin, without_proc=without_proc)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("without_proc", [False, True], ids=["proc", "psutil"])
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the worker reads other processes' CPU from /proc")
def test_the_worker_counts_other_processes_cpu_and_not_its_own(without_proc: bool) -> None:
    cpus = os.cpu_count() or 1
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cpus)]
    try:
        time.sleep(0.5)
        busy = measure(spin=False, without_proc=without_proc)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert busy["cpus"] >= 1 and busy["source"].startswith("psutil" if without_proc else "/proc/stat")
    assert busy["others_cpu"] >= 0.5, busy  # one busy loop per CPU: about all of them
    # Its own busy CPU is not another's use: spinning adds about half the CPUs of a 2-CPU machine to what
    # it measures if it were counted; against a quiet moment just before it adds nothing.
    quiet = measure(spin=False, without_proc=without_proc)
    own = measure(spin=True, without_proc=without_proc)
    assert own["others_cpu"] < quiet["others_cpu"] + 0.5 / cpus, (quiet, own)


def test_a_budget_shorter_than_the_boxes_shrinks_each_box_in_proportion() -> None:
    from gpuconfig.workers.bench.suite import _box

    began = time.monotonic()
    assert _box([6.0, 2.0], None, began).left() == pytest.approx(6.0, abs=0.05)  # no budget: its own box
    assert _box([6.0, 2.0], 100.0, began).left() == pytest.approx(6.0, abs=0.05)  # room for all: its own
    assert _box([6.0, 2.0], 4.0, began).left() == pytest.approx(3.0, abs=0.05)  # 4 s for 8: three quarters of 4
    assert _box([6.0], 4.0, began - 10).left() <= 0  # the budget is spent: only the minimum samples run


def test_a_figure_far_from_this_machines_earlier_runs_is_not_judged() -> None:
    steady = figure((100.0, 101.0, 99.0))
    assert stability(replace(steady, earlier=(98.0, 103.0, 101.0))).stable  # 1 % from the usual
    moved = stability(replace(steady, earlier=(120.0, 118.0, 121.0)))
    assert not moved.stable and "-16.7 % from this machine's last 3 runs (120 TFLOP/s)" in moved.why
    assert "where ±5 % is allowed (±10 % with its own spread)" in moved.why and moved.drifting
    # 4 % from the usual, give or take its own ±8 % (quartiles 92 and 108): together more than ±10 %
    wide = figure((84.0, 100.0, 116.0))
    assert stability(replace(wide, earlier=(104.0,)), repeats=False).stable
    assert not stability(replace(wide, earlier=(104.0,))).stable
    assert stability(replace(steady, earlier=(120.0,)), repeats=False).stable  # its own run alone
    # A machine whose earlier runs spread: even a figure at their median is not known to ±10 %.
    shifting = stability(replace(steady, earlier=(80.0, 100.0, 120.0, 95.0, 105.0)))
    assert not shifting.stable and "last 5 runs (100 TFLOP/s), which themselves swing ±20.0 %" in shifting.why


def test_a_figure_that_fails_its_reference_still_fails_when_unstable() -> None:
    from gpuconfig.probe.references import references
    from gpuconfig.probe.verdicts.figures import _figure

    ref = next(g for g in references().gpus if g.memory_bandwidth_gbs)
    expected = float(ref.memory_bandwidth_gbs or 0)
    slow = figure(tuple(expected * f for f in (0.5, 0.52, 0.51)), device="cuda:0", name="memory_bandwidth")
    slow = replace(slow, unit="GB/s", earlier=(expected * 0.95,))
    verdict = _figure("Memory bandwidth", "cuda:0", slow, expected, ref, ref.name, "check it")
    assert (
        verdict.status == "fail"
        and "unstable (it lies" in verdict.message
        and "run again to confirm" in verdict.message
    )
    usual = figure(tuple(expected * f for f in (0.85, 0.86, 0.84)), device="cuda:0", name="memory_bandwidth")
    usual = replace(usual, unit="GB/s", earlier=(expected * 0.95,))
    warned = _figure("Memory bandwidth", "cuda:0", usual, expected, ref, ref.name, "check it")
    assert warned.status == "warn" and warned.message.startswith("not judged")  # a warn-level figure, unsteady
