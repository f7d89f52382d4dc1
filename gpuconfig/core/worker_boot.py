"""Start a worker script with a message channel of its own, so that it dies with the program that started it.

Run as a file, `python worker_boot.py SCRIPT`, in whichever Python the worker needs (standard library only,
Python 3.8 or newer, nothing from gpuconfig). Before SCRIPT runs as __main__:

- Its messages have a channel of their own: the process's original stdout, kept under another descriptor
  whose number is in GPUCONFIG_EVENTS_FD. Descriptor 1 and sys.stdout then go to stderr, so nothing else
  that prints (a user's model file, a library, a child process) can be read as one of the worker's messages.
- Its request is the first line on stdin, handed to the script as sys.stdin.
- stdin stays open for as long as the parent wants the worker. When it ends (the parent closed it, or died:
  SIGKILL, SIGTERM, a crash) the worker kills its process group, itself and what it started, or on Windows
  exits. On Linux the kernel also kills the worker when its parent dies (prctl(2), PR_SET_PDEATHSIG), even
  while the worker is stuck in C code.
"""

from __future__ import annotations

import io
import os
import runpy
import signal
import sys
import threading

EVENTS_FD = "GPUCONFIG_EVENTS_FD"
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def main() -> None:
    request = _first_line().decode("utf-8")
    os.environ[EVENTS_FD] = str(os.dup(1))  # not inherited by the programs the worker starts (PEP 446)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.stdin = io.StringIO(request)
    die_with_parent()
    sys.argv = sys.argv[1:]
    # `python worker_boot.py` put this folder first on the import path: the script's own belongs there.
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
    runpy.run_path(sys.argv[0], run_name="__main__")


def _first_line() -> bytes:
    # Descriptor 0 itself, never sys.stdin's buffer: a thread blocked in that buffer's lock stops the
    # interpreter's shutdown with a fatal error.
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(0, 65536)
        if not chunk:
            break
        data += chunk
    return data


def die_with_parent() -> None:
    """End this process (and its group) when the parent dies or closes stdin."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    threading.Thread(target=_watch, name="lifeline", daemon=True).start()


def _watch() -> None:
    while os.read(0, 4096):
        pass  # the parent writes nothing more: only the end of the pipe matters
    if hasattr(os, "killpg") and os.getpgid(0) == os.getpid():  # the group started with the worker
        os.killpg(0, signal.SIGKILL)
    os._exit(1)


if __name__ == "__main__":
    main()
