"""The suite's entry: read the request and say the plan before torch is imported (so a Python without it
still answers), then run the benchmarks, or say why torch cannot be used."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from typing import Any

from .events import EVENTS_FD, Events
from .plan import plan

# What the benchmarks import of torch: where any of it fails to import, this Python has no usable torch.
TORCH_MODULES = (
    "torch", "torch.distributed", "torch.multiprocessing", "torch.nn.functional", "torch.utils._python_dispatch",
    "torch.utils._pytree", "torch.utils.checkpoint", "torch.utils.data",
)  # fmt: skip


def read_request(events: Events) -> dict[str, Any]:
    """Read the request and announce the plan: before torch is imported, so a Python without it still answers."""
    request: dict[str, Any] = json.loads(sys.stdin.read() or "{}")
    suite = str(request.get("suite") or "quick")
    events.emit({"event": "plan", "suite": suite, "benchmarks": plan(suite, request.get("only"))})
    return request


def torch_unavailable() -> dict[str, Any] | None:
    """The torch event that says why torch cannot be imported here; None when it can."""
    try:
        for name in TORCH_MODULES:
            importlib.import_module(name)
    except Exception as exc:  # ImportError, or a broken install raising OSError or RuntimeError
        reason = f"{type(exc).__name__}: {exc}".strip().splitlines()[0]
        missing = isinstance(exc, ModuleNotFoundError) and exc.name == "torch"
        failure = "no_torch" if missing else "broken_torch"
        return {"event": "torch", "unavailable": f"no torch in {sys.executable}: {reason}", "failure": failure}
    return None


def main() -> int:
    began = time.monotonic()  # the request's budget counts from here, importing torch included
    events = Events(os.fdopen(int(os.environ.pop(EVENTS_FD)), "w", encoding="utf-8"))
    request = read_request(events)
    if request.get("plan_only"):
        return 0
    unavailable = torch_unavailable()
    if unavailable is not None:
        events.emit(unavailable)
        return 0
    from .suite import run

    return run(request, events, began)


if __name__ == "__main__":
    sys.exit(main())
