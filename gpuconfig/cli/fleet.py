"""`gpuconfig fleet run|report|node`: the probe on every node of a cluster, and the nodes judged together."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import check_python, form_options, limits, seconds, worker_timeouts
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError, lines, table, warn

SUITES = ("quick", "full")


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    fleet = commands.add_parser("fleet", help="probe every node of a cluster and find the bad ones")
    actions = fleet.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)

    run = actions.add_parser(
        "run",
        help="the probe on every node at once and an all-reduce across them, through Slurm",
        epilog="The report folder must be on a file system every node writes (home, scratch), and gpuconfig "
        "installed at the same path on every node. Other schedulers: run `gpuconfig probe --json > DIR/NODE.json` "
        "on each node, then `gpuconfig fleet report DIR`.",
    )
    run.add_argument(
        "--slurm", action="store_true", help="run through Slurm (salloc, srun): the one scheduler run drives"
    )
    run.add_argument("--partition", metavar="P", help="the Slurm partition")
    nodes = run.add_mutually_exclusive_group()
    nodes.add_argument("--nodes", type=int, metavar="N", help="how many nodes")
    nodes.add_argument("--nodelist", metavar="L", help="which nodes, a Slurm host list (n[1-4],gpu07)")
    run.add_argument("--suite", choices=SUITES, default="quick", help="the probe suite each node runs (default quick)")
    run.add_argument(
        "--only", metavar="NAMES", help="comma-separated benchmarks each node runs (e.g. matmul,memory_bandwidth)"
    )
    run.add_argument("--out", metavar="DIR", help="the report folder (default: fleet-runs/<date-time> here)")
    run.add_argument("--python", metavar="PATH", help="the Python with torch on the nodes (the same path on each)")
    run.add_argument(
        "--node-timeout",
        type=seconds,
        default=900.0,
        metavar="S",
        help="seconds a node's probe may take before it is stopped and named failed (default 900)",
    )
    run.add_argument(
        "--allreduce-timeout",
        type=seconds,
        default=300.0,
        metavar="S",
        help="seconds the all-reduce across nodes may take (default 300)",
    )
    run.add_argument(
        "--gpus-per-node", type=int, metavar="N",
        help="GPUs to ask for on each node (an exclusive job's steps get only the GPUs it asked for; give the count "
        "on a cluster that schedules GPUs as resources)",
    )  # fmt: skip
    run.add_argument("--no-allreduce", action="store_true", help="no all-reduce across the nodes")
    run.add_argument(
        "--salloc-args",
        metavar="ARGS",
        default="",
        help='more salloc flags, quoted as one ("--account=lab --gres=gpu:8")',
    )
    run.set_defaults(handler=run_fleet)

    report = actions.add_parser(
        "report", help="judge a folder of node reports (from fleet run, or any probe --json files)"
    )
    report.add_argument("folder", metavar="DIR", help="the folder of reports; its subfolders are earlier runs")
    report.add_argument(
        "--baseline", metavar="FILE", help="a known-good node's probe report, or an earlier fleet report --json"
    )
    report.add_argument("--rules", metavar="FILE", help="thresholds (TOML): threshold, spread_factor, [[metric]] ...")
    report.set_defaults(handler=report_folder)

    node = actions.add_parser("node", help="what each node runs in fleet run: the probe, its report written to DIR")
    node.add_argument("--out", required=True, metavar="DIR")
    node.add_argument("--suite", choices=SUITES, default="quick")
    node.add_argument("--only", metavar="NAMES")
    node.add_argument("--python", metavar="PATH")
    worker_timeouts(node)
    node.set_defaults(handler=probe_node)

    form_options(run, html=True)
    form_options(report, html=True, csv=True)
    form_options(node)


def run_fleet(args: argparse.Namespace) -> Reply:
    from gpuconfig.probe.slurm import FleetPlan, SlurmError
    from gpuconfig.probe.slurm import run_fleet as run

    if not args.slurm:
        raise UsageError(
            "fleet run: name the scheduler, --slurm; for any other, run `gpuconfig probe --json > "
            "DIR/NODE.json` on each node and then `gpuconfig fleet report DIR`"
        )
    if args.nodes is not None and args.nodes < 1:
        raise UsageError(f"--nodes {args.nodes}: one node or more")
    if args.gpus_per_node is not None and args.gpus_per_node < 1:
        raise UsageError(f"--gpus-per-node {args.gpus_per_node}: one GPU or more")
    if args.nodelist is not None:
        from gpuconfig.core.fleet.hostlist import HostlistError, expand

        try:
            expand(args.nodelist)
        except HostlistError as exc:
            raise UsageError(f"--nodelist: {exc}") from None
    try:
        extra = tuple(shlex.split(args.salloc_args))
    except ValueError as exc:
        raise UsageError(f"--salloc-args: {exc}") from None
    out = Path(args.out) if args.out else Path("fleet-runs") / datetime.now().strftime("%Y%m%d-%H%M%S")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: a file, not a folder")
    if out.is_dir() and any(out.glob("*.json")):  # never write over a run's reports: each run its own folder
        raise UsageError(f"--out {out}: already holds reports; name a new folder (a run per folder keeps the history)")
    plan = FleetPlan(
        out=out,
        suite=args.suite,
        nodes=args.nodes,
        nodelist=args.nodelist,
        partition=args.partition,
        only=tuple(n.strip() for n in (args.only or "").split(",") if n.strip()),
        python=args.python,
        node_limit_s=args.node_timeout,
        allreduce_limit_s=args.allreduce_timeout,
        gpus_per_node=args.gpus_per_node,
        salloc_args=extra,
        allreduce=not args.no_allreduce,
    )
    tty = sys.stderr.isatty()

    def progress(states: Any) -> None:
        counts: dict[str, int] = {}
        for s in states:
            counts[s.state] = counts.get(s.state, 0) + 1
        line = ", ".join(f"{n} {state}" for state, n in counts.items())
        doing = next((f"{s.node}: {s.doing}" for s in states if s.state == "running" and s.doing), "")
        text = f"fleet: {line}" + (f"  {doing}" if doing else "")
        if tty:
            print("\r" + text + " " * 10, end="", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)

    try:
        run(plan, progress)
    except SlurmError as exc:
        raise UsageError(str(exc)) from None
    if tty:
        print(file=sys.stderr)
    return _report(out, None, None)


def report_folder(args: argparse.Namespace) -> Reply:
    return _report(Path(args.folder), args.baseline, args.rules)


def probe_node(args: argparse.Namespace) -> Reply:
    from gpuconfig.probe.slurm import probe_node as probe

    check_python(args.python)
    only = [n.strip() for n in args.only.split(",") if n.strip()] if args.only else None
    out = Path(args.out)
    if not out.is_dir():
        raise UsageError(f"--out {out}: no such folder on this node (it must be one every node shares)")
    path = probe(out, args.suite, only, args.python, limits(args))
    return Reply(EXIT_OK, lambda: lines(str(path)), lambda: json.loads(path.read_text(encoding="utf-8")))


def _report(folder: Path, baseline: str | None, rules: str | None) -> Reply:
    from gpuconfig.core.fleet.diagnose import diagnose, load_baseline
    from gpuconfig.core.fleet.reports import FleetError, read_folder
    from gpuconfig.core.fleet.rules import Rules, RulesError, load_rules
    from gpuconfig.probe.fleet_html import html
    from gpuconfig.probe.labels import metric_label

    try:
        chosen = load_rules(rules) if rules else Rules()
        base = load_baseline(baseline) if baseline else None
        found = read_folder(folder)
    except (FleetError, RulesError) as exc:
        raise UsageError(str(exc)) from None
    for path, why in found.skipped:
        warn(f"{path}: left out: {why}")
    diagnosis = diagnose(found, chosen, base, lambda m: metric_label(m.benchmark, m.dtype, m.variant, m.device))
    code = EXIT_VERDICT_FAILED if diagnosis.failed else EXIT_OK
    return Reply(code, lambda: _text(diagnosis), diagnosis.record, lambda: html(diagnosis), diagnosis.csv)


def _text(diagnosis: Any) -> str:
    from gpuconfig.core.fleet.diagnose import STATE_NAMES
    from gpuconfig.core.i18n import translate
    from gpuconfig.probe.fleet_html import METRIC_COLUMNS, allreduce_line, metric_row

    title = translate("Fleet", "Fleet of {nodes} nodes ({states}), {folder}")
    out = [title.format(nodes=len(diagnosis.nodes), states=diagnosis.counts_text(), folder=diagnosis.folder.path)]
    if allreduce_line(diagnosis):
        out.append(allreduce_line(diagnosis))
    out += [finding.message for finding in diagnosis.findings]
    named = [v for v in diagnosis.nodes if v.reasons]
    if named:
        out.append("")
        for verdict in named:
            state = translate("Fleet", STATE_NAMES[verdict.state])
            out.append(f"{verdict.node}  {state}")
            out += [f"    {reason.message}" for reason in verdict.reasons]
    if diagnosis.exclude:
        leave = translate("Fleet", "Leave out of jobs: --exclude={hosts}")
        out += ["", leave.format(hosts=diagnosis.exclude)]
    headers = [translate("Fleet", title) for title in METRIC_COLUMNS]
    out += ["", table(headers, [metric_row(s, len(diagnosis.groups) > 1) for s in diagnosis.metrics])]
    return lines(*out)
