"""Judge a probe run: each result against what this part should reach, with the threshold and its source.

References and thresholds are data (catalog/probe_references.toml, read by references.py). A figure with
no reference for this part is reported as info with the reason, never judged against an invented number.
Each NVIDIA GPU (NVML's numbering) is judged with the figures of the torch device it is (torch_devices.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from gpuconfig.core.failures import Failure
from gpuconfig.core.guide.records import gpu_label
from gpuconfig.probe import torch_devices
from gpuconfig.probe.egpu import external_link
from gpuconfig.probe.model import BenchmarkResult, Verdict, failure_of, is_unavailable
from gpuconfig.probe.references import REFERENCES_FILE, References, references


def judge(
    system: dict[str, Any],
    devices: Sequence[dict[str, Any]],
    torch: dict[str, Any],
    results: Sequence[BenchmarkResult],
    series: dict[str, Any] | None = None,
) -> tuple[Verdict, ...]:
    """Every verdict of a run, in the order a reader checks a machine: software, hardware, each figure."""
    refs = references()
    devices = torch_devices.link(devices, torch)
    verdicts: list[Verdict] = []
    verdicts += _torch_verdicts(torch, devices)
    verdicts += _failed_benchmarks(results)
    no_gpu = str(system.get("gpu", {}).get("unavailable", "no NVIDIA GPU found by NVML"))
    if not devices:
        verdicts.append(Verdict("GPU", "machine", "info", f"No NVIDIA GPU: {no_gpu}", threshold="nothing to compare"))
    for index, device in enumerate(devices):
        name = str(device.get("name", ""))
        label = gpu_label(device, index)
        verdicts += _health_verdicts(device, label, refs, loaded_link(series, index))
        verdicts += _series_verdicts(series, index, device, label, refs)
        if isinstance(device["torch_device"], str):
            verdicts += _figure_verdicts(results, device["torch_device"], name, device, refs, system)
    verdicts += _unlinked_figures(results, devices, no_gpu)
    verdicts += _cpu_figures(results)
    verdicts += _technique_verdicts(results)
    return tuple(verdicts)


def _ok(results: Iterable[BenchmarkResult], name: str, device: str | None = None) -> list[BenchmarkResult]:
    return [
        r
        for r in results
        if r.name == name and r.status == "ok" and r.value is not None and (device is None or r.device == device)
    ]


def _ratio_verdict(
    check: str, subject: str, measured: float, expected: float, unit: str, source: str, advice: str
) -> Verdict:
    t = references().thresholds
    ratio = measured / expected
    status = "pass" if ratio >= t["pass_ratio"] else "warn" if ratio >= t["fail_ratio"] else "fail"
    return Verdict(
        check,
        subject,
        status,
        f"{measured:.4g} {unit}, {100 * ratio:.0f} % of the {expected:.4g} {unit} a healthy part measures",
        measured,
        expected,
        unit,
        f"pass at {t['pass_ratio']:.0%}, fail below {t['fail_ratio']:.0%} of the reference ({t['ratio_source']})",
        source,
        "" if status == "pass" else advice,
    )


def _torch_verdicts(torch: dict[str, Any], devices: Sequence[dict[str, Any]]) -> list[Verdict]:
    if is_unavailable(torch):
        reason = str(torch["unavailable"])
        failure = failure_of(torch.get("failure"))
        status, said, advice = TORCH_UNAVAILABLE.get(failure, TORCH_BROKEN) if failure else TORCH_UNKNOWN
        return [
            Verdict(
                "PyTorch",
                "python",
                status,
                f"{said}: {reason}",
                threshold="the benchmarks need a working torch in the chosen Python",
                advice=advice,
            )
        ]
    version = torch.get("version", "?")
    cuda = torch.get("cuda")
    verdicts = [
        Verdict(
            "PyTorch",
            "python",
            "info",
            f"torch {version}, " + (f"built for CUDA {cuda}" if cuda else "a CPU-only build"),
            threshold="what is installed",
        )
    ]
    if devices and not cuda and not torch.get("hip"):
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
    # arch_in_build is keyed by torch's device index, as are the capabilities of torch's devices.
    capability = {str(d.get("index")): d.get("capability", "?") for d in torch.get("devices") or []}
    for key, in_build in (torch.get("arch_in_build") or {}).items():
        if in_build is False:
            verdicts.append(
                Verdict(
                    "GPU architecture in the torch build",
                    f"cuda:{key}",
                    "fail",
                    f"compute capability {capability.get(str(key), '?')} is not in this torch's "
                    f"architecture list ({' '.join(torch.get('arch_list') or [])})",
                    threshold="the GPU's sm_XY (or a compatible PTX) must be compiled in",
                    source="torch.cuda.get_arch_list()",
                    advice="install a torch wheel built for a CUDA version that supports this GPU",
                )
            )
    for index, device in enumerate(devices):
        driver = _version(device.get("cuda_driver_version"))
        runtime = _version(cuda)
        if driver and runtime and driver < runtime:
            verdicts.append(
                Verdict(
                    "Driver supports torch's CUDA",
                    gpu_label(device, index),
                    "fail",
                    f"the driver supports CUDA {device.get('cuda_driver_version')}, torch was built for CUDA {cuda}",
                    threshold="driver's CUDA version >= torch's CUDA version",
                    source="NVML nvmlSystemGetCudaDriverVersion; torch.version.cuda",
                    advice="update the NVIDIA driver, or install a torch wheel built for an older CUDA",
                )
            )
    return verdicts


def _version(text: Any) -> tuple[int, ...] | None:
    if not isinstance(text, str):
        return None
    try:
        return tuple(int(p) for p in text.split(".")[:2])
    except ValueError:
        return None


def _failed_benchmarks(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    return [
        Verdict(
            "Benchmark ran",
            r.device or "machine",
            "fail",
            f"{r.label} failed: {r.reason}",
            threshold="every benchmark completes",
            advice=_failure_advice(r.failure),
        )
        for r in results
        if r.status == "failed"
    ]


# What to do about a failed benchmark, by why it failed (a Failure the worker or the runner gave it).
FAILURE_ADVICE = {
    Failure.OUT_OF_MEMORY: "close other programs using memory, or run the quick suite; check RAM and GPU memory",
    Failure.TIMEOUT: "the machine may be throttling or busy; watch the live graphs and run again, or allow the "
    "benchmark longer (--bench-timeout)",
    Failure.CRASH: "a crash in torch or the driver: check the driver and torch versions (gpuconfig guide)",
}
OTHER_FAILURE_ADVICE = "run again; if it repeats, report it with the exported JSON"
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


def _failure_advice(failure: Failure | None) -> str:
    return FAILURE_ADVICE.get(failure, OTHER_FAILURE_ADVICE) if failure is not None else OTHER_FAILURE_ADVICE


def loaded_link(series: dict[str, Any] | None, index: int) -> tuple[int, int] | None:
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


def _health_verdicts(
    device: dict[str, Any], subject: str, refs: References, loaded: tuple[int, int] | None = None
) -> list[Verdict]:
    t = refs.thresholds
    verdicts: list[Verdict] = []
    uncorrected = device.get("ecc_uncorrected_volatile")
    if isinstance(uncorrected, int):
        verdicts.append(
            Verdict(
                "Uncorrectable ECC errors",
                subject,
                "pass" if uncorrected == 0 else "fail",
                f"{uncorrected} uncorrectable ECC errors since the driver loaded",
                float(uncorrected),
                0.0,
                "errors",
                "zero",
                t["ecc_source"],
                "" if uncorrected == 0 else "the GPU's memory is failing: ask the vendor for a replacement",
            )
        )
    retired = device.get("retired_pages")
    if isinstance(retired, int):
        status = "pass"
        if retired >= t["retired_pages_fail"]:
            status = "fail"
        elif retired >= t["retired_pages_warn"]:
            status = "warn"
        verdicts.append(
            Verdict(
                "Retired memory pages",
                subject,
                status,
                f"{retired} pages retired",
                float(retired),
                None,
                "pages",
                f"warn at {t['retired_pages_warn']}, fail at {t['retired_pages_fail']}",
                t["retired_pages_source"],
                "" if status == "pass" else "the GPU's memory is wearing out: plan a replacement",
            )
        )
    pending = device.get("retired_pages_pending")
    remapped = device.get("remapped_rows")
    if pending is True or (isinstance(remapped, dict) and (remapped.get("failed") or remapped.get("pending"))):
        failed = bool(isinstance(remapped, dict) and remapped.get("failed"))
        verdicts.append(
            Verdict(
                "Memory repair",
                subject,
                "fail" if failed or pending is True else "warn",
                "row remapping failed" if failed else "a page retirement or row remap is pending",
                threshold="no pending retirement (fail), no failed row remap (fail), no pending remap (flagged)",
                source=t["ecc_source"],
                advice="reset the GPU or reboot to apply the pending repair; a failed remap needs a replacement",
            )
        )
    pcie = _pcie(device)
    gen, max_gen = pcie.get("current_generation"), pcie.get("max_generation")
    width, max_width = pcie.get("current_width"), pcie.get("max_width")
    if loaded is not None:
        gen, width = loaded
    if all(isinstance(v, int) for v in (gen, max_gen, width, max_width)):
        full = gen == max_gen and width == max_width
        if full:
            status, advice = "pass", ""
        elif loaded is not None:
            status = "fail"
            advice = (
                "the link stays below its maximum under load: reseat the card, move it to a CPU-attached x16 "
                "slot, check riser cables and the BIOS PCIe generation setting"
            )
        else:
            status = "warn"
            advice = (
                "a link below its maximum at idle is normal power saving; if the host-to-device figure is "
                "low too, reseat the card or move it to a full x16 slot"
            )
        when = " under load" if loaded is not None else ("" if full else " (read when the probe started, idle)")
        verdicts.append(
            Verdict(
                "PCIe link",
                subject,
                status,
                f"PCIe {gen}.0 x{width} of {max_gen}.0 x{max_width}{when}",
                threshold="the maximum generation and width under load",
                source=t["pcie_source"],
                advice=advice,
            )
        )
    return verdicts


def _series_verdicts(
    series: dict[str, Any] | None, index: int, device: dict[str, Any], subject: str, refs: References
) -> list[Verdict]:
    if not series:
        return []
    channels = series.get("channels", {})
    t = refs.thresholds
    verdicts: list[Verdict] = []
    events = [int(v) for v in _sampled(channels.get(f"gpu{index}.throttle", []))]
    if events:
        seen = 0
        for value in events:
            seen |= value
        bad = [name for name, bit in t["failing_clock_events"].items() if seen & int(bit)]
        verdicts.append(
            Verdict(
                "Clock slowdown during the run",
                subject,
                "fail" if bad else "pass",
                ("seen: " + ", ".join(bad)) if bad else "no hardware or thermal slowdown while sampled",
                threshold="none of " + ", ".join(t["failing_clock_events"]),
                source=t["clock_events_source"],
                advice="check cooling, fans and the power supply" if bad else "",
            )
        )
    temps = list(_sampled(channels.get(f"gpu{index}.temp", [])))
    limit = device.get("slowdown_temperature_c")
    if temps and isinstance(limit, (int, float)):
        hottest = max(temps)
        verdicts.append(
            Verdict(
                "Temperature under the slowdown limit",
                subject,
                "pass" if hottest < limit else "fail",
                f"hottest {hottest:.0f} °C, slowdown at {limit:.0f} °C",
                hottest,
                float(limit),
                "°C",
                "below the slowdown temperature",
                t["temperature_source"],
                "" if hottest < limit else "improve airflow or spacing between cards",
            )
        )
    return verdicts


def _sampled(values: Iterable[Any]) -> Iterable[float]:
    """The values that were read: a sample NVML could not give is null (JSON) or NaN."""
    return (float(v) for v in values if isinstance(v, (int, float)) and v == v)


def _figure_verdicts(
    results: Sequence[BenchmarkResult],
    subject: str,
    name: str,
    device: dict[str, Any],
    refs: References,
    system: dict[str, Any] | None = None,
) -> list[Verdict]:
    ref = refs.gpu(device)
    verdicts: list[Verdict] = []
    for result in _ok(results, "matmul", subject):
        expected = ref.matmul_tflops.get(result.dtype) if ref else None
        if ref is not None and expected:
            verdicts.append(
                _ratio_verdict(
                    f"Matmul {result.dtype}",
                    subject,
                    float(result.value or 0),
                    expected,
                    result.unit,
                    ref.source,
                    "check clocks and power limit (nvidia-smi -q -d CLOCK,POWER) and the throttle graph",
                )
            )
        else:
            verdicts.append(_no_reference(f"Matmul {result.dtype}", subject, result, name))
    for result in _ok(results, "memory_bandwidth", subject):
        if ref is not None and ref.memory_bandwidth_gbs:
            verdicts.append(
                _ratio_verdict(
                    "Memory bandwidth",
                    subject,
                    float(result.value or 0),
                    ref.memory_bandwidth_gbs,
                    result.unit,
                    ref.source,
                    "check the memory clock and ECC state; a lower figure can mean a faulty or mis-clocked part",
                )
            )
        else:
            verdicts.append(_no_reference("Memory bandwidth", subject, result, name))
    pcie = _pcie(device)
    # An eGPU's card reads x16 while the Thunderbolt tunnel above it is x4 or less: judge it by its link.
    link = external_link(system or {}, device) or refs.h2d_for(pcie.get("max_generation"), pcie.get("max_width"))
    for result in _ok(results, "h2d_bandwidth", subject):
        if result.variant != "pinned":
            continue
        if link is None:
            verdicts.append(_no_reference("Host to device", subject, result, name))
            continue
        measured = float(result.value or 0)
        passed = measured >= link["pass_gbs"]
        verdicts.append(
            Verdict(
                "Host to device (pinned)",
                subject,
                "pass" if passed else "fail",
                f"{measured:.3g} GB/s on a {link['link']} link, good is at least {link['pass_gbs']:g} GB/s",
                measured,
                float(link["pass_gbs"]),
                "GB/s",
                f"at least {link['pass_gbs']:g} GB/s on {link['link']}",
                link["source"],
                ""
                if passed
                else link.get("fix")
                or "the link runs below its width or generation under load: reseat the card, "
                "use a CPU-attached x16 slot, check the BIOS PCIe setting",
            )
        )
    return verdicts


def _unlinked_figures(
    results: Sequence[BenchmarkResult], devices: Sequence[dict[str, Any]], no_gpu: str
) -> list[Verdict]:
    """The figures of a torch device that no NVIDIA GPU is known to be: shown, with why they are not judged."""
    linked = {d["torch_device"] for d in devices if isinstance(d["torch_device"], str)}
    why = "; ".join(sorted({d["torch_device"]["unavailable"] for d in devices if is_unavailable(d["torch_device"])}))
    reason = f"not judged: which NVIDIA GPU this is is unknown ({why or no_gpu})"
    unknown = sorted({r.device for r in results if r.device.startswith("cuda") and r.device not in linked})
    return [
        replace(verdict, threshold=reason)
        for device in unknown
        for verdict in _figure_verdicts(results, device, "", {}, references())
    ]


def _pcie(device: dict[str, Any]) -> dict[str, Any]:
    link = device.get("pcie")
    return link if isinstance(link, dict) else device


def _no_reference(check: str, subject: str, result: BenchmarkResult, part: str) -> Verdict:
    return Verdict(
        check,
        subject,
        "info",
        f"{result.value:.4g} {result.unit}",
        result.value,
        None,
        result.unit,
        f"no measured reference for {part or 'this part'} in {REFERENCES_FILE}",
    )


def _cpu_figures(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    verdicts = []
    for name, check in (("matmul", "Matmul"), ("memory_bandwidth", "Memory bandwidth")):
        for result in _ok(results, name, "cpu"):
            label = f"{check} {result.dtype}" if name == "matmul" else check
            verdicts.append(_no_reference(label, "cpu", result, "CPUs"))
    verdicts += [_no_reference("Disk sequential read", r.device, r, "disks") for r in _ok(results, "disk_read")]
    loaders = _ok(results, "dataloader")
    if loaders:
        best = max(loaders, key=lambda r: r.value or 0)
        others = ", ".join(f"{r.variant}: {r.value:.4g}" for r in loaders if r is not best)
        verdicts.append(
            Verdict(
                "DataLoader workers",
                "cpu",
                "info",
                f"fastest with {best.variant or 'the default'}: {best.value:.4g} {best.unit} ({others})",
                best.value,
                None,
                best.unit,
                "measured on this machine",
            )
        )
    return verdicts


def _technique_verdicts(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    """What AMP and activation checkpointing really do on this machine (the seeds' claims, measured)."""
    verdicts = []
    for model in ("train_cnn", "train_transformer"):
        runs = {r.variant: r for r in _ok(results, model)}
        base = runs.get("") or runs.get("fp32")
        if base is None or not base.value:
            continue
        for variant, technique in (("amp", "AMP"), ("checkpointing", "activation checkpointing")):
            other = runs.get(variant)
            if other is None or not other.value:
                continue
            speed = other.value / base.value
            memory = _memory_change(base, other)
            verdicts.append(
                Verdict(
                    f"{technique} on {model.removeprefix('train_')}",
                    base.device,
                    "info",
                    f"{speed:.2f}x the throughput of the plain step{memory}",
                    other.value,
                    base.value,
                    base.unit,
                    "measured on this machine against the same step without it",
                )
            )
    return verdicts


def _memory_change(base: BenchmarkResult, other: BenchmarkResult) -> str:
    a, b = base.detail.get("peak_memory_bytes"), other.detail.get("peak_memory_bytes")
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0:
        return f", {b / a:.2f}x its peak tensor memory"
    return ""


def counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """How many verdicts of each status."""
    out = dict.fromkeys(("pass", "warn", "fail", "info"), 0)
    for v in verdicts:
        out[v.status] = out.get(v.status, 0) + 1
    return out
