"""The machine inventory and NVML: this machine for real, sysfs and NVML fixtures built from documented layouts.

tests/probe/data/nvml_documented.json is built from the NVML API reference's documented return types (its "source"
says so): it covers what a real card seldom shows (ECC errors, retired pages, throttling, an old driver's refusals).
A real recording of an H100 is tested in test_recorded_h100.py. This machine has no NVIDIA driver, so the
unavailable path of NVML is tested for real.
"""

from __future__ import annotations

import json
import math
import os
import stat
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import pynvml
import pytest

from gpuconfig.probe import nvml
from gpuconfig.probe.inventory import Inventory, inventory, pcie_link, probe_python, pythons, thunderbolt
from gpuconfig.probe.model import Unavailable, to_json
from tests.probe.sysfs import DATA, sysfs_tree

LINUX = sys.platform.startswith("linux")


def is_unavailable(value: object) -> bool:
    """Whether a JSON value is the form an unavailable field is written in."""
    return Unavailable.read(value) is not None


def nvml_without_driver() -> str:
    """NVML's reason on this machine; skips where a driver is installed (those tests are for machines without)."""
    opened = nvml.Nvml.open()
    if isinstance(opened, nvml.Nvml):
        opened.close()
        pytest.skip("this machine has an NVIDIA driver")
    return opened.reason


# --- this machine -------------------------------------------------------------------------------------------


def test_inventory_of_this_machine_is_filled_and_fast() -> None:
    started = time.perf_counter()
    found = inventory()
    seconds = time.perf_counter() - started
    assert isinstance(found, Inventory)
    system = found.record()["system"]
    json.dumps(found.record())  # a JSON document, every field included
    assert system["os"]["machine"] and system["os"]["kernel"]
    cpu = system["cpu"]
    assert cpu["model"] and cpu["logical_cores"] == os.cpu_count()
    assert isinstance(cpu["physical_cores"], int) or is_unavailable(cpu["physical_cores"])
    if LINUX:
        assert all(isinstance(v, bool) for v in cpu["instruction_sets"].values())
        assert "avx512_bf16" in cpu["instruction_sets"] or "sve" in cpu["instruction_sets"]
    memory = system["memory"]
    assert memory["total_bytes"] > 2**30 and 0 < memory["available_bytes"] <= memory["total_bytes"]
    root = next(d for d in system["disks"] if d["mountpoint"] == "/") if LINUX else system["disks"][0]
    assert root["total_bytes"] > 0 and 0 <= root["free_bytes"] <= root["total_bytes"]
    assert isinstance(root["rotational"], bool) or is_unavailable(root["rotational"])
    assert system["pythons"][0]["path"] == sys.executable
    assert seconds < 5, f"inventory took {seconds:.2f} s"


def test_no_nvidia_driver_is_an_unavailable_gpu_with_its_reason() -> None:
    reason = nvml_without_driver()
    assert reason == "no NVIDIA driver (libnvidia-ml not found)"
    found = inventory()
    assert found.devices == ()
    assert found.system.gpu == Unavailable(reason)


def test_nvml_calls_without_a_session_are_values_not_exceptions() -> None:
    nvml_without_driver()
    assert nvml.call("nvmlDeviceGetCount") == Unavailable("NVML is not initialised")
    assert nvml.call("nvmlNoSuchQuery") == Unavailable("this nvidia-ml-py has no nvmlNoSuchQuery")


