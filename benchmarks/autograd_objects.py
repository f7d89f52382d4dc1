"""The small objects PyTorch's autograd graph holds per node on the CPU, measured from a real run's malloc stream.

    python benchmarks/autograd_objects.py        # needs Linux with glibc and a C compiler (cc)

A training step's forward creates, for every autograd node, a few small C++ objects (the node, its edges,
saved variables, tensor headers) that live until backward runs the node. The CPU estimate replays them among
the traced tensors through glibc's malloc (gpuconfig/workers/tracer/heap.py), because they decide how much of
the memory freed by temporaries glibc can reuse. How many there are and their sizes are properties of
PyTorch's C++ classes, not of a model, so they are measured here on a reference model built from plain
torch.nn (a GPT-style decoder: embedding, layer norms, fused-QKV attention through scaled_dot_product_attention,
a GELU MLP, cross-entropy), which is none of the model families the accuracy benchmark
(estimate_accuracy_cpu.py) reports on: every case there is predicted with numbers measured elsewhere.

How: malloc_log.c, compiled here and loaded with LD_PRELOAD, records every malloc and free of one forward
pass after a warm-up step; the blocks under 4 KiB malloc()ed during the forward and still live at its end are
the graph's objects. A second forward, not recorded, counts the nodes with the tracer's own node marker
(gpuconfig/workers/tracer/autograd_nodes.py), so the per-node figures use the same count the trace makes.
Measured twice: without checkpointing (every node "plain") and with every block under non-reentrant
activation checkpointing (its nodes "checkpointed": their saved tensors are packed away, so they hold other
objects); the few plain nodes of the checkpointed run (embedding, head, loss) are taken out with the plain
run's figures. Then the kernels' own blocks: a forward and backward of the plain run with every operator call
between two marker blocks, and per operator the aligned blocks its CPU kernel allocates and frees before it
returns, in order; the same again at another width and length on one thread, and only the operators whose
blocks are the same both times are kept (GELU's oneDNN objects; per-thread buffers, as layer norm's backward
and CPU flash attention take, follow the shapes and threads and are left out). The trace marks where the kept
operators run (gpuconfig/workers/tracer/kernel_scratch.py) and the replay performs their blocks there. The
optimizer step is left out: its in-place updates allocate a few 4- and 8-byte blocks only when called with
Python numbers, which the operator's name does not tell. Writes results/autograd_objects.json and
catalog/autograd_objects.toml.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CATALOG = HERE.parent / "catalog" / "autograd_objects.toml"
RESULTS = HERE / "results" / "autograd_objects.json"
HEADER_WINDOW = 4  # how many calls from its storage's allocation and free a tensor's header block is found
SMALL = 4096  # blocks below this are the graph's objects; tensors' storages are larger or posix_memalign()ed
RECORD = struct.Struct("<QQQ")
MIN_SHARE = 0.002  # sizes rarer than this are left out of the catalog's mix (their share goes to the others)
BEGIN, END = 4093, 4091  # the sizes of the marker blocks around each operator call (no kernel allocates them)
OTHER_SHAPE = (192, 96)  # width and tokens of the second look at the kernels' blocks, on one thread


def reference_model(checkpointed: bool, width: int = 256, seq: int = 128) -> tuple[Any, Any, Any]:
    """A GPT-style decoder from plain torch.nn, its optimizer and a batch (`width` and `seq` change its shapes)."""
    import torch
    from torch import nn
    from torch.nn import functional as F
    from torch.utils.checkpoint import checkpoint

    heads, layers, vocab, batch = 4, 4, 1000, 4

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.out = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.up, self.down = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

        def forward(self, x: Any) -> Any:
            b, t, _ = x.shape
            q, k, v = self.qkv(self.norm1(x)).split(width, dim=2)
            q, k, v = (z.view(b, t, heads, width // heads).transpose(1, 2) for z in (q, k, v))
            attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.out(attended.transpose(1, 2).reshape(b, t, width))
            return x + self.down(F.gelu(self.up(self.norm2(x))))

    class Decoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed, self.position = nn.Embedding(vocab, width), nn.Embedding(seq, width)
            self.blocks = nn.ModuleList(Block() for _ in range(layers))
            self.norm, self.head = nn.LayerNorm(width), nn.Linear(width, vocab)

        def forward(self, ids: Any) -> Any:
            x = self.embed(ids) + self.position(torch.arange(ids.shape[1]))
            for block in self.blocks:
                x = checkpoint(block, x, use_reentrant=False) if checkpointed else block(x)
            logits = self.head(self.norm(x))
            return F.cross_entropy(logits[:, :-1].reshape(-1, vocab), ids[:, 1:].reshape(-1))

    torch.manual_seed(0)
    model = Decoder()
    return model, torch.optim.AdamW(model.parameters()), torch.randint(0, vocab, (batch, seq))


def child(checkpointed: bool, library: str, log: str) -> dict[str, Any]:
    """In the LD_PRELOADed process: a warm-up step, a recorded forward, a counted forward."""
    sys.path.insert(0, str(HERE.parent / "gpuconfig" / "workers"))
    import torch
    from tracer.autograd_nodes import CHECKPOINTED, PLAIN, node_marker

    logger = ctypes.CDLL(library)
    model, optimizer, ids = reference_model(checkpointed)
    model(ids).backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if logger.malloc_log_start(log.encode()) != 0:
        raise OSError(f"cannot write {log}")
    loss = model(ids)
    logger.malloc_log_stop()
    loss.backward()
    optimizer.zero_grad(set_to_none=True)
    del loss
    if logger.malloc_log_start(f"{log}.step".encode()) != 0:  # a whole step: every storage allocated and freed
        raise OSError(f"cannot write {log}.step")
    model(ids).backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    logger.malloc_log_stop()
    marker = node_marker([])
    with marker:
        model(ids)
    kinds = Counter(kind for _, _, kind in marker.marks)
    operators = kernel_calls(model, ids, logger, f"{log}.kernels")
    optimizer.zero_grad(set_to_none=True)
    # The same calls at other shapes on one thread: a kernel whose blocks follow the shapes or the threads (a
    # per-thread buffer) differs there, and only what stays the same is kept (kernel_scripts).
    torch.set_num_threads(1)
    other, _, other_ids = reference_model(checkpointed, width=OTHER_SHAPE[0], seq=OTHER_SHAPE[1])
    others = kernel_calls(other, other_ids, logger, f"{log}.kernels.other")
    return {
        "plain": kinds[PLAIN],
        "checkpointed": kinds[CHECKPOINTED],
        "torch": torch.__version__,
        "ops": operators,
        "other ops": others,
    }


def kernel_calls(model: Any, ids: Any, logger: Any, log: str) -> list[str]:
    """A forward and backward recorded with every operator call between two marker blocks (malloc of
    BEGIN and END bytes, freed at once), so the blocks each kernel allocates for itself can be told apart
    (kernel_scripts); returns the operators' names in call order."""
    from tracer import torch_private

    interposed = ctypes.CDLL(None)  # the preloaded malloc_log's malloc, so the markers are recorded
    interposed.malloc.restype = ctypes.c_void_p
    interposed.malloc.argtypes = [ctypes.c_size_t]
    interposed.free.argtypes = [ctypes.c_void_p]
    names: list[str] = []

    def mark(size: int) -> None:
        interposed.free(interposed.malloc(size))

    class Marked(torch_private.dispatch_mode()):  # type: ignore[misc]
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            mark(BEGIN)
            out = func(*args, **(kwargs or {}))
            mark(END)
            names.append(str(func))
            return out

    with Marked():
        model(ids).backward()  # once unrecorded: the first call of a kernel may set up what later calls reuse
    names.clear()
    if logger.malloc_log_start(log.encode()) != 0:
        raise OSError(f"cannot write {log}")
    with Marked():
        model(ids).backward()
    logger.malloc_log_stop()
    return names


