"""What torch is and sees: its build, its devices, whether each GPU's architecture is compiled in, and the
devices a run measures."""

from __future__ import annotations

import sys
from typing import Any

import torch


def torch_facts(device: torch.device) -> dict[str, Any]:
    """The torch build, its devices, and whether each GPU's architecture is compiled in."""
    devices = []
    in_build: dict[str, bool] = {}
    how: dict[str, str] = {}
    arch_list = list(torch.cuda.get_arch_list()) if torch.cuda.is_available() else []
    for index in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
        props = torch.cuda.get_device_properties(index)
        devices.append(
            {
                "index": index,
                "name": props.name,
                "capability": f"{props.major}.{props.minor}",
                "memory_bytes": int(props.total_memory),
                "multiprocessors": int(props.multi_processor_count),
                # The join with NVML's GPU (whose numbering differs); torch < 2.0 has no uuid.
                "uuid": str(props.uuid) if getattr(props, "uuid", None) is not None else None,
            }
        )
        arch = str(getattr(props, "gcnArchName", "")) if torch.version.hip else ""
        in_build[str(index)], how[str(index)] = _arch_in_build(props.major, props.minor, arch, arch_list)
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None  # type: ignore[no-untyped-call]
    return {
        "event": "torch",
        "version": torch.__version__,
        "python": sys.executable,
        "cuda": torch.version.cuda,
        "hip": torch.version.hip,
        "cudnn": cudnn,
        "cuda_available": torch.cuda.is_available(),
        "arch_list": arch_list,
        "devices": devices,
        "arch_in_build": in_build,
        "arch_match": how,
        "mkldnn": torch.backends.mkldnn.is_available(),  # type: ignore[no-untyped-call]
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "device": str(device),
    }


def _arch_in_build(major: int, minor: int, gcn: str, arch_list: list[str]) -> tuple[bool, str]:
    """CUDA runs sm_XY code on the same major version at an equal or higher minor, and JIT-compiles PTX
    (compute_XY) for any newer GPU (CUDA C Programming Guide, "Binary Compatibility")."""
    if gcn:
        base = gcn.split(":")[0]
        return base in arch_list, base if base in arch_list else f"{base} not in the build"
    exact = f"sm_{major}{minor}"
    if exact in arch_list:
        return True, exact
    for arch in arch_list:
        if arch.startswith("sm_") and arch[3:].isdigit():
            m, n = int(arch[3:-1]), int(arch[-1])
            if m == major and n <= minor:
                return True, f"{arch} (same major version)"
    for arch in arch_list:
        if arch.startswith("compute_") and arch[8:].isdigit() and (int(arch[8:-1]), int(arch[-1])) <= (major, minor):
            return True, f"{arch} PTX, compiled for this GPU at first use"
    return False, f"{exact} not in the build"


def choose_device(asked: str | None) -> torch.device:
    if asked:
        return torch.device(asked)
    return torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")


def device_problem(device: torch.device) -> str:
    """Why the benchmarks cannot run on the device asked for, or "" when they can."""
    if device.type == "cpu":
        return ""
    if device.type != "cuda":
        return f"{device}: the probe runs on cpu or cuda devices"
    if not torch.cuda.is_available():
        build = f"built for CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
        return f"{device}: torch sees no CUDA device (torch {torch.__version__}, {build})"
    if (device.index or 0) >= torch.cuda.device_count():
        return f"{device}: torch sees only {torch.cuda.device_count()} CUDA device(s)"
    return ""


def devices_to_measure(asked: str | None) -> list[torch.device]:
    """The device asked for; otherwise every CUDA device torch sees, or the CPU."""
    if asked or not torch.cuda.is_available() or torch.cuda.device_count() < 2:
        return [choose_device(asked)]
    return [torch.device("cuda", index) for index in range(torch.cuda.device_count())]
