"""Generation run for real on the CPU: the prompt's forward pass fills the KV cache, then one token at a time
is fed back until `generate` new tokens are in the cache, as greedy decoding does. What an inference estimate
with generated tokens (`--generate`) is checked against."""

from __future__ import annotations

import time
from typing import Any

from .models import build
from .point import prepare
from .runtime import rss_bytes


def measure_generation(request: dict[str, Any], batch: int, seq: int) -> dict[str, Any]:
    """Prompt of `seq` tokens, then request["generate"] tokens, greedily, with the model's own cache."""
    import torch

    torch.manual_seed(0)
    started = time.perf_counter()
    model, inputs, _ = build(request, batch, seq, None)
    prepare(model, request, foreach=False)
    built = time.perf_counter()
    with torch.no_grad():
        output = model(**inputs, use_cache=True)
        cache = output.past_key_values
        token = output.logits[:, -1:].argmax(-1)
        del output
        prompt_done = time.perf_counter()
        for _ in range(int(request["generate"])):
            output = model(input_ids=token, past_key_values=cache, use_cache=True)
            cache = output.past_key_values
            token = output.logits[:, -1:].argmax(-1)
            del output
    ended = time.perf_counter()
    return {
        "batch": batch,
        "seq": seq,
        "generate": int(request["generate"]),
        "peak_rss_bytes": rss_bytes(),
        "build_seconds": built - started,
        "step_seconds": [prompt_done - built, ended - prompt_done],
    }
