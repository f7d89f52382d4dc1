"""The compatibility checker on real catalog parts: each rule fires on the build that breaks it, with its fix,
and a sound build passes; the workload a build was planned for is judged against its cards from a real trace of
GPT-2 (once per module)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from gpuconfig.core.build.check import Problem, check, place_cards, verdict, worst_first
from gpuconfig.core.build.model import Build, BuildError, BuildLine, Item, Resolved, read_build, resolve, totals
from gpuconfig.core.build.power import card_power, power_budget
from gpuconfig.core.build.rules import RulesError, build_rules, parse_rules
from gpuconfig.core.build.workload_fit import RULE, card_fits, estimate_command, workload_problems
from gpuconfig.core.egpu.problems import egpu_problems
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.answer import gpu_spec
from gpuconfig.core.workload.fit import Headroom, Verdict, default_headroom, user_headroom
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import Workload

# A single RTX 4090 on AM5 that passes every rule.
SOUND = {
    "nvidia-geforce-rtx-4090": 1,
    "amd-ryzen-9-9950x": 1,
    "asus-rog-strix-b850-a-gaming-wifi": 1,
    "crucial-pro-oc-ddr5-6400-2x32gb": 1,
    "crucial-t500-2tb": 1,
    "nzxt-c1200-gold-atx31": 1,
    "nzxt-h7-flow-2024": 1,
}

# A GPT-2 fine-tune too big for an 8 GB card that a 24 GB card holds (the tests check this from the answer).
GPT2 = Workload("gpt2", batch=16, seq=512)
SMALL_CARD, BIG_CARD = "nvidia-geforce-rtx-3070", "nvidia-geforce-rtx-4090"
GIB = 1024**3


def make(store: Store, parts: dict[str, int], circuit: str = "us-120v-15a") -> list[Problem]:
    build = Build("test", tuple(BuildLine(i, n) for i, n in parts.items() if n), circuit=circuit)
    return check(resolve(build, store.part), build_rules(), egpu_check=egpu_problems)


def rules_of(problems: list[Problem], severity: str = "fail") -> set[str]:
    return {p.rule for p in problems if p.severity == severity}


def test_a_sound_build_passes(store: Store) -> None:
    problems = make(store, SOUND)
    assert not [p for p in problems if p.severity in ("fail", "warn")], problems


@pytest.mark.parametrize(
    ("changes", "severity", "rule", "words"),
    [
        ({"asus-rog-strix-b850-a-gaming-wifi": 0, "asus-rog-strix-b760-f-gaming-wifi": 1}, "fail", "socket", "AM5"),
        ({"nzxt-h7-flow-2024": 0, "nzxt-h2-flow": 1}, "fail", "case-board", "Mini-ITX"),
        (
            {"crucial-pro-oc-ddr5-6400-2x32gb": 0, "samsung-m321r4ga3eb2-ccp-32gb-rdimm": 1},
            "fail",
            "memory-module",
            "RDIMM",
        ),
        ({"crucial-pro-oc-ddr5-6400-2x32gb": 3}, "fail", "memory-slots", "6 memory modules"),
        (
            {"crucial-pro-oc-ddr5-6400-2x32gb": 0, "kingston-fury-beast-rgb-ddr5-6000-cl36-2x16gb": 0},
            "info",
            "incomplete",
            "ram",
        ),
        ({"nzxt-c1200-gold-atx31": 0, "nzxt-c850-gold-atx31": 1}, "warn", "psu-headroom", "850 W"),
        (
            {"nvidia-geforce-rtx-4090": 2, "nzxt-c1200-gold-atx31": 0, "seasonic-prime-tx-1300-2022": 1},
            "fail",
            "psu-watts",
            "ATX 2.53",
        ),
        ({"nvidia-geforce-rtx-4090": 2}, "fail", "psu-watts", "1,280 W"),
        ({"nvidia-geforce-rtx-4090": 3}, "fail", "gpu-slots", "2 of the 3"),
        ({"nvidia-geforce-rtx-4090": 2}, "fail", "case-slots", "position 9"),
        ({"nvidia-geforce-rtx-4090": 2}, "warn", "gpu-lanes", "through the chipset"),
        ({"nvidia-geforce-rtx-4090": 2}, "info", "p2p", "peer-to-peer"),
        (
            {
                "nvidia-geforce-rtx-4090": 0,
                "nvidia-geforce-rtx-4090-d": 0,
                "nvidia-geforce-rtx-3090": 1,
                "nvidia-geforce-rtx-4070": 1,
            },
            "warn",
            "mixed-gpus",
            "slowest",
        ),
        ({"nvidia-geforce-rtx-4090": 0, "nvidia-l40s": 1}, "warn", "passive-cooling", "server chassis"),
    ],
)
def test_each_rule_fires_on_the_build_that_breaks_it(
    store: Store, changes: dict[str, int], severity: str, rule: str, words: str
) -> None:
    problems = make(store, {**SOUND, **changes})
    hits = [p for p in problems if p.rule == rule and p.severity == severity]
    assert hits, problems
    assert any(words in p.message for p in hits), hits
    assert all(p.fix for p in hits)


def test_a_long_card_in_a_short_case_fails(store: Store) -> None:
    # No catalog card outgrows a catalog case, so one real card is given a longer board.
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert gpu is not None
    long_card = replace(gpu, specs={**gpu.specs, "board_length_mm": 420})
    build = Build("t", tuple(BuildLine(i, n) for i, n in SOUND.items()))
    problems = check(
        resolve(build, lambda i: long_card if i == gpu.id else store.part(i)), build_rules(), egpu_check=egpu_problems
    )
    hits = [p for p in problems if p.rule == "gpu-length"]
    assert hits and "420 mm" in hits[0].message and "410 mm" in hits[0].message


def test_the_wall_circuit_limits_a_dense_build(store: Store) -> None:
    parts = {**SOUND, "nvidia-geforce-rtx-4090": 3, "nzxt-c1200-gold-atx31": 0, "nzxt-c1500-platinum-atx31": 1}
    us = make(store, parts, "us-120v-15a")
    eu = make(store, parts, "eu-230v-16a")
    assert "circuit" in rules_of(us)
    assert "circuit" not in rules_of(eu)


def test_the_power_budget_follows_the_atx_generation() -> None:
    rules = build_rules()
    assert rules.gpu_factor_atx3 == 1.0 and rules.gpu_factor_atx2 > 2
    # Intel's example: a 300 W card with a 300 W CPU needs 750 W on ATX 3.0 and about 1100 W on ATX 2.x.
    from gpuconfig.core.build.power import required_rating

    assert required_rating(300, 300, True, rules) == 750
    assert 1090 <= required_rating(300, 300, False, rules) <= 1110


def test_power_budget_of_the_sound_build(store: Store) -> None:
    resolved = resolve(Build("t", tuple(BuildLine(i, n) for i, n in SOUND.items())), store.part)
    budget = power_budget(resolved, build_rules(), "us-120v-15a")
    cpu = store.part("amd-ryzen-9-9950x")
    assert cpu is not None
    expected_cpu = cpu.specs.get("max_power_w") or cpu.specs["tdp_w"]
    assert budget.gpu_w == 450 and budget.cpu_w == expected_cpu
    assert budget.sustained_w == 450 + expected_cpu + 150
    assert budget.psu_w == 1200 and budget.atx3 is True
    assert budget.wall_w == pytest.approx(budget.sustained_w / 0.90, abs=1)


@pytest.mark.parametrize(
    ("text", "sixteen", "eight", "eps"),
    [
        ("1x 16-pin (12VHPWR)", 1, 0, 0),
        ("16-pin 12VHPWR (3-4x PCIe 8-pin via included adapter)", 1, 3, 0),
        ("12-pin (2x PCIe 8-pin via included adapter)", 0, 2, 0),
        ("2x 8-pin PCIe", 0, 2, 0),
        ("1x 6-pin PCIe", 0, 1, 0),
        ("1x PCIe 8-pin + 1x PCIe 6-pin", 0, 2, 0),  # two cables, each its own PSU lead
        ("1x 8-pin + 1x 6-pin PCIe", 0, 2, 0),
        ("1x 8-pin CPU (EPS)", 0, 0, 1),
        ("none (slot-powered)", 0, 0, 0),
    ],
)
def test_card_power_connectors_are_read(text: str, sixteen: int, eight: int, eps: int) -> None:
    power = card_power(text)
    assert (power.sixteen_pin, power.eight_pin, power.eps, power.known) == (sixteen, eight, eps, True)


def test_every_catalog_gpu_connector_text_is_understood(store: Store) -> None:
    for gpu in store.parts("gpu"):
        text = gpu.specs.get("power_connectors")
        if text:
            assert card_power(text).known, f"{gpu.id}: {text!r}"


def test_cards_are_seated_around_their_width(store: Store) -> None:
    board = store.part("msi-mpg-x870e-carbon-wifi")
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert board is not None and gpu is not None
    placement = place_cards(list(board.specs["x16_slots"]), [Item(gpu, 2)])
    assert [slot["position"] for slot, _ in placement.placed] == [2, 6]
    assert placement.unplaced == 0
    assert placement.last_position == 6 + int(-(-float(gpu.specs["slot_width"]) // 1)) - 1


def test_totals_never_count_an_unpriced_part_as_free(store: Store) -> None:
    build = Build("t", (BuildLine("nvidia-geforce-rtx-4090"), BuildLine("asus-pro-ws-w790e-sage-se")))
    resolved = resolve(build, store.part)
    total = totals(resolved, "USD", store.exchange_rate())
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert gpu is not None and gpu.price is not None
    board = store.part("asus-pro-ws-w790e-sage-se")
    assert board is not None
    if board.price is None:
        assert total.unpriced == ("asus-pro-ws-w790e-sage-se",)
        assert total.amount == pytest.approx(gpu.price.amount)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "expected a JSON object"),
        ('{"parts": []}', "'parts' must be a non-empty list"),
        ('{"parts": [{"count": 1}]}', "parts[0]: needs an 'id'"),
        ('{"parts": [{"id": "x", "count": 0}]}', "parts[0].count"),
        ('{"parts": ["x"], "currency": "EUR"}', "currency 'EUR'"),
        ('{"format": "other", "parts": ["x"]}', "not a gpuconfig build"),
    ],
)
def test_a_malformed_build_file_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "build.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        read_build(path)


def test_an_unknown_part_id_names_it(store: Store) -> None:
    with pytest.raises(BuildError, match="'no-such-gpu' is not in the catalog"):
        resolve(Build("t", (BuildLine("no-such-gpu"),)), store.part)


def test_a_build_round_trips_through_its_file(tmp_path: Path) -> None:
    build = Build(
        "Two cards",
        (BuildLine("nvidia-geforce-rtx-4090", 2), BuildLine("amd-ryzen-9-9950x")),
        currency="CNY",
        circuit="cn-220v-10a",
        workload={"model": "gpt2"},
    )
    path = tmp_path / "b.json"
    path.write_text(json.dumps(build.to_json()), encoding="utf-8")
    assert read_build(path) == build
    assert build.swapped("amd-ryzen-9-9950x", "amd-ryzen-9-7950x").lines[1].part_id == "amd-ryzen-9-7950x"
    assert build.with_line("nvidia-geforce-rtx-4090", 0).lines == (BuildLine("amd-ryzen-9-9950x"),)


def test_the_rules_file_names_a_missing_figure() -> None:
    text = (catalog_dir() / "build_rules.toml").read_text(encoding="utf-8")
    broken = text.replace("rest_of_system_w = 150", "rest_of_system_w = 'lots'")
    with pytest.raises(RulesError, match=r"build_rules.toml: \[psu\] rest_of_system_w"):
        parse_rules(broken)


def test_every_rule_figure_has_a_source() -> None:
    rules = build_rules()
    for text in (rules.psu_source, rules.efficiency_source, rules.cooling_source, rules.ram_source, rules.p2p_source):
        assert len(text) > 20
    assert all(c.source and c.watts > 0 for c in rules.circuits.values())
    assert rules.circuits["us-120v-15a"].watts == 1440  # Lambda: 15 A x 120 V x 80 %
    assert (rules.circuits["cn-220v-10a"].watts, rules.circuits["cn-220v-16a"].watts) == (1760, 2816)


def test_markets_pick_a_circuit_by_currency_and_language() -> None:
    rules = build_rules()
    assert rules.circuit_for("CNY") == "cn-220v-10a" and rules.circuit_for("USD") == "us-120v-15a"
    assert rules.chosen_market(None, "zh_CN").currency == "CNY"
    assert rules.chosen_market(None, "en").currency == "USD"
    assert rules.chosen_market("us", "zh_CN").currency == "USD"  # the user's choice wins
    assert rules.circuit_after("us-120v-15a", "USD", "CNY") == "cn-220v-10a"
    assert rules.circuit_after("eu-230v-16a", "USD", "CNY") == "eu-230v-16a"  # one the user picked stays
    china = rules.markets["cn"]
    assert china.electricity_per_kwh == 0.538 and "https://" in china.electricity_source


def test_a_market_on_a_circuit_the_rules_lack_is_named() -> None:
    text = (catalog_dir() / "build_rules.toml").read_text(encoding="utf-8")
    broken = text.replace('circuit = "cn-220v-10a"', 'circuit = "cn-110v"')
    with pytest.raises(RulesError, match=r"\[markets.cn\] circuit: 'cn-110v' is not one of"):
        parse_rules(broken)


# -- the workload a build was planned for --------------------------------------------------------------------


@pytest.fixture(scope="module")
def gpt2_fit(module_data_dir: Path) -> Fit:
    """Traced once into the module's data folder (about half a minute on a CPU)."""
    return TraceService().fit_for(GPT2)


