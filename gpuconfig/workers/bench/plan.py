"""The benchmarks the suite knows, what each measures in which unit, and which of them a run asks for.
Standard library only: the plan is said before torch is imported."""

from __future__ import annotations

# What each benchmark measures, in its unit, in suite order.
BENCHMARKS: dict[str, tuple[str, str]] = {
    "matmul": ("Matrix multiply throughput per precision", "TFLOP/s"),
    "memory_bandwidth": ("Device memory bandwidth (copy of buffers 8x the last-level cache)", "GB/s"),
    "h2d_bandwidth": ("Host-to-device copy bandwidth, pinned and pageable", "GB/s"),
    "d2h_bandwidth": ("Device-to-host copy bandwidth, pinned and pageable", "GB/s"),
    "train_cnn": ("Training step of a small CNN, with and without AMP and checkpointing", "samples/s"),
    "train_transformer": ("Training step of a small transformer, with and without AMP and checkpointing", "samples/s"),
    "train_from_host": (
        "Training step with its batch copied from host memory, against one already on the device",
        "samples/s",
    ),
    "dataloader": ("DataLoader throughput against num_workers", "samples/s"),
    "disk_read": ("Disk sequential read of a file not in the page cache", "MB/s"),
    "allreduce": ("All-reduce bus bandwidth between ranks started by torchrun", "GB/s"),
}
SUITES: dict[str, tuple[str, ...]] = {
    "quick": tuple(name for name in BENCHMARKS if name != "allreduce"),
    "full": tuple(BENCHMARKS),
}
# Figures of one GPU: on a machine with several, each GPU is measured in turn. The rest measure the host
# (data loading, disk) or all GPUs together (all-reduce) and run once.
PER_DEVICE = (
    "matmul", "memory_bandwidth", "h2d_bandwidth", "d2h_bandwidth", "train_cnn", "train_transformer", "train_from_host",
)  # fmt: skip


# What each benchmark's figures may take on one device, in seconds, at most: the time box its repeats fill
# (quick, full). A run whose budget has less time left than its boxes add up to shrinks each box in proportion.
BOX_S: dict[str, tuple[float, float]] = {
    "matmul": (6.0, 20.0),
    "memory_bandwidth": (2.0, 4.0),
    "h2d_bandwidth": (2.0, 4.0),
    "d2h_bandwidth": (2.0, 4.0),
    "train_cnn": (6.0, 12.0),
    "train_transformer": (6.0, 12.0),
    "train_from_host": (3.0, 6.0),
    "dataloader": (3.0, 8.0),
    "disk_read": (1.5, 3.0),
    "allreduce": (4.0, 8.0),
}


def box_s(name: str, suite: str) -> float:
    quick, full = BOX_S.get(name, (2.0, 4.0))
    return quick if suite == "quick" else full


def plan(suite: str, only: list[str] | None) -> list[str]:
    """The benchmarks to run in order: the suite's, or only those named (unknown names kept, to fail)."""
    if only is None:
        return list(SUITES.get(suite, SUITES["quick"]))
    return [name for name in BENCHMARKS if name in only] + [name for name in only if name not in BENCHMARKS]
