"""The tracer's entry: read the request, trace each point (or measure one for real), say what was found."""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

from .events import TraceError, emit, open_channel
from .generation import measure_generation
from .heap import MallocReplay
from .point import measure_point, trace_point
from .runtime import current_rss_bytes, rss_bytes, warm_up


def offline() -> None:
    """Hugging Face libraries must never reach the network from here."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("DIFFUSERS_VERBOSITY", "error")


# What a real run loads before its first tensor, in a fresh interpreter: the trace worker's own modules (a real run
# is this program in its measuring mode), torch, the modules the model's build imported (transformers' among them)
# and the kernels' libraries (one warm-up step). The import path, this package's name and the modules come on stdin.
RUNTIME_PROGRAM = """
import importlib, json, sys
asked = json.loads(sys.stdin.read())
sys.path[:] = asked["path"]
for name in ("generation", "point"):
    importlib.import_module(asked["package"] + "." + name)
runtime = importlib.import_module(asked["package"] + ".runtime")
import torch
for name in asked["modules"]:
    try:
        importlib.import_module(name)
    except Exception:
        pass
runtime.warm_up()
print(runtime.current_rss_bytes())
"""
RUNTIME_SECONDS = 300


def runtime_rss(modules: list[str]) -> tuple[int, str]:
    """The runtime a real run pays before its first tensor, and where it was measured. In a fresh process: this
    one holds the trace's own machinery (fake tensors, the dispatch modes: about 50 MB for a ViT-base), and a
    copy forked from it would not count the library pages it has not touched itself. Where a fresh process
    cannot be started, in this one."""
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-c", RUNTIME_PROGRAM],
            input=json.dumps({"path": sys.path, "package": __package__ or "tracer", "modules": modules}),
            capture_output=True,
            text=True,
            timeout=RUNTIME_SECONDS,
            check=True,
        )
        return int(done.stdout.strip().splitlines()[-1]), "fresh process"
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        warm_up()
        return current_rss_bytes(), f"trace process ({type(exc).__name__}: no fresh process)"


def main() -> int:
    try:
        request = json.loads(sys.stdin.read())
        import torch

        if request["model"]["kind"] == "hf_config":
            import transformers  # noqa: F401  (its import is part of the runtime a real run pays for)
        points = request["points"]
        if request.get("measure"):  # one real run per process: peak resident memory is per process
            batch, seq, _ = points[0]
            emit("runtime", torch=torch.__version__, baseline_rss_bytes=rss_bytes())
            emit("measured", **(measure_generation if request.get("generate") else measure_point)(request, batch, seq))
            return 0
        # Forked now, before any tensor exists: the heap a real run starts from.
        replay = MallocReplay() if request.get("device") == "cpu" and hasattr(os, "fork") else None
        for done, (batch, seq, layers) in enumerate(points):
            emit("progress", done=done, total=len(points), what=f"batch {batch}, length {seq}")
            started = time.perf_counter()
            result = trace_point(request, batch, seq, layers, replay)
            modules = result.pop("built_modules", [])
            emit("point", seconds=round(time.perf_counter() - started, 3), **result)
            if done == 0:
                rss, how = runtime_rss(modules)
                emit(
                    "runtime",
                    torch=torch.__version__,
                    baseline_rss_bytes=rss,
                    baseline_how=how,
                    threads=torch.get_num_threads(),
                )
        emit("progress", done=len(points), total=len(points), what="done")
        return 0
    except TraceError as exc:
        emit("error", kind=exc.kind, message=str(exc))
        return 2
    except Exception as exc:  # a model that fails under tracing: say what, keep the details for a bug report
        emit(
            "error",
            kind="internal",
            message=f"{type(exc).__name__}: {exc}".splitlines()[0][:500],
            detail=traceback.format_exc()[-4000:],
        )
        return 1


if __name__ == "__main__":
    offline()
    open_channel()
    sys.exit(main())
