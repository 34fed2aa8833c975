"""The rulebook structure: it loads, it names only English texts, every English text
is used, and each mistake in a structure file is reported at its place."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook.book import Figure, Ruling
from micropul_print.rulebook.locales import load_locale
from micropul_print.rulebook.verify import check_texts

DATA = Path(__file__).parent / "data"


def test_the_structure_and_the_english_texts_match() -> None:
    assert check_texts(MICROPUL.load_book(), load_locale("en", MICROPUL.locales_dir),
                       MICROPUL.shared_names) == []


def test_the_book_has_the_figures_the_rules_need() -> None:
    figures = MICROPUL.load_book().figures
    positions = {f.position for f in figures}
    assert {"figures/setup.yaml", "figures/legal.yaml", "figures/clash.yaml",
            "figures/clash-turned.yaml", "figures/catalysts.yaml",
            "figures/closed-group.yaml", "figures/big.yaml"} <= positions
    assert all(isinstance(f, Figure) and f.claims for f in figures)


def test_a_text_the_structure_does_not_use_is_reported(tmp_path: Path) -> None:
    english = (Path(load_locale("en", MICROPUL.locales_dir).source)).read_text(encoding="utf-8")
    (tmp_path / "en.yaml").write_text(english + "unused: Nobody reads this.\n",
                                      encoding="utf-8")
    problems = check_texts(MICROPUL.load_book(), load_locale("en", tmp_path),
                           MICROPUL.shared_names)
    line = english.count("\n") + 1
    assert [str(p) for p in problems] == [
        f"{tmp_path / 'en.yaml'}:{line}:9: error: text 'unused' is not used by the rulebook "
        f"({MICROPUL.load_book().source})"
    ]


def test_a_placeholder_nothing_fills_is_reported(tmp_path: Path) -> None:
    english = (Path(load_locale("en", MICROPUL.locales_dir).source)).read_text(encoding="utf-8")
    changed = english.replace("  text: >-\n    You start", "  text: >-\n    {drawn} You start")
    assert changed != english
    (tmp_path / "en.yaml").write_text(changed, encoding="utf-8")
    messages = [p.message for p in check_texts(MICROPUL.load_book(), load_locale("en", tmp_path),
                                               MICROPUL.shared_names)]
    assert messages == ["'goal.text' uses {drawn}, which nothing fills there"]


def test_each_mistake_in_a_structure_is_reported() -> None:
    path = DATA / "bad_structure.yaml"
    with pytest.raises(UserError) as caught:
        MICROPUL.load_book(path)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{path}:3:5: error: a block is one of title, lead, heading, subheading, paragraph, "
        "bullets, ruling, legend or figure with its content, got the keys chapter",
        f"{path}:4:14: error: a heading must be a non-empty text, got a list",
        f"{path}:9:11: error: a claim about a placement states exactly one of legal, reason, "
        "draws, plus or tile",
        f"{path}:9:26: warning: unknown key 'colour' in a claim about a placement (expected "
        "placement, legal, reason, draws, plus, tile or as)",
        f"{path}:10:19: error: a group is named by one of its micropul: [x, y, quadrant], "
        "quadrant one of tl, tr, br or bl; got a list",
        f"{path}:11:33: error: 'legal' must be true or false, got 'maybe'",
        f"{path}:15:18: error: unknown mark 'sparkle' (expected highlight, group, cross or stone)",
        f"{path}:16:8: error: 'pages' must be at least 1, got 0",
    ]


def test_an_unknown_key_in_a_book_is_an_error_not_a_warning(tmp_path: Path) -> None:
    book = tmp_path / "book.yaml"
    book.write_text("blocks:\n  - heading: goal.heading\ncolour: blue\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        MICROPUL.load_book(book)
    (problem,) = caught.value.diagnostics
    assert (problem.line, problem.col) == (3, 1)
    assert "colour" in problem.message


@pytest.mark.parametrize(("before", "named"), [
    ("  - heading: goal.heading\n", "a heading"),
    ("  - heading: goal.heading\n  - subheading: turn.play_heading\n", "a subheading"),
    ("  - lead: story\n", "the lead"),
    ("", "nothing"),
])
def test_a_ruling_that_follows_no_paragraph_or_list_is_reported(
        tmp_path: Path, before: str, named: str) -> None:
    """A ruling is set after the paragraph or list it rules on (its anchor): the block
    just before it in the structure must be one."""
    book = tmp_path / "book.yaml"
    book.write_text(f"blocks:\n{before}  - ruling: [turn.ruling_heading, turn.ruling]\n",
                    encoding="utf-8")
    with pytest.raises(UserError) as caught:
        MICROPUL.load_book(book)
    line = before.count("\n") + 2
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{book}:{line}:5: error: a ruling comes right after the paragraph or list it rules "
        f"on, got {named} before it"]


def test_a_ruling_is_anchored_to_the_paragraph_or_list_before_it() -> None:
    book = MICROPUL.load_book()
    rulings = [(i, b) for i, b in enumerate(book.blocks) if isinstance(b, Ruling)]
    assert [(i, b.anchor) for i, b in rulings] == [(i, i - 1) for i, _ in rulings]
    assert len(rulings) == 3
