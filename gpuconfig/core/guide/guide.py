"""A setup guide for planned GPUs on one OS: driver, PyTorch install, checks, settings, findings, fixes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpuconfig.core.catalog.model import Part, Source
from gpuconfig.core.guide.choose import GpuTarget, WheelChoice, choose_wheel_for, dropped_note, target_from_part
from gpuconfig.core.guide.mirrors import SOURCES as MIRROR_SOURCES
from gpuconfig.core.guide.mirrors import mirror_step
from gpuconfig.core.guide.oses import OSES, OsInfo, os_info
from gpuconfig.core.guide.records import DRIVER_PATTERN, version_key
from gpuconfig.core.guide.settings import EnvVar, env_step, env_vars, troubleshooting
from gpuconfig.core.guide.steps import Step, driver_step, environment_step, install_steps, packages, verify_step
from gpuconfig.core.guide.tables import load_tables
from gpuconfig.core.i18n import translate

__all__ = ["OSES", "EnvVar", "Finding", "Guide", "Step", "guide_for_gpus", "guide_for_part"]
SEVERITIES = ("fail", "warn", "info")


@dataclass(frozen=True)
class Finding:
    """Something the reader must know before or after following the steps, and what to do about it."""

    severity: str  # fail, warn or info
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Guide:
    title: str
    os: OsInfo
    targets: tuple[tuple[GpuTarget, int], ...]
    steps: tuple[Step, ...]
    findings: tuple[Finding, ...]
    env_vars: tuple[EnvVar, ...]
    troubleshooting: tuple[Step, ...]
    choice: WheelChoice
    sources: tuple[Source, ...]

    @property
    def install_command(self) -> str:
        """The pip command of the install step (what a reader copies first)."""
        return next(text for step in self.steps if step.key == "pip" for _, text in step.commands)


def guide_for_gpus(
    targets: Sequence[tuple[GpuTarget, int]],
    os_id: str,
    *,
    p2p: bool | None = None,
    driver: str | None = None,
    extra: Sequence[Finding] = (),
    china_mirrors: bool = False,
) -> Guide:
    """The guide for `count` of each target on `os_id`; `p2p` says whether the cards talk peer to peer
    (None: unknown); `driver` is an installed NVIDIA driver the guide must honour; `extra` findings go first;
    `china_mirrors` adds the install through mainland China's mirrors (core/guide/mirrors.py)."""
    system = os_info(os_id)
    if not targets:
        raise ValueError("guide_for_gpus: no targets (use GpuTarget('CPU only', 'cpu') for a machine without a GPU)")
    bad = [count for _, count in targets if not isinstance(count, int) or count < 1]
    if bad:
        raise ValueError(f"guide_for_gpus: a GPU count must be a whole number of at least 1, got {bad[0]!r}")
    if driver is not None and not DRIVER_PATTERN.fullmatch(driver):
        raise ValueError(f"driver: {driver!r} is not a version like 560.35.03")
    gpus = [t for t, _ in targets]
    count = sum(c for t, c in targets if t.vendor in ("nvidia", "amd"))
    choice = choose_wheel_for(gpus, os_id, driver)
    variables = env_vars(choice, count, p2p)
    pip, uv, conda = install_steps(system, choice)
    steps = [driver_step(system, choice, gpus), environment_step(system, choice), pip, uv, conda]
    steps += [mirror_step(system, choice)] if china_mirrors else []
    steps += [verify_step(system, choice, gpus), env_step(system, variables)]
    findings = [*extra, *_findings(system, choice, gpus, count, p2p, driver)]
    findings.sort(key=lambda f: SEVERITIES.index(f.severity))
    names = " + ".join(f"{n} x {t.name}" if n > 1 else t.name for t, n in targets)
    return Guide(
        title=translate("Guide", "Set up {gpus} for PyTorch on {os}").format(gpus=names, os=system.label),
        os=system,
        targets=tuple(targets),
        steps=tuple(s for s in steps if s is not None),
        findings=tuple(findings),
        env_vars=variables,
        troubleshooting=troubleshooting(system, choice, gpus, count, p2p),
        choice=choice,
        sources=_sources(choice, gpus) + (MIRROR_SOURCES if china_mirrors else ()),
    )


def guide_for_part(part: Part, count: int, os_id: str, china_mirrors: bool = False) -> Guide:
    """The guide for `count` of one catalog GPU; the part's p2p field decides the multi-GPU settings."""
    p2p = part.specs.get("p2p")
    return guide_for_gpus(
        [(target_from_part(part), count)],
        os_id,
        p2p=p2p if isinstance(p2p, bool) else None,
        china_mirrors=china_mirrors,
    )


