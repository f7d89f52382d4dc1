"""The efficiency fit: exact on consistent data, honest out of sample."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gpuconfig.core.workload.calibrate import CalibrationError, Observation, fit_efficiency, leave_one_out, median_abs


def observed(name: str, compute: float, memory: float, conv: float = 0.0) -> Observation:
    """A step made with compute efficiency 0.55, memory 0.7 and convolution 0.3."""
    return Observation(name, compute, memory, compute / 0.55 + memory / 0.7 + conv / 0.3, conv)


def test_recovers_the_efficiencies_that_made_the_data() -> None:
    rows = [
        observed("a", 1, 0.2),
        observed("b", 2, 1.5),
        observed("c", 0.5, 0.4, 1.0),
        observed("d", 3, 0.1),
        observed("e", 0.1, 0.3, 2.0),
    ]
    fit = fit_efficiency(rows)
    assert fit.compute == pytest.approx(0.55)
    assert fit.memory == pytest.approx(0.7)
    assert fit.conv == pytest.approx(0.3)
    assert all(abs(e) < 1e-9 for e in leave_one_out(rows))


def test_a_term_no_result_has_time_in_is_not_fitted() -> None:
    fit = fit_efficiency([observed("a", 1, 0.2), observed("b", 2, 1.5), observed("c", 0.5, 0.1)])
    assert fit.conv is None
    assert fit.compute == pytest.approx(0.55)


def test_leave_one_out_reports_the_error_of_an_inconsistent_result() -> None:
    rows = [observed("a", 1, 0.1), observed("b", 2, 0.5), observed("c", 4, 0.1)]
    slow = Observation("slow", 1.0, 0.3, 2 * (1.0 / 0.55 + 0.3 / 0.7))  # measured twice as slow as the rest
    errors = leave_one_out([*rows, slow])
    assert errors[-1] == pytest.approx(-0.5, abs=0.01)  # predicted from the others: half the measured time
    assert median_abs(errors) > 0.01


def test_a_term_with_time_in_it_is_never_priced_at_nothing() -> None:
    # row "a" alone would be best served by memory costing nothing; every operator takes time, so the
    # memory term is held at the bandwidth instead and the compute term takes the rest
    rows = [Observation("a", 1.0, 5.0, 2.0), Observation("b", 2.0, 0.1, 4.0)]
    fit = fit_efficiency(rows)
    assert fit.memory == 1.0
    assert fit.compute is not None and 0 < fit.compute <= 1
    assert all(fit.predict(row) >= row.compute_s / fit.compute + row.memory_s for row in rows)


def test_no_efficiency_beats_the_peak() -> None:
    # steps measured faster than compute at the peak plus memory at the bandwidth would take
    rows = [Observation("a", 2.0, 1.0, 2.0), Observation("b", 4.0, 0.5, 3.5), Observation("c", 1.0, 2.0, 2.5)]
    fit = fit_efficiency(rows)
    for value in (fit.compute, fit.memory):
        assert value is not None and 0 < value <= 1


def test_one_result_cannot_fit_the_efficiencies() -> None:
    with pytest.raises(CalibrationError, match="at least two"):
        fit_efficiency([Observation("a", 1.0, 0.1, 2.0)])


def at_roofline(name: str, classes: list[tuple[str, float, float]], memory: float) -> Observation:
    """A step priced at the roofline with efficiencies mm 0.6, conv 0.4 and memory 0.75."""
    rate = {"mm": 0.6, "conv": 0.4}
    time = sum(max(f / rate[kind], b / 0.75) for kind, f, b in classes) + memory / 0.75
    return Observation(name, 0.0, memory, time, classes=tuple(classes))


def test_the_roofline_fit_recovers_the_efficiencies_that_made_the_data() -> None:
    rows = [
        at_roofline("compute-bound", [("mm", 2.0, 0.1), ("mm", 1.0, 0.2)], 0.3),
        at_roofline("bandwidth-bound", [("mm", 0.1, 0.9), ("conv", 0.2, 1.0)], 0.5),
        at_roofline("convolutions", [("conv", 1.5, 0.2), ("mm", 0.3, 0.1)], 0.2),
        at_roofline("mixed", [("mm", 0.5, 0.45), ("conv", 0.6, 0.1)], 1.0),
        at_roofline("small", [("mm", 0.05, 0.02)], 0.4),
    ]
    fit = fit_efficiency(rows)
    assert fit.compute == pytest.approx(0.6, rel=1e-3)
    assert fit.conv == pytest.approx(0.4, rel=1e-3)
    assert fit.memory == pytest.approx(0.75, rel=1e-3)
    assert max(abs(e) for e in leave_one_out(rows)) < 0.01  # each predicted from the other four


def test_a_bandwidth_bound_class_costs_its_bytes_not_its_flops() -> None:
    fit = fit_efficiency([at_roofline("a", [("mm", 2.0, 0.1)], 0.3), at_roofline("b", [("mm", 0.1, 0.9)], 0.5)])
    heavy = Observation("bytes", 0.0, 0.0, 1.0, classes=(("mm", 0.01, 3.0),))
    assert fit.memory is not None and fit.predict(heavy) == pytest.approx(3.0 / fit.memory)


def test_exposed_collectives_are_added_as_they_are() -> None:
    rows = [at_roofline("a", [("mm", 2.0, 0.1)], 0.3), at_roofline("b", [("mm", 0.1, 0.9)], 0.5)]
    fit = fit_efficiency(rows)
    two = Observation("two", 0.0, 0.3, 0.0, classes=(("mm", 2.0, 0.1),), fixed_s=0.25)
    assert fit.predict(two) == pytest.approx(fit.predict(rows[0]) + 0.25)


def with_batch_norm(
    name: str, classes: list[tuple[str, float, float]], memory: float, norm: float, sm: float
) -> Observation:
    """At the roofline as at_roofline, `norm` of the other operators' `memory` seconds being batch normalization,
    which takes `sm` seconds at one SM cycle per element and is paced at 0.4 cycles per element where that is slower."""
    rate = {"mm": 0.6, "conv": 0.4}
    time = sum(max(f / rate[kind], b / 0.75) for kind, f, b in classes) + (memory - norm) / 0.75
    time += max(norm / 0.75, 0.4 * sm)
    return Observation(name, 0.0, memory, time, classes=tuple(classes), batch_norm_s=norm, batch_norm_sm_s=sm)


def test_sm_paced_batch_normalization_is_fitted_in_cycles_per_element() -> None:
    rows = [
        with_batch_norm("datacenter", [("conv", 1.0, 0.3)], 0.8, 0.4, 3.0),  # SM-paced: 1.2 s against 0.53 s
        with_batch_norm("geforce", [("conv", 1.2, 0.2)], 0.9, 0.5, 0.5),  # bandwidth-paced: 0.67 s against 0.2 s
        with_batch_norm("datacenter-2", [("conv", 0.5, 0.6), ("mm", 0.3, 0.1)], 0.6, 0.3, 2.0),
        with_batch_norm("transformer", [("mm", 2.0, 0.1), ("mm", 1.0, 0.2)], 0.3, 0.0, 0.0),
        with_batch_norm("bandwidth-bound", [("mm", 0.1, 0.9), ("conv", 0.2, 1.0)], 0.5, 0.0, 0.0),
        with_batch_norm("mixed", [("mm", 0.5, 0.45), ("conv", 0.6, 0.1)], 1.0, 0.2, 1.5),
        with_batch_norm("channels-last", [("conv", 0.8, 0.1)], 0.7, 0.3, 0.0),  # not SM-paced
    ]
    fit = fit_efficiency(rows)
    assert fit.batch_norm_cycles_per_element == pytest.approx(0.4, rel=1e-3)
    assert fit.memory == pytest.approx(0.75, rel=1e-3)
    assert fit.conv == pytest.approx(0.4, rel=1e-3)
    assert max(abs(e) for e in leave_one_out(rows)) < 0.03  # one paced row fewer: the pace less pinned
    # without the SM pace the datacenter rows cannot be made
    alike = [replace(row, batch_norm_sm_s=0.0) for row in rows]
    assert fit_efficiency(alike).batch_norm_cycles_per_element is None
    assert max(abs(e) for e in leave_one_out(alike)) > 0.05


def test_a_pace_no_result_needs_is_not_charged() -> None:
    rows = [at_roofline("a", [("mm", 2.0, 0.1)], 0.3), at_roofline("b", [("mm", 0.1, 0.9)], 0.5)]
    fit = fit_efficiency(rows)
    assert fit.batch_norm_cycles_per_element is None
    paced = Observation("paced", 0.0, 0.3, 0.0, classes=(("mm", 2.0, 0.1),), batch_norm_s=0.2, batch_norm_sm_s=5.0)
    assert fit.predict(paced) == pytest.approx(fit.predict(rows[0]))  # at the memory efficiency, as before


def test_a_pace_that_is_the_slower_one_on_no_result_is_not_kept() -> None:
    # every row's batch norm streams at its bytes faster than the slowest pace searched (64 cycles an element)
    # would take: nothing measures the pace, so none is fitted
    rows = [
        with_batch_norm("a", [("conv", 1.0, 0.3)], 0.8, 0.4, 0.005),
        with_batch_norm("b", [("conv", 1.2, 0.2)], 0.9, 0.5, 0.005),
        with_batch_norm("c", [("mm", 2.0, 0.1), ("mm", 1.0, 0.2)], 0.3, 0.0, 0.0),
        with_batch_norm("d", [("mm", 0.1, 0.9), ("conv", 0.2, 1.0)], 0.5, 0.1, 0.001),
        with_batch_norm("e", [("mm", 0.5, 0.45), ("conv", 0.6, 0.1)], 1.0, 0.2, 0.002),
    ]
    fit = fit_efficiency(rows)
    assert fit.batch_norm_cycles_per_element is None
    assert fit.memory == pytest.approx(0.75, rel=1e-3)
