"""The English rulebook PDF: extractable words, embedded Lato only, paper sizes,
fixed metadata, identical bytes on every build."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from micropul_print.backends import pdf as pdf_backend
from micropul_print.catalogue.loader import load_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import available_languages, build_rulebooks, rulebook_path
from micropul_print.rulebook.locales import load_locale

A4_PT = (595.28, 841.89)
LETTER_PT = (612.0, 792.0)
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    catalogue, theme = load_catalogue(), load_theme("classic")
    built = {}
    for paper in ("a4", "letter"):
        out = OutputDir(tmp_path_factory.mktemp(paper))
        (path,) = build_rulebooks(catalogue, theme, out, langs=["en"], paper=paper)
        assert path == out.path(rulebook_path(catalogue, "en", paper))
        assert path.name == f"micropul-rules-en-{paper}.pdf" and path.parent.name == "rules"
        built[paper] = path.read_bytes()
    return built


def _text(pdf: bytes) -> str:
    """Extracted text with hyphenated line ends joined and spaces normalised."""
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", raw))


def test_the_words_can_be_copied(english: dict[str, bytes]) -> None:
    text = _text(english["a4"])
    for phrase in ("Micropul", "Components", "Rule #1.", "Rule #2.", "catalyst", "core",
                   "supply", "Solitaire", "There is no tie-break.",
                   "Jean-François Lassonde", "version 1.2.1",
                   "the game ends at that moment and is scored as usual"):
        assert phrase in text, phrase


def test_engine_values_fill_the_captions(english: dict[str, bytes]) -> None:
    text = _text(english["a4"])
    assert "its player takes 3 tiles from the core" in text
    assert "It is worth 6 points to the owner of the stone on it." in text
    assert "That group now carries 2 stones, so nobody will score it." in text
    assert "this tile has 5 legal placements here" in text
    assert "once closed it would be worth 3 points" in text
    assert "48 different square tiles" in text
    assert "Figure 10." in text


def test_only_embedded_lato_subsets(english: dict[str, bytes]) -> None:
    for pdf in english.values():
        reader = PdfReader(io.BytesIO(pdf))
        names = set()
        for page in reader.pages:
            resources: Any = page["/Resources"]
            for reference in resources["/Font"].values():
                font = reference.get_object()
                name = str(font["/BaseFont"])
                names.add(name.split("+")[-1])
                assert not any(s in name for s in STANDARD_14), name
                assert "/FontFile2" in font["/FontDescriptor"], name
        assert names == {"Lato-Regular", "Lato-Bold", "Lato-Italic"}


@pytest.mark.parametrize(("paper", "size"), [("a4", A4_PT), ("letter", LETTER_PT)])
def test_page_size(english: dict[str, bytes], paper: str, size: tuple[float, float]) -> None:
    reader = PdfReader(io.BytesIO(english[paper]))
    assert len(reader.pages) >= 2
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 2), round(float(box.height), 2)) == size


def test_fixed_metadata(english: dict[str, bytes]) -> None:
    info = PdfReader(io.BytesIO(english["a4"])).metadata
    assert info is not None
    fields = {key: str(value) for key, value in info.items()}
    assert fields["/Title"] == "Micropul – rules of the game"
    assert fields["/Subject"].startswith("Rules of Micropul")
    assert fields["/Author"] == "Jean-François Lassonde (game); micropul-print (rulebook)"
    assert fields["/CreationDate"] == fields["/ModDate"] == "D:20000101000000+00'00'"


def test_printed_double_sided_on_the_long_edge_at_actual_size(
        english: dict[str, bytes]) -> None:
    # The pages are centred on the paper: fitted to it, they would shrink.
    for pdf in english.values():
        root: Any = PdfReader(io.BytesIO(pdf)).trailer["/Root"]
        preferences = root["/ViewerPreferences"]
        assert preferences["/PrintScaling"] == "/None"
        assert preferences["/Duplex"] == "/DuplexFlipLongEdge"


def test_same_bytes_every_time(english: dict[str, bytes], tmp_path: Path) -> None:
    (path,) = build_rulebooks(load_catalogue(), load_theme("classic"), OutputDir(tmp_path),
                              langs=["en"], paper="a4")
    assert path.read_bytes() == english["a4"]


def test_replayed_figures_give_the_bytes_painted_ones_give(
        english: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures of a book drawn a second and third time in one process are replays
    of their first painting (backends.pdf.paint_items): the same PDF, byte for byte."""
    monkeypatch.setattr(pdf_backend, "_programs", {})
    built = []
    for turn in range(3):
        (path,) = build_rulebooks(load_catalogue(), load_theme("classic"),
                                  OutputDir(tmp_path / str(turn)), langs=["en"], paper="a4")
        built.append(path.read_bytes())
        replays = [p for p in pdf_backend._programs.values() if p is not None]
        assert bool(replays) == (turn > 0)  # painted, then recorded, then replayed
    assert built[0] == built[1] == built[2] == english["a4"]


