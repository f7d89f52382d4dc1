"""Which PyTorch wheel runs a GPU, and which driver it needs: the compatibility tables plus CUDA's rules.

CUDA binary compatibility (CUDA C++ Programming Guide, "Binary Compatibility" and "PTX Compatibility";
the probe's worker applies the same rule to a live torch): SASS built for compute capability X.y runs on a
GPU of X.z with z >= y and the same major X; an architecture-specific target (sm_90a) runs only on exactly
that capability; PTX for compute_XY is compiled by the driver for any GPU of capability >= X.Y.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, get_args

from gpuconfig.core.catalog.model import Part, Source
from gpuconfig.core.guide.oses import os_info
from gpuconfig.core.guide.records import CompatTables, TorchBuild, TorchRelease, arch_key, version_key
from gpuconfig.core.guide.tables import load_tables
from gpuconfig.core.i18n import translate

Vendor = Literal["nvidia", "amd", "apple", "cpu"]
BINARY_COMPATIBILITY = Source(
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
    "CUDA C++ Programming Guide: Binary Compatibility (cubin for X.y runs on X.z, z >= y) and PTX Compatibility",
    "2026-11-22",
)


@dataclass(frozen=True)
class GpuTarget:
    """A GPU the guide sets up: NVIDIA by compute capability ("8.6"), AMD by gfx target ("gfx1100");
    "apple" means Apple silicon (MPS), "cpu" a machine without a GPU PyTorch can use."""

    name: str
    vendor: Vendor
    compute_capability: str | None = None
    gfx_target: str | None = None

    def __post_init__(self) -> None:
        if self.vendor not in get_args(Vendor):
            raise ValueError(f"GpuTarget vendor: expected one of {', '.join(get_args(Vendor))}, got {self.vendor!r}")
        cc = self.compute_capability
        if self.vendor == "nvidia" and (cc is None or not re.fullmatch(r"\d+\.\d", cc)):
            raise ValueError(f"GpuTarget compute_capability: an NVIDIA GPU needs one like '8.6', got {cc!r}")
        if self.vendor == "amd" and not (self.gfx_target and re.fullmatch(r"gfx[0-9a-f]{3,4}", self.gfx_target)):
            raise ValueError(f"GpuTarget gfx_target: an AMD GPU needs one like 'gfx1100', got {self.gfx_target!r}")

    @property
    def label(self) -> str:
        if self.vendor == "nvidia":
            return translate("Guide", "{name} (compute capability {cc})").format(
                name=self.name, cc=self.compute_capability
            )
        if self.vendor == "amd":
            return f"{self.name} ({self.gfx_target})"
        return self.name


def target_from_part(part: Part) -> GpuTarget:
    """The target of a catalog GPU row (kind gpu): its vendor and compute capability or gfx target."""
    if part.kind != "gpu":
        raise ValueError(f"{part.id}: expected a GPU part, got kind {part.kind!r}")
    vendors: dict[str, Vendor] = {"nvidia": "nvidia", "amd": "amd", "apple": "apple"}
    vendor = vendors.get(part.vendor.strip().lower())
    if vendor is None:
        raise ValueError(f"{part.id}: vendor {part.vendor!r} has no PyTorch GPU build (NVIDIA, AMD or Apple)")
    cc, gfx = part.specs.get("compute_capability"), part.specs.get("gfx_target")
    return GpuTarget(part.name, vendor, str(cc) if cc else None, str(gfx) if gfx else None)


# How a build runs a GPU: (way, code), way one of "cpu" (the CPU build), "code" (the GPU's own code: its
# gfx target, or SASS for its exact capability), "major" (SASS for an older capability of the same major
# version) and "ptx" (PTX the driver compiles); None when it cannot.
Runs = tuple[str, str] | None


def _runs(build: TorchBuild, target: GpuTarget, windows: bool, tables: CompatTables | None) -> Runs:
    if target.vendor in ("cpu", "apple"):
        return ("cpu", "") if build.platform == "cpu" else None
    if target.vendor == "amd":
        gfx = target.gfx_target
        return ("code", gfx) if gfx and build.platform == "rocm" and gfx in build.gfx else None
    if build.platform != "cuda" or target.compute_capability is None:
        return None
    arch = (tables or load_tables()).nvidia_arch(target.compute_capability)
    # The wheel's CUDA libraries (cuBLAS, cuDNN) know no GPU newer than their toolkit, PTX or not.
    if arch and arch.first_cuda and version_key(build.cuda) < version_key(arch.first_cuda):
        return None
    # RELEASE.md: the +PTX of PyTorch's wheels is in the Linux builds only.
    return _code(build.sm + (() if windows else build.ptx), target.compute_capability)


def _code(arch_list: Sequence[str], compute_capability: str) -> Runs:
    major, minor = version_key(compute_capability)[:2]
    known = [a for a in arch_list if re.fullmatch(r"(sm|compute)_\d+[af]?", a)]
    sass = [a for a in known if a.startswith("sm_") and arch_key(a)[0] == major and arch_key(a)[1] <= minor]
    exact = [a for a in sass if arch_key(a)[1] == minor]
    if exact:
        return "code", exact[0]
    portable = [a for a in sass if not arch_key(a)[2]]  # sm_90a runs on 9.0 only
    if portable:
        return "major", max(portable, key=arch_key)
    ptx = [a for a in known if a.startswith("compute_") and arch_key(a)[:2] <= (major, minor)]
    if ptx:
        return "ptx", max(ptx, key=arch_key)
    return None


def _words(runs: Runs) -> str:
    if runs is None:
        return ""
    way, code = runs
    if way == "cpu":
        return translate("Guide", "CPU build")
    if way == "major":
        return translate("Guide", "{code} code (same major version)").format(code=code)
    if way == "ptx":
        return translate("Guide", "{code} PTX, compiled for this GPU when first used").format(code=code)
    return translate("Guide", "{code} code").format(code=code)


def how_it_runs(
    build: TorchBuild, target: GpuTarget, *, windows: bool = False, tables: CompatTables | None = None
) -> str:
    """How `build` runs on `target` in words ("sm_60 code (same major version)"), or "" when it cannot."""
    return _words(_runs(build, target, windows, tables))


def code_for(arch_list: Sequence[str], compute_capability: str) -> str:
    """Which entry of an arch list (torch.cuda.get_arch_list(): sm_XY and compute_XY) a GPU of this compute
    capability runs, in words, or "" when none."""
    return _words(_code(arch_list, compute_capability))


def runs_on(build: TorchBuild, target: GpuTarget, *, windows: bool = False) -> bool:
    """Whether `build` carries code this GPU can run (see the module docstring for the rule)."""
    return _runs(build, target, windows, None) is not None


@dataclass(frozen=True)
class WheelChoice:
    """The wheel for some GPUs on one OS, and what it asks of the driver.

    min_driver: the driver of the build's CUDA toolkit (GA) on that OS, what NVIDIA asks for;
    required_driver: the oldest driver that runs it at all (CUDA minor-version compatibility, and the GPU's
    own first CUDA release); driver_ok: whether the given driver reaches required_driver (None: none given);
    dropped_in: later builds of the same kind that no longer run these GPUs; runs_gpu is False when no build
    runs them and `build` is the CPU build instead; driver_note: how the given driver changed the choice;
    through_ptx: whether the build reaches some of the GPUs only through PTX compiled when first used.
    """

    build: TorchBuild
    release: TorchRelease
    runs_gpu: bool
    how: tuple[str, ...]
    min_driver: str | None
    required_driver: str | None
    driver_ok: bool | None
    dropped_in: tuple[TorchBuild, ...]
    last_cuda: str
    reason: str
    sources: tuple[Source, ...] = ()
    driver_note: str = ""  # how the installed driver changed the choice, or why it runs none
    through_ptx: bool = False


def toolkit_driver(tables: CompatTables, cuda: str, wheel_os: str) -> str | None:
    """The GA driver of CUDA `cuda` on linux or windows; the family minimum where NVIDIA lists none."""
    toolkit, family = tables.toolkit(cuda), tables.family(cuda)
    value = (toolkit.windows if wheel_os == "windows" else toolkit.linux) if toolkit else ""
    if not value and family:
        value = family.windows if wheel_os == "windows" else family.linux
    return value or None


def required_driver(tables: CompatTables, build: TorchBuild, targets: Sequence[GpuTarget], wheel_os: str) -> str | None:
    """The oldest driver that runs `build` on these GPUs: the CUDA family minimum, raised to the driver of
    each GPU's first CUDA release (an older driver does not know the GPU at all)."""
    family = tables.family(build.cuda) if build.cuda else None
    if family is None:
        return None
    needs = [family.windows if wheel_os == "windows" else family.linux]
    for target in targets:
        arch = tables.nvidia_arch(target.compute_capability or "")
        gpu = toolkit_driver(tables, arch.first_cuda, wheel_os) if arch and arch.first_cuda else None
        if gpu:
            needs.append(gpu)
    return max(needs, key=version_key)


