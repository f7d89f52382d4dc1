"""The child nvml_guard starts: this app run again with CHECK_NVML, which starts NVML and ends.

Only a crash or a hang here keeps the parent from starting NVML itself (nvml_guard reads how this ended).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gpuconfig.core.workers.process import die_with
from gpuconfig.probe import nvml
from gpuconfig.probe.model import Unavailable


def main(args: Sequence[str] = ()) -> int:
    """The child: start NVML and ask what the parent (its process id in `args`) asks first. A refusal (no
    driver) is an answer the parent reads itself; only a crash or a hang keeps the parent from starting NVML."""
    die_with(int(args[0]) if args else os.getppid())  # a hung nvmlInit must not outlive the app
    if not isinstance(nvml.call("nvmlInit"), Unavailable):
        nvml.call("nvmlDeviceGetCount")
        nvml.call("nvmlShutdown")
    return 0
