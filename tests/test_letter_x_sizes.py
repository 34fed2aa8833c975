"""Sizes are written with the multiplication sign, "5 × 5", as the books and the
boards print them: the catalogue's errors, check's lines and the docs said "5 x 5"."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import micropul_print

PACKAGE = Path(micropul_print.__file__).parent
ROOT = Path(__file__).parent.parent
# A size written with a letter x between spaces: "5 x 5", "{side} x {side}" (hex such
# as 0x1f and words such as "six boxes" are not sizes).
LETTER_X_SIZE = re.compile(r"(?:\d|\})\s+[xX]\s+(?:\d|\{)")
# The golden drawings' text format ("Drawing 30 x 30"): the tests' files, not a message.
NOT_MESSAGES = {"draw/recording.py"}


def _strings(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(token.start[0], token.string) for token in tokens
            if token.type == tokenize.STRING]


def test_no_message_of_the_package_writes_a_size_with_a_letter_x() -> None:
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text}"
             for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).as_posix() not in NOT_MESSAGES
             for line, text in _strings(path) if LETTER_X_SIZE.search(text)]
    assert not found, found


def test_no_benchmark_writes_a_size_with_a_letter_x() -> None:
    """The benchmarks' help and lines too (bench engine's said "5 x 5")."""
    found = [f"{path.relative_to(ROOT)}:{line}: {text}"
             for path in sorted((ROOT / "bench").glob("*.py"))
             for line, text in _strings(path) if LETTER_X_SIZE.search(text)]
    assert not found, found


def test_no_doc_writes_a_size_with_a_letter_x() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line}"
             for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if LETTER_X_SIZE.search(line)]
    assert not found, found


def test_the_pattern_finds_a_letter_x() -> None:
    assert LETTER_X_SIZE.search("a 5 x 5 board") and LETTER_X_SIZE.search("{s} x {s}")
    assert not LETTER_X_SIZE.search("5 × 5") and not LETTER_X_SIZE.search("0x1f boxes")