def kernel_scripts(log: Path, names: list[str]) -> dict[str, list[int]]:
    """Per operator, the aligned blocks its kernel allocates and frees before it returns, in order: a size
    allocates, -n frees the n-th block allocated. An operator whose calls differ keeps its most common script;
    one whose kernel allocates none is left out."""
    calls: dict[str, Counter[tuple[int, ...]]] = {}
    window: list[tuple[int, int, int]] | None = None
    call = 0
    for kind, pointer, size in records(log):
        if kind == 1 and size in (BEGIN, END):
            if size == BEGIN:
                window = []
            elif window is not None:
                calls.setdefault(names[call], Counter())[script_of(window)] += 1
                call, window = call + 1, None
            continue
        if window is not None:
            window.append((kind, pointer, size))
    if call != len(names):
        raise SystemExit(f"the kernel markers do not match the calls: {call} of {len(names)}")
    scripts = {name: list(counter.most_common(1)[0][0]) for name, counter in calls.items()}
    return {name: script for name, script in sorted(scripts.items()) if script}


def same_scripts(first: dict[str, list[int]], other: dict[str, list[int]]) -> dict[str, list[int]]:
    """The scripts that are the same at both shapes and thread counts: blocks that do not follow the shapes or
    the threads (oneDNN's objects), unlike per-thread buffers (layer norm's backward, CPU flash attention), whose
    sizes the replay could not know for another model on another machine."""
    return {name: script for name, script in first.items() if other.get(name) == script}


