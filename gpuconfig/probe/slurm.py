"""`fleet run --slurm`: the headless probe on every node of a Slurm allocation at once, then an all-reduce
across the nodes that reported, each node's report in one folder with a manifest of how each ended.

One job: `salloc --no-shell --exclusive --no-kill` takes the nodes; each node's probe is a job step of its
own (`srun --jobid J -N1 -w NODE --whole gpuconfig fleet node`) with every CPU and GPU of its node, so a node
that fails or hangs ends only its own step, at its own time limit, and the rest complete. The all-reduce is
one more step: torchrun on every node that reported (`srun ... python -m torch.distributed.run
--rdzv-backend=c10d --rdzv-endpoint=FIRST:PORT`, the rendezvous on the first node), NCCL across the GPUs when
every node has them, gloo between one CPU process per node otherwise; the bus bandwidth as nccl-tests reports
it (busbw = algbw x 2(n-1)/n, https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md). The
allocation is cancelled at the end, on an error, and when the user stops the run: no step outlives it.

The report folder is a new one (the command line refuses one that holds reports), so a report in it is this
run's. It must be one every node can write (a shared file system, as a Slurm cluster's home or
scratch is), and gpuconfig must be installed at the same path on every node.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from gpuconfig.core.fleet.reports import MANIFEST, RUN_FORMAT
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.core.workers.programs import FOLDER

COMMANDS = ("salloc", "srun", "scontrol", "scancel")
ALLREDUCE_ARGUMENTS = "GPUCONFIG_ALLREDUCE"  # what workers/bench/allreduce.py's ranks read
STATUS = ".status"  # each node's progress line, written by `fleet node`
LOGS = "logs"
WAITING, RUNNING, DONE, FAILED, STOPPED = "waiting", "running", "done", "failed", "stopped"


class SlurmError(RuntimeError):
    """Slurm cannot run the fleet: its commands are missing, or it refused the allocation. One line."""


@dataclass(frozen=True)
class FleetPlan:
    out: Path
    suite: str = "quick"
    nodes: int | None = None
    nodelist: str | None = None
    partition: str | None = None
    only: tuple[str, ...] = ()
    python: str | None = None  # the Python with torch on the nodes (the same path on each)
    node_limit_s: float = 900.0
    allreduce_limit_s: float = 300.0
    allocation_wait_s: float = 600.0
    gpus_per_node: int | None = None  # asked for explicitly: an exclusive job's steps get only GPUs it asked for
    salloc_args: tuple[str, ...] = ()  # site flags: --account, --qos, --constraint ...
    allreduce: bool = True


@dataclass
class NodeState:
    node: str
    state: str = WAITING
    reason: str = ""
    seconds: float | None = None
    doing: str = ""  # the node's own progress line while it runs
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    began: float = 0.0


Progress = Callable[[Sequence[NodeState]], None]


def missing_commands() -> list[str]:
    return [name for name in COMMANDS if shutil.which(name) is None]


def run_fleet(plan: FleetPlan, progress: Progress | None = None) -> dict[str, Any]:
    """Run the fleet; return (and write as fleet.json in plan.out) the run's manifest."""
    missing = missing_commands()
    if missing:
        raise SlurmError(f"Slurm's {', '.join(missing)} not found on PATH: run this where jobs are submitted")
    plan.out.mkdir(parents=True, exist_ok=True)
    (plan.out / LOGS).mkdir(exist_ok=True)
    (plan.out / STATUS).mkdir(exist_ok=True)
    started_at = datetime.now().astimezone().isoformat(timespec="seconds")
    name = f"gpuconfig-fleet-{os.getpid()}-{int(time.time())}"  # this run's job, found by name if salloc is cut off
    states: list[NodeState] = []
    allreduce: dict[str, Any] | None = None
    stopped: KeyboardInterrupt | None = None
    job = ""
    with _stop_signals():
        try:
            job = _allocate(plan, name)
            states = [NodeState(node) for node in _job_nodes(job)]
            _probe_nodes(plan, job, states, progress)
            if plan.allreduce:
                allreduce = _allreduce(plan, job, [s.node for s in states if s.state == DONE])
        except KeyboardInterrupt as exc:  # the user stopped the run: what ended stays recorded, the rest says so
            stopped = exc
            for state in states:
                if state.state not in (DONE, FAILED):
                    state.state, state.reason = STOPPED, "stopped by the user"
        finally:
            # The allocation first: scancel ends every step of it at once; then each srun is reaped.
            cancel = ["scancel", job] if job else ["scancel", f"--name={name}"]
            subprocess.run(cancel, capture_output=True, check=False, timeout=30)
            _stop_all([s.process for s in states])
    if not job:
        raise stopped or SlurmError("salloc: no allocation")
    manifest = {
        "format": RUN_FORMAT,
        "job": job,
        "started_at": started_at,
        "suite": plan.suite,
        "only": list(plan.only) or None,
        "nodes": {s.node: {"state": s.state, "reason": s.reason or None, "seconds": s.seconds} for s in states},
        "allreduce": allreduce,
    }
    write_text_atomic(plan.out / MANIFEST, json_text(manifest))
    if stopped is not None:
        raise stopped
    return manifest


