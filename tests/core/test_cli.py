"""The real command line, run as users run it: a separate process, JSON on stdout, exit codes."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpuconfig import __version__

KINDS = ("gpu", "cpu", "motherboard", "ram", "ssd", "psu", "case", "dock", "cloud")
GPU_KEYS = {
    "id",
    "name",
    "vendor",
    "memory_gb",
    "memory_bandwidth_gbs",
    "tdp_w",
    "fp32_tflops",
    "tf32_tensor_tflops",
    "fp16_tensor_tflops",
    "bf16_tensor_tflops",
    "fp8_tensor_tflops",
    "int8_tensor_tops",
    "compute_capability",
    "price",
    "sources",
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120, check=False
    )


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"gpuconfig {__version__}"


def test_gpu_list_json_has_the_promised_keys() -> None:
    gpus = run_json("catalog", "list", "--kind", "gpu")
    assert isinstance(gpus, list) and len(gpus) >= 40
    for gpu in gpus:
        assert set(gpu) >= GPU_KEYS, gpu["id"]
        assert gpu["sources"], gpu["id"]
        for key in GPU_KEYS - {"price", "sources", "id", "name", "vendor", "compute_capability"}:
            assert gpu[key] != 0, f"{gpu['id']}.{key}: a figure a part does not have is null, never 0"
        if gpu["price"] is not None:
            assert {"amount", "currency", "date"} <= set(gpu["price"])
            assert gpu["price"]["amount"] > 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_lists_with_its_own_fields_and_price(kind: str) -> None:
    parts = run_json("catalog", "list", "--kind", kind)
    assert parts
    assert all(p["kind"] == kind and p["sources"] and "price" in p for p in parts)
    assert any(p["price"] is not None for p in parts), f"no {kind} has a price"


def test_query_narrows_the_list() -> None:
    everything = run_json("catalog", "list", "--kind", "gpu")
    hopper = run_json("catalog", "list", "--kind", "gpu", "--query", "hopper")
    assert 0 < len(hopper) < len(everything)
    assert all(g["architecture"] == "Hopper" for g in hopper)


def test_currency_conversion_in_json() -> None:
    usd = next(
        g
        for g in run_json("catalog", "list", "--kind", "gpu")
        if g["price"] and g["price"]["currency"] == "USD" and all(p["currency"] == "USD" for p in g["catalog_prices"])
    )
    shown = run_json("catalog", "show", usd["id"], "--currency", "CNY")
    assert shown["price"]["currency"] == "CNY"
    rate = shown["price"]["exchange_rate"]["usd_cny"]
    assert shown["price"]["amount"] == pytest.approx(usd["price"]["amount"] * rate, rel=1e-6)
    assert shown["price"]["converted_from"] == {"amount": usd["price"]["amount"], "currency": "USD"}


def test_a_price_set_in_cny_is_shown_as_it_is_not_converted() -> None:
    """The RTX 4090's catalog row holds its US prices in USD and its Chinese ones in CNY: asked in CNY, the newest
    CNY price is shown, with no exchange rate; asked in USD, the newest US price."""
    cny = run_json("catalog", "show", "nvidia-geforce-rtx-4090", "--currency", "CNY")
    natives = [p for p in cny["catalog_prices"] if p["currency"] == "CNY"]
    newest = max(natives, key=lambda p: p["date"])
    assert len(natives) >= 2
    assert (cny["price"]["amount"], cny["price"]["currency"], cny["price"]["date"]) == (
        newest["amount"],
        "CNY",
        newest["date"],
    )
    assert "exchange_rate" not in cny["price"] and "converted_from" not in cny["price"]
    usd = run_json("catalog", "show", "nvidia-geforce-rtx-4090", "--currency", "USD")
    dollars = [p for p in usd["catalog_prices"] if p["currency"] == "USD"]
    newest_usd = max(dollars, key=lambda p: p["date"])
    assert (usd["price"]["amount"], usd["price"]["currency"]) == (newest_usd["amount"], "USD")
    assert any(p["amount"] == 1599 for p in dollars)  # the launch MSRP kept beside the newer street price
    text = run("catalog", "show", "nvidia-geforce-rtx-4090", "--currency", "CNY").stdout
    assert f"¥{newest['amount']:,.0f}" in text and "$1,599" in text  # every price listed, each as published


def test_show_prints_fields_with_sources() -> None:
    gpu = run_json("catalog", "list", "--kind", "gpu")[0]
    result = run("catalog", "show", gpu["id"])
    assert result.returncode == 0
    assert gpu["name"] in result.stdout
    assert "Sources:" in result.stdout
    assert gpu["sources"][0]["url"] in result.stdout


def test_import_prices_then_show(tmp_path: Path) -> None:
    gpu = run_json("catalog", "list", "--kind", "gpu")[0]
    csv_file = tmp_path / "quote.csv"
    csv_file.write_text(f"id,amount,currency,date,source\n{gpu['id']},4321,CNY,2026-11-01,vendor quote\n")
    result = run("catalog", "import-prices", str(csv_file))
    assert result.returncode == 0, result.stderr
    assert "imported 1 prices as price list 'quote'" in result.stdout
    shown = run_json("catalog", "show", gpu["id"])
    assert shown["price"]["amount"] == 4321
    assert shown["price"]["origin"] == "import"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("catalog", "list", "--kind", "gpus"), "gpuconfig: unknown kind 'gpus'"),
        (("catalog", "show", "no-such-part"), "gpuconfig: 'no-such-part' is not in the catalog"),
        (("catalog", "list"), "the following arguments are required: --kind"),
        (("catalog", "frobnicate"), "invalid choice: 'frobnicate'"),
        (("--nope",), "unrecognized arguments: --nope"),
        (("catalog", "import-prices", "missing.csv"), "price list not imported: missing.csv: no such file"),
        (("catalog", "rate", "--set", "-3"), "exchange rate must be a positive number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_bad_price_list_changes_nothing(tmp_path: Path) -> None:
    gpu = run_json("catalog", "list", "--kind", "gpu")[0]
    bad = tmp_path / "bad.csv"
    bad.write_text(f"id,amount,currency,date,source\n{gpu['id']},12,USD,2026-01-01,x\nnot-a-part,1,USD,2026-01-01,x\n")
    result = run("catalog", "import-prices", str(bad))
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == "gpuconfig: price list not imported: bad.csv:3: id: 'not-a-part' is not a part in the catalog"
    )
    assert run_json("catalog", "show", gpu["id"])["price"] == gpu["price"]


def test_exchange_rate_can_be_set_and_reset() -> None:
    published = run_json("catalog", "rate")
    assert published["user_set"] is False
    assert run_json("catalog", "rate", "--set", "7.25")["rate"] == 7.25
    assert run_json("catalog", "rate", "--reset") == published


def test_check_reports_every_problem(catalog_copy: Path) -> None:
    gpu = catalog_copy / "gpu.toml"
    gpu.write_text(gpu.read_text().replace("tdp_w = ", "tdp_w = -", 2))
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 2
    assert all(": tdp_w: must be a positive number" in line for line in result.stderr.strip().splitlines())


def test_check_stats_count_rows_prices_reasons_and_the_oldest_price(catalog_copy: Path) -> None:
    dock = catalog_copy / "dock.toml"
    text = dock.read_text()
    blocks = text.split("[[part]]")[1:]
    stats = run_json("catalog", "check", "--stats", "--dir", str(catalog_copy))
    assert stats["dock"]["rows"] == len(blocks)
    priced = sum(1 for block in blocks if "\nprice = " in block)
    assert stats["dock"]["priced"] == priced
    # every dock is held to a price or a reason (schema: priced = true), so every unpriced one gives its reason
    assert stats["dock"]["unpriced_with_reason"] == sum(1 for block in blocks if "\nunpriced = " in block) > 0
    assert stats["dock"]["unpriced_without_reason"] == 0
    dates = [m.split("date = ")[1][:10] for m in text.split("\n") if "price" in m and "date = " in m]
    assert stats["dock"]["oldest_price_date"] >= min(dates)
    assert set(stats) == {"gpu", "cpu", "motherboard", "ram", "ssd", "psu", "case", "dock", "cloud"}

    # a kind not held to prices may leave a row unexplained, and the count says so
    schema = catalog_copy / "schema.toml"
    schema.write_text(schema.read_text().replace("[kinds.dock]\npriced = true\n", "[kinds.dock]\n"))
    first = text.index("\nunpriced = ")
    dock.write_text(text[:first] + text[text.index("\n", first + 1) :])
    stats = run_json("catalog", "check", "--stats", "--dir", str(catalog_copy))
    assert stats["dock"]["unpriced_without_reason"] == 1


def test_a_row_with_a_price_cannot_also_say_why_it_has_none(catalog_copy: Path) -> None:
    cloud = catalog_copy / "cloud.toml"
    text = cloud.read_text()
    at = text.index("\nprice = ")
    cloud.write_text(text[:at] + '\nunpriced = "none"' + text[at:])
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert "unpriced: a row with a price cannot also say why it has none" in result.stderr


def test_a_kind_held_to_prices_rejects_a_row_without_one_or_a_reason(catalog_copy: Path) -> None:
    cloud = catalog_copy / "cloud.toml"
    text = cloud.read_text()
    at = text.index("\nprice = ")
    end = text.index("\n", at + 1)
    cloud.write_text(text[:at] + text[end:])  # the first instance loses its price
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert "price: every cloud is priced: give a price, or say why there is none (unpriced)" in result.stderr
    cloud.write_text(text[:at] + '\nunpriced = "offered only on request"' + text[end:])
    assert run("catalog", "check", "--dir", str(catalog_copy)).returncode == 0


def test_a_price_says_first_what_it_is(catalog_copy: Path) -> None:
    """A buyer tells a launch MSRP from a street price by the basis's first words, so a basis that does not begin
    with one of them (or is missing) fails the check, for any catalog a user checks, not only the shipped one."""
    gpu = catalog_copy / "gpu.toml"
    text = gpu.read_text()
    gpu.write_text(text.replace('basis = "launch MSRP (US)"', 'basis = "price at launch (US)"', 1))
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert "basis must begin with what the price is (launch MSRP, MSRP, list price, street, on-demand)" in result.stderr
    assert "got 'price at launch (US)'" in result.stderr
    gpu.write_text(text.replace(', basis = "launch MSRP (US)"', "", 1))
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2 and "got None" in result.stderr


def test_a_row_price_is_its_newest_in_its_currency(catalog_copy: Path) -> None:
    """`price` is what a buyer sees first, so a newer price in the same currency further down the row fails."""
    gpu = catalog_copy / "gpu.toml"
    text = gpu.read_text()
    older = '{ amount = 329, currency = "USD", date = 2021-01-12, basis = "launch MSRP (US)"'
    assert older in text
    gpu.write_text(text.replace(older, older.replace("2021-01-12", "2099-01-12"), 1))
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert "prices: a USD price of 2099-01-12 is newer than `price`" in result.stderr
    # the same date in the other currency is no conflict: each currency has its own newest
    gpu.write_text(text.replace(older, older.replace('currency = "USD"', 'currency = "CNY"'), 1))
    assert run("catalog", "check", "--dir", str(catalog_copy)).returncode == 0


def test_a_figure_the_checks_read_is_given_or_its_absence_explained(catalog_copy: Path) -> None:
    dock = catalog_copy / "dock.toml"
    text = dock.read_text()
    # The first dock that states its card length and explains no missing figure loses its length.
    starts = [m.start() for m in re.finditer(r"^\[\[part\]\]$", text, re.M)] + [len(text)]
    row = next(
        (a, b)
        for a, b in itertools.pairwise(starts)
        if "\nmax_gpu_length_mm = " in text[a:b] and "\nunknown = " not in text[a:b]
    )
    first = text.index("\nmax_gpu_length_mm = ", row[0])
    end = text.index("\n", first + 1)
    dock.write_text(text[:first] + text[end:])
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert "max_gpu_length_mm: the build checks read it: give it, or say why it is unknown" in result.stderr
    reason = '\nunknown = { max_gpu_length_mm = "open frame" }'
    dock.write_text(text[:first] + reason + text[end:])
    assert run("catalog", "check", "--dir", str(catalog_copy)).returncode == 0
    # A reason for a figure the row gives, or for no field of the kind, is refused.
    dock.write_text(text[:first] + '\nunknown = { link = "?" }' + text[first:])
    assert "link: the row gives it, so it is not unknown" in run("catalog", "check", "--dir", str(catalog_copy)).stderr
    dock.write_text(text[:first] + '\nunknown = { colour = "?" }' + text[first:])
    assert "'colour' is not a field of kind dock" in run("catalog", "check", "--dir", str(catalog_copy)).stderr


def test_an_egpu_check_says_why_the_catalog_has_no_figure() -> None:
    result = run(
        "egpu", "--port", "TB5", "--os", "linux", "--dock", "razer-core-x-v2", "--gpu", "nvidia-geforce-rtx-5060"
    )
    assert "Card length not checked: the catalog has no Razer Core X V2's limit. (no card length limit" in result.stdout
    assert "(no reference board is sold (partner cards only)" in result.stdout
    shown = run_json("catalog", "show", "razer-core-x-v2")
    assert shown["unknown"]["max_gpu_power_w"].startswith("no built-in supply for the card")


def test_the_list_dates_each_price_marks_old_ones_and_converted_ones() -> None:
    result = run("catalog", "list", "--kind", "gpu", "--currency", "CNY")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.startswith("nvidia-")}
    gpus = {g["id"]: g for g in run_json("catalog", "list", "--kind", "gpu")}
    launch = gpus["nvidia-geforce-rtx-2080"]["price"]  # a 2018 launch price in US dollars
    assert launch["currency"] == "USD" and launch["date"] < "2019"
    row = rows["nvidia-geforce-rtx-2080"]
    assert "≈¥" in row and row.rstrip().endswith(" *") and launch["date"] in row  # converted, dated, marked old
    assert "* a price older than six months" in result.stdout
    assert re.search(r"≈ converted at 1 USD = [0-9.]+ CNY \(\d{4}-\d{2}-\d{2}; catalog rate\)", result.stdout)
    shown = run("catalog", "show", "nvidia-geforce-rtx-2080", "--currency", "CNY").stdout
    assert re.search(r"Price +≈¥[0-9,]+ \(= \$699 at [0-9.]+, rate of \d{4}-\d{2}-\d{2}\)", shown), shown
    assert "older than six months" in shown
