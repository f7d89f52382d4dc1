"""A real Slurm cluster on this one machine for the fleet tests: Debian's slurm-wlm and munge, slurmctld
plus three slurmd (`slurmd -N nX`, each on its own port, all at 127.0.0.1), started in a folder of its own
and stopped afterwards. `.ci/run` installs the packages; as root only (slurmd starts job steps as the user)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

NODES = ("n1", "n2", "n3")
DAEMONS = ("slurmctld", "slurmd", "munged", "srun", "salloc", "scontrol", "sinfo")


def missing() -> str:
    """Why this machine cannot run the cluster ("" when it can)."""
    absent = [name for name in DAEMONS if shutil.which(name) is None and not Path("/usr/sbin", name).exists()]
    if absent:
        return f"Slurm is not installed ({', '.join(absent)} missing: apt-get install slurm-wlm munge)"
    if os.geteuid() != 0:
        return "slurmd runs job steps as their user and must be started as root"
    return ""


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


@dataclass
class Cluster:
    folder: Path
    conf: Path

    @property
    def env(self) -> dict[str, str]:
        return {"SLURM_CONF": str(self.conf), "GLOO_SOCKET_IFNAME": "lo"}

    def command(self, *args: str, timeout: float = 30) -> str:
        done = subprocess.run(
            list(args), capture_output=True, text=True, timeout=timeout, check=False, env={**os.environ, **self.env}
        )
        return done.stdout + done.stderr

    def pid(self, daemon: str) -> int:
        return int((self.folder / f"{daemon}.pid").read_text().strip())

    def start_node(self, node: str) -> None:
        (self.folder / "spool" / node).mkdir(parents=True, exist_ok=True)
        subprocess.run([_sbin("slurmd"), "-f", str(self.conf), "-N", node], check=True, env={**os.environ, **self.env})

    def kill_node(self, node: str) -> None:
        """The node dies: its slurmd and every process of its job steps, killed."""
        os.kill(self.pid(f"slurmd-{node}"), signal.SIGKILL)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                environ = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if f"SLURMD_NODENAME={node}".encode() in environ and f"SLURM_CONF={self.conf}".encode() in environ:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(entry.name), signal.SIGKILL)

    def wait_idle(self, nodes: tuple[str, ...] = NODES, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        shown = ""
        while time.monotonic() < deadline:
            shown = self.command("sinfo", "-h", "-N", "-o", "%N %t")
            states = dict(line.split() for line in shown.splitlines() if len(line.split()) == 2)
            if all(states.get(n) == "idle" for n in nodes):
                return
            time.sleep(0.5)
        raise RuntimeError(f"the Slurm nodes did not come up idle: {shown}")

    def stop(self) -> None:
        for sent in (signal.SIGTERM, signal.SIGKILL):
            for pidfile in self.folder.glob("*.pid"):
                with contextlib.suppress(ValueError, OSError):
                    os.kill(int(pidfile.read_text().strip()), sent)
            time.sleep(1)


def start(folder: Path) -> Cluster:
    """Write slurm.conf in `folder`, start munged (when none runs), slurmctld and a slurmd per node."""
    folder.mkdir(parents=True, exist_ok=True)
    for sub in ("state", "spool", "log"):
        (folder / sub).mkdir(exist_ok=True)
    controller, daemons, *node_ports = _free_ports(2 + len(NODES))
    host = socket.gethostname()
    node_lines = "\n".join(
        f"NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 Port={port} CPUs={os.cpu_count() or 1} "
        f"RealMemory=1000 State=UNKNOWN"
        for node, port in zip(NODES, node_ports, strict=True)
    )
    conf = folder / "slurm.conf"
    conf.write_text(
        f"""ClusterName=gpuconfig-tests
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={controller}
SlurmdPort={daemons}
SlurmUser=root
AuthType=auth/munge
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool/%n
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd-%n.pid
SlurmctldLogFile={folder}/log/slurmctld.log
SlurmdLogFile={folder}/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=5
MessageTimeout=5
InactiveLimit=0
KillWait=5
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
{node_lines}
PartitionName=debug Nodes={",".join(NODES)} Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
""",
        encoding="utf-8",
    )
    _munge()
    cluster = Cluster(folder, conf)
    subprocess.run([_sbin("slurmctld"), "-f", str(conf)], check=True, env={**os.environ, **cluster.env})
    for node in NODES:
        cluster.start_node(node)
    cluster.wait_idle()
    return cluster


def _munge() -> None:
    """munged, as Debian's munge package runs it (user munge, /run/munge), unless one already answers."""
    if subprocess.run("munge -n | unmunge", shell=True, capture_output=True, check=False).returncode == 0:
        return
    run = Path("/run/munge")
    run.mkdir(parents=True, exist_ok=True)
    shutil.chown(run, "munge", "munge")
    subprocess.run(["su", "-s", "/bin/sh", "munge", "-c", _sbin("munged")], check=True)
    for _ in range(50):
        if subprocess.run("munge -n | unmunge", shell=True, capture_output=True, check=False).returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError("munged did not start")


def _sbin(name: str) -> str:
    return shutil.which(name) or str(Path("/usr/sbin", name))
