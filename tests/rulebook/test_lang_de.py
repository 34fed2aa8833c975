"""The German rulebooks of both games: German letters, quotation marks and terms in the
copied text, the engine's numbers in German captions, three pages with the largest
figures on A4 and Letter, and line ends broken by the German dictionary."""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

import pyphen  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import available_languages, build_rulebooks, hyphenation, layout
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.locales import load_locale

BOOKS: dict[str, GameRulebook] = {"micropul": MICROPUL, "cellulae": CELLULAE}
GAMES = tuple(BOOKS)
PAPERS = ("a4", "letter")


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory,
           ) -> dict[tuple[str, str], tuple[bytes, list[float]]]:
    """Each game's German book on each paper, with the figure sizes the layout tried."""
    theme = load_theme("classic")
    books = {}
    real_render = layout._render
    with pytest.MonkeyPatch.context() as patch:
        for game, paper in itertools.product(GAMES, PAPERS):
            tried: list[float] = []

            def spy(*args: Any, tried: list[float] = tried, **kwargs: Any) -> layout.Laid:
                if "short" not in kwargs:  # a figure size tried, not a balancing pass
                    tried.append(float(args[1]))
                return real_render(*args, **kwargs)

            patch.setattr(layout, "_render", spy)
            out = OutputDir(tmp_path_factory.mktemp(f"{game}-{paper}"))
            catalogue = load_catalogue(shipped_catalogue(game))
            (path,) = build_rulebooks(catalogue, theme, out, langs=["de"], paper=paper)
            books[game, paper] = path.read_bytes(), tried
    return books


def _text(pdf: bytes) -> str:
    """Extracted text with hyphenated line ends joined and spaces normalised."""
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", raw))


def test_both_books_are_in_german() -> None:
    assert "de" in available_languages("micropul")
    assert "de" in available_languages("cellulae")


@pytest.mark.parametrize("game", GAMES)
def test_the_copied_text_has_german_letters_and_quotation_marks(
        german: dict[tuple[str, str], tuple[bytes, list[float]]], game: str) -> None:
    text = _text(german[game, "a4"][0])
    for letter in "äöüßÄÜ" if game == "micropul" else "äöüß":
        assert letter in text, letter
    if game == "micropul":  # the story's quotation (Cellulae's book quotes no one)
        assert re.search(r"„[^“”\"]+!“", text), "no „…“ quotation"
    for mark in ('"', "”", "’", "«", "»"):  # no English or French quotation marks
        assert mark not in text, mark


def test_the_micropul_terms_and_the_engine_values(
        german: dict[tuple[str, str], tuple[bytes, list[float]]]) -> None:
    text = _text(german["micropul", "a4"][0])
    for phrase in ("Spielmaterial", "Plättchen", "Katalysator", "Vorrat", "Kern",
                   "Startplättchen", "Regel 1.", "Regel 2.", "Solospiel",
                   "Großer Micropul", "Jean-François Lassonde",
                   "Ein Gleichstand wird nicht aufgelöst.",
                   "endet das Spiel dann sofort und wird wie üblich gewertet"):
        assert phrase in text, phrase
    assert "nimmt 3 Plättchen aus dem Kern" in text
    assert "bringt dem Besitzer des Steins darauf 6 Siegpunkte" in text
    assert "Auf dieser Gruppe liegen nun 2 Steine" in text
    assert "hat es hier 5 erlaubte Platzierungen" in text
    assert "geschlossen wäre sie 3 Siegpunkte wert" in text
    assert "also nimmt, wer es gelegt hat, 1 Plättchen" in text  # the singular


