"""The localized rulebooks: each game's package holds a folder with its book's
structure (book.yaml), texts (locales/en.yaml and a gettext catalogue per
translation, locales/<lang>.po) and figures (figures/*.yaml, in the
game's position format) whose claims the game's rules engine confirms; one page layout
serves every game.

A book belongs to the game of the catalogue it is built for: the registered game
(micropul_print.game.registry) gives what only it knows (:class:`GameRulebook`).
``build_rulebooks`` is what ``micropul-print build`` and ``micropul-print rulebook``
call; ``build_booklets`` writes the same books as booklets to fold. Importing this
package loads no drawing library: reportlab comes in with
:mod:`micropul_print.rulebook.layout`, inside the build functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.base.paper import PAPER_NAMES as PAPERS
from micropul_print.draw.theme import Theme
from micropul_print.game import registry
from micropul_print.game.api import Catalogue
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook.book import (
    Book,
    Bullets,
    Figure,
    Heading,
    Legend,
    Paragraph,
    Ruling,
    Title,
)
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.locales import (
    REFERENCE_LANGUAGE,
    Locale,
    load_locale,
    load_locales,
)
from micropul_print.rulebook.verify import VerifiedFigure, check_texts

if TYPE_CHECKING:  # the page layout imports reportlab
    from micropul_print.rulebook import layout

__all__ = [
    "PAPERS",
    "GameRulebook",
    "available_languages",
    "booklet_path",
    "build_booklets",
    "build_rulebooks",
    "check_rulebook",
    "page_blocks",
    "render_booklet",
    "render_booklets",
    "render_rulebook",
    "render_rulebooks",
    "rulebook_for",
    "rulebook_path",
]


def games_with_rulebooks() -> list[str]:
    """The registered games that have a rulebook, in order. A plugin whose ``rulebook``
    raises is left out (registry.leave_out): every game's book is asked for (the
    languages --lang takes), and the other games must keep working."""
    names = []
    for game in registry.games():
        try:
            book = game.rulebook
        except (Exception, SystemExit) as exc:
            registry.leave_out(game, "rulebook", exc)
            continue
        if book is not None:
            names.append(game.info.name)
    return names


def rulebook_for(game: str) -> GameRulebook:
    """The rulebook of a game; UserError if the game has none."""
    book = registry.get(game).rulebook
    if book is None:
        raise UserError([Diagnostic("micropul-print", 0, 0,
                                    f"no rulebook for the game '{game}' "
                                    f"(rulebooks: {', '.join(games_with_rulebooks())})")])
    return book


def available_languages(game: str, locales: Path | None = None) -> list[str]:
    """Language codes of a game's text catalogues present, English first (with those
    of ``locales``, a folder of the user's ``<lang>.po`` for this game's book)."""
    return rulebook_for(game).languages(locales)


def rulebook_path(catalogue: Catalogue, lang: str, paper: str) -> str:
    """Where a language's rulebook on ``paper`` goes, relative to the output directory."""
    return rulebook_for(catalogue.game).rulebook_path(lang, paper)


def check_rulebook(catalogue: Catalogue, langs: Sequence[str],
                   locales: Path | None = None) -> tuple[
        Book, list[Locale], list[VerifiedFigure]]:
    """Everything a build needs, checked: the structure of the catalogue's game's book,
    the texts of ``langs`` (against English and the structure: none missing or stale),
    the values the texts quote, and every figure's claims. ``locales``: a folder of the
    user's translations, before the shipped ones. Raises one UserError with every
    problem found, each at its file:line:col."""
    game = rulebook_for(catalogue.game)
    texts = load_locales(langs, game.locales_dir, locales)
    book, figures = _verified_book(catalogue)
    return book, texts, figures


# The book and its verified figures, per catalogue: a build checks them once before
# writing anything, and its rulebook jobs (forked workers, or later calls in this
# process) find them here. The catalogue is kept so that its id is not reused; one per
# game, so that a long build --watch, a catalogue per rebuild, does not keep them all.
_VERIFIED: dict[int, tuple[Catalogue, Book, list[VerifiedFigure]]] = {}


