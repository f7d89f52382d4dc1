"""Measure this machine through PyTorch: the probe's benchmark suite, run as a program in a worker process.

Run as a package through boot.py (gpuconfig/workers) in whichever Python the user chose (it needs only
torch, and its modules import only each other, never gpuconfig). It reads one JSON request on stdin and
writes JSON lines on the channel the boot kept for it (whatever else prints, a library or a child process,
goes to stderr):

    {"suite": "quick" | "full", "only": [names] | null, "device": null (every GPU in turn, or the CPU) | "cuda:1",
     "disk_bytes": optional, "disk_dir": optional, "plan_only": optional}

    {"event": "plan", "suite": "quick", "benchmarks": ["matmul", ...]}        before torch is imported
    {"event": "torch", "version": ..., "cuda": ..., "devices": [...], ...}
        or {"event": "torch", "unavailable": why, "failure": "no_torch" | "broken_torch"}
    {"event": "start", "name", "index", "total", "what", "device", "unit"}    per device for one GPU's figures
    {"event": "result", "name", "dtype", "device", "value", "unit", "variant", "detail"}   one or more
    {"event": "skipped", "name", "dtype", "device", "unit", "reason"}      a figure this device cannot give
    {"event": "error", "name", "dtype", "device", "unit", "message", "failure": "out_of_memory" | "error"}
                                                                            a figure that raised; the suite goes on
    {"event": "done", "name"}

Every benchmark has a CPU path, so the whole suite runs on a machine without a GPU. Figures are timed with
time.perf_counter around loops of calls sized to a time budget; on a GPU each loop (and its warm-up) ends in
torch.cuda.synchronize, so the time covers the kernels, not just their launch.
"""
