"""Diagnostics as the user sees them: one line each, whatever text they quote."""

from __future__ import annotations

import pytest

from micropul_print.base.errors import Diagnostic, Severity, printable, quoted


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, ménage, Łódź, 値", "plain text, ménage, Łódź, 値"),
        ("\x1b[31mred", "\\x1b[31mred"),  # would recolour the terminal
        ("a\rb\nc\td", "a\\rb\\nc\\td"),  # would rewrite the line or break it in two
        ("\u202eevil", "\\u202eevil"),  # would reorder what follows
        ("half \ud800 pair", "half \\ud800 pair"),  # cannot be encoded at all
        ("no\xa0break", "no\\xa0break"),  # looks like a space, is not one
    ],
)
def test_printable_escapes_what_a_terminal_would_act_on(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_a_diagnostic_is_one_printable_line_whatever_it_quotes() -> None:
    diagnostic = Diagnostic("odd\nname.yaml", 3, 7, "unknown key '\x1b[2J' in tile",
                            Severity.WARNING)
    assert str(diagnostic) == "odd\\nname.yaml:3:7: warning: unknown key '\\x1b[2J' in tile"
    assert str(diagnostic).isprintable()


def test_quoted_cuts_long_text_and_says_how_long_it_was() -> None:
    assert quoted("W X") == "'W X'"
    assert quoted("9" * 5000) == "'" + "9" * 60 + "…' (5000 characters)"
    assert quoted("it's" * 20, limit=8) == '"it\'sit\'s…" (80 characters)'
    assert quoted("\x07" * 3) == "'\\x07\\x07\\x07'"
