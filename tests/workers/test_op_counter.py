"""The op counter's bytes: batch normalization's apart from the other operators', on real CPU tensors."""

from __future__ import annotations

import importlib

from gpuconfig.workers.tracer.counting import op_counter

torch = importlib.import_module("torch")
functional = torch.nn.functional


def counted(run):  # type: ignore[no-untyped-def]
    counter = op_counter()
    with counter:
        run()
    return counter


def test_batch_norm_forward_and_backward_are_counted_apart() -> None:
    x = torch.randn(8, 4, 6, 6, requires_grad=True)
    norm = torch.nn.BatchNorm2d(4).train()
    counter = counted(lambda: norm(x).sum().backward())
    size = x.numel() * 4
    assert counter.batch_norm_bytes >= 2 * 2 * size  # forward and backward each read and write x's size at least
    assert counter.batch_norm_bytes < counter.other_bytes  # the sum and its backward are not batch norm
    assert counter.batch_norm_elements * 4 == counter.batch_norm_bytes  # float32 throughout


def test_other_normalizations_and_pointwise_operators_are_not_batch_norm() -> None:
    x = torch.randn(16, 64, requires_grad=True)
    counter = counted(lambda: torch.tanh(functional.layer_norm(x, (64,)) * 2).softmax(-1).sum().backward())
    assert counter.other_bytes > 0
    assert counter.batch_norm_bytes == 0


def test_a_pointwise_operator_moves_its_input_and_output_once() -> None:
    x = torch.randn(16, 64)
    counter = counted(lambda: torch.tanh(x * 2 + 1))
    assert counter.other_bytes == 3 * 2 * 16 * 64 * 4  # three operators, one input and one output each