def planned(store: Store, gpus: dict[str, int], workload: dict[str, object] | None) -> Resolved:
    """SOUND with these cards and the workload it was planned for."""
    parts = {**gpus, **{i: n for i, n in SOUND.items() if i != BIG_CARD}}
    return resolve(Build("t", tuple(BuildLine(i, n) for i, n in parts.items()), workload=workload), store.part)


def answered(store: Store, fit: Fit, workload: Workload, gpu: str, headroom: Headroom) -> Verdict:
    found = fit.answer(workload, gpu_spec(store, gpu), headroom).verdict
    assert found is not None
    return found


def test_the_planned_workload_fails_on_a_card_too_small_and_passes_on_one_big_enough(
    store: Store, gpt2_fit: Fit
) -> None:
    headroom = default_headroom()
    small = answered(store, gpt2_fit, GPT2, SMALL_CARD, headroom)
    big = answered(store, gpt2_fit, GPT2, BIG_CARD, headroom)
    assert not small.fits and not small.tight and big.fits  # the case the test is about, from the answer

    on_small = planned(store, {SMALL_CARD: 1}, GPT2.to_json())
    [row] = workload_problems(on_small, gpt2_fit, headroom)
    assert row.severity == "fail" and row.rule == RULE
    assert row.message.startswith("The workload, GPT-2 (124M) full fine-tune at batch 16 x 512, needs ")
    assert f"needs {small.peak / GIB:.1f} GiB; GeForce RTX 3070 has {small.usable / GIB:.1f} GiB usable" in row.message
    assert f"(8.0 GiB less {headroom.percent} headroom)" in row.message and row.message.endswith("it does not fit.")
    assert row.fix.startswith("A card with more memory, or one of the fits-if changes: ")
    assert "gpuconfig estimate --model gpt2 --batch 16 --seq 512 --gpu nvidia-geforce-rtx-3070 lists them" in row.fix
    assert headroom.why in row.source
    rules = build_rules()
    assert verdict(worst_first([*check(on_small, rules, egpu_check=egpu_problems), row])) == "fail"

    on_big = planned(store, {BIG_CARD: 1}, GPT2.to_json())
    [row] = workload_problems(on_big, gpt2_fit, headroom)
    assert row.severity == "info" and not row.fix
    assert f"needs {big.peak / GIB:.1f} GiB; GeForce RTX 4090 has {big.usable / GIB:.1f} GiB usable" in row.message
    assert row.message.endswith(f"it fits, {big.spare / GIB:.1f} GiB to spare.")
    assert verdict(worst_first([*check(on_big, rules, egpu_check=egpu_problems), row])) == "pass"


