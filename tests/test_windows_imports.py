"""Every gpuconfig module imports where POSIX-only names do not exist (Windows): in a subprocess, every
module is imported once as usual (so the libraries it uses are loaded as they are), then again from scratch
after what Windows lacks was taken out of `signal` and `os` and the POSIX-only modules made unimportable."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# What Python's signal module has on Windows (the documented signals, and the functions it offers there).
WINDOWS_SIGNAL = {
    "SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIG_DFL", "SIG_IGN", "NSIG",
    "Signals", "Handlers", "default_int_handler", "getsignal", "raise_signal", "set_wakeup_fd", "signal",
    "strsignal", "valid_signals",
}  # fmt: skip
# os names POSIX has and Windows lacks, among those a process-handling program reaches for.
POSIX_OS = [
    "fork", "forkpty", "killpg", "getpgid", "setpgid", "setsid", "getsid", "getpgrp", "getuid", "geteuid",
    "getgid", "getegid", "waitid", "wait3", "wait4", "WNOHANG", "WNOWAIT", "WEXITED", "WUNTRACED", "P_PID",
    "P_PGID", "P_ALL", "sysconf", "confstr", "pathconf", "statvfs", "uname", "getloadavg", "nice",
    "sched_getaffinity", "sched_setaffinity", "posix_fadvise", "POSIX_FADV_DONTNEED", "O_DIRECT",
    "register_at_fork", "pidfd_open", "mkfifo", "openpty",
]  # fmt: skip
POSIX_MODULES = ["resource", "fcntl", "pwd", "grp", "termios", "tty", "pty", "posix"]

SCRIPT = textwrap.dedent(
    """
    import importlib, json, os, pkgutil, signal, sys
    import gpuconfig

    windows_signal, posix_os, posix_modules = json.loads(sys.argv[1])
    names = sorted(m.name for m in pkgutil.walk_packages(gpuconfig.__path__, "gpuconfig."))
    for name in names:
        importlib.import_module(name)
    for name in [n for n in sys.modules if n == "gpuconfig" or n.startswith("gpuconfig.")]:
        del sys.modules[name]
    removed = [n for n in dir(signal) if not n.startswith("_") and n not in windows_signal]
    for name in removed:
        delattr(signal, name)
    removed += [n for n in posix_os if hasattr(os, n)]
    for name in posix_os:
        if hasattr(os, name):
            delattr(os, name)
    for name in posix_modules:
        sys.modules[name] = None  # import raises ImportError, as on Windows
    failed = {}
    for name in ["gpuconfig", *names]:
        try:
            importlib.import_module(name)
        except Exception as exc:
            failed[name] = f"{type(exc).__name__}: {exc}"
    print(json.dumps({"modules": names, "removed": removed, "failed": failed}))
    """
)


def test_every_module_imports_without_posix_only_names() -> None:
    arguments = json.dumps([sorted(WINDOWS_SIGNAL), POSIX_OS, POSIX_MODULES])
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, arguments], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"SIGKILL", "SIGBUS", "SIGHUP"} <= set(found["removed"]) and "killpg" in found["removed"]
    assert {"gpuconfig.core.workers.process", "gpuconfig.probe.runner", "gpuconfig.ui.workload.tab"} <= set(
        found["modules"]
    )
    assert found["failed"] == {}
