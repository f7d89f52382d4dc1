"""`gpuconfig guide`: the setup guide (driver, PyTorch install, checks, settings, fixes) as Markdown, HTML
or JSON, for a catalog GPU, a build file or a probe report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import catalog_part, form_options, open_store
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    from gpuconfig.core.guide.guide import OSES

    guide = commands.add_parser("guide", help="the setup guide: driver, PyTorch install, checks, settings, fixes")
    what = guide.add_mutually_exclusive_group(required=True)
    what.add_argument("--gpu", metavar="GPU", help="a GPU from the catalog: its id, name or words of it")
    what.add_argument("--build", metavar="FILE.json", help="a build file")
    what.add_argument(
        "--from-probe", metavar="FILE.json", dest="from_probe", help="a probe report (gpuconfig probe --json)"
    )
    guide.add_argument("--os", required=True, choices=OSES)
    guide.add_argument("--count", type=int, default=1, help="how many of the GPU (with --gpu)")
    guide.add_argument("--driver", metavar="VERSION", help="the NVIDIA driver installed now, e.g. 560.35.03")
    guide.add_argument(
        "--china-mirrors",
        action="store_true",
        help="add the install through mainland China's mirrors (USTC's PyPI mirror)",
    )
    form_options(guide, html=True)
    guide.set_defaults(handler=run)


def run(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.build.model import BuildError, read_build, resolve
    from gpuconfig.core.guide.choose import target_from_part
    from gpuconfig.core.guide.diagnose import guide_from_probe
    from gpuconfig.core.guide.guide import guide_for_gpus, guide_for_part
    from gpuconfig.core.guide.render import guide_html, guide_markdown, guide_record
    from gpuconfig.core.guide.tables import CompatTableError
    from gpuconfig.core.user_files import UserFileError, read_json

    try:
        if args.gpu:
            part = catalog_part(open_store(), args.gpu, "gpu", "--gpu")
            guide = (
                guide_for_gpus(
                    [(target_from_part(part), args.count)],
                    args.os,
                    p2p=part.specs.get("p2p"),
                    driver=args.driver,
                    china_mirrors=args.china_mirrors,
                )
                if args.driver
                else guide_for_part(part, args.count, args.os, china_mirrors=args.china_mirrors)
            )
        elif args.build:
            resolved = resolve(read_build(Path(args.build)), open_store().part)
            gpus = resolved.gpus()
            if not gpus:
                raise UsageError(f"{args.build}: the build has no GPU to set up")
            p2p = False if any(g.spec("p2p") is False for g in gpus) else None
            guide = guide_for_gpus(
                [(target_from_part(g.part), g.count) for g in gpus],
                args.os,
                p2p=p2p,
                driver=args.driver,
                china_mirrors=args.china_mirrors,
            )
        else:
            report = read_json(Path(args.from_probe))
            if not isinstance(report, dict):
                raise UsageError(f"{args.from_probe}: not a probe report: expected a JSON object")
            guide = guide_from_probe(report, args.os, china_mirrors=args.china_mirrors)
    except (BuildError, CompatTableError, UserFileError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    code = EXIT_VERDICT_FAILED if any(f.severity == "fail" for f in guide.findings) else EXIT_OK
    return Reply(code, lambda: guide_markdown(guide), lambda: guide_record(guide), lambda: guide_html(guide))