def node_command(plan: FleetPlan) -> list[str]:
    """What each node's step runs: this gpuconfig's `fleet node` (the bundle's program, or this Python's)."""
    command = [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "gpuconfig"]
    command += ["fleet", "node", "--out", str(plan.out.resolve()), "--suite", plan.suite]
    if plan.only:
        command += ["--only", ",".join(plan.only)]
    if plan.python:
        command += ["--python", plan.python]
    return command


def _allocate(plan: FleetPlan, name: str) -> str:
    # --no-kill: a node that fails ends its own step, not the job; --mem=0: all of each node's memory (salloc(1)).
    command = [
        "salloc",
        "--no-shell",
        "--exclusive",
        "--no-kill",
        "--mem=0",
        f"--job-name={name}",
        "--ntasks-per-node=1",
    ]
    if plan.gpus_per_node:
        command.append(f"--gpus-per-node={plan.gpus_per_node}")
    command.append(f"--time={_minutes(plan.node_limit_s + plan.allreduce_limit_s + 120)}")
    if plan.nodelist:
        command.append(f"--nodelist={plan.nodelist}")
    if plan.nodes:
        command.append(f"--nodes={plan.nodes}")
    if plan.partition:
        command.append(f"--partition={plan.partition}")
    command += plan.salloc_args
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=plan.allocation_wait_s, check=False)
    except subprocess.TimeoutExpired as exc:
        granted = re.search(r"Granted job allocation (\d+)", str(exc.stderr or ""))
        if granted:
            subprocess.run(["scancel", granted.group(1)], capture_output=True, check=False, timeout=30)
        pending = re.search(r"Pending job allocation (\d+)", str(exc.stderr or ""))
        if pending:
            subprocess.run(["scancel", pending.group(1)], capture_output=True, check=False, timeout=30)
        raise SlurmError(f"salloc: no allocation within {plan.allocation_wait_s:g} s; cancelled") from None
    granted = re.search(r"Granted job allocation (\d+)", done.stderr)
    if done.returncode != 0 or not granted:
        raise SlurmError(f"salloc: {_last_line(done.stderr) or f'exit code {done.returncode}'}")
    return granted.group(1)


def _job_nodes(job: str) -> list[str]:
    shown = _scontrol("show", "job", job)
    nodes = re.search(r"\bNodeList=(\S+)", shown)
    if not nodes or nodes.group(1) in ("", "(null)"):
        raise SlurmError(f"scontrol show job {job}: no nodes allocated")
    return _scontrol("show", "hostnames", nodes.group(1)).split()


def _probe_nodes(plan: FleetPlan, job: str, states: list[NodeState], progress: Progress | None) -> None:
    command = node_command(plan)
    limit = _minutes(plan.node_limit_s)
    for state in states:
        (plan.out / STATUS / state.node).unlink(missing_ok=True)
        step = [
            "srun",
            f"--jobid={job}",
            "--nodes=1",
            "--ntasks=1",
            f"--nodelist={state.node}",
            "--whole",
            f"--time={limit}",
            "--job-name=gpuconfig-probe",
            *command,
        ]
        log = plan.out / LOGS / state.node
        with open(f"{log}.out", "wb") as out, open(f"{log}.err", "wb") as err:
            state.process = subprocess.Popen(
                step, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True
            )
        state.state, state.began = RUNNING, time.monotonic()
    said: list[tuple[str, str]] = []
    while True:
        for state in states:
            if state.state != RUNNING or state.process is None:
                continue
            state.doing = _last_line(_read(plan.out / STATUS / state.node))
            code = state.process.poll()
            elapsed = time.monotonic() - state.began
            if code is None and elapsed > plan.node_limit_s:
                _stop_all([state.process])
                state.state, state.seconds = FAILED, round(elapsed, 1)
                state.reason = f"stopped at its time limit, {plan.node_limit_s:g} s{_node_condition(state.node)}"
            elif code is not None:
                state.seconds = round(elapsed, 1)
                if code == 0 and _appears(plan.out / f"{state.node}.json"):
                    state.state = DONE
                else:
                    state.state = FAILED
                    state.reason = _why(code, plan.out / LOGS / f"{state.node}.err") + _node_condition(state.node)
        now = [(s.state, s.doing) for s in states]
        if progress is not None and now != said:
            progress(states)
            said = now
        if all(s.state in (DONE, FAILED) for s in states):
            return
        time.sleep(0.5)


