"""The memory of the runtime itself: this process's resident memory, and the warm-up that loads the
kernels' libraries as a real run does."""

from __future__ import annotations

import os
import sys


def current_rss_bytes() -> int:
    """Resident memory now (Linux /proc; elsewhere the peak so far, an upper bound)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return rss_bytes()


def warm_up() -> None:
    """One tiny real training step, so the kernels' libraries (BLAS, oneDNN, autograd) are loaded and their
    start-up memory counts in the runtime's baseline as it does in a real run."""
    import torch
    from torch import nn

    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.Linear(8 * 6 * 6, 16))
    optimizer = torch.optim.AdamW(model.parameters())
    x = torch.randn(2, 3, 8, 8)
    q = torch.randn(1, 2, 8, 16, requires_grad=True)
    loss = model(x).mean() + nn.functional.scaled_dot_product_attention(q, q, q).mean()
    loss.backward()
    optimizer.step()


def rss_bytes() -> int:
    """This process's peak resident memory so far (ru_maxrss is KiB on Linux, bytes on macOS; 0 on
    Windows, which has no getrusage)."""
    try:
        import resource
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)
