"""The English Cellulae rulebook PDF: its words can be copied (with the engine's and
the catalogue's numbers in them), Lato embedded only, A4 and Letter pages, fixed
metadata, identical bytes on every build."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import available_languages, build_rulebooks

A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    catalogue, theme = load_catalogue(shipped_catalogue("cellulae")), load_theme("classic")
    built = {}
    for paper in ("a4", "letter"):
        out = OutputDir(tmp_path_factory.mktemp(paper))
        (path,) = build_rulebooks(catalogue, theme, out, langs=["en"], paper=paper)
        assert path == out.path(f"cellulae/rules/cellulae-rules-en-{paper}.pdf")
        built[paper] = path.read_bytes()
    return built


def _text(pdf: bytes) -> str:
    """Extracted text with hyphenated line ends joined and spaces normalised."""
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", raw))


def test_the_words_can_be_copied(english: dict[str, bytes]) -> None:
    text = _text(english["a4"])
    for phrase in ("Cellulae", "Federico Latini", "Components", "Set-up", "Replication",
                   "Movement", "Contamination", "When you cannot act", "skip your turn",
                   "Ruling of this edition", "The winner", "draw", "Longer games",
                   "micropul-print", "tosses a tile like a coin"):
        assert phrase in text, phrase


def test_numbers_come_from_the_catalogue_and_the_engine(english: dict[str, bytes]) -> None:
    text = _text(english["a4"])
    assert "81 square tiles of 30 mm" in text
    assert "A board of 5 × 5 squares" in text and "It uses 25 tiles" in text
    assert "one tile for each of its squares (25 tiles for the standard board)" in text
    assert "7 × 7, with 49 tiles, and 9 × 9, with 81 tiles" in text
    assert "20 turns in a row have gone by without a replication (10 turns for each" in text
    assert "can start with 2 different replications" in text
    assert "over 2 occupied squares" in text
    assert "shares a side with 3 white tiles, which turn black" in text
    assert "Black has 13 tiles on the board, White 12 tiles: Black wins." in text
    assert "Figure 7." in text


def test_only_embedded_lato_subsets(english: dict[str, bytes]) -> None:
    for pdf in english.values():
        names = set()
        for page in PdfReader(io.BytesIO(pdf)).pages:
            resources: Any = page["/Resources"]
            for reference in resources["/Font"].values():
                font = reference.get_object()
                name = str(font["/BaseFont"])
                names.add(name.split("+")[-1])
                assert not any(s in name for s in STANDARD_14), name
                assert "/FontFile2" in font["/FontDescriptor"], name
        assert names == {"Lato-Regular", "Lato-Bold", "Lato-Italic"}


@pytest.mark.parametrize(("paper", "size"), [("a4", A4_PT), ("letter", LETTER_PT)])
def test_page_size_and_count(english: dict[str, bytes], paper: str,
                             size: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(english[paper]))
    assert 2 <= len(reader.pages) <= 3  # the book is designed for three pages
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == size


def test_fixed_metadata(english: dict[str, bytes]) -> None:
    info = PdfReader(io.BytesIO(english["a4"])).metadata
    assert info is not None
    fields = {key: str(value) for key, value in info.items()}
    assert fields["/Title"] == "Cellulae – rules of the game"
    assert fields["/Subject"].startswith("Rules of Cellulae")
    assert fields["/Author"] == "Federico Latini (game); micropul-print (rulebook)"
    assert fields["/CreationDate"] == fields["/ModDate"] == "D:20000101000000+00'00'"


def test_same_bytes_every_time(english: dict[str, bytes], tmp_path: Path) -> None:
    (path,) = build_rulebooks(load_catalogue(shipped_catalogue("cellulae")),
                              load_theme("classic"), OutputDir(tmp_path), langs=["en"],
                              paper="a4")
    assert path.read_bytes() == english["a4"]


@pytest.fixture(scope="module")
def every_book(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bytes]:
    """Every language of the Cellulae book on both papers, by (language, paper)."""
    catalogue, theme = load_catalogue(shipped_catalogue("cellulae")), load_theme("classic")
    books = {}
    for paper in ("a4", "letter"):
        out = OutputDir(tmp_path_factory.mktemp(f"all-{paper}"))
        for lang in available_languages("cellulae"):
            (path,) = build_rulebooks(catalogue, theme, out, langs=[lang], paper=paper)
            books[lang, paper] = path.read_bytes()
    return books


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", available_languages("cellulae"))
def test_no_line_breaks_a_name_inside(every_book: dict[tuple[str, str], bytes], lang: str,
                                      paper: str) -> None:
    """The book's unbreakable words (Cellulae, micropul-print, Federico, Latini) are
    never split at a line end, and each language fits the three pages."""
    unbreakable = CELLULAE.load_book().unbreakable
    pdf = every_book[lang, paper]
    assert len(PdfReader(io.BytesIO(pdf)).pages) <= 3
    lines = [line.split() for page in PdfReader(io.BytesIO(pdf)).pages
             for line in page.extract_text().split("\n")]
    for line, after in itertools.pairwise(lines):
        if line and after and line[-1].endswith("-"):
            joined = (line[-1] + after[0]).casefold()
            word = (line[-1][:-1] + after[0]).casefold()
            for name in unbreakable:
                if "-" in name:
                    assert name.casefold() not in joined, (line[-1], after[0])
                else:
                    assert not word.lstrip("(“\"'").startswith(name.casefold()), \
                        (line[-1], after[0])


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", available_languages("cellulae"))
def test_sizes_stay_on_one_line_and_the_legend_copies_only_its_words(
        every_book: dict[tuple[str, str], bytes], lang: str, paper: str) -> None:
    lines = [line.strip() for page in PdfReader(io.BytesIO(every_book[lang, paper])).pages
             for line in page.extract_text().split("\n")]
    for line in lines:  # "7 × 7" is never cut after or before its sign
        assert not line.endswith("×") and not line.startswith("×"), line
    # The legend pictures show a square or two of a board: none of the board's hidden
    # coordinates (lone letters and digits) comes between the legend's texts.
    first = next(i for i, line in enumerate(lines) if line.startswith(_start(lang, "white")))
    last = next(i for i, line in enumerate(lines) if line.startswith(_start(lang, "cross")))
    assert first < last
    assert not [line for line in lines[first:last] if re.fullmatch(r"[a-z0-9]", line)]


def _start(lang: str, row: str) -> str:
    """The first three words of a legend row's text, as the PDF shows them."""
    from micropul_print.rulebook.locales import load_locale

    text = load_locale(lang, CELLULAE.locales_dir).texts[f"legend.{row}"]
    return " ".join(text.replace("**", "").replace("*", "").split()[:3])
