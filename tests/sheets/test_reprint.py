from __future__ import annotations

import pytest

from micropul_print.base.errors import UserError
from micropul_print.draw.primitives import Drawing, Rect
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import Card, SheetOptions
from micropul_print.sheets.reprint import choose, parse_numbers, plan_reprint, reprint_title

BACK = Drawing(30.0, 30.0, (Rect(0, 0, 30, 30, fill="#224466"),))
CARDS = [Card(Drawing(30.0, 30.0, (Rect(0, 0, 30, 30, fill=f"#{n:06x}"),)), BACK)
         for n in range(1, 49)]
NUMBERS = list(range(1, 49))


@pytest.mark.parametrize(("text", "numbers"), [
    ("7,12,31", (7, 12, 31)), ("31, 7", (31, 7)), ("7-9,12", (7, 8, 9, 12)),
    ("7,7,8", (7, 8)), (" 7 - 9 ", (7, 8, 9))])
def test_numbers_are_read_in_order_each_once(text: str, numbers: tuple[int, ...]) -> None:
    assert parse_numbers(text) == numbers


@pytest.mark.parametrize(("text", "message"), [
    ("7,,8", "empty tile number in '7,,8' (write them as 7,12,31)"),
    ("seven", "not a tile number: 'seven' (write them as 7,12,31 or 7-9)"),
    ("9-7", "not a range of tile numbers: '9-7' (the lower number first: 7-9)"),
    # Plain ASCII digits only: int() takes these too (1_0 was tile 10).
    ("1_0", "not a tile number: '1_0' (write them as 7,12,31 or 7-9)"),
    ("+7", "not a tile number: '+7' (write them as 7,12,31 or 7-9)"),
    ("\u0663", "not a tile number: '\u0663' (write them as 7,12,31 or 7-9)"),
    ("1-99999", "a range of more than 10,000 tile numbers: '1-99999' (no set has that "
     "many)"),
    ("1" * 31, f"not a tile number: '{'1' * 31}' (write them as 7,12,31 or 7-9)")])
def test_bad_numbers_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_numbers(text)
    assert str(error.value) == message


def test_numbers_the_set_lacks_are_reported_together() -> None:
    with pytest.raises(UserError) as error:
        choose(CARDS, NUMBERS, [7, 49, 0], source="tiledefs/micropul.yaml")
    assert [str(d) for d in error.value.diagnostics] == [
        "tiledefs/micropul.yaml: error: no tile 49 in this set (its tiles are numbered "
        "1 to 48)",
        "tiledefs/micropul.yaml: error: no tile 0 in this set (its tiles are numbered "
        "1 to 48)"]


def test_missing_numbers_in_runs_at_the_list_of_tiles_with_the_set_s_numbering() -> None:
    numbers = [*range(1, 12), 41]  # a set with a gap
    with pytest.raises(UserError) as error:
        choose(CARDS[:12], numbers, [3, 12, 13, 14, 20, 21, 41, 50], source="small.yaml",
               at=(18, 1))
    assert [str(d) for d in error.value.diagnostics] == [
        "small.yaml:18:1: error: no tiles 12 to 14 in this set (its tiles are numbered "
        "1 to 11, 41)",
        "small.yaml:18:1: error: no tiles 20 and 21 in this set (its tiles are numbered "
        "1 to 11, 41)",
        "small.yaml:18:1: error: no tile 50 in this set (its tiles are numbered 1 to 11, 41)"]


@pytest.mark.parametrize("flip", ["long", "short"])
def test_a_reprint_holds_the_chosen_tiles_with_their_backs_behind(flip: Flip) -> None:
    plan = plan_reprint(load_layout("a4"), CARDS, NUMBERS, [7, 12, 31], 30.0, 30.0, "Game",
                        source="cat.yaml",
                        options=SheetOptions(flip=flip, calibration=False,
                                             back_offset=(0.5, 0.25)))
    front, back = plan.pages
    assert [p.drawing for p in front.placements] == [CARDS[6].front, CARDS[11].front,
                                                     CARDS[30].front]
    assert front.label == "Game — tiles 7, 12, 31 — fronts, page 1/1"
    assert len(back.placements) == 3
    width, height = plan.layout.paper_width, plan.layout.paper_height
    for placed_front, placed_back in zip(front.placements, back.placements, strict=True):
        corners = [back_point(placed_front.x, placed_front.y, width, height, flip,
                              (0.5, 0.25)),
                   back_point(placed_front.x + 30, placed_front.y + 30, width, height,
                              flip, (0.5, 0.25))]
        assert placed_back.x == pytest.approx(min(x for x, _ in corners), abs=1e-9)
        assert placed_back.y == pytest.approx(min(y for _, y in corners), abs=1e-9)


def test_reprint_titles() -> None:
    assert reprint_title("Micropul", [7]) == "Micropul — tile 7"
    assert reprint_title("Micropul", [7, 12]) == "Micropul — tiles 7, 12"
    # Three or more in a row are a range (a footer listing 1 to 48 ran off the paper).
    assert reprint_title("Micropul", [*range(1, 21), 33]) == "Micropul — tiles 1\u201320, 33"
    assert reprint_title("Micropul", [7, 8, 12, 11, 10]) == "Micropul — tiles 7, 8, 12, 11, 10"
    assert reprint_title("Micropul", [1, 2, 3, 5, 8, 9, 10, 11]) == (
        "Micropul — tiles 1\u20133, 5, 8\u201311")
