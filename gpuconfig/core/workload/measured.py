"""A machine's own rates, read from its probe report (`gpuconfig probe --json`), in place of datasheet figures.

The time model prices FLOPs at a dense rate and the other operators' bytes at a memory bandwidth. From the
catalog those are datasheet peaks, scaled by efficiencies fitted on other machines' published results. A probe
report holds what this machine reached: each matmul dtype's TFLOP/s (large square products, the median of its
samples) and the device's memory bandwidth (a large copy). With them the estimate prices the step at the rates
measured here, scaled only by the share of them a real eager step reaches (answer.measured_share), and says so:
the machine's own speed (a throttled card, a busy or slow host CPU, a VM's share of one) replaces the datasheet's.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpuconfig.core.i18n import translate
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.spec import WorkloadError

# The probe's matmul dtypes and the GpuSpec rate each stands for.
RATE_FIELDS = {
    "fp32": "fp32_tflops",
    "tf32": "tf32_tflops",
    "fp16": "fp16_tflops",
    "bf16": "bf16_tflops",
    "fp8": "fp8_tflops",
}


def read_report(path: Path) -> dict[str, Any]:
    """A probe report written by `gpuconfig probe --json`; WorkloadError, in one line, for anything else."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise WorkloadError(f"probe report {path}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise WorkloadError(f"probe report {path}: not a JSON probe report ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise WorkloadError(
            f"probe report {path}: not a probe report (no benchmarks); write one with gpuconfig probe --json"
        )
    return data


def _figure(result: Any, device: str) -> float | None:
    """A benchmark result's value when it measured `device` and succeeded: a finite positive number."""
    if not isinstance(result, dict) or result.get("device") != device or result.get("status") != "ok":
        return None
    if result.get("variant"):
        return None
    value = result.get("value")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        return None
    return number if math.isfinite(number) and number > 0 else None


def _device_of(report: dict[str, Any], device: str) -> str:
    """The report's name for the device the workload runs on: "cpu", or the first CUDA device it measured."""
    if device == "cpu":
        return "cpu"
    measured = [r.get("device") for r in list(report.get("benchmarks") or []) if isinstance(r, dict)]
    for name in measured:
        if isinstance(name, str) and name.startswith("cuda"):
            return name
    raise WorkloadError(
        "the probe report measured no CUDA GPU: probe the machine with its GPU, or estimate --device cpu"
    )


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _gpu_entry(report: dict[str, Any], device: str) -> dict[str, Any]:
    """The report's facts of the CUDA device `device` ("cuda:N"), or nothing."""
    index = device.split(":")[1] if ":" in device else "0"
    devices = report.get("devices")
    if not isinstance(devices, list):
        return {}
    return next((d for d in devices if isinstance(d, dict) and str(d.get("index")) == index), {})


def _name(report: dict[str, Any], device: str) -> str:
    if device == "cpu":
        cpu = _dict(_dict(report.get("system")).get("cpu"))
        model = cpu.get("model") if isinstance(cpu.get("model"), str) else "CPU"
        cores = cpu.get("logical_cores")
        if isinstance(cores, int):
            return translate("Workload", "{model} ({cores} logical cores)").format(model=model, cores=cores)
        return str(model)
    return str(_gpu_entry(report, device).get("name") or device)


def _memory_bytes(report: dict[str, Any], device: str, base: GpuSpec | None) -> int:
    if device == "cpu":
        total = _dict(_dict(report.get("system")).get("memory")).get("total_bytes")
    else:
        total = _gpu_entry(report, device).get("memory_total_bytes")
    if isinstance(total, int) and not isinstance(total, bool) and total > 0:
        return total
    return base.memory_bytes if base is not None else 0


def _measured_by(device: str, when: str, path: str) -> str:
    """Where the rates come from, as the answer's sources say it: the device, when, and the report's file."""
    if when and path:
        text = translate("Workload", "measured by gpuconfig probe on {device} at {when} ({path})")
    elif when:
        text = translate("Workload", "measured by gpuconfig probe on {device} at {when}")
    elif path:
        text = translate("Workload", "measured by gpuconfig probe on {device} ({path})")
    else:
        text = translate("Workload", "measured by gpuconfig probe on {device}")
    return text.format(device=device, when=when, path=path)


def measured_spec(report: dict[str, Any], device: str, base: GpuSpec | None = None, path: str = "") -> GpuSpec:
    """The device (`device`: "cpu" or "cuda") as its probe report measured it: its matmul rates and memory
    bandwidth, everything else from `base` (the catalog's part, for a GPU) where the report does not say it.
    WorkloadError when the report has no matmul rate or no bandwidth for it."""
    name = _device_of(report, device)
    rates: dict[str, float] = {}
    bandwidth = 0.0
    for result in list(report.get("benchmarks") or []):
        value = _figure(result, name)
        if value is None:
            continue
        dtype = result.get("dtype")
        if result.get("name") == "matmul" and isinstance(dtype, str) and dtype in RATE_FIELDS:
            rates[RATE_FIELDS[dtype]] = value
        elif result.get("name") == "memory_bandwidth":
            bandwidth = value
    if not rates:
        raise WorkloadError(f"the probe report has no matmul rate measured on {name}: run gpuconfig probe on it")
    if not bandwidth:
        raise WorkloadError(f"the probe report has no memory bandwidth measured on {name}: run gpuconfig probe on it")
    when = str(report.get("started_at") or "")[:16].replace("T", " ")
    label = _name(report, name)
    measured = _measured_by(label, when, path)
    cleared = dict.fromkeys(RATE_FIELDS.values())  # a dtype the probe did not measure is not priced from the datasheet
    fields: dict[str, Any] = {**cleared, **rates, "bandwidth_gbs": bandwidth, "measured": measured}
    fields["best_half_tflops"] = None  # this machine's own matmuls replace any published card's
    if base is not None:
        return replace(base, **fields, memory_bytes=_memory_bytes(report, name, base))
    capability = str(_gpu_entry(report, name).get("compute_capability") or "") if name != "cpu" else ""
    major, _, minor = capability.partition(".")
    return GpuSpec(
        id=f"measured:{name}",
        name=label,
        memory_bytes=_memory_bytes(report, name, None),
        cc_major=int(major) if major.isdigit() else None,
        cc_minor=int(minor) if minor.isdigit() else None,
        **fields,
    )
