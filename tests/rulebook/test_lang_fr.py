"""The French rulebooks of both games: French typography in the texts (non-breaking
spaces before « : ; ! ? » and inside guillemets, curly apostrophes, every character in
Lato), and PDFs that keep it: French letters and terms can be copied, the engine's
numbers fill the captions, each book fits its designed pages on A4 and Letter, and no
line starts with a lone colon or ends with an opening guillemet."""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from pypdf import PdfReader

from micropul_print.backends import fonts
from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.kit.outputs import OutputDir
from micropul_print.rulebook import build_rulebooks
from micropul_print.rulebook.locales import Locale, fill, load_locale, plural_branches

GAMES = {"micropul": MICROPUL, "cellulae": CELLULAE}
NBSP = "\u00a0"


def _french(game: str) -> Locale:
    return load_locale("fr", GAMES[game].locales_dir)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bytes]:
    """The French book of each game on each paper, by (game, paper)."""
    theme = load_theme("classic")
    built = {}
    for game in GAMES:
        catalogue = load_catalogue(shipped_catalogue(game))
        for paper in ("a4", "letter"):
            out = OutputDir(tmp_path_factory.mktemp(f"{game}-{paper}"))
            (path,) = build_rulebooks(catalogue, theme, out, langs=["fr"], paper=paper)
            assert path == out.path(GAMES[game].rulebook_path("fr", paper))
            built[game, paper] = path.read_bytes()
    return built


def _lines(pdf: bytes) -> list[str]:
    return [line.strip() for page in PdfReader(io.BytesIO(pdf)).pages
            for line in page.extract_text().split("\n") if line.strip()]


def _text(pdf: bytes) -> str:
    """Extracted text with hyphenated line ends joined and spaces (non-breaking ones
    too) normalised to one space."""
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return re.sub(r"\s+", " ", re.sub(r"(\w)-\n(\w)", r"\1\2", raw))


# -- the texts ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_high_punctuation_and_guillemets_hold_a_non_breaking_space(game: str) -> None:
    """« : ; ! ? » take a non-breaking space before them (after «), so none can start
    a line; Lato has no narrow one (U+202F), so it is U+00A0."""
    for key, text in _french(game).texts.items():
        for match in re.finditer(r"[:;!?»]", text):
            assert text[match.start() - 1] == NBSP, (key, text[match.start() - 12:
                                                              match.end()])
        for match in re.finditer("«", text):
            assert text[match.end()] == NBSP, (key, text[match.start():match.end() + 12])


@pytest.mark.parametrize("game", GAMES)
def test_a_number_stays_with_its_noun(game: str) -> None:
    """Every plural branch starting with the number binds it to its noun, and so does
    every written number before a word ("6 pierres", "30 mm")."""
    for key, text in _french(game).texts.items():
        for _, branches in plural_branches(text):
            for branch in branches.values():
                if branch.startswith("#"):
                    assert branch.startswith("#" + NBSP), (key, branch)
        assert not re.search(r"(?<![\d.])\d+ [^\W\d_]", text), key
        assert "} mm" not in text, key


@pytest.mark.parametrize("game", GAMES)
def test_apostrophes_are_typographic_and_every_character_is_in_lato(game: str) -> None:
    texts = _french(game).texts
    assert not [key for key, text in texts.items() if "'" in text or '"' in text]
    used = set("".join(texts.values()))
    for path in (fonts.REGULAR, fonts.BOLD, fonts.ITALIC):
        cmap = TTFont(str(path), lazy=True).getBestCmap()
        missing = sorted(char for char in used if char != "\n" and ord(char) not in cmap)
        assert missing == [], (path.name, missing)


@pytest.mark.parametrize("game", GAMES)
def test_zero_and_one_take_the_singular(game: str) -> None:
    """French puts 0 with 1 (CLDR one): 'aucune' is not needed, '0 tuile' is right."""
    text = "{n, plural, one {#\u00a0tuile} other {#\u00a0tuiles}}"
    assert [fill(text, {"n": n}, "fr") for n in (0, 1, 2)] == \
        ["0\u00a0tuile", "1\u00a0tuile", "2\u00a0tuiles"]
    assert _french(game).name == "Français"


