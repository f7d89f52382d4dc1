"""The op counter's model of torch.compile's fusion, on real CPU tensors: what a fused region reads and writes,
and how many kernels Inductor makes of it."""

from __future__ import annotations

import importlib

from gpuconfig.workers.tracer.counting import op_counter

torch = importlib.import_module("torch")
MB = 1000 * 1000 * 4  # a float32 tensor of a million elements


def counted(run):  # type: ignore[no-untyped-def]
    counter = op_counter()
    with counter:
        run(counter)
    return counter


def test_a_chain_of_pointwise_operators_reads_its_input_once_and_writes_what_a_matmul_reads() -> None:
    x, w = torch.randn(1000, 1000), torch.randn(1000, 1000)
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        y = torch.relu(x) * 2 + 1  # one region: reads x, writes y (the matmul reads it)
        kept["out"] = torch.nn.functional.gelu(y @ w).sum()  # a region after it: reads the product, writes 4 bytes

    counter = counted(run)
    assert counter.other_bytes == 9 * MB + 4  # eager: relu, mul, add and gelu each read and write; sum reads
    assert counter.fusion.bytes == 3 * MB + 4
    assert counter.fusion.generated == 2 and counter.fusion.kernels == 3  # two regions and the matmul


def test_what_a_region_makes_and_uses_up_itself_is_never_written() -> None:
    x = torch.randn(1000, 1000)
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        kept["out"] = (x.exp() + 1).log()  # the sum of exp and 1 dies inside the region; the result is alive

    counter = counted(run)
    assert counter.fusion.bytes == 2 * MB  # x read, the result written
    assert counter.other_bytes == 6 * MB


def test_a_reduction_and_its_pointwise_neighbours_are_one_kernel_and_unrelated_work_is_another() -> None:
    x, z, w = torch.randn(1000, 1000), torch.randn(500), torch.randn(300)
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        softmax = torch.softmax(x * 2, dim=-1)  # loops over x's million elements: one kernel
        kept["a"] = softmax + 1
        kept["b"] = z.sin()  # shares nothing with it: a kernel of its own
        kept["c"] = w.sum() * 2  # a pointwise operator over a reduction's output joins the reduction's kernel

    counter = counted(run)
    assert counter.fusion.generated == 3


def test_the_optimizer_step_is_counted_as_eager_pytorch_runs_it() -> None:
    layer = torch.nn.Linear(1000, 1000)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9, foreach=False)
    x = torch.randn(64, 1000)

    def step(counter):  # type: ignore[no-untyped-def]
        loss = layer(x).square().mean()
        counter.end("forward")
        loss.backward()
        counter.end("backward")
        optimizer.step()
        counter.end("optimizer step")

    step_with_optimizer = counted(step)
    optimizer.zero_grad(set_to_none=True)
    for state in optimizer.state.values():
        state.clear()

    def without_optimizer(counter):  # type: ignore[no-untyped-def]
        loss = layer(x).square().mean()
        counter.end("forward")
        loss.backward()
        counter.end("backward")

    compiled_part = counted(without_optimizer)
    optimizer_bytes = step_with_optimizer.other_bytes - compiled_part.other_bytes
    assert optimizer_bytes > 0
    # The optimizer's bytes are in both counts in full: only the forward and backward fuse.
    assert step_with_optimizer.fusion.bytes - compiled_part.fusion.bytes == optimizer_bytes
    assert compiled_part.fusion.bytes < compiled_part.other_bytes


def test_an_embedding_loops_over_the_rows_it_gathers_and_fuses_with_their_pointwise_work() -> None:
    table, ids = torch.randn(10000, 100), torch.tensor([1, 2, 3, 4])
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        kept["rows"] = torch.nn.functional.embedding(ids, table) * 2  # one kernel over the 400 gathered elements
        kept["total"] = table.sum()  # loops over the whole table: a kernel of its own, though it reads the table too

    counter = counted(run)
    assert counter.fusion.generated == 2
    assert counter.fusion.bytes == table.numel() * 4 + ids.numel() * 8 + 4 * 100 * 4 + 4  # the table read once


def test_a_tensor_without_storage_is_counted_not_fatal() -> None:
    sparse = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1.0, 2.0]), (1000,), check_invariants=True)
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        kept["out"] = sparse * 2.0

    counter = counted(run)
    assert counter.fusion.bytes > 0 and counter.fusion.generated == 1


def test_a_region_output_still_alive_when_the_region_ends_is_written_and_a_dead_one_is_not() -> None:
    x = torch.randn(1000, 1000)
    w = torch.randn(1000, 1000)
    kept = {}

    def run(_):  # type: ignore[no-untyped-def]
        kept["saved"] = x.sin()  # alive when the matmul ends the region: a graph output, written
        temporary = x.cos()
        del temporary  # dead before the region ends: never written
        kept["product"] = x @ w

    counter = counted(run)
    assert counter.fusion.bytes == 2 * MB  # x read once (both read it), the sine written


def test_a_traced_step_has_fewer_fused_bytes_and_kernels_than_eager_ones() -> None:
    from gpuconfig.workers.tracer.point import trace_point

    config = {
        "model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
        "intermediate_size": 128, "num_hidden_layers": 2, "vocab_size": 1000,
    }  # fmt: skip
    request = {
        "model": {"kind": "hf_config", "config": config},
        "task": "finetune", "precision": "fp32", "optimizer": "adamw", "device": "cpu", "checkpointing": False,
    }  # fmt: skip
    point = trace_point(request, 2, 64)
    assert 0 < point["fused_bytes"] < point["other_bytes"]
    assert 0 < point["fused_kernels"] < point["kernels"]
