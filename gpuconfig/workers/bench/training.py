"""Training steps: a small CNN and a small transformer, with and without AMP and checkpointing, and a step
whose batch comes from host memory."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

from .events import Events
from .load import CpuLoad
from .memory import PeakMemory, TensorPeak
from .timing import Run, interleaved, rates, release_memory, synchronize


class ConvBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    def forward(self, x: Tensor) -> Tensor:
        out: Tensor = self.layers(x)
        return out


class Checkpointable(nn.Module):
    """A model whose blocks run under activation checkpointing while `checkpointing` is set."""

    checkpointing: bool


class SmallCNN(Checkpointable):
    """A CIFAR-sized convolutional classifier: two stages of three blocks (two 3x3 convolutions each), pooled,
    one linear head. Each block is one checkpointed segment."""

    def __init__(self, width: int, classes: int, checkpointing: bool) -> None:
        super().__init__()
        shapes = [(3, width, 1), (width, width, 1), (width, width, 1)]
        shapes += [(width, 2 * width, 2), (2 * width, 2 * width, 1), (2 * width, 2 * width, 1)]
        self.blocks = nn.ModuleList(ConvBlock(cin, cout, stride) for cin, cout, stride in shapes)
        self.head = nn.Linear(2 * width, classes)
        self.checkpointing = checkpointing

    def forward(self, x: Tensor) -> Tensor:
        for block in self.blocks:
            x = _maybe_checkpoint(block, x, self.checkpointing)
        out: Tensor = self.head(x.mean((2, 3)))
        return out


class SmallTransformer(Checkpointable):
    """A pre-norm transformer language model built from torch.nn.TransformerEncoderLayer."""

    def __init__(self, vocab: int, width: int, layers: int, heads: int, length: int, checkpointing: bool) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.zeros(length, width))
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(width, heads, 4 * width, dropout=0.0, batch_first=True, norm_first=True)
            for _ in range(layers)
        )
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)
        self.checkpointing = checkpointing

    def forward(self, tokens: Tensor) -> Tensor:
        x = self.embed(tokens) + self.position
        for layer in self.layers:
            x = _maybe_checkpoint(layer, x, self.checkpointing)
        out: Tensor = self.head(self.norm(x))
        return out


def _maybe_checkpoint(module: nn.Module, x: Tensor, enabled: bool) -> Tensor:
    out: Tensor = checkpoint(module, x, use_reentrant=False) if enabled else module(x)
    return out


@dataclass(frozen=True)
class Model:
    """A model to train, its batch and how to build it, on one device."""

    build: Callable[[bool], Checkpointable]
    batch: Callable[[], tuple[Tensor, Tensor]]
    batch_size: int
    describe: dict[str, Any]


def train_cnn(run: Run, events: Events) -> None:
    width, batch, image = run.pick((16, 32, 32), (32, 64, 32), (64, 256, 32), (64, 256, 64))

    def data() -> tuple[Tensor, Tensor]:
        x = torch.randn(batch, 3, image, image, device=run.device)
        return x, torch.randint(0, 10, (batch,), device=run.device)

    model = Model(lambda ckpt: SmallCNN(width, 10, ckpt), data, batch, {"width": width, "image": image})
    _training(run, events, model)


def train_transformer(run: Run, events: Events) -> None:
    width, layers, length, batch = run.pick((128, 2, 128, 8), (128, 4, 256, 8), (512, 4, 512, 16), (768, 6, 512, 32))
    vocab: int = run.pick(1024, 1024, 8192, 8192)  # small enough that the logits do not outweigh the layers

    def data() -> tuple[Tensor, Tensor]:
        tokens = torch.randint(0, vocab, (batch, length + 1), device=run.device)
        return tokens[:, :-1], tokens[:, 1:]

    describe = {"width": width, "layers": layers, "length": length, "vocab": vocab}
    model = Model(lambda ckpt: SmallTransformer(vocab, width, layers, 8, length, ckpt), data, batch, describe)
    _training(run, events, model)


# (AMP, activation checkpointing) of each step measured, the plain step first: the others' ratios are to it.
VARIANTS = ((False, False), (False, True), (True, False), (True, True))


def _variant(amp: bool, checkpointing: bool) -> str:
    return "+".join(v for v, on in (("amp", amp), ("checkpointing", checkpointing)) if on)


def _training(run: Run, events: Events, model: Model) -> None:
    """Throughput and peak memory of full steps (forward, loss, backward, AdamW), AMP and checkpointing on/off.

    Peak memory is measured for each variant in a fresh model. Throughput is measured on one model whose
    steps switch variant in turn (interleaved rounds), so each variant's throughput against the plain step
    is a pair per round, measured moments apart, and carries its spread (`vs_plain_samples`)."""
    amp_name = "bf16" if _amp_dtype(run) == torch.bfloat16 else "fp16"
    memory: dict[tuple[bool, bool], dict[str, Any]] = {}
    for amp, checkpointing in VARIANTS:
        if run.box.overrun():  # a slow or busy machine: the time goes to the throughput
            memory[(amp, checkpointing)] = {"peak_memory": "not measured: the time box was overrun"}
            continue
        try:
            memory[(amp, checkpointing)] = _peak_memory(run, model, amp, checkpointing)
        except Exception as exc:
            events.error(exc, amp_name if amp else "fp32", _variant(amp, checkpointing))
        release_memory(run.device)
    if not memory:
        return
    try:
        step = _trainer(run, model)
        calls = {v: partial(step, *v) for v in memory}
        with CpuLoad() as load:
            # the memory passes are the benchmark's fixed work: the timing has a box of its own length
            seconds, counts = interleaved(calls, run.device, run.box if run.box.overrun() else run.box.again())
    except Exception as exc:
        for amp, checkpointing in memory:
            events.error(exc, amp_name if amp else "fp32", _variant(amp, checkpointing))
        release_memory(run.device)
        return
    plain = seconds.get((False, False))
    for (amp, checkpointing), taken in seconds.items():
        paired = {}
        if plain is not None and (amp or checkpointing):
            paired = {"vs_plain_samples": [round(p / s, 4) for p, s in zip(plain, taken, strict=True)]}
        events.result(
            amp_name if amp else "fp32",
            rates(model.batch_size, taken),
            _variant(amp, checkpointing),
            load.record(),
            **memory[(amp, checkpointing)],
            **paired,
            batch=model.batch_size,
            steps_per_sample=counts[(amp, checkpointing)],
            amp=amp,
            checkpointing=checkpointing,
            interleaved_with=[_variant(*v) or "plain" for v in seconds if v != (amp, checkpointing)],
            **model.describe,
        )
    release_memory(run.device)


def _peak_memory(run: Run, model: Model, amp: bool, checkpointing: bool) -> dict[str, Any]:
    """The peak memory of building the model and training it two steps (the optimizer's state included)."""
    with PeakMemory(run.device) as peak:
        _steps(run, model, amp, checkpointing)(2)
    if run.cuda:
        return {"peak_memory_bytes": peak.bytes, "peak_memory_source": peak.source}
    # The process's RSS growth also counts malloc's kept pages: the live tensors are told apart here.
    release_memory(run.device)
    with TensorPeak() as tensors:
        _steps(run, model, amp, checkpointing)(1)
    return {
        "peak_memory_bytes": tensors.peak,
        "peak_memory_source": "live CPU tensors, one step (the CPU's max_memory_allocated)",
        "peak_rss_growth_bytes": peak.bytes,
        "peak_rss_source": peak.source,
    }


def train_from_host(run: Run, events: Events) -> None:
    """The small CNN's step twice: with its batch already on the device, and with the batch copied from
    pinned host memory every step as a training loop does (on the same stream, before the step's kernels).
    The difference is what the host link costs this step: on an eGPU, the Thunderbolt or OCuLink tunnel.
    The two are measured in interleaved rounds, so their ratio is a pair per round."""
    width, batch, image = run.pick((16, 32, 32), (32, 64, 32), (64, 256, 64), (64, 256, 96))
    host_x = torch.randn(batch, 3, image, image, pin_memory=run.cuda)
    host_y = torch.randint(0, 10, (batch,), pin_memory=run.cuda)
    batch_bytes = host_x.numel() * host_x.element_size() + host_y.numel() * host_y.element_size()
    net = SmallCNN(width, 10, False).to(run.device).train()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    resident_x, resident_y = host_x.to(run.device), host_y.to(run.device)

    def step(from_host: bool) -> None:
        if from_host:  # into fresh device memory, as `batch.to(device, non_blocking=True)` does
            x = torch.empty_like(resident_x).copy_(host_x, non_blocking=True)
            y = torch.empty_like(resident_y).copy_(host_y, non_blocking=True)
        else:
            x, y = resident_x, resident_y
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(x), y)
        torch.autograd.backward(loss)
        optimizer.step()

    variants = ("resident", "from_host")
    try:
        with CpuLoad() as load:
            seconds, counts = interleaved({v: partial(step, v == "from_host") for v in variants}, run.device, run.box)
    except Exception as exc:
        for variant in variants:
            events.error(exc, "fp32", variant)
        release_memory(run.device)
        return
    for variant in variants:
        paired = {}
        if variant == "from_host":
            pairs = zip(seconds["resident"], seconds["from_host"], strict=True)
            paired = {"vs_resident_samples": [round(r / f, 4) for r, f in pairs]}
        events.result(
            "fp32",
            rates(batch, seconds[variant]),
            variant,
            load.record(),
            **paired,
            step_s=round(statistics.median(seconds[variant]), 6),
            steps_per_sample=counts[variant],
            batch=batch,
            batch_bytes=batch_bytes,
            width=width,
            image=image,
            copy="pinned host memory to the GPU" if run.cuda else "host memory to host memory (no GPU: no link)",
        )
    release_memory(run.device)


