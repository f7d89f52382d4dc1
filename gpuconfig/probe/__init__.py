"""The live probe: what this machine is (inventory, NVML, the eGPU host), its benchmarks run in a worker
(worker.py, in a Python with torch), live metrics, verdicts against references, and the run history."""
