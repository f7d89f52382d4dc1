"""Generation run for real, on the CPU or a CUDA GPU: the prompt's forward pass fills the KV cache, then one
token at a time is fed back until `generate` new tokens are in the cache, as greedy decoding does. What an
inference estimate with generated tokens (`--generate`) is checked against: its memory, its time to the first
token and its decode steps."""

from __future__ import annotations

import contextlib
from typing import Any

from .models import build
from .point import prepare
from .real_run import (
    Clock,
    DevicePhases,
    building_on,
    device_facts,
    device_memory,
    distribution,
    on_cuda,
    real_attention,
)
from .runtime import rss_bytes


def measure_generation(request: dict[str, Any], batch: int, seq: int) -> dict[str, Any]:
    """Prompt of `seq` tokens, then request["generate"] tokens, greedily, with the model's own cache. Every decode
    step is waited for, as transformers' generate() does when it checks its stopping criteria each token."""
    import torch

    torch.manual_seed(0)
    clock = Clock(request)
    started = clock.now()
    with building_on(request):
        model, inputs, _ = build(request, batch, seq, None)
    prepare(model, request, foreach=False)
    built = clock.now()
    after_build = device_memory(request, "cuda_build")
    phases = DevicePhases() if on_cuda(request) else None  # its peaks start here
    decode: list[float] = []
    # On a GPU, SDPA forced as the workload names it; on the CPU as PyTorch picks it, with nothing in between.
    with torch.no_grad(), real_attention(request, model) if on_cuda(request) else contextlib.nullcontext():
        prompt_started = clock.now()
        output = model(**inputs, use_cache=True)
        cache = output.past_key_values
        token = output.logits[:, -1:].argmax(-1)
        del output
        prompt_done = clock.now()
        if phases is not None:
            phases.end("prompt")
        for _ in range(int(request["generate"])):
            began = clock.now()
            output = model(input_ids=token, past_key_values=cache, use_cache=True)
            cache = output.past_key_values
            token = output.logits[:, -1:].argmax(-1)
            del output
            decode.append(clock.now() - began)
    ended = clock.now()
    if phases is not None:
        phases.end("decode")
    return {
        "batch": batch,
        "seq": seq,
        "generate": int(request["generate"]),
        "peak_rss_bytes": rss_bytes(),
        "build_seconds": built - started,
        "step_seconds": [prompt_done - built, ended - prompt_done],
        "prompt_seconds": prompt_done - prompt_started,
        "decode_steps": distribution(decode),
        "decode_first_seconds": decode[:8],
        "decode_last_seconds": decode[-8:],
        **after_build,
        **(phases.peaks() if phases is not None else {}),
        **device_facts(request),
    }
