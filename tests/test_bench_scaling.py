"""The benchmark's scaling: the exponent of a stage between two book sizes and the table it prints,
on numbers made up here (the measurement itself is `make bench`, never a test)."""
import os

from pipeline.bench.__main__ import exponent, scaling_table
from pipeline.bench.ratios import process_kind


def test_linear_work_has_exponent_one_and_quadratic_two():
    assert exponent(0.5, 5.0, 10) == 1.0
    assert abs(exponent(0.5, 50.0, 10) - 2.0) < 1e-12
    assert abs(exponent(2.0, 8.0, 2) - 2.0) < 1e-12


def test_a_stage_too_short_to_tell_has_no_exponent():
    assert exponent(0.0004, 0.9, 10) is None
    assert exponent(0.5, 0.0, 10) is None


def result(pdf):
    def book(cpu, wall, peak):
        return {"label": "", "bytes": 0, "wall": wall, "cpu": cpu, "peak_all_mb": peak, "peak_rss_mb": peak,
                "stages_wall": {"parse": wall / 2, "write": wall / 2}, "stages_cpu": {"parse": cpu / 2, "write": cpu / 2},
                "peak_by_process_mb": {"build": peak * 0.75, "typst compile": peak * 0.25}}
    small, large = book(2.0, 4.0, 100.0), book(20.0, 48.0, 640.0)
    return {"sizes": [10, 100], "runs": 3, "pdf": pdf, "books": {"10": small, "100": large},
            "exponents": {"parse": {"cpu": 1.0, "wall": 1.08}, "write": {"cpu": None, "wall": 1.08}},
            "whole": {"wall_ratio": 12.0, "cpu_ratio": 10.0, "wall_exponent": 1.08, "cpu_exponent": 1.0,
                      "peak_all_mb": 640.0},
            "targets": {"ratio": 11.0, "peak_mb": 600.0}}


def test_the_table_gives_each_stage_its_times_and_exponents_and_the_whole_build_against_the_targets():
    lines = scaling_table(result(pdf=True)).splitlines()
    assert lines[5] == ("parse                        1.000      10.000   1.00       2.000      24.000   1.08")
    assert lines[6] == ("write                        1.000      10.000              2.000      24.000   1.08")
    assert lines[7] == ("whole build                   2.00       20.00   1.00        4.00       48.00   1.08")
    assert lines[8] == "peak MB, all processes         100         640"
    assert lines[9] == "  at the peak, 10: build 75, typst compile 25"
    assert lines[-1] == ("100x2 / 10x2: 12.0x the wall time (target at most 11x, does not hold), 10.0x the CPU "
                         "time; peak memory of all processes 640 MB (target at most 600 MB, does not hold)")


def test_without_the_pdf_the_targets_are_shown_but_not_judged():
    assert scaling_table(result(pdf=False)).splitlines()[-1] == (
        "100x2 / 10x2: 12.0x the wall time (target at most 11x), 10.0x the CPU time; peak memory of all "
        "processes 640 MB (target at most 600 MB)")


def test_the_build_process_is_named_as_the_root_of_its_tree():
    assert process_kind(os.getpid(), os.getpid()) == "build"
    assert process_kind(2 ** 22 + 7, os.getpid()) == "ended"
