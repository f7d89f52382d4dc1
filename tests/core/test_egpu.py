"""The eGPU checker: catalog/egpu.toml row by row, each rule against real catalog enclosures and cards, the
link's speed and a workload's slowdown, and measurements judged against the link."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.build.model import OSES, PORTS
from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import Check, Host, check_egpu, dock_psu_needed, gpu_vendor
from gpuconfig.core.egpu.report import egpu_record, egpu_text, evaluate
from gpuconfig.core.egpu.speed import judge_measurement, link_speed, shortfall_reasons, slowdown
from gpuconfig.core.egpu.tables import (
    DOCK_LINKS,
    SECURITY_LEVELS,
    EgpuDataError,
    EgpuTables,
    egpu_tables,
    parse_tables,
)
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.userdata.store import Store

TABLES = egpu_tables()
RULES = build_rules()
PAIRS = [(port, dock) for port in PORTS for dock in DOCK_LINKS]


def dock_with(link: str, **specs: Any) -> Part:
    """An enclosure with only a link: the pairing rows speak of links, not products."""
    return Part("dock", f"dock-{link}", f"{link} enclosure", "Example", {"link": link, **specs}, ())


def by_rule(checks: tuple[Check, ...] | list[Check], rule: str) -> Check:
    return next(c for c in checks if c.rule == rule)


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Part]:
    store = Store.open(tmp_path_factory.mktemp("egpu") / "catalog.db", catalog_dir())
    try:
        return {p.id: p for kind in ("gpu", "dock") for p in store.parts(kind)}
    finally:
        store.close()


# --- the tables, row by row -------------------------------------------------------------------------------


def test_every_port_enclosure_os_and_security_row_is_there() -> None:
    assert set(TABLES.links) == set(PORTS)
    assert set(TABLES.pairings) == set(PAIRS)
    assert set(TABLES.oses) == {(o, v) for o in OSES for v in ("nvidia", "amd")}
    assert set(TABLES.security) == set(SECURITY_LEVELS)
    assert TABLES.driver_notes and all(n.sources for n in TABLES.driver_notes)


@pytest.mark.parametrize(("port", "dock"), PAIRS)
def test_pairing_row(port: str, dock: str) -> None:
    """Each row read through the checker, and held to what the physical links allow."""
    rule = TABLES.pairings[(port, dock)]
    assert rule.reason and rule.sources
    found = check_egpu(Host(port, "linux"), dock_with(dock), None, TABLES, RULES)
    check = by_rule(found.checks, "port")
    assert check.status == rule.status and rule.reason in check.message
    if rule.status == "fail":
        assert found.link is None and rule.fix
        return
    link = found.link
    assert link is not None and link.id == rule.link and link.carries_pcie
    # The pair never runs faster than either end: its link is no faster than the port's or the enclosure's.
    for end in (port, dock):
        if TABLES.links[end].raw_gbps and link.raw_gbps:
            assert link.raw_gbps <= TABLES.links[end].raw_gbps
    if rule.status == "warn":
        assert rule.fix


@pytest.mark.parametrize("port", PORTS)
def test_connectors_that_cannot_meet_fail(port: str) -> None:
    """A plain USB-C port tunnels nothing; OCuLink and Thunderbolt/USB4 plug into their own kind only."""
    for dock in DOCK_LINKS:
        status = TABLES.pairings[(port, dock)].status
        if port == "USB-C" or (port == "OCuLink") != (dock == "OCuLink"):
            assert status == "fail", (port, dock)
        else:
            assert status != "fail", (port, dock)


@pytest.mark.parametrize("link_id", PORTS)
def test_link_row(link_id: str) -> None:
    link = TABLES.links[link_id]
    assert link.sources and link.name
    if not link.carries_pcie:
        assert link_id == "USB-C" and link.h2d_gbs is None
        return
    if link.pcie_gbps is not None:  # a measured copy never beats what the link carries
        assert link.h2d_gbs is None or link.h2d_gbs <= link.pcie_gbps / 8
    if link.h2d_gbs is not None:
        assert link.pass_gbs is not None and link.pass_gbs <= link.h2d_gbs
        assert link.h2d_gbs < RULES.link_gbs(3, 16)  # slower than any desktop x16 slot
    if link.h2d_range_gbs is not None:
        low, high = link.h2d_range_gbs
        assert low <= (link.h2d_gbs or low) <= high
    if link.fail_gbs is not None:
        assert link.pass_gbs is not None and link.fail_gbs < link.pass_gbs
    assert link.hotplug is not None and link.power_to_host is not None


@pytest.mark.parametrize(("os_name", "vendor"), [(o, v) for o in OSES for v in ("nvidia", "amd")])
def test_os_row(os_name: str, vendor: str) -> None:
    rule = TABLES.oses[(os_name, vendor)]
    assert rule.reason and rule.sources
    if os_name.startswith("macos") and vendor == "nvidia":
        assert rule.status == "fail"  # no CUDA on macOS
    if os_name == "macos-apple":
        assert rule.status == "fail"  # no eGPU for PyTorch on Apple silicon
    if vendor == "nvidia" and os_name in ("windows", "linux"):
        assert (rule.status, rule.backend) == ("ok", "CUDA")
    if rule.status != "ok":
        assert rule.fix
    gpu = Part("gpu", "g", "Card", "NVIDIA" if vendor == "nvidia" else "AMD", {}, ())
    found = check_egpu(Host("TB4", os_name), None, gpu, TABLES, RULES)
    assert by_rule(found.checks, "os").status == rule.status


@pytest.mark.parametrize("level", SECURITY_LEVELS)
def test_security_row(level: str) -> None:
    rule = TABLES.security[level]
    expected = {"none": "ok", "user": "warn", "secure": "warn"}.get(level, "fail")
    assert rule.status == expected and rule.sources
    host = Host("TB3", "linux", how="detected", security=level)
    assert by_rule(check_egpu(host, None, None, TABLES, RULES).checks, "security").status == expected


def test_a_damaged_table_is_refused_naming_what_is_wrong() -> None:
    text = (catalog_dir() / "egpu.toml").read_text(encoding="utf-8")
    with pytest.raises(EgpuDataError, match="not valid TOML"):
        parse_tables(text + "\n[[link\n")
    without_row = text.replace('port = "TB5"\ndock = "TB3"', 'port = "TB5"\ndock = "TB4"', 1)
    with pytest.raises(EgpuDataError, match="missing pairing TB5/TB3"):
        parse_tables(without_row)
    with pytest.raises(EgpuDataError, match="status 'maybe' is not one of ok, warn, fail"):
        parse_tables(text.replace('status = "ok"', 'status = "maybe"', 1))
    with pytest.raises(EgpuDataError, match="cannot read"):
        egpu_tables(Path("/nonexistent/egpu.toml"))


# --- the rules against real catalog parts ----------------------------------------------------------------


def test_a_long_thick_hungry_card_in_a_small_enclosure(parts: dict[str, Part]) -> None:
    gearbox = parts["sapphire-gearbox"]  # rated for a 300 W card
    card = parts["nvidia-geforce-rtx-4090"]
    found = check_egpu(Host("TB3", "windows"), gearbox, card, TABLES, RULES)
    power = by_rule(found.checks, "power")
    assert power.status == "fail" and "450 W" in power.message and "300 W" in power.message
    assert found.status == "fail" and found.verdict == "will not work"
    assert found.checks[0].status == "fail"  # worst first


def test_a_card_that_fits(parts: dict[str, Part]) -> None:
    core_x = parts["razer-core-x"]
    card = parts["nvidia-geforce-rtx-4070"]
    found = check_egpu(Host("TB4", "windows", charger_w=90), core_x, card, TABLES, RULES)
    assert found.status in ("ok", "warn")
    assert by_rule(found.checks, "port").status == "ok" and found.link is not None and found.link.id == "TB3"
    assert by_rule(found.checks, "width").status == "ok"
    power = by_rule(found.checks, "power")  # 200 W of the 650 W supply less 100 W to the laptop
    assert power.status == "ok" and "550 W" in power.message
    assert by_rule(found.checks, "charging").status == "ok"
    charger = check_egpu(Host("TB4", "windows", charger_w=140), core_x, card, TABLES, RULES)
    assert by_rule(charger.checks, "charging").status == "warn"


def test_an_enclosure_without_a_supply_asks_for_one(parts: dict[str, Part]) -> None:
    card = parts["nvidia-geforce-rtx-4090"]
    found = check_egpu(Host("TB5", "linux"), parts["razer-core-x-v2"], card, TABLES, RULES)
    power = by_rule(found.checks, "power")
    need = dock_psu_needed(card, RULES)
    assert power.status == "warn" and f"{need} W" in power.message
    assert need == math.ceil(450 * RULES.gpu_factor_atx3 / RULES.comfortable_share)


def test_a_supply_near_its_limit_warns(parts: dict[str, Part]) -> None:
    node = replace(parts["akitio-node-pro"], specs={**parts["akitio-node-pro"].specs, "max_gpu_power_w": None})
    card = parts["nvidia-geforce-rtx-4090"]  # 450 W of a 500 W supply, less 60 W to the laptop: 102 %
    assert by_rule(check_egpu(Host("TB3", "linux"), node, card, TABLES, RULES).checks, "power").status == "fail"
    smaller = replace(card, specs={**card.specs, "tdp_w": 400})  # 400 of 440 W: over the comfortable share
    assert by_rule(check_egpu(Host("TB3", "linux"), node, smaller, TABLES, RULES).checks, "power").status == "warn"


def test_connectors_from_the_enclosure(parts: dict[str, Part]) -> None:
    ag02 = parts["aoostar-ag02"]  # 3x PCIe 8-pin
    eight = replace(
        parts["nvidia-geforce-rtx-4070"],
        specs={**parts["nvidia-geforce-rtx-4070"].specs, "power_connectors": "2x 8-pin PCIe"},
    )
    assert by_rule(check_egpu(Host("OCuLink", "linux"), ag02, eight, TABLES, RULES).checks, "connectors").status == "ok"
    many = replace(eight, specs={**eight.specs, "power_connectors": "4x 8-pin PCIe"})
    assert (
        by_rule(check_egpu(Host("OCuLink", "linux"), ag02, many, TABLES, RULES).checks, "connectors").status == "fail"
    )
    adapter = replace(
        eight, specs={**eight.specs, "power_connectors": "16-pin 12VHPWR (3x PCIe 8-pin via included adapter)"}
    )
    warn = by_rule(check_egpu(Host("OCuLink", "linux"), ag02, adapter, TABLES, RULES).checks, "connectors")
    assert warn.status == "warn" and "adapter" in warn.message
    deg1 = parts["minisforum-deg1"]  # the user's own supply feeds the card
    assert (
        by_rule(check_egpu(Host("OCuLink", "linux"), deg1, adapter, TABLES, RULES).checks, "connectors").status == "ok"
    )


def test_oculink_needs_a_cold_plug_and_its_own_charger(parts: dict[str, Part]) -> None:
    found = check_egpu(Host("OCuLink", "windows", charger_w=100), parts["aoostar-ag02"], None, TABLES, RULES)
    assert by_rule(found.checks, "hotplug").status == "warn"
    assert "carries no power" in by_rule(found.checks, "charging").message


def test_what_the_probe_read_is_judged(parts: dict[str, Part]) -> None:
    host = Host("USB4", "linux", how="detected", security="user", authorized=False, lanes=2, lane_gbps=10.0)
    found = check_egpu(host, parts["razer-core-x"], None, TABLES, RULES)
    assert by_rule(found.checks, "authorized").status == "fail"
    rate = by_rule(found.checks, "link-rate")
    assert rate.status == "warn" and "2 x 10 Gb/s = 20 Gb/s" in rate.message
    assert by_rule(found.checks, "security").status == "warn"
    assert by_rule(found.checks, "port").status == TABLES.pairings[("USB4", "TB3")].status == "warn"
    good = replace(host, authorized=True, lane_gbps=20.0)
    checks = check_egpu(good, parts["razer-core-x"], None, TABLES, RULES).checks
    assert by_rule(checks, "authorized").status == "ok" and by_rule(checks, "link-rate").status == "ok"
    # Seen working: an authorised enclosure on this port settles what the table can only warn about.
    assert by_rule(checks, "port").status == "ok" and "attached and authorised" in by_rule(checks, "port").message
    assert by_rule(checks, "security").status == "ok"


def test_vendors() -> None:
    assert gpu_vendor(Part("gpu", "a", "A", "NVIDIA", {}, ())) == "nvidia"
    assert gpu_vendor(Part("gpu", "b", "B", "AMD", {}, ())) == "amd"
    intel = Part("gpu", "c", "Arc", "Intel", {}, ())
    assert by_rule(check_egpu(Host("TB4", "linux"), None, intel, TABLES, RULES).checks, "os").status == "unknown"


# --- speed ---------------------------------------------------------------------------------------------


def test_the_link_against_a_desktop_slot(parts: dict[str, Part]) -> None:
    speed = link_speed(TABLES.links["TB3"], parts["nvidia-geforce-rtx-4090"], RULES)
    assert (
        speed is not None and speed.desktop_label == f"PCIe {parts['nvidia-geforce-rtx-4090'].specs['pcie_gen']}.0 x16"
    )
    assert speed.egpu_gbs == TABLES.links["TB3"].h2d_gbs and speed.ratio < 0.2
    assert link_speed(TABLES.links["USB-C"], None, RULES) is None


def test_slowdown_from_the_bytes_that_cross() -> None:
    speed = link_speed(TABLES.links["TB3"], None, RULES)
    assert speed is not None
    batch = 128 * 3 * 224 * 224 * 4  # a ResNet batch of fp32 pixels
    found = slowdown(0.2, batch, 100 * 2**20, speed)
    assert found.egpu_copy_s == pytest.approx(batch / (speed.egpu_gbs * 1e9))
    assert found.serial == pytest.approx((0.2 + found.egpu_copy_s) / (0.2 + found.desktop_copy_s) - 1)
    assert found.overlapped == 0.0  # the copy hides behind a longer step
    tokens = slowdown(0.2, 4 * 2048 * 8 * 2, 0, speed)  # token ids and labels: nothing to speak of
    assert tokens.serial < 0.001 < found.serial


@pytest.mark.parametrize(
    ("measured", "status", "cause"),
    [(2.6, "ok", ""), (1.5, "warn", "x2 tunnel"), (0.5, "fail", "x1 tunnel")],
)
def test_a_measured_copy_against_its_link(measured: float, status: str, cause: str) -> None:
    results = [{"name": "h2d_bandwidth", "variant": "pinned", "status": "ok", "value": measured}]
    (h2d, step) = judge_measurement(results, TABLES.links["TB3"], None)
    assert h2d.status == status and cause in h2d.fix
    assert step.status == "unknown"


def test_shortfall_names_the_link_the_probe_saw() -> None:
    host = Host("TB3", "linux", how="detected", lanes=1, lane_gbps=20.0, pcie_lanes=2)
    reasons = shortfall_reasons(1.0, TABLES.links["TB3"], host)
    assert "1 x 20 Gb/s" in reasons[0] and "x2, not x4" in reasons[1]


def test_a_cpu_run_says_nothing_crossed_a_link() -> None:
    """The records a probe run on this machine gives (the worker skips copies without a GPU)."""
    skipped = "no CUDA device: host-device copies need a GPU"
    step = {"name": "train_from_host", "status": "ok", "detail": {"step_s": 0.045, "batch": 32, "batch_bytes": 393472}}
    results = [
        {"name": "h2d_bandwidth", "variant": "", "status": "skipped", "reason": skipped},
        {**step, "variant": "resident", "value": 700.0},
        {**step, "variant": "from_host", "value": 690.0},
    ]
    h2d, step = judge_measurement(results, TABLES.links["TB3"], None)
    assert h2d.status == "unknown" and "no CUDA device" in h2d.message
    assert step.status == "unknown" and "no link was crossed" in step.message


def test_a_step_that_loses_more_than_the_copy_explains() -> None:
    base = {
        "name": "train_from_host",
        "status": "ok",
        "detail": {"step_s": 0.256, "batch": 256, "batch_bytes": 12_583_936},
    }
    results = [
        {"name": "h2d_bandwidth", "variant": "pinned", "status": "ok", "value": 2.5},
        {**base, "variant": "resident", "value": 1000.0},
        {**base, "variant": "from_host", "value": 500.0},
    ]
    step = judge_measurement(results, TABLES.links["TB3"], None)[1]
    assert step.status == "warn" and "100% slower" in step.message  # 12.6 MB at 2.5 GB/s explains 2 %
    results[2] = {**results[2], "value": 952.0}
    assert judge_measurement(results, TABLES.links["TB3"], None)[1].status == "ok"


def test_report_record_and_text(parts: dict[str, Part]) -> None:
    report = evaluate(Host("TB4", "linux"), parts["razer-core-x"], parts["nvidia-geforce-rtx-4070"], TABLES, RULES)
    record = egpu_record(report)
    assert record["compatibility"]["link"] == "TB3" and record["speed"]["link"] == "TB3"
    assert record["slowdown"] is None and record["measured"] == []
    text = egpu_text(report)
    assert "Thunderbolt 4 with Razer Core X + GeForce RTX 4070" in text and "GB/s" in text
    nothing = evaluate(None, None, None, TABLES, RULES, detection={"found": False, "reason": "why", "hints": []})
    assert egpu_record(nothing)["compatibility"] is None and egpu_text(nothing) == "Host: why"


def test_tables_are_frozen_data() -> None:
    assert isinstance(TABLES, EgpuTables)
    with pytest.raises(AttributeError):
        TABLES.links = {}  # type: ignore[misc]
