"""Why a worker's task gave no result, as a value: what advice and verdicts switch on."""

from __future__ import annotations

from enum import StrEnum


class Failure(StrEnum):
    """Why a worker's task gave no result: a value that advice switches on, never the words of a message."""

    OUT_OF_MEMORY = "out_of_memory"  # an allocation failed, or the out-of-memory killer ended the process
    TIMEOUT = "timeout"  # it ran past its time limit
    CRASH = "crash"  # a signal ended it: segmentation fault, abort, bus error...
    ERROR = "error"  # it raised, or ended without saying why
    CANCELLED = "cancelled"
    NO_PYTHON = "no_python"  # the interpreter does not exist or cannot be started
    NO_TORCH = "no_torch"  # that Python has no torch, or no Python with torch was found
    BROKEN_TORCH = "broken_torch"  # torch is installed there but fails to import
