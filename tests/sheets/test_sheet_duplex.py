from __future__ import annotations

import pytest

from micropul_print.sheets.duplex import back_point, back_slot, front_point


def test_long_edge_mirrors_columns_only() -> None:
    assert back_slot(0, 0, 6, 9, "long") == (5, 0)
    assert back_slot(5, 3, 6, 9, "long") == (0, 3)
    assert back_slot(2, 8, 6, 9, "long") == (3, 8)


def test_short_edge_mirrors_rows_only() -> None:
    assert back_slot(0, 0, 6, 9, "short") == (0, 8)
    assert back_slot(5, 3, 6, 9, "short") == (5, 5)
    assert back_slot(2, 4, 6, 9, "short") == (2, 4)  # the middle row stays


@pytest.mark.parametrize("flip", ["long", "short"])
def test_mirroring_is_a_permutation_and_its_own_inverse(flip: str) -> None:
    columns, rows = 6, 8
    slots = [(c, r) for r in range(rows) for c in range(columns)]
    backs = [back_slot(c, r, columns, rows, flip) for c, r in slots]  # type: ignore[arg-type]
    assert sorted(backs) == sorted(slots)
    for (c, r), (bc, br) in zip(slots, backs, strict=True):
        assert back_slot(bc, br, columns, rows, flip) == (c, r)  # type: ignore[arg-type]


def test_slot_outside_the_grid_is_refused() -> None:
    with pytest.raises(IndexError):
        back_slot(6, 0, 6, 9)
    with pytest.raises(IndexError):
        back_slot(0, -1, 6, 9)


def test_unknown_flip_is_refused() -> None:
    with pytest.raises(ValueError):
        back_slot(0, 0, 6, 9, "diagonal")  # type: ignore[arg-type]


def test_back_point_mirrors_the_page_and_adds_the_offset() -> None:
    assert back_point(10.0, 20.0, 210.0, 297.0, "long") == (200.0, 20.0)
    assert back_point(10.0, 20.0, 210.0, 297.0, "short") == (10.0, 277.0)
    assert back_point(10.0, 20.0, 210.0, 297.0, "long", (0.5, -1.0)) == (200.5, 19.0)
    assert front_point(200.0, 20.0, 210.0, 297.0, "long") == (10.0, 20.0)
