"""China as a first-class market: prices set in CNY (not converted), clouds that bill in CNY, a 220 V circuit."""

from __future__ import annotations

import re

from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.catalog.files import load_catalog
from gpuconfig.core.paths import catalog_dir

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def test_at_least_40_parts_carry_a_price_set_in_cny_each_dated_with_its_basis_and_source() -> None:
    parts = load_catalog(catalog_dir()).parts
    native = {p.id: [x for x in p.catalog_prices if x.currency == "CNY"] for p in parts}
    native = {part: prices for part, prices in native.items() if prices}
    assert len(native) >= 40
    for prices in native.values():
        for price in prices:
            assert DATE.match(price.date) and price.basis and price.source.startswith(("http://", "https://"))
            assert price.amount > 0
    kinds = {p.kind for p in parts if p.id in native}
    assert {"gpu", "cpu", "ssd", "cloud"} <= kinds
    assert {"nvidia-geforce-rtx-4090-d", "nvidia-geforce-rtx-5090-d"} <= set(native)  # the China-only SKUs


def test_three_cloud_providers_bill_in_cny_per_hour() -> None:
    clouds = [p for p in load_catalog(catalog_dir()).parts if p.kind == "cloud"]
    billed = {p.specs["provider"] for p in clouds if p.price is not None and p.price.currency == "CNY"}
    assert len(billed) >= 3
    assert all(p.price.per == "hour" for p in clouds if p.price is not None and p.price.currency == "CNY")


def test_the_china_market_defaults_to_a_220_v_socket() -> None:
    rules = build_rules()
    china = rules.market_of("CNY")
    circuit = rules.circuits[china.circuit]
    assert "220 V" in circuit.label and circuit.watts == 10 * 220 * 0.8
    assert china.electricity_per_kwh is not None and "CNY/kWh" in china.electricity_source
