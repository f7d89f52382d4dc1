"""What several commands share: the catalog store, the workload flags, the worker time-outs, the Python."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuconfig.cli.output import EXIT_VERDICT_FAILED, UsageError, warn
from gpuconfig.core import i18n

if TYPE_CHECKING:
    from gpuconfig.core.catalog.model import Part


def open_store() -> Any:
    from gpuconfig.core.userdata.store import open_default_store

    store = open_default_store()  # a StoreError is reported by main()
    if store.last_refresh.error:
        warn(f"catalog files not loaded, using the last good catalog: {store.last_refresh.error}")
    return store


def catalog_part(store: Any, text: str, kind: str | None, flag: str, leave_out: tuple[str, ...] = ()) -> Part:
    """The catalog part `flag` names (of `kind`, or of any kind for None but those in `leave_out`): by id, name
    or words of its name; a name that names no one part is one line of bad input, with what it might have
    meant."""
    from gpuconfig.core.catalog.names import PartNotFound, find_part

    kinds = [k for k in store.schema.kind_names if k not in leave_out]
    try:
        return find_part(text, [p for k in kinds for p in store.parts(k)], kind)
    except PartNotFound as exc:
        listing = "" if exc.suggestions else f" (gpuconfig catalog list --kind {kind or 'KIND'} --query WORDS)"
        raise UsageError(f"{flag + ': ' if flag else ''}{exc}{listing}") from None


def form_options(p: argparse.ArgumentParser, html: bool = False, csv: bool = False) -> None:
    """The output flags every command has: --json (and --html, --csv where there is one), --output FILE and
    --lang."""
    forms = p.add_mutually_exclusive_group()
    forms.add_argument("--json", action="store_true", help="JSON only (machine-readable)")
    if html:
        forms.add_argument("--html", action="store_true", help="an HTML document")
    if csv:
        forms.add_argument("--csv", action="store_true", help="CSV: one row per line")
    p.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument(
        "--lang",
        choices=i18n.LANGUAGES,
        default=i18n.ENGLISH,
        help="the language of the text and documents written: en (the default) or zh_CN; JSON keys stay English",
    )


def check_python(python: str | None) -> None:
    """The Python that will run the benchmarks exists: --python's, or GPUCONFIG_TORCH_PYTHON's."""
    from gpuconfig.core.workers.pythons import PythonNotFound, named_python

    if python:
        if not Path(python).is_file():
            raise UsageError(f"--python {python}: no such interpreter")
        return
    try:
        named_python()
    except PythonNotFound as exc:
        raise UsageError(str(exc)) from exc


def limits(args: argparse.Namespace) -> Any:
    from gpuconfig.probe.runner import Limits

    return Limits(args.start_timeout, args.bench_timeout, getattr(args, "budget", None))


def seconds(text: str) -> float:
    """A time-out on the command line: a positive, finite number of seconds."""
    from gpuconfig.core.numbers import NumberError, checked_number

    try:
        return checked_number(float(text))
    except NumberError as exc:
        raise argparse.ArgumentTypeError(f"seconds {exc}") from None
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None


def worker_timeouts(p: argparse.ArgumentParser) -> None:
    """The time budget and the time-outs of a command that runs the probe's benchmarks."""
    from gpuconfig.probe.runner import STARTUP_TIMEOUT_S, SUITE_BUDGET_S, TIMEOUTS_S

    budgets = ", ".join(f"{suite} {seconds:g}" for suite, seconds in SUITE_BUDGET_S.items())
    p.add_argument(
        "--budget", type=seconds, metavar="S", dest="budget",
        help=f"seconds the whole run should take; the benchmarks' repeats fit into it (default: {budgets})",
    )  # fmt: skip

    p.add_argument(
        "--start-timeout", type=seconds, default=STARTUP_TIMEOUT_S, metavar="S", dest="start_timeout",
        help=f"seconds the benchmark worker may take to import torch and start (default {STARTUP_TIMEOUT_S:g})",
    )  # fmt: skip
    p.add_argument(
        "--bench-timeout", type=seconds, metavar="S", dest="bench_timeout",
        help=f"seconds each benchmark may take (default: each its own, {min(TIMEOUTS_S.values()):g} to "
        f"{max(TIMEOUTS_S.values()):g})",
    )  # fmt: skip


def trace_failed(exc: Any) -> int:
    """A trace that failed on the user's input is bad input (exit 2); one that crashed is a failure (exit 1)."""
    if exc.kind in ("model", "input", "unsupported"):
        raise UsageError(str(exc)) from exc
    print(f"gpuconfig: trace failed: {exc}", file=sys.stderr)
    return EXIT_VERDICT_FAILED


