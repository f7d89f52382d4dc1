"""Trace a workload's real training or inference steps without allocating its memory.

Run as a script through worker_boot.py (gpuconfig/core) in a Python that has torch (and transformers for
Hugging Face configs, diffusers for a diffusers UNet): it reads one JSON request on stdin and writes JSON
lines on the channel the boot kept for it (whatever the model's code prints goes to stderr):

    {"event": "progress", "done": 1, "total": 3, "what": "..."}
    {"event": "runtime", "torch": "2.13.0", "baseline_rss_bytes": ..., ...}
    {"event": "point", "batch": 4, "seq": 128, "memory": {...}, "flops": ..., ...}
    {"event": "error", "kind": "model|input|unsupported|internal", "message": "one line"}

The model is built under FakeTensorMode: every tensor has its real shape and dtype but no storage, so a
70B model traces on a laptop. Two full steps run (forward, loss, backward, optimizer step, zero_grad) so the
optimizer states are alive; PyTorch's MemTracker follows every storage's lifetime by category, and the
breakdown at the peak instant of the second step is reported. FLOPs and bytes per operator are counted in
the same run. This file imports nothing from gpuconfig: it runs in whichever Python has torch.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import sys
import time
import traceback
from collections.abc import Iterator
from typing import Any

# Hugging Face libraries must never reach the network from here.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("DIFFUSERS_VERBOSITY", "error")

LLM_TYPES = {"gpt2", "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "opt", "gpt_neox", "falcon"}
ENCODER_TYPES = {"bert", "roberta", "distilbert", "deberta-v2", "electra"}
VISION_TYPES = {"vit", "resnet", "convnext", "swin", "deit"}
# Which layer-count key a config uses (for tracing a deep model through two shallow copies).
LAYER_KEYS = ("num_hidden_layers", "n_layer")
# Where worker_boot.py says which descriptor is the messages' own channel.
EVENTS_FD = "GPUCONFIG_EVENTS_FD"


class TraceError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def emit(event: str, **fields: Any) -> None:
    CHANNEL.write(json.dumps({"event": event, **fields}) + "\n")
    CHANNEL.flush()


def current_rss_bytes() -> int:
    """Resident memory now (Linux /proc; elsewhere the peak so far, an upper bound)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return rss_bytes()


def warm_up() -> None:
    """One tiny real training step, so the kernels' libraries (BLAS, oneDNN, autograd) are loaded and their
    start-up memory counts in the runtime's baseline as it does in a real run."""
    import torch
    from torch import nn

    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.Linear(8 * 6 * 6, 16))
    optimizer = torch.optim.AdamW(model.parameters())
    x = torch.randn(2, 3, 8, 8)
    q = torch.randn(1, 2, 8, 16, requires_grad=True)
    loss = model(x).mean() + nn.functional.scaled_dot_product_attention(q, q, q).mean()
    loss.backward()
    optimizer.step()


def rss_bytes() -> int:
    """This process's peak resident memory so far (ru_maxrss is KiB on Linux, bytes on macOS; 0 on
    Windows, which has no getrusage)."""
    try:
        import resource
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


# -- models -------------------------------------------------------------------------------------------


@contextlib.contextmanager
def skipped_init() -> Iterator[None]:
    """Build without running weight initialisers: on fake tensors some of them read values (truncated
    normal checks its samples), and the values never matter for memory. Weight tying still happens."""
    import torch

    names = (
        "uniform_",
        "normal_",
        "trunc_normal_",
        "constant_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "uniform",
        "normal",
        "xavier_uniform",
        "xavier_normal",
        "kaiming_uniform",
        "kaiming_normal",
        "orthogonal_",
        "ones_",
        "zeros_",
        "eye_",
        "dirac_",
        "sparse_",
    )
    saved: list[tuple[Any, str, Any]] = []
    modules = [torch.nn.init] + [m for m in (sys.modules.get("transformers.initialization"),) if m is not None]
    for module in modules:
        for name in names:
            if hasattr(module, name):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, lambda tensor, *args, **kwargs: tensor)
    pretrained = None
    if "transformers" in sys.modules:
        from transformers import PreTrainedModel

        pretrained = PreTrainedModel.initialize_weights
        PreTrainedModel.initialize_weights = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        for module, name, function in saved:
            setattr(module, name, function)
        if pretrained is not None:
            from transformers import PreTrainedModel

            PreTrainedModel.initialize_weights = pretrained  # type: ignore[method-assign]


