"""tileopt/ir/gc_scans.py: the heap is frozen during the work and only then."""

from __future__ import annotations

import gc

import pytest

from tileopt.ir.gc_scans import heap_frozen


def test_frozen_during_the_work_and_released_after_even_on_error():
    seen = []

    @heap_frozen
    def work(fail: bool):
        seen.append(gc.get_freeze_count() > 0)
        if fail:
            raise ValueError("bad input")
        return "done"

    assert gc.get_freeze_count() == 0
    assert work(False) == "done"
    with pytest.raises(ValueError):
        work(True)
    assert seen == [True, True]
    assert gc.get_freeze_count() == 0


def test_a_callers_freeze_and_a_disabled_collector_are_left_alone():
    @heap_frozen
    def work():
        return gc.get_freeze_count()

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert work() == frozen
        assert gc.get_freeze_count() == frozen  # not unfrozen by the work
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        assert work() == 0
    finally:
        gc.enable()


def test_garbage_made_during_the_work_is_still_collected():
    class Node:
        pass

    @heap_frozen
    def work():
        gc.collect()
        for _ in range(100):
            a, b = Node(), Node()
            a.other, b.other = b, a
        del a, b
        return gc.collect()

    assert work() >= 200
