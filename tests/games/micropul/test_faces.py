from __future__ import annotations

import math
from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.draw.primitives import Circle, Drawing, Polygon, Text
from micropul_print.draw.theme import THEME_NAMES, THEMES_DIR, Theme, load_theme
from micropul_print.games.micropul.faces import (
    MARKS,
    PLAYERS,
    TILE_SIZE_MM,
    back_drawing,
    check_theme,
    stone_drawing,
    stone_faces,
    tile_drawing,
    tile_face,
)
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    QUADRANT_VALUES,
    WHITE,
    BigMicropul,
    Tile,
)

START = Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True)
MIXED = Tile(19, (WHITE, DOT, EMPTY, PLUS))
BIG_WHITE = Tile(43, (WHITE, WHITE, WHITE, WHITE), big=BigMicropul(WHITE, DOT))


@pytest.fixture(scope="module")
def classic() -> Theme:
    return load_theme("classic")


def texts(drawing: Drawing) -> list[str]:
    return [item.text for item in drawing.items if isinstance(item, Text)]


def test_every_quadrant_value_has_a_mark_in_every_theme() -> None:
    assert set(MARKS) == set(QUADRANT_VALUES)
    for name in THEME_NAMES:
        theme = load_theme(name)
        for mark in (*MARKS.values(), "back-fill", "back-emblem", "stone-1", "stone-2"):
            theme.mark(mark)


def test_quadrants_land_clockwise_from_top_left() -> None:
    face = tile_face(Tile(9, (WHITE, BLACK, DOT, EMPTY)))
    assert face.cells == (("disc-light", "disc-dark"), ("blank", "dot1"))


def test_big_tile_is_one_large_mark_with_its_catalyst_centred() -> None:
    face = tile_face(Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS)))
    assert (face.cells, face.big, face.centre) == ((), "disc-dark", "plus")
    assert tile_face(Tile(22, (BLACK, BLACK, EMPTY, DOUBLE))).big is None


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_tile_drawing_size(classic: Theme, bleed: float) -> None:
    drawing = tile_drawing(MIXED, classic, bleed=bleed)
    assert drawing.width == drawing.height == TILE_SIZE_MM + 2 * bleed == 30.0 + 2 * bleed


def test_start_label_only_on_the_start_tile(classic: Theme) -> None:
    assert texts(tile_drawing(START, classic)) == ["START", "41"]
    assert texts(tile_drawing(MIXED, classic)) == ["19"]


def test_show_number_false_hides_the_number(classic: Theme) -> None:
    assert texts(tile_drawing(START, classic, show_number=False)) == ["START"]
    assert texts(tile_drawing(MIXED, classic, show_number=False)) == []


def test_big_white_tile_catalyst_is_visible_on_its_disc(classic: Theme) -> None:
    drawing = tile_drawing(BIG_WHITE, classic)
    big, dot = (i for i in drawing.items if isinstance(i, Circle))
    assert big.r > 12 and dot.r < 2
    assert dot.fill != big.fill


@pytest.mark.parametrize("name", THEME_NAMES)
def test_back_is_anonymous_and_bleeds(name: str) -> None:
    theme = load_theme(name)
    back = back_drawing(theme)
    assert (back.width, back.height) == (30.0, 30.0)
    assert texts(back) == []
    bled = back_drawing(theme, bleed=3.0)
    assert bled.width == 36.0
    assert bled.items[0].width == 36.0  # type: ignore[union-attr]


@pytest.mark.parametrize("name", THEME_NAMES)
def test_the_two_stones_differ(name: str) -> None:
    theme = load_theme(name)
    one, two = stone_drawing(1, theme), stone_drawing(2, theme)
    assert (one.width, one.height) == (14.0, 14.0)
    assert one.items != two.items
    assert theme.mark("stone-1").fill != theme.mark("stone-2").fill or (
        theme.mark("stone-1").hatch != theme.mark("stone-2").hatch)
    assert stone_drawing(1, theme, diameter=20.0).width == 20.0


