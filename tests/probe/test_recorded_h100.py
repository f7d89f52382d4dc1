"""A real NVIDIA H100 SXM, recorded on a lent machine (benchmarks/gpu_session.py, 2026-11-26): NVML's raw answers
(tests/probe/data/nvml_h100_sxm_recorded.json, written by `python -m gpuconfig.probe.nvml --record`), the same
GPU as `nvidia-smi -q -x` described it (tests/probe/data/nvidia_smi_h100_sxm.xml), and the full probe's JSON
report from that machine (benchmarks/results/gpu_h100/probe_full.json).

Unlike nvml_documented.json, which is built from the NVML reference's documented types, these are what a real
driver (580.159.04) answered. nvidia-smi reads NVML itself but formats every figure its own way, so agreeing
with it checks the parsing; the report is judged again here from its recorded figures, so a change to the
references or the thresholds that would misjudge a healthy H100 fails a test.
"""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.probe import nvml
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.verdicts import judge

DATA = Path(__file__).parent / "data"
REPORT = Path(__file__).parents[2] / "benchmarks" / "results" / "gpu_h100" / "probe_full.json"


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "nvml_h100_sxm_recorded.json").read_text(encoding="utf-8"))
    assert data["format"] == nvml.RECORDING_FORMAT and data["device_count"] == 1
    return data


@pytest.fixture(scope="module")
def smi() -> ET.Element:
    gpus = ET.parse(DATA / "nvidia_smi_h100_sxm.xml").getroot().findall("gpu")
    assert len(gpus) == 1
    return gpus[0]


@pytest.fixture(scope="module")
def run() -> ProbeRun:
    return ProbeRun.from_record(json.loads(REPORT.read_text(encoding="utf-8")))


def number(element: ET.Element, path: str) -> float:
    """nvidia-smi's figure at `path` without its unit ("81559 MiB", "700.00 W", "16x")."""
    text = element.findtext(path)
    assert text is not None, path
    return float(text.split()[0].rstrip("x"))


def test_recorded_facts_agree_with_nvidia_smi(recording: dict[str, Any], smi: ET.Element) -> None:
    facts = nvml.facts_from_raw(recording["devices"][0]["facts"]).record()
    root = ET.parse(DATA / "nvidia_smi_h100_sxm.xml").getroot()
    assert facts["name"] == smi.findtext("product_name") == "NVIDIA H100 80GB HBM3"
    assert facts["uuid"] == smi.findtext("uuid")
    # NVML's bus id has an 8-digit domain; the facts keep the 4-digit form lspci and sysfs use
    assert smi.findtext("pci/pci_bus_id") == "00000000:00:06.0" and facts["pci_bus_id"] == "0000:00:06.0"
    assert facts["pci_device_id"] == "0x" + (smi.findtext("pci/pci_device_id") or "").upper()
    assert facts["driver_version"] == root.findtext("driver_version") == "580.159.04"
    assert facts["cuda_driver_version"] == root.findtext("cuda_version") == "13.0"
    assert round(facts["memory_total_bytes"] / 2**20) == number(smi, "fb_memory_usage/total") == 81559
    assert facts["power_limit_w"] == number(smi, "gpu_power_readings/current_power_limit") == 700.0
    assert facts["max_sm_clock_mhz"] == number(smi, "max_clocks/sm_clock") == 1980
    assert facts["max_mem_clock_mhz"] == number(smi, "max_clocks/mem_clock") == 2619
    assert facts["pcie"]["max_generation"] == number(smi, "pci/pci_gpu_link_info/pcie_gen/max_link_gen") == 5
    assert facts["pcie"]["max_width"] == number(smi, "pci/pci_gpu_link_info/link_widths/max_link_width") == 16
    assert facts["ecc_mode"] == {"current": smi.findtext("ecc_mode/current_ecc") == "Enabled", "pending": True}
    assert facts["persistence_mode"] is (smi.findtext("persistence_mode") == "Enabled")
    assert facts["compute_capability"] == "9.0"


