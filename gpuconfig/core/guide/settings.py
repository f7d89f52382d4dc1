"""Environment variables and troubleshooting for a setup guide, made specific to the chosen build and GPUs."""

from __future__ import annotations

from dataclasses import dataclass

from gpuconfig.core.guide.choose import GpuTarget, WheelChoice
from gpuconfig.core.guide.oses import OsInfo
from gpuconfig.core.guide.records import version_key
from gpuconfig.core.guide.steps import Command, Step
from gpuconfig.core.i18n import translate


@dataclass(frozen=True)
class EnvVar:
    name: str
    value: str
    why: str


def env_command(var: EnvVar, shell: str) -> str:
    return f'$env:{var.name} = "{var.value}"' if shell == "powershell" else f"export {var.name}={var.value}"


def env_vars(choice: WheelChoice, gpus: int, p2p: bool | None) -> tuple[EnvVar, ...]:
    platform = choice.build.platform if choice.runs_gpu else "cpu"
    ids = ",".join(str(i) for i in range(max(gpus, 1)))
    if platform == "cuda":
        found = [
            EnvVar(
                "CUDA_DEVICE_ORDER",
                "PCI_BUS_ID",
                translate(
                    "Guide", "number GPUs by PCI bus, as nvidia-smi does (CUDA's default puts the fastest first)"
                ),
            ),
            EnvVar(
                "CUDA_VISIBLE_DEVICES", ids, translate("Guide", "which GPUs a process may use; give each job its own")
            ),
            EnvVar(
                "PYTORCH_CUDA_ALLOC_CONF",
                "expandable_segments:True",
                translate(
                    "Guide",
                    "lets the caching allocator grow segments instead of fragmenting: fewer out-of-memory errors "
                    "with free memory left",
                ),
            ),
        ]
        if gpus >= 2 and p2p is False:
            found.append(
                EnvVar(
                    "NCCL_P2P_DISABLE",
                    "1",
                    translate(
                        "Guide",
                        "these cards have no peer-to-peer path; without it NCCL can hang or return wrong results",
                    ),
                )
            )
        return tuple(found)
    if platform == "rocm":
        return (
            EnvVar("HIP_VISIBLE_DEVICES", ids, translate("Guide", "which AMD GPUs a process may use")),
            EnvVar(
                "PYTORCH_HIP_ALLOC_CONF",
                "expandable_segments:True",
                translate(
                    "Guide", "ROCm builds read the allocator settings from this name (PyTorch HIP semantics notes)"
                ),
            ),
        )
    return ()


def env_step(system: OsInfo, variables: tuple[EnvVar, ...]) -> Step | None:
    if not variables:
        return None
    shell = system.shell
    commands = tuple((shell, env_command(v, shell)) for v in variables)
    keep = (
        translate("Guide", "{variables}. To keep them, add these lines to ~/.bashrc.")
        if shell == "bash"
        else translate("Guide", "{variables}. To keep them, use setx NAME value, or the System Properties dialog.")
    )
    why = keep.format(variables="; ".join(f"{v.name}: {v.why}" for v in variables))
    return Step(translate("Guide", "Set the environment variables"), why, commands, "")


def troubleshooting(
    system: OsInfo, choice: WheelChoice, targets: list[GpuTarget], gpus: int, p2p: bool | None
) -> tuple[Step, ...]:
    shell, build = system.shell, choice.build
    cuda = choice.runs_gpu and build.platform == "cuda"
    rocm = choice.runs_gpu and build.platform == "rocm"
    steps = [_out_of_memory(shell, targets, cuda, rocm)]
    if gpus >= 2:
        steps.append(_multi_gpu(system, p2p, cuda))
    steps.append(_slow(shell, choice, targets, cuda))
    if cuda:
        arch = " ".join(build.arch_list)
        steps.append(
            Step(
                translate(
                    "Guide", '"no kernel image is available for execution on the device" or "sm_XY is not compatible"'
                ),
                translate(
                    "Guide",
                    "The installed torch has no code for the GPU. {build} carries {arch}; a different torch in the "
                    "environment (pip resolved another index, or a dependency pulled one in) is the usual cause.",
                ).format(build=build.label, arch=arch),
                ((shell, 'python -c "import torch; print(torch.__version__, torch.cuda.get_arch_list())"'),),
                translate("Guide", "{torch}.x+{variant} and {arch}").format(
                    torch=build.torch, variant=build.variant, arch=arch
                ),
            )
        )
        steps.append(
            Step(
                # the error's own words, as CUDA prints them
                '"CUDA driver version is insufficient for CUDA runtime version"',
                translate(
                    "Guide",
                    "{build} needs driver {required} or newer to run at all and {wanted} "
                    "for every feature; update the driver, or install a build for an older CUDA.",
                ).format(build=build.label, required=choice.required_driver, wanted=choice.min_driver),
                ((shell, "nvidia-smi --query-gpu=driver_version --format=csv,noheader"),),
                translate("Guide", "{driver} or newer").format(driver=choice.min_driver),
            )
        )
    return tuple(steps)