def _amp_dtype(run: Run) -> torch.dtype:
    return torch.bfloat16 if not run.cuda or torch.cuda.is_bf16_supported() else torch.float16


def _trainer(run: Run, model: Model) -> Callable[[bool, bool], None]:
    """A fresh model, optimizer and batch on the device; the returned function trains one step of it, with
    or without AMP and checkpointing (the model's blocks checkpoint when told to)."""
    net = model.build(False).to(run.device).train()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    amp_dtype = _amp_dtype(run)
    # fp16 gradients underflow without loss scaling; bf16's do not
    scaler = torch.amp.GradScaler(run.device.type, enabled=amp_dtype == torch.float16)
    inputs, targets = model.batch()

    def step(amp: bool, checkpointing: bool) -> None:
        net.checkpointing = checkpointing
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(run.device.type, dtype=amp_dtype, enabled=amp):
            logits = net(inputs)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), targets.reshape(-1))
        if amp:
            torch.autograd.backward(scaler.scale(loss))
            scaler.step(optimizer)
            scaler.update()
        else:
            torch.autograd.backward(loss)
            optimizer.step()

    return step


def _steps(run: Run, model: Model, amp: bool, checkpointing: bool) -> Callable[[int], None]:
    """A fresh model trained n steps of one variant by the returned function."""
    step = _trainer(run, model)

    def train(steps: int) -> None:
        for _ in range(steps):
            step(amp, checkpointing)
        synchronize(run.device)

    return train