def _allreduce(plan: FleetPlan, job: str, nodes: list[str]) -> dict[str, Any]:
    """One all-reduce across `nodes` (torchrun under srun), or why there is none."""
    if len(nodes) < 2:
        return {"skipped": f"{len(nodes)} node reported; an all-reduce across nodes needs two or more"}
    gpus = _gpus_per_node(plan.out, nodes)
    backend, per_node = ("nccl", gpus) if gpus else ("gloo", 1)
    world = len(nodes) * per_node
    sizes = [64 << 20, 256 << 20, 1024 << 20] if backend == "nccl" else [1 << 20, 16 << 20, 64 << 20]
    iterations = 10
    first = _node_address(nodes[0])
    port = 20000 + int(job) % 10000  # one job, one port: two fleets at once do not meet
    python = plan.python or _torch_python()
    env = dict(os.environ)
    env[ALLREDUCE_ARGUMENTS] = json.dumps({"backend": backend, "sizes": sizes, "iterations": iterations})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(FOLDER), env.get("PYTHONPATH")) if p)
    if backend == "gloo":
        env.setdefault("OMP_NUM_THREADS", "1")
    command = [
        "srun",
        f"--jobid={job}",
        f"--nodes={len(nodes)}",
        f"--ntasks={len(nodes)}",
        "--ntasks-per-node=1",
        f"--nodelist={','.join(nodes)}",
        f"--time={_minutes(plan.allreduce_limit_s)}",
        "--job-name=gpuconfig-allreduce",
        "--kill-on-bad-exit=1",
        "--whole",
        python,
        "-m",
        "torch.distributed.run",
        f"--nnodes={len(nodes)}",
        f"--nproc-per-node={per_node}",
        "--rdzv-backend=c10d",
        f"--rdzv-endpoint={first}:{port}",
        f"--rdzv-id=gpuconfig-{job}",
        "--max-restarts=0",
        "-m",
        "bench.allreduce",
    ]
    began = time.monotonic()
    log = plan.out / LOGS / "allreduce.err"
    with open(log, "wb") as err:
        try:
            done = subprocess.run(
                command,
                stdout=subprocess.PIPE,
                stderr=err,
                stdin=subprocess.DEVNULL,
                env=env,
                timeout=plan.allreduce_limit_s + 30,
                check=False,
                start_new_session=True,
            )
        except subprocess.TimeoutExpired:
            return {"failed": f"stopped at its time limit, {plan.allreduce_limit_s:g} s", "nodes": nodes}
    timings: dict[int, list[float]] = {}
    for line in done.stdout.decode(errors="replace").splitlines():
        if line.startswith("{"):
            try:
                row = json.loads(line)
                size, seconds = int(row["bytes"]), [float(v) for v in row["seconds"] if float(v) > 0]
            except (ValueError, KeyError, TypeError):
                continue
            if seconds:
                timings[size] = seconds
    if done.returncode != 0 or not timings:
        return {"failed": _why(done.returncode, log), "nodes": nodes, "backend": backend}
    bus = 2 * (world - 1) / world
    by_size = {}
    for size, seconds in sorted(timings.items()):
        middle = sorted(seconds)[len(seconds) // 2]
        algbw = size / middle / 1e9
        by_size[str(size)] = {
            "algbw_gbs": round(algbw, 4),
            "busbw_gbs": round(algbw * bus, 4),
            "spread": round((max(seconds) - min(seconds)) / middle, 3),
        }
    largest = str(max(timings))
    return {
        "backend": backend,
        "nodes": nodes,
        "ranks": world,
        "ranks_per_node": per_node,
        "bytes": int(largest),
        "iterations": iterations,
        "busbw_gbs": by_size[largest]["busbw_gbs"],
        "algbw_gbs": by_size[largest]["algbw_gbs"],
        "by_size": by_size,
        "seconds": round(time.monotonic() - began, 1),
        "launcher": f"srun + torchrun, c10d rendezvous on {nodes[0]}",
        "formula": "busbw = algbw * 2(n-1)/n (nccl-tests doc/PERFORMANCE.md)",
    }


def _gpus_per_node(out: Path, nodes: Sequence[str]) -> int:
    """The GPUs every node's torch saw (the fewest), 0 when a node has none."""
    counts = []
    for node in nodes:
        try:
            torch = json.loads((out / f"{node}.json").read_text(encoding="utf-8")).get("torch") or {}
        except (OSError, ValueError):
            return 0
        devices = torch.get("devices") if isinstance(torch, dict) and torch.get("cuda_available") else None
        counts.append(len(devices) if isinstance(devices, list) else 0)
    return min(counts) if counts else 0


def _torch_python() -> str:
    from gpuconfig.core.workers.pythons import chosen_python

    return chosen_python()[0]


def _node_address(node: str) -> str:
    shown = _scontrol("show", "node", node)
    found = re.search(r"\bNodeAddr=(\S+)", shown)
    return found.group(1) if found else node


def _node_condition(node: str) -> str:
    """What Slurm says of a node that is not well ("; Slurm: node n2 is IDLE* (not responding)")."""
    try:
        shown = _scontrol("show", "node", node)
    except SlurmError:
        return ""
    state = re.search(r"\bState=(\S+)", shown)
    reason = re.search(r"\bReason=(.+?)(?: \[|$)", shown, re.M)
    if not state:
        return ""
    words = state.group(1)
    bad = "*" in words or any(w in words for w in ("DOWN", "DRAIN", "FAIL", "NOT_RESPONDING"))
    if not bad:
        return ""
    said = " (not responding)" if "*" in words else ""
    return f"; Slurm: node {node} is {words}{said}" + (f", {reason.group(1).strip()}" if reason else "")


def _why(code: int | None, log: Path) -> str:
    """Why a step ended badly, from its exit status and the last words srun or the program wrote."""
    lines = [line.strip() for line in _read(log).splitlines() if line.strip()]
    cancelled = [line for line in lines if "CANCELLED" in line]  # slurmstepd says why it ended a step
    said = [line for line in lines if "error" in line.lower()]
    last = (cancelled or said or lines or [""])[-1].strip("* ")[:300]
    if code is not None and code < 0:
        try:
            what = f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            what = f"signal {-code}"
    else:
        what = f"exit code {code}"
    return f"{what}: {last}" if last else what


def _scontrol(*args: str) -> str:
    try:
        done = subprocess.run(["scontrol", *args], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SlurmError(f"scontrol {' '.join(args)}: {exc}") from exc
    if done.returncode != 0:
        raise SlurmError(f"scontrol {' '.join(args)}: {_last_line(done.stderr) or done.returncode}")
    return done.stdout


def _stop_all(processes: Sequence[subprocess.Popen[bytes] | None], wait_s: float = 10.0) -> None:
    """End steps' sruns together: SIGINT twice within a second makes srun cancel its step (srun(1)); what is
    still running after `wait_s` is killed. Every process is reaped."""
    running = [p for p in processes if p is not None and p.poll() is None]
    for _ in range(2 if running else 0):
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.2)
    deadline = time.monotonic() + wait_s
    for process in running:
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP (the session closed, the job killed) end the run as Ctrl+C does: the allocation
    cancelled, the manifest written. Only in the main thread, where Python delivers signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_number: int, _frame: object) -> None:
        raise KeyboardInterrupt

    saved = {number: signal.signal(number, interrupt) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _appears(path: Path, wait_s: float = 5.0) -> bool:
    """Whether a file a node wrote is there, waiting a little: a shared file system (NFS) can show another
    machine's new file a few seconds late."""
    deadline = time.monotonic() + wait_s
    while not path.is_file():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.25)
    return True


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def _read(path: Path) -> str:
    """A log or status file as it is now, "" while there is none."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def write_status(out: Path, node: str, text: str) -> None:
    """A node's progress line for `fleet run` to show ("3/9 matmul")."""
    folder = out / STATUS
    try:
        folder.mkdir(exist_ok=True)
        write_text_atomic(folder / node, text + "\n")
    except OSError:
        pass  # progress only: the report is what counts


