"""The fleet tests' real Slurm cluster (tests/fleet/cluster.py), started once for the tests that need it."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fleet import cluster

REQUIRE = "GPUCONFIG_REQUIRE_SLURM"  # set by .ci/run: there a cluster that cannot start is a failure


@pytest.fixture(scope="session")
def slurm() -> Iterator[cluster.Cluster]:
    why = cluster.missing()
    if why:
        if os.environ.get(REQUIRE):
            pytest.fail(f"{REQUIRE} is set but {why}")
        pytest.skip(why)
    folder = Path(tempfile.mkdtemp(prefix="gpuconfig-slurm-"))
    started = cluster.start(folder)
    try:
        yield started
    finally:
        started.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def slurm_env(slurm: cluster.Cluster, monkeypatch: pytest.MonkeyPatch) -> cluster.Cluster:
    """This test talks to the cluster: SLURM_CONF and gloo's interface set, every node idle to begin with."""
    for key, value in slurm.env.items():
        monkeypatch.setenv(key, value)
    slurm.wait_idle()
    return slurm