def _out_of_memory(shell: str, targets: list[GpuTarget], cuda: bool, rocm: bool) -> Step:
    commands: list[Command] = []
    if cuda:
        commands += [(shell, "nvidia-smi --query-compute-apps=pid,used_memory --format=csv")]
    if cuda or rocm:
        commands += [(shell, 'python -c "import torch; free, total = torch.cuda.mem_get_info(); print(free, total)"')]
    lowest = min((version_key(t.compute_capability) for t in targets if t.compute_capability), default=None)
    if lowest is not None and lowest >= (8, 0):
        precision = translate(
            "Guide",
            "Train in bfloat16 with torch.autocast(device_type='cuda', dtype=torch.bfloat16): half the "
            "activation memory.",
        )
    elif lowest is not None and lowest >= (7, 0):
        precision = translate(
            "Guide", "This GPU has no bfloat16 tensor cores: use torch.autocast with float16 and torch.amp.GradScaler."
        )
    elif lowest is not None:
        precision = translate("Guide", "This GPU has no tensor cores: float16 saves memory but is not faster here.")
    else:
        precision = translate("Guide", "Lower precision (bfloat16 where supported) halves activation memory.")
    setting = "PYTORCH_HIP_ALLOC_CONF" if rocm else "PYTORCH_CUDA_ALLOC_CONF"
    return Step(
        translate("Guide", "Out of memory"),
        translate(
            "Guide",
            "First see what else holds GPU memory, then shrink the step: a smaller batch with gradient accumulation, "
            "or activation checkpointing (torch.utils.checkpoint). {precision} If the error reports much memory "
            "'reserved by PyTorch but unallocated', it is fragmentation: set {setting}=expandable_segments:True.",
        ).format(precision=precision, setting=setting),
        tuple(commands),
        translate("Guide", "free memory close to total before your job starts"),
    )


def _multi_gpu(system: OsInfo, p2p: bool | None, cuda: bool) -> Step:
    why = [
        translate(
            "Guide",
            "A multi-GPU job that hangs at the first collective is usually NCCL's transport. Run with "
            "NCCL_DEBUG=INFO to see the path it picks.",
        )
    ]
    if p2p is False:
        why.append(translate("Guide", "These cards have no peer-to-peer path: set NCCL_P2P_DISABLE=1 for every rank."))
    elif p2p is None:
        why.append(translate("Guide", "If nvidia-smi topo -p2p r shows no peer-to-peer path, set NCCL_P2P_DISABLE=1."))
    why.append(
        translate(
            "Guide",
            "With the IOMMU or PCIe ACS enabled, peer-to-peer traffic can stall: check the BIOS and kernel settings.",
        )
    )
    if system.wsl:
        why.append(translate("Guide", "Under WSL2, NCCL multi-GPU support is limited (NVIDIA's CUDA on WSL guide)."))
    commands: tuple[Command, ...] = (
        ((system.shell, "nvidia-smi topo -m"), (system.shell, "nvidia-smi topo -p2p r")) if cuda else ()
    )
    env = "export NCCL_DEBUG=INFO" if system.shell == "bash" else '$env:NCCL_DEBUG = "INFO"'
    return Step(
        translate("Guide", "Multi-GPU training stalls or hangs"),
        " ".join(why),
        (*commands, (system.shell, env)),
        translate("Guide", "OK or a listed link type between every pair of GPUs"),
    )


def _slow(shell: str, choice: WheelChoice, targets: list[GpuTarget], cuda: bool) -> Step:
    notes = [
        translate(
            "Guide",
            "Check the model and inputs are on the GPU (next(model.parameters()).device), use "
            "torch.inference_mode(), and batch requests.",
        )
    ]
    lowest = min((version_key(t.compute_capability) for t in targets if t.compute_capability), default=None)
    if lowest is not None and lowest >= (8, 0):
        notes.append(
            translate(
                "Guide",
                "This GPU has TF32 and bfloat16 tensor cores: torch.set_float32_matmul_precision('high') and "
                "bfloat16 weights.",
            )
        )
    elif lowest is not None and lowest >= (7, 0):
        notes.append(translate("Guide", "Use float16 (model.half() or autocast) to reach the tensor cores."))
    if choice.through_ptx:
        notes.append(
            translate(
                "Guide",
                "This build reaches the GPU through PTX, compiled when first used: the first run is slow, later "
                "runs are not (the driver caches it).",
            )
        )
    notes.append(
        translate("Guide", "A PCIe link below its generation or width slows host-to-device copies: read it under load.")
    )
    commands: tuple[Command, ...] = (
        (
            (
                shell,
                "nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.gen.max,"
                "pcie.link.width.current,pcie.link.width.max --format=csv",
            ),
            (shell, "gpuconfig probe"),
        )
        if cuda
        else ((shell, "gpuconfig probe"),)
    )
    return Step(
        translate("Guide", "Slow inference"),
        " ".join(notes),
        commands,
        translate("Guide", "the current link generation and width equal the maximum while a job runs"),
    )
