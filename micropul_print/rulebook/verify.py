"""Build-time checks of a rulebook that are the same for every game: its texts against
its structure. (Each game checks its figures' claims against its own engine.) Nothing
here draws."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from micropul_print.base.errors import Diagnostic
from micropul_print.rulebook.book import Book, Figure
from micropul_print.rulebook.claims import Value
from micropul_print.rulebook.locales import Locale, placeholders

# Texts the page layout uses besides those the structure names, with the
# placeholders the layout fills in each.
PAGE_TEXTS: dict[str, frozenset[str]] = {
    "meta.language_name": frozenset(),
    "meta.title": frozenset(),
    "meta.subject": frozenset(),
    "meta.running_head": frozenset(),
    "meta.page_number": frozenset({"page"}),
    "meta.figure_label": frozenset({"number"}),
}


@dataclass(frozen=True)
class VerifiedFigure:
    """A figure whose claims all hold, with what the engine said about it."""

    figure: Figure
    position: Any  # the game's own position value, as its verify_figures read it
    analysis: Mapping[str, Any]  # the engine's verdict, as the game's analysis JSON
    values: dict[str, Value]  # placeholder name -> engine value, for the caption


def check_texts(book: Book, reference: Locale,
                shared: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Every key the structure names exists, every reference text is used, and each
    text's placeholders are ones its block can fill: ``shared`` (the game's values, in
    any text of the structure) and, in a caption, its figure's named claims."""
    problems: list[Diagnostic] = []
    allowed: dict[str, frozenset[str]] = dict(PAGE_TEXTS)
    for key, where in book.text_keys():
        if key not in reference.texts:
            problems.append(where.diagnostic(f"no text '{key}' in {reference.source}"))
        allowed.setdefault(key, frozenset())
        allowed[key] |= shared
    for figure in book.figures:
        allowed[figure.caption] |= {c.name for c in figure.claims if c.name}
    for key, text in reference.texts.items():
        if key not in allowed:
            problems.append(reference.error(key, f"text '{key}' is not used by the rulebook "
                                                 f"({book.source})"))
            continue
        for name in sorted(placeholders(text) - allowed[key]):
            problems.append(reference.error(
                key, f"'{key}' uses {{{name}}}, which nothing fills there"))
    return problems