def test_a_fit_that_eats_the_headroom_fails(store: Store, gpt2_fit: Fit) -> None:
    peak = answered(store, gpt2_fit, GPT2, BIG_CARD, default_headroom()).peak
    share = 1 - peak / (24 * GIB)
    headroom = user_headroom(min(50, int(share * 100) + 2))  # keeps more free than the card has to spare
    tight = answered(store, gpt2_fit, GPT2, BIG_CARD, headroom)
    assert tight.tight
    [row] = workload_problems(planned(store, {BIG_CARD: 1}, GPT2.to_json()), gpt2_fit, headroom)
    assert row.severity == "fail" and row.message.endswith("it fits only by using the headroom.")
    assert f"less {headroom.percent} headroom" in row.message and "what the headroom guards against" in row.fix


def test_the_run_uses_the_builds_cards_up_to_what_it_was_planned_for(store: Store, gpt2_fit: Fit) -> None:
    sharded = GPT2.with_changes(gpus=2, strategy="fsdp")
    headroom = default_headroom()
    on_two = card_fits(planned(store, {BIG_CARD: 2}, sharded.to_json()), sharded, gpt2_fit, headroom)
    on_one = card_fits(planned(store, {BIG_CARD: 1}, sharded.to_json()), sharded, gpt2_fit, headroom)
    on_four = card_fits(planned(store, {BIG_CARD: 4}, sharded.to_json()), sharded, gpt2_fit, headroom)
    assert [c.workload.gpus for c in (*on_two, *on_one, *on_four)] == [2, 1, 2]
    assert on_two[0].verdict.peak < on_one[0].verdict.peak  # fewer cards to shard over: more on each
    assert on_four[0].verdict == on_two[0].verdict  # cards the plan does not use do not shrink its run
    [two] = workload_problems(planned(store, {BIG_CARD: 2}, sharded.to_json()), gpt2_fit, headroom)
    assert "at batch 16 x 512 on 2 cards (FSDP / ZeRO-3), needs " in two.message and " GiB per card; " in two.message
    [one] = workload_problems(planned(store, {BIG_CARD: 1}, sharded.to_json()), gpt2_fit, headroom)
    assert "on one card, not the 2 it was planned for, needs" in one.message