def test_the_cellulae_terms_and_the_engine_values(
        german: dict[tuple[str, str], tuple[bytes, list[float]]]) -> None:
    text = _text(german["cellulae", "a4"][0])
    for phrase in ("Spielmaterial", "Vermehrung", "Bewegung", "Ansteckung", "Vorrat",
                   "Schwarz beginnt", "81 quadratische Plättchen von 30 mm",
                   "Ein Brett mit 5 × 5 Feldern", "25 Plättchen beim Standardbrett",
                   "20 Züge in Folge", "10 Züge je Spieler", "Federico Latini"):
        assert phrase in text, phrase
    assert "zwischen 2 verschiedenen Vermehrungen und 3 verschiedenen Bewegungen" in text
    assert "über 2 besetzte Felder" in text
    assert "3 weißen Plättchen, die schwarz werden" in text
    assert "steckt 2 schwarze Plättchen an" in text
    assert "Schwarz hat 13 Plättchen auf dem Brett, Weiß 12 Plättchen" in text


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_each_book_fits_its_pages_with_the_largest_figures(
        german: dict[tuple[str, str], tuple[bytes, list[float]]], game: str,
        paper: str) -> None:
    """German runs long: the text must fit the designed pages without the layout
    trying smaller figures to save a page."""
    pdf, tried = german[game, paper]
    budget = BOOKS[game].load_book().pages
    assert budget == 3
    assert len(PdfReader(io.BytesIO(pdf)).pages) == budget
    assert tried == [layout.FIGURE_TILE_MM[0]]


@pytest.mark.parametrize("game", GAMES)
def test_the_pdf_says_it_is_german(
        german: dict[tuple[str, str], tuple[bytes, list[float]]], game: str) -> None:
    reader = PdfReader(io.BytesIO(german[game, "a4"][0]))
    assert str(reader.root_object["/Lang"]) == "de"


def _breaks(hyphenate: hyphenation.Hyphenator, word: str) -> list[str]:
    return [f"{head}-{tail}" for head, tail in hyphenate(word)]


def test_german_words_break_by_the_german_dictionary() -> None:
    german, english = hyphenation.Hyphenator("de"), hyphenation.Hyphenator("en")
    assert _breaks(german, "Plättchen") == ["Plätt-chen"]
    assert _breaks(english, "Plättchen") == []
    assert _breaks(german, "Vorbereitung") == ["Vorberei-tung", "Vorbe-reitung",
                                               "Vor-bereitung"]
    assert _breaks(english, "Vorbereitung") == ["Vorbere-itung", "Vor-bereitung"]
    assert _breaks(german, "Ansteckung") == ["Anste-ckung", "An-steckung"]  # 2006 rules
    assert _breaks(german, "Katalysatoren")[-1] == "Ka-talysatoren"
    # The same breaks as pyphen's de_DE patterns, with the book's limits.
    de_de = pyphen.Pyphen(lang="de_DE", left=hyphenation.HYPHEN_LEFT,
                          right=hyphenation.HYPHEN_RIGHT)
    for word in ("Spielmaterial", "Katalysatoren", "gegenüberliegende", "Vermehrung",
                 "Startplättchen", "beanspruchen"):
        assert german(word) == list(de_de.iterate(word)), word


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_break_inside_a_word_is_a_german_one(
        german: dict[tuple[str, str], tuple[bytes, list[float]]], game: str,
        paper: str) -> None:
    allowed = hyphenation.Hyphenator("de")
    written_with_hyphen = {word for text in load_locale("de", BOOKS[game].locales_dir)
                           .texts.values() for word in re.findall(r"\w+(?:-\w+)+", text)}
    lines = [line.split() for page in PdfReader(io.BytesIO(german[game, paper][0])).pages
             for line in page.extract_text().split("\n")]
    inside = []
    for line, after in itertools.pairwise(lines):
        if not (line and after and line[-1].endswith("-")):
            continue
        head = line[-1].lstrip("(„")[:-1]
        tail = re.sub(r"[^\w-].*$", "", after[0])
        if f"{head}-{tail}" in written_with_hyphen or "-" in head:  # at its own hyphen
            continue
        inside.append((head, tail))
        assert (head, tail) in allowed(head + tail), (head, tail)
    assert inside, "no word broken by the dictionary: the check above proved nothing"
