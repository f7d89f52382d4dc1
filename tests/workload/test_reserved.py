"""GPU memory as nvidia-smi shows it: a CUDA estimate adds what the caching allocator reserves beyond the
tensors, found by replaying the traced allocations (tests/workers/test_cuda_cache.py checks the replay)."""

from __future__ import annotations

from pathlib import Path

from gpuconfig.core.workload.estimate import CACHING_ALLOCATOR, estimate_from_fit
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import Workload
from tests.workload.model_files import linear_model

MiB = 1 << 20


def test_a_cuda_estimate_counts_the_segments_the_allocator_reserves(tmp_path: Path) -> None:
    workload = Workload(model=str(linear_model(tmp_path)), precision="fp32", device="cuda", batch=4)
    fit = TraceService(use_cache=False).fit_for(workload)
    memory = fit.answer(workload, None).estimate.memory
    [reserved] = [o for o in memory.overheads if o.name == CACHING_ALLOCATOR]
    # A Linear(8, 4) and its AdamW state are a handful of tensors under 1 MiB: each rounds up to 512 bytes
    # inside one 2 MiB small segment, so the allocator holds that segment, nearly all of it beyond the tensors.
    tensors = memory.weights + memory.gradients + memory.optimizer + memory.activations
    assert reserved.bytes + tensors == 2 * MiB or 2 * MiB - tensors - reserved.bytes < 4096, (reserved, tensors)
    assert memory.peak >= memory.allocated_peak + reserved.bytes


def test_a_cpu_estimate_has_no_caching_allocator_line(tmp_path: Path) -> None:
    workload = Workload(model=str(linear_model(tmp_path)), precision="fp32", device="cpu", batch=4)
    memory = TraceService(use_cache=False).fit_for(workload).answer(workload, None).estimate.memory
    assert CACHING_ALLOCATOR not in {o.name for o in memory.overheads}


def test_a_training_step_holds_a_cublas_workspace_for_each_thread(tmp_path: Path) -> None:
    """Forward runs on the caller's thread and backward on autograd's device thread, each with its cuBLAS handle
    and workspace: a training step's allocated peak counts two, an inference pass one (32 MiB each on Hopper)."""
    model = str(linear_model(tmp_path))
    service = TraceService(use_cache=False)
    for task, count in (("finetune", 2), ("inference", 1)):
        workload = Workload(model=model, task=task, precision="fp32", device="cuda", batch=4)
        fit = service.fit_for(workload)
        seq = fit.answer(workload, None).estimate.seq
        default = estimate_from_fit(fit.source, workload, fit.fitted, seq).memory  # PyTorch's default workspace
        memory = estimate_from_fit(fit.source, workload, fit.fitted, seq, cc_major=9).memory
        [workspace] = [o for o in memory.overheads if o.name == "cuBLAS workspace"]
        assert workspace.bytes == count * 32 * MiB, task
        assert memory.allocated_peak - default.allocated_peak == count * (32 * MiB - 8_519_680)
        assert ("autograd runs backward on its own thread" in workspace.source) == (count == 2)