def test_each_gpu_model_of_the_build_is_judged(store: Store, gpt2_fit: Fit) -> None:
    rows = workload_problems(planned(store, {SMALL_CARD: 1, BIG_CARD: 1}, GPT2.to_json()), gpt2_fit, default_headroom())
    assert [(r.severity, "RTX 3070" in r.message, "RTX 4090" in r.message) for r in rows] == [
        ("fail", True, False),
        ("info", False, True),
    ]


@pytest.mark.parametrize(
    ("workload", "words"),
    [
        ({"model": "gpt2", "batch": 0}, "batch: must be"),
        ({"model": "gpt2", "batch": [16]}, "batch: expected a whole number, got [16]"),
        ({"model": "gpt2", "task": ["lora"]}, "task: expected text, got ['lora']"),
        ({"model": "gpt2", "checkpointing": "yes"}, "checkpointing: expected true or false, got 'yes'"),
        ({"model": 2}, "model: expected text, got 2"),
        ({"modle": "gpt2"}, "modle: not a workload field"),
        ({"task": "finetune"}, "model: missing"),
        ({"model": "gpt2", "task": "dreaming"}, "task: 'dreaming' is not one of"),
    ],
)
def test_a_damaged_workload_is_a_warning_naming_the_problem(
    store: Store, workload: dict[str, object], words: str
) -> None:
    [row] = workload_problems(planned(store, {BIG_CARD: 1}, workload), None, default_headroom())
    assert row.severity == "warn" and row.rule == RULE
    assert row.message.startswith("The build's workload is not checked against its cards: its workload cannot be read")
    assert words in row.message and "Recommend panel" in row.fix