@pytest.mark.parametrize("name", THEME_NAMES)
def test_a_stone_is_a_numbered_chip_not_a_micropul(name: str) -> None:
    """Micropuls are plain discs; a stone has notches round its rim and its player's
    number, in every theme."""
    theme = load_theme(name)
    for player in PLAYERS:
        stone = stone_drawing(player, theme)
        notches = [i for i in stone.items if isinstance(i, Polygon)]
        assert len(notches) == 8
        for notch in notches:  # each reaches the rim
            assert max(math.hypot(x - 7.0, y - 7.0) for x, y in notch.points) == (
                pytest.approx(7.0, abs=1e-3))
        (number,) = [i for i in stone.items if isinstance(i, Text)]
        assert number.text == str(player) and number.weight == "bold"
    assert not [i for i in stone_drawing(1, theme, number=False).items if isinstance(i, Text)]


@pytest.mark.parametrize("name", THEME_NAMES)
def test_printed_stones_have_bleed_on_both_sides_and_a_cut_line_on_the_front_only(
        name: str) -> None:
    theme = load_theme(name)
    front, back = stone_faces(2, theme, 14.0, bleed=3.0)
    assert (front.width, back.width) == (20.0, 20.0)
    for face in (front, back):
        field = face.items[0]
        assert isinstance(field, Circle) and field.r == 10.0  # the chip runs into the bleed
    outlines = [i for i in front.items if isinstance(i, Circle) and i.stroke == theme.outline
                and i.stroke_width == theme.outline_width]
    assert [round(o.r + o.stroke_width / 2, 6) for o in outlines] == [7.0]  # on the cut line
    assert back.items == front.items[:-1]  # the same chip, without the line


@pytest.mark.parametrize("name", THEME_NAMES)
def test_the_back_is_light_in_every_theme(name: str) -> None:
    """48 backs are most of a kit's ink: no theme floods them (colour-safe's back was a
    62 % cyan flood). Every ink channel under 15 % over the back, and less than the
    faces use on average."""
    from PIL import ImageStat

    from micropul_print.backends.png import to_image
    from micropul_print.catalogue.loader import load_catalogue

    theme = load_theme(name)

    def ink(drawing: Drawing) -> list[float]:
        mean = ImageStat.Stat(to_image(drawing, 50).convert("RGB")).mean
        return [1 - value / 255 for value in mean]

    back = ink(back_drawing(theme))
    assert max(back) < 0.15, back
    faces = [ink(tile_drawing(tile, theme)) for tile in load_catalogue().tiles]
    assert sum(back) < sum(map(sum, faces)) / len(faces)


def test_no_third_player(classic: Theme) -> None:
    with pytest.raises(ValueError, match="player must be 1 or 2"):
        stone_drawing(3, classic)


def test_game_module_reads_no_rendering_library() -> None:
    import ast
    import inspect

    import micropul_print.draw.face as face
    import micropul_print.draw.theme as theme
    import micropul_print.games.micropul.faces as game

    for module in (game, face, theme):
        tree = ast.parse(inspect.getsource(module))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom)
                    for alias in (node.names if isinstance(node, ast.Import)
                                  else [ast.alias(node.module or "")])}
        assert not imported & {"reportlab", "svgwrite", "PIL"}, module.__name__


@pytest.mark.parametrize("name", THEME_NAMES)
def test_every_builtin_theme_has_every_mark_micropul_needs(name: str) -> None:
    check_theme(load_theme(name))  # raises if one is missing


def test_a_theme_without_a_needed_mark_is_reported_at_its_marks(tmp_path: Path) -> None:
    classic = (THEMES_DIR / "classic.yaml").read_text(encoding="utf-8")
    lines = classic.splitlines(keepends=True)
    marks_line = next(n for n, line in enumerate(lines, 1) if line.startswith("marks:"))
    mine = tmp_path / "no-plus.yaml"
    mine.write_text("".join(line for line in lines if not line.startswith("  plus:")),
                    encoding="utf-8")
    with pytest.raises(UserError) as caught:
        check_theme(load_theme(str(mine)))
    (problem,) = caught.value.diagnostics
    assert (problem.file, problem.line) == (str(mine), marks_line + 1)
    assert problem.message.startswith(
        "theme 'classic' has no mark 'plus', which Micropul's tiles need (it has: ")
