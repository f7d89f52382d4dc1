"""The one place gpuconfig talks to NVML (nvidia-ml-py, `import pynvml`).

Every call goes through `call()`, which returns the value or an `Unavailable` with a reason a user can
act on; nothing here raises because a GPU, a driver or a query is missing. Reading is split in two so
the parsing can be tested against recorded outputs: `Nvml.raw_facts()` / `raw_sample()` return what NVML
returned, as JSON (the form `--record` writes), and `facts_from_raw()` / `sample_from_raw()` turn that
into gpuconfig's fields. Units and formats follow the NVML API reference
(https://docs.nvidia.com/deploy/nvml-api/, "Device Queries" and "System Queries"; the same comments are
in nvml.h).

Record a GPU for future test fixtures with `python -m gpuconfig.probe.nvml --record FILE`.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import platform
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import Any

import pynvml

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP
from gpuconfig.probe import nvml_guard
from gpuconfig.probe.gpu_facts import ClockEvents, GpuFacts, GpuSample, Modes, NvmlPcie, RemappedRows
from gpuconfig.probe.model import Unavailable

RECORDING_FORMAT = "gpuconfig.nvml-recording/1"

# NVML return codes (nvml.h, nvmlReturn_t) in words a user can act on.
_REASONS = {
    pynvml.NVML_ERROR_UNINITIALIZED: QT_TRANSLATE_NOOP("Probe", "NVML is not initialised"),
    pynvml.NVML_ERROR_INVALID_ARGUMENT: QT_TRANSLATE_NOOP("Probe", "NVML rejected the query (invalid argument)"),
    pynvml.NVML_ERROR_NOT_SUPPORTED: QT_TRANSLATE_NOOP("Probe", "not supported on this GPU"),
    pynvml.NVML_ERROR_NO_PERMISSION: QT_TRANSLATE_NOOP(
        "Probe", "no permission to read this (NVML needs more privileges)"
    ),
    pynvml.NVML_ERROR_NOT_FOUND: QT_TRANSLATE_NOOP("Probe", "not found"),
    pynvml.NVML_ERROR_INSUFFICIENT_POWER: QT_TRANSLATE_NOOP(
        "Probe", "the GPU's external power cables are not connected properly"
    ),
    pynvml.NVML_ERROR_DRIVER_NOT_LOADED: QT_TRANSLATE_NOOP("Probe", "the NVIDIA driver is not loaded"),
    pynvml.NVML_ERROR_TIMEOUT: QT_TRANSLATE_NOOP("Probe", "NVML timed out"),
    pynvml.NVML_ERROR_LIBRARY_NOT_FOUND: QT_TRANSLATE_NOOP("Probe", "no NVIDIA driver (libnvidia-ml not found)"),
    pynvml.NVML_ERROR_FUNCTION_NOT_FOUND: QT_TRANSLATE_NOOP("Probe", "this NVIDIA driver is too old for this query"),
    pynvml.NVML_ERROR_CORRUPTED_INFOROM: QT_TRANSLATE_NOOP("Probe", "the GPU's infoROM is corrupted"),
    pynvml.NVML_ERROR_GPU_IS_LOST: QT_TRANSLATE_NOOP("Probe", "the GPU has fallen off the bus (GPU is lost)"),
    pynvml.NVML_ERROR_RESET_REQUIRED: QT_TRANSLATE_NOOP("Probe", "the GPU needs a reset"),
    pynvml.NVML_ERROR_OPERATING_SYSTEM: QT_TRANSLATE_NOOP("Probe", "the operating system blocked the request"),
    pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH: QT_TRANSLATE_NOOP(
        "Probe", "NVML and the kernel driver differ (reboot after a driver update)"
    ),
    pynvml.NVML_ERROR_NO_DATA: QT_TRANSLATE_NOOP("Probe", "no data yet"),
}

# Clocks-event (throttle) reason bits, nvml.h "nvmlClocksEventReasons" (pynvml nvmlClocksEventReason*).
CLOCKS_EVENT_REASONS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks_setting",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal_slowdown",
    0x40: "hw_thermal_slowdown",
    0x80: "hw_power_brake_slowdown",
    0x100: "display_clock_setting",
}

# Older drivers have only the deprecated name of a query (nvml.h marks the Throttle names deprecated).
_FALLBACKS = {"nvmlDeviceGetCurrentClocksEventReasons": "nvmlDeviceGetCurrentClocksThrottleReasons"}

Call = tuple[str, ...]  # an NVML function name, then the names of its constant arguments

SYSTEM_CALLS: tuple[Call, ...] = (
    ("nvmlSystemGetDriverVersion",),
    ("nvmlSystemGetCudaDriverVersion_v2",),
    ("nvmlSystemGetNVMLVersion",),
)
FACT_CALLS: tuple[Call, ...] = (
    ("nvmlDeviceGetName",),
    ("nvmlDeviceGetUUID",),
    ("nvmlDeviceGetPciInfo",),
    ("nvmlDeviceGetMemoryInfo",),
    ("nvmlDeviceGetCudaComputeCapability",),
    ("nvmlDeviceGetEnforcedPowerLimit",),
    ("nvmlDeviceGetMaxClockInfo", "NVML_CLOCK_SM"),
    ("nvmlDeviceGetMaxClockInfo", "NVML_CLOCK_MEM"),
    ("nvmlDeviceGetEccMode",),
    ("nvmlDeviceGetTotalEccErrors", "NVML_MEMORY_ERROR_TYPE_CORRECTED", "NVML_VOLATILE_ECC"),
    ("nvmlDeviceGetTotalEccErrors", "NVML_MEMORY_ERROR_TYPE_UNCORRECTED", "NVML_VOLATILE_ECC"),
    ("nvmlDeviceGetTotalEccErrors", "NVML_MEMORY_ERROR_TYPE_CORRECTED", "NVML_AGGREGATE_ECC"),
    ("nvmlDeviceGetTotalEccErrors", "NVML_MEMORY_ERROR_TYPE_UNCORRECTED", "NVML_AGGREGATE_ECC"),
    ("nvmlDeviceGetRetiredPages", "NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS"),
    ("nvmlDeviceGetRetiredPages", "NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR"),
    ("nvmlDeviceGetRetiredPagesPendingStatus",),
    ("nvmlDeviceGetRemappedRows",),
    ("nvmlDeviceGetCurrPcieLinkGeneration",),
    ("nvmlDeviceGetCurrPcieLinkWidth",),
    ("nvmlDeviceGetMaxPcieLinkGeneration",),
    ("nvmlDeviceGetGpuMaxPcieLinkGeneration",),
    ("nvmlDeviceGetMaxPcieLinkWidth",),
    ("nvmlDeviceGetPcieReplayCounter",),
    ("nvmlDeviceGetMigMode",),
    ("nvmlDeviceGetTemperatureThreshold", "NVML_TEMPERATURE_THRESHOLD_SLOWDOWN"),
    ("nvmlDeviceGetTemperatureThreshold", "NVML_TEMPERATURE_THRESHOLD_SHUTDOWN"),
    ("nvmlDeviceGetTemperatureThreshold", "NVML_TEMPERATURE_THRESHOLD_GPU_MAX"),
    ("nvmlDeviceGetPersistenceMode",),
)
SAMPLE_CALLS: tuple[Call, ...] = (
    ("nvmlDeviceGetUtilizationRates",),
    ("nvmlDeviceGetMemoryInfo",),
    ("nvmlDeviceGetTemperature", "NVML_TEMPERATURE_GPU"),
    ("nvmlDeviceGetPowerUsage",),
    ("nvmlDeviceGetClockInfo", "NVML_CLOCK_SM"),
    ("nvmlDeviceGetClockInfo", "NVML_CLOCK_MEM"),
    # nvml.h: PCIe throughput is a byte counter read over a 20 ms window, so each of these may take 20 ms.
    ("nvmlDeviceGetPcieThroughput", "NVML_PCIE_UTIL_RX_BYTES"),
    ("nvmlDeviceGetPcieThroughput", "NVML_PCIE_UTIL_TX_BYTES"),
    ("nvmlDeviceGetCurrentClocksEventReasons",),
    # The link trains down when idle, so it is judged from what it runs at while a benchmark loads it.
    ("nvmlDeviceGetCurrPcieLinkGeneration",),
    ("nvmlDeviceGetCurrPcieLinkWidth",),
)

# The processes using a GPU (nvml.h: pid and usedGpuMemory in bytes, which is unavailable under WDDM).
PROCESS_CALLS: tuple[Call, ...] = (
    ("nvmlDeviceGetComputeRunningProcesses",),
    ("nvmlDeviceGetGraphicsRunningProcesses",),
)


def key(spec: Call) -> str:
    """The name a call's result has in a raw dict: 'nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM)'."""
    return f"{spec[0]}({', '.join(spec[1:])})"


