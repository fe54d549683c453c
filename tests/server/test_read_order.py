"""room/read_order.py: reads that end in any order — the newest read shown wins; a write
made here is newer than every read begun before it."""

from __future__ import annotations

from spillebord.server.room.read_order import ReadOrder


def test_an_older_read_that_ends_last_is_dropped() -> None:
    order = ReadOrder()
    older, newer = order.begin(), order.begin()
    assert order.take(newer)
    assert not order.take(older)  # it ended last, but began first
    assert order.take(newer)  # the one shown may be applied again (idempotent)


def test_reads_that_end_in_order_are_all_taken() -> None:
    order = ReadOrder()
    first = order.begin()
    assert order.take(first)
    second = order.begin()
    assert order.take(second)


def test_a_write_here_is_newer_than_a_read_begun_before_it() -> None:
    order = ReadOrder()
    read = order.begin()
    order.written()
    assert not order.take(read)
    assert order.overtaken(read)  # only the write overtook it: to be read again
    after = order.begin()
    assert order.take(after)  # a read begun after the write sees it


def test_a_dropped_read_with_a_newer_read_begun_is_not_read_again() -> None:
    order = ReadOrder()
    read = order.begin()
    order.written()
    newer = order.begin()
    assert not order.take(read)
    assert not order.overtaken(read)  # the newer read sees the write and the rest
    assert order.take(newer)
