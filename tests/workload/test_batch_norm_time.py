"""Channels-first batch normalization on a CUDA GPU: the longer of its bytes at the memory share and its elements
at the fitted multiprocessor cycles each; channels-last, a CPU, or a GPU without the SM figures: the memory share."""

from __future__ import annotations

import pytest

from gpuconfig.core.workload.estimate import FP32_PER_SM_CLOCK, Efficiency, Fitted, GpuSpec, Term, time_at
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import Workload

GB = 1e9
NORM_BYTES, OTHER_BYTES = 40 * GB, 100 * GB
NORM_ELEMENTS = NORM_BYTES / 2  # 16-bit activations
# An A100-like card: 19.5 FP32 TFLOPS at 64 results per SM per clock is 152 G SM-cycles a second.
DATACENTER = GpuSpec("dc", "Datacenter", 80 * 1024**3, 2000.0, 19.5, 156.0, 312.0, 312.0, None, 8, 0)
# A GeForce-like card: 82.6 FP32 TFLOPS at 128 per SM per clock is 323 G SM-cycles a second, 1,008 GB/s.
GEFORCE = GpuSpec("gf", "GeForce", 24 * 1024**3, 1008.0, 82.6, 82.6, 165.0, 165.0, None, 8, 9)
CYCLES = 1.0
EFFICIENCY = Efficiency(1.0, 0.5, "test", 1.0, batch_norm_cycles_per_element=CYCLES)


def fitted() -> Fitted:
    terms = {
        "other_bytes": Term(OTHER_BYTES, 0.0, 0.0),  # the step's, as traced
        "batch_norm_bytes": Term(NORM_BYTES, 0.0, 0.0),
        "batch_norm_elements": Term(NORM_ELEMENTS, 0.0, 0.0),
        "kernels": Term(100.0, 0.0, 0.0),
    }
    return Fitted(terms, 0, None)


def step(gpu: GpuSpec, **changes: object) -> float:
    workload = Workload(model="resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=1)
    timing = time_at(fitted(), workload.with_changes(**changes), resolve_model("resnet-50"), 1, 224, gpu, EFFICIENCY)
    return timing.step_seconds


def test_the_sm_cycles_come_from_the_fp32_rate_and_the_results_per_sm_per_clock() -> None:
    assert FP32_PER_SM_CLOCK[(8, 0)] == 64 and FP32_PER_SM_CLOCK[(8, 9)] == 128
    assert DATACENTER.sm_cycles_per_s == pytest.approx(19.5e12 / 2 / 64)
    assert GpuSpec("amd", "AMD", 1, 1.0, 100.0, None, None, None, None, None).sm_cycles_per_s is None


def test_on_a_datacenter_gpu_channels_first_batch_norm_is_paced_by_the_multiprocessors() -> None:
    at_bandwidth = (OTHER_BYTES - NORM_BYTES) / (2000 * GB * 0.5)
    paced = NORM_ELEMENTS * CYCLES / (19.5e12 / 2 / 64)
    assert paced > NORM_BYTES / (2000 * GB * 0.5)  # slower than its bytes at the memory share
    assert step(DATACENTER) == pytest.approx(at_bandwidth + paced)
    assert step(DATACENTER, channels_last=True) == pytest.approx(OTHER_BYTES / (2000 * GB * 0.5))


def test_where_the_bandwidth_is_the_slower_pace_channels_first_costs_nothing_more() -> None:
    # 323 G SM-cycles a second at a cycle an element (2 bytes) outrun 504 GB/s: the bandwidth paces it here
    assert step(GEFORCE) == pytest.approx(step(GEFORCE, channels_last=True))
    assert step(GEFORCE) == pytest.approx(OTHER_BYTES / (1008 * GB * 0.5))


def test_without_a_calibrated_pace_or_on_the_cpu_batch_norm_takes_the_memory_share() -> None:
    plain = Efficiency(1.0, 0.5, "test", 1.0)
    workload = Workload(model="resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=1)
    timing = time_at(fitted(), workload, resolve_model("resnet-50"), 1, 224, DATACENTER, plain)
    assert timing.step_seconds == pytest.approx(OTHER_BYTES / (2000 * GB * 0.5))
    on_cpu = time_at(
        fitted(), workload.with_changes(device="cpu"), resolve_model("resnet-50"), 1, 224, DATACENTER, EFFICIENCY
    )
    assert on_cpu.batch_norm_sm_seconds == 0 and on_cpu.step_seconds == pytest.approx(timing.step_seconds)


def test_inference_is_not_paced_eval_mode_batch_norm_has_no_reduction() -> None:
    assert step(DATACENTER, task="inference") == pytest.approx(OTHER_BYTES / (2000 * GB * 0.5))


def test_a_card_whose_sm_figures_are_unknown_says_its_batch_norm_may_take_longer() -> None:
    blackwell = GpuSpec("bw", "Blackwell", 180 * 1024**3, 8000.0, 80.0, None, 2250.0, 2250.0, None, 10, 0)
    assert blackwell.sm_cycles_per_s is None  # compute capability 10.0: not in the table
    workload = Workload(model="resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=1)
    timing = time_at(fitted(), workload, resolve_model("resnet-50"), 1, 224, blackwell, EFFICIENCY)
    assert timing.batch_norm_sm_seconds == 0 and "Blackwell" in timing.batch_norm_unpaced
    nhwc = time_at(
        fitted(), workload.with_changes(channels_last=True), resolve_model("resnet-50"), 1, 224, blackwell, EFFICIENCY
    )
    assert nhwc.batch_norm_unpaced == ""  # channels-last needs no pace


def test_measured_rates_keep_the_datasheets_sm_figures_and_the_fitted_pace() -> None:
    from dataclasses import replace

    from gpuconfig.core.workload.answer import efficiency, measured_efficiency

    catalog = GpuSpec.from_specs(
        "dc",
        "Datacenter",
        {"memory_gb": 80, "memory_bandwidth_gbs": 2000, "fp32_tflops": 19.5, "compute_capability": "8.0"},
    )
    measured = replace(catalog, fp32_tflops=17.0, bandwidth_gbs=1700.0, measured="by a probe")
    assert measured.sm_cycles_per_s == pytest.approx(19.5e12 / 2 / 64)  # the datasheet's, not the matmul's
    assert replace(measured, datasheet_fp32_tflops=None).sm_cycles_per_s is None  # no datasheet behind it
    workload = Workload(model="resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=1)
    step_efficiency, _ = measured_efficiency(measured, workload)
    shipped = efficiency()
    assert shipped is not None and shipped.batch_norm_cycles_per_element is not None
    assert step_efficiency.batch_norm_cycles_per_element == shipped.batch_norm_cycles_per_element
    cpu, _ = measured_efficiency(measured, workload.with_changes(device="cpu"))
    assert cpu.batch_norm_cycles_per_element is None
