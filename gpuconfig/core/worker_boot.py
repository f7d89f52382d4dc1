"""Start a worker script with a message channel of its own, so that it dies with the program that started it.

Run as a file, `python worker_boot.py SCRIPT`, in whichever Python the worker needs (standard library only,
Python 3.8 or newer, nothing from gpuconfig). Before SCRIPT runs as __main__:

- Its messages have a channel of their own: the process's original stdout, kept under another descriptor
  whose number is in GPUCONFIG_EVENTS_FD. Descriptor 1 and sys.stdout then go to stderr, so nothing else
  that prints (a user's model file, a library, a child process) can be read as one of the worker's messages.
- Its request is the first line on stdin, handed to the script as sys.stdin.
- stdin stays open for as long as the parent wants the worker. When it ends (the parent closed it, or died:
  SIGKILL, SIGTERM, a crash) the worker's process group is killed: the script and every program it started.

Where processes fork (Linux, macOS) this process stays behind as the group's supervisor: it runs the script
in a child, watches stdin, and ends as the child ended (its exit status, or the signal that killed it). The
supervisor runs nothing but this file, so it is always able to kill the group, however the script is stuck.
On Linux the kernel also kills the script when the supervisor dies (prctl(2), PR_SET_PDEATHSIG), even while
it is stuck in C code. On Windows the script runs in this process, and a thread of its own watches stdin.
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
    if hasattr(os, "fork"):
        supervisor = os.getpid()
        if os.fork() != 0:
            _supervise()
        die_with(supervisor)
    else:
        threading.Thread(target=_watch, name="lifeline", daemon=True).start()
    os.environ[EVENTS_FD] = str(os.dup(1))  # not inherited by the programs the worker starts (PEP 446)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.stdin = io.StringIO(request)
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


def die_with(parent: int) -> None:
    """On Linux, have the kernel kill this process when `parent` (its parent when it started) ends, even
    while it is stuck in C code. Ends it at once when that parent has already ended."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before the line above: no signal would come
        os._exit(1)


def _supervise() -> None:
    """The supervisor: kill the group when stdin ends; else end as the script's process ended."""
    os.dup2(2, 1)  # the message channel is the script's alone: its end is the end of the messages
    threading.Thread(target=_watch, name="lifeline", daemon=True).start()
    _, status = os.wait()
    if os.WIFSIGNALED(status):
        import resource

        ended_by = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the script's crash has dumped its core already
        if ended_by != signal.SIGKILL:  # its handler cannot be set, and needs no resetting
            signal.signal(ended_by, signal.SIG_DFL)  # Python's own for SIGINT, its ignoring of SIGPIPE
        os.kill(os.getpid(), ended_by)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _watch() -> None:
    while os.read(0, 4096):
        pass  # the parent writes nothing more: only the end of the pipe matters
    if hasattr(os, "killpg") and os.getpgid(0) == os.getpid():  # the group started with the worker
        os.killpg(0, signal.SIGKILL)
    os._exit(1)


if __name__ == "__main__":
    main()
