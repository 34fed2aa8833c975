"""Figure claims against the rules engine: the book's all hold, false ones fail
with a message naming the figure file and the claim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from micropul_print.base.errors import UserError
from micropul_print.base.yamlsource import Where
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.rulebook import MICROPUL, evaluator
from micropul_print.rulebook.book import Claim, Figure
from micropul_print.rulebook.claims import check_claims

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data"


def test_every_claim_of_the_book_holds(catalogue: Catalogue) -> None:
    book = MICROPUL.load_book()
    verified = MICROPUL.verify(book, catalogue)
    assert [v.figure for v in verified] == list(book.figures)


def test_named_claims_give_the_engine_values_to_the_captions(catalogue: Catalogue) -> None:
    values = {v.figure.position: v.values
              for v in MICROPUL.verify(MICROPUL.load_book(), catalogue)}
    assert values["figures/catalysts.yaml"] == {"drawn": 3}
    assert values["figures/closed-group.yaml"] == {"points": 6}
    assert values["figures/big.yaml"] == {"points": 3, "drawn": 1}
    assert values["figures/merged.yaml"] == {"stones": 2}
    assert values["figures/clash-turned.yaml"] == {"options": 5}


def test_a_false_claim_fails_with_the_exact_message(catalogue: Catalogue) -> None:
    path = DATA / "false_claim.yaml"
    with pytest.raises(UserError) as caught:
        MICROPUL.verify(MICROPUL.load_book(path), catalogue)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{path}:10:11: error: figure figures/clash.yaml: claim \"placement 2: legal is true\" "
        "is false: the engine says false",
        f"{path}:11:11: error: figure figures/clash.yaml: claim \"placement 2: reason is "
        "no micropul link\" is false: the engine says \"colour clash\"",
        f"{path}:5:5: error: figure figures/clash.yaml: no micropul group to outline at "
        "(5, 5, tl)",
    ]


def _about(subject: str, key: Any) -> str:
    """The subject in words, as micropul.read_subject words it."""
    if subject == "group":
        return "the group at ({}, {}, {})".format(*key)
    if subject == "legal_placements":
        return f"the legal placements of tile {key}"
    return f"placement {key}"


def _figure(*claims: tuple[str, Any, str, Any]) -> Figure:
    where = Where("book.yaml", 1, 1)
    return Figure("figures/x.yaml", "figures.x",
                  tuple(Claim(s, k, p, e, "", where, _about(s, k)) for s, k, p, e in claims),
                  None, where)


ANALYSIS: dict[str, Any] = {
    "placements": [
        {"tile": 41, "x": 0, "y": 0, "rotation": 0, "legal": True, "reason": None,
         "draws": 0, "plus": 0},
        {"tile": 7, "x": 1, "y": 0, "rotation": 90, "legal": True, "reason": None,
         "draws": 3, "plus": 1},
    ],
    "groups": [
        {"colour": "white", "points": 5, "closed": True, "stones": [1, 2],
         "quadrants": [[0, 0, "tl"], [0, 0, "tr"]]},
    ],
}


def test_claims_are_read_from_the_analysis_contract() -> None:
    figure = _figure(("placement", 2, "draws", 3), ("placement", 2, "plus", 1),
                     ("placement", 1, "reason", "none"), ("group", (0, 0, "tr"), "points", 5),
                     ("group", (0, 0, "tl"), "closed", True),
                     ("group", (0, 0, "tl"), "stones", 2))
    assert check_claims(figure, evaluator(ANALYSIS)) == ({}, [])


def test_claims_about_what_is_not_there_cannot_be_checked() -> None:
    figure = _figure(("placement", 3, "legal", True), ("group", (5, 5, "tl"), "points", 1),
                     ("legal_placements", 7, "count", 2))
    _, problems = check_claims(figure, evaluator(ANALYSIS))
    assert [p.message for p in problems] == [
        'figure figures/x.yaml: claim "placement 3: legal is true" cannot be checked: '
        "the position has 2 placements",
        'figure figures/x.yaml: claim "the group at (5, 5, tl): points is 1" cannot be '
        "checked: no micropul group covers (5, 5, tl)",
        'figure figures/x.yaml: claim "the legal placements of tile 7: count is 2" cannot '
        "be checked: the engine listed no legal placements",
    ]


def test_a_count_is_not_a_flag() -> None:
    """``plus: 1`` and ``legal: true`` are different claims: types must match too."""
    figure = _figure(("placement", 2, "plus", True))
    _, problems = check_claims(figure, evaluator(ANALYSIS))
    assert [p.message for p in problems] == [
        'figure figures/x.yaml: claim "placement 2: plus is true" is false: the engine says 1'
    ]
