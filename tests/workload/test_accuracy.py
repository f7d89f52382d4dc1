"""The error band answers show, the CPU heap term and the glibc rule the tracer follows to find it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload import accuracy, cpu_heap
from gpuconfig.workers.tracer.heap_profile import INITIAL_MMAP_THRESHOLD, MAX_MMAP_THRESHOLD, heap_profile

KIB, MIB = 1024, 1024 * 1024


@pytest.mark.parametrize(
    ("device", "benchmark"),
    [("cpu", "benchmarks/estimate_accuracy_cpu.py"), ("cuda", "benchmarks/estimate_accuracy_gpu.py")],
)
def test_each_devices_band_is_its_benchmarks_out_of_sample_error(device: str, benchmark: str) -> None:
    with (catalog_dir() / accuracy.BAND_FILE).open("rb") as handle:
        written = tomllib.load(handle)[device]
    band = accuracy.band(device)
    assert band is not None and band.benchmark == benchmark
    assert band.cases == written["cases"] >= 8
    median, worst = 100 * band.median_abs_error, 100 * band.worst_error
    assert accuracy.band_text(device) == (
        f"±{median:.1f} % (held-out median), worst {worst:+.0f} %, from {benchmark} over {band.cases} cases"
    )
    record = accuracy.band_record(device)
    assert record["band"]["median_abs_error"] == band.median_abs_error
    assert record["text"] == accuracy.band_text(device) and record["extrapolated"] is False


def test_eager_decode_has_its_own_band_from_real_generations() -> None:
    """The eager decode rate is launch-bound, and real eager generations ran far from it; its band is theirs, not
    the optimized engines' the bandwidth share was fitted on."""
    decode = accuracy.band("cuda_decode")
    assert decode is not None and decode.benchmark == "benchmarks/estimate_accuracy_gpu.py" and decode.cases >= 3
    results = json.loads((Path(__file__).parents[2] / "benchmarks/results/estimate_accuracy_gpu.json").read_text())
    assert results["decode_step"]["median_abs_error"] == decode.median_abs_error
    assert accuracy.band_record("cuda_decode")["text"].startswith(f"±{100 * decode.median_abs_error:.1f} %")


def test_an_answer_beyond_the_traced_shapes_claims_no_band() -> None:
    why = "batch 16 at length 128 lies outside the traced shapes (batch 1-2, length 64-128)"
    assert accuracy.band_record("cuda", why) == {"device": "cuda", "band": None, "text": why, "extrapolated": True}


