"""What glibc's heap holds on the CPU beyond the tensors: the small blocks replayed among them, and any
measured share left on top.

The trace replays every tensor allocation and free through this machine's malloc (workers/tracer/heap.py) and
counts the growth of the heap beyond the tensors. Tensors alone are not what a real run's malloc sees: each
storage comes with a few header blocks (StorageImpl, TensorImpl), and each autograd node a training step
creates holds about four small objects (the node, its edges, saved variables) until backward runs it. Placed
between the tensors, those blocks keep the holes freed temporaries leave from merging, so the heap grows well
past the tensors. The trace marks every node where the model creates and releases it
(workers/tracer/autograd_nodes.py), and the replay allocates the blocks with malloc there; how many there are
and their sizes are PyTorch's, measured by benchmarks/autograd_objects.py from the malloc stream of a
reference model that is none of the accuracy benchmark's families (catalog/autograd_objects.toml, read here).
Where each small block lands is not known and moves the heap (up to ±10 % for a ViT-base step with
checkpointing), and glibc's answer also turns on the exact state its heap starts from (a few dozen bytes in
its top chunk moved a 4096-token prompt's heap by about 230 MB between two traces, as real runs of it move
between two peaks), so each replay first settles the heap to one of a few set starts (workers/tracer/heap.py,
TOP_RESTS), the same in every process, and is made with several shuffled placements of the small blocks' sizes
from each start; the median is kept (workers/tracer/point.py, HEAP_DRAWS).
Some CPU kernels also allocate aligned blocks of their own and free them
before they return (GELU's oneDNN objects, on every call); the same measurement finds them per operator, the
trace marks where those operators ran (workers/tracer/kernel_scratch.py), and the replay performs them there.
Convolutions and batch norms take buffers that follow their shapes and the CPU (oneDNN's reorders to its blocked
layouts): each distinct call is run once for real on this machine after the trace, its blocks recorded by
PyTorch's profiler, and the replay performs them around the call's outputs (kernel_scratch.measure_scripts).
On benchmarks/estimate_accuracy_cpu.py's 20 cases of 10 families the estimate is then within 2.5 % of the
measured peak at the median, worst +9.6 %; replaying the tensors alone it was 9.0 %, worst -35.8 %. On 12 cases of
10 families it had not been compared against when they were added (--cases cpu_heldout_cases.toml): median
2.0 %, worst +10.0 % (OPT-125m generating); MobileNetV2 among them is where the convolutions' buffers were found,
so it is no longer out of sample.

What is left may be a measured share of a traced quantity (catalog/cpu_heap.toml): the benchmark fits each
candidate share on half the model families, reports its error on the other half (and the other way round),
and keeps the candidate with the smaller held-out error, "none" (nothing added) among them; with the small
blocks replayed every candidate's share fits to 0 and "none" is kept. Only memory the heap serves can be kept:
mallopt(3), M_MMAP_THRESHOLD, requests at least the threshold large are mmap(2)ed and given back when freed;
the threshold starts at 128 KiB and rises to each larger block freed, up to 32 MiB on 64-bit, and
workers/tracer/heap_profile.py follows that rule over the traced allocations for the candidates that read
heap-served bytes.
"""

from __future__ import annotations

import statistics
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP
from gpuconfig.core.paths import catalog_dir

OBJECTS_FILE = "autograd_objects.toml"
# The overhead's name in English; an answer's line says it in the language in use (core/workload/estimate.py).
NAME = QT_TRANSLATE_NOOP("Workload", "CPU heap kept by glibc (freed blocks pinned by the run's small objects)")
HEAP_FILE = "cpu_heap.toml"
# What the kept memory may be a share of: name -> the traced quantities it sums, at the workload's batch and length.
PREDICTORS: dict[str, tuple[str, ...]] = {
    "none": (),  # nothing added: the replay alone is the estimate
    "heap_freed": ("heap_freed_at_peak_bytes",),
    "heap_allocated": ("heap_allocated_bytes",),
    "activations": ("peak.activations", "peak.temporaries", "peak.inputs"),
}
# The traced quantities the predictors read, for the fit to carry (core/workload/estimate.py).
TRACED_KEYS = ("heap_freed_at_peak_bytes", "heap_allocated_bytes", "heap_live_at_peak_bytes", "heap_high_water_bytes")