def script_of(window: list[tuple[int, int, int]]) -> tuple[int, ...]:
    """The aligned blocks allocated and freed within one call (its outputs outlive it and are left out)."""
    freed_inside: set[int] = set()
    live: dict[int, int] = {}  # pointer -> the index of its aligned allocation
    for index, (kind, pointer, _) in enumerate(window):
        if kind == 2:
            live[pointer] = index
        elif kind == 3 and pointer in live:
            freed_inside.add(live.pop(pointer))
    script: list[int] = []
    number: dict[int, int] = {}
    open_blocks: dict[int, int] = {}
    for index, (kind, pointer, size) in enumerate(window):
        if index in freed_inside:
            number[index] = len(number) + 1
            open_blocks[pointer] = index
            script.append(size)
        elif kind == 3 and pointer in open_blocks:
            script.append(-number[open_blocks.pop(pointer)])
    return tuple(script)


def records(log: Path) -> list[tuple[int, int, int]]:
    data = log.read_bytes()
    return list(RECORD.iter_unpack(data[: len(data) - len(data) % RECORD.size]))


def graph_objects(log: Path) -> Counter[int]:
    """Sizes of the small blocks malloc()ed during the recorded forward and still live at its end."""
    live: dict[int, tuple[int, int]] = {}
    for kind, pointer, size in records(log):
        if kind == 3:
            live.pop(pointer, None)
        else:
            live[pointer] = (kind, size)
    return Counter(size for kind, size in live.values() if kind == 1 and size < SMALL)


def tensor_headers(log: Path) -> dict[str, Any]:
    """The small blocks that come and go with each tensor's storage over a whole step (its StorageImpl,
    TensorImpl and the like): malloc()ed within HEADER_WINDOW calls of the storage's posix_memalign and
    freed within HEADER_WINDOW calls of its free. Per storage, by size, and which sizes come before it."""
    blocks: list[list[int]] = []  # [kind, size, allocated at, freed at]
    live: dict[int, int] = {}
    for index, (kind, pointer, size) in enumerate(records(log)):
        if kind == 3:
            if pointer in live:
                blocks[live.pop(pointer)][3] = index
            continue
        live[pointer] = len(blocks)
        blocks.append([kind, size, index, -1])
    by_call = {block[2]: block for block in blocks}
    storages = [b for b in blocks if b[0] == 2 and b[3] >= 0]
    headers: Counter[int] = Counter()
    before: Counter[int] = Counter()
    for _, _, at, freed in storages:
        for offset in range(-HEADER_WINDOW, HEADER_WINDOW + 1):
            block = by_call.get(at + offset)
            if (
                block
                and block[0] == 1
                and block[1] < SMALL
                and block[3] >= 0
                and abs(block[3] - freed) <= HEADER_WINDOW
            ):
                headers[block[1]] += 1
                before[block[1]] += offset < 0
    table = mix(headers, len(storages))
    return {
        "per_storage": table["per_node"],
        "sizes": table["sizes"],
        "before": [size for size, _ in table["sizes"] if before[size] > headers[size] / 2],
        "storages": len(storages),
    }