def reason(error: pynvml.NVMLError) -> str:
    """Why an NVML call failed, in words."""
    code = getattr(error, "value", None)
    return _REASONS.get(code, f"NVML error {code}: {error}")


def call(function: str, *args: Any) -> Any:
    """NVML's answer to `function(*args)`, or an `Unavailable` saying why there is none."""
    names = [function, _FALLBACKS[function]] if function in _FALLBACKS else [function]
    why = f"this nvidia-ml-py has no {function}"
    for name in names:
        fn = getattr(pynvml, name, None)
        if fn is None:
            continue
        try:
            return fn(*args)
        except pynvml.NVMLError as error:
            why = reason(error)
            if getattr(error, "value", None) != pynvml.NVML_ERROR_FUNCTION_NOT_FOUND:
                break
        except (OSError, UnicodeDecodeError, ValueError) as error:  # the binding itself failed
            return Unavailable(f"{name} failed: {error}")
    return Unavailable(why)


def to_json(value: Any) -> Any:
    """An NVML return value as plain JSON data (structures become dicts of their fields)."""
    if isinstance(value, Unavailable):
        return value.record()
    if isinstance(value, ctypes.Structure):
        return {name: to_json(getattr(value, name)) for name, *_ in value._fields_ if name != "version"}
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, ctypes.Array):
        return [to_json(item) for item in value]
    if type(value).__name__ == "nvmlFriendlyObject":  # how nvidia-ml-py hands out some structures (processes)
        return {str(k): to_json(v) for k, v in vars(value).items()}
    return value


