"""CUDA autocast's float32 policy in the CPU-tensor trace: the ops PyTorch's CUDA autocast runs in float32 give
float32 results under the CPU autocast that stands in for it, and nothing else changes."""

from __future__ import annotations

import importlib

import pytest

from gpuconfig.workers.tracer.cuda_autocast import cuda_float32_policy

# The policy runs in the trace worker; the tests' Python has the torch extra and drives it on real CPU tensors.
torch = importlib.import_module("torch")
functional = torch.nn.functional


def under_cuda_autocast(device: str, run):  # type: ignore[no-untyped-def]
    with cuda_float32_policy(device), torch.autocast("cpu", dtype=torch.bfloat16):
        return run()


def test_the_float32_list_gives_float32_results_from_bfloat16_inputs() -> None:
    x = torch.randn(4, 8, dtype=torch.bfloat16)
    weight = torch.ones(8)
    results = under_cuda_autocast(
        "cuda",
        lambda: {
            "pow": torch.pow(x, 3.0),
            "__pow__": x**3,
            "exp": x.exp(),
            "sum": x.sum(),
            "softmax": functional.softmax(x, dim=-1),
            "log_softmax": x.log_softmax(-1),
            "layer_norm": functional.layer_norm(x, (8,), weight),
            "tanh": torch.tanh(x),  # not on the list: the input's dtype, as on CUDA
            "mm": x @ x.t(),  # matrix products: the lower precision on both devices
        },
    )
    assert {name: r.dtype for name, r in results.items()} == {
        **dict.fromkeys(("pow", "__pow__", "exp", "sum", "softmax", "log_softmax", "layer_norm"), torch.float32),
        "tanh": torch.bfloat16,
        "mm": torch.bfloat16,
    }
    assert torch.allclose(results["pow"], x.float() ** 3)


def test_an_explicit_output_dtype_and_float32_inputs_are_left_alone() -> None:
    x = torch.randn(4, 8, dtype=torch.bfloat16)
    assert under_cuda_autocast("cuda", lambda: x.sum(dtype=torch.bfloat16)).dtype == torch.bfloat16
    assert under_cuda_autocast("cuda", lambda: torch.randn(3).exp()).dtype == torch.float32
    with cuda_float32_policy("cuda"):  # autocast off: every op as written
        assert torch.pow(x, 2.0).dtype == torch.bfloat16


@pytest.mark.parametrize("device", ["cpu", None])
def test_a_cpu_trace_keeps_the_cpu_policy(device: str | None) -> None:
    x = torch.randn(4, 8, dtype=torch.bfloat16)
    assert under_cuda_autocast(device, lambda: torch.pow(x, 3.0)).dtype == torch.bfloat16  # type: ignore[arg-type]


TINY_GPT2 = {"model_type": "gpt2", "n_layer": 2, "n_embd": 64, "n_head": 4, "vocab_size": 1000, "n_positions": 128}


def gpt2_request(device: str, checkpointing: bool) -> dict[str, object]:
    return {
        "model": {"kind": "hf_config", "config": TINY_GPT2},
        "task": "finetune",
        "precision": "amp_bf16",
        "optimizer": "adamw",
        "checkpointing": checkpointing,
        "lora_rank": 16,
        "device": device,
        "attention": "auto",
    }


def test_a_gpu_trace_keeps_gpt2s_gelu_in_float32_also_when_backward_recomputes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GPT-2's tanh GELU starts with pow, on CUDA autocast's float32 list: the chain after it is float32 on a GPU,
    where the CPU's policy keeps the bf16 input's dtype. Checkpointing recomputes it inside backward, where the
    step's function modes are not in force: the recomputation must run the same dtypes, or checkpoint refuses it."""
    from gpuconfig.workers.tracer import cuda_autocast
    from gpuconfig.workers.tracer.point import trace_point

    def saved() -> int:
        return trace_point(gpt2_request("cuda", False), 2, 64)["phases"]["forward"]["activations"]

    with_policy = saved()
    monkeypatch.setattr(cuda_autocast, "FLOAT32_OPS", frozenset())
    monkeypatch.setattr(cuda_autocast, "OUTPUT_DTYPE_OPS", frozenset())
    without = saved()
    monkeypatch.undo()
    # per layer, the chain after pow keeps at least two more bytes for each of 2 x 64 tokens x 256 features
    assert with_policy - without >= 2 * 2 * 64 * 256 * 2
    recomputed = trace_point(gpt2_request("cuda", True), 2, 64)  # raised CheckpointError before context_fn
    assert recomputed["phases"]["backward"]["activations"] > 0


def test_cross_entropy_of_half_logits_keeps_what_cuda_keeps() -> None:
    """ATen's cross_entropy_loss runs log_softmax in the logits' own dtype (autocast keeps a dtype the caller gave),
    then nll_loss, on CUDA's float32 list: backward keeps the bf16 log-probabilities and a float32 copy of them.
    The CPU's policy would keep one float32 tensor. The loss is the same number either way."""
    logits = torch.randn(6, 10, dtype=torch.bfloat16, requires_grad=True)
    target = torch.tensor([1, 2, 3, -100, 5, 0])
    loss = under_cuda_autocast("cuda", lambda: functional.cross_entropy(logits, target))
    assert loss.dtype == torch.float32
    assert torch.allclose(loss, functional.cross_entropy(logits.float(), target), atol=2e-2)
    nll = loss.grad_fn
    assert type(nll).__name__ == "NllLossBackward0" and nll._saved_self.dtype == torch.float32
    cast = nll.next_functions[0][0]
    softmax = cast.next_functions[0][0]
    assert type(softmax).__name__ == "LogSoftmaxBackward0" and softmax._saved_result.dtype == torch.bfloat16
    smoothed = under_cuda_autocast("cuda", lambda: functional.cross_entropy(logits, target, label_smoothing=0.1))
    assert smoothed.dtype == torch.float32  # the CPU's policy: a float32 copy first, a float32 loss


def test_a_dtype_given_by_position_is_kept_and_reflected_division_is_float32() -> None:
    x = torch.randn(4, 8, dtype=torch.bfloat16)
    assert under_cuda_autocast("cuda", lambda: x.softmax(-1, torch.float16)).dtype == torch.float16
    assert under_cuda_autocast("cuda", lambda: 1 / x).dtype == torch.float32
