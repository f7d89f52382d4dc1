"""The trace-and-fit service with the real trace worker: tiny models, traced on the CPU in a second or two."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuconfig.core.workload.answer import answer_record
from gpuconfig.core.workload.runner import TraceCancelled, TraceFailed
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import Workload, WorkloadError
from tests.workload.model_files import linear_model


def linear_workload(folder: Path, **changes: object) -> Workload:
    return Workload(model=str(linear_model(folder)), precision="fp32", device="cpu", batch=4).with_changes(**changes)


class Progress:
    """Counts the worker's progress lines: a trace that really runs reports at least one."""

    def __init__(self) -> None:
        self.lines = 0

    def __call__(self, done: int, total: int, what: str) -> None:
        self.lines += 1


def test_a_key_at_hand_answers_without_tracing(tmp_path: Path) -> None:
    service = TraceService(use_cache=False)  # every trace runs the worker: none is read from the disk
    workload = linear_workload(tmp_path)
    traced = Progress()
    first = service.fit_for(workload, traced)
    assert traced.lines > 0

    again = Progress()
    assert service.fit_for(workload, again) is first and again.lines == 0
    assert first.answer(workload, None).estimate.params == 8 * 4 + 4


def test_workloads_that_differ_only_in_batch_or_length_share_one_fit(tmp_path: Path) -> None:
    service = TraceService()
    workload = linear_workload(tmp_path)
    made = service.trace(service.resolve(workload))
    for other in (
        workload.with_changes(batch=64),
        workload.with_changes(seq=512),
        workload.with_changes(grad_accum=8),
    ):
        resolved = service.resolve(other)
        assert resolved.key == service.resolve(workload).key
        assert service.fit(resolved.key) is made
        assert made.answer(other, None).estimate.workload == other
    changed = service.resolve(workload.with_changes(precision="amp_bf16"))
    assert changed.key != service.resolve(workload).key and service.fit(changed.key) is None


def test_a_shape_past_the_traced_ones_is_answered_as_extended_until_it_is_traced(tmp_path: Path) -> None:
    service = TraceService(use_cache=False)
    workload = linear_workload(tmp_path)  # batch 4: traced at 4 and 8
    resolved = service.resolve(workload)
    (batch, seq), key = resolved.shape, resolved.key
    first = service.fit_for(workload)
    assert first.covers((4, seq)) and first.covers((6, seq)) and first.covers((8, seq))
    assert not first.covers((16, seq)) and not first.covers((2, seq))
    assert first.answer(workload.with_changes(batch=6), None).estimate.extrapolated == ""

    far = workload.with_changes(batch=64)
    extended = first.answer(far, None)
    assert extended.estimate.extrapolated.startswith(f"batch 64 at length {seq} lies outside the traced shapes")
    assert "(batch 4-8," in extended.estimate.extrapolated
    error = answer_record(extended)["memory"]["expected_error"]
    assert error["band"] is None and error["extrapolated"] and error["text"] == extended.estimate.extrapolated

    traced = Progress()
    second = service.fit_for(far, traced)  # no fit covers batch 64: it is traced
    assert traced.lines > 0 and second is not first and second.covers((64, seq))
    assert second.answer(far, None).estimate.extrapolated == ""
    assert service.fit(key, (batch, seq)) is first and service.fit(key, (64, seq)) is second
    assert service.fit(key) is second and service.fit(key, (1000, seq)) is None
    # what answers an untraced shape for now: the fit traced nearest it
    assert service.nearest(key, (1000, seq)) is second and service.nearest(key, (2, seq)) is first
    again = Progress()
    assert service.fit_for(workload.with_changes(batch=5), again) is first and again.lines == 0
    # no time on the CPU without its measured speed, and the answer says how to get one
    answer = first.answer(workload, None)
    assert answer.timing is None and "--probe-report" in answer.time_note
    assert answer_record(answer)["time_note"] == answer.time_note


def test_a_failure_is_remembered_until_it_is_forgotten(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("VALUE = 1\n", encoding="utf-8")  # no model_and_inputs: the worker cannot build it
    service = TraceService()
    resolved = service.resolve(Workload(model=str(broken), precision="fp32", device="cpu"))
    with pytest.raises(TraceFailed, match="model_and_inputs"):
        service.trace(resolved)
    failure = service.failure(resolved.key)
    assert failure is not None and "model_and_inputs" in failure
    assert service.fit(resolved.key) is None
    assert service.failure(resolved.key) == failure  # still there: asking again does not clear it

    service.forget_failures()
    assert service.failure(resolved.key) is None


def test_a_model_that_is_not_there_fails_before_any_trace(tmp_path: Path) -> None:
    with pytest.raises(WorkloadError, match="no such file"):
        TraceService().resolve(Workload(model=str(tmp_path / "missing" / "config.json")))


def test_cancelling_raises_the_cancellation_and_keeps_nothing(tmp_path: Path) -> None:
    service = TraceService(use_cache=False)
    resolved = service.resolve(linear_workload(tmp_path))
    with pytest.raises(TraceCancelled):
        service.trace(resolved, cancelled=lambda: True)
    assert service.fit(resolved.key) is None and service.failure(resolved.key) is None


def test_a_result_asked_for_no_more_is_not_kept(tmp_path: Path) -> None:
    workload = linear_workload(tmp_path)
    TraceService().fit_for(workload)  # now on disk: the next trace of it returns at once
    service = TraceService()
    resolved = service.resolve(workload)
    with pytest.raises(TraceCancelled):
        service.trace(resolved, cancelled=lambda: True)
    assert service.fit(resolved.key) is None