def test_what_this_h100_does_not_support_is_unavailable_not_zero(recording: dict[str, Any]) -> None:
    """Hopper replaced page retirement with row remapping: NVML refuses the one and answers the other."""
    facts = nvml.facts_from_raw(recording["devices"][0]["facts"]).record()
    assert facts["retired_pages"] == {"unavailable": "not supported on this GPU"}
    assert facts["remapped_rows"] == {"corrected": 0, "uncorrected": 0, "pending": False, "failed": False}
    assert (facts["ecc_corrected_volatile"], facts["ecc_uncorrected_volatile"]) == (0, 0)


def test_recorded_idle_samples(recording: dict[str, Any]) -> None:
    samples = [nvml.sample_from_raw(s).record() for s in recording["devices"][0]["samples"]]
    assert len(samples) == 5
    for sample in samples:
        assert sample["clocks_event_reasons"] == {"mask": 1, "names": ["gpu_idle"]}
        assert sample["sm_clock_mhz"] == 345.0 and sample["util_gpu_pct"] == 0.0
        assert 50 < sample["power_w"] < 100 and sample["temperature_c"] == 43.0
        assert (sample["pcie_generation"], sample["pcie_width"]) == (5, 16)


def verdict(verdicts: tuple[Any, ...], check: str) -> Any:
    found = [v for v in verdicts if v.check == check]
    assert len(found) == 1, [v.check for v in verdicts]
    return found[0]


def rejudged(run: ProbeRun, scale: dict[tuple[str, str], float] | None = None) -> tuple[Any, ...]:
    """The run's verdicts judged again from its recorded figures, with some figures scaled."""
    results = tuple(
        dataclasses.replace(r, value=r.value * (scale or {}).get((r.name, r.dtype or r.variant), 1.0))
        if r.value is not None
        else r
        for r in run.results
    )
    return judge(run.system, run.devices, run.torch, results, run.series)


def test_the_full_probe_on_an_h100_is_judged_healthy(run: ProbeRun) -> None:
    verdicts = rejudged(run)
    # The report's own verdicts; what AMP and checkpointing do is now a ratio ("x", from pairs where a report
    # has them: this one, older, has none), with the same words.
    ratios = [v for v in verdicts if v.unit == "x"]
    techniques = ("AMP", "activation checkpointing")
    assert [v.check for v in ratios] == [f"{t} on {m}" for m in ("cnn", "transformer") for t in techniques]
    assert [v.message for v in ratios] == [v.message for v in run.verdicts if v.check in {r.check for r in ratios}]
    assert all("one after the other" in v.threshold for v in ratios)
    assert [v.record() for v in verdicts if v.unit != "x"] == [
        v.record() for v in run.verdicts if v.check not in {r.check for r in ratios}
    ]
    bf16 = verdict(verdicts, "Matmul bf16")
    assert bf16.status == "pass" and bf16.expected == 794.5  # MAMF: stas00/ml-engineering, the measured maximum
    assert "identified by PCI id 10DE:2330" in bf16.source  # H100 SXM 80GB, not the PCIe card (10DE:2331)
    assert 0.9 <= bf16.ratio < 1.0
    assert verdict(verdicts, "Memory bandwidth").status == "pass"
    h2d = verdict(verdicts, "Host to device (pinned)")
    assert h2d.status == "pass" and "PCIe 5.0 x16" in h2d.message
    assert verdict(verdicts, "PCIe link").message == "PCIe 5.0 x16 of 5.0 x16 under load"
    assert not [v for v in verdicts if v.status in ("warn", "fail")]


def test_a_slow_h100_is_not_judged_healthy(run: ProbeRun) -> None:
    """The same report with bf16 matmul at 70 % and the pinned copy at 60 % of what was measured."""
    verdicts = rejudged(run, {("matmul", "bf16"): 0.7, ("h2d_bandwidth", "pinned"): 0.6})
    assert verdict(verdicts, "Matmul bf16").status == "fail"  # 511 TFLOP/s: under 0.75 x 794.5
    assert verdict(verdicts, "Host to device (pinned)").status != "pass"  # 33 GB/s on PCIe 5.0 x16
    assert verdict(verdicts, "Matmul fp16").status == "pass"
