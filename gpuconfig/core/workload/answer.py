"""The instant part of an estimate: memory, time and the verdict from a fitted trace (core/workload/service.py
makes the fit)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload.accuracy import band_record
from gpuconfig.core.workload.attention import AttentionChoice, attention_choice
from gpuconfig.core.workload.communication import card_link, exposed_seconds
from gpuconfig.core.workload.estimate import (
    DecodeEfficiency,
    Efficiency,
    Estimate,
    Fitted,
    GpuSpec,
    NoRate,
    Timing,
    estimate_from_fit,
    time_at,
)
from gpuconfig.core.workload.fit import Headroom, Verdict, default_headroom, judge, verdict_record
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.spec import OPTIMIZERS, STRATEGIES, Workload, WorkloadError, named, summary


@cache
def efficiency() -> Efficiency | None:
    """The calibrated efficiencies, or None before benchmarks/time_calibration.py has written them."""
    path = catalog_dir() / "efficiency.toml"
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    norms = data.get("batch_norm_cycles_per_element")
    return Efficiency(
        float(data["compute"]), float(data["memory"]), str(data["source"]), float(data["conv"]),
        float(norms) if norms is not None else None,
    )  # fmt: skip


@cache
def decode_efficiency() -> DecodeEfficiency | None:
    """How decode steps run, or None before benchmarks/decode_calibration.py has fitted it."""
    path = catalog_dir() / "decode_efficiency.toml"
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        fitted = DecodeEfficiency(float(data["bandwidth"]), float(data["launch_seconds"]), str(data["source"]))
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        return None
    if not (0 < fitted.bandwidth <= 1 and 0 <= fitted.launch_seconds < 1):
        return None
    return fitted


@cache
def measured_share(device: str) -> tuple[float, str, str]:
    """The share of a probe report's measured rates a real eager step reaches on `device`, with its source
    (catalog/measured_efficiency.toml, written by benchmarks/cpu_step_time.py) and the processor it was fitted on
    ("" where not said); the rates as reached where none was measured."""
    path = catalog_dir() / "measured_efficiency.toml"
    try:
        with path.open("rb") as handle:
            entry = tomllib.load(handle)[device]
        share, source, fitted_on = float(entry["share"]), str(entry["source"]), str(entry.get("fitted_on", ""))
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        return (
            1.0,
            translate(
                "Workload", "taken as reached: no share of measured rates has been measured on this kind of device"
            ),
            "",
        )
    if not 0 < share <= 1:
        return 1.0, translate("Workload", "taken as reached: the catalog's measured share is out of range"), ""
    return share, source, fitted_on


def measured_efficiency(gpu: GpuSpec, workload: Workload) -> tuple[Efficiency, DecodeEfficiency | None]:
    """With rates measured on the machine itself (measured.py), the step reaches the share of them measured for
    its kind of device (measured_share). A GPU's eager kernels still each take the launch time fitted on published
    decode rates (the probe does not measure it); a CPU launches none."""
    share, why, fitted_on = measured_share(workload.device)
    source = translate("Workload", "FLOPs and bytes at the rates {measured}, at {share:.0%} of them ({why})").format(
        measured=gpu.measured, share=share, why=why
    )
    if fitted_on and fitted_on not in gpu.measured:  # the report names the processor it was measured on
        source += translate(
            "Workload", "; the share was fitted on another processor ({fitted_on}), and it moves with the host"
        ).format(fitted_on=fitted_on)
    fitted = decode_efficiency()
    launch = fitted.launch_seconds if fitted is not None and workload.device == "cuda" else 0.0
    if launch and fitted is not None:
        reads = translate(
            "Workload", "reads at {share:.0%} of the memory bandwidth {measured}; each kernel's launch {launch}"
        ).format(share=share, measured=gpu.measured, launch=fitted.source)
    else:
        reads = translate("Workload", "reads at {share:.0%} of the memory bandwidth {measured}").format(
            share=share, measured=gpu.measured
        )
    # The probe measures no SM pace: channels-first batch normalization keeps the one fitted on published results.
    calibrated = efficiency() if workload.device == "cuda" else None
    cycles = calibrated.batch_norm_cycles_per_element if calibrated is not None else None
    step = Efficiency(share, share, source, conv=share, batch_norm_cycles_per_element=cycles)
    return step, DecodeEfficiency(share, launch, reads)


NO_DECODE = QT_TRANSLATE_NOOP(
    "Workload", "generated tokens not priced: no decode calibration (benchmarks/decode_calibration.py writes it)"
)


def timing_for(
    fitted: Fitted, workload: Workload, source: ModelSource, batch: int, seq: int, gpu: GpuSpec
) -> tuple[Timing | None, str]:
    """The time of the workload's step (for generation, the whole request) on `gpu`, or why there is none."""
    calibrated, decode = measured_efficiency(gpu, workload) if gpu.measured else (efficiency(), decode_efficiency())
    if calibrated is None:
        return None, translate(
            "Workload", "no calibrated efficiency yet (benchmarks/time_calibration.py writes catalog/efficiency.toml)"
        )
    if not workload.training and workload.generate > 1 and decode is None:
        return None, translate("Workload", NO_DECODE)  # the prompt's pass alone would be far too fast an answer
    try:
        timing = time_at(fitted, workload, source, batch, seq, gpu, calibrated, decode)
    except NoRate as exc:
        return None, str(exc)
    return with_communication(timing, fitted, workload, batch, seq, gpu), ""


