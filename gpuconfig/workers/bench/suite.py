"""The benchmarks of a run, one after the other, on each device they measure."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import torch

from .allreduce import allreduce
from .compute import matmul
from .data_io import dataloader, disk_read
from .events import Events
from .plan import BENCHMARKS, PER_DEVICE, box_s, plan
from .timing import Box, Run, release_memory
from .torch_facts import device_problem, devices_to_measure, torch_facts
from .training import train_cnn, train_from_host, train_transformer
from .transfer import d2h_bandwidth, h2d_bandwidth, memory_bandwidth

RUNNERS: dict[str, Callable[[Run, Events], None]] = {
    "matmul": matmul,
    "memory_bandwidth": memory_bandwidth,
    "h2d_bandwidth": h2d_bandwidth,
    "d2h_bandwidth": d2h_bandwidth,
    "train_cnn": train_cnn,
    "train_transformer": train_transformer,
    "train_from_host": train_from_host,
    "dataloader": dataloader,
    "disk_read": disk_read,
    "allreduce": allreduce,
}


def run(request: dict[str, Any], events: Events, began: float) -> int:
    """Say torch's facts, then run each benchmark asked for; one that raises fails alone and the suite goes on.

    Each benchmark on each device gets a time box: its own (plan.BOX_S), or, when the request's `budget_s`
    (seconds from `began`, the worker's start) has less left than the boxes still to come add up to, its
    share of what is left."""
    suite = str(request.get("suite") or "quick")
    names = plan(suite, request.get("only"))
    devices = devices_to_measure(request.get("device"))
    events.emit(torch_facts(devices[0]))
    torch.manual_seed(0)
    budget = request.get("budget_s")
    runs = [(name, device) for name in names for device in (devices if name in PER_DEVICE else devices[:1])]
    to_come = [box_s(name, suite) for name, _ in runs]
    for index, name in enumerate(names):
        what, unit = BENCHMARKS.get(name, (name, ""))
        for device in devices if name in PER_DEVICE else devices[:1]:
            box = _box(to_come, budget, began)
            to_come.pop(0)
            events.name, events.device = name, str(device)
            shown = f"{what} ({device})" if len(devices) > 1 and name in PER_DEVICE else what
            start = {"event": "start", "name": name, "index": index, "total": len(names), "what": shown}
            events.emit({**start, "device": str(device), "unit": unit})
            problem = device_problem(device)
            if _spent(budget, began):
                events.skipped(SPENT)
                continue
            try:
                if name not in RUNNERS:
                    raise LookupError(f"no benchmark named {name!r}; known: {', '.join(BENCHMARKS)}")
                if problem:
                    raise RuntimeError(problem)
                with _quiet_warnings():
                    RUNNERS[name](Run(suite, device, request, box), events)
            except Exception as exc:
                events.error(exc)
            if not problem:
                release_memory(device)
        events.emit({"event": "done", "name": name})
    return 0


SPENT = "not run: the run's time budget was spent before it (a busy or slow machine; --budget allows more)"


def _spent(budget: object, began: float) -> bool:
    return isinstance(budget, int | float) and not isinstance(budget, bool) and time.monotonic() - began >= budget


def _box(to_come: list[float], budget: object, began: float) -> Box:
    """The next benchmark's time box: its own, shrunk in proportion when the budget left cannot hold all
    the boxes still to come."""
    own = to_come[0]
    if isinstance(budget, int | float) and not isinstance(budget, bool):
        ends = began + float(budget)
        left = ends - time.monotonic()
        return Box.of(max(left, 0.0) * own / sum(to_come) if left < sum(to_come) else own, ends)
    return Box.of(own)


@contextlib.contextmanager
def _quiet_warnings() -> Iterator[None]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # library deprecation notes are not results
        yield
