"""SDPA's math path as a CUDA run allocates it (attention.cpp, _scaled_dot_product_attention_math; recorded on an
H100, benchmarks/gpu_allocations.py): per call the scores and the probabilities, a bool test of the scores for
fully masked rows, and a float mask of length x length for a causal call; no third copy of the scores."""

from __future__ import annotations

from typing import Any

from gpuconfig.workers.tracer.attention import cuda_math


def allocations(run: Any) -> list[tuple[str, int]]:
    """(dtype, bytes) of every new storage an operator outputs while `run` runs under fake tensors (an in-place
    operator or a view returns a storage already counted)."""
    import torch  # noqa: TID251  (the tests' Python has the torch extra)
    from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: TID251
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: TID251
    from torch.utils._pytree import tree_flatten  # noqa: TID251

    seen: list[tuple[str, int]] = []
    storages: list[Any] = []  # held, so that no storage's id is reused while the call runs

    class Outputs(TorchDispatchMode):
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            out = func(*args, **(kwargs or {}))
            for t in tree_flatten(out)[0]:
                if isinstance(t, torch.Tensor):
                    storage = t.untyped_storage()
                    if not any(storage is s for s in storages):
                        storages.append(storage)
                        seen.append((str(t.dtype).removeprefix("torch."), storage.nbytes()))
            return out

    with FakeTensorMode(), Outputs(), torch.no_grad():
        run(torch)
    return seen


def test_a_causal_grouped_call_allocates_what_the_real_math_kernel_does() -> None:
    batch, heads, groups, length, dim = 1, 8, 2, 256, 16

    def run(torch: Any) -> None:
        query = torch.randn(batch, heads, length, dim)
        key, value = torch.randn(batch, groups, length, dim), torch.randn(batch, groups, length, dim)
        cuda_math(query, key, value, None, 0.0, True, None)

    seen = allocations(run)
    scores = batch * heads * length * length
    big = [(dtype, size) for dtype, size in seen if size >= scores]
    assert big == [("float32", 4 * scores), ("float32", 4 * scores), ("bool", scores)], big
    assert ("float32", 4 * length * length) in seen  # the causal mask, made additive
    repeated = [size for dtype, size in seen if size == 4 * batch * heads * length * dim]
    assert len(repeated) >= 4  # the scaled query, the key and value repeated per head, the scaled key, the output


def test_half_inputs_run_in_float32_and_come_back_in_their_dtype() -> None:
    results: list[Any] = []

    def run(torch: Any) -> None:
        query = torch.randn(2, 4, 64, 16, dtype=torch.bfloat16)
        mask = torch.ones(64, 64, dtype=torch.bool)
        results.append(cuda_math(query, query, query, mask, 0.0, False, None))

    seen = allocations(run)
    scores = 2 * 4 * 64 * 64
    assert str(results[0].dtype) == "torch.bfloat16"
    assert seen.count(("float32", 4 * scores)) == 2  # the scores and the probabilities, in float32
    assert seen.count(("bfloat16", 2 * scores)) == 1  # the probabilities the kernel returns in the input's dtype
    assert ("bfloat16", 2 * 64 * 64) in seen  # the given bool mask made additive in the query's dtype...
    assert ("float32", 4 * 64 * 64) not in seen  # ...before the upcast, not in float32