def _resolve(specs: Iterable[Call]) -> list[tuple[str, str, tuple[Any, ...]]]:
    return [(key(spec), spec[0], tuple(getattr(pynvml, name) for name in spec[1:])) for spec in specs]


class Nvml:
    """An initialised NVML session; open with `Nvml.open()`, close once (or use it as a context manager)."""

    def __init__(self, _opened: bool = False) -> None:
        if not _opened:
            raise TypeError("use Nvml.open(), which returns Unavailable when there is no NVML")
        self._handles: dict[int, Any] = {}
        self._closed = False
        self._system = _resolve(SYSTEM_CALLS)
        self._facts = _resolve(FACT_CALLS)
        self._samples = _resolve(SAMPLE_CALLS)
        self._processes = _resolve(PROCESS_CALLS)

    @classmethod
    def open(cls) -> Nvml | Unavailable:
        """An NVML session, or why NVML cannot be used on this machine (or safely in this process: a
        library that crashes a child started first is never started here, nvml_guard.py)."""
        crashed = nvml_guard.problem()
        if crashed:
            return Unavailable(crashed)
        started = call("nvmlInit")
        if isinstance(started, Unavailable):
            return started
        return cls(_opened=True)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            call("nvmlShutdown")

    def __enter__(self) -> Nvml:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def device_count(self) -> int | Unavailable:
        count = call("nvmlDeviceGetCount")
        return count if isinstance(count, Unavailable) else int(count)

    def _handle(self, index: int) -> Any:
        if index not in self._handles:
            handle = call("nvmlDeviceGetHandleByIndex", index)
            if isinstance(handle, Unavailable):
                return handle
            self._handles[index] = handle
        return self._handles[index]

    def _read(self, calls: list[tuple[str, str, tuple[Any, ...]]], handle: Any) -> dict[str, Any]:
        if isinstance(handle, Unavailable):
            return {name: handle.record() for name, _, _ in calls}
        args: tuple[Any, ...] = () if handle is None else (handle,)
        return {name: to_json(call(function, *args, *constants)) for name, function, constants in calls}

    def raw_system(self) -> dict[str, Any]:
        """What NVML's system queries returned, as JSON."""
        return self._read(self._system, None)

    def raw_facts(self, index: int) -> dict[str, Any]:
        """What NVML returned for device `index`'s facts (system queries included), as JSON."""
        return {"index": index, **self.raw_system(), **self._read(self._facts, self._handle(index))}

    def raw_sample(self, index: int) -> dict[str, Any]:
        """What NVML returned for one live sample of device `index`, as JSON."""
        return self._read(self._samples, self._handle(index))

    def raw_processes(self, index: int) -> dict[str, Any]:
        """The processes NVML sees on device `index` (compute and graphics), as JSON."""
        return self._read(self._processes, self._handle(index))

    def device_facts(self, index: int) -> GpuFacts:
        """Device `index`'s facts (see `facts_from_raw`)."""
        return facts_from_raw(self.raw_facts(index))

    def sample(self, index: int) -> GpuSample:
        """One live sample of device `index` (see `sample_from_raw`)."""
        return sample_from_raw(self.raw_sample(index))