def with_communication(
    timing: Timing, fitted: Fitted, workload: Workload, batch: int, seq: int, gpu: GpuSpec
) -> Timing:
    """Several GPUs training: the step also waits on what its collectives cannot hide under its work
    (communication.exposed_seconds), over the link cards of this model reach each other over."""
    link = card_link(gpu)
    if not workload.training or workload.gpus < 2 or workload.device != "cuda" or link is None:
        return timing
    weights = fitted.at("forward.weights", batch, seq)
    grads = fitted.at("grad_bytes", batch, seq)
    micro = timing.step_seconds / workload.grad_accum
    waited = exposed_seconds(workload.strategy, workload.gpus, weights, grads, workload.grad_accum, link, micro)
    if waited <= 0:
        return replace(timing, link=link.name)
    step = timing.step_seconds + waited
    scale = timing.step_seconds / step
    return replace(
        timing,
        step_seconds=step,
        samples_per_s=timing.samples_per_s * scale,
        tokens_per_s=timing.tokens_per_s * scale if timing.tokens_per_s is not None else None,
        communication_seconds=waited,
        link=link.name,
    )


@dataclass(frozen=True)
class Answer:
    source: ModelSource
    fitted: Fitted
    estimate: Estimate
    timing: Timing | None
    gpu: GpuSpec | None
    time_note: str  # why there is no timing, when there is none
    attention: AttentionChoice
    headroom: Headroom

    @property
    def verdict(self) -> Verdict | None:
        """Whether the peak fits the GPU with the headroom kept; None without a GPU."""
        if self.gpu is None:
            return None
        return judge(self.estimate.memory.peak, self.gpu.memory_bytes, self.headroom)


def answer_from_fit(
    source: ModelSource,
    fitted: Fitted,
    workload: Workload,
    gpu: GpuSpec | None,
    trace_seconds: float = 0.0,
    headroom: Headroom | None = None,
) -> Answer:
    """The instant part: memory, time and the verdict (with `headroom`, else the default) for any batch, length
    and GPU count."""
    seq = workload.seq or source.default_seq()
    result = estimate_from_fit(source, workload, fitted, seq, trace_seconds, gpu.cc_major if gpu else None)
    timing, note = None, ""
    if gpu is not None:
        timing, note = timing_for(fitted, workload, source, workload.batch, seq, gpu)
    elif workload.device == "cpu":
        note = translate(
            "Workload",
            "not estimated on the CPU without its measured speed: a CPU's rates are not in the catalog; run "
            "gpuconfig probe --json --output FILE and give --probe-report FILE (the Workload tab: at this machine's "
            "measured speed)",
        )
    else:
        note = translate("Workload", "not estimated without a GPU: choose one (--gpu)")
    cc = (gpu.cc_major, gpu.cc_minor) if gpu is not None and gpu.cc_major is not None else None
    attention = attention_choice(workload, fitted.attention, cc)
    return Answer(source, fitted, result, timing, gpu, note, attention, headroom or default_headroom(workload.device))


def gpu_spec(store: Any, part_id: str) -> GpuSpec:
    part = store.part(part_id)
    if part is None or part.kind != "gpu":
        raise WorkloadError(f"gpu: {part_id!r} is not a GPU in the catalog (gpuconfig catalog list --kind gpu)")
    return GpuSpec.from_specs(part.id, part.name, part.specs)