def test_nothing_to_judge_and_nothing_traced_yet(store: Store) -> None:
    headroom = default_headroom()
    assert workload_problems(planned(store, {BIG_CARD: 1}, None), None, headroom) == []
    no_gpu = resolve(Build("t", (BuildLine("amd-ryzen-9-9950x"),), workload=GPT2.to_json()), store.part)
    assert workload_problems(no_gpu, None, headroom) == []
    [untraced] = workload_problems(planned(store, {BIG_CARD: 1}, GPT2.to_json()), None, headroom)
    assert untraced.severity == "info" and "not checked against the cards yet" in untraced.message
    cpu = Workload("gpt2", device="cpu").to_json()
    [on_cpu] = workload_problems(planned(store, {BIG_CARD: 1}, cpu), None, headroom)
    assert on_cpu.severity == "info" and "runs on the CPU" in on_cpu.message


def test_the_estimate_command_names_only_what_differs_from_the_defaults() -> None:
    workload = Workload("my model/config.json", task="lora", checkpointing=True, lora_targets="q_proj,v_proj")
    assert estimate_command(workload, "nvidia-a10") == (
        "gpuconfig estimate --model 'my model/config.json' --task lora --checkpointing --lora-targets q_proj,v_proj "
        "--gpu nvidia-a10"
    )


def test_every_workload_field_is_a_flag_the_estimate_command_reads_back() -> None:
    import shlex

    from gpuconfig.cli import options
    from gpuconfig.cli.main import build_parser

    workload = Workload(
        "resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", batch=256, channels_last=True,
        torch_compile=True,
    )  # fmt: skip
    command = estimate_command(workload, "nvidia-h100-sxm")
    assert "--channels-last" in command and "--torch-compile" in command
    args = build_parser().parse_args(shlex.split(command)[1:])
    assert options.workload(args) == workload
