"""Trace a workload's real training or inference steps without allocating its memory.

Run as a package through boot.py (gpuconfig/workers) in a Python that has torch (and transformers for
Hugging Face configs, diffusers for a diffusers UNet): it reads one JSON request on stdin and writes JSON
lines on the channel the boot kept for it (whatever the model's code prints goes to stderr):

    {"event": "progress", "done": 1, "total": 3, "what": "..."}
    {"event": "runtime", "torch": "2.13.0", "baseline_rss_bytes": ..., ...}
    {"event": "point", "batch": 4, "seq": 128, "memory": {...}, "flops": ..., ...}
    {"event": "error", "kind": "model|input|unsupported|internal", "message": "one line"}

The model is built under FakeTensorMode: every tensor has its real shape and dtype but no storage, so a
70B model traces on a laptop. Two full steps run (forward, loss, backward, optimizer step, zero_grad) so the
optimizer states are alive; PyTorch's MemTracker follows every storage's lifetime by category, and the
breakdown at the peak instant of the second step is reported. FLOPs and bytes per operator are counted in
the same run. Its modules import only each other, never gpuconfig: it runs in whichever Python has torch.
"""
