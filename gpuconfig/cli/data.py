"""`gpuconfig data repair`: the user's own databases (saved builds, prices, settings, probe history)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import form_options
from gpuconfig.cli.output import EXIT_OK, Reply, lines


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    data = commands.add_parser("data", help="your own data: saved builds, prices, settings, probe history")
    actions = data.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)
    repair = actions.add_parser(
        "repair", help="move a damaged database aside, rebuild it and copy over what can still be read"
    )
    form_options(repair)
    repair.set_defaults(handler=repair_data)


def repair_data(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.store_file import default_store_path
    from gpuconfig.core.userdata.store import repair_store, shipped_catalog
    from gpuconfig.probe.history import default_history_path, repair_history

    store, history = default_store_path(), default_history_path()
    done = [(store, repair_store(store, shipped_catalog())), (history, repair_history(history))]
    return Reply(EXIT_OK, lambda: _text(done), lambda: [_record(path, repair) for path, repair in done])


def _text(done: list[tuple[Path, Any]]) -> str:
    out = []
    for path, repair in done:
        if repair is None:
            out.append(f"{path}: sound, left as it is")
            continue
        kept = ", ".join(f"{count} {table}" for table, count in repair.kept.items() if count) or "nothing"
        out.append(f"{path}: rebuilt; the damaged file is kept as {repair.backup}; copied over: {kept}")
        out += [f"  not kept: {line}" for line in repair.lost]
    return lines(*out)


def _record(path: Path, repair: Any) -> dict[str, Any]:
    if repair is None:
        return {"file": str(path), "repaired": False}
    return {
        "file": str(path),
        "repaired": True,
        "moved_to": str(repair.backup),
        "kept": repair.kept,
        "not_kept": list(repair.lost),
    }