def measure(checkpointed: bool, library: Path, work: Path) -> dict[str, Any]:
    log = work / f"{'checkpointed' if checkpointed else 'plain'}.log"
    command = [sys.executable, __file__, "--child", "checkpointed" if checkpointed else "plain", str(library), str(log)]
    done = subprocess.run(
        command, env={**os.environ, "LD_PRELOAD": str(library)}, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"the reference run failed: {done.stderr.strip().splitlines()[-1:]}")
    counted = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "nodes": {k: counted[k] for k in ("plain", "checkpointed")},
        "torch": counted["torch"],
        "objects": graph_objects(log),
        "headers": tensor_headers(Path(f"{log}.step")),
        "kernels": same_scripts(
            kernel_scripts(Path(f"{log}.kernels"), counted["ops"]),
            kernel_scripts(Path(f"{log}.kernels.other"), counted["other ops"]),
        ),
    }


def mix(objects: Counter[int], nodes: float) -> dict[str, Any]:
    """Objects per node and the share of each size, rare sizes left out."""
    total = sum(objects.values())
    kept = {size: count for size, count in objects.items() if count / total >= MIN_SHARE}
    shares = sum(kept.values())
    return {
        "per_node": round(total / nodes, 3),
        "sizes": [[size, round(count / shares, 4)] for size, count in sorted(kept.items())],
    }


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2] == "checkpointed", sys.argv[3], sys.argv[4])))
        return 0
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not sys.platform.startswith("linux") or compiler is None:
        raise SystemExit("needs Linux with glibc and a C compiler (cc)")
    from machine import machine

    with tempfile.TemporaryDirectory(prefix="gpuconfig-malloc-") as folder:
        work = Path(folder)
        library = work / "malloc_log.so"
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(HERE / "malloc_log.c"), "-ldl"], check=True
        )
        plain, checkpointed = measure(False, library, work), measure(True, library, work)
    plain_nodes = plain["nodes"]["plain"]
    outside = checkpointed["nodes"]["plain"]  # embedding, head and loss run outside the checkpointed blocks
    per_plain = {size: count / plain_nodes for size, count in plain["objects"].items()}
    inside = Counter(
        {
            size: max(0, round(count - outside * per_plain.get(size, 0.0)))
            for size, count in checkpointed["objects"].items()
        }
    )
    kinds = {
        "plain": mix(plain["objects"], plain_nodes),
        "checkpointed": mix(inside, checkpointed["nodes"]["checkpointed"]),
    }
    headers = plain["headers"]
    version = plain["torch"]
    result = {
        "benchmark": "autograd_objects",
        "torch": version,
        "reference": "GPT-style decoder from plain torch.nn: 4 blocks, width 256, batch 4 x 128 tokens, AdamW",
        "nodes": {"plain run": plain["nodes"], "checkpointed run": checkpointed["nodes"]},
        "objects": {
            run: sum(m["objects"].values()) for run, m in (("plain run", plain), ("checkpointed run", checkpointed))
        },
        "kinds": kinds,
        "tensor_headers": headers,
        "kernels": plain["kernels"],
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/autograd_objects.py",
    }
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    source = f"measured by benchmarks/autograd_objects.py on {result['reference']} (torch {version}, {result['date']})"
    lines = [
        "# Written by benchmarks/autograd_objects.py: the small objects a CPU training step's autograd graph holds",
        "# per node until backward runs it, measured from a real run's malloc stream. The CPU estimate replays them",
        "# among the traced tensors (gpuconfig/workers/tracer/heap.py). `sizes` are [bytes, share] pairs.",
        f"torch = {json.dumps(version)}",
        f"source = {json.dumps(source)}",
    ]
    for name, kind in kinds.items():
        lines += ["", f"[{name}]", f"per_node = {kind['per_node']}", f"sizes = {json.dumps(kind['sizes'])}"]
    lines += [
        "",
        "# The small blocks each tensor's storage comes and goes with (its headers); `before` are allocated first.",
        "[tensor]",
        f"per_storage = {headers['per_storage']}",
        f"sizes = {json.dumps(headers['sizes'])}",
        f"before = {json.dumps(headers['before'])}",
        "",
        "# The aligned blocks an operator's CPU kernel allocates and frees before it returns, in order (a size",
        "# allocates, -n frees the n-th block allocated); the replay performs them where the operator ran.",
        "[kernels]",
        *(f"{json.dumps(name)} = {json.dumps(script)}" for name, script in plain["kernels"].items()),
    ]
    CATALOG.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k in ("nodes", "objects")}))
    print(
        json.dumps({name: kind["per_node"] for name, kind in kinds.items()} | {"per storage": headers["per_storage"]})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
