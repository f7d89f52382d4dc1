"""What a training or inference workload needs: the workload described, its model traced in a worker (the
program in gpuconfig/workers/tracer, run in a Python with torch), memory and time fitted from the trace, and
what makes it fit; service.py is the one way from a workload to its fit."""