def hf_model(config_dict: dict[str, Any], task: str) -> tuple[Any, str]:
    """A transformers (or diffusers) model from a config dict, and its input family."""
    if config_dict.get("_class_name") == "UNet2DConditionModel":
        try:
            from diffusers import UNet2DConditionModel
        except ImportError as exc:
            raise TraceError("unsupported", "a diffusers UNet config needs the diffusers package") from exc
        unet_config = {k: v for k, v in config_dict.items() if not k.startswith("_")}
        return UNet2DConditionModel.from_config(unet_config), "unet"
    import transformers

    model_type = config_dict.get("model_type")
    if not model_type:
        raise TraceError("model", "config has no model_type")
    # The checkpoint's storage dtype ("torch_dtype": "bfloat16") would override the workload's precision:
    # the model is built in the default dtype build() sets.
    fields = {k: v for k, v in config_dict.items() if k not in ("model_type", "torch_dtype", "dtype")}
    try:
        config: Any = transformers.AutoConfig.for_model(model_type, **fields)
    except (ValueError, KeyError) as exc:
        raise TraceError("model", f"unknown model type {model_type!r}") from exc
    except Exception as exc:  # transformers' strict config check (huggingface_hub): a field of the wrong type
        raise TraceError("model", f"config for {model_type!r} has a wrong field: {' '.join(str(exc).split())}") from exc
    config.use_cache = task == "inference"
    try:
        if model_type in LLM_TYPES:
            return transformers.AutoModelForCausalLM.from_config(config), "causal"
        if model_type in ENCODER_TYPES:
            if task == "pretrain":
                return transformers.AutoModelForMaskedLM.from_config(config), "masked"
            config.num_labels = 2
            return transformers.AutoModelForSequenceClassification.from_config(config), "classify"
        if model_type in VISION_TYPES:
            return transformers.AutoModelForImageClassification.from_config(config), "image"
        if model_type == "whisper":
            return transformers.AutoModelForSpeechSeq2Seq.from_config(config), "speech"
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise TraceError("model", f"config for {model_type!r} is missing or has a wrong field: {exc}") from exc
    raise TraceError("unsupported", f"model type {model_type!r} has no training recipe here")


