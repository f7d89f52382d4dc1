"""NVML's GPU i is not torch's cuda:i: the two are joined on the GPU's UUID, or said to be unknown.

NVML numbers GPUs in PCI bus order; torch numbers them as CUDA_DEVICE_ORDER (fastest first by default) and
CUDA_VISIBLE_DEVICES say. The NVML side is the probe's own parsing of NVML-shaped answers
(tests/probe/data/nvml_variants.json); the torch side is the worker's "torch" event as it reports devices.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gpuconfig.probe import nvml
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.torch_devices import normal_uuid
from tests.probe.reports import judge_json, link_json

DATA = Path(__file__).parent / "data"
VARIANTS: dict[str, Any] = json.loads((DATA / "nvml_variants.json").read_text(encoding="utf-8"))["gpus"]
# Two UUIDs of one machine as nvidia-smi -L printed them (akash-network/provider-configs#12).
FIRST, SECOND = "c7b57be0-94ff-d352-a59b-d0ee00aeed43", "d6de6afc-bdfe-75c4-5273-0544439153fc"


def nvml_gpus() -> list[dict[str, Any]]:
    """NVML's order: the L40S on bus 01 is GPU 0 (with ECC on, no error), the RTX 4090 on bus 4E is GPU 1."""
    ecc = {"nvmlDeviceGetTotalEccErrors(NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC)": 0}
    l40s = {**nvml.facts_from_raw({**VARIANTS["l40s_ecc"]["facts"], **ecc}).record(), "uuid": f"GPU-{FIRST}"}
    rtx = {**nvml.facts_from_raw(VARIANTS["rtx_4090"]["facts"]).record(), "uuid": f"GPU-{SECOND}"}
    assert l40s["pci_bus_id"] < rtx["pci_bus_id"]
    return [l40s, rtx]


def torch_seeing(*uuids: str | None) -> dict[str, Any]:
    """The worker's torch facts for CUDA devices in torch's order (uuid None: a torch before 2.0)."""
    devices = [{"index": i, "capability": "8.9", "uuid": u} for i, u in enumerate(uuids)]
    return {"version": "2.13.0", "cuda": "12.8", "arch_list": ["sm_89"], "devices": devices}


def matmul(verdicts: tuple[Verdict, ...], subject: str) -> Verdict:
    return next(v for v in verdicts if v.check == "Matmul fp32" and v.subject == subject)


def test_uuids_are_compared_in_one_form() -> None:
    assert normal_uuid(f"GPU-{FIRST}") == normal_uuid(FIRST.upper()) == FIRST
    assert normal_uuid("MIG-0e0fd4c8-aeb0-55de-ba4e-9e0d5a0d0c2b") is None  # an instance, not its GPU
    assert normal_uuid(None) is None and normal_uuid({"unavailable": "x"}) is None


def test_each_gpu_is_judged_with_the_figures_of_the_torch_device_it_is() -> None:
    # Fastest first, torch put the RTX 4090 (NVML's GPU 1) at cuda:0 and the L40S at cuda:1.
    torch = torch_seeing(SECOND, FIRST)
    assert [d["torch_device"] for d in link_json(nvml_gpus(), torch)] == ["cuda:1", "cuda:0"]
    results = [
        BenchmarkResult("matmul", "fp32", "cuda:0", 50.0, "TFLOP/s"),  # the 4090's figure
        BenchmarkResult("matmul", "fp32", "cuda:1", 46.0, "TFLOP/s"),  # the L40S's
    ]
    verdicts = judge_json({}, nvml_gpus(), torch, results)
    rtx, l40s = matmul(verdicts, "cuda:0"), matmul(verdicts, "cuda:1")
    assert (rtx.expected, rtx.status) == (46.5, "pass") and "GeForce RTX 4090" in rtx.source
    assert (l40s.expected, l40s.status) == (46.9, "pass") and "L40S" in l40s.source


def test_a_gpu_hidden_from_torch_is_named_as_nvidia_smi_numbers_it() -> None:
    # CUDA_VISIBLE_DEVICES=1 (PCI order): torch sees only the RTX 4090, as cuda:0.
    torch = torch_seeing(SECOND)
    linked = link_json(nvml_gpus(), torch)
    assert "torch does not see this GPU" in linked[0]["torch_device"]["unavailable"]
    assert linked[1]["torch_device"] == "cuda:0"
    verdicts = judge_json({}, nvml_gpus(), torch, [BenchmarkResult("matmul", "fp32", "cuda:0", 50.0, "TFLOP/s")])
    assert matmul(verdicts, "cuda:0").expected == 46.5
    assert next(v for v in verdicts if v.check == "Uncorrectable ECC errors").subject == "GPU 0"


def test_without_uuids_the_link_is_unknown_not_guessed_from_the_index() -> None:
    torch = torch_seeing(None, None)
    linked = link_json(nvml_gpus(), torch)
    assert all("cannot be told" in d["torch_device"]["unavailable"] for d in linked)
    verdicts = judge_json({}, nvml_gpus(), torch, [BenchmarkResult("matmul", "fp32", "cuda:0", 50.0, "TFLOP/s")])
    figure = matmul(verdicts, "cuda:0")
    assert figure.status == "info" and figure.expected is None
    assert "which NVIDIA GPU this is is unknown" in figure.threshold and "torch older than 2.0" in figure.threshold
    # One GPU that NVML and torch both see is the same GPU, UUID or not.
    alone = link_json(nvml_gpus()[1:], torch_seeing(None))
    assert alone[0]["torch_device"] == "cuda:0"


def test_a_cpu_only_torch_sees_no_nvidia_gpu() -> None:
    linked = link_json(nvml_gpus(), {"version": "2.13.0", "cuda": None, "devices": []})
    assert [d["torch_device"] for d in linked] == [{"unavailable": "torch sees no CUDA device"}] * 2
    failed = link_json(nvml_gpus(), {"unavailable": "No module named 'torch'"})
    assert "torch did not run: No module named 'torch'" in failed[0]["torch_device"]["unavailable"]
