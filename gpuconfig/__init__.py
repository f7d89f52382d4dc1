"""gpuconfig: plan, check and set up machines that run PyTorch."""

__version__ = "0.1.0"

# The app asking itself, in a child, whether NVML starts safely (gpuconfig.probe.nvml_guard); defined here, where
# both the entry point and the guard read it, so that telling it from a command loads nothing.
CHECK_NVML = "--check-nvml"