def _verified_book(catalogue: Catalogue) -> tuple[Book, list[VerifiedFigure]]:
    found = _VERIFIED.get(id(catalogue))
    if found is not None and found[0] is catalogue:
        return found[1], found[2]
    game = rulebook_for(catalogue.game)
    book = game.load_book()
    reference = load_locale(REFERENCE_LANGUAGE, game.locales_dir)
    text_problems = check_texts(book, reference, game.shared_names)
    if text_problems:
        raise UserError(text_problems)
    game.shared_values(catalogue)  # a catalogue that cannot give them fails here
    figures = game.verify(book, catalogue)
    for key in [key for key, known in _VERIFIED.items() if known[0].game == catalogue.game]:
        del _VERIFIED[key]
    _VERIFIED[id(catalogue)] = (catalogue, book, figures)
    return book, figures


# Told of each PDF written, with its paper's name and its bytes (the build's summary
# records how it prints from them, without reading the file back).
Told = Callable[[Path, str, bytes], None]


def build_rulebooks(catalogue: Catalogue, theme: Theme, out: OutputDir, *,
                    langs: Sequence[str], paper: str | None = None,
                    papers: Sequence[str] | None = None,
                    progress: Callable[[str], None] | None = None,
                    locales: Path | None = None, told: Told | None = None) -> list[Path]:
    """Write the rulebook of the catalogue's game for each language on each paper, at
    the game's ``GameRulebook.rulebook_path``
    (``<output_dir>/<game>-rules-<lang>-<paper>.pdf``); return the paths.

    ``langs`` are language codes with a catalogue in the game's locales/ or in
    ``locales`` (see :func:`available_languages`); ``papers``, names of PAPERS (or
    ``paper``, one of them). A language's book is laid out once and drawn on each
    paper: the same pages on all.
    """
    return _build(catalogue, theme, out, langs, _papers(paper, papers), progress, locales,
                  booklet=False, told=told)


def booklet_path(catalogue: Catalogue, lang: str, paper: str) -> str:
    """Where a language's booklet goes, relative to the output directory:
    ``<output_dir>/<game>-rules-<lang>-booklet-<paper>.pdf`` beside the game's books."""
    return rulebook_path(catalogue, lang, paper).removesuffix(f"-{paper}.pdf") + (
        f"-booklet-{paper}.pdf")


def build_booklets(catalogue: Catalogue, theme: Theme, out: OutputDir, *,
                   langs: Sequence[str], paper: str | None = None,
                   papers: Sequence[str] | None = None,
                   progress: Callable[[str], None] | None = None,
                   locales: Path | None = None, told: Told | None = None) -> list[Path]:
    """Write the rulebook of the catalogue's game for each language as a booklet on
    each paper (:func:`booklet_path`, :func:`render_booklets`); ``paper`` or ``papers``
    as for :func:`build_rulebooks`. Return the paths."""
    return _build(catalogue, theme, out, langs, _papers(paper, papers), progress, locales,
                  booklet=True, told=told)


def _papers(paper: str | None, papers: Sequence[str] | None) -> Sequence[str]:
    if (paper is None) == (papers is None):
        raise TypeError("give paper or papers, not both or neither")
    chosen = [paper] if paper is not None else list(papers or ())
    unknown = [name for name in chosen if name not in PAPERS]
    if unknown or not chosen:
        raise ValueError(f"papers must be some of {PAPERS}, not {chosen!r}")
    return chosen


def _build(catalogue: Catalogue, theme: Theme, out: OutputDir, langs: Sequence[str],
           papers: Sequence[str], progress: Callable[[str], None] | None,
           locales: Path | None, *, booklet: bool, told: Told | None = None) -> list[Path]:
    book, texts, figures = check_rulebook(catalogue, langs, locales)
    render, path, kind = ((render_booklets, booklet_path, "booklet") if booklet
                          else (render_rulebooks, rulebook_path, "rulebook"))
    written = []
    for locale in texts:
        for paper, pdf in render(book, locale, figures, catalogue, theme, papers).items():
            written.append(out.write_bytes(path(catalogue, locale.lang, paper), pdf))
            if told is not None:
                told(written[-1], paper, pdf)
            if progress is not None:
                progress(f"{kind} {locale.lang} ({locale.name}): {written[-1]}")
    return written


