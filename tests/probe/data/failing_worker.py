"""A probe worker that fails for real, for the runner's tests: it speaks the worker's JSON lines on the channel
boot.py (gpuconfig/workers) keeps for it, and needs no torch.

Benchmarks: "steady" gives a figure; "segfault" reads address 0; "hang" sleeps forever; "exhaust_memory"
lowers its own address-space limit (RLIMIT_AS) and allocates until Python raises MemoryError, which it
does not catch; "children" starts two sleeping child processes and then sleeps, for the cancel test.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import subprocess
import sys
import time

NAMES = ("steady", "segfault", "hang", "exhaust_memory", "children", "steady_after")
HEADROOM_BYTES = 256 * 2**20  # the address space this process may still take once limited


def emit(event: dict[str, object]) -> None:
    CHANNEL.write(json.dumps(event) + "\n")
    CHANNEL.flush()


def exhaust_memory() -> None:
    with open("/proc/self/status", encoding="ascii") as status:
        size_kib = int(next(line for line in status if line.startswith("VmSize:")).split()[1])
    limit = size_kib * 1024 + HEADROOM_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    held = []
    while True:
        held.append(bytearray(16 * 2**20))  # zero-filled, so really touched


def main() -> int:
    request = json.loads(sys.stdin.read())
    names = list(request.get("only") or NAMES)
    emit({"event": "plan", "suite": request.get("suite"), "benchmarks": names})
    if request.get("plan_only"):
        return 0
    emit({"event": "torch", "version": "none (test worker)", "device": "cpu"})
    for index, name in enumerate(names):
        emit({"event": "start", "name": name, "index": index, "total": len(names), "what": name, "device": "cpu"})
        if name == "segfault":
            ctypes.string_at(0)
        elif name == "hang":
            time.sleep(3600)
        elif name == "exhaust_memory":
            exhaust_memory()
        elif name == "children":
            for _ in range(2):
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            emit({"event": "result", "name": name, "dtype": "", "device": "cpu", "value": 1.0, "unit": "x"})
            time.sleep(3600)
        emit({"event": "result", "name": name, "dtype": "fp32", "device": "cpu", "value": 1.0, "unit": "GB/s"})
        emit({"event": "done", "name": name})
    return 0


if __name__ == "__main__":
    CHANNEL = os.fdopen(int(os.environ.pop("GPUCONFIG_EVENTS_FD")), "w", encoding="utf-8")
    sys.exit(main())
