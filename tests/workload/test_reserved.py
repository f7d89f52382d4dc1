"""GPU memory as nvidia-smi shows it: a CUDA estimate adds what the caching allocator reserves beyond the
tensors, found by replaying the traced allocations (tests/workers/test_cuda_cache.py checks the replay)."""

from __future__ import annotations

from pathlib import Path

from gpuconfig.core.workload.estimate import CACHING_ALLOCATOR
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