def render_rulebook(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                    catalogue: Catalogue, theme: Theme, paper: str) -> bytes:
    """One language's rulebook on ``paper`` as PDF bytes (figures already verified)."""
    return render_rulebooks(book, locale, figures, catalogue, theme, [paper])[paper]


def render_rulebooks(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                     catalogue: Catalogue, theme: Theme,
                     papers: Sequence[str]) -> dict[str, bytes]:
    """One language's rulebook on each of ``papers`` as PDF bytes: laid out once, on the
    page that fits on every paper, and drawn centred on each."""
    from micropul_print.rulebook import layout

    blocks, texts = page_blocks(book, locale, figures, catalogue, theme)
    return layout.render_papers(blocks, texts, papers, page_budget=book.pages)


def render_booklet(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                   catalogue: Catalogue, theme: Theme, paper: str) -> bytes:
    """One language's rulebook as a booklet to fold, PDF bytes: pages of half the
    paper in one column after a cover, two up on ``paper`` in folding order
    (:mod:`micropul_print.rulebook.booklet`)."""
    return render_booklets(book, locale, figures, catalogue, theme, [paper])[paper]


def render_booklets(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                    catalogue: Catalogue, theme: Theme,
                    papers: Sequence[str]) -> dict[str, bytes]:
    """One language's booklet on each of ``papers``, laid out once (:func:`render_booklet`)."""
    from micropul_print.rulebook import booklet

    blocks, texts = page_blocks(book, locale, figures, catalogue, theme)
    return booklet.render_papers(blocks, texts, papers)


def page_blocks(book: Book, locale: Locale, figures: Sequence[VerifiedFigure],
                catalogue: Catalogue, theme: Theme) -> tuple[
                    list[layout.PageBlock], layout.PageTexts]:
    """What the page layout sets for one language: the blocks, in the language's
    words, with the figures drawn, and the texts of the page furniture."""
    from micropul_print.rulebook import layout

    game = rulebook_for(catalogue.game)
    art = game.art(catalogue, theme)
    shared = game.shared_values(catalogue)
    verified = {v.figure: v for v in figures}
    blocks: list[layout.PageBlock] = []
    for block in book.blocks:
        if isinstance(block, Title):
            blocks.append(layout.TitleBlock(tuple(locale.text(k, shared) for k in block.keys)))
        elif isinstance(block, Heading):
            blocks.append(layout.HeadingBlock(locale.text(block.key, shared), block.level))
        elif isinstance(block, Paragraph):
            blocks.append(layout.TextBlock(locale.text(block.key, shared), block.lead))
        elif isinstance(block, Legend):
            rows = tuple((art.legend(row), locale.text(row.text, shared))
                         for row in block.rows)
            blocks.append(layout.LegendBlock(locale.text(block.caption, shared), rows))
        elif isinstance(block, Figure):
            figure = verified[block]
            drawing, cell = art.figure(figure)
            caption = locale.text(block.caption, {**shared, **figure.values})
            blocks.append(layout.FigureBlock(drawing, caption, cell))
        elif isinstance(block, Bullets):
            blocks.append(layout.BulletsBlock(tuple(locale.text(k, shared) for k in block.keys)))
        elif isinstance(block, Ruling):
            blocks.append(layout.RulingBlock(locale.text(block.heading, shared),
                                             locale.text(block.text, shared), block.anchor))
    texts = layout.PageTexts(
        lang=locale.lang,
        title=locale.text("meta.title"),
        subject=locale.text("meta.subject"),
        author=game.author(catalogue),
        running_head=locale.text("meta.running_head"),
        page_number=locale.texts["meta.page_number"],
        figure_label=locale.texts["meta.figure_label"],
        unbreakable=book.unbreakable,
        language=locale.name,
    )
    return blocks, texts