def timing_record(t: Timing) -> dict[str, Any]:
    """The JSON record of a step's time: its parts, what priced them, and a generation's phases."""
    time: dict[str, Any] = {
        "step_seconds": t.step_seconds,
        "throughput": {"samples_per_s": t.samples_per_s, "tokens_per_s": t.tokens_per_s},
        "compute_seconds": t.compute_seconds,
        "memory_seconds": t.memory_seconds,
        "batch_norm_seconds": t.batch_norm_seconds,
        "batch_norm_sm_seconds": t.batch_norm_sm_seconds,
        "batch_norm_unpaced": t.batch_norm_unpaced or None,
        "conv_seconds": t.conv_seconds,
        "bound": t.bound,
        "priced_seconds": dict(zip(("matmuls", "convolutions", "other", "set_by_bytes"), t.priced(), strict=True)),
        "communication_seconds": t.communication_seconds,
        "link": t.link or None,
        "kernels_per_micro_batch": round(t.kernels),
        "launch_seconds_per_micro_batch": t.launch_seconds,
        "matmul_rate_basis": t.matmul_basis or None,
        "torch_compile": {
            "fused": t.torch_compile,
            "eager_memory_seconds": t.eager_memory_seconds if t.torch_compile else None,
            "eager_kernels_per_micro_batch": round(t.eager_kernels) if t.torch_compile else None,
        },
        "efficiency": {
            "compute": t.efficiency.compute,
            "conv": t.efficiency.conv,
            "memory": t.efficiency.memory,
            "batch_norm_cycles_per_element": t.efficiency.batch_norm_cycles_per_element,
            "source": t.efficiency.source,
        },
    }
    g = t.generation
    if g is not None:
        time["generation"] = {
            "time_to_first_token_seconds": g.prefill_seconds,
            "decode_seconds": g.decode_seconds,
            "step_seconds": {"first": g.first_step_seconds, "last": g.last_step_seconds},
            "tokens_per_s_per_sequence": g.tokens_per_s_per_sequence,
            "tokens_per_s_total": g.tokens_per_s_total,
            "compiled_tokens_per_s_per_sequence": g.compiled_tokens_per_s_per_sequence,
            "bound": g.bound,
            "weight_bytes_per_step": round(g.weight_bytes),
            "kv_cache_bytes_per_token": round(g.kv_bytes_per_token),
            "kernels_per_step": round(g.kernels),
            "engine": g.engine,
            # eager generations timed for real (estimate_accuracy_gpu.py); the fitted source's band is the engines'
            "expected_error": band_record("cuda_decode") if g.engine == "eager" else None,
            "efficiency": {
                "bandwidth": g.efficiency.bandwidth,
                "launch_seconds": g.efficiency.launch_seconds,
                "source": g.efficiency.source,
            },
        }
    return time


def estimated(workload: Workload, seq: int) -> str:
    """What was estimated, in words: the task, precision, batch and length (the default filled in), the optimizer
    a training step keeps the state of, and where it runs."""
    parts = [summary(workload.with_changes(seq=seq))]
    if workload.training:
        parts.append(named(OPTIMIZERS, workload.optimizer))
    if workload.gpus > 1:
        parts.append(
            translate("Workload", "{n} GPUs, {strategy}, per device").format(
                n=workload.gpus, strategy=named(STRATEGIES, workload.strategy)
            )
        )
    else:
        parts.append(workload.device)
    return " · ".join(parts)


def answer_record(answer: Answer) -> dict[str, Any]:
    """The JSON the CLI prints: integers in bytes, peak per device."""
    e = answer.estimate
    m = e.memory
    record: dict[str, Any] = {
        "model": e.model_name,
        "workload": {**e.workload.to_json(), "seq": e.seq},
        "estimated": estimated(e.workload, e.seq),
        "method": e.method,
        "params": e.params,
        "trainable_params": e.trainable_params,
        "flops_per_step": e.flops_per_step,
        "memory": {
            "weights": m.weights,
            "gradients": m.gradients,
            "optimizer": m.optimizer,
            "activations": m.activations,
            "kv_cache": m.kv_cache,
            "overhead": m.overhead,
            "peak": m.peak,
            "allocated_peak": m.allocated_peak,
            "peak_phase": m.phase,
            "per_device": True,
            "overheads": [{"name": o.name, "bytes": o.bytes, "source": o.source} for o in m.overheads],
            "expected_error": band_record(e.workload.device, e.extrapolated),
        },
        "attention": answer.attention.record(),
        "trace_seconds": e.trace_seconds,
    }
    depth = answer.fitted.depth
    if depth is not None:  # extended from shallow traces: how, and how well
        record["depth"] = {
            "traced_layers": list(depth.depths),
            "layers": depth.layers,
            "off_line": round(depth.off_line, 6),
            "peak_phases": list(depth.peak_phases),
        }
    verdict = answer.verdict
    if answer.gpu is not None and verdict is not None:
        record["gpu"] = {
            "id": answer.gpu.id,
            "name": answer.gpu.name,
            "memory": answer.gpu.memory_bytes,
            "measured": answer.gpu.measured or None,
            "fits": verdict.fits,
            "fit": verdict_record(verdict),
        }
    if answer.timing is not None:
        record["time"] = timing_record(answer.timing)
    elif answer.time_note:
        record["time"] = None
        record["time_note"] = answer.time_note
    return record
