"""Verdicts on a GPU's health: its memory (ECC errors, retired pages, pending repairs), its PCIe link, and
how it ran during the suite (clock slowdowns and temperature, from the recorded series)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe.gpu_facts import GpuFacts, RemappedRows
from gpuconfig.probe.model import Verdict
from gpuconfig.probe.references import References
from gpuconfig.probe.verdicts.common import check, verdict


def loaded_link(series: Mapping[str, Any] | None, index: int) -> tuple[int, int] | None:
    """The best PCIe generation and width GPU `index` ran at while loaded (utilisation or PCIe traffic
    above zero); None when the run has no such samples."""
    channels = (series or {}).get("channels", {})
    rows = zip(
        *(channels.get(f"gpu{index}.{name}", []) for name in ("util", "pcie_rx", "pcie_tx", "pcie_gen", "pcie_width")),
        strict=False,
    )
    seen = [
        (int(gen), int(width))
        for util, rx, tx, gen, width in rows
        if any(isinstance(v, (int, float)) and v == v and v > 0 for v in (util, rx, tx))
        and all(isinstance(v, (int, float)) and v == v for v in (gen, width))
    ]
    return (max(g for g, _ in seen), max(w for _, w in seen)) if seen else None


def health_verdicts(
    device: GpuFacts, subject: str, refs: References, loaded: tuple[int, int] | None = None
) -> list[Verdict]:
    return [*_memory_verdicts(device, subject, refs), *_link_verdicts(device, subject, refs, loaded)]


def _memory_verdicts(device: GpuFacts, subject: str, refs: References) -> list[Verdict]:
    t = refs.thresholds
    verdicts: list[Verdict] = []
    uncorrected = device.ecc_uncorrected_volatile
    if isinstance(uncorrected, int):
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Uncorrectable ECC errors")),
                subject,
                "pass" if uncorrected == 0 else "fail",
                translate("ProbeVerdicts", "{n} uncorrectable ECC errors since the driver loaded").format(
                    n=uncorrected
                ),
                float(uncorrected),
                0.0,
                "errors",
                translate("ProbeVerdicts", "zero"),
                t["ecc_source"],
                ""
                if uncorrected == 0
                else translate("ProbeVerdicts", "the GPU's memory is failing: ask the vendor for a replacement"),
            )
        )
    retired = device.retired_pages
    if isinstance(retired, int):
        status = "pass"
        if retired >= t["retired_pages_fail"]:
            status = "fail"
        elif retired >= t["retired_pages_warn"]:
            status = "warn"
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Retired memory pages")),
                subject,
                status,
                translate("ProbeVerdicts", "{n} pages retired").format(n=retired),
                float(retired),
                None,
                "pages",
                translate("ProbeVerdicts", "warn at {warn}, fail at {fail}").format(
                    warn=t["retired_pages_warn"], fail=t["retired_pages_fail"]
                ),
                t["retired_pages_source"],
                ""
                if status == "pass"
                else translate("ProbeVerdicts", "the GPU's memory is wearing out: plan a replacement"),
            )
        )
    pending = device.retired_pages_pending
    remapped = device.remapped_rows if isinstance(device.remapped_rows, RemappedRows) else None
    if pending is True or (remapped is not None and (remapped.failed or remapped.pending)):
        failed = bool(remapped is not None and remapped.failed)
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Memory repair")),
                subject,
                "fail" if failed or pending is True else "warn",
                translate("ProbeVerdicts", "row remapping failed")
                if failed
                else translate("ProbeVerdicts", "a page retirement or row remap is pending"),
                threshold=translate(
                    "ProbeVerdicts",
                    "no pending retirement (fail), no failed row remap (fail), no pending remap (flagged)",
                ),
                source=t["ecc_source"],
                advice=translate(
                    "ProbeVerdicts",
                    "reset the GPU or reboot to apply the pending repair; a failed remap needs a replacement",
                ),
            )
        )
    return verdicts


def _link_verdicts(device: GpuFacts, subject: str, refs: References, loaded: tuple[int, int] | None) -> list[Verdict]:
    pcie = device.pcie
    gen, max_gen = pcie.current_generation, pcie.max_generation
    width, max_width = pcie.current_width, pcie.max_width
    if loaded is not None:
        gen, width = loaded
    if not all(isinstance(v, int) for v in (gen, max_gen, width, max_width)):
        return []
    full = gen == max_gen and width == max_width
    if full:
        status, advice = "pass", ""
    elif loaded is not None:
        status = "fail"
        advice = translate(
            "ProbeVerdicts",
            "the link stays below its maximum under load: reseat the card, move it to a CPU-attached x16 "
            "slot, check riser cables and the BIOS PCIe generation setting",
        )
    else:
        status = "warn"
        advice = translate(
            "ProbeVerdicts",
            "a link below its maximum at idle is normal power saving; if the host-to-device figure is "
            "low too, reseat the card or move it to a full x16 slot",
        )
    if loaded is not None:
        said = translate("ProbeVerdicts", "PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width} under load")
    elif full:
        said = translate("ProbeVerdicts", "PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width}")
    else:
        said = translate(
            "ProbeVerdicts", "PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width} (read when the probe started, idle)"
        )
    return [
        verdict(
            check(QT_TRANSLATE_NOOP("ProbeVerdicts", "PCIe link")),
            subject,
            status,
            said.format(gen=gen, width=width, max_gen=max_gen, max_width=max_width),
            threshold=translate("ProbeVerdicts", "the maximum generation and width under load"),
            source=refs.thresholds["pcie_source"],
            advice=advice,
        )
    ]


def series_verdicts(
    series: Mapping[str, Any] | None, index: int, device: GpuFacts, subject: str, refs: References
) -> list[Verdict]:
    if not series:
        return []
    channels = series.get("channels", {})
    t = refs.thresholds
    verdicts: list[Verdict] = []
    events = [int(v) for v in sampled(channels.get(f"gpu{index}.throttle", []))]
    if events:
        seen = 0
        for value in events:
            seen |= value
        bad = [name for name, bit in t["failing_clock_events"].items() if seen & int(bit)]
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Clock slowdown during the run")),
                subject,
                "fail" if bad else "pass",
                translate("ProbeVerdicts", "seen: {events}").format(events=", ".join(bad))
                if bad
                else translate("ProbeVerdicts", "no hardware or thermal slowdown while sampled"),
                threshold=translate("ProbeVerdicts", "none of {events}").format(
                    events=", ".join(t["failing_clock_events"])
                ),
                source=t["clock_events_source"],
                advice=translate("ProbeVerdicts", "check cooling, fans and the power supply") if bad else "",
            )
        )
    temps = list(sampled(channels.get(f"gpu{index}.temp", [])))
    limit = device.slowdown_temperature_c
    if temps and isinstance(limit, (int, float)):
        hottest = max(temps)
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Temperature under the slowdown limit")),
                subject,
                "pass" if hottest < limit else "fail",
                translate("ProbeVerdicts", "hottest {hottest:.0f} °C, slowdown at {limit:.0f} °C").format(
                    hottest=hottest, limit=limit
                ),
                hottest,
                float(limit),
                "°C",
                translate("ProbeVerdicts", "below the slowdown temperature"),
                t["temperature_source"],
                "" if hottest < limit else translate("ProbeVerdicts", "improve airflow or spacing between cards"),
            )
        )
    return verdicts


def sampled(values: Iterable[Any]) -> Iterable[float]:
    """The values that were read: a sample NVML could not give is null (JSON) or NaN."""
    return (float(v) for v in values if isinstance(v, (int, float)) and v == v)
