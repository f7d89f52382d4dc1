"""gpuconfig: plan, check and set up machines that run PyTorch."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gpuconfig")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
