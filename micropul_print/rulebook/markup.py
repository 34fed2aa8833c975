"""Book text -> reportlab paragraph markup, and cutting such markup in two between
words (a paragraph split where a column ends)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from micropul_print.rulebook.locales import emphasis

# "7 × 7": a size never breaks across lines, in any language.
TIMES = re.compile(r"(?<=\w) × (?=\w)")


def markup(text: str, no_break: Callable[[str], str] | None = None) -> str:
    """Catalogue text -> reportlab paragraph markup: the language's ``no_break`` rule
    (:func:`nobreak.no_break`), escape, then ***bold italic***, **bold**, *italic*
    (checked to nest: locales.check_syntax)."""
    if no_break is not None:
        text = no_break(text)
    return emphasis(TIMES.sub("\u00a0×\u00a0", escape(text)))


# Where reportlab breaks a paragraph into words: any white space but the no-break space.
WORD_GAP = re.compile(r"[^\S\u00a0]+")
_TAG = re.compile(r"<(/?)([a-z]+)>")


def split_markup(words: Sequence[str], count: int) -> tuple[str, str]:
    """Paragraph markup ``words`` (as split at WORD_GAP) cut after ``count`` words
    into two paragraphs' markup: tags open at the cut are closed in the first and
    opened again in the second."""
    open_tags: list[str] = []
    for word in words[:count]:
        for closing, tag in _TAG.findall(word):
            if closing:
                open_tags.remove(tag)
            else:
                open_tags.append(tag)
    head = " ".join(words[:count]) + "".join(f"</{tag}>" for tag in reversed(open_tags))
    tail = "".join(f"<{tag}>" for tag in open_tags) + " ".join(words[count:])
    return head, tail

