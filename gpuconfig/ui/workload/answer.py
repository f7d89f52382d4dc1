"""One answer shown: the verdict, the memory bar, the per-GPU breakdown with its sources, the time per
step, and the memory-by-batch chart."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPalette, QPixmap
from PySide6.QtWidgets import QHeaderView, QLabel, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.accuracy import band, band_text
from gpuconfig.core.workload.answer import Answer, answer_from_fit
from gpuconfig.core.workload.depth import phase_name
from gpuconfig.core.workload.estimate import Timing
from gpuconfig.core.workload.fit import Verdict
from gpuconfig.ui.theme import MEMORY_COLORS, Colors, mark, tint
from gpuconfig.ui.widgets.memory_bar import CATEGORIES, MemoryBar
from gpuconfig.ui.workload.batch_chart import SEARCH_LIMIT, BatchChart, batch_range, largest_fitting
from gpuconfig.ui.workload.techniques import format_seconds


class AnswerView(QWidget):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.answer: Answer | None = None
        self.stale = False  # the answer shown is for an older workload
        self._verdict = ("", "")  # the verdict's text and colour as last answered
        self._swatches: dict[str, QIcon] = {}
        self.verdict = QLabel(self.tr("Choose a preset or describe a workload."))
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        font = self.verdict.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setWeight(QFont.Weight.DemiBold)
        self.verdict.setFont(font)
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        mark(self.summary, "muted")
        self.accuracy = QLabel()
        self.accuracy.setObjectName("accuracy")
        self.accuracy.setWordWrap(True)
        mark(self.accuracy, "muted")
        self.bar = MemoryBar(colors)
        self.bar.setObjectName("memory_bar")

        self.breakdown = QTreeWidget()
        self.breakdown.setObjectName("breakdown")
        self.breakdown.setHeaderLabels([self.tr("Per GPU"), self.tr("Memory"), self.tr("Share"), self.tr("Source")])
        self.breakdown.setRootIsDecorated(True)
        self.breakdown.setUniformRowHeights(True)
        self.breakdown.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.breakdown.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.breakdown.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 210)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.timing = QLabel()
        self.timing.setObjectName("timing")
        self.timing.setWordWrap(True)
        self.timing.setTextFormat(Qt.TextFormat.PlainText)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.breakdown, 1)
        left_layout.addWidget(self.timing)
        self.chart = BatchChart(colors)
        self.chart.setObjectName("batch_chart_panel")
        middle = QSplitter(Qt.Orientation.Horizontal)
        middle.addWidget(left)
        middle.addWidget(self.chart)
        middle.setStretchFactor(0, 1)
        middle.setStretchFactor(1, 1)
        middle.setSizes([560, 400])
        middle.setChildrenCollapsible(False)
        self.chart.setMinimumWidth(300)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.verdict)
        layout.addWidget(self.summary)
        layout.addWidget(self.accuracy)
        layout.addSpacing(4)
        layout.addWidget(self.bar)
        layout.addWidget(middle, 1)

    def show_answer(self, answer: Answer) -> None:
        self.answer = answer
        self.stale = False
        per = self.tr("Per GPU") if answer.estimate.workload.device == "cuda" else self.tr("Per device")
        self.breakdown.headerItem().setText(0, per)
        self._show_verdict(answer)
        self._show_breakdown(answer)
        self._show_chart(answer)

    def show_stale(self) -> None:
        """What is shown answers an older workload (a new one is being traced, or the form has an error):
        the verdict says so, muted, until the next answer."""
        if self.answer is not None:
            self.stale = True
            self._render_verdict()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.bar.apply_colors(colors)
        self.chart.apply_colors(colors)
        if self.answer is not None:
            self._show_verdict(self.answer)
            self._show_breakdown(self.answer)

    def usable_text(self, verdict: Verdict) -> str:
        """'10.68 GiB usable (12.00 GiB less 11 % headroom)'."""
        return self.tr("{usable} usable ({memory} less {headroom} headroom)").format(
            usable=format_bytes(verdict.usable),
            memory=format_bytes(verdict.memory),
            headroom=verdict.headroom.percent.replace(" ", "\N{NO-BREAK SPACE}"),  # '11 %' on one line
        )

    def _verdict_line(self, answer: Answer) -> tuple[str, str]:
        """The verdict in words and its colour: core/workload/fit.py's judgement with the answer's headroom."""
        memory = answer.estimate.memory
        per_gpu = self.tr(" per GPU") if answer.estimate.workload.gpus > 1 else ""
        gpu, verdict = answer.gpu, answer.verdict
        if gpu is None or verdict is None:
            text = self.tr("Runs on the CPU: {peak} of system memory at the peak")
            return text.format(peak=format_bytes(memory.peak)), self.colors.text
        words = {
            "gpu": gpu.name,
            "peak": format_bytes(memory.peak),
            "per_gpu": per_gpu,
            "usable": self.usable_text(verdict),
        }
        if verdict.fits:
            return self.tr("Fits on {gpu}: {peak}{per_gpu} of {usable}").format(**words), self.colors.success
        if verdict.tight:
            text = self.tr("Fits on {gpu} only by using the headroom: needs {peak}{per_gpu}, {usable}")
            return text.format(**words), self.colors.warning
        return self.tr("Does not fit on {gpu}: needs {peak}{per_gpu}, {usable}").format(**words), self.colors.error

    def _render_verdict(self) -> None:
        text, color = self._verdict
        if self.stale:
            text, color = self.tr("For the previous workload — {verdict}").format(verdict=text), self.colors.muted
        self.verdict.setText(text)
        tint(self.verdict, color)

    def _show_verdict(self, answer: Answer) -> None:
        estimate = answer.estimate
        memory = estimate.memory
        verdict = answer.verdict
        self._verdict = self._verdict_line(answer)
        self._render_verdict()
        self.verdict.setToolTip(
            self.tr(
                "Judged with {headroom} of the card's memory kept free for what the estimate does not see (other "
                "programs on the card, fragmentation, the estimate's own error): {why}. Change it in File → Fit "
                "headroom…"
            ).format(headroom=verdict.headroom.percent, why=verdict.headroom.why)
            if verdict is not None
            else ""
        )
        trainable = (
            self.tr(" ({n:,} trainable)").format(n=estimate.trainable_params)
            if estimate.workload.training and estimate.trainable_params != estimate.params
            else ""
        )
        attention = answer.attention
        caveat = self.tr(" — {note}").format(note=attention.note) if attention.note else ""
        self.summary.setText(
            self.tr(
                "{model}: {params:,} parameters{trainable} · length {seq:,} · {method} · attention {attention}"
            ).format(
                model=estimate.model_name,
                params=estimate.params,
                trainable=trainable,
                seq=estimate.seq,
                method=estimate.method,
                attention=attention.implementation,
            )
            + caveat
        )
        self.summary.setToolTip(
            self.tr("Attention: {implementation}, {why}").format(
                implementation=attention.implementation, why=attention.chosen_by
            )
        )
        self._show_accuracy(estimate.workload.device, estimate.extrapolated)
        limit = verdict.usable if verdict is not None else None
        self.bar.set_memory(memory, limit, self._limit_label(answer))
        self._show_timing(answer)

    def _limit_label(self, answer: Answer) -> str:
        """What the bar's and the chart's limit line is: the card's usable memory, the headroom kept."""
        verdict = answer.verdict
        if answer.gpu is None or verdict is None:
            return ""
        return self.tr("{gpu}: {usable} usable of {memory}").format(
            gpu=answer.gpu.name, usable=format_bytes(verdict.usable), memory=format_bytes(verdict.memory)
        )

    def _show_accuracy(self, device: str, extrapolated: str = "") -> None:
        if extrapolated:  # beyond the traced shapes: the band was measured at traced ones only
            self.accuracy.setText(
                self.tr("Expected error of the peak: none measured here: {why}").format(why=extrapolated)
            )
            self.accuracy.setToolTip(extrapolated)
            return
        measured = band(device)
        if measured is None:
            text = self.tr("Expected error of the peak: no measured band for GPUs yet")
            if device == "cpu":
                text = self.tr("Expected error of the peak: {why}").format(why=band_text("cpu"))
            self.accuracy.setText(text)
            self.accuracy.setToolTip("")
            return
        self.accuracy.setText(
            self.tr(
                "Expected error of the peak: ±{median:.1f} % (held-out median), worst {worst:+.0f} %, "
                "from {benchmark} over {cases} cases"
            ).format(
                median=100 * measured.median_abs_error,
                worst=100 * measured.worst_error,
                benchmark=measured.benchmark,
                cases=measured.cases,
            )
        )
        how = (
            self.tr(
                "Each case's estimate against the memory PyTorch's caching allocator reserved in a real run "
                "(torch.cuda.max_memory_reserved, which leaves out the CUDA context); nothing in the estimate is "
                "fitted on these runs; measured {date} on {machine}"
            )
            if device == "cuda"
            else self.tr(
                "Each case's estimate against the peak memory of a real run, with what the estimate fits taken "
                "from other model families only; measured {date} on {machine}"
            )
        )
        self.accuracy.setToolTip(how.format(date=measured.measured, machine=measured.machine))

    def _show_timing(self, answer: Answer) -> None:
        timing = answer.timing
        if timing is None:
            note = answer.time_note or self.tr("time is estimated for a GPU only")
            self.timing.setText(self.tr("Time per step: not estimated — {why}").format(why=note))
            self.timing.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            return
        if timing.generation is not None:
            self._show_generation(timing)
            return
        tokens = (
            self.tr(" · {n:,.0f} tokens/s").format(n=timing.tokens_per_s) if timing.tokens_per_s is not None else ""
        )
        matmuls, convolutions, others, by_bytes = timing.priced()
        parts = [
            (self.tr("matmuls"), matmuls),
            (self.tr("convolutions"), convolutions),
            (self.tr("other operators"), others),
        ]
        split = ", ".join(f"{name} {format_seconds(t)}" for name, t in parts if t > 0)
        if by_bytes > 0:
            split += self.tr(" ({share:.0%} of the matmuls' and convolutions' time set by their bytes)").format(
                share=by_bytes / max(matmuls + convolutions, 1e-30)
            )
        if timing.communication_seconds > 0:
            split += self.tr("; waits {wait} per step on the GPUs' collectives over {link}").format(
                wait=format_seconds(timing.communication_seconds), link=timing.link
            )
        if timing.bound == "kernel launches":
            split = self.tr(
                "bound by kernel launches: {kernels:,.0f} kernels take {launch}; the GPU's work: {split}"
            ).format(kernels=timing.kernels, launch=format_seconds(timing.launch_seconds), split=split)
        measured = answer.gpu is not None and answer.gpu.measured
        if timing.torch_compile:
            basis = self.tr("torch.compile at this machine's measured rates") if measured else self.tr("torch.compile")
        else:
            basis = self.tr("eager PyTorch at this machine's measured rates") if measured else self.tr("eager PyTorch")
        self.timing.setText(
            self.tr("Time per step: {step} · {samples:,.1f} samples/s{tokens} ({split}; {basis})").format(
                step=format_seconds(timing.step_seconds),
                samples=timing.samples_per_s,
                tokens=tokens,
                split=split,
                basis=basis,
            )
        )
        efficiency = timing.efficiency
        tip = self.tr(
            "Matmuls at {compute:.0%} and convolutions at {conv:.0%} of the dense rate, other operators at "
            "{memory:.0%} of the bandwidth; each class of matmuls of like arithmetic intensity takes the longer "
            "of its FLOPs and its bytes (the roofline): {source}."
        ).format(compute=efficiency.compute, conv=efficiency.conv, memory=efficiency.memory, source=efficiency.source)
        if timing.matmul_basis:
            tip += " " + timing.matmul_basis + "."
        if timing.torch_compile:
            tip += " " + self.tr(
                "Under torch.compile the operators between two matrix products are fused: they move the bytes of "
                "{fused} at the full bandwidth where eager PyTorch moves {eager}, in {kernels:,.0f} kernels instead "
                "of {eager_kernels:,.0f}, counted as TorchInductor fuses them (its own count of the same step is "
                "higher for most models). The optimizer step stays eager."
            ).format(
                fused=format_seconds(timing.memory_seconds),
                eager=format_seconds(timing.eager_memory_seconds),
                kernels=timing.kernels,
                eager_kernels=timing.eager_kernels,
            )
        cycles = efficiency.batch_norm_cycles_per_element
        if cycles and timing.batch_norm_sm_seconds:
            tip += " " + self.tr(
                "Batch normalization over channels-first tensors takes {cycles:.2f} multiprocessor cycles per element "
                "where that is slower than the bandwidth (PyTorch reduces each channel in one block of threads); "
                "channels-last does not."
            ).format(cycles=cycles)
        if timing.batch_norm_unpaced:
            tip += " " + timing.batch_norm_unpaced
        self.timing.setToolTip(tip)
        self.timing.setForegroundRole(QPalette.ColorRole.WindowText)

    def _show_generation(self, timing: Timing) -> None:
        g = timing.generation
        assert g is not None
        bound = {
            "memory bandwidth": self.tr("memory bandwidth"),
            "compute": self.tr("compute"),
            "kernel launches": self.tr("kernel launches"),
        }.get(g.bound, g.bound)
        text = (
            self.tr(
                "First token after {first} · then {rate:,.1f} tokens/s per sequence, {total:,.1f} in total "
                "(a decode step {step}, bound by {bound}; torch.compile) · whole request {whole}"
            )
            if timing.torch_compile
            else self.tr(
                "First token after {first} · then {rate:,.1f} tokens/s per sequence, {total:,.1f} in total "
                "(a decode step {step}, bound by {bound}; eager PyTorch) · whole request {whole}"
            )
        )
        text = text.format(
            first=format_seconds(g.prefill_seconds),
            rate=g.tokens_per_s_per_sequence,
            total=g.tokens_per_s_total,
            step=format_seconds(g.first_step_seconds),
            bound=bound,
            whole=format_seconds(timing.step_seconds),
        )
        if g.engine == "eager":  # eager generations were timed for real: their error, not the engines' it was fitted on
            text += self.tr(" · expected error of a decode step: {band}").format(band=band_text("cuda_decode"))
        self.timing.setText(text)
        tip = (
            self.tr(
                "Each decode step reads every weight once for the batch and the KV cache so far at {share:.0%} of "
                "the memory bandwidth, and torch.compile's default mode launches each of its {kernels:,.0f} fused "
                "kernels ({launch:.0f} µs each): {source}. With CUDA graphs (torch.compile's reduce-overhead): "
                "{compiled:,.1f} tokens/s per sequence."
            )
            if timing.torch_compile
            else self.tr(
                "Each decode step reads every weight once for the batch and the KV cache so far at {share:.0%} of "
                "the memory bandwidth, and eager PyTorch launches each of its {kernels:,.0f} kernels "
                "({launch:.0f} µs each): {source}. Compiled with CUDA graphs (torch.compile's reduce-overhead): "
                "{compiled:,.1f} tokens/s per sequence."
            )
        )
        self.timing.setToolTip(
            tip.format(
                share=g.efficiency.bandwidth,
                kernels=g.kernels,
                launch=g.efficiency.launch_seconds * 1e6,
                source=g.efficiency.source,
                compiled=g.compiled_tokens_per_s_per_sequence,
            )
        )
        self.timing.setForegroundRole(QPalette.ColorRole.WindowText)

    def _show_breakdown(self, answer: Answer) -> None:
        estimate = answer.estimate
        memory = estimate.memory
        names = self.bar.names
        divided = (
            self.tr(", divided over {n} GPUs ({strategy})").format(n=estimate.workload.gpus, strategy=memory.divided_by)
            if memory.divided_by
            else ""
        )
        how = {
            "weights": estimate.method + divided,
            "gradients": estimate.method + divided,
            "optimizer": estimate.method + divided,
            "activations": self.tr(
                "fitted to the traced points: grows with batch and length, at the {phase} phase"
            ).format(phase=phase_name(memory.phase)),
            "kv_cache": self.tr("per token from the trace, times prompt + generated tokens"),
            "overhead": self.tr("what the device adds; each line says where its figure comes from"),
        }
        self.breakdown.clear()
        peak = memory.peak or 1
        for key in CATEGORIES:
            size = int(getattr(memory, key))
            if size == 0 and key in ("gradients", "optimizer", "kv_cache"):
                continue
            item = QTreeWidgetItem([names[key], format_bytes(size), f"{size / peak:.0%}", how[key]])
            item.setIcon(0, self._swatch(MEMORY_COLORS[key]))
            item.setToolTip(3, how[key])
            self._align(item)
            self.breakdown.addTopLevelItem(item)
            if key == "overhead":
                for overhead in memory.overheads:
                    child = QTreeWidgetItem(
                        [overhead.name, format_bytes(overhead.bytes), f"{overhead.bytes / peak:.0%}", overhead.source]
                    )
                    child.setToolTip(0, overhead.name)
                    child.setToolTip(3, overhead.source)
                    child.setForeground(3, QColor(self.colors.muted))
                    self._align(child)
                    item.addChild(child)
                item.setExpanded(True)
        total = QTreeWidgetItem([self.tr("Peak"), format_bytes(memory.peak), "100%", ""])
        bold = QFont(self.breakdown.font())
        bold.setWeight(QFont.Weight.DemiBold)
        for column in range(3):
            total.setFont(column, bold)
        self._align(total)
        self.breakdown.addTopLevelItem(total)

    def _swatch(self, color: str) -> QIcon:
        if color not in self._swatches:
            size = self.fontMetrics().ascent() - 2
            pixmap = QPixmap(size, size)
            pixmap.fill(QColor(color))
            self._swatches[color] = QIcon(pixmap)
        return self._swatches[color]

    def _align(self, item: QTreeWidgetItem) -> None:
        for column in (1, 2):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def _show_chart(self, answer: Answer) -> None:
        workload = answer.estimate.workload
        gpu = answer.gpu

        def peak_at(batch: int) -> int:
            changed = workload.with_changes(batch=batch)
            return answer_from_fit(answer.source, answer.fitted, changed, gpu).estimate.memory.peak

        verdict = answer.verdict
        largest = largest_fitting(peak_at, verdict.usable) if verdict is not None else None
        batches = batch_range(workload.batch, largest)
        peaks = np.array([peak_at(int(b)) for b in batches], dtype=np.float64)
        if gpu is None or verdict is None or largest is None:
            note = ""
        elif largest == 0:
            note = self.tr("Not even a micro-batch of 1 fits on {gpu}.").format(gpu=gpu.name)
        elif largest >= SEARCH_LIMIT:
            note = self.tr("Any micro-batch up to {n:,} fits.").format(n=largest)
        elif not answer.fitted.covers(largest, answer.estimate.seq):
            note = self.tr(
                "Largest micro-batch that fits: about {n:,} (at length {seq:,}), extended past the traced batches: "
                "set the batch to it to trace there."
            ).format(n=largest, seq=answer.estimate.seq)
        else:
            note = self.tr("Largest micro-batch that fits: {n:,} (at length {seq:,}).").format(
                n=largest, seq=answer.estimate.seq
            )
        self.chart.show_curve(
            batches,
            peaks,
            verdict.usable if verdict is not None else None,
            self._limit_label(answer),
            workload.batch,
            float(answer.estimate.memory.peak),
            note,
            on_gpu=gpu is not None and workload.device == "cuda",
        )
