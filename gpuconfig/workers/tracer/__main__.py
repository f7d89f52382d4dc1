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


def model_modules(imported: set[str]) -> list[str]:
    """The model's code the first build imported (transformers' modules new since `imported`), not the trace's
    own machinery (fake tensors, dispatch modes), which a real run never loads."""
    return sorted(name for name in set(sys.modules) - imported if name.partition(".")[0] == "transformers")


def runtime_rss(replay: MallocReplay | None, modules: list[str]) -> int:
    """The runtime a real run pays before its first tensor: the interpreter, torch, the model's modules and the
    kernels' libraries. Measured in the replay's copy of this process, forked before the trace began, once it has
    imported the model's modules and run a warm-up step; without a copy, in this process (which then also
    counts the trace's machinery: about 50 MB more for a ViT-base)."""
    measured = replay.runtime(modules) if replay is not None else None
    if measured is not None:
        return measured
    warm_up()
    return current_rss_bytes()


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
        imported = set(sys.modules)
        for done, (batch, seq, layers) in enumerate(points):
            emit("progress", done=done, total=len(points), what=f"batch {batch}, length {seq}")
            started = time.perf_counter()
            result = trace_point(request, batch, seq, layers, replay)
            emit("point", seconds=round(time.perf_counter() - started, 3), **result)
            if done == 0:
                emit(
                    "runtime",
                    torch=torch.__version__,
                    baseline_rss_bytes=runtime_rss(replay, model_modules(imported)),
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
