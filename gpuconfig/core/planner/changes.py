"""The changes a plan may make to the workload so that it fits a machine, each traced like the workload itself.

A plan searches hardware and changes together (core/planner/recommend.py): on each machine it runs the
workload as asked if it fits, else the cheapest change that makes it fit. Changes that keep what is trained
come first: a smaller micro-batch with gradient accumulation keeping the effective batch (answered from the
fit, core/planner/gpus.py), activation checkpointing, 8-bit AdamW, both, sharding over the machine's cards
(ZeRO, FSDP). Changes of what is trained or computed (LoRA, QLoRA, quantized weights) are tried only when the
user allows them. The traced ones are the fits-if table's (core/workload/advice.py), so a plan and the
Workload tab's advice name the same changes.
"""

from __future__ import annotations

from collections.abc import Callable

from gpuconfig.core.workload.advice import Variant, combined_changes, trace_each, traced_changes
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import Workload

__all__ = ["Variant", "candidate_changes", "traced_variants"]


def candidate_changes(workload: Workload, allow_result_changes: bool) -> list[tuple[str, Workload, bool]]:
    """(label, changed workload, changes the result) a plan may trace, cheapest first."""
    options = traced_changes(workload) + combined_changes(workload)
    return [c for c in options if allow_result_changes or not c[2]]


def traced_variants(
    asked: Variant,
    allow_result_changes: bool,
    service: TraceService,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Variant]:
    """`asked` and each change a plan may make, traced (advice.trace_each: the fits-if table traces the same)."""
    changes = candidate_changes(asked.workload, allow_result_changes)
    return [asked, *trace_each(changes, service, cancelled, progress)]