def _pick(builds: Sequence[TorchBuild]) -> TorchBuild:
    """Newest release; within it the PyPI default, else the newest CUDA/ROCm."""
    return max(builds, key=lambda b: (version_key(b.torch), b.pypi_default, b.order[1]))


def choose_wheel_for(targets: Sequence[GpuTarget], os_id: str, driver: str | None = None) -> WheelChoice:
    """The newest wheel that runs every target on `os_id`, honouring an installed `driver` when given."""
    tables, system = load_tables(), os_info(os_id)
    if not targets:
        raise ValueError("choose_wheel_for: no targets")
    vendors = {t.vendor for t in targets}
    wheel_os = "linux" if system.wheel_os == "macos" else system.wheel_os  # the cpu rows stand for macOS too
    builds = [b for b in tables.builds if wheel_os in b.os]
    cpu = _pick([b for b in builds if b.platform == "cpu"])
    gpu_kind = {"nvidia": "cuda", "amd": "rocm"}.get(next(iter(vendors))) if len(vendors) == 1 else None
    windows = system.wheel_os == "windows"

    branches = [a.last_driver_branch for t in targets if (a := tables.nvidia_arch(t.compute_capability or ""))]
    last_branch = min((version_key(b) for b in branches if b), default=None)

    def runs_all(build: TorchBuild) -> bool:
        # A build whose driver floor is past the GPU's last driver branch can never run on it.
        floor = required_driver(tables, build, targets, wheel_os) if build.cuda else None
        if last_branch is not None and floor and version_key(floor)[:1] > last_branch:
            return False
        return all(_runs(build, t, windows, tables) is not None for t in targets)

    if gpu_kind is None or system.wheel_os == "macos":
        why = _no_gpu_reason(vendors, system.label)
        return _choice(tables, cpu, targets, system.wheel_os, driver, False, (), "", why)
    same_kind = [b for b in builds if b.platform == gpu_kind]
    candidates = [b for b in same_kind if runs_all(b)]
    if not candidates:
        platform = {"cuda": "CUDA", "rocm": "ROCm"}[gpu_kind]
        why = translate(
            "Guide", "no PyTorch {platform} wheel for {os} carries code for {gpus}; using the CPU build"
        ).format(platform=platform, os=system.label, gpus=", ".join(t.label for t in targets))
        return _choice(tables, cpu, targets, system.wheel_os, driver, False, (), "", why)
    fit = candidates
    if driver:
        fit = [
            b
            for b in candidates
            if version_key(driver) >= version_key(required_driver(tables, b, targets, wheel_os) or "0")
        ]
    chosen, best = _pick(fit or candidates), _pick(candidates)
    dropped = tuple(
        sorted(
            (b for b in same_kind if b not in candidates and version_key(b.torch) >= version_key(chosen.torch)),
            key=lambda b: b.order,
        )
    )
    last = max((b.cuda for b in candidates if b.cuda), key=version_key, default="")
    choice = _choice(tables, chosen, targets, system.wheel_os, driver, True, dropped, last, "")
    if driver and best != chosen:
        need = required_driver(tables, best, targets, wheel_os)
        note = translate("Guide", "{build} would need driver {need} or newer; this machine has {driver}.")
        choice = replace(choice, driver_note=note.format(build=best.label, need=need, driver=driver))
    elif driver and choice.driver_ok is False:
        need = min((required_driver(tables, b, targets, wheel_os) or "0" for b in candidates), key=version_key)
        oldest = _pick([b for b in candidates if required_driver(tables, b, targets, wheel_os) == need])
        note = translate(
            "Guide",
            "Driver {driver} runs no build for this GPU: the oldest driver any of them accepts is {need} ({build}).",
        )
        choice = replace(choice, driver_note=note.format(driver=driver, need=need, build=oldest.label))
    return choice