def node_name() -> str:
    """This node's name as Slurm knows it (several slurmd on one host each have theirs), else the host's."""
    import platform

    return os.environ.get("SLURMD_NODENAME") or platform.node() or "node"


def probe_node(out: Path, suite: str, only: Sequence[str] | None, python: str | None, limits: Any) -> Path:
    """This node's probe, its report written whole as OUT/<node>.json (`fleet node`)."""
    from gpuconfig.probe.sampler import Sampler
    from gpuconfig.probe.session import probe

    node = node_name()
    write_status(out, node, "starting")

    def progress(done: int, total: int, what: str) -> None:
        write_status(out, node, f"{done + 1}/{total} {what}")

    sampler = Sampler(hz=2.0)
    sampler.start()
    try:
        run = probe(
            suite,
            python=python,
            only=only,
            progress=progress,
            series=lambda: sampler.snapshot().record(),
            limits=limits,
        )
    finally:
        sampler.stop()
    record = run.record()
    record["node"] = node
    record["scheduler"] = _scheduler_facts()
    path = out / f"{node}.json"
    write_text_atomic(path, json_text(record))
    write_status(out, node, "done")
    return path


def _scheduler_facts() -> Mapping[str, str]:
    keys = {"SLURM_JOB_ID": "job", "SLURM_STEP_ID": "step", "SLURM_CLUSTER_NAME": "cluster"}
    return {name: os.environ[key] for key, name in keys.items() if os.environ.get(key)}
