"""Verdicts on the software: the torch the benchmarks ran in, whether it sees and was built for the GPU,
and whether the driver supports its CUDA."""

from __future__ import annotations

from collections.abc import Sequence

from gpuconfig.core.failures import Failure
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.model import Maybe, Unavailable, Verdict
from gpuconfig.probe.torch_devices import TorchFacts
from gpuconfig.probe.verdicts.common import check, marked, verdict

# The PyTorch verdict when the worker had no torch to measure with: status, what it says (with torch's
# reason), the advice; in English, marked for the language in use.
TORCH_BROKEN = (
    "fail",
    QT_TRANSLATE_NOOP("ProbeVerdicts", "PyTorch is installed but does not work: {reason}"),
    QT_TRANSLATE_NOOP(
        "ProbeVerdicts", "reinstall torch with the wheel for this machine's driver (gpuconfig guide --from-probe)"
    ),
)
# A report written before the worker said why torch was unavailable: not judged broken on its words alone.
UNAVAILABLE = QT_TRANSLATE_NOOP("ProbeVerdicts", "PyTorch unavailable: {reason}")
TORCH_UNKNOWN = (
    "warn",
    UNAVAILABLE,
    QT_TRANSLATE_NOOP(
        "ProbeVerdicts",
        "check that the chosen Python has a working torch (gpuconfig guide --from-probe), then probe again",
    ),
)
TORCH_UNAVAILABLE = {
    Failure.NO_TORCH: (
        "warn",
        UNAVAILABLE,
        QT_TRANSLATE_NOOP(
            "ProbeVerdicts", "install PyTorch in this Python, or choose a Python that has it (--python PATH)"
        ),
    ),
    Failure.NO_PYTHON: (
        "warn",
        UNAVAILABLE,
        QT_TRANSLATE_NOOP(
            "ProbeVerdicts",
            "choose a Python that exists (--python PATH, the Probe tab's Add..., or GPUCONFIG_TORCH_PYTHON)",
        ),
    ),
    Failure.CANCELLED: ("warn", UNAVAILABLE, QT_TRANSLATE_NOOP("ProbeVerdicts", "run the probe again to measure")),
    Failure.TIMEOUT: (
        "fail",
        UNAVAILABLE,
        QT_TRANSLATE_NOOP(
            "ProbeVerdicts",
            "check that this Python starts and imports torch (python -c 'import torch'), or allow it longer "
            "(--start-timeout)",
        ),
    ),
}
PYTORCH = QT_TRANSLATE_NOOP("ProbeVerdicts", "PyTorch")


def torch_verdicts(torch: Maybe[TorchFacts], devices: Sequence[GpuFacts]) -> list[Verdict]:
    if isinstance(torch, Unavailable):
        failure = torch.failure
        status, said, advice = TORCH_UNAVAILABLE.get(failure, TORCH_BROKEN) if failure else TORCH_UNKNOWN
        return [
            verdict(
                check(PYTORCH),
                "python",
                status,
                marked(said).format(reason=torch.reason),
                threshold=translate("ProbeVerdicts", "the benchmarks need a working torch in the chosen Python"),
                advice=marked(advice),
            )
        ]
    cuda = torch.cuda
    build = (
        translate("ProbeVerdicts", "torch {version}, built for CUDA {cuda}")
        if cuda
        else translate("ProbeVerdicts", "torch {version}, a CPU-only build")
    )
    verdicts = [
        verdict(
            check(PYTORCH),
            "python",
            "info",
            build.format(version=torch.version, cuda=cuda),
            threshold=translate("ProbeVerdicts", "what is installed"),
        )
    ]
    if devices and not cuda and not torch.hip:
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "PyTorch sees the GPU")),
                "python",
                "fail",
                translate("ProbeVerdicts", "This machine has an NVIDIA GPU but the chosen torch is a CPU-only build"),
                threshold=translate("ProbeVerdicts", "a CUDA build is needed to use the GPU"),
                advice=translate(
                    "ProbeVerdicts", "install a CUDA build of torch (gpuconfig guide --from-probe gives the command)"
                ),
            )
        )
    verdicts += _arch_verdicts(torch)
    for index, device in enumerate(devices):
        driver = _version(device.cuda_driver_version)
        runtime = _version(cuda)
        if driver and runtime and driver < runtime:
            verdicts.append(
                verdict(
                    check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Driver supports torch's CUDA")),
                    device.label(index),
                    "fail",
                    translate(
                        "ProbeVerdicts", "the driver supports CUDA {driver}, torch was built for CUDA {cuda}"
                    ).format(driver=device.cuda_driver_version, cuda=cuda),
                    threshold=translate("ProbeVerdicts", "driver's CUDA version >= torch's CUDA version"),
                    source="NVML nvmlSystemGetCudaDriverVersion; torch.version.cuda",
                    advice=translate(
                        "ProbeVerdicts", "update the NVIDIA driver, or install a torch wheel built for an older CUDA"
                    ),
                )
            )
    return verdicts


def _arch_verdicts(torch: TorchFacts) -> list[Verdict]:
    # arch_in_build is keyed by torch's device index, as are the capabilities of torch's devices.
    capability = {str(d.index): d.capability for d in torch.devices}
    return [
        verdict(
            check(QT_TRANSLATE_NOOP("ProbeVerdicts", "GPU architecture in the torch build")),
            f"cuda:{key}",
            "fail",
            translate(
                "ProbeVerdicts", "compute capability {capability} is not in this torch's architecture list ({archs})"
            ).format(capability=capability.get(str(key), "?"), archs=" ".join(torch.arch_list)),
            threshold=translate("ProbeVerdicts", "the GPU's sm_XY (or a compatible PTX) must be compiled in"),
            source="torch.cuda.get_arch_list()",
            advice=translate("ProbeVerdicts", "install a torch wheel built for a CUDA version that supports this GPU"),
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
