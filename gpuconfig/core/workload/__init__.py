"""What a training or inference workload needs: the workload described, its model traced in a worker
(trace_worker.py, run in a Python with torch), memory and time fitted from the trace, and what makes it fit."""
