"""The one place that runs a worker subprocess: a program that reads a JSON request and writes JSON lines.

Every worker starts through the boot script (programs.BOOT): its messages come on a channel of their own
(what else it prints goes to stderr and is never read as a message), and it dies with this process (see
gpuconfig/workers/boot.py). It runs
in its own process group, so cancelling or timing out kills everything it started (DataLoader workers,
spawned ranks) and not just the program. Its stderr goes to a temporary file, whose last lines explain a
failure. The caller gets each parsed line as it arrives and, at the end, how the process ended: in words
("crashed (segmentation fault)", "killed by signal 9 (out of memory?)") and as a Failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gpuconfig.core.failures import Failure
from gpuconfig.core.workers.environment import start_program
from gpuconfig.core.workers.programs import BOOT
from gpuconfig.core.workers.pythons import worker_python

# How often the watchdog looks at cancel and the deadline: a cancel kills the worker within ~0.1 s.
WATCH_INTERVAL_S = 0.05
STDERR_TAIL_LINES = 20
STDERR_TAIL_BYTES = 64 * 1024
# Words a Python or PyTorch process writes when an allocation fails (MemoryError; c10's DefaultCPUAllocator
# says "can't allocate memory"; the C library's strerror(ENOMEM) is "Cannot allocate memory").
OUT_OF_MEMORY_WORDS = ("MemoryError", "can't allocate memory", "Cannot allocate memory", "out of memory")
# By name: Windows has only SIGSEGV, SIGABRT, SIGILL and SIGFPE of these (and no worker ends by a signal there).
SIGNAL_WORDS: dict[int, str] = {
    getattr(signal, name): words
    for name, words in (
        ("SIGKILL", "killed by signal 9 (out of memory?)"),
        ("SIGSEGV", "crashed (segmentation fault)"),
        ("SIGABRT", "crashed (aborted)"),
        ("SIGBUS", "crashed (bus error)"),
        ("SIGILL", "crashed (illegal instruction: built for a newer CPU?)"),
        ("SIGFPE", "crashed (arithmetic error)"),
    )
    if hasattr(signal, name)
}
# The signal Linux's out-of-memory killer sends; None where there is no such signal.
OOM_KILL: int | None = getattr(signal, "SIGKILL", None)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class Deadline:
    """A time-out that the caller may move while the worker runs (one per benchmark, say)."""

    def __init__(self, seconds: float | None = None) -> None:
        self._lock = threading.Lock()
        self.seconds: float | None = None
        self._at: float | None = None
        self.reset(seconds)

    def reset(self, seconds: float | None) -> None:
        """From now, the worker may run `seconds` more; None means no limit."""
        with self._lock:
            self.seconds = seconds
            self._at = None if seconds is None else time.monotonic() + seconds

    def expired(self) -> bool:
        with self._lock:
            return self._at is not None and time.monotonic() > self._at


@dataclass(frozen=True)
class WorkerExit:
    """How a worker process ended.

    code: its exit status (negative: the signal that killed it); stopped: "cancelled" or "timeout" when
    the watchdog killed it, "" when it ended by itself; timeout_s: the limit it ran past.
    """

    code: int
    stopped: str
    stderr_tail: tuple[str, ...]
    seconds: float
    timeout_s: float | None = None

    @property
    def ok(self) -> bool:
        return self.code == 0 and not self.stopped

    @property
    def out_of_memory(self) -> bool:
        killed = OOM_KILL is not None and self.code == -OOM_KILL
        return killed or any(w in line for line in self.stderr_tail for w in OUT_OF_MEMORY_WORDS)

    @property
    def failure(self) -> Failure | None:
        """Why it stopped, as a value; None when it ended by itself with exit status 0."""
        if self.stopped:
            return Failure.CANCELLED if self.stopped == "cancelled" else Failure.TIMEOUT
        if self.code == 0:
            return None
        if self.out_of_memory:
            return Failure.OUT_OF_MEMORY
        return Failure.CRASH if self.code < 0 else Failure.ERROR

    @property
    def reason(self) -> str:
        """Why it stopped, in words: the time-out, the signal, or the last line it wrote to stderr."""
        if self.stopped == "cancelled":
            return "cancelled"
        if self.stopped == "timeout":
            return f"took longer than {self.timeout_s:g} s" if self.timeout_s is not None else "timed out"
        if self.code < 0:
            return SIGNAL_WORDS.get(-self.code, f"killed by signal {-self.code}")
        last = self.stderr_tail[-1] if self.stderr_tail else f"exit code {self.code}"
        if self.code != 0 and self.out_of_memory and not last.lower().startswith("out of memory"):
            return f"out of memory: {last}"
        return last


def run_worker(
    program: Path,
    request: dict[str, Any],
    on_event: Callable[[dict[str, Any]], None],
    python: str | None = None,
    cancelled: Callable[[], bool] | None = None,
    deadline: Deadline | None = None,
) -> WorkerExit:
    """Run `program` (a worker program's folder, or a single script) in `python` through the boot script, send
    it `request`, hand each JSON object it sends to `on_event`, until it ends.

    Cancel and the deadline are watched on a thread and kill the whole process group at once, not at the
    worker's next line. An exception from `on_event` kills the worker and propagates. Raises OSError when
    `python` cannot be started, or (from worker_python) when none was given and none can be chosen.
    """
    started = time.monotonic()
    # A file, not a pipe: a worker writing many warnings would fill a pipe and block. Closed below.
    stderr = tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115
    try:
        process = start_program(
            [python or worker_python(), str(BOOT), str(program)],
            env={"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,  # its own process group: killing it kills anything it started too
        )
    except OSError:
        stderr.close()
        raise
    stop = threading.Event()
    why: list[str] = []
    limit = deadline or Deadline()

    def watch() -> None:
        while not stop.wait(WATCH_INTERVAL_S):
            if cancelled is not None and cancelled():
                why.append("cancelled")
            elif limit.expired():
                why.append("timeout")
            elif _has_exited(process):
                # The program is gone: end anything it left behind that still holds its stdout open.
                _kill_group(process)
                return
            if why:
                _kill_group(process)
                return

    watcher = threading.Thread(target=watch, name="worker-watchdog", daemon=True)
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        watcher.start()
        _send(process.stdin, request)
        for line in process.stdout:
            event = _parse(line)
            if event is not None:
                on_event(event)
        _wait_unreaped(process)  # the watchdog still enforces cancel and the deadline meanwhile
    finally:
        stop.set()
        watcher.join()
        _kill_group(process)  # what it left behind, or all of it when on_event raised
        code = process.wait()
        with contextlib.suppress(OSError):  # the worker is gone: its lifeline is left to close
            process.stdin.close()
        process.stdout.close()
        tail = _tail(stderr)
        stderr.close()
    return WorkerExit(code, why[0] if why else "", tail, round(time.monotonic() - started, 3), limit.seconds)


def die_with(parent: int) -> None:
    """For a child of the app's own (the NVML check): on Linux, have the kernel kill this process when
    `parent` ends, even while it is stuck in C code; end it at once when that parent has ended already.
    A worker gets the same from boot.py, which keeps its own copy: it runs where gpuconfig is not installed."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before the line above: no signal would come
        os._exit(1)


def _send(stdin: IO[str], request: dict[str, Any]) -> None:
    """One line; stdin then stays open: the worker lives while it is (boot.py)."""
    try:
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
    except OSError:
        pass  # it died before reading: its exit says why


def _parse(line: str) -> dict[str, Any] | None:
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return None  # only the worker writes on its channel: a broken line is one cut short by its end
    return event if isinstance(event, dict) else None


def _has_exited(process: subprocess.Popen[str]) -> bool:
    """Whether the program has ended, without reaping it: its id stays reserved for the group kill."""
    if not hasattr(os, "waitid"):
        return process.poll() is not None
    return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _wait_unreaped(process: subprocess.Popen[str]) -> None:
    if hasattr(os, "waitid"):
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    else:
        process.wait()


def _kill_group(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        if process.returncode is None:
            process.kill()


def _tail(stderr: IO[bytes]) -> tuple[str, ...]:
    size = stderr.seek(0, os.SEEK_END)
    stderr.seek(max(0, size - STDERR_TAIL_BYTES))
    lines = stderr.read().decode("utf-8", errors="replace").strip().splitlines()
    return tuple(line.rstrip() for line in lines[-STDERR_TAIL_LINES:] if line.strip())
