"""cuDNN's convolution workspaces in a trace for a CUDA GPU: each convolution takes, after its outputs and freed at
once, the bytes its operands hold in NHWC (16-bit channels padded to 8); a CPU trace takes none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.runner import trace_request
from gpuconfig.core.workload.spec import Workload
from gpuconfig.workers.tracer.cudnn_workspace import nhwc_bytes, workspaces
from gpuconfig.workers.tracer.point import trace_point

CONV = (
    "import torch\n"
    "def model_and_inputs(batch, seq):\n"
    "    return torch.nn.Conv2d(3, 8, 3, padding=1, bias=False), (torch.randn(batch, 3, seq, seq),)\n"
)


def test_nhwc_bytes_pad_16_bit_channels_to_eight() -> None:
    assert nhwc_bytes((2, 3, 16, 16), 4, half=False) == 2 * 3 * 16 * 16 * 4  # fp32 (TF32 engines): as it is
    assert nhwc_bytes((2, 3, 16, 16), 2, half=True) == 2 * 8 * 16 * 16 * 2  # 3 channels padded to 8
    assert nhwc_bytes((2, 64, 16, 16), 2, half=True) == 2 * 64 * 16 * 16 * 2  # already a multiple of 8
    assert nhwc_bytes((8, 4), 4, half=False) == 0  # not a convolution's tensor


def test_a_convolution_and_its_backward_take_one_workspace_per_cudnn_call() -> None:
    import torch  # noqa: TID251  (the tests' Python has the torch extra)
    from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: TID251

    aten = torch.ops.aten
    with FakeTensorMode():
        data, weight = torch.randn(2, 3, 16, 16), torch.randn(8, 3, 3, 3)
        args: Any = (data, weight, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        out = aten.convolution.default(*args)
        forward = workspaces(aten.convolution.default, args, out)
        grad = torch.randn_like(out)
        back_args: Any = (grad, data, weight, [0], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, False])
        back_out = aten.convolution_backward.default(*back_args)
        backward = workspaces(aten.convolution_backward.default, back_args, back_out)
        weights_only = workspaces(aten.convolution_backward.default, (*back_args[:-1], [False, True, False]), back_out)
        last = data.to(memory_format=torch.channels_last)
        channels_last = workspaces(aten.convolution.default, (last, *args[1:]), out)
        other = workspaces(aten.mm.default, (torch.randn(2, 2), torch.randn(2, 2)), torch.randn(2, 2))
    x, w, y = 2 * 3 * 16 * 16 * 4, 8 * 3 * 3 * 3 * 4, 2 * 8 * 16 * 16 * 4
    assert forward == [x + w + y]
    assert backward == [y + w + x, x + y + w]  # data: grad out, weight, grad in; filter: input, grad out, grad w
    assert weights_only == [x + y + w]  # the first layer: no gradient for the input
    assert channels_last == [] and other == []


def traced(tmp_path: Path, device: str) -> dict[str, Any]:
    model = tmp_path / "conv.py"
    model.write_text(CONV, encoding="utf-8")
    workload = Workload(model=str(model), task="inference", precision="fp32", device=device, batch=2, seq=16)
    return trace_point(trace_request(resolve_model(str(model)), workload, [(2, 16, None)]), 2, 16)


def test_a_cuda_trace_holds_the_workspace_at_the_convolutions_peak(tmp_path: Path) -> None:
    cuda, cpu = traced(tmp_path, "cuda"), traced(tmp_path, "cpu")
    x, w, y = 2 * 3 * 16 * 16 * 4, 8 * 3 * 3 * 3 * 4, 2 * 8 * 16 * 16 * 4
    # The weight and the output are live while the workspace is held (the input was made before tracking began):
    # the peak is theirs plus the workspace, which holds the input, weight and output again in NHWC.
    assert sum(cpu["memory"].values()) == w + y
    assert sum(cuda["memory"].values()) == w + y + (x + w + y)
    assert cuda["cuda_reserved_peak_bytes"] == 2 << 20  # everything fits one 2 MiB small segment


def test_only_the_workspace_events_are_taken_out_of_the_replay_without_them() -> None:
    """The events a workspace adds to the tracker's stream are exactly its allocation and its free, which the
    replay without workspaces leaves out and nothing else."""
    import torch  # noqa: TID251  (the tests' Python has the torch extra)
    from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: TID251

    from gpuconfig.workers.tracer import torch_private
    from gpuconfig.workers.tracer.cudnn_workspace import cudnn_workspaces

    with FakeTensorMode():
        conv = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        data = torch.randn(2, 3, 16, 16)
        tracker = torch_private.recording_tracker()
        with tracker, cudnn_workspaces("cuda", tracker.events) as recorded, torch.no_grad():
            out = conv(data)
        events = list(tracker.events)
    del out
    x, w, y = 2 * 3 * 16 * 16 * 4, 8 * 3 * 3 * 3 * 4, 2 * 8 * 16 * 16 * 4
    taken = sorted(recorded.indices)
    assert len(taken) == 2
    (key, size), freed = events[taken[0]], events[taken[1]]
    assert size == x + w + y and freed == (key, -1)
    assert recorded.without(events) == [e for at, e in enumerate(events) if at not in taken]
    assert len(recorded.without(events)) == len(events) - 2
    with cudnn_workspaces("cpu", []) as none:
        pass
    assert none.indices == set()