def _field(raw: Mapping[str, Any], spec: Call, convert: Callable[[Any], Any] = lambda v: v) -> Any:
    """One field from a raw dict: converted, or an `Unavailable` saying why not."""
    name = key(spec)
    if name not in raw:
        return Unavailable(f"{name} was not read")
    value = raw[name]
    missing = Unavailable.read(value)
    if missing is not None:
        return missing
    try:
        return convert(value)
    except (TypeError, ValueError, KeyError, IndexError):
        return Unavailable(f"unexpected value from {name}: {value!r}")


def _cuda_version(value: int) -> str:
    # nvml.h: NVML_CUDA_DRIVER_VERSION_MAJOR(v) = v / 1000, MINOR(v) = (v % 1000) / 10.
    return f"{int(value) // 1000}.{int(value) % 1000 // 10}"


def _compute_capability(value: Sequence[int]) -> str:
    major, minor = value
    return f"{int(major)}.{int(minor)}"


def _pci_id(value: int) -> str:
    # nvml.h nvmlPciInfo_t: pciDeviceId is device << 16 | vendor, pciSubSystemId likewise; shown as nvidia-smi does.
    return f"0x{int(value) & 0xFFFFFFFF:08X}"


def sysfs_bus_id(bus_id: str) -> str:
    """NVML's PCI bus id ('00000000:3B:00.0') in the form Linux sysfs uses ('0000:3b:00.0')."""
    domain, rest = bus_id.strip().split(":", 1)
    return f"{int(domain, 16):04x}:{rest.lower()}"


def _modes(value: Sequence[int]) -> Modes:
    current, pending = value
    return Modes(bool(current), bool(pending))


def _remapped(value: Sequence[int]) -> RemappedRows:
    corrected, uncorrected, pending, failed = value
    return RemappedRows(int(corrected), int(uncorrected), bool(pending), bool(failed))