# -- the PDFs -----------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_each_book_fits_its_designed_pages(books: dict[tuple[str, str], bytes], game: str,
                                           paper: str) -> None:
    designed = GAMES[game].load_book().pages
    assert designed == 3
    assert len(PdfReader(io.BytesIO(books[game, paper])).pages) == designed


@pytest.mark.parametrize("game", GAMES)
def test_french_letters_can_be_copied(books: dict[tuple[str, str], bytes], game: str) -> None:
    text = _text(books[game, "a4"])
    for letter in "éèêàçôùÀ’":
        assert letter in text, letter


def test_micropul_terms_and_engine_numbers(books: dict[tuple[str, str], bytes]) -> None:
    text = _text(books["micropul", "a4"])
    for phrase in ("Micropul", "Matériel",
                   "48 tuiles carrées, toutes différentes, de 30 mm de côté",
                   "Règle nº 1.", "Règle nº 2.", "catalyseur", "noyau", "réserve",
                   "tuile de départ", "Revendiquer un groupe", "Grands micropul",
                   "Précision de cette édition", "Il n’y a pas de départage.",
                   "Jean-François Lassonde", "version 1.2.1",
                   # Captions filled by the rules engine.
                   "cette tuile a ici 5 poses autorisées",
                   "prend 3 tuiles du noyau", "Il rapporte 6 points",
                   "porte désormais 2 pierres", "une fois fermé, il rapporterait 3 points",
                   "prend 1 tuile.", "Figure 10."):
        assert phrase in text, phrase


def test_cellulae_terms_and_engine_numbers(books: dict[tuple[str, str], bytes]) -> None:
    text = _text(books["cellulae", "a4"])
    for phrase in ("Cellulae", "Federico Latini", "81 tuiles carrées de 30 mm",
                   "Un plateau de 5 × 5 cases", "Il reçoit 25 tuiles",
                   "(25 tuiles pour le plateau standard)",
                   "7 × 7, avec 49 tuiles", "9 × 9, avec 81 tuiles",
                   "Réplication", "Déplacement", "Contamination",
                   "20 tours d’affilée se sont écoulés", "10 tours pour chaque joueur",
                   # Captions filled by the rules engine.
                   "commencer par 2 réplications différentes",
                   "2 cases occupées", "3 tuiles blanches, qui deviennent noires",
                   "contamine 2 tuiles noires", "Noir a 13 tuiles sur le plateau",
                   "Blanc 12 tuiles", "Figure 8."):
        assert phrase in text, phrase


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_no_line_starts_with_high_punctuation_or_ends_on_a_guillemet(
        books: dict[tuple[str, str], bytes], game: str, paper: str) -> None:
    for line in _lines(books[game, paper]):
        assert line[0] not in ":;!?»", line
        assert not line.endswith("«"), line


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_words_are_hyphenated_with_the_french_dictionary(
        books: dict[tuple[str, str], bytes], game: str, paper: str) -> None:
    """Some line ends break a word (the French dictionary is in use), never just after
    an apostrophe ("l’-"), and never inside a word of the book's unbreakable list."""
    lines = _lines(books[game, paper])
    stems = tuple(w.casefold() for w in GAMES[game].load_book().unbreakable)
    broken = [(line.split()[-1], after.split()[0])
              for line, after in itertools.pairwise(lines) if line.endswith("-")]
    assert broken, "no hyphenated line end: the checks below would prove nothing"
    for head, tail in broken:
        assert not head.endswith("’-"), (head, tail)
        word = (head[:-1] + tail).lstrip("(«").casefold()
        assert not word.startswith(stems), (head, tail)


@pytest.mark.parametrize("game", GAMES)
def test_the_pdf_says_it_is_french(books: dict[tuple[str, str], bytes], game: str) -> None:
    reader = PdfReader(io.BytesIO(books[game, "a4"]))
    root: Any = reader.trailer["/Root"]
    assert str(root["/Lang"]) == "fr"
    info = reader.metadata
    assert info is not None
    assert str(info["/Title"]) == f"{game.capitalize()} – règles du jeu"
    assert str(info["/Subject"]).startswith(f"Règles de {game.capitalize()}")

