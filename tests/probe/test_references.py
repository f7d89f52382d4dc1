"""Which measured reference a probed GPU gets: the exact model NVML names, never one whose name it contains.

The NVML answers are in tests/probe/data/nvml_variants.json (each value with its source), parsed by the
probe's own nvml.facts_from_raw, as a probe run would.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.probe import nvml
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.probe.references import references
from tests.probe.reports import judge_json

DATA = Path(__file__).parent / "data"
VARIANTS: dict[str, Any] = json.loads((DATA / "nvml_variants.json").read_text(encoding="utf-8"))["gpus"]


def facts(variant: str, **raw_changes: Any) -> GpuFacts:
    return nvml.facts_from_raw({**VARIANTS[variant]["facts"], **raw_changes})


@pytest.mark.parametrize(
    ("variant", "reference"),
    [
        ("rtx_4090", "GeForce RTX 4090"),
        ("h200", "H200"),
        ("h100_sxm", "H100 SXM 80GB"),
        ("l40s_ecc", "L40S"),  # ECC on: 46068 MiB of 48 GB is still this card
        # Same stem, other parts: their datasheet row, not the measured part whose name they contain.
        ("rtx_4090_laptop", "GeForce RTX 4090 Mobile (datasheet)"),
        ("rtx_4090_d", "GeForce RTX 4090 D (datasheet)"),
        ("a100_80gb_pcie", "A100 PCIe 80 GB (datasheet)"),
        ("h200_nvl", "H200 NVL (datasheet)"),
    ],
)
def test_each_gpu_gets_the_reference_of_its_exact_model(variant: str, reference: str) -> None:
    found = references().gpu(facts(variant))
    assert found is not None and found.name == reference


def test_a_measured_reference_says_how_the_gpu_was_identified() -> None:
    found = references().gpu(facts("h100_sxm"))
    assert found is not None and "identified by PCI id 10DE:2330" in found.source
    assert "open-gpu-kernel-modules" in found.source and "DCGM" in found.source


def test_the_laptop_4090_is_not_failed_against_the_desktop_card() -> None:
    # 20 TFLOP/s fp32 is 43 % of the desktop 4090's 46.5: a failure if the laptop part took its reference.
    uuid = "4fb6ac9a-29e1-b611-4af7-b61a99e3b92d"  # a real one's shape (milvus-io/milvus#7493, nvidia-smi -q)
    laptop = replace(facts("rtx_4090_laptop"), uuid=f"GPU-{uuid}")
    torch = {"version": "2.13.0", "cuda": "12.8", "devices": [{"index": 0, "uuid": uuid}]}
    result = BenchmarkResult("matmul", "fp32", "cuda:0", 20.0, "TFLOP/s")
    verdict = next(v for v in judge_json({}, [laptop], torch, [result]) if v.check == "Matmul fp32")
    assert verdict.status == "pass", verdict
    assert verdict.expected is not None and verdict.expected < 46.5
    assert "GeForce RTX 4090 Mobile" in verdict.source


def test_without_a_pci_id_the_whole_nvml_name_identifies_it() -> None:
    no_pci = {"nvmlDeviceGetPciInfo()": {"unavailable": "not supported on this GPU"}}
    found = references().gpu(facts("rtx_4090", **no_pci))
    assert found is not None and found.name == "GeForce RTX 4090" and "its NVML name" in found.source
    laptop = references().gpu(facts("rtx_4090_laptop", **no_pci))
    assert laptop is not None and laptop.name == "GeForce RTX 4090 Mobile (datasheet)"


def test_a_board_the_driver_lists_under_another_subsystem_needs_the_name_as_well() -> None:
    pci = dict(VARIANTS["h100_sxm"]["facts"]["nvmlDeviceGetPciInfo()"], pciSubSystemId=0x16C210DE)
    found = references().gpu(facts("h100_sxm", **{"nvmlDeviceGetPciInfo()": pci}))
    assert found is not None and found.name == "H100 SXM 80GB" and "and its NVML name" in found.source
    renamed = references().gpu(facts("h100_sxm", **{"nvmlDeviceGetPciInfo()": pci, "nvmlDeviceGetName()": "X"}))
    assert renamed is None or "(datasheet)" in renamed.name


def test_memory_that_disagrees_with_the_model_is_no_identification() -> None:
    # An RTX 4090 device id with 16 GB (a vGPU slice, or a mislabelled board): not the 24 GB card surely.
    sixteen = {"nvmlDeviceGetMemoryInfo()": {"total": 16 * 2**30, "free": 16 * 2**30, "used": 0}}
    found = references().gpu(facts("rtx_4090", **sixteen))
    assert found is None or found.name.endswith("(datasheet)")


def test_every_reference_has_pci_ids_and_whole_nvml_names() -> None:
    for ref in references().gpus:
        assert ref.pci_ids and all(name.startswith(("NVIDIA ", "Quadro ", "Tesla ")) for name in ref.nvml_names), ref
    assert "open-gpu-kernel-modules" in references().identity_source