def facts_from_raw(raw: Mapping[str, Any]) -> GpuFacts:
    """The facts of one GPU from NVML's raw answers (`Nvml.raw_facts` or a recording).

    Units: bytes, W, MHz, °C. Every field that NVML could not give is an `Unavailable`.
    """

    def ecc(kind: str, counter: str) -> Any:
        return _field(
            raw, ("nvmlDeviceGetTotalEccErrors", f"NVML_MEMORY_ERROR_TYPE_{kind}", f"NVML_{counter}_ECC"), int
        )

    pages = "nvmlDeviceGetRetiredPages"
    single = _field(raw, (pages, "NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS"), len)
    double = _field(raw, (pages, "NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR"), len)
    retired = (
        single if isinstance(single, Unavailable) else double if isinstance(double, Unavailable) else single + double
    )
    limit = "nvmlDeviceGetTemperatureThreshold"
    return GpuFacts(
        index=raw.get("index"),
        name=_field(raw, ("nvmlDeviceGetName",), str),
        uuid=_field(raw, ("nvmlDeviceGetUUID",), str),
        pci_bus_id=_field(raw, ("nvmlDeviceGetPciInfo",), lambda v: sysfs_bus_id(v["busId"])),
        pci_device_id=_field(raw, ("nvmlDeviceGetPciInfo",), lambda v: _pci_id(v["pciDeviceId"])),
        pci_subsystem_id=_field(raw, ("nvmlDeviceGetPciInfo",), lambda v: _pci_id(v["pciSubSystemId"])),
        memory_total_bytes=_field(raw, ("nvmlDeviceGetMemoryInfo",), lambda v: int(v["total"])),
        driver_version=_field(raw, ("nvmlSystemGetDriverVersion",), str),
        cuda_driver_version=_field(raw, ("nvmlSystemGetCudaDriverVersion_v2",), _cuda_version),
        nvml_version=_field(raw, ("nvmlSystemGetNVMLVersion",), str),
        compute_capability=_field(raw, ("nvmlDeviceGetCudaComputeCapability",), _compute_capability),
        # nvml.h: power limits are in milliwatts.
        power_limit_w=_field(raw, ("nvmlDeviceGetEnforcedPowerLimit",), lambda v: v / 1000),
        max_sm_clock_mhz=_field(raw, ("nvmlDeviceGetMaxClockInfo", "NVML_CLOCK_SM"), int),
        max_mem_clock_mhz=_field(raw, ("nvmlDeviceGetMaxClockInfo", "NVML_CLOCK_MEM"), int),
        ecc_mode=_field(raw, ("nvmlDeviceGetEccMode",), _modes),
        ecc_corrected_volatile=ecc("CORRECTED", "VOLATILE"),
        ecc_uncorrected_volatile=ecc("UNCORRECTED", "VOLATILE"),
        ecc_corrected_aggregate=ecc("CORRECTED", "AGGREGATE"),
        ecc_uncorrected_aggregate=ecc("UNCORRECTED", "AGGREGATE"),
        retired_pages=retired,
        retired_pages_single_bit=single,
        retired_pages_double_bit=double,
        retired_pages_pending=_field(raw, ("nvmlDeviceGetRetiredPagesPendingStatus",), bool),
        remapped_rows=_field(raw, ("nvmlDeviceGetRemappedRows",), _remapped),
        pcie=NvmlPcie(
            current_generation=_field(raw, ("nvmlDeviceGetCurrPcieLinkGeneration",), int),
            current_width=_field(raw, ("nvmlDeviceGetCurrPcieLinkWidth",), int),
            # nvml.h: the max this GPU and this system allow together; the next is the GPU's own max.
            max_generation=_field(raw, ("nvmlDeviceGetMaxPcieLinkGeneration",), int),
            gpu_max_generation=_field(raw, ("nvmlDeviceGetGpuMaxPcieLinkGeneration",), int),
            max_width=_field(raw, ("nvmlDeviceGetMaxPcieLinkWidth",), int),
            replay_count=_field(raw, ("nvmlDeviceGetPcieReplayCounter",), int),
        ),
        mig_mode=_field(raw, ("nvmlDeviceGetMigMode",), _modes),
        slowdown_temperature_c=_field(raw, (limit, "NVML_TEMPERATURE_THRESHOLD_SLOWDOWN"), int),
        shutdown_temperature_c=_field(raw, (limit, "NVML_TEMPERATURE_THRESHOLD_SHUTDOWN"), int),
        gpu_max_temperature_c=_field(raw, (limit, "NVML_TEMPERATURE_THRESHOLD_GPU_MAX"), int),
        persistence_mode=_field(raw, ("nvmlDeviceGetPersistenceMode",), bool),
    )


def clocks_event_names(mask: int) -> list[str]:
    """The names of the clocks-event (throttle) reasons set in `mask`; unknown bits as 'bit_0x…'."""
    names = [name for bit, name in CLOCKS_EVENT_REASONS.items() if mask & bit]
    unknown = mask & ~sum(CLOCKS_EVENT_REASONS)
    names += [f"bit_{1 << b:#x}" for b in range(64) if unknown & (1 << b)]
    return names


def _kib_to_mbs(value: int) -> float:
    # nvml.h gives PCIe throughput in KB/s over a 20 ms window; KB = 1024 bytes as nvitop reads it.
    return int(value) * 1024 / 1e6