def predictor_bytes(predictor: str, at: Callable[[str], float]) -> float:
    """The predictor's traced bytes, reading each quantity through `at(key)`."""
    return sum(at(key) for key in PREDICTORS[predictor])


def fit_share(cases: list[Mapping[str, float]]) -> float:
    """The median over cases of (measured - estimate without this term) / predictor bytes, at least 0: the
    share a held-out case is predicted with. Each case maps "measured", "unfitted" and "predictor"."""
    shares = [(c["measured"] - c["unfitted"]) / c["predictor"] for c in cases if c["predictor"] > 0]
    return max(0.0, statistics.median(shares)) if shares else 0.0


@cache
def measured_share() -> tuple[str, float, str] | None:
    """The predictor, its share and the source of both (catalog/cpu_heap.toml); None until
    benchmarks/estimate_accuracy_cpu.py has measured them."""
    path = catalog_dir() / HEAP_FILE
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    predictor = str(data.get("predictor", "activations"))
    if predictor not in PREDICTORS:
        return None
    return predictor, float(data["share"]), str(data["source"])


def kept_bytes(at: Callable[[str], float]) -> tuple[int, str] | None:
    """The bytes the heap keeps beyond the replayed tensors, and their source; None before they are measured."""
    measured = measured_share()
    if measured is None or measured[0] == "none":
        return None
    predictor, share, source = measured
    return round(share * predictor_bytes(predictor, at)), source


@cache
def autograd_objects() -> dict[str, Any] | None:
    """The small blocks a CPU training step allocates beside its tensors, as measured by
    benchmarks/autograd_objects.py from a real run's malloc stream (catalog/autograd_objects.toml): per
    autograd node of each kind ("plain", "checkpointed": `per_node` blocks and the share of each size) and
    per tensor storage ("tensor": `per_storage`, the shares, and the sizes allocated `before` it), and per
    operator whose CPU kernel allocates blocks of its own ("kernels": name -> its script, sizes allocated and -n
    freeing the n-th). None when the file is absent or damaged: the heap replay then follows the tensors alone."""
    path = catalog_dir() / OBJECTS_FILE
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        tables: dict[str, Any] = {}
        for name, count in (("plain", "per_node"), ("checkpointed", "per_node"), ("tensor", "per_storage")):
            table = data[name]
            per = float(table[count])
            sizes = [[int(size), float(share)] for size, share in table["sizes"]]
            if not (0 <= per < 100 and sizes and all(0 < s < 1 << 20 and 0 <= f <= 1 for s, f in sizes)):
                return None
            tables[name] = {count: per, "sizes": sizes}
        tables["tensor"]["before"] = [int(size) for size in data["tensor"].get("before", [])]
        table = data.get("kernels", {})
        if not isinstance(table, dict) or not all(isinstance(script, list) for script in table.values()):
            return None
        kernels = {str(name): [int(step) for step in script] for name, script in table.items()}
        if not all(_script_ok(script) for script in kernels.values()):
            return None
        tables["kernels"] = kernels
        return tables | {"torch": str(data.get("torch", "")), "source": str(data.get("source", ""))}
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        return None


def _script_ok(script: list[int]) -> bool:
    """A kernel's script allocates blocks under 1 MiB and frees every block it allocated, once, before it ends
    (a block left live would pile up with every call of the kernel)."""
    allocated, freed = 0, set()
    for step in script:
        if step > 0:
            if step >= 1 << 20:
                return False
            allocated += 1
        elif not (0 < -step <= allocated) or -step in freed:
            return False
        else:
            freed.add(-step)
    return len(freed) == allocated
