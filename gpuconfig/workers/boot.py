"""Start a worker program with a message channel of its own, so that it dies with the program that started it.

Run as a file, `python boot.py PROGRAM`, in whichever Python the worker needs (standard library only,
Python 3.8 or newer, nothing from gpuconfig). PROGRAM is a program's folder (bench/, tracer/: a package
with a __main__.py) or a single script. A folder runs as `python -m` would run it, with the folder that
holds it (this one) first on the import path, so its modules import each other as a package does, in a
Python that has no gpuconfig; a script runs as `python SCRIPT` would. Before PROGRAM runs as __main__:

- Its messages have a channel of their own: the process's original stdout, kept under another descriptor
  whose number is in GPUCONFIG_EVENTS_FD. Descriptor 1 and sys.stdout then go to stderr, so nothing else
  that prints (a user's model file, a library, a child process) can be read as one of the worker's messages.
- Its request is the first line on stdin, handed to the program as sys.stdin.
- stdin stays open for as long as the parent wants the worker. When it ends (the parent closed it, or died:
  SIGKILL, SIGTERM, a crash) the worker's process group is killed: the program and every process it started.

Where processes fork (Linux, macOS) this process stays behind as the group's supervisor: it runs the program
in a child, watches stdin, and ends as the child ended (its exit status, or the signal that killed it). The
supervisor runs nothing but this file, so it is always able to kill the group, however the program is stuck.
On Linux the kernel also kills the program when the supervisor dies (prctl(2), PR_SET_PDEATHSIG), even while
it is stuck in C code. On Windows the program runs in this process, and a thread of its own watches stdin.
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
    run(os.path.abspath(sys.argv[0]))


def run(program: str) -> None:
    """Run a program's folder as a package (`python -m NAME` from the folder that holds it), or a script."""
    # `python boot.py` put this folder first on the import path: the program's own belongs there.
    sys.path[0] = os.path.dirname(program)
    if os.path.isdir(program):
        runpy.run_module(os.path.basename(program), run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(program, run_name="__main__")


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
    """The supervisor: kill the group when stdin ends; else end as the program's process ended."""
    os.dup2(2, 1)  # the message channel is the program's alone: its end is the end of the messages
    threading.Thread(target=_watch, name="lifeline", daemon=True).start()
    _, status = os.wait()
    if os.WIFSIGNALED(status):
        import resource

        ended_by = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the program's crash has dumped its core already
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
