"""`micropul-print rulebook`: check only, build, and a clear error for a missing
language (exit 1, no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from micropul_print.cli import main
from micropul_print.rulebook import available_languages


def test_check_writes_nothing_and_reports_the_claims(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulebook", "--check", "--lang", "en", "--out", str(tmp_path)]) == 0
    assert list(tmp_path.iterdir()) == []
    assert capsys.readouterr().err == (
        "rulebook: en: every key and placeholder present; 31 claims in 9 figures hold\n")


def test_check_judges_the_theme_it_was_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--check passed with a theme that was not there (a typo, or the broken theme of an
    init'd folder's configuration), which the build then refused."""
    assert main(["rulebook", "--check", "--lang", "en", "--theme",
                 str(tmp_path / "typo.yaml")]) == 1
    assert capsys.readouterr().err == f"{tmp_path / 'typo.yaml'}: error: file not found\n"
    lacking = tmp_path / "lacking.yaml"
    shipped = Path(__file__).parents[2] / "micropul_print/draw/themes/classic.yaml"
    lacking.write_text("\n".join(line for line in shipped.read_text().splitlines()
                                  if not line.lstrip().startswith("plus:")) + "\n")
    assert main(["rulebook", "--check", "--lang", "en", "--theme", str(lacking)]) == 1
    assert "error: theme 'classic' has no mark 'plus', which Micropul's tiles need" in (
        capsys.readouterr().err)


def test_build_one_language_on_letter(tmp_path: Path) -> None:
    assert main(["rulebook", "--lang", "en", "--paper", "letter", "--out", str(tmp_path),
                 "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "rules").iterdir()) == [
        "micropul-rules-en-booklet-letter.pdf", "micropul-rules-en-letter.pdf"]
    booklet = PdfReader(tmp_path / "rules" / "micropul-rules-en-booklet-letter.pdf")
    # Two sheets folded: 8 half-Letter pages, two up on 4 landscape Letter sides.
    assert len(booklet.pages) == 4
    box = booklet.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (792, 612)


def test_no_booklet_writes_the_rulebook_alone(tmp_path: Path) -> None:
    assert main(["rulebook", "--lang", "en", "--no-booklet", "--out", str(tmp_path),
                 "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "rules").iterdir()) == [
        "micropul-rules-en-a4.pdf", "micropul-rules-en-letter.pdf"]



def test_a_rulebook_an_earlier_build_made_and_this_one_does_not_is_said_removed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # It was removed without a word, where build says so in its summary.
    assert main(["rulebook", "--lang", "en", "--no-booklet", "--out", str(tmp_path),
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["rulebook", "--lang", "en", "--paper", "a4", "--no-booklet", "--out",
                 str(tmp_path)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "note: removed 1 file(s) an earlier build made and this one no longer does: "
        "rules/micropul-rules-en-letter.pdf")
    assert sorted(p.name for p in (tmp_path / "rules").iterdir()) == [
        "micropul-rules-en-a4.pdf"]


@pytest.mark.parametrize("lang", ["zz", "../../../etc/passwd", "en/../../x"])
def test_a_missing_language_is_a_usage_error_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    # As build --lang: a language is a code from the book's closed list, never a path.
    assert main(["rulebook", "--lang", f"en,{lang}", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    known = ",".join(available_languages("micropul"))
    assert err == (f"micropul-print rulebook: error: argument --lang: unknown language "
                   f"'{lang}' for the micropul rulebook; choose from {known}\n")
    assert not (tmp_path / "rules").exists()


def test_checking_needs_no_drawing_library() -> None:
    code = (
        "import sys\n"
        "from micropul_print.cli import main\n"
        "assert main(['rulebook', '--check', '--quiet']) == 0\n"
        "heavy = {'reportlab', 'svgwrite', 'PIL'} & {m.split('.')[0] for m in sys.modules}\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_check_the_cellulae_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulebook", "--game", "cellulae", "--check", "--lang", "en",
                 "--out", str(tmp_path)]) == 0
    assert list(tmp_path.iterdir()) == []
    assert capsys.readouterr().err == (
        "rulebook: en: every key and placeholder present; 39 claims in 7 figures hold\n")


def test_build_the_cellulae_book_under_cellulae(tmp_path: Path) -> None:
    assert main(["rulebook", "--game", "cellulae", "--lang", "en", "--out", str(tmp_path),
                 "--quiet"]) == 0
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.pdf")) == sorted(
        f"cellulae/rules/cellulae-rules-en{kind}-{paper}.pdf"
        for kind in ("-booklet", "") for paper in ("a4", "letter"))


def test_a_false_cellulae_claim_exits_1_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped book with one claim changed: the error names book.yaml's line."""
    from micropul_print.games.cellulae.rulebook import CELLULAE

    book = CELLULAE.book_file.read_text(encoding="utf-8")
    changed = book.replace("{turn: 1, passes: 2, as: passed}", "{turn: 1, passes: 4, as: passed}")
    assert changed != book
    line = changed[:changed.index("passes: 4")].count("\n") + 1
    copy = tmp_path / "book.yaml"
    copy.write_text(changed, encoding="utf-8")
    monkeypatch.setattr(type(CELLULAE), "book_file", property(lambda _self: copy))
    assert main(["rulebook", "--game", "cellulae", "--check", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert err == (f"{copy}:{line}:11: error: figure figures/movement.yaml: claim \"turn 1: "
                   "passes is 4\" is false: the engine says 2\n")


def test_checking_cellulae_needs_no_drawing_library() -> None:
    code = (
        "import sys\n"
        "from micropul_print.cli import main\n"
        "assert main(['rulebook', '--game', 'cellulae', '--check', '--quiet']) == 0\n"
        "heavy = {'reportlab', 'svgwrite', 'PIL'} & {m.split('.')[0] for m in sys.modules}\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_cellulae_face_mark_the_theme_lacks_exits_1_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = Path(__file__).parents[2] / "tiledefs" / "cellulae.yaml"
    text = shipped.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "mark: square-light" in row)
    typo = tmp_path / "typo.yaml"
    typo.write_text(text.replace("mark: square-light", "mark: light"), encoding="utf-8")
    assert main(["rulebook", "--game", "cellulae", "--catalogue", str(typo), "--lang", "en",
                 "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{typo}:{line}:")
    assert "error: theme 'classic' has no mark 'light'" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_game_without_a_rulebook_is_a_located_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from micropul_print.game import registry

    game = registry.get("cellulae")

    class Bookless(type(game)):  # type: ignore[misc]
        rulebook = None

    shipped = registry.get
    monkeypatch.setattr(registry, "get",
                        lambda name: Bookless() if name == "cellulae" else shipped(name))
    monkeypatch.setattr(registry, "games", lambda: [shipped("micropul"), Bookless()])
    assert main(["rulebook", "--game", "cellulae", "--check"]) == 1
    assert capsys.readouterr().err == (
        "micropul-print: error: no rulebook for the game 'cellulae' (rulebooks: micropul)\n")
