"""An estimate priced at the rates a probe report measured on the machine itself (issue: calibrate to this machine):
the report's matmul TFLOP/s and memory bandwidth replace the datasheet's, the step reaches the share of them a real
step reached where benchmarks/cpu_step_time.py measured it, and the answer says where each was measured. Reports:
a real H100 SXM's quick suite (benchmarks/results/gpu_h100) and this project's
2-core CPU machine (tests/workload/data/probe_cpu_report.json, taken while other work ran: its rates are low)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.workload.answer import answer_record, gpu_spec, measured_share
from gpuconfig.core.workload.measured import measured_spec, read_report
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import Workload, WorkloadError
from tests.workload.model_files import linear_model

ROOT = Path(__file__).parents[2]
H100 = ROOT / "benchmarks" / "results" / "gpu_h100" / "probe_quick_2026-11-26.json"
CPU = Path(__file__).parent / "data" / "probe_cpu_report.json"


def test_a_gpu_report_replaces_the_datasheet_rates_of_the_catalog_part(store) -> None:  # type: ignore[no-untyped-def]
    base = gpu_spec(store, "nvidia-h100-sxm")
    spec = measured_spec(read_report(H100), "cuda", base, "h100.json")
    assert (spec.bf16_tflops, spec.fp16_tflops, spec.tf32_tflops) == (705.346922, 678.166525, 360.786015)
    assert spec.fp32_tflops == 51.537466 and spec.fp8_tflops == 1300.358156
    assert spec.bandwidth_gbs < base.bandwidth_gbs  # a copy reaches less than the datasheet's HBM3 bandwidth
    assert spec.memory_bytes == 85_520_809_984 and spec.cc_major == 9
    assert "NVIDIA H100 80GB HBM3" in spec.measured and "2026-11-26" in spec.measured and "h100.json" in spec.measured


def test_a_cpu_report_prices_only_what_it_measured() -> None:
    spec = measured_spec(read_report(CPU), "cpu")
    assert spec.name == "AMD EPYC (2 logical cores)" and spec.id == "measured:cpu"
    assert spec.fp32_tflops == 0.078698 and spec.bf16_tflops == 0.18065
    assert spec.tf32_tflops is None and spec.fp16_tflops is None  # skipped on this CPU: not taken from anywhere
    assert spec.bandwidth_gbs == 17.06641 and spec.memory_bytes == 25_276_514_304


def test_reports_that_cannot_price_a_step_are_refused_in_one_line(tmp_path: Path) -> None:
    cases = {
        "missing.json": None,
        "garbled.json": "{not json",
        "other.json": json.dumps({"benchmarks": "none"}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        with pytest.raises(WorkloadError, match=f"probe report {path}"):
            read_report(path)
    with pytest.raises(WorkloadError, match="measured no CUDA GPU"):
        measured_spec(read_report(CPU), "cuda")
    no_bandwidth = {"benchmarks": [{"name": "matmul", "dtype": "fp32", "device": "cpu", "status": "ok", "value": 1.0}]}
    with pytest.raises(WorkloadError, match="no memory bandwidth"):
        measured_spec(no_bandwidth, "cpu")
    bad_values = [float("nan"), -1.0, True, "12", 10**400]
    for value in bad_values:
        report = {"benchmarks": [{"name": "matmul", "dtype": "fp32", "device": "cpu", "status": "ok", "value": value}]}
        with pytest.raises(WorkloadError, match="no matmul rate"):
            measured_spec(report, "cpu")
    unhashable = {"benchmarks": [{"name": "matmul", "dtype": [], "device": "cpu", "status": "ok", "value": 1.0}]}
    with pytest.raises(WorkloadError, match="no matmul rate"):
        measured_spec(unhashable, "cpu")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(WorkloadError, match="not a JSON probe report"):
        read_report(deep)


def test_the_step_is_priced_at_the_measured_rates_and_the_share_a_real_step_reaches(tmp_path: Path) -> None:
    workload = Workload(model=str(linear_model(tmp_path)), precision="fp32", device="cpu", batch=64)
    spec = measured_spec(read_report(CPU), "cpu", path="cpu.json")
    answer = TraceService(use_cache=False).fit_for(workload).answer(workload, spec)
    timing = answer.timing
    assert timing is not None
    flops = answer.fitted.flops_by_dtype(64, workload.seq or 1)
    assert timing.compute_seconds == pytest.approx(sum(flops.values()) / (0.078698e12))
    share, why, fitted_on = measured_share("cpu")
    assert 0 < share < 1 and "fine-tunes" in why  # the catalog's share, with the measurement it comes from
    assert "median error" in why and fitted_on in why  # how far it was, held out, and where it was fitted
    assert timing.efficiency.compute == timing.efficiency.memory == share
    # Each class of products at the roofline (the longer of its FLOPs at the measured rate and its bytes at the
    # measured bandwidth), the other operators at the bandwidth, all at the share a real step reaches.
    assert timing.classes and sum(at_rate for _, at_rate, _ in timing.classes) == pytest.approx(timing.compute_seconds)
    products = sum(max(at_rate, at_bandwidth) for _, at_rate, at_bandwidth in timing.classes)
    assert timing.step_seconds == pytest.approx((products + timing.memory_seconds) / share)
    assert timing.launch_seconds == 0.0  # a CPU launches no kernels
    record = answer_record(answer)
    assert record["gpu"]["measured"] == spec.measured
    assert spec.measured in record["time"]["efficiency"]["source"] and why in record["time"]["efficiency"]["source"]
    # the report was taken on another processor than the one the share was fitted on: the answer says so
    assert fitted_on not in spec.measured
    assert f"the share was fitted on another processor ({fitted_on})" in record["time"]["efficiency"]["source"]


def test_the_command_line_takes_a_report_and_says_where_its_rates_come_from(tmp_path: Path) -> None:
    model = str(linear_model(tmp_path))
    args = ["--model", model, "--device", "cpu", "--precision", "fp32", "--probe-report", str(CPU)]
    done = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", *args], capture_output=True, text=True, timeout=600, check=True
    )
    assert "rates measured by gpuconfig probe on AMD EPYC (2 logical cores)" in done.stdout
    assert "the largest under-estimate against real CPU runs" in done.stdout  # the CPU band's headroom, not a card's
    with_card = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", *args, "--gpu", "nvidia-h100-sxm", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert json.loads(with_card.stdout)["gpu"]["name"] == "AMD EPYC (2 logical cores)"  # on the CPU, not the card
    missing = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", *args[:-1], str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert missing.returncode == 2 and missing.stderr.strip().count("\n") == 0 and "none.json" in missing.stderr


def test_a_gpu_at_measured_rates_takes_them_as_reached_and_keeps_its_launch_time(store) -> None:  # type: ignore[no-untyped-def]
    """No share of measured rates has been measured on a GPU: the answer says the rates are taken as reached, and
    an eager GPU step still pays the launch time per kernel fitted on published decode rates."""
    from gpuconfig.core.workload.answer import decode_efficiency, measured_efficiency

    spec = measured_spec(read_report(H100), "cuda", gpu_spec(store, "nvidia-h100-sxm"))
    efficiency, decode = measured_efficiency(spec, Workload("gpt2", device="cuda"))
    assert measured_share("cuda") == (1.0, measured_share("cuda")[1], "") and "taken as reached" in efficiency.source
    fitted = decode_efficiency()
    assert decode is not None and fitted is not None and decode.launch_seconds == fitted.launch_seconds
