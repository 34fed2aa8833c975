"""Rulings of this edition (where the original rules are silent) are boxed: each is a
``ruling`` block of its book's structure, and on the page its heading and every line
of its text sit inside a rectangle filled with the ruling tint, in every language."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import available_languages, build_rulebooks
from micropul_print.rulebook.book import Heading, Paragraph, Ruling
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.locales import load_locale
from micropul_print.rulebook.styles import RULING_TINT

GAMES: dict[str, GameRulebook] = {"micropul": MICROPUL, "cellulae": CELLULAE}
# The rulings each book states (docs/rulebook.md, "Rulings of this edition").
RULINGS = {"micropul": ["setup.ruling", "catalysts.ruling", "turn.ruling"],
           "cellulae": ["setup.ruling", "end.ruling"]}
Box = tuple[float, float, float, float]  # left, bottom, right, top (points)


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_is_a_ruling_block(game: str) -> None:
    book = GAMES[game].load_book()
    rulings = [block for block in book.blocks if isinstance(block, Ruling)]
    assert [r.text for r in rulings] == RULINGS[game]
    assert all(r.heading == r.text + "_heading" for r in rulings)
    # No ruling is set as plain text, nor its heading as a plain subheading.
    plain = {block.key for block in book.blocks if isinstance(block, Heading | Paragraph)}
    assert not {key for key in plain if key.split(".")[-1].startswith("ruling")}


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bytes]:
    """Every book in every language, on A4 (Letter shows the same pages)."""
    theme = load_theme("classic")
    built = {}
    for game in GAMES:
        catalogue = load_catalogue(shipped_catalogue(game))
        out = OutputDir(tmp_path_factory.mktemp(game))
        for lang in available_languages(game):
            (path,) = build_rulebooks(catalogue, theme, out, langs=[lang], paper="a4")
            built[game, lang] = path.read_bytes()
    return built


def _tinted_boxes_and_lines(pdf: bytes) -> list[tuple[list[Box], list[tuple[float, float, str]]]]:
    """Per page: the rectangles filled with the ruling tint, and each text run's start
    (x, y) and text, all in page coordinates."""
    return [_page_boxes_and_lines(page) for page in PdfReader(io.BytesIO(pdf)).pages]


def _page_boxes_and_lines(page: PageObject) -> tuple[list[Box], list[tuple[float, float, str]]]:
    tint = tuple(round(c, 3) for c in RULING_TINT.rgb())
    boxes: list[Box] = []
    runs: list[tuple[float, float, str]] = []
    fill: list[tuple[float, ...]] = [()]

    def before(op: bytes, args: list[Any], cm: list[float], _tm: list[float]) -> None:
        if op == b"rg":
            fill[0] = tuple(round(float(a), 3) for a in args)
        elif op == b"re" and fill[0] == tint:
            x, y, w, h = (float(a) for a in args)
            # Rulebook pages translate and never scale or rotate (cm: 1 0 0 1 e f).
            left, bottom = cm[4] + x, cm[5] + y
            boxes.append((min(left, left + w), min(bottom, bottom + h),
                          max(left, left + w), max(bottom, bottom + h)))

    def text(run: str, cm: list[float], tm: list[float], *_: object) -> None:
        if run.strip():
            runs.append((cm[4] + tm[4], cm[5] + tm[5], " ".join(run.split())))

    page.extract_text(visitor_operand_before=before, visitor_text=text)
    return boxes, runs


def _inside(x: float, y: float, box: Box) -> bool:
    left, bottom, right, top = box
    return left <= x <= right and bottom <= y <= top


@pytest.mark.parametrize(("game", "lang"), [(game, lang) for game in GAMES
                                            for lang in available_languages(game)])
def test_each_ruling_is_boxed_on_the_page(books: dict[tuple[str, str], bytes],
                                          game: str, lang: str) -> None:
    locale = load_locale(lang, GAMES[game].locales_dir)
    headings = {" ".join(locale.texts[key + "_heading"].split()) for key in RULINGS[game]}
    pages = _tinted_boxes_and_lines(books[game, lang])
    found = 0
    for boxes, runs in pages:
        for x, y, run in runs:
            if run in headings:
                found += 1
                assert any(_inside(x, y, box) for box in boxes), (run, x, y, boxes)
        # Every box holds text: the tint frames a ruling, nothing else.
        for box in boxes:
            assert any(_inside(x, y, box) for x, y, _ in runs), box
    assert found == len(RULINGS[game])
    # The last words of each ruling are inside a box too (the whole text is boxed,
    # across a column end if it is split).
    for key in RULINGS[game]:
        last = locale.texts[key].split()[-1]
        spots = [(x, y, boxes) for boxes, runs in pages for x, y, run in runs
                 if run.endswith(last)]
        assert spots and any(_inside(x, y, box) for x, y, boxes in spots
                             for box in boxes), (key, last)
