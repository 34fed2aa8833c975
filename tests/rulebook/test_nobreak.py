"""The no-break rules per language (rulebook/nobreak.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.rulebook.nobreak import no_break, read_rules


def test_a_numeral_keeps_the_next_word_on_its_line_in_every_language() -> None:
    for lang in ("en", "de", "es", "fr", "it", "pl", "xx"):
        assert no_break(lang)("con 49 tessere e 1.000 punti") == (
            "con 49\u00a0tessere e 1.000\u00a0punti")
    assert no_break("en")("Rule #1. At least 2, 3 or 4") == "Rule #1. At least 2, 3\u00a0or 4"


def test_polish_one_letter_words_keep_the_next_word() -> None:
    assert no_break("pl")("Gracz w tym i o to, W domu") == (
        "Gracz w\u00a0tym i\u00a0o\u00a0to, W\u00a0domu")
    assert no_break("it")("e o a i") == "e o a i"  # Italian has no such rule


def test_every_language_of_the_shipped_books_has_a_rule() -> None:
    assert {"default", "en", "de", "es", "fr", "it", "pl"} <= read_rules().keys()


def _problem(tmp_path: Path, text: str) -> str:
    path = tmp_path / "nobreak.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as raised:
        read_rules(path)
    return "\n".join(str(problem) for problem in raised.value.diagnostics)


def test_rules_without_a_default_are_refused(tmp_path: Path) -> None:
    assert _problem(tmp_path, "en: {numerals: true}\n").endswith(
        "nobreak.yaml:1:1: error: the no-break rules need a 'default' entry")


def test_a_listed_word_with_a_space_is_refused(tmp_path: Path) -> None:
    assert _problem(tmp_path, "default: {words: [a, 'to be']}\n").endswith(
        "nobreak.yaml:1:22: error: 'to be' is not one word")
