"""`gpuconfig estimate`: memory and time of a training or inference workload, and what would make it fit."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import (
    catalog_part,
    form_options,
    headroom_of,
    headroom_option,
    open_store,
    trace_failed,
    workload,
    workload_options,
)
from gpuconfig.cli.output import EXIT_OK, Reply, UsageError, lines, table


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    estimate = commands.add_parser("estimate", help="memory and time of a training or inference workload")
    workload_options(estimate)
    estimate.add_argument(
        "--gpu", metavar="GPU", help="the GPU to check the fit and time against: its catalog id, name or words of it"
    )
    estimate.add_argument(
        "--probe-report",
        metavar="FILE",
        type=Path,
        help="a probe report of the machine (gpuconfig probe --json): the step is priced at the matmul rates and "
        "memory bandwidth measured there instead of datasheet figures (with --device cpu: this machine's CPU)",
    )
    estimate.add_argument("--no-cache", action="store_true", help="trace again even if a cached trace exists")
    headroom_option(estimate)
    form_options(estimate)
    estimate.set_defaults(handler=run)


def run(args: argparse.Namespace) -> Reply | int:
    from gpuconfig.core.workload.advice import advise, option_record
    from gpuconfig.core.workload.answer import answer_record, gpu_spec
    from gpuconfig.core.workload.fit import device_headroom
    from gpuconfig.core.workload.measured import measured_spec, read_report
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    asked = workload(args)
    try:
        store = open_store() if args.gpu or args.headroom is None else None
        headroom = headroom_of(args, store)
        if args.headroom is None:  # a --headroom given is kept whatever the device
            headroom = device_headroom(asked.device, headroom)
        gpu = gpu_spec(store, catalog_part(store, args.gpu, "gpu", "--gpu").id) if args.gpu else None
        if args.probe_report is not None:
            base = gpu if asked.device == "cuda" else None  # on the CPU the machine's CPU is measured, not a card
            gpu = measured_spec(read_report(args.probe_report), asked.device, base, str(args.probe_report))

        def progress(done: int, total: int, what: str) -> None:
            if not args.json and sys.stderr.isatty():
                print(f"\rtracing {done}/{total}: {what}    ", end="", file=sys.stderr, flush=True)

        use_cache, timeout_s = not args.no_cache, args.trace_timeout
        answer = TraceService(use_cache, timeout_s).fit_for(asked, progress).answer(asked, gpu, headroom)
        options = []
        if gpu is not None and answer.verdict is not None and not answer.verdict.fits:
            options = advise(answer, gpu, progress, use_cache=use_cache, timeout_s=timeout_s)
    except WorkloadError as exc:
        raise UsageError(str(exc)) from exc
    except TraceFailed as exc:
        return trace_failed(exc)
    record = answer_record(answer)
    if answer.verdict is not None:
        fitting = [o for o in options if o.fits]
        record["gpu"]["verdict"] = (
            answer.verdict.text() if answer.verdict.fits or not fitting else f"fits if: {fitting[0].label}"
        )
        record["advice"] = [option_record(o) for o in options]
    return Reply(EXIT_OK, lambda: _text(record, options), lambda: record)


def _text(record: dict[str, Any], options: list[Any]) -> str:
    from gpuconfig.core.units import format_bytes

    memory = record["memory"]
    out = [
        f"{record['model']}: {record['params']:,} parameters ({record['trainable_params']:,} trainable), "
        f"{record['method']}",
        f"estimated: {record['estimated']}",
    ]
    rows = [
        [key, format_bytes(memory[key])]
        for key in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead", "peak")
    ]
    out.append(table(["per device", "memory"], rows))
    out += [
        f"  overhead: {item['name']}: {format_bytes(item['bytes'])} ({item['source']})" for item in memory["overheads"]
    ]
    attention = record["attention"]
    out.append(f"attention: {attention['implementation']} ({attention['chosen_by']})")
    if attention["note"]:
        out.append(f"  {attention['note']}")
    out.append(f"expected error of the peak: {memory['expected_error']['text']}")
    if "gpu" in record:
        gpu = record["gpu"]
        out.append(f"{gpu['name']} ({format_bytes(gpu['memory'])}): {gpu['verdict']}")
        if gpu.get("measured"):
            out.append(f"  rates {gpu['measured']}")
        if not gpu["fits"]:
            out.append(f"  as asked it {gpu['fit']['text']}")
        out.append(f"  headroom: {gpu['fit']['headroom']['why']}")
        for option in options:
            factor = f"{option.time_factor:.2f}x time" if option.time_factor is not None else "time unknown"
            mark = "fits" if option.fits else "still too big"
            out.append(f"  {mark:13s} {option.label}: {format_bytes(option.peak)}, {factor} ({option.cost})")
    if record.get("time"):
        t = record["time"]
        tokens = t["throughput"]["tokens_per_s"]
        extra = f", {tokens:,.0f} tokens/s" if tokens else ""
        out.append(f"step {t['step_seconds']:.3g} s, {t['throughput']['samples_per_s']:,.1f} samples/s{extra}")
        if t.get("matmul_rate_basis"):
            out.append(f"  {t['matmul_rate_basis']}")
        fused = t["torch_compile"]
        engine = "a torch.compile step" if fused["fused"] else "an eager PyTorch step"
        out.append(f"  time of {engine}: {t['efficiency']['source']}")
        if fused["fused"]:
            out.append(
                f"  torch.compile: the other operators, fused, move {t['memory_seconds']:.3g} s of bytes a step at the "
                f"full bandwidth (eager {fused['eager_memory_seconds']:.3g} s; the eager optimizer step's included), "
                f"in {t['kernels_per_micro_batch']:,} kernels a micro-batch (eager "
                f"{fused['eager_kernels_per_micro_batch']:,}), counted as TorchInductor fuses them; its own count of "
                "the same step is higher for most models (benchmarks/compile_fusion.py)"
            )
        priced = t["priced_seconds"]
        split = ", ".join(
            f"{name} {priced[key]:.3g} s"
            for key, name in (("matmuls", "matmuls"), ("convolutions", "convolutions"), ("other", "other operators"))
            if priced[key] > 0
        )
        if priced["set_by_bytes"] > 0:
            share = priced["set_by_bytes"] / max(priced["matmuls"] + priced["convolutions"], 1e-30)
            split += f" ({share:.0%} of the matmuls' and convolutions' time set by their bytes, at the roofline)"
        if split:
            out.append(f"  {split}")
        cycles = t["efficiency"].get("batch_norm_cycles_per_element")
        if t.get("batch_norm_sm_seconds") and cycles:
            out.append(
                f"  channels-first batch normalization: the longer of its bytes at the bandwidth share and "
                f"{cycles:.2f} multiprocessor cycles per element (--channels-last prices the NHWC kernels)"
            )
        if t.get("batch_norm_unpaced"):
            out.append(f"  {t['batch_norm_unpaced']}")
        if t["communication_seconds"] > 0:
            out.append(f"  waits {t['communication_seconds']:.3g} s per step on the GPUs' collectives over {t['link']}")
        if t["bound"] == "kernel launches":
            out.append(
                f"  bound by kernel launches: {t['kernels_per_micro_batch']:,} kernels per micro-batch issued one at a "
                f"time take {t['launch_seconds_per_micro_batch']:.3g} s, longer than the GPU's work"
            )
        if g := t.get("generation"):
            first, last = (f"{1000 * g['step_seconds'][k]:.3g}" for k in ("first", "last"))
            steps = first if first == last else f"{first}-{last}"
            out.append(
                f"generation: first token after {g['time_to_first_token_seconds']:.3g} s (the prompt's pass), then "
                f"{g['tokens_per_s_per_sequence']:,.1f} tokens/s per sequence, {g['tokens_per_s_total']:,.1f} in "
                f"total; a decode step {steps} ms, bound by {g['bound']} ({g['engine']}); compiled with CUDA graphs "
                f"{g['compiled_tokens_per_s_per_sequence']:,.1f} tokens/s per sequence"
            )
            out.append(f"  decode: {g['efficiency']['source']}")
            if g.get("expected_error"):
                out.append(f"  expected error of an eager decode step: {g['expected_error']['text']}")
    elif record.get("time_note"):
        out.append(f"time: {record['time_note']}")
    return lines(*out)