def test_recorder_says_why_nothing_was_recorded(tmp_path: Path) -> None:
    reason = nvml_without_driver()
    out = tmp_path / "recording.json"
    done = subprocess.run(
        [sys.executable, "-m", "gpuconfig.probe.nvml", "--record", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert reason in done.stderr
    recording = json.loads(out.read_text(encoding="utf-8"))
    assert recording["format"] == nvml.RECORDING_FORMAT
    assert recording["open"] == {"unavailable": reason}


# --- Python environments ------------------------------------------------------------------------------------


def test_this_interpreter_is_listed_with_its_torch() -> None:
    this = pythons()[0].record()
    assert this["path"] == sys.executable and this["source"] == "this interpreter"
    assert this["torch"] == metadata.version("torch")  # package metadata: torch itself is not imported here


def test_another_interpreter_is_asked_in_a_subprocess() -> None:
    asked = probe_python(sys.executable, "added").record()
    assert asked["python_version"] == f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
    assert asked["torch"] == metadata.version("torch")


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for broken interpreters")
def test_missing_and_broken_interpreters_are_unavailable_entries(tmp_path: Path) -> None:
    silly = _script(tmp_path / "silly", "echo 'not a python'\n")
    failing = _script(tmp_path / "failing", "echo 'Fatal Python error: init_fs_encoding' >&2\nexit 3\n")
    listing = tmp_path / "environments.txt"
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    _script(env / "bin" / "python", f'exec "{sys.executable}" "$@"\n')
    listing.write_text(f"{env}\n{tmp_path / 'deleted-env'}\n", encoding="utf-8")

    found = pythons([str(tmp_path / "no-such-python"), silly, failing, sys.executable], listing=listing)
    by_path = {entry["path"]: entry for entry in to_json(found)}
    assert len(found) == 5  # this one, the conda env, three added; the deleted env and the repeat are dropped
    conda = by_path[str(env / "bin" / "python")]
    assert conda["source"] == "conda" and conda["torch"] == metadata.version("torch")
    missing = by_path[str(tmp_path / "no-such-python")]
    assert is_unavailable(missing["torch"]) and "No such file" in missing["torch"]["unavailable"]
    assert by_path[silly]["torch"] == {"unavailable": f"{silly} did not answer like a Python interpreter"}
    assert by_path[failing]["python_version"] == {
        "unavailable": f"{failing} exited with code 3: Fatal Python error: init_fs_encoding"
    }


# --- Thunderbolt / USB4 (fixture trees from the kernel's documented layout) --------------------------------


def test_thunderbolt_3_host_with_an_egpu_enclosure(tmp_path: Path) -> None:
    found = to_json(thunderbolt(sysfs_tree("sysfs_tb3", tmp_path)))
    assert found["domains"] == [
        {
            "name": "domain0",
            "security": "user",
            "pcie_tunnels": True,
            "iommu_dma_protection": True,
            "deauthorization": False,
        }
    ]
    host, enclosure = found["devices"]
    assert (host["name"], host["kind"], host["generation_name"]) == ("0-0", "host", "Thunderbolt 3")
    assert host["rx_link_gbps"] == {"unavailable": "the host router has no upstream link"}
    assert enclosure["kind"] == "device" and enclosure["authorized"] == 1
    assert enclosure["device_name"] == "Core" and enclosure["vendor"] == "0x127"
    assert (enclosure["rx_speed_gbps"], enclosure["rx_lanes"], enclosure["rx_link_gbps"]) == (20.0, 2, 40.0)
    assert enclosure["tx_link_gbps"] == 40.0


def test_usb4_host_with_a_daisy_chain_a_retimer_and_a_domain_without_pcie(tmp_path: Path) -> None:
    found = to_json(thunderbolt(sysfs_tree("sysfs_usb4", tmp_path)))
    assert [d["name"] for d in found["domains"]] == ["domain0", "domain1"]
    assert [d["pcie_tunnels"] for d in found["domains"]] == [True, False]
    names = [d["name"] for d in found["devices"]]
    assert names == ["0-0", "0-1", "0-301", "1-0"]  # the retimer 0-0:1.1 is not a router
    egpu, dock = found["devices"][1], found["devices"][2]
    assert egpu["generation_name"] == "USB4" and egpu["authorized"] == 0
    assert dock["route"] == "301" and dock["generation"] == 3
    assert (dock["rx_lanes"], dock["rx_link_gbps"]) == (1, 10.0)
    assert is_unavailable(found["devices"][3]["authorized"])  # hidden where no PCIe tunnel can exist


def test_empty_thunderbolt_bus_says_none_found(tmp_path: Path) -> None:
    (tmp_path / "bus" / "thunderbolt" / "devices").mkdir(parents=True)
    expected = Unavailable("no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)")
    assert thunderbolt(tmp_path) == expected
    assert thunderbolt(tmp_path / "no-sysfs-here") == expected


def test_garbled_thunderbolt_entries_are_reported_not_raised(tmp_path: Path) -> None:
    found = to_json(thunderbolt(sysfs_tree("sysfs_tb_garbled", tmp_path)))
    (domain,) = found["domains"]
    assert is_unavailable(domain["security"]) and is_unavailable(domain["pcie_tunnels"])
    assert domain["iommu_dma_protection"] == {"unavailable": "unreadable value 'yes' in domain0/iommu_dma_protection"}
    broken = found["devices"][1]
    assert broken["generation"] == {"unavailable": "unreadable value 'three' in 0-1/generation"}
    assert broken["generation_name"] == broken["generation"]
    assert broken["rx_speed_gbps"] == {"unavailable": "unreadable value 'fast' in 0-1/rx_speed"}
    assert broken["rx_lanes"] == 2 and broken["rx_link_gbps"] == broken["rx_speed_gbps"]
    assert is_unavailable(broken["tx_speed_gbps"]) and is_unavailable(broken["tx_lanes"])
    not_a_folder = found["devices"][2]
    assert not_a_folder["name"] == "0-2"
    assert all(is_unavailable(not_a_folder[k]) for k in ("vendor_name", "generation", "authorized", "rx_link_gbps"))


def test_this_machines_thunderbolt_reading_is_a_value() -> None:
    found = to_json(thunderbolt())
    assert is_unavailable(found) or {"domains", "devices"} <= set(found)


# --- PCIe link from sysfs ---------------------------------------------------------------------------------


def test_pcie_link_of_an_egpu_lists_the_bridges_above_it(tmp_path: Path) -> None:
    link = to_json(pcie_link("0000:07:00.0", sysfs_tree("sysfs_pci_egpu", tmp_path)))
    assert (link["current_speed_gts"], link["current_generation"], link["current_width"]) == (16.0, 4, 16)
    assert (link["max_generation"], link["max_width"]) == (4, 16)
    assert link["removable"] == "removable"
    chain = [(u["bus_id"], u["current_generation"], u["current_width"]) for u in link["upstream"]]
    assert chain == [("0000:06:01.0", 4, 16), ("0000:05:00.0", 3, 4), ("0000:00:07.0", 1, 1)]
    assert link["upstream"][1]["max_speed_gts"] == 16.0  # "8 GT/s" (older kernels) and "16.0 GT/s PCIe" both read


def test_pcie_link_of_an_unknown_device_is_unavailable(tmp_path: Path) -> None:
    assert is_unavailable(pcie_link("0000:99:00.0", tmp_path))


# --- NVML parsing, against the documented-values fixture (a real recording: test_recorded_h100.py) ------


@pytest.fixture(scope="module")
def documented() -> dict[str, Any]:
    recording: dict[str, Any] = json.loads((DATA / "nvml_documented.json").read_text(encoding="utf-8"))
    assert recording["format"] == nvml.RECORDING_FORMAT and "NOT a recording" in recording["source"]
    return recording


def test_facts_of_a_datacenter_gpu(documented: dict[str, Any]) -> None:
    facts = nvml.facts_from_raw(documented["devices"][0]["facts"]).record()
    assert facts["index"] == 0
    assert facts["pci_bus_id"] == "0000:3b:00.0"
    assert facts["memory_total_bytes"] == 85899345920
    assert (facts["driver_version"], facts["cuda_driver_version"], facts["compute_capability"]) == (
        "550.54.15",
        "12.4",
        "9.0",
    )
    assert facts["power_limit_w"] == 700.0
    assert (facts["max_sm_clock_mhz"], facts["max_mem_clock_mhz"]) == (1980, 2619)
    assert facts["ecc_mode"] == {"current": True, "pending": True}
    assert (facts["ecc_corrected_volatile"], facts["ecc_uncorrected_volatile"]) == (3, 0)
    assert (facts["ecc_corrected_aggregate"], facts["ecc_uncorrected_aggregate"]) == (12, 0)
    assert (facts["retired_pages"], facts["retired_pages_single_bit"], facts["retired_pages_double_bit"]) == (2, 2, 0)
    assert facts["retired_pages_pending"] is False
    assert facts["remapped_rows"] == {"corrected": 1, "uncorrected": 0, "pending": False, "failed": False}
    assert facts["pcie"] == {
        "current_generation": 1,
        "current_width": 16,
        "max_generation": 5,
        "gpu_max_generation": 5,
        "max_width": 16,
        "replay_count": 0,
    }
    assert facts["mig_mode"] == {"current": False, "pending": False}
    assert (facts["slowdown_temperature_c"], facts["shutdown_temperature_c"], facts["gpu_max_temperature_c"]) == (
        90,
        95,
        87,
    )
    assert facts["persistence_mode"] is True


def test_facts_nvml_refuses_are_unavailable_with_the_reason(documented: dict[str, Any]) -> None:
    facts = nvml.facts_from_raw(documented["devices"][1]["facts"]).record()
    not_supported = {"unavailable": "not supported on this GPU"}
    for name in ("ecc_mode", "ecc_uncorrected_volatile", "retired_pages", "remapped_rows", "mig_mode"):
        assert facts[name] == not_supported, name
    assert facts["gpu_max_temperature_c"] == not_supported
    assert facts["pcie"]["gpu_max_generation"] == {"unavailable": "this NVIDIA driver is too old for this query"}
    assert (facts["pcie"]["current_generation"], facts["pcie"]["current_width"]) == (4, 8)
    assert facts["compute_capability"] == "8.9" and facts["persistence_mode"] is False


def test_live_samples(documented: dict[str, Any]) -> None:
    idle, busy, throttled = (nvml.sample_from_raw(s).record() for s in documented["devices"][0]["samples"])
    assert idle["clocks_event_reasons"] == {"mask": 1, "names": ["gpu_idle"]}
    assert busy["util_gpu_pct"] == 97.0 and busy["util_mem_pct"] == 64.0
    assert busy["mem_used_bytes"] == 60129542144
    assert busy["temperature_c"] == 71.0 and busy["power_w"] == pytest.approx(689.012)
    assert (busy["sm_clock_mhz"], busy["mem_clock_mhz"]) == (1755.0, 2619.0)
    assert busy["pcie_rx_mbs"] == pytest.approx(2000.0)  # 1,953,125 KiB/s
    assert busy["clocks_event_reasons"]["names"] == ["sw_power_cap"]
    assert throttled["clocks_event_reasons"] == {
        "mask": 0x248,
        "names": ["hw_slowdown", "hw_thermal_slowdown", "bit_0x200"],
    }
    partial = nvml.sample_from_raw(documented["devices"][1]["samples"][0]).record()
    assert partial["pcie_rx_mbs"] == {"unavailable": "not supported on this GPU"}
    assert is_unavailable(partial["clocks_event_reasons"])
    assert math.isclose(partial["pcie_tx_mbs"], 7 * 1024 / 1e6)


def test_every_call_exists_in_the_installed_nvidia_ml_py() -> None:
    for spec in nvml.SYSTEM_CALLS + nvml.FACT_CALLS + nvml.SAMPLE_CALLS:
        assert callable(getattr(pynvml, spec[0], None)), spec[0]
        for constant in spec[1:]:
            assert isinstance(getattr(pynvml, constant, None), int), constant


def test_nvml_structures_become_json() -> None:
    memory = pynvml.c_nvmlMemory_t()
    memory.total, memory.free, memory.used = 25757220864, 25240338432, 516882432
    pci = pynvml.nvmlPciInfo_t()
    pci.busId = b"00000000:AF:00.0"
    utilisation = pynvml.c_nvmlUtilization_t()
    utilisation.gpu, utilisation.memory = 97, 64
    assert nvml.to_json(memory) == {"total": 25757220864, "free": 25240338432, "used": 516882432}
    assert nvml.to_json(pci)["busId"] == "00000000:AF:00.0"
    assert nvml.to_json(utilisation) == {"gpu": 97, "memory": 64}
    assert nvml.to_json((8, 9)) == [8, 9] and nvml.to_json(Unavailable("x")) == {"unavailable": "x"}
    raw = {"nvmlDeviceGetMemoryInfo()": nvml.to_json(memory), "nvmlDeviceGetPciInfo()": nvml.to_json(pci)}
    facts = nvml.facts_from_raw(json.loads(json.dumps(raw))).record()
    assert (facts["memory_total_bytes"], facts["pci_bus_id"]) == (25757220864, "0000:af:00.0")


def test_unexpected_raw_values_are_unavailable_not_errors() -> None:
    facts = nvml.facts_from_raw({"nvmlDeviceGetCudaComputeCapability()": "9.0", "nvmlDeviceGetPciInfo()": {}}).record()
    assert facts["compute_capability"] == {
        "unavailable": "unexpected value from nvmlDeviceGetCudaComputeCapability(): '9.0'"
    }
    assert is_unavailable(facts["pci_bus_id"])
    assert facts["name"] == {"unavailable": "nvmlDeviceGetName() was not read"}