def sample_from_raw(raw: Mapping[str, Any]) -> GpuSample:
    """One live sample of a GPU from NVML's raw answers (`Nvml.raw_sample` or a recording).

    Units: %, bytes, °C, W, MHz, MB/s (10^6 bytes); `clocks_event_reasons` holds the bitmask and its names.
    """
    reasons = _field(raw, ("nvmlDeviceGetCurrentClocksEventReasons",), int)
    return GpuSample(
        util_gpu_pct=_field(raw, ("nvmlDeviceGetUtilizationRates",), lambda v: float(v["gpu"])),
        util_mem_pct=_field(raw, ("nvmlDeviceGetUtilizationRates",), lambda v: float(v["memory"])),
        mem_used_bytes=_field(raw, ("nvmlDeviceGetMemoryInfo",), lambda v: int(v["used"])),
        temperature_c=_field(raw, ("nvmlDeviceGetTemperature", "NVML_TEMPERATURE_GPU"), float),
        # nvml.h: power usage is in milliwatts.
        power_w=_field(raw, ("nvmlDeviceGetPowerUsage",), lambda v: v / 1000),
        sm_clock_mhz=_field(raw, ("nvmlDeviceGetClockInfo", "NVML_CLOCK_SM"), float),
        mem_clock_mhz=_field(raw, ("nvmlDeviceGetClockInfo", "NVML_CLOCK_MEM"), float),
        pcie_rx_mbs=_field(raw, ("nvmlDeviceGetPcieThroughput", "NVML_PCIE_UTIL_RX_BYTES"), _kib_to_mbs),
        pcie_tx_mbs=_field(raw, ("nvmlDeviceGetPcieThroughput", "NVML_PCIE_UTIL_TX_BYTES"), _kib_to_mbs),
        clocks_event_reasons=reasons
        if isinstance(reasons, Unavailable)
        else ClockEvents(reasons, tuple(clocks_event_names(reasons))),
        pcie_generation=_field(raw, ("nvmlDeviceGetCurrPcieLinkGeneration",), int),
        pcie_width=_field(raw, ("nvmlDeviceGetCurrPcieLinkWidth",), int),
    )


def processes_from_raw(raw: Mapping[str, Any]) -> list[tuple[int, int | None, str]] | Unavailable:
    """(pid, GPU memory bytes or None, "compute" or "graphics") of each process on a GPU, from NVML's raw
    answers (`Nvml.raw_processes`); Unavailable when NVML could list neither."""
    lists = [(_field(raw, spec), kind) for spec, kind in zip(PROCESS_CALLS, ("compute", "graphics"), strict=True)]
    if isinstance(first := lists[0][0], Unavailable) and isinstance(lists[1][0], Unavailable):
        return first
    found: dict[int, tuple[int, int | None, str]] = {}
    for listed, kind in lists:
        for entry in [] if isinstance(listed, Unavailable) else listed or []:
            if isinstance(entry, Mapping) and isinstance(entry.get("pid"), int):
                used = entry.get("usedGpuMemory")
                found.setdefault(entry["pid"], (entry["pid"], used if isinstance(used, int) else None, kind))
    return list(found.values())


def record(samples: int = 5, interval_s: float = 0.2) -> dict[str, Any]:
    """Everything NVML returns on this machine, raw, as a recording for test fixtures."""
    try:
        binding = metadata.version("nvidia-ml-py")
    except metadata.PackageNotFoundError:
        binding = "unknown"
    recording: dict[str, Any] = {
        "format": RECORDING_FORMAT,
        "recorded_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "nvidia_ml_py": binding,
        "os": platform.platform(),
    }
    nvml = Nvml.open()
    if isinstance(nvml, Unavailable):
        return {**recording, "open": nvml.record()}
    with nvml:
        count = nvml.device_count()
        recording["device_count"] = to_json(count)
        devices: list[dict[str, Any]] = [
            {"facts": nvml.raw_facts(i), "samples": []} for i in range(0 if isinstance(count, Unavailable) else count)
        ]
        for _ in range(samples if devices else 0):
            for i, device in enumerate(devices):
                device["samples"].append(nvml.raw_sample(i))
            time.sleep(interval_s)
        recording["devices"] = devices
    return recording


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpuconfig.probe.nvml", description=record.__doc__)
    parser.add_argument("--record", type=Path, required=True, metavar="FILE", help="JSON file to write")
    parser.add_argument("--samples", type=int, default=5, help="live samples per GPU (default 5)")
    args = parser.parse_args(argv)
    recording = record(samples=args.samples)
    args.record.write_text(json.dumps(recording, indent=1) + "\n", encoding="utf-8")
    if "open" in recording:
        sys.stderr.write(f"nothing recorded: {recording['open']['unavailable']}\n")
        return 1
    sys.stdout.write(f"recorded {len(recording['devices'])} GPU(s) to {args.record}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
