"""The codecs' shared tables (``forestgames._codec``)."""

from __future__ import annotations

from array import array

from forestgames._codec import SeatRows


def _floats(data: bytes) -> list[float]:
    return list(array("f", data))


def test_seat_rows_turn_to_the_observer() -> None:
    """Each observer's rows start with its own seat and go round the table from there;
    rows of several floats move as a whole."""
    built: list[tuple[int, ...]] = []

    def build(values: tuple[int, ...], _: object) -> bytes:
        built.append(values)
        return array("f", [x for v in values for x in (v, -v)]).tobytes()

    rows = SeatRows(build, num_players=3, row=2)
    source = (10, 20, 30)
    assert _floats(rows.get(0, source)) == [10, -10, 20, -20, 30, -30]
    assert _floats(rows.get(1, source)) == [20, -20, 30, -30, 10, -10]
    assert _floats(rows.get(2, source)) == [30, -30, 10, -10, 20, -20]
    assert built == [source]  # one build while the same object comes back


def test_seat_rows_rebuild_for_another_object() -> None:
    """A different source object (even an equal one) or a different second source is built
    afresh; the rows always follow the sources given, never the last ones seen."""
    rows = SeatRows(lambda a, b: array("f", [*a, *(b or (0, 0))]).tobytes(), num_players=4)
    assert _floats(rows.get(1, (1, 2), (3, 4))) == [2, 3, 4, 1]
    assert _floats(rows.get(1, (1, 2), (5, 6))) == [2, 5, 6, 1]
    assert _floats(rows.get(0, (7, 8))) == [7, 8, 0, 0]
    assert _floats(rows.get(3, tuple([7, 8]), None)) == [0, 7, 8, 0]


def test_seat_rows_table_looks_up_by_observer_and_sources() -> None:
    """``table()`` answers ``[(observer, source, ...)]`` as ``get`` does, and keeps answers."""
    rows = SeatRows(lambda a, _: array("f", a).tobytes(), num_players=2)
    table = rows.table()
    assert _floats(table[(1, (4, 5))]) == [5, 4]
    assert _floats(table[(0, (4, 5))]) == [4, 5]
    assert (1, (4, 5)) in table and len(table) == 2
