"""Verdicts on the software: the torch the benchmarks ran in, whether it sees and was built for the GPU,
and whether the driver supports its CUDA."""

from __future__ import annotations

from collections.abc import Sequence

from gpuconfig.core.failures import Failure
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import Maybe, Unavailable, Verdict
from gpuconfig.probe.torch_devices import TorchFacts

# The PyTorch verdict when the worker had no torch to measure with: status, what it says, the advice.
TORCH_BROKEN = (
    "fail",
    "PyTorch is installed but does not work",
    "reinstall torch with the wheel for this machine's driver (gpuconfig guide --from-probe)",
)
# A report written before the worker said why torch was unavailable: not judged broken on its words alone.
TORCH_UNKNOWN = (
    "warn",
    "PyTorch unavailable",
    "check that the chosen Python has a working torch (gpuconfig guide --from-probe), then probe again",
)
TORCH_UNAVAILABLE = {
    Failure.NO_TORCH: (
        "warn",
        "PyTorch unavailable",
        "install PyTorch in this Python, or choose a Python that has it (--python PATH)",
    ),
    Failure.NO_PYTHON: (
        "warn",
        "PyTorch unavailable",
        "choose a Python that exists (--python PATH, the Probe tab's Add..., or GPUCONFIG_TORCH_PYTHON)",
    ),
    Failure.CANCELLED: ("warn", "PyTorch unavailable", "run the probe again to measure"),
    Failure.TIMEOUT: (
        "fail",
        "PyTorch unavailable",
        "check that this Python starts and imports torch (python -c 'import torch'), or allow it longer "
        "(--start-timeout)",
    ),
}


def torch_verdicts(torch: Maybe[TorchFacts], devices: Sequence[GpuFacts]) -> list[Verdict]:
    if isinstance(torch, Unavailable):
        failure = torch.failure
        status, said, advice = TORCH_UNAVAILABLE.get(failure, TORCH_BROKEN) if failure else TORCH_UNKNOWN
        return [
            Verdict(
                "PyTorch",
                "python",
                status,
                f"{said}: {torch.reason}",
                threshold="the benchmarks need a working torch in the chosen Python",
                advice=advice,
            )
        ]
    cuda = torch.cuda
    verdicts = [
        Verdict(
            "PyTorch",
            "python",
            "info",
            f"torch {torch.version}, " + (f"built for CUDA {cuda}" if cuda else "a CPU-only build"),
            threshold="what is installed",
        )
    ]
    if devices and not cuda and not torch.hip:
        verdicts.append(
            Verdict(
                "PyTorch sees the GPU",
                "python",
                "fail",
                "This machine has an NVIDIA GPU but the chosen torch is a CPU-only build",
                threshold="a CUDA build is needed to use the GPU",
                advice="install a CUDA build of torch (gpuconfig guide --from-probe gives the command)",
            )
        )
    verdicts += _arch_verdicts(torch)
    for index, device in enumerate(devices):
        driver = _version(device.cuda_driver_version)
        runtime = _version(cuda)
        if driver and runtime and driver < runtime:
            verdicts.append(
                Verdict(
                    "Driver supports torch's CUDA",
                    device.label(index),
                    "fail",
                    f"the driver supports CUDA {device.cuda_driver_version}, torch was built for CUDA {cuda}",
                    threshold="driver's CUDA version >= torch's CUDA version",
                    source="NVML nvmlSystemGetCudaDriverVersion; torch.version.cuda",
                    advice="update the NVIDIA driver, or install a torch wheel built for an older CUDA",
                )
            )
    return verdicts


def _arch_verdicts(torch: TorchFacts) -> list[Verdict]:
    # arch_in_build is keyed by torch's device index, as are the capabilities of torch's devices.
    capability = {str(d.index): d.capability for d in torch.devices}
    return [
        Verdict(
            "GPU architecture in the torch build",
            f"cuda:{key}",
            "fail",
            f"compute capability {capability.get(str(key), '?')} is not in this torch's "
            f"architecture list ({' '.join(torch.arch_list)})",
            threshold="the GPU's sm_XY (or a compatible PTX) must be compiled in",
            source="torch.cuda.get_arch_list()",
            advice="install a torch wheel built for a CUDA version that supports this GPU",
        )
        for key, in_build in torch.arch_in_build.items()
        if in_build is False
    ]


def _version(text: object) -> tuple[int, ...] | None:
    if not isinstance(text, str):
        return None
    try:
        return tuple(int(p) for p in text.split(".")[:2])
    except ValueError:
        return None