def _findings(
    system: OsInfo, choice: WheelChoice, gpus: list[GpuTarget], count: int, p2p: bool | None, driver: str | None
) -> list[Finding]:
    build, found = choice.build, []
    gpu_vendors = {t.vendor for t in gpus} & {"nvidia", "amd"}
    if not choice.runs_gpu and gpu_vendors:
        fix = translate("Guide", "run on Linux (or WSL2 for NVIDIA), or build PyTorch from source for this GPU")
        if any(t.vendor == "amd" for t in gpus) and system.wheel_os == "windows":
            fix = translate(
                "Guide",
                "use Linux for ROCm, or AMD's own PyTorch wheels for Windows "
                "(see AMD's ROCm for Windows documentation)",
            )
        reason = f"{choice.reason[0].upper()}{choice.reason[1:]}"
        found.append(Finding("fail", translate("Guide", "{reason}.").format(reason=reason), fix))
    if choice.driver_ok is False:
        found.append(
            Finding(
                "fail",
                translate(
                    "Guide",
                    "Driver {driver} is older than {required}, the oldest driver that runs {build} "
                    "(CUDA {cuda}) on {gpus}. {note}",
                )
                .format(
                    driver=driver,
                    required=choice.required_driver,
                    build=build.label,
                    cuda=build.cuda,
                    gpus=", ".join(t.name for t in gpus),
                    note=choice.driver_note,
                )
                .strip(),
                translate(
                    "Guide", "update the NVIDIA driver to {driver} or newer (step 'Install the NVIDIA driver')"
                ).format(driver=choice.min_driver),
            )
        )
    elif driver and choice.min_driver and version_key(driver) < version_key(choice.min_driver):
        found.append(
            Finding(
                "warn",
                translate(
                    "Guide",
                    "Driver {driver} runs {build} only through CUDA minor-version compatibility: NVIDIA lists "
                    "{wanted} for CUDA {cuda}. Features that need the newer driver (PTX compiled at run "
                    "time among them) fail.",
                ).format(driver=driver, build=build.label, wanted=choice.min_driver, cuda=build.cuda),
                translate("Guide", "update the driver to {driver} or newer").format(driver=choice.min_driver),
            )
        )
    elif driver and choice.runs_gpu and choice.driver_note:
        found.append(
            Finding("info", choice.driver_note, translate("Guide", "a newer driver lets you install the newer build"))
        )
    if choice.runs_gpu and choice.dropped_in:
        lost = dropped_note(load_tables(), choice.dropped_in, choice.last_cuda)
        found.append(
            Finding(
                "warn",
                translate("Guide", "Newer PyTorch builds dropped this GPU. {lost}").format(lost=lost),
                translate(
                    "Guide",
                    "keep the pinned install command ({packages} from {index}); a plain "
                    "`pip install -U torch` moves to a build without code for this GPU",
                ).format(packages=packages(choice), index=build.index),
            )
        )
    if count >= 2 and build.platform == "cuda" and choice.runs_gpu:
        if p2p is False:
            found.append(
                Finding(
                    "warn",
                    translate(
                        "Guide",
                        "These {count} GPUs have no peer-to-peer path; NCCL may hang or corrupt results without "
                        "being told.",
                    ).format(count=count),
                    translate(
                        "Guide", "export NCCL_P2P_DISABLE=1 for every rank (set in 'Set the environment variables')"
                    ),
                )
            )
        elif p2p is None:
            found.append(
                Finding(
                    "info",
                    translate("Guide", "Peer-to-peer support between these {count} GPUs is not known.").format(
                        count=count
                    ),
                    translate("Guide", "run nvidia-smi topo -p2p r"),
                )
            )
    found += _amd_findings(choice, gpus)
    if any(t.vendor == "apple" for t in gpus):
        found.append(
            Finding(
                "info",
                translate(
                    "Guide",
                    "MPS needs Apple silicon and a recent macOS (PyTorch RELEASE.md, operating systems table); "
                    "an operation MPS lacks raises an error unless PYTORCH_ENABLE_MPS_FALLBACK=1 sends it to the CPU.",
                ),
            )
        )
    if len(gpu_vendors) > 1:
        found.append(
            Finding(
                "warn",
                translate("Guide", "NVIDIA and AMD GPUs in one machine: one PyTorch build serves one vendor."),
                translate("Guide", "set up one vendor's GPUs per Python environment"),
            )
        )
    if build.note:
        # the note itself is the compatibility table's (catalog data, in English)
        found.append(
            Finding("info", translate("Guide", "About {build}: {note}").format(build=build.label, note=build.note))
        )
    return found


def _amd_findings(choice: WheelChoice, gpus: list[GpuTarget]) -> list[Finding]:
    tables, found = load_tables(), []
    for gfx in (t.gfx_target for t in gpus if t.vendor == "amd" and t.gfx_target):
        if tables.amd_target(gfx) is None:
            found.append(
                Finding(
                    "warn",
                    translate(
                        "Guide", "{gfx} is not in gpu_architectures.toml: AMD's support for it is not known here."
                    ).format(gfx=gfx),
                )
            )
        if not choice.runs_gpu and gfx.startswith(("gfx103", "gfx110")):
            override = "10.3.0" if gfx.startswith("gfx103") else "11.0.0"
            found.append(
                Finding(
                    "info",
                    translate(
                        "Guide",
                        "{gfx} is not in PyTorch's ROCm wheels; HSA_OVERRIDE_GFX_VERSION={override} "
                        "makes it run the code of its family's supported chip, unsupported by AMD.",
                    ).format(gfx=gfx, override=override),
                    translate(
                        "Guide",
                        "export HSA_OVERRIDE_GFX_VERSION={override} before starting Python, and install the newest "
                        "ROCm wheel",
                    ).format(override=override),
                )
            )
    return found


def _sources(choice: WheelChoice, gpus: list[GpuTarget]) -> tuple[Source, ...]:
    tables = load_tables()
    found: list[Source] = list(choice.sources)
    if choice.build.cuda:
        toolkit, family = tables.toolkit(choice.build.cuda), tables.family(choice.build.cuda)
        found += [*(toolkit.sources if toolkit else ()), *(family.sources if family else ())]
    found += tables.release(choice.build.torch).sources
    for target in gpus:
        arch = tables.nvidia_arch(target.compute_capability or "") or tables.amd_target(target.gfx_target or "")
        found += arch.sources if arch else ()
    return tuple(dict.fromkeys(found))
