"""The checker's figures, read from catalog/build_rules.toml with their sources."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gpuconfig.core.i18n import translate
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload.communication import pcie_gbs

RULES_FILE = "build_rules.toml"


class RulesError(ValueError):
    """build_rules.toml is missing a figure or has one of the wrong type; the message names it."""


@dataclass(frozen=True)
class Circuit:
    id: str
    label: str
    watts: int
    source: str

    @property
    def title(self) -> str:
        """The label in the language in use (core/data_strings.py marks it)."""
        return translate("Circuits", self.label)


@dataclass(frozen=True)
class Market:
    """Where the user buys: the currency prices start in, the wall circuit assumed, an example electricity price."""

    id: str
    label: str
    currency: str
    circuit: str
    electricity_per_kwh: float | None = None
    electricity_source: str = ""
    languages: tuple[str, ...] = ()  # the interface languages whose users start in this market
    guide_mirrors: bool = False  # the setup guide installs through mainland China's mirrors

    @property
    def title(self) -> str:
        return translate("Markets", self.label)


@dataclass(frozen=True)
class Rules:
    rest_of_system_w: int
    gpu_factor_atx3: float
    gpu_factor_atx2: float
    psu_source: str
    comfortable_share: float
    comfortable_source: str
    efficiency: dict[str, float]
    efficiency_source: str
    circuits: dict[str, Circuit]
    open_air_max_cards: int
    cooling_source: str
    ram_gpu_ratio: float
    ram_source: str
    p2p_source: str
    min_lanes_per_gpu: int
    pcie_source: str
    link_x16_gbs: dict[int, float]  # PCIe generation -> measured GB/s per direction on x16
    link_source: str
    markets: dict[str, Market]

    def market_of(self, currency: str) -> Market:
        """The market whose prices are in `currency` (the first listed where several are)."""
        return next((m for m in self.markets.values() if m.currency == currency), next(iter(self.markets.values())))

    def circuit_for(self, currency: str) -> str:
        """The wall circuit a build priced in `currency` assumes until the user picks one."""
        return self.market_of(currency).circuit

    def chosen_market(self, saved: str | None, language: str) -> Market:
        """The market the user chose (`saved`), else the one users of `language` start in, else the first."""
        if saved in self.markets:
            return self.markets[saved]
        by_language = (m for m in self.markets.values() if language in m.languages)
        return next(by_language, next(iter(self.markets.values())))

    def circuit_after(self, circuit: str, old_currency: str, new_currency: str) -> str:
        """The circuit once prices move from `old_currency` to `new_currency`: the new market's where the circuit
        was the old market's default (the user never picked one), else the one the user picked."""
        return self.circuit_for(new_currency) if circuit == self.circuit_for(old_currency) else circuit

    def link_gbs(self, generation: int, lanes: int) -> float:
        """Measured copy rate of a PCIe link: the nearest measured generation at or below, scaled by lanes."""
        return pcie_gbs(self.link_x16_gbs, generation, lanes)


def parse_rules(document: str, name: str = RULES_FILE) -> Rules:
    try:
        data = tomllib.loads(document)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{name}: not valid TOML: {exc}") from exc

    def value(table: str, key: str) -> object:
        section: object = data
        for part in table.split("."):
            section = section.get(part, {}) if isinstance(section, dict) else {}
        return section.get(key) if isinstance(section, dict) else None

    def text(table: str, key: str) -> str:
        found = value(table, key)
        if not isinstance(found, str) or not found.strip():
            raise RulesError(f"{name}: [{table}] {key}: expected text, found {found!r}")
        return found

    def number(table: str, key: str) -> float:
        found = value(table, key)
        if isinstance(found, bool) or not isinstance(found, int | float) or found <= 0:
            raise RulesError(f"{name}: [{table}] {key}: expected a positive number, found {found!r}")
        return float(found)

    efficiency_table = data.get("psu", {}).get("efficiency", {})
    efficiency = {k: float(v) for k, v in efficiency_table.items() if k != "source"}
    circuits = {
        cid: Circuit(
            cid,
            text(f"circuits.{cid}", "label"),
            int(number(f"circuits.{cid}", "watts")),
            text(f"circuits.{cid}", "source"),
        )
        for cid in data.get("circuits", {})
    }
    if not circuits:
        raise RulesError(f"{name}: no [circuits.*] tables")
    markets = {}
    for mid, table in data.get("markets", {}).items():
        where = f"markets.{mid}"
        circuit = text(where, "circuit")
        if circuit not in circuits:
            raise RulesError(f"{name}: [{where}] circuit: {circuit!r} is not one of {', '.join(circuits)}")
        price = value(where, "electricity_per_kwh")
        markets[mid] = Market(
            mid,
            text(where, "label"),
            text(where, "currency"),
            circuit,
            number(where, "electricity_per_kwh") if price is not None else None,
            text(where, "electricity_source") if price is not None else "",
            tuple(str(language) for language in table.get("languages", ())),
            table.get("guide_mirrors") is True,
        )
    if not markets:
        raise RulesError(f"{name}: no [markets.*] tables")
    return Rules(
        rest_of_system_w=int(number("psu", "rest_of_system_w")),
        gpu_factor_atx3=number("psu", "gpu_factor_atx3"),
        gpu_factor_atx2=number("psu", "gpu_factor_atx2"),
        psu_source=text("psu", "source"),
        comfortable_share=number("psu", "comfortable_share"),
        comfortable_source=text("psu", "comfortable_source"),
        efficiency=efficiency,
        efficiency_source=text("psu.efficiency", "source"),
        circuits=circuits,
        open_air_max_cards=int(number("cooling", "open_air_max_cards")),
        cooling_source=text("cooling", "source"),
        ram_gpu_ratio=number("memory", "gpu_memory_ratio"),
        ram_source=text("memory", "source"),
        p2p_source=text("p2p", "source"),
        min_lanes_per_gpu=int(number("pcie", "min_lanes_per_gpu")),
        pcie_source=text("pcie", "source"),
        link_x16_gbs={g: number("links", f"gen{g}_x16_gbs") for g in (3, 4, 5)},
        link_source=text("links", "source"),
        markets=markets,
    )


@cache
def build_rules(directory: Path | None = None) -> Rules:
    path = (directory or catalog_dir()) / RULES_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read: {exc}") from exc
    return parse_rules(text, path.name)
