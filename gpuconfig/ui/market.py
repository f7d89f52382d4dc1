"""The market the window starts in: the currency the catalog, a new build and the planner show, and the wall circuit
they assume (catalog/build_rules.toml [markets]). Chosen in File > Market and kept in the settings; until then, the
market of the interface's language (简体中文: China, CNY, 220 V)."""

from __future__ import annotations

from gpuconfig.core import i18n
from gpuconfig.core.build.rules import Market, build_rules
from gpuconfig.core.userdata.store import Store

MARKET_SETTING = "market"


def current_market(store: Store) -> Market:
    return build_rules().chosen_market(store.user.setting(MARKET_SETTING), i18n.current())
