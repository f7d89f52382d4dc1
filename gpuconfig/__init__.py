"""gpuconfig: plan, check and set up machines that run PyTorch."""

__version__ = "0.1.0"
