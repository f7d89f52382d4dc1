"""The model of PyTorch's CUDA caching allocator, on allocation streams whose reserved memory follows from
the rules of c10/cuda/CUDACachingAllocator.cpp step by step."""

from __future__ import annotations

from gpuconfig.workers.tracer.cuda_cache import reserved_peak

MiB = 1 << 20


def test_a_tiny_tensor_takes_512_bytes_of_a_2_mib_small_segment() -> None:
    assert reserved_peak([(1, 1)]) == (512, 2 * MiB)
    assert reserved_peak([(1, 513), (2, 100)]) == (1024 + 512, 2 * MiB)  # both in the one small segment


def test_requests_under_10_mib_share_20_mib_segments_split_while_more_than_1_mib_is_left() -> None:
    # 8 MiB from a new 20 MiB segment (12 MiB left), 8 MiB from that (4 MiB left), then a third needs a new one.
    events = [(1, 8 * MiB), (2, 8 * MiB), (3, 8 * MiB)]
    assert reserved_peak(events) == (24 * MiB, 40 * MiB)


def test_a_block_not_split_counts_whole_in_the_allocated_figure() -> None:
    # A freed 12 MiB block serves an 11.5 MiB request: 0.5 MiB left is not more than 1 MiB, so no split.
    events = [(1, 12 * MiB), (1, -1), (2, 11 * MiB + MiB // 2)]
    assert reserved_peak(events) == (12 * MiB, 12 * MiB)


def test_large_requests_round_up_to_2_mib_segments_and_freed_neighbours_merge() -> None:
    events = [(1, 11 * MiB), (2, 11 * MiB), (1, -1), (2, -1), (3, 24 * MiB)]
    # Two 12 MiB segments; freed blocks merge only within a segment, so 24 MiB needs a third segment.
    assert reserved_peak(events) == (24 * MiB, 48 * MiB)
    split = [(1, 3 * MiB), (2, 3 * MiB), (1, -1), (2, -1), (3, 6 * MiB)]
    # Both 3 MiB blocks came out of one 20 MiB segment: freed, they merge back into it and hold 6 MiB.
    assert reserved_peak(split) == (6 * MiB, 20 * MiB)


def test_expandable_segments_map_only_the_2_mib_pages_needed() -> None:
    events = [(1, 8 * MiB), (2, 8 * MiB), (3, 8 * MiB)]
    assert reserved_peak(events, expandable=True) == (24 * MiB, 24 * MiB)
    grown = [(1, 11 * MiB), (2, 11 * MiB), (1, -1), (2, -1), (3, 24 * MiB)]
    # 12 + 12 MiB mapped; freed, the segment's end is one 24 MiB free block that holds the third request.
    assert reserved_peak(grown, expandable=True) == (24 * MiB, 24 * MiB)


def test_the_best_fit_block_is_taken_not_the_first() -> None:
    # Free blocks of 12 MiB and 14 MiB in separate segments; 13 MiB takes the 14 MiB one, 11 MiB the 12 MiB one.
    events = [(1, 12 * MiB), (2, 14 * MiB), (1, -1), (2, -1), (3, 13 * MiB), (4, 11 * MiB)]
    assert reserved_peak(events) == (26 * MiB, 26 * MiB)


REPLAY_RECORDED = """
import json, lzma, sys
from gpuconfig.workers.tracer.cuda_cache import reserved_peak
with lzma.open(sys.argv[1], "rt", encoding="utf-8") as handle:
    rows = {row["case"]: row for row in json.load(handle)["rows"]}
out = {}
for case in sys.argv[2:]:
    row = rows[case]
    events = [(a, s if act == "alloc" else -1) for act, a, s, _ in row["stream"] if act in ("alloc", "free_completed")]
    measured = row["measured"]
    torch_peaks = [measured["cuda_max_allocated_bytes"], measured["cuda_max_reserved_bytes"]]
    out[case] = [list(reserved_peak(events)), torch_peaks]
print(json.dumps(out))
"""


def test_the_model_replays_streams_recorded_on_an_h100_to_torchs_own_peaks() -> None:
    """Every allocation and free of real runs on an H100 (torch 2.11, recorded by benchmarks/gpu_allocations.py),
    replayed: the model's peaks are the ones torch.cuda.max_memory_allocated and max_memory_reserved reported,
    to the byte, for a convolutional training step (with cuDNN's workspaces) and a 4,096-token prompt. Read in a
    child process: the recordings' hundreds of thousands of events would leave the test process's heap holding
    large free blocks, which the heap-replay tests' forks must not inherit."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[2]
    recording = root / "benchmarks" / "results" / "gpu_h100" / "allocations.json.xz"
    cases = ["resnet-18-finetune-sgd", "llama-small-generate-4096", "resnet-50-finetune-amp"]
    done = subprocess.run(
        [sys.executable, "-c", REPLAY_RECORDED, str(recording), *cases],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        cwd=root,
    )
    replayed = json.loads(done.stdout)
    assert set(replayed) == set(cases)
    for case, (model, measured) in replayed.items():
        assert model == measured, case
