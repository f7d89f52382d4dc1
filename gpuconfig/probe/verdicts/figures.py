"""Verdicts on what a GPU measured: matmul throughput, memory bandwidth and the host-to-device copy, each
against the reference for this part (or its link), or shown without one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe.egpu import external_link
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Unavailable, Verdict
from gpuconfig.probe.references import GpuReference, References, references
from gpuconfig.probe.stability import stability
from gpuconfig.probe.verdicts.common import (
    Check,
    check,
    marked,
    measured,
    no_reference,
    ratio_verdict,
    unstable,
    verdict,
)

LINK_ADVICE = QT_TRANSLATE_NOOP(
    "ProbeVerdicts",
    "the link runs below its width or generation under load: reseat the card, use a CPU-attached x16 slot, "
    "check the BIOS PCIe setting",
)
H2D_PINNED = QT_TRANSLATE_NOOP("ProbeVerdicts", "Host to device (pinned)")


def figure_verdicts(
    results: Sequence[BenchmarkResult],
    subject: str,
    device: GpuFacts | None,
    refs: References,
    system: System | None = None,
) -> list[Verdict]:
    """The figures torch device `subject` measured, judged as the NVIDIA GPU `device` (None: not known)."""
    ref = refs.gpu(device) if device is not None else None
    name = device.known_name if device is not None else ""
    verdicts: list[Verdict] = []
    for result in measured(results, "matmul", subject):
        expected = ref.matmul_tflops.get(result.dtype) if ref else None
        advice = translate(
            "ProbeVerdicts", "check clocks and power limit (nvidia-smi -q -d CLOCK,POWER) and the throttle graph"
        )
        named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Matmul {dtype}"), dtype=result.dtype)
        verdicts.append(_figure(named, subject, result, expected, ref, name, advice))
    for result in measured(results, "memory_bandwidth", subject):
        expected = ref.memory_bandwidth_gbs if ref else None
        advice = translate(
            "ProbeVerdicts",
            "check the memory clock and ECC state; a lower figure can mean a faulty or mis-clocked part",
        )
        named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Memory bandwidth"))
        verdicts.append(_figure(named, subject, result, expected, ref, name, advice))
    return verdicts + _transfer_verdicts(results, subject, device, refs, system)


def _figure(
    check: Check | str, subject: str, result: BenchmarkResult, expected: float | None, ref: GpuReference | None,
    part: str, advice: str,
) -> Verdict:  # fmt: skip
    """A figure against its reference, or shown without one; an unstable figure is not judged, except that
    one failing its reference still fails (a faulty part can be unsteady too), saying it is unstable."""
    if ref is None or not expected:
        return unstable(check, subject, result) or no_reference(check, subject, result, part)
    judged = ratio_verdict(check, subject, float(result.value or 0), expected, result.unit, ref.source, advice)
    warning = unstable(check, subject, result, expected)
    if warning is None:
        return judged
    if judged.status == "fail":
        said = translate("ProbeVerdicts", "{message}; unstable ({why}): run again to confirm")
        return replace(judged, message=said.format(message=judged.message, why=stability(result).why))
    return warning


def _transfer_verdicts(
    results: Sequence[BenchmarkResult],
    subject: str,
    device: GpuFacts | None,
    refs: References,
    system: System | None,
) -> list[Verdict]:
    """The pinned host-to-device copy against what its link should carry."""
    link = None
    if device is not None:
        # An eGPU's card reads x16 while the Thunderbolt tunnel above it is x4 or less: judge it by its link.
        pcie = device.pcie
        link = (external_link(system, device) if system is not None else None) or refs.h2d_for(
            pcie.max_generation, pcie.max_width
        )
    verdicts: list[Verdict] = []
    for result in measured(results, "h2d_bandwidth", subject):
        if result.variant != "pinned":
            continue
        expected = float(link.pass_gbs) if link is not None else None
        if (warning := unstable(check(H2D_PINNED), subject, result, expected)) is not None:
            verdicts.append(warning)
            continue
        if link is None:
            named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Host to device"))
            verdicts.append(no_reference(named, subject, result, device.known_name if device else ""))
            continue
        value = float(result.value or 0)
        passed = value >= link.pass_gbs
        verdicts.append(
            verdict(
                check(H2D_PINNED),
                subject,
                "pass" if passed else "fail",
                translate("ProbeVerdicts", "{value:.3g} GB/s on a {link} link, good is at least {good:g} GB/s").format(
                    value=value, link=link.link, good=link.pass_gbs
                ),
                value,
                float(link.pass_gbs),
                "GB/s",
                translate("ProbeVerdicts", "at least {good:g} GB/s on {link}").format(
                    good=link.pass_gbs, link=link.link
                ),
                link.source,
                "" if passed else link.fix or marked(LINK_ADVICE),
            )
        )
    return verdicts


def unlinked_figures(results: Sequence[BenchmarkResult], devices: Sequence[GpuFacts], no_gpu: str) -> list[Verdict]:
    """The figures of a torch device that no NVIDIA GPU is known to be: shown, with why they are not judged."""
    linked = {d.torch_device for d in devices if isinstance(d.torch_device, str)}
    why = "; ".join(sorted({d.torch_device.reason for d in devices if isinstance(d.torch_device, Unavailable)}))
    reason = translate("ProbeVerdicts", "not judged: which NVIDIA GPU this is is unknown ({why})").format(
        why=why or no_gpu
    )
    unknown = sorted({r.device for r in results if r.device.startswith("cuda") and r.device not in linked})
    return [
        replace(verdict, threshold=reason)
        for device in unknown
        for verdict in figure_verdicts(results, device, None, references())
    ]
