"""The compatibility tables (catalog/compat/*.toml) as frozen records, and the lookups the guide needs."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.catalog.model import Source

# An NVIDIA driver version as nvidia-smi prints it: 560.35.03, 536.23.
DRIVER_PATTERN = re.compile(r"\d+(\.\d+){0,3}")


def gpu_label(device: Mapping[str, Any], index: int) -> str:
    """A probe report's name for NVML's GPU `index`: the torch device it is ("cuda:1", joined by UUID when the
    probe ran), else 'GPU i' as nvidia-smi numbers it."""
    linked = device.get("torch_device")
    return linked if isinstance(linked, str) else f"GPU {index}"


def version_key(text: str) -> tuple[int, ...]:
    """'2.10' -> (2, 10), '570.124.06' -> (570, 124, 6): versions compare as numbers, never as text."""
    return tuple(int(part) for part in re.findall(r"\d+", text))


def arch_key(arch: str) -> tuple[int, int, str]:
    """'sm_120' -> (12, 0, ''), 'sm_90a' -> (9, 0, 'a'), 'compute_120' -> (12, 0, '')."""
    match = re.fullmatch(r"(?:sm|compute)_(\d+)(\d)([af]?)", arch)
    if not match:
        raise ValueError(f"{arch!r} is not an architecture like sm_86 or compute_120")
    return int(match.group(1)), int(match.group(2)), match.group(3)


def gfx_key(gfx: str) -> tuple[int, str]:
    """Orders gfx900 < gfx90a < gfx942 < gfx1030 < gfx1100: by length, then by its hex digits."""
    return len(gfx), gfx


@dataclass(frozen=True)
class TorchRelease:
    """A PyTorch release and the companion packages to install with it ("" where none exists)."""

    torch: str
    torchvision: str
    torchaudio: str
    sources: tuple[Source, ...]
    note: str = ""


@dataclass(frozen=True)
class TorchBuild:
    """One wheel variant of one release: what it was built with and which GPUs it carries code for."""

    torch: str
    variant: str
    cuda: str
    rocm: str
    sm: tuple[str, ...]
    ptx: tuple[str, ...]
    gfx: tuple[str, ...]
    python_min: str
    python_max: str
    pypi_default: bool
    index: str
    os: tuple[str, ...]
    sources: tuple[Source, ...]
    note: str = ""
    line: int = 0

    @property
    def platform(self) -> str:
        return "cuda" if self.cuda else "rocm" if self.rocm else "cpu"

    @property
    def label(self) -> str:
        return f"torch {self.torch} {self.variant}"

    @property
    def order(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Newer release first, then newer CUDA/ROCm: what `max` picks among candidates."""
        return version_key(self.torch), version_key(self.cuda or self.rocm)

    @property
    def arch_list(self) -> tuple[str, ...]:
        """What torch.cuda.get_arch_list() prints for this build (SASS, then PTX; or the gfx targets)."""
        return self.sm + self.ptx if self.platform == "cuda" else self.gfx


@dataclass(frozen=True)
class DriverFamily:
    """The oldest driver that runs any CUDA X.y application (CUDA minor-version compatibility)."""

    major: int
    linux: str
    windows: str
    upper: str
    sources: tuple[Source, ...]
    note: str = ""


@dataclass(frozen=True)
class DriverMinimum:
    """The driver a CUDA toolkit release (GA) ships with and asks for; windows is "" where NVIDIA lists none."""

    cuda: str
    linux: str
    windows: str
    sources: tuple[Source, ...]
    note: str = ""


@dataclass(frozen=True)
class NvidiaArch:
    compute_capability: str
    architecture: str
    examples: tuple[str, ...]
    first_cuda: str
    last_driver_branch: str
    open_kernel_modules: bool
    sources: tuple[Source, ...]
    note: str = ""


@dataclass(frozen=True)
class AmdTarget:
    gfx: str
    architecture: str
    examples: tuple[str, ...]
    sources: tuple[Source, ...]
    note: str = ""


@dataclass(frozen=True)
class CompatTables:
    """All three tables, loaded and cross-checked."""

    releases: tuple[TorchRelease, ...]
    builds: tuple[TorchBuild, ...]
    families: tuple[DriverFamily, ...]
    toolkits: tuple[DriverMinimum, ...]
    nvidia: tuple[NvidiaArch, ...]
    amd: tuple[AmdTarget, ...]

    def release(self, torch: str) -> TorchRelease:
        return next(r for r in self.releases if r.torch == torch)

    def newest_release(self) -> str:
        return max((r.torch for r in self.releases), key=version_key)

    def toolkit(self, cuda: str) -> DriverMinimum | None:
        return next((t for t in self.toolkits if t.cuda == cuda), None)

    def family(self, cuda: str) -> DriverFamily | None:
        major = version_key(cuda)[0] if cuda else -1
        return next((f for f in self.families if f.major == major), None)

    def nvidia_arch(self, compute_capability: str) -> NvidiaArch | None:
        return next((a for a in self.nvidia if a.compute_capability == compute_capability), None)

    def amd_target(self, gfx: str) -> AmdTarget | None:
        return next((a for a in self.amd if a.gfx == gfx), None)