def workload_options(p: argparse.ArgumentParser, model_required: bool = True) -> None:
    """The workload flags `estimate`, `recommend` and `egpu` share."""
    from gpuconfig.core.workload.runner import TRACE_TIMEOUT_S
    from gpuconfig.core.workload.spec import (
        ATTENTION,
        DEVICES,
        LORA_ALPHA_DEFAULT,
        LORA_TARGETS_DEFAULT,
        OPTIMIZERS,
        PRECISIONS,
        STRATEGIES,
        TASKS,
    )

    p.add_argument(
        "--model",
        required=model_required,
        help="a built-in model id, a config.json, or a .py file that builds the model; "
        "a .py file is run as Python code, so give only files you trust",
    )
    p.add_argument("--task", default="finetune", choices=list(TASKS))
    p.add_argument("--batch", type=int, default=1, help="micro-batch per device")
    p.add_argument("--seq", type=int, help="sequence length (prompt, for inference) or image side")
    p.add_argument("--generate", type=int, default=0, help="tokens generated per sequence (inference)")
    p.add_argument("--precision", default="amp_bf16", choices=list(PRECISIONS))
    p.add_argument("--optimizer", default="adamw", choices=list(OPTIMIZERS))
    p.add_argument("--checkpointing", action="store_true", help="activation checkpointing")
    p.add_argument(
        "--channels-last", action="store_true", dest="channels_last",
        help="convolution networks: activations in channels-last (NHWC) memory format, PyTorch's default being "
        "channels-first (NCHW); changes the time estimate's batch normalization on CUDA GPUs",
    )  # fmt: skip
    p.add_argument(
        "--torch-compile", action="store_true", dest="torch_compile",
        help="the model run under torch.compile (default mode): the operators between two matrix products fuse into "
        "generated kernels, which move fewer bytes and launch fewer kernels; changes the time estimate only",
    )  # fmt: skip
    p.add_argument("--grad-accum", type=int, default=1, dest="grad_accum")
    p.add_argument("--gpus", type=int, default=1)
    p.add_argument("--strategy", default="ddp", choices=list(STRATEGIES))
    p.add_argument("--device", default="cuda", choices=list(DEVICES))
    p.add_argument("--lora-rank", type=int, default=16, dest="lora_rank")
    p.add_argument(
        "--lora-targets", type=module_names, default=LORA_TARGETS_DEFAULT, metavar="MODULES", dest="lora_targets",
        help="modules LoRA adapts, as PEFT's target_modules: names (q_proj,v_proj), all-linear, or default "
        "(PEFT's choice for the model type)",
    )  # fmt: skip
    p.add_argument("--lora-alpha", type=int, default=LORA_ALPHA_DEFAULT, dest="lora_alpha", help="LoRA's alpha")
    p.add_argument("--lora-dropout", type=float, default=0.0, dest="lora_dropout", help="dropout before the adapters")
    p.add_argument(
        "--double-quant", action="store_true", dest="double_quant",
        help="QLoRA: quantize the 4-bit weights' scales too (bitsandbytes' bnb_4bit_use_double_quant)",
    )  # fmt: skip
    p.add_argument(
        "--attention", default="auto", choices=list(ATTENTION),
        help="attention implementation: auto (what transformers and PyTorch pick for the GPU), eager, "
        "sdpa_math, sdpa_efficient, sdpa_flash (scaled_dot_product_attention forced to one kernel) or "
        "flash_attention_2 (the flash-attn package)",
    )  # fmt: skip
    p.add_argument(
        "--trace-timeout", type=seconds, default=TRACE_TIMEOUT_S, metavar="S", dest="trace_timeout",
        help=f"seconds a trace of the model may take (default {TRACE_TIMEOUT_S:g})",
    )  # fmt: skip


def module_names(text: str) -> str:
    """LoRA's target modules as typed, "q_proj, v_proj" or "q_proj,v_proj": without the spaces."""
    return "".join(text.split())


def workload(args: argparse.Namespace) -> Any:
    from dataclasses import fields

    from gpuconfig.core.workload.spec import Workload, WorkloadError

    try:
        return Workload(**{f.name: getattr(args, f.name) for f in fields(Workload)})
    except WorkloadError as exc:
        raise UsageError(str(exc)) from exc


def headroom_option(p: argparse.ArgumentParser) -> None:
    """--headroom: the share of each card's memory every fit verdict keeps free."""
    p.add_argument(
        "--headroom", type=float, metavar="PERCENT",
        help="percent of each card's memory kept free when judging a fit (default: your saved setting, else the "
        "largest under-estimate measured against real GPU runs)",
    )  # fmt: skip


def headroom_of(args: argparse.Namespace, store: Any | None) -> Any:
    """The headroom the command judges with: --headroom, else the user's saved one, else the measured default."""
    from gpuconfig.core.workload.fit import HeadroomError, default_headroom, user_headroom

    if getattr(args, "headroom", None) is not None:
        try:
            return user_headroom(args.headroom)
        except HeadroomError as exc:
            raise UsageError(f"--{exc}") from None
    return store.user.headroom() if store is not None else default_headroom()
