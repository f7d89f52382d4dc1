"""Live metrics: psutil and NVML sampled on a fixed cadence into ring buffers, handed out as frozen snapshots.

A daemon worker thread samples on a monotonic schedule (tick k at start + k / hz, so sleeping never
drifts; ticks it cannot meet are skipped, and the real sample times are recorded). Buffers are
preallocated for `window_s` at the highest rate, so nothing grows while sampling; `snapshot()` copies the
last `window_s` seconds under a short lock.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psutil  # type: ignore[import-untyped, unused-ignore]

from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.probe import nvml
from gpuconfig.probe.gpu_facts import ClockEvents, GpuSample
from gpuconfig.probe.model import Unavailable

LINUX = sys.platform.startswith("linux")
MIN_HZ = 1.0
MAX_HZ = 10.0  # issue 4: the user sets 1-10 Hz
SERIES_FORMAT = "gpuconfig.probe.series/1"
_MB = 1e6
_GIB = 2**30


def _mask(events: ClockEvents | Unavailable) -> int | Unavailable:
    return events if isinstance(events, Unavailable) else events.mask


def _gib(value: int | Unavailable) -> float | Unavailable:
    return value if isinstance(value, Unavailable) else value / _GIB


# Per GPU: channel suffix, unit, label, and how to get the value from an NVML sample.
_GPU_CHANNELS: tuple[tuple[str, str, str, Callable[[GpuSample], float | Unavailable]], ...] = (
    ("util", "%", "utilisation", lambda s: s.util_gpu_pct),
    ("mem_used", "GiB", "memory used", lambda s: _gib(s.mem_used_bytes)),
    ("temp", "°C", "temperature", lambda s: s.temperature_c),
    ("power", "W", "power", lambda s: s.power_w),
    ("sm_clock", "MHz", "SM clock", lambda s: s.sm_clock_mhz),
    ("mem_clock", "MHz", "memory clock", lambda s: s.mem_clock_mhz),
    ("pcie_rx", "MB/s", "PCIe receive", lambda s: s.pcie_rx_mbs),
    ("pcie_tx", "MB/s", "PCIe transmit", lambda s: s.pcie_tx_mbs),
    ("throttle", "bitmask", "clock event reasons", lambda s: _mask(s.clocks_event_reasons)),
    ("pcie_gen", "generation", "PCIe generation", lambda s: s.pcie_generation),
    ("pcie_width", "lanes", "PCIe width", lambda s: s.pcie_width),
)


@dataclass(frozen=True, eq=False)
class Series:
    """Recorded samples: `t` in seconds since start, one array per channel (copies), phase marks.

    A value that could not be read is NaN. `unavailable` names what is not sampled at all, and why.
    """

    t: np.ndarray
    channels: dict[str, np.ndarray]
    units: dict[str, str]
    labels: dict[str, str]
    marks: tuple[tuple[float, str], ...] = ()
    hz: float = 0.0
    unavailable: dict[str, str] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """The JSON form (NaN as null), as `write_json` writes it."""
        return {
            "format": SERIES_FORMAT,
            "hz": self.hz,
            "t": [round(float(v), 4) for v in self.t],
            "channels": {name: [_json_number(v) for v in values] for name, values in self.channels.items()},
            "units": self.units,
            "labels": self.labels,
            "marks": [{"t": round(t, 4), "name": name} for t, name in self.marks],
            "unavailable": self.unavailable,
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Series:
        return cls(
            t=np.asarray(data["t"], dtype=np.float64),
            channels={
                k: np.array([np.nan if v is None else v for v in vs], dtype=np.float64)
                for k, vs in data["channels"].items()
            },
            units=dict(data.get("units", {})),
            labels=dict(data.get("labels", {})),
            marks=tuple((float(m["t"]), str(m["name"])) for m in data.get("marks", [])),
            hz=float(data.get("hz", 0.0)),
            unavailable=dict(data.get("unavailable", {})),
        )


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 4)


@dataclass(frozen=True)
class HostCounters:
    """Cumulative host counters at one moment; the sampler turns two of them into rates.

    cpu[0] is all CPUs, cpu[1 + i] core i: (total, idle) time in any one unit, idle including I/O wait,
    as psutil counts busy time. NaN where a counter is missing.
    """

    cpu: tuple[tuple[float, float], ...]
    memory_used_pct: float
    disk_read_bytes: float
    disk_write_bytes: float
    net_rx_bytes: float
    net_tx_bytes: float


class PsutilCounters:
    """Host counters through psutil, on every OS psutil supports."""

    def __init__(self, cores: int) -> None:
        self._cores = cores
        self.missing = "" if psutil.disk_io_counters() is not None else "the OS reports no disk counters"

    @staticmethod
    def _times(t: Any) -> tuple[float, float]:
        # psutil's busy time: guest time is already inside user time on Linux; I/O wait is idle.
        total = sum(t) - getattr(t, "guest", 0.0) - getattr(t, "guest_nice", 0.0)
        return (total, t.idle + getattr(t, "iowait", 0.0))

    def read(self) -> HostCounters:
        per_cpu = [self._times(t) for t in psutil.cpu_times(percpu=True)][: self._cores]
        per_cpu += [(math.nan, math.nan)] * (self._cores - len(per_cpu))
        disk = psutil.disk_io_counters()
        nics = psutil.net_io_counters(pernic=True)
        return HostCounters(
            cpu=(self._times(psutil.cpu_times()), *per_cpu),
            memory_used_pct=psutil.virtual_memory().percent,
            disk_read_bytes=math.nan if disk is None else float(disk.read_bytes),
            disk_write_bytes=math.nan if disk is None else float(disk.write_bytes),
            net_rx_bytes=float(sum(n.bytes_recv for name, n in nics.items() if not name.startswith("lo"))),
            net_tx_bytes=float(sum(n.bytes_sent for name, n in nics.items() if not name.startswith("lo"))),
        )

    def close(self) -> None:
        pass


class ProcCounters:
    """Linux: the same counters from /proc, read through descriptors kept open.

    psutil opens, reads and parses each file on every call: at 10 Hz the sampler cost about 1 % of a core
    that way, half of it with this reader (benchmarks/probe_sampler.py). Disks are the whole disks listed
    in /sys/block when reading starts, as psutil counts them.
    """

    _FILES = ("stat", "meminfo", "diskstats", "net/dev")

    def __init__(self, cores: int, proc: Path = Path("/proc"), sysfs: Path = Path("/sys")) -> None:
        self._cores = cores
        self._fds: dict[str, int] = {}
        try:
            for name in self._FILES:
                self._fds[name] = os.open(proc / name, os.O_RDONLY)
        except OSError:
            self.close()
            raise
        self._disks = {name.encode() for name in os.listdir(sysfs / "block")}
        self.missing = ""

    def _text(self, name: str) -> bytes:
        fd, offset = self._fds[name], 0
        chunks: list[bytes] = []
        while True:
            chunk = os.pread(fd, 1 << 16, offset)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            offset += len(chunk)

    def read(self) -> HostCounters:
        cpu = [(math.nan, math.nan)] * (self._cores + 1)
        for line in self._text("stat").split(b"\n"):
            if not line.startswith(b"cpu"):
                break
            # user nice system idle iowait irq softirq steal (guest time is inside user: proc(5)).
            times = [float(v) for v in line.split()[1:9]]
            at = 0 if line[3:4] == b" " else int(line.split()[0][3:]) + 1
            if at <= self._cores:
                cpu[at] = (sum(times), times[3] + times[4])
        total = available = math.nan
        for line in self._text("meminfo").splitlines():
            if line.startswith(b"MemTotal:"):
                total = float(line.split()[1])
            elif line.startswith(b"MemAvailable:"):
                available = float(line.split()[1])
                break
        read = written = 0
        for line in self._text("diskstats").splitlines():
            fields = line.split()
            if len(fields) > 9 and fields[2] in self._disks:
                read += int(fields[5])  # sectors of 512 bytes whatever the device (Documentation/block/stat.rst)
                written += int(fields[9])
        rx = tx = 0
        for line in self._text("net/dev").splitlines()[2:]:
            name, _, rest = line.partition(b":")
            fields = rest.split()
            if len(fields) >= 9 and not name.strip().startswith(b"lo"):
                rx += int(fields[0])
                tx += int(fields[8])
        return HostCounters(
            cpu=tuple(cpu),
            memory_used_pct=100.0 * (total - available) / total,  # psutil's virtual_memory().percent
            disk_read_bytes=read * 512.0,
            disk_write_bytes=written * 512.0,
            net_rx_bytes=float(rx),
            net_tx_bytes=float(tx),
        )

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()


def host_counters(cores: int) -> ProcCounters | PsutilCounters:
    """The cheapest reader of host counters on this OS."""
    if LINUX:
        try:
            reader = ProcCounters(cores)
        except OSError:
            return PsutilCounters(cores)
        try:
            reader.read()
        except (OSError, ValueError, IndexError):
            reader.close()  # an unusual /proc: psutil knows more layouts
            return PsutilCounters(cores)
        return reader
    return PsutilCounters(cores)


class Sampler:
    """Samples host (/proc or psutil) and NVIDIA GPU (NVML) metrics on a worker thread at `hz` (1-10 Hz).

    `nvml_session` is an open `nvml.Nvml` (or why there is none); left out, the sampler opens its own and
    closes it on `stop()`. Opening NVML can take a while on some machines: do it off the GUI thread.
    """

    def __init__(
        self, hz: float = 2.0, window_s: float = 600.0, nvml_session: nvml.Nvml | Unavailable | None = None
    ) -> None:
        self.notice = ""
        self._hz = self._clamp(hz)
        self._window_s = float(window_s)
        self._owns_nvml = nvml_session is None
        self._nvml = nvml.Nvml.open() if nvml_session is None else nvml_session
        self._unavailable: dict[str, str] = {}
        self._cores = psutil.cpu_count(logical=True) or 1
        self._reader: ProcCounters | PsutilCounters | None = None
        self._gpus = self._gpu_indices()
        self._names, self._units, self._labels = self._channels()
        capacity = max(2, math.ceil(self._window_s * MAX_HZ) + 1)
        self._t = np.full(capacity, np.nan)
        self._data = np.full((len(self._names), capacity), np.nan)
        self._row = np.full(len(self._names), np.nan)
        self._count = 0
        self._marks: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = 0.0
        self._previous: tuple[float, HostCounters] | None = None
        self.missed_ticks = 0

    @staticmethod
    def _clamp(hz: float) -> float:
        return min(MAX_HZ, max(MIN_HZ, float(hz)))

    def _gpu_indices(self) -> list[int]:
        if isinstance(self._nvml, Unavailable):
            self._unavailable["gpu"] = self._nvml.reason
            return []
        count = self._nvml.device_count()
        if isinstance(count, Unavailable):
            self._unavailable["gpu"] = count.reason
            return []
        if count == 0:
            self._unavailable["gpu"] = "NVML found no NVIDIA GPU"
        return list(range(count))

    def _channels(self) -> tuple[list[str], dict[str, str], dict[str, str]]:
        host = [("cpu.total", "%", "CPU, all cores")]
        host += [(f"cpu.core{i}", "%", f"CPU core {i}") for i in range(self._cores)]
        host += [
            ("ram.used", "%", "memory used"),
            ("disk.read", "MB/s", "disk read"),
            ("disk.write", "MB/s", "disk write"),
            ("net.rx", "MB/s", "network receive"),
            ("net.tx", "MB/s", "network transmit"),
        ]
        for i in self._gpus:
            host += [(f"gpu{i}.{suffix}", unit, f"GPU {i} {label}") for suffix, unit, label, _ in _GPU_CHANNELS]
        return [n for n, _, _ in host], {n: u for n, u, _ in host}, {n: label for n, _, label in host}

    @property
    def hz(self) -> float:
        return self._hz

    @property
    def channel_names(self) -> list[str]:
        return list(self._names)

    def set_rate(self, hz: float) -> float:
        """Sample at `hz` from the next tick, clamped to 1-10 Hz (`notice` then says so); returns the rate used."""
        rate = self._clamp(hz)
        self.notice = "" if rate == hz else f"sampling rate {hz:g} Hz is outside 1-10 Hz; using {rate:g} Hz"
        self._hz = rate
        self._wake.set()
        return rate

    def start(self) -> None:
        """Start a new recording; the first sample is taken one period after this call."""
        if self._thread is not None:
            return
        if self._owns_nvml and isinstance(self._nvml, nvml.Nvml) and self._nvml.closed:
            self._nvml = nvml.Nvml.open()  # restarted after stop(), which closed it
        with self._lock:
            self._count = 0
            self._marks.clear()
        self._reader = host_counters(self._cores)
        if self._reader.missing:
            self._unavailable["disk"] = self._reader.missing
        self._t0 = time.monotonic()
        self._previous = (self._t0, self._reader.read())
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="gpuconfig-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling and wait for the worker thread to end; close NVML if this sampler opened it."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._owns_nvml and isinstance(self._nvml, nvml.Nvml):
            self._nvml.close()

    @property
    def count(self) -> int:
        """Samples taken since `start()` (more than the snapshot holds once the ring buffer has wrapped)."""
        return self._count

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def mark(self, name: str) -> None:
        """Mark a phase (a benchmark starting, say) at the current time."""
        with self._lock:
            self._marks.append((time.monotonic() - self._t0 if self._t0 else 0.0, name))

    def _run(self) -> None:
        tick = self._t0
        while not self._stop.is_set():
            period = 1.0 / self._hz
            tick += period
            now = time.monotonic()
            if tick < now:  # overran: skip the ticks already missed, keep the cadence
                missed = math.ceil((now - tick) / period)
                self.missed_ticks += missed
                tick += missed * period
            if self._wake.wait(tick - now):
                self._wake.clear()
                if self._stop.is_set():
                    return
                tick = time.monotonic() - period  # rate changed: the next tick is one new period away
                continue
            try:
                self._sample()
            except Exception as error:  # a failing reading must not end the recording
                with self._lock:
                    self._unavailable["sampler"] = f"a sample failed: {error!r}"

    def _sample(self) -> None:
        assert self._reader is not None
        assert self._previous is not None
        row = self._row
        counters = self._reader.read()
        now = time.monotonic()
        before, previous = self._previous
        self._previous = (now, counters)
        for j, ((total, idle), (total0, idle0)) in enumerate(zip(counters.cpu, previous.cpu, strict=True)):
            row[j] = 100.0 * (1.0 - (idle - idle0) / (total - total0)) if total > total0 else math.nan
        at = len(counters.cpu)
        row[at] = counters.memory_used_pct
        dt = now - before
        for name in ("disk_read_bytes", "disk_write_bytes", "net_rx_bytes", "net_tx_bytes"):
            at += 1
            row[at] = (getattr(counters, name) - getattr(previous, name)) / dt / _MB if dt > 0 else math.nan
        at += 1
        session = self._nvml
        for i in self._gpus:
            reading = session.sample(i) if isinstance(session, nvml.Nvml) else None
            for _, _, _, value in _GPU_CHANNELS:
                got = value(reading) if reading is not None else math.nan
                row[at] = math.nan if isinstance(got, Unavailable) else got
                at += 1
        with self._lock:
            slot = self._count % self._t.size
            self._t[slot] = now - self._t0
            self._data[:, slot] = row
            self._count += 1

    def snapshot(self) -> Series:
        """A frozen copy of the last `window_s` seconds."""
        with self._lock:
            count, size = self._count, self._t.size
            if count <= size:
                t = self._t[:count].copy()
                data = self._data[:, :count].copy()
            else:
                start = count % size
                t = np.concatenate((self._t[start:], self._t[:start]))
                data = np.concatenate((self._data[:, start:], self._data[:, :start]), axis=1)
            marks = tuple(self._marks)
            missing = dict(self._unavailable)
        if t.size:
            keep = t >= t[-1] - self._window_s
            t, data = t[keep], data[:, keep]
        return Series(
            t=t,
            channels={name: data[j] for j, name in enumerate(self._names)},
            units=dict(self._units),
            labels=dict(self._labels),
            marks=marks,
            hz=self._hz,
            unavailable=missing,
        )


def write_json(series: Series, path: Path) -> None:
    """Save `series` as strict JSON (`Series.record()`; a figure that is not finite as null), atomically."""
    write_text_atomic(path, json_text(series.record(), indent=None))


def read_json(path: Path) -> Series:
    return Series.from_record(json.loads(Path(path).read_text(encoding="utf-8")))


def write_csv(series: Series, path: Path) -> None:
    """Save `series` as CSV, atomically: a header 't (s)', 'name (unit)', ..., 'mark'; empty cells for NaN.

    A phase mark is written on the first sample at or after it.
    """
    names = list(series.channels)
    marks: dict[int, str] = {}
    for t, name in series.marks:
        at = int(np.searchsorted(series.t, t))
        if at < series.t.size:
            marks[at] = f"{marks[at]}; {name}" if at in marks else name
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["t (s)", *(f"{n} ({series.units.get(n, '')})" for n in names), "mark"])
    columns = [series.channels[n] for n in names]
    for i, t in enumerate(series.t):
        cells = ["" if math.isnan(c[i]) else f"{c[i]:.6g}" for c in columns]
        writer.writerow([f"{t:.4f}", *cells, marks.get(i, "")])
    write_text_atomic(path, out.getvalue())