def user_model(path: str, batch: int, seq: int | None) -> tuple[Any, Any]:
    """A user file defines `model_and_inputs(batch, seq)` returning (nn.Module, example inputs)."""
    spec = importlib.util.spec_from_file_location("gpuconfig_user_model", path)
    if spec is None or spec.loader is None:
        raise TraceError("model", f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise TraceError("model", f"{path}: raised {type(exc).__name__}: {exc}") from exc
    build = getattr(module, "model_and_inputs", None)
    if build is None:
        raise TraceError("model", f"{path}: defines no model_and_inputs(batch, seq) function")
    try:
        model, inputs = build(batch, seq)
    except Exception as exc:
        raise TraceError("model", f"{path}: model_and_inputs raised {type(exc).__name__}: {exc}") from exc
    import torch

    if not isinstance(model, torch.nn.Module):
        raise TraceError("model", f"{path}: model_and_inputs returned {type(model).__name__}, not an nn.Module")
    return model, inputs


def example_batch(model: Any, family: str, batch: int, seq: int, task: str) -> dict[str, Any]:
    """Inputs with the right shapes; labels where the model computes its own loss."""
    import torch

    config = model.config
    if family in ("causal", "masked"):
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        return {"input_ids": ids} if task == "inference" else {"input_ids": ids, "labels": ids}
    if family == "classify":
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        labels = torch.randint(0, 2, (batch,))
        return {"input_ids": ids} if task == "inference" else {"input_ids": ids, "labels": labels}
    if family == "image":
        pixels = torch.randn(batch, config.num_channels, seq, seq)
        labels = torch.randint(0, config.num_labels, (batch,))
        return {"pixel_values": pixels} if task == "inference" else {"pixel_values": pixels, "labels": labels}
    if family == "speech":
        frames = 2 * config.max_source_positions  # Whisper's encoder takes 30 s of audio: 3000 mel frames
        features = torch.randn(batch, config.num_mel_bins, frames)
        tokens = torch.randint(0, config.vocab_size, (batch, seq))
        if task == "inference":
            return {"input_features": features, "decoder_input_ids": tokens}
        return {"input_features": features, "labels": tokens}
    if family == "unet":
        side = seq // 8  # the VAE's latent is an eighth of the image side
        return {
            "sample": torch.randn(batch, config.in_channels, side, side),
            "timestep": torch.randint(0, 1000, (batch,)),
            "encoder_hidden_states": torch.randn(batch, 77, config.cross_attention_dim),
        }
    raise TraceError("unsupported", f"no inputs for model family {family!r}")


def loss_of(output: Any) -> Any:
    """The scalar to backpropagate: the model's own loss, else the mean of its first output."""
    import torch

    loss = getattr(output, "loss", None)
    if loss is not None:
        return loss
    if isinstance(output, torch.Tensor):
        return output.float().mean()
    if isinstance(output, dict):
        output = next(iter(output.values()))
    elif hasattr(output, "to_tuple"):
        output = output.to_tuple()[0]
    elif isinstance(output, (tuple, list)):
        output = output[0]
    if isinstance(output, torch.Tensor):
        return output.float().mean()
    raise TraceError("model", "the model's output has no tensor to compute a loss from")


# -- LoRA and optimizers -------------------------------------------------------------------------------


def linear_layers(model: Any) -> list[tuple[Any, str, Any, int, int]]:
    """(parent, name, module, in_features, out_features) of every Linear inside the model's blocks: torch's
    nn.Linear and transformers' Conv1D (GPT-2's, weight stored transposed); the output head excepted."""
    from torch import nn

    heads = {id(m) for m in (getattr(model, "lm_head", None), getattr(model, "classifier", None)) if m is not None}
    found = []
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if id(child) in heads:
                continue
            if isinstance(child, nn.Linear):
                found.append((parent, name, child, child.in_features, child.out_features))
            elif type(child).__name__ == "Conv1D" and getattr(child, "weight", None) is not None:
                rows, cols = child.weight.shape
                found.append((parent, name, child, rows, cols))
    return found


def replace_linears(model: Any, wrapper: Any, what: str) -> int:
    """Put wrapper(layer, in_features, out_features) in place of every Linear of linear_layers()."""
    layers = linear_layers(model)
    if not layers:
        raise TraceError("unsupported", f"{what} found no Linear layer in this model")
    for parent, name, child, in_features, out_features in layers:
        setattr(parent, name, wrapper(child, in_features, out_features))
    return len(layers)


def add_lora(model: Any, rank: int) -> int:
    """Freeze the model and give every Linear inside its blocks a trainable rank-`rank` adapter (fp32)."""
    import torch
    from torch import nn

    class LoRALinear(nn.Module):
        def __init__(self, base: nn.Module, in_features: int, out_features: int) -> None:
            super().__init__()
            self.base = base
            self.lora_a = nn.Parameter(torch.zeros(rank, in_features, dtype=torch.float32))
            self.lora_b = nn.Parameter(torch.zeros(out_features, rank, dtype=torch.float32))
            self.scale = 2.0  # alpha = 2 * rank, the usual choice; it does not change memory

        def forward(self, x: Any) -> Any:
            delta = (x.to(self.lora_a.dtype) @ self.lora_a.t()) @ self.lora_b.t()
            return self.base(x) + (delta * self.scale).to(x.dtype)

    for parameter in model.parameters():
        parameter.requires_grad_(False)
    return replace_linears(model, LoRALinear, "LoRA")


def quantize_linears(model: Any, bits: int) -> int:
    """Store every Linear weight inside the model's blocks quantized, as bitsandbytes does.

    8 bits (LLM.int8, Linear8bitLt): an int8 weight and one fp32 scale per output row. 4 bits (NF4,
    Linear4bit, as QLoRA loads base weights): two weights per byte, one 8-bit absmax per block of 64 and
    one fp32 constant per 256 blocks (double quantization: 8/64 + 32/(64*256) = 0.127 bits per weight,
    Dettmers et al. 2023, arXiv 2305.14314, section 3). The forward pass dequantizes the weight into a
    temporary in the activations' dtype and multiplies by it. The output head keeps its dtype, as
    transformers' bitsandbytes integration leaves it unconverted.
    """
    import torch
    from torch import nn

    class QuantLinear(nn.Module):
        def __init__(self, base: nn.Module, in_features: int, out_features: int) -> None:
            super().__init__()
            self.in_features, self.out_features = in_features, out_features
            count = in_features * out_features
            frozen = {"requires_grad": False}
            if bits == 8:
                shape = (self.out_features, self.in_features)
                self.qweight = nn.Parameter(torch.empty(shape, dtype=torch.int8), **frozen)
                self.scales = nn.Parameter(torch.empty(self.out_features, dtype=torch.float32), **frozen)
            else:
                self.qweight = nn.Parameter(torch.empty(math.ceil(count / 2), dtype=torch.uint8), **frozen)
                blocks = math.ceil(count / 64)
                self.scales = nn.Parameter(torch.empty(blocks, dtype=torch.uint8), **frozen)
                self.scales2 = nn.Parameter(torch.empty(math.ceil(blocks / 256), dtype=torch.float32), **frozen)
            self.bias = base.bias

        def dequantized(self, dtype: Any, device: Any) -> Any:
            if bits == 8:
                return self.qweight.to(dtype)
            return torch.empty(self.out_features, self.in_features, dtype=dtype, device=device)

        def forward(self, x: Any) -> Any:
            out = QuantizedMatmul.apply(x, self)
            return out if self.bias is None else out + self.bias

    class QuantizedMatmul(torch.autograd.Function):
        """x @ W^T with W dequantized for the product only, in the forward pass and again in the backward
        one, as bitsandbytes' MatMul4Bit and MatMul8bitLt do: no full-width copy of a frozen weight is kept
        between the passes, and no gradient of it is computed."""

        @staticmethod
        def forward(ctx: Any, x: Any, layer: Any) -> Any:
            ctx.layer = layer
            return x @ layer.dequantized(x.dtype, x.device).t()

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad @ ctx.layer.dequantized(grad.dtype, grad.device), None

    return replace_linears(model, QuantLinear, "quantized weights")


def make_optimizer(name: str, parameters: list[Any], foreach: bool) -> Any:
    import torch

    if name == "sgd":
        return torch.optim.SGD(parameters, lr=1e-3, momentum=0.9, foreach=foreach)
    if name == "adamw":
        return torch.optim.AdamW(parameters, lr=1e-4, foreach=foreach)
    if name == "adafactor":
        from transformers.optimization import Adafactor

        return Adafactor(parameters, lr=1e-3, relative_step=False, scale_parameter=False, warmup_init=False)
    if name == "adamw8bit":
        return eight_bit_adamw(parameters)
    raise TraceError("input", f"unknown optimizer {name!r}")


def eight_bit_adamw(parameters: list[Any]) -> Any:
    """The memory of bitsandbytes' 8-bit AdamW: two uint8 states per parameter and one fp32 absmax per
    2,048-value block (its blockwise quantization), updated in place by a fused kernel with no
    parameter-sized temporaries. bitsandbytes itself cannot run on fake tensors. A torch Optimizer, so
    the memory tracker files its states as optimizer states."""
    import torch

    block = 2048

    class EightBitAdamW(torch.optim.Optimizer):
        def __init__(self, params: list[Any]) -> None:
            super().__init__([p for p in params if p.requires_grad], {"lr": 1e-4})

        @torch.no_grad()
        def step(self, closure: Any = None) -> Any:
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if not state:
                        blocks = math.ceil(p.numel() / block)
                        state["exp_avg"] = torch.zeros(p.shape, dtype=torch.uint8)
                        state["exp_avg_sq"] = torch.zeros(p.shape, dtype=torch.uint8)
                        state["absmax1"] = torch.zeros(blocks, dtype=torch.float32)
                        state["absmax2"] = torch.zeros(blocks, dtype=torch.float32)
                    p.add_(p.grad, alpha=-group["lr"])

    return EightBitAdamW(parameters)


# -- counting ------------------------------------------------------------------------------------------


def op_counter() -> Any:
    """A dispatch mode that adds up FLOPs per compute dtype and the bytes every other operator moves."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten
    from torch.utils.flop_counter import flop_registry

    unsafe_view = torch.ops.aten._unsafe_view.default  # a view in all but name: moves no bytes
    aten = torch.ops.aten
    convolutions = {aten.convolution, aten._convolution, aten.convolution_backward}

    class OpCounter(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.flops: dict[str, int] = {}
            self.conv_flops: dict[str, int] = {}
            self.matmul_bytes = 0
            self.other_bytes = 0

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if func.is_view or func is unsafe_view or func.namespace == "prim" or "sym_" in func.name():
                return out  # views and metadata queries (a tensor's device, sizes) move no bytes
            packet = func._overloadpacket
            tensors = [t for t in tree_flatten((args, kwargs, out))[0] if isinstance(t, torch.Tensor)]
            moved = sum(t.numel() * t.element_size() for t in tensors)
            if packet in flop_registry:
                flops = flop_registry[packet](*args, **kwargs, out_val=out)
                dtype = str(tensors[0].dtype).removeprefix("torch.") if tensors else "float32"
                self.flops[dtype] = self.flops.get(dtype, 0) + int(flops)
                if packet in convolutions:  # cuDNN convolutions reach a different share of peak than GEMMs
                    self.conv_flops[dtype] = self.conv_flops.get(dtype, 0) + int(flops)
                self.matmul_bytes += moved
            else:
                self.other_bytes += moved
            return out

    return OpCounter()


class MallocReplay:
    """The heap a real run grows, found by replaying the traced allocations through this system's malloc.

    PyTorch's CPU tensors come from malloc (64-byte aligned), and glibc keeps freed memory for reuse: how
    much depends on its dynamic mmap threshold (mallopt(3), M_MMAP_THRESHOLD), its bins and the order of
    every allocation and free, which no closed formula follows. So a copy of this process forked before
    any tensor existed (same libraries, same heap as a real run's start) receives each traced sequence of
    (allocate, size) and (free) and performs it with posix_memalign and free, without touching the memory,
    and reports the largest growth of glibc's own footprint (mallinfo2: heap arena plus mapped chunks).
    Each sequence is replayed in a fresh fork of that copy, so one never inherits another's heap.
    Linux with glibc 2.33 or later only; elsewhere `available` is False.
    """

    def __init__(self) -> None:
        self.available = False
        self.pid = 0
        if not sys.platform.startswith("linux") or not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        if not hasattr(libc, "mallinfo2"):
            return
        to_child, self._send = os.pipe()
        self._receive, from_child = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the copy: serve replays until the worker closes the pipe
            os.close(self._send)
            os.close(self._receive)
            code = 0
            try:
                self._serve(os.fdopen(to_child, "r"), os.fdopen(from_child, "w"))
            except BaseException:
                code = 1
            os._exit(code)
        os.close(to_child)
        os.close(from_child)
        self._requests = os.fdopen(self._send, "w")
        self._results = os.fdopen(self._receive, "r")
        self.available = True

    @staticmethod
    def _serve(requests: Any, results: Any) -> None:
        for path in requests:
            reader, writer = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(reader)
                peak = MallocReplay._replay(path.strip())
                os.write(writer, f"{peak}\n".encode())
                os._exit(0)
            os.close(writer)
            with os.fdopen(reader) as answer:
                line = answer.readline().strip()
            os.waitpid(pid, 0)
            results.write((line or "-1") + "\n")
            results.flush()

    @staticmethod
    def _replay(path: str) -> int:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")

        class MallInfo2(ctypes.Structure):
            _fields_ = [
                (name, ctypes.c_size_t)
                for name in (
                    *("arena", "ordblks", "smblks", "hblks", "hblkhd"),
                    *("usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"),
                )
            ]

        libc.mallinfo2.restype = MallInfo2
        libc.posix_memalign.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        with open(path, encoding="utf-8") as handle:
            events = json.load(handle)
        # Addresses live in a preallocated array, not a growing dict: the replay itself must not call malloc.
        slots = (ctypes.c_void_p * (max((slot for slot, _ in events), default=0) + 1))()
        pointer = ctypes.c_void_p()
        mallinfo2 = libc.mallinfo2
        info = mallinfo2()
        start = info.arena + info.hblkhd
        peak = 0
        for slot, size in events:
            if size < 0:
                if slots[slot]:
                    libc.free(slots[slot])
                    slots[slot] = None
                continue
            if libc.posix_memalign(ctypes.byref(pointer), 64, max(1, size)) != 0:
                return -1
            slots[slot] = pointer.value
            info = mallinfo2()
            peak = max(peak, info.arena + info.hblkhd - start)
        return peak

    def peak(self, events: list[tuple[int, int]]) -> int | None:
        """Largest heap growth for (key, size) allocations and (key, -1) frees; None if unavailable."""
        if not self.available:
            return None
        import tempfile

        slots: dict[int, int] = {}
        free_slots: list[int] = []
        numbered = []
        for key, size in events:  # each live storage gets a slot; a freed slot is reused
            if size < 0:
                if key in slots:
                    slot = slots.pop(key)
                    free_slots.append(slot)
                    numbered.append((slot, -1))
                continue
            slot = free_slots.pop() if free_slots else len(slots) + len(free_slots)
            slots[key] = slot
            numbered.append((slot, size))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
            json.dump(numbered, handle)
        try:
            self._requests.write(handle.name + "\n")
            self._requests.flush()
            answer = int(self._results.readline().strip() or -1)
        except (OSError, ValueError):
            answer = -1
        finally:
            os.unlink(handle.name)
        return answer if answer >= 0 else None


@contextlib.contextmanager
def cuda_attention(device: str | None) -> Iterator[None]:
    """Attention as a CUDA run executes it, though the trace runs on fake CPU tensors.

    On the CPU, scaled_dot_product_attention falls back to its math path (the full length x length score
    matrix, its softmax and its dropout mask, all kept for backward) whenever dropout is on, as it is in
    GPT-2's and BERT's training. On a GPU the fused memory-efficient kernel takes dropout, any additive
    mask and fp32, and keeps only a log-sum-exp per query (PyTorch's sdp_utils.cpp: flash attention needs
    fp16/bf16 and no mask, the memory-efficient kernel has neither limit). A boolean mask is turned into
    an additive bias first, as PyTorch's convert_boolean_attn_mask does; grouped key/value heads are
    repeated to the query heads. Only for the cuda device: a CPU run really does take the math path.
    """
    if device != "cuda":
        yield
        return
    import torch
    from torch.nn import functional

    original = functional.scaled_dot_product_attention

    def fused(
        query: Any,
        key: Any,
        value: Any,
        attn_mask: Any = None,
        dropout_p: float = 0.0,
        is_causal: bool = False,
        scale: float | None = None,
        enable_gqa: bool = False,
    ) -> Any:
        if query.dim() != 4:
            return original(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
        if enable_gqa and key.shape[-3] != query.shape[-3]:
            groups = query.shape[-3] // key.shape[-3]
            key = key.repeat_interleave(groups, dim=-3)
            value = value.repeat_interleave(groups, dim=-3)
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            attn_mask = torch.zeros_like(attn_mask, dtype=query.dtype).masked_fill_(attn_mask.logical_not(), -math.inf)
        if attn_mask is not None:
            attn_mask = attn_mask.expand(query.shape[0], query.shape[1], query.shape[2], key.shape[2])
        compute_lse = torch.is_grad_enabled() and any(t.requires_grad for t in (query, key, value))
        output, *_ = torch.ops.aten._scaled_dot_product_efficient_attention(
            query, key, value, attn_mask, compute_lse, dropout_p, is_causal, scale=scale
        )
        return output

    functional.scaled_dot_product_attention = fused
    try:
        yield
    finally:
        functional.scaled_dot_product_attention = original


@contextlib.contextmanager
def frozen_parameters_tolerated() -> Iterator[None]:
    """MemTracker hooks every parameter's gradient; a frozen one (LoRA's base weights) has none to hook."""
    import torch

    class NoHandle:
        def remove(self) -> None:
            pass

    originals = {name: getattr(torch.Tensor, name) for name in ("register_hook", "register_post_accumulate_grad_hook")}

    def tolerant(name: str) -> Any:
        def register(tensor: Any, hook: Any) -> Any:
            if not tensor.requires_grad:
                return NoHandle()
            return originals[name](tensor, hook)

        return register

    for name in originals:
        setattr(torch.Tensor, name, tolerant(name))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(torch.Tensor, name, function)


def recording_tracker() -> Any:
    """PyTorch's MemTracker, also replaying every storage allocation and free into a GlibcHeap."""
    from torch.distributed._tools.mem_tracker import MemTracker, _UpdateType

    class RecordingTracker(MemTracker):
        def __init__(self) -> None:
            super().__init__()
            self.events: list[tuple[int, int]] = []  # (storage, bytes) allocated, (storage, -1) freed

        def _update_snap(self, u_type: Any, winfo: Any, old_mem_consumed: Any = None, old_reftype: Any = None) -> None:
            super()._update_snap(u_type, winfo, old_mem_consumed, old_reftype)
            if u_type in (_UpdateType.DEL, _UpdateType.SIZE):
                self.events.append((id(winfo), -1))
            if u_type in (_UpdateType.ADD, _UpdateType.SIZE):
                self.events.append((id(winfo), winfo.size * winfo.element_size))

    return RecordingTracker()


CATEGORY_NAMES = {
    "PARAM": "weights",
    "BUFFER": "buffers",
    "GRAD": "gradients",
    "OPT": "optimizer",
    "ACT": "activations",
    "TEMP": "temporaries",
    "OTH": "inputs",
}


def snapshot(tracker: Any, kind: str) -> dict[str, int]:
    return categories(tracker.get_tracker_snapshot(kind))


def phase_snapshots(tracker: Any, model: Any) -> dict[str, dict[str, int]]:
    """The breakdown at the peak of the forward and of the backward pass of the model's last step."""
    from torch.distributed._tools.mem_tracker import _ModState

    stats = tracker.memory_tracking.get(model)
    phases: dict[str, dict[str, int]] = {}
    if stats is None:
        return phases
    for state, name in ((_ModState.PEAK_FW, "forward"), (_ModState.PEAK_BW, "backward")):
        taken = stats.snapshots.get(state)
        if taken:
            phases[name] = categories(taken[-1])
    return phases


def categories(per_device: dict[Any, dict[Any, int]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for categories in per_device.values():
        for key, value in categories.items():
            name = CATEGORY_NAMES.get(getattr(key, "name", str(key)), "")
            if name:
                totals[name] = totals.get(name, 0) + int(value)
    return totals


def cache_bytes(output: Any) -> int:
    """Bytes held by a transformers KV cache (any Cache class or legacy tuples)."""
    import torch

    cache = getattr(output, "past_key_values", None)
    if cache is None:
        return 0
    seen: set[int] = set()
    total = 0
    stack = [cache]
    while stack:
        item = stack.pop()
        if isinstance(item, torch.Tensor):
            if id(item) not in seen:
                seen.add(id(item))
                total += item.numel() * item.element_size()
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif hasattr(item, "layers"):
            for layer in item.layers:
                stack.extend(t for t in (getattr(layer, "keys", None), getattr(layer, "values", None)) if t is not None)
        elif hasattr(item, "key_cache"):
            stack.extend(item.key_cache)
            stack.extend(item.value_cache)
    return total


# -- one trace point -----------------------------------------------------------------------------------


def autocast_for(precision: str) -> Any:
    import torch

    if precision in ("amp_fp16",):
        return torch.autocast("cpu", dtype=torch.float16)
    if precision in ("amp_bf16", "fp8"):
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def weight_dtype(request: dict[str, Any]) -> Any:
    """The dtype the model's weights are built in: half precision when the weights themselves are."""
    import torch

    precision, task = request["precision"], request["task"]
    if task == "qlora" and precision != "fp32":  # base weights are loaded in the compute dtype, then quantized
        return torch.bfloat16
    if precision == "bf16" or (task == "inference" and precision in ("amp_bf16", "fp8", "int8", "int4")):
        return torch.bfloat16
    if task == "inference" and precision == "amp_fp16":
        return torch.float16
    return torch.float32


def build(request: dict[str, Any], batch: int, seq: int, layers: int | None) -> tuple[Any, Any, str]:
    """The model and its inputs for one point, built inside the active fake mode (or for real)."""
    import torch

    source = request["model"]
    task = request["task"]
    dtype = weight_dtype(request)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # built in its dtype: converting fake modules afterwards is not supported
    try:
        if source["kind"] == "python":
            model, inputs = user_model(source["path"], batch, seq)
            family = "python"
        else:
            config = dict(source["config"])
            if layers is not None:
                config[layer_key(config)] = layers
                if isinstance(config.get("layer_types"), list):
                    config["layer_types"] = config["layer_types"][:layers]
            model, family = hf_model(config, task)
            inputs = example_batch(model, family, batch, seq, task)
    finally:
        torch.set_default_dtype(previous)
    if dtype != torch.float32:
        inputs = {k: v.to(dtype) if v.is_floating_point() else v for k, v in dict_inputs(inputs).items()}
    return model, inputs, family


def dict_inputs(inputs: Any) -> dict[str, Any]:
    if isinstance(inputs, dict):
        return inputs
    if isinstance(inputs, (tuple, list)):
        return {str(i): v for i, v in enumerate(inputs)}
    return {"0": inputs}


def input_bytes(inputs: Any) -> int:
    """Bytes of the tensors one micro-batch feeds the model: what a training loop copies to the device."""
    import torch

    if isinstance(inputs, torch.Tensor):
        return inputs.numel() * inputs.element_size()
    if isinstance(inputs, dict):
        return sum(input_bytes(v) for v in inputs.values())
    if isinstance(inputs, (tuple, list)):
        return sum(input_bytes(v) for v in inputs)
    return 0


def call(model: Any, inputs: Any) -> Any:
    if isinstance(inputs, dict) and all(k.isdigit() for k in inputs):
        return model(*inputs.values())
    if isinstance(inputs, dict):
        return model(**inputs)
    if isinstance(inputs, (tuple, list)):
        return model(*inputs)
    return model(inputs)


def layer_key(config: dict[str, Any]) -> str:
    for key in LAYER_KEYS:
        if key in config:
            return key
    raise TraceError("unsupported", "this config has no layer count to extrapolate over")


def prepare(model: Any, request: dict[str, Any], foreach: bool) -> Any:
    """Adapters, checkpointing and the optimizer for training; eval mode for inference."""
    task = request["task"]
    bits = {"int8": 8, "int4": 4}.get(request["precision"])
    if task == "inference":
        if bits:
            quantize_linears(model, bits)
        model.eval()
        return None
    if task in ("lora", "qlora"):
        add_lora(model, int(request.get("lora_rank", 16)))
    if task == "qlora":
        quantize_linears(model, bits or 4)  # the adapters' frozen base layers; NF4 unless int8 is chosen
    if request.get("checkpointing"):
        if not hasattr(model, "gradient_checkpointing_enable"):
            raise TraceError("unsupported", "activation checkpointing needs a Hugging Face model")
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    return make_optimizer(request["optimizer"], [p for p in model.parameters() if p.requires_grad], foreach)


def one_step(model: Any, inputs: Any, optimizer: Any, request: dict[str, Any]) -> int:
    """One training step as a training loop runs it (outputs released before backward), or one forward
    pass for inference; returns the bytes of the KV cache that forward built."""
    import torch

    if optimizer is None:
        with torch.no_grad():
            output = call(model, inputs)
            kv = cache_bytes(output)
            del output
        return kv
    with autocast_for(request["precision"]):
        output = call(model, inputs)
        loss = loss_of(output)
    del output
    loss.backward()
    del loss
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return 0


def trace_point(
    request: dict[str, Any], batch: int, seq: int, layers: int | None = None, replay: MallocReplay | None = None
) -> dict[str, Any]:
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    task = request["task"]
    training = task != "inference"
    foreach = request.get("device") == "cuda"  # PyTorch's default optimizer implementation on each device
    with FakeTensorMode(allow_non_fake_inputs=True):
        torch.manual_seed(0)
        with skipped_init():
            model, inputs, family = build(request, batch, seq, layers)
        params = {id(p): p for p in model.parameters()}
        total_params = sum(p.numel() for p in params.values())
        optimizer = prepare(model, request, foreach)
        trainable = [p for p in model.parameters() if p.requires_grad] if training else []
        unique_trainable = {id(p): p for p in trainable}.values()
        trainable_params = sum(p.numel() for p in unique_trainable)
        grad_bytes = sum(p.numel() * p.element_size() for p in unique_trainable)
        tracker = recording_tracker()
        counter = op_counter()
        kv = 0
        with frozen_parameters_tolerated(), cuda_attention(request.get("device")), tracker:
            tracker.track_external(model, *([optimizer] if isinstance(optimizer, torch.optim.Optimizer) else []))
            steps = 2 if training else 1
            for step in range(steps):
                if step == steps - 1:
                    tracker.reset_mod_stats()
                    tracker._peak_mem.clear()  # the peak of the last (steady-state) step only
                    tracker._peak_mem_snap.clear()
                counting = counter if step == steps - 1 else contextlib.nullcontext()
                with counting:
                    kv = one_step(model, inputs, optimizer, request)
            peak = snapshot(tracker, "peak")
            phases = phase_snapshots(tracker, model)
    return {
        "batch": batch,
        "seq": seq,
        "layers": layers,
        "family": family,
        "memory": peak,
        "phases": phases,
        "kv_cache_bytes": kv,
        "cpu_heap_peak_bytes": replay.peak(tracker.events) if replay is not None else None,
        "params": total_params,
        "trainable_params": trainable_params,
        "grad_bytes": grad_bytes,
        "input_bytes": input_bytes(inputs),
        "flops_by_dtype": counter.flops,
        "conv_flops_by_dtype": counter.conv_flops,
        "flops": sum(counter.flops.values()),
        "matmul_bytes": counter.matmul_bytes,
        "other_bytes": counter.other_bytes,
    }


def measure_point(request: dict[str, Any], batch: int, seq: int) -> dict[str, Any]:
    """Run the same steps for real on the CPU: what the traced estimate is checked against."""
    import torch

    training = request["task"] != "inference"
    torch.manual_seed(0)
    started = time.perf_counter()
    model, inputs, _ = build(request, batch, seq, None)
    optimizer = prepare(model, request, foreach=False)
    built = time.perf_counter()
    step_seconds = []
    for _ in range(2 if training else 1):
        step_started = time.perf_counter()
        one_step(model, inputs, optimizer, request)
        step_seconds.append(time.perf_counter() - step_started)
    return {
        "batch": batch,
        "seq": seq,
        "peak_rss_bytes": rss_bytes(),
        "build_seconds": built - started,
        "step_seconds": step_seconds,
    }


def main() -> int:
    try:
        request = json.loads(sys.stdin.read())
        import torch

        if request["model"]["kind"] == "hf_config":
            import transformers  # noqa: F401  (its import is part of the runtime a real run pays for)
        points = request["points"]
        if request.get("measure"):  # one real run per process: peak resident memory is per process
            batch, seq, _ = points[0]
            emit("runtime", torch=torch.__version__, baseline_rss_bytes=rss_bytes())
            emit("measured", **measure_point(request, batch, seq))
            return 0
        # Forked now, before any tensor exists: the heap a real run starts from.
        replay = MallocReplay() if request.get("device") == "cpu" and hasattr(os, "fork") else None
        for done, (batch, seq, layers) in enumerate(points):
            emit("progress", done=done, total=len(points), what=f"batch {batch}, length {seq}")
            started = time.perf_counter()
            result = trace_point(request, batch, seq, layers, replay)
            emit("point", seconds=round(time.perf_counter() - started, 3), **result)
            if done == 0:
                # The runtime a real run pays before its first tensor: the interpreter, torch, the model's
                # modules (imported by the first build) and the kernels' libraries.
                warm_up()
                emit(
                    "runtime",
                    torch=torch.__version__,
                    baseline_rss_bytes=current_rss_bytes(),
                    threads=torch.get_num_threads(),
                )
        emit("progress", done=len(points), total=len(points), what="done")
        return 0
    except TraceError as exc:
        emit("error", kind=exc.kind, message=str(exc))
        return 2
    except Exception as exc:  # a model that fails under tracing: say what, keep the details for a bug report
        emit(
            "error",
            kind="internal",
            message=f"{type(exc).__name__}: {exc}".splitlines()[0][:500],
            detail=traceback.format_exc()[-4000:],
        )
        return 1


if __name__ == "__main__":
    CHANNEL = os.fdopen(int(os.environ.pop(EVENTS_FD)), "w", encoding="utf-8")
    sys.exit(main())
