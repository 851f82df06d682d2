"""Benchmark figures in ``diff``: judged against the machine's earlier runs with fleet's median/MAD model."""

from __future__ import annotations

from rocm_doctor.diff.compare import bench_drops
from rocm_doctor.stack import Figure


def _run(value: float) -> list:
    return [Figure("gemm", "fp16_tflops", "fp16", "TFLOP/s", value)]


EARLIER = [_run(v) for v in (100.0, 101.0, 99.0, 100.5, 99.5)]


def test_a_figure_far_below_the_earlier_runs_is_named_with_the_median_and_runs() -> None:
    drops, note = bench_drops(EARLIER, _run(50.0))
    assert note is None
    assert [(d.test, d.metric, d.value, d.median, d.runs) for d in drops] == [("gemm", "fp16", 50.0, 100.0, 5)]
    assert round(drops[0].ratio, 2) == 0.5


def test_a_figure_within_the_noise_or_faster_is_not_named() -> None:
    assert bench_drops(EARLIER, _run(97.0)) == ([], None)
    assert bench_drops(EARLIER, _run(180.0)) == ([], None)


def test_with_fewer_earlier_runs_than_the_noise_model_needs_nothing_is_judged_and_the_note_says_so() -> None:
    drops, note = bench_drops(EARLIER[:2], _run(10.0))
    assert drops == [] and note is not None and "needs 5 earlier runs" in note


def test_diff_and_fleet_share_one_noise_model() -> None:
    import rocm_doctor.diff.compare as compare
    import rocm_doctor.fleet.aggregate as aggregate
    import rocm_doctor.noise as noise

    assert compare.far_below is aggregate.far_below is noise.far_below
    assert compare.median_mad is aggregate.median_mad is noise.median_mad
