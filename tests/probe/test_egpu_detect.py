"""The laptop side of an eGPU read from sysfs trees (the kernel's documented layout, and a real TB4 capture),
boltctl output as people posted it, and this machine, which has no Thunderbolt controller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuconfig.probe.egpu import WINDOWS_NOTE, detect, external_link, os_id, parse_boltctl
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.inventory import pcie_link
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import Unavailable
from tests.probe.sysfs import DATA, sysfs_tree

NO_GPU: list[GpuFacts] = []


def test_this_machine_reports_no_host_with_the_reason() -> None:
    found = detect()
    if found.host is not None:
        pytest.skip("this machine has a Thunderbolt/USB4 controller")
    assert found.reason == "no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)"
    record = found.to_json()
    assert record["found"] is False and record["host"] is None
    assert Unavailable.read(record["boltctl"]) is not None or isinstance(record["boltctl"], list)
    json.dumps(record)  # plain JSON all the way down


def test_thunderbolt_3_laptop_with_an_authorised_enclosure(tmp_path: Path) -> None:
    found = detect(sysfs_tree("sysfs_tb3", tmp_path), system="Linux", devices=NO_GPU, boltctl_text="")
    host = found.host
    assert host is not None and host.how == "detected"
    assert (host.port, host.os, host.security, host.authorized) == ("TB3", "linux", "user", True)
    assert (host.lanes, host.lane_gbps, host.link_gbps) == (2, 20.0, 40.0)
    assert host.name == ""  # no capture shows the host router's names: they are not reported
    assert [(e.name, e.vendor_name, e.device_name) for e in found.enclosures] == [("0-1", "Razer", "Core")]


def test_thunderbolt_4_capture_with_a_link_trained_at_half_rate(tmp_path: Path) -> None:
    """A real Razer Core X on an Alder Lake NUC (tests/probe/data/sysfs_tb4.json says what came from where)."""
    found = detect(sysfs_tree("sysfs_tb4", tmp_path), system="Linux", devices=NO_GPU, boltctl_text="")
    host = found.host
    assert host is not None
    assert host.port == "USB4"  # a TB4 host is a USB4 router: generation 4, and sysfs cannot tell them apart
    assert (host.lanes, host.lane_gbps, host.link_gbps) == (2, 10.0, 20.0)
    assert host.authorized is True and host.security == "user"
    assert found.enclosures[0].device_name == "Core X" and found.enclosures[0].generation == 3


def test_usb4_laptop_with_an_enclosure_not_yet_authorised(tmp_path: Path) -> None:
    found = detect(sysfs_tree("sysfs_usb4", tmp_path), system="Linux", devices=NO_GPU, boltctl_text="")
    host = found.host
    assert host is not None and host.port == "USB4"
    # The unauthorised USB4 enclosure and the TB3 dock behind it: the enclosure is directly attached.
    assert host.authorized is True  # the daisy-chained dock 0-301 is authorised, and it is preferred
    assert (host.lanes, host.lane_gbps) == (1, 10.0)
    assert {e.name for e in found.enclosures} == {"0-1", "0-301"}


def test_a_domain_without_pcie_tunnels_is_noted(tmp_path: Path) -> None:
    root = sysfs_tree("sysfs_usb4", tmp_path)
    for name in ("0-1", "0-301"):  # leave only domain1, whose firmware allows no PCIe tunnels
        for child in (root / "bus/thunderbolt/devices" / name).iterdir():
            child.unlink()
        (root / "bus/thunderbolt/devices" / name).rmdir()
    for child in (root / "bus/thunderbolt/devices/0-0").iterdir():
        child.unlink()
    (root / "bus/thunderbolt/devices/0-0").rmdir()
    found = detect(root, system="Linux", devices=NO_GPU, boltctl_text="")
    assert found.host is not None and found.host.security == "nopcie"
    assert any("no PCIe tunnels" in n for n in found.host.notes)
    assert any("no enclosure attached" in n for n in found.host.notes)


def test_garbled_entries_give_a_host_with_unknowns_not_a_crash(tmp_path: Path) -> None:
    found = detect(sysfs_tree("sysfs_tb_garbled", tmp_path), system="Linux", devices=NO_GPU, boltctl_text="")
    host = found.host
    assert host is not None and host.port == "TB3"
    assert host.security is None  # the domain lost its security file
    assert host.lanes == 2 and host.lane_gbps is None and host.link_gbps is None  # rx_speed read "fast"
    json.dumps(found.to_json())


def test_an_empty_bus_and_other_systems_say_why(tmp_path: Path) -> None:
    (tmp_path / "bus/thunderbolt/devices").mkdir(parents=True)
    empty = detect(tmp_path, system="Linux", devices=NO_GPU, boltctl_text="")
    assert empty.host is None and "no Thunderbolt/USB4 controller found" in empty.reason
    windows = detect(tmp_path, system="Windows", devices=NO_GPU, boltctl_text="")
    assert windows.host is None and windows.reason == WINDOWS_NOTE
    assert os_id("Windows") == "windows" and os_id("Darwin", "arm64") == "macos-apple"
    assert os_id("Darwin", "x86_64") == "macos-intel" and os_id("Linux") == "linux"


def test_a_gpu_behind_an_external_port_is_flagged_and_judged_by_its_link(tmp_path: Path) -> None:
    root = sysfs_tree("sysfs_pci_egpu", tmp_path)
    device = GpuFacts.from_record(
        {"name": "NVIDIA GeForce RTX 4070", "pci_bus_id": "0000:07:00.0", "pcie_sysfs": pcie_link("0000:07:00.0", root)}
    )
    found = detect(tmp_path / "no-thunderbolt", system="Linux", devices=[device], boltctl_text="")
    assert not isinstance(found.gpus, Unavailable)
    (gpu,) = found.gpus
    assert gpu.external is True and (gpu.link_generation, gpu.link_width) == (4, 16)
    assert gpu.narrowest_upstream is not None
    assert gpu.narrowest_upstream.bus_id == "0000:00:07.0"  # the tunnel's nominal 2.5 GT/s x1 bridge
    assert any("external port" in h for h in found.hints)
    tb3 = System.from_record({"thunderbolt": {"devices": [{"kind": "host", "generation": 3}]}})
    link = external_link(tb3, device)
    assert link is not None and link.link == "Thunderbolt 3 eGPU" and 1 < link.pass_gbs < 4
    assert external_link(tb3, GpuFacts.from_record({"pcie_sysfs": {"removable": "fixed"}})) is None


def test_a_x4_gpu_without_thunderbolt_hints_at_oculink() -> None:
    device = GpuFacts.from_record({"name": "NVIDIA GeForce RTX 4060", "pcie": {"max_generation": 4, "max_width": 4}})
    found = detect(Path("/nonexistent"), system="Linux", devices=[device], boltctl_text="")
    assert found.host is None
    assert any("OCuLink" in h for h in found.hints)
    assert not isinstance(found.gpus, Unavailable) and isinstance(found.gpus[0].external, Unavailable)


# --- boltctl, as people posted it ------------------------------------------------------------------------


def captures() -> list[dict[str, str]]:
    path = DATA / "boltctl_captures.json"
    return list(json.loads(path.read_text(encoding="utf-8"))["captures"])


@pytest.mark.parametrize("capture", captures(), ids=lambda c: c["name"])
def test_boltctl_captures_parse(capture: dict[str, str]) -> None:
    devices = parse_boltctl(capture["text"])
    assert devices, capture["url"]
    for device in devices:
        assert device["title"]
        for side in ("rx", "tx"):
            if f"{side}_speed" in device and "lanes" in device[f"{side}_speed"]:
                assert device[f"{side}_lanes"] in (1, 2) and device[f"{side}_lane_gbps"] in (10.0, 20.0, 40.0)


def test_boltctl_link_line_reads_lanes_and_rate() -> None:
    text = (
        " ● Razer Core X\n"
        "   ├─ type:          peripheral\n"
        "   ├─ generation:    Thunderbolt 3\n"
        "   ├─ status:        authorized\n"
        "   │  ├─ rx speed:   40 Gb/s = 2 lanes * 20 Gb/s\n"
        "   │  └─ tx speed:   20 Gb/s = 1 lanes * 20 Gb/s\n"
    )
    (device,) = parse_boltctl(text)
    assert device["title"] == "Razer Core X" and device["generation"] == "Thunderbolt 3"
    assert (device["rx_lanes"], device["rx_lane_gbps"], device["tx_lanes"]) == (2, 20.0, 1)
    assert parse_boltctl("") == [] and parse_boltctl("garbage without structure: x") == []