def choose_wheel(target: GpuTarget, os_id: str, driver: str | None = None) -> WheelChoice:
    """The newest wheel whose code runs `target` on `os_id` (PyPI's default variant where there is a choice),
    or the newest whose driver needs `driver` meets when one is given."""
    return choose_wheel_for([target], os_id, driver)


def joined(items: Sequence[str], template: str) -> str:
    """`items` joined pairwise by a translated two-item template ("{a} and {b}")."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = template.format(a=text, b=item)
    return text


def _no_gpu_reason(vendors: set[Vendor], os_name: str) -> str:
    if vendors <= {"cpu"}:
        return translate("Guide", "no GPU: the CPU build")
    if vendors == {"apple"}:
        return translate("Guide", "Apple silicon: PyPI's macOS wheel, which includes the MPS backend")
    if len(vendors) > 1:
        names = joined(sorted(vendors), translate("Guide", "{a} and {b}"))
        return translate("Guide", "one PyTorch build serves one GPU vendor, not {vendors}; using the CPU build").format(
            vendors=names
        )
    return translate("Guide", "PyTorch has no {vendor} GPU wheel for {os}; using the CPU build").format(
        vendor=next(iter(vendors)).upper(), os=os_name
    )


def _choice(
    tables: CompatTables,
    build: TorchBuild,
    targets: Sequence[GpuTarget],
    wheel_os: str,
    driver: str | None,
    runs_gpu: bool,
    dropped: tuple[TorchBuild, ...],
    last_cuda: str,
    fallback: str,
) -> WheelChoice:
    runs = [_runs(build, t, wheel_os == "windows", tables) for t in targets]
    how = tuple(_words(r) for r in runs)
    floor = required_driver(tables, build, targets, wheel_os) if runs_gpu else None
    wanted = toolkit_driver(tables, build.cuda, wheel_os) if runs_gpu and build.cuda else None
    if wanted and floor and version_key(floor) > version_key(wanted):
        wanted = floor
    ok = None if not driver or floor is None else version_key(driver) >= version_key(floor)
    reason = fallback or _reason(tables, build, targets, how, dropped, last_cuda).strip()
    sources = tuple(dict.fromkeys((*build.sources, BINARY_COMPATIBILITY))) if runs_gpu else build.sources
    return WheelChoice(
        build,
        tables.release(build.torch),
        runs_gpu,
        how,
        wanted,
        floor,
        ok,
        dropped,
        last_cuda,
        reason,
        sources,
        through_ptx=any(r is not None and r[0] == "ptx" for r in runs),
    )


def _reason(
    tables: CompatTables,
    build: TorchBuild,
    targets: Sequence[GpuTarget],
    how: tuple[str, ...],
    dropped: tuple[TorchBuild, ...],
    last_cuda: str,
) -> str:
    runs = "; ".join(
        translate("Guide", "{gpu} runs its {code}").format(gpu=t.label, code=h)
        for t, h in zip(targets, how, strict=True)
    )
    text = (
        translate("Guide", "{build} is the newest build with code for these GPUs ({runs}). {dropped}")
        if len(targets) > 1
        else translate("Guide", "{build} is the newest build with code for this GPU ({runs}). {dropped}")
    )
    return text.format(build=build.label, runs=runs, dropped=dropped_note(tables, dropped, last_cuda))


def dropped_note(tables: CompatTables, dropped: Sequence[TorchBuild], last_cuda: str) -> str:
    """Which later builds lost the GPU, and the last CUDA line that still has it ("" when none lost it)."""
    sentences = []
    if dropped:
        by_release: dict[str, list[str]] = {}
        for b in dropped:
            by_release.setdefault(b.torch, []).append(b.variant)
        builds = "; ".join(f"torch {r} {', '.join(v)}" for r, v in by_release.items())
        sentences.append(translate("Guide", "No code for it in: {builds}.").format(builds=builds))
    newest_cuda = max((b.cuda for b in tables.builds if b.cuda), key=version_key, default="")
    if last_cuda and newest_cuda and version_key(last_cuda) < version_key(newest_cuda):
        sentences.append(
            translate("Guide", "The CUDA {cuda} wheels are the last PyTorch wheels with code for it.").format(
                cuda=last_cuda
            )
        )
    return " ".join(sentences)