def test_page_numbers_on_every_page(english: dict[str, bytes]) -> None:
    reader = PdfReader(io.BytesIO(english["a4"]))
    for number, page in enumerate(reader.pages, start=1):
        assert re.search(rf"(^|\n){number}(\n|$)", page.extract_text()), number


@pytest.fixture(scope="module")
def every_book(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bytes]:
    """Every language on both papers, by (language, paper)."""
    catalogue, theme = load_catalogue(), load_theme("classic")
    books = {}
    for paper in ("a4", "letter"):
        out = OutputDir(tmp_path_factory.mktemp(f"all-{paper}"))
        for lang in available_languages("micropul"):
            (path,) = build_rulebooks(catalogue, theme, out, langs=[lang], paper=paper)
            books[lang, paper] = path.read_bytes()
    return books


def _line_end_breaks(pdf: bytes) -> list[tuple[str, str]]:
    """(last word of a line ending in a hyphen, first word of the next line)."""
    lines = [line.split() for page in PdfReader(io.BytesIO(pdf)).pages
             for line in page.extract_text().split("\n")]
    return [(line[-1].lstrip("(„“«¿\"'"), after[0].rstrip(".,;:!?)”»\"'"))
            for line, after in itertools.pairwise(lines)
            if line and after and line[-1].endswith("-")]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", available_languages("micropul"))
def test_no_line_breaks_a_name_or_a_hyphenated_word_inside(
        every_book: dict[tuple[str, str], bytes], lang: str, paper: str) -> None:
    unbreakable = MICROPUL.load_book().unbreakable
    whole = {w.casefold() for w in unbreakable if "-" in w}
    stems = tuple(w.casefold() for w in unbreakable if "-" not in w)
    written_with_hyphen = {word for text in load_locale(lang, MICROPUL.locales_dir).texts.values()
                           for word in re.findall(r"\w+(?:-\w+)+", text)}
    breaks = _line_end_breaks(every_book[lang, paper])
    assert breaks, "no hyphenated line end at all: the check below would prove nothing"
    for head, tail in breaks:
        if head + tail in written_with_hyphen:  # broken at its own hyphen
            assert (head + tail).casefold() not in whole, (head, tail)
        else:  # broken by the dictionary, inside a word
            word = head[:-1] + tail
            assert "-" not in word, (head, tail)
            assert not word.casefold().startswith(stems), (head, tail)


def _places(pdf: bytes) -> dict[str, tuple[int, float]]:
    """Each extracted text run's (page, x of its line start), by the run's text."""
    places: dict[str, tuple[int, float]] = {}
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages, start=1):
        def visit(text: str, cm: list[float], tm: list[float], *_: object,
                  number: int = number) -> None:
            if text.strip():
                places.setdefault(" ".join(text.split()), (number, round(cm[4] + tm[4], 1)))
        page.extract_text(visitor_text=visit)
    return places


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", available_languages("micropul"))
def test_the_legend_stays_in_one_column(every_book: dict[tuple[str, str], bytes],
                                        lang: str, paper: str) -> None:
    """Its first row, last row and caption on one page, in one column (on Letter it
    used to run on into the next column)."""
    places = _places(every_book[lang, paper])
    locale = load_locale(lang, MICROPUL.locales_dir)
    rows = [" ".join(locale.texts[f"legend.{key}"].split()) for key in ("white", "stone")]
    # The row's first line: a run of 12 or more characters that starts the row's text
    # (not merely a line of body text that begins with the same words).
    found = [next(place for text, place in places.items()
                  if len(text) >= 12 and row.startswith(text.rstrip("-")))
             for row in rows]
    label = locale.texts["meta.figure_label"].replace("{number}", "1") + "."
    caption = places[label]
    assert found[0][0] == found[1][0] == caption[0], (found, caption)
    assert abs(found[0][1] - found[1][1]) < 1, found
    assert abs(caption[1] - found[0][1]) < 60, (caption, found)  # same column