def test_without_the_file_no_device_has_a_band(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(accuracy, "catalog_dir", lambda: tmp_path)
    accuracy._bands.cache_clear()
    try:
        assert accuracy.band("cpu") is None and accuracy.band("cuda") is None
        assert "no measured band yet" in accuracy.band_text("cpu")
        assert accuracy.band_record("cuda") == {
            "device": "cuda",
            "band": None,
            "text": "no measured band for GPUs yet",
            "extrapolated": False,
        }
    finally:
        monkeypatch.undo()
        accuracy._bands.cache_clear()


def test_blocks_below_the_threshold_come_from_the_heap_and_it_rises_as_mmap_blocks_are_freed() -> None:
    events = [
        (1, 64 * KIB),  # heap: below the initial 128 KiB
        (2, 4 * MIB),  # mmap
        (2, -1),  # freed: the threshold rises to 4 MiB
        (3, 3 * MIB),  # now from the heap
        (1, -1),
        (4, 40 * MIB),  # above the most the threshold can reach: mmap, and freeing it changes nothing
        (4, -1),
        (5, 8 * MIB),  # mmap again (4 MiB threshold)
    ]
    profile = heap_profile(events)
    assert profile["mmap_threshold_bytes"] == 4 * MIB
    assert profile["heap_allocations"] == 2 and profile["heap_allocated_bytes"] == 64 * KIB + 3 * MIB
    # the peak: the 40 MiB block live with the 3 MiB one, after the 64 KiB one was freed
    assert profile["heap_live_at_peak_bytes"] == 3 * MIB
    assert profile["heap_freed_at_peak_bytes"] == 64 * KIB
    assert profile["heap_high_water_bytes"] == 64 * KIB + 3 * MIB
    assert profile["heap_freed_histogram"] == {"16": 64 * KIB}  # 2**16 bytes
    assert INITIAL_MMAP_THRESHOLD == 128 * KIB and MAX_MMAP_THRESHOLD == 32 * MIB


def test_the_heap_share_is_the_median_over_the_cases_it_is_fitted_on() -> None:
    cases = [
        {"measured": 1_100.0, "unfitted": 1_000.0, "predictor": 200.0},  # 0.5
        {"measured": 1_030.0, "unfitted": 1_000.0, "predictor": 100.0},  # 0.3
        {"measured": 1_900.0, "unfitted": 1_000.0, "predictor": 1_000.0},  # 0.9
        {"measured": 500.0, "unfitted": 400.0, "predictor": 0.0},  # nothing to share: left out
    ]
    assert cpu_heap.fit_share(cases) == pytest.approx(0.5)
    assert cpu_heap.fit_share([{"measured": 900.0, "unfitted": 1_000.0, "predictor": 100.0}]) == 0.0


def test_the_heap_term_reads_its_predictor_from_the_fit() -> None:
    measured = cpu_heap.measured_share()
    assert measured is not None, "catalog/cpu_heap.toml is written by benchmarks/estimate_accuracy_cpu.py"
    predictor, share, source = measured
    assert predictor in cpu_heap.PREDICTORS and 0 <= share < 5 and "estimate_accuracy_cpu" in source
    values = dict.fromkeys(cpu_heap.PREDICTORS[predictor], 1000.0)
    kept = cpu_heap.kept_bytes(lambda key: values.get(key, 0.0))
    if predictor == "none":  # nothing fitted: no line is added to the replay
        assert share == 0 and kept is None
    else:
        assert kept == (round(share * 1000 * len(values)), source)


def test_the_replayed_small_blocks_are_read_from_the_measured_catalog() -> None:
    objects = cpu_heap.autograd_objects()
    assert objects is not None, "catalog/autograd_objects.toml is written by benchmarks/autograd_objects.py"
    assert "benchmarks/autograd_objects.py" in objects["source"] and objects["torch"]
    for name, count in (("plain", "per_node"), ("checkpointed", "per_node"), ("tensor", "per_storage")):
        assert 1 < objects[name][count] < 10, name  # a few blocks each, as PyTorch's C++ objects go
        assert sum(share for _, share in objects[name]["sizes"]) == pytest.approx(1.0, abs=0.01)
    assert set(objects["tensor"]["before"]) <= {size for size, _ in objects["tensor"]["sizes"]}
    # GELU's CPU kernel builds oneDNN objects on every call: aligned blocks the trace never sees
    gelu = objects["kernels"]["aten.gelu.default"]
    assert sum(step > 0 for step in gelu) == sum(step < 0 for step in gelu) > 0  # each block freed before it returns


@pytest.mark.parametrize(
    "body",
    [
        "",  # empty: no tables
        "[plain]\nper_node = 4.0\nsizes = [[16, 1.0]]\n",  # the other tables missing
        "[plain]\nper_node = nan\nsizes = [[16, 1.0]]\n[checkpointed]\nper_node = 3.0\nsizes = [[32, 1.0]]\n"
        "[tensor]\nper_storage = 3.0\nsizes = [[96, 1.0]]\n",  # not a number
        "[plain]\nper_node = 4.0\nsizes = [[-16, 1.0]]\n[checkpointed]\nper_node = 3.0\nsizes = [[32, 1.0]]\n"
        "[tensor]\nper_storage = 3.0\nsizes = [[96, 1.0]]\n",  # a negative size
        "[plain\n",  # not TOML
        # a kernel's script freeing a block it never allocated
        "[plain]\nper_node = 4.0\nsizes = [[16, 1.0]]\n[checkpointed]\nper_node = 3.0\nsizes = [[32, 1.0]]\n"
        '[tensor]\nper_storage = 3.0\nsizes = [[96, 1.0]]\n[kernels]\n"aten.gelu.default" = [768, -2]\n',
        # a kernel's script leaving a block live (it would pile up with every call)
        "[plain]\nper_node = 4.0\nsizes = [[16, 1.0]]\n[checkpointed]\nper_node = 3.0\nsizes = [[32, 1.0]]\n"
        '[tensor]\nper_storage = 3.0\nsizes = [[96, 1.0]]\n[kernels]\n"aten.gelu.default" = [768, 16, -1]\n',
        # the kernels' table not a table
        "kernels = [1]\n[plain]\nper_node = 4.0\nsizes = [[16, 1.0]]\n[checkpointed]\nper_node = 3.0\n"
        "sizes = [[32, 1.0]]\n[tensor]\nper_storage = 3.0\nsizes = [[96, 1.0]]\n",
    ],
)
def test_a_damaged_small_block_table_means_the_tensors_alone_are_replayed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: str
) -> None:
    (tmp_path / cpu_heap.OBJECTS_FILE).write_text(body, encoding="utf-8")
    monkeypatch.setattr(cpu_heap, "catalog_dir", lambda: tmp_path)
    cpu_heap.autograd_objects.cache_clear()
    try:
        assert cpu_heap.autograd_objects() is None
    finally:
        cpu_heap.autograd_objects.cache_clear()


def test_cpu_traces_carry_the_small_blocks_and_gpu_traces_do_not(tmp_path: Path) -> None:
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request
    from gpuconfig.core.workload.spec import Workload

    source = resolve_model("gpt2")
    cpu = trace_request(source, Workload(model="gpt2", device="cpu", precision="fp32"), [(1, 8, None)])
    assert cpu["autograd_objects"] == cpu_heap.autograd_objects()
    gpu = trace_request(source, Workload(model="gpt2", device="cuda", precision="bf16"), [(1, 8, None)])
    assert "autograd_objects" not in gpu
