"""A translator's workflow: a catalogue to start from (--template), one's own
translations beside the shipped ones (--locales DIR), the report of missing and stale
texts (--untranslated), and a build that refuses a half-translated book."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from micropul_print.cli import main
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.rulebook import games_with_rulebooks, rulebook_for
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.locales import load_locale
from micropul_print.rulebook.po import PoEntry, format_catalogue, read_catalogue, read_header

ENGLISH = load_locale("en", CELLULAE.locales_dir)


def _template(tmp_path: Path, *extra: str) -> Path:
    """A new Dutch catalogue of the Cellulae book, as a translator starts one."""
    po = tmp_path / "mine" / "cellulae" / "nl.po"
    assert main(["rulebook", "--game", "cellulae", "--template", str(po), "--lang", "nl",
                 "--quiet", *extra]) == 0
    return po


def _translate(po: Path, change: dict[str, str] | None = None) -> None:
    """Fill every msgstr with its English (a stand-in for a translation)."""
    entries, problems = read_catalogue(po)
    assert problems == []
    done = [PoEntry(e.key, e.source, (change or {}).get(e.key, e.source)) for e in entries]
    po.write_bytes(format_catalogue(done, lang="nl", project="test", header=read_header(po)[0]))


def test_a_template_holds_every_english_text_to_translate(tmp_path: Path) -> None:
    po = _template(tmp_path)
    entries, problems = read_catalogue(po)
    assert problems == []
    assert [e.key for e in entries] == list(ENGLISH.texts)
    assert [e.source for e in entries] == list(ENGLISH.texts.values())
    assert {e.text for e in entries} == {""}
    text = po.read_text(encoding="utf-8")
    assert '"Language: nl\\n"' in text
    assert "# 'nl' needs the branches one, other." in text
    assert "python-brace-format" not in text  # ICU plurals are not Python's braces


def test_the_same_template_twice_is_the_same_bytes(tmp_path: Path) -> None:
    first = _template(tmp_path).read_bytes()
    (tmp_path / "mine" / "cellulae" / "nl.po").unlink()
    assert _template(tmp_path).read_bytes() == first


def test_a_new_language_is_listed_as_missing_until_translated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    po = _template(tmp_path)
    capsys.readouterr()
    # The user's own catalogue: its gaps are warnings, the exit status is 0.
    assert main(["rulebook", "--game", "cellulae", "--locales", str(tmp_path / "mine"),
                 "--untranslated", "nl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    count = len(ENGLISH.texts)
    assert lines[0] == f"cellulae nl (nl, yours): {count} missing, 0 stale"
    assert lines[1] == (f"  {po}:24:1: warning: 'meta.language_name' is not translated "
                        f"(empty msgstr; en.yaml line {ENGLISH.marks['meta.language_name'][0]})")
    assert len(lines) == 1 + count
    _translate(po, {"meta.language_name": "Nederlands"})
    assert main(["rulebook", "--game", "cellulae", "--locales", str(tmp_path / "mine"),
                 "--untranslated", "nl"]) == 0
    assert capsys.readouterr().out == (
        "cellulae nl (Nederlands, yours): every text translated and current\n")


def test_a_language_of_one_book_only_is_reported_for_that_book(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Without --game every book is reported: Micropul has no Dutch, and that is no
    # mistake, since a language may be in one book only.
    _translate(_template(tmp_path), {"meta.language_name": "Nederlands"})
    capsys.readouterr()
    mine = str(tmp_path / "mine")
    assert main(["rulebook", "--locales", mine, "--untranslated", "nl"]) == 0
    assert capsys.readouterr().out == (
        "cellulae nl (Nederlands, yours): every text translated and current\n")
    assert main(["rulebook", "--locales", mine, "--untranslated", "nl,xx"]) == 2
    every = ["en", *sorted({lang for game in games_with_rulebooks()
                            for lang in rulebook_for(game).languages()[1:]} | {"nl"})]
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print rulebook: error: argument --untranslated: unknown language 'xx' for "
        f"any rulebook; choose from {','.join(every)} (a catalogue of yours is read from "
        f"{Path(mine) / '<game>' / 'xx.po'})")
    assert main(["rulebook", "--game", "micropul", "--locales", mine, "--untranslated",
                 "nl"]) == 2
    # With --game, a folder holding nothing for that book is the mistake, said first.
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print rulebook: error: argument --locales: no translations for the "
        f"micropul rulebook in {mine!r}: they are read from "
        f"{Path(mine) / 'micropul' / '<lang>.po'}")


def test_a_half_translated_book_is_refused_at_each_gap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    po = _template(tmp_path)
    _translate(po, {"story": ""})
    line = next(e.line for e in read_catalogue(po)[0] if e.key == "story")
    capsys.readouterr()
    assert main(["rulebook", "--game", "cellulae", "--locales", str(tmp_path / "mine"),
                 "--lang", "nl", "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        f"{po}:{line}:1: error: 'story' is not translated (empty msgstr; en.yaml line "
        f"{ENGLISH.marks['story'][0]})\n")
    assert not (tmp_path / "out").exists()


# The movement caption with its {passed} plural, its first words emphasised.
_MOVEMENT = ("{passed, plural, one {# occupied square} other {# occupied squares}}, its "
             "own and the opponent’s alike.")


@pytest.mark.parametrize("emphasised", ["**a *b** c*", "*a **b* c**"])
def test_overlapping_bold_and_italic_are_refused_at_their_entry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], emphasised: str) -> None:
    """reportlab cannot read tags that overlap: the build ended with an internal error."""
    po = _template(tmp_path)
    _translate(po, {"figures.movement": f"{emphasised}: {_MOVEMENT}"})
    line = next(e.line for e in read_catalogue(po)[0] if e.key == "figures.movement")
    mine = str(tmp_path / "mine")
    error = (f"{po}:{line}:1: error: 'figures.movement': **bold** and *italic* overlap: "
             "close the one opened last first (***text*** is both)\n")
    capsys.readouterr()
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--lang", "nl",
                 "--check", "--quiet"]) == 1
    assert capsys.readouterr().err == error
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--lang", "nl",
                 "--out", str(tmp_path / "out"), "--quiet"]) == 1
    assert capsys.readouterr().err == error
    assert not (tmp_path / "out").exists()


def test_bold_italic_builds(tmp_path: Path) -> None:
    po = _template(tmp_path)
    _translate(po, {"figures.movement": f"***A movement***: {_MOVEMENT}"})
    assert main(["rulebook", "--game", "cellulae", "--locales", str(tmp_path / "mine"),
                 "--lang", "nl", "--no-booklet", "--paper", "a4", "--out",
                 str(tmp_path / "out"), "--quiet"]) == 0
    pdf = PdfReader(tmp_path / "out" / "cellulae" / "rules" / "cellulae-rules-nl-a4.pdf")
    text = "".join(page.extract_text() for page in pdf.pages)
    assert "A movement: 2 occupied squares" in text and "*" not in text


def test_a_new_language_from_ones_own_folder_builds(tmp_path: Path) -> None:
    po = _template(tmp_path)
    _translate(po, {"meta.language_name": "Nederlands"})
    mine = str(tmp_path / "mine")
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--check", "--lang",
                 "nl", "--quiet"]) == 0
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--lang", "nl",
                 "--no-booklet", "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "out" / "cellulae" / "rules").iterdir()) == [
        "cellulae-rules-nl-a4.pdf", "cellulae-rules-nl-letter.pdf"]


def test_a_changed_english_text_makes_its_translation_stale_until_reviewed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    po = _template(tmp_path)
    _translate(po, {"meta.language_name": "Nederlands", "story": "Een verhaal."})
    # As if the English of `story` had been rewritten after the translation.
    entries, _ = read_catalogue(po)
    po.write_bytes(format_catalogue(
        [PoEntry(e.key, "Once upon a time." if e.key == "story" else e.source, e.text)
         for e in entries], lang="nl", project="test", header=read_header(po)[0]))
    line = next(e.line for e in read_catalogue(po)[0] if e.key == "story")
    mine = str(tmp_path / "mine")
    capsys.readouterr()
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--untranslated"]) == 0
    out = capsys.readouterr().out
    assert "cellulae nl (Nederlands, yours): 0 missing, 1 stale\n" in out
    assert (f"  {po}:{line}:1: warning: 'story' is stale: its msgid is not the English "
            f"text (en.yaml line {ENGLISH.marks['story'][0]}), which has changed since it "
            "was translated\n") in out
    # --template brings the catalogue up to date: today's English, the old one kept as
    # the previous msgid, the translation kept and marked fuzzy for review.
    assert main(["rulebook", "--game", "cellulae", "--template", str(po), "--quiet"]) == 0
    story = next(e for e in read_catalogue(po)[0] if e.key == "story")
    assert (story.source, story.text, story.fuzzy) == (ENGLISH.texts["story"],
                                                       "Een verhaal.", True)
    assert story.previous == "Once upon a time."
    assert po.read_text(encoding="utf-8").startswith("# Cellulae rulebook: a translation")
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--untranslated"]) == 0
    assert f"  {po}:{story.line}:1: warning: 'story' is marked fuzzy" in capsys.readouterr().out
    # The translator reviews it and removes the flag: nothing left to do.
    po.write_text(po.read_text(encoding="utf-8").replace("#, fuzzy\n", ""), encoding="utf-8")
    assert main(["rulebook", "--game", "cellulae", "--locales", mine,
                 "--untranslated", "nl"]) == 0
    assert capsys.readouterr().out == (
        "cellulae nl (Nederlands, yours): every text translated and current\n")


def test_merging_a_long_changed_text_twice_gives_the_same_file(tmp_path: Path) -> None:
    # Its previous msgid, on several lines, was written as msgfmt refuses it, then
    # cut to its last line with "# | ..." comments added by the next merge.
    po = _template(tmp_path)
    old = ENGLISH.texts["figures.movement"].replace("opponent’s alike", "opponent’s too")
    _translate(po, {"figures.movement": "Een beweging."})
    entries, _ = read_catalogue(po)
    po.write_bytes(format_catalogue(
        [PoEntry(e.key, old if e.key == "figures.movement" else e.source, e.text)
         for e in entries], lang="nl", project="test", header=read_header(po)[0]))
    assert main(["rulebook", "--game", "cellulae", "--template", str(po), "--quiet"]) == 0
    once = po.read_bytes()
    assert main(["rulebook", "--game", "cellulae", "--template", str(po), "--quiet"]) == 0
    assert po.read_bytes() == once
    movement = next(e for e in read_catalogue(po)[0] if e.key == "figures.movement")
    assert (movement.previous, movement.comments, movement.fuzzy) == (old, (), True)
    assert once.decode("utf-8").count("\n#| ") == 4  # msgid "", then its three lines


def test_a_catalogue_naming_another_charset_is_refused_and_left_as_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Its UTF-8 letters were read as Latin-1 and written back garbled (für: fÃ¼r).
    po = _template(tmp_path)
    _translate(po, {"meta.language_name": "Nederlands für"})
    text = po.read_text(encoding="utf-8").replace("charset=UTF-8", "charset=ISO-8859-1")
    po.write_text(text, encoding="utf-8")
    line = text[:text.index("charset=")].count("\n") + 1
    message = (f"{po}:{line}:28: error: not a UTF-8 gettext catalogue: its header says "
               "charset=ISO-8859-1 (write charset=UTF-8 and save the file as UTF-8)\n")
    capsys.readouterr()
    assert main(["rulebook", "--game", "cellulae", "--template", str(po)]) == 1
    assert capsys.readouterr().err == message
    assert po.read_text(encoding="utf-8") == text
    mine = str(tmp_path / "mine")
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--untranslated"]) == 1
    assert capsys.readouterr().err == message
    assert main(["rulebook", "--game", "cellulae", "--locales", mine, "--lang", "nl",
                 "--check"]) == 1
    assert capsys.readouterr().err == message


def _shipped_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> Path:
    """A copy of one game's shipped texts, used in their place."""
    copy = tmp_path / "shipped"
    shutil.copytree(rulebook_for(game).locales_dir, copy)
    monkeypatch.setattr(GameRulebook, "locales_dir", property(
        lambda book: copy if book.game == game else book.folder / "locales"))
    return copy


def test_every_shipped_translation_is_complete_and_current(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulebook", "--untranslated"]) == 0
    out = capsys.readouterr().out
    expected = [f"{game} {lang} " for game in games_with_rulebooks()
                for lang in rulebook_for(game).languages()[1:]]
    assert [line[:len(start)] for line, start in zip(out.splitlines(), expected,
                                                      strict=True)] == expected
    assert out.count(": every text translated and current\n") == len(expected)


def test_a_gap_in_a_shipped_translation_fails_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = _shipped_copy(tmp_path, monkeypatch, "cellulae")
    french = copy / "fr.po"
    entries, _ = read_catalogue(french)
    french.write_bytes(format_catalogue([e for e in entries if e.key != "story"], lang="fr",
                                        project="test"))
    assert main(["rulebook", "--game", "cellulae", "--untranslated", "fr,de"]) == 1
    assert capsys.readouterr().out == (
        "cellulae fr (Français): 1 missing, 0 stale\n"
        f"  {french}: error: missing key 'story' (en.yaml line {ENGLISH.marks['story'][0]})\n"
        "cellulae de (Deutsch): every text translated and current\n")


def test_untranslated_takes_its_languages_from_lang_too(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--untranslated --lang pl reported every language: --lang was left unread."""
    assert main(["rulebook", "--game", "cellulae", "--untranslated", "--lang", "pl,de"]) == 0
    assert capsys.readouterr().out == (
        "cellulae pl (Polski): every text translated and current\n"
        "cellulae de (Deutsch): every text translated and current\n")
    # Its own languages win.
    assert main(["rulebook", "--game", "cellulae", "--untranslated", "fr",
                 "--lang", "pl"]) == 0
    assert capsys.readouterr().out.startswith("cellulae fr (")


def test_a_build_of_a_language_one_game_lacks_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = _shipped_copy(tmp_path, monkeypatch, "cellulae")
    (copy / "fr.po").unlink()
    out = tmp_path / "out"
    assert main(["build", "--game", "all", "--lang", "fr", "--quiet", "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"{copy}: error: the Cellulae rulebook has no language 'fr' (it has: "
        f"{', '.join(rulebook_for('cellulae').languages())}); leave --lang out, or choose "
        "among them\n")
    assert not out.exists()


@pytest.mark.parametrize("option", [["--untranslated"], ["--check"]])
def test_locales_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  option: list[str]) -> None:
    absent = str(tmp_path / "absent")
    assert main(["rulebook", "--locales", absent, *option]) == 2
    assert capsys.readouterr().err == (
        f"micropul-print rulebook: error: argument --locales: no folder {absent!r}\n")


@pytest.mark.parametrize(("name", "lang", "message"), [
    ("x.po", "../nl", "argument --lang: not a language code: '../nl' (two or three "
                      "lower-case letters, optionally _ and a region: nl, pt_BR)"),
    ("x.po", "NL", "argument --lang: not a language code: 'NL' (two or three lower-case "
                   "letters, optionally _ and a region: nl, pt_BR)"),
    ("nl.po", "de", "argument --template: nl.po holds language 'nl' (--locales reads "
                    "DIR/<game>/<lang>.po): name it de.po"),
    ("x.po", "en", "argument --lang: 'en' is the English source of every translation, "
                   "not one of them"),
    ("en.po", None, "argument --lang: 'en' is the English source of every translation, "
                    "not one of them"),
    # Names --locales never reads: the catalogue was written, then silently ignored.
    *((name, None, f"argument --template: {name} is not named after a language code (two "
                   "or three lower-case letters, optionally _ and a region: nl.po, "
                   "pt_BR.po; --locales reads DIR/<game>/<lang>.po)")
      for name in ("nl-BE.po", "NL.po", "pt_br.po")),
    ("NL.po", "nl", "argument --template: NL.po is not named after a language code (two or "
                    "three lower-case letters, optionally _ and a region: nl.po, pt_BR.po; "
                    "--locales reads DIR/<game>/<lang>.po): name it nl.po"),
])
def test_a_template_s_language_is_a_code_other_than_english_and_its_file_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, lang: str | None,
        message: str) -> None:
    target = tmp_path / name
    assert main(["rulebook", "--template", str(target),
                 *(["--lang", lang] if lang else [])]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"micropul-print rulebook: error: {message}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [["--check", "--lang", "nl"], ["--untranslated"]])
def test_a_catalogue_not_named_after_a_language_is_reported_not_ignored(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    po = _template(tmp_path)
    _translate(po)
    shutil.copy(po, po.with_name("nl-BE.po"))
    shutil.copy(po, po.with_name("NL.po"))
    capsys.readouterr()
    assert main(["rulebook", "--game", "cellulae", "--locales", "mine", *argv]) == 1
    assert capsys.readouterr().err == "".join(
        f"mine/cellulae/{name}: error: not a catalogue --locales reads: its name is not a "
        "language code (two or three lower-case letters, optionally _ and a region: nl.po, "
        "pt_BR.po)\n" for name in ("NL.po", "nl-BE.po"))


def test_a_template_takes_its_language_from_its_file_name(tmp_path: Path) -> None:
    po = tmp_path / "pt_BR.po"
    assert main(["rulebook", "--template", str(po), "--quiet"]) == 0
    text = po.read_text(encoding="utf-8")
    assert '"Language: pt_BR\\n"' in text
    assert "# 'pt_BR' needs the branches one, other." in text


def test_a_template_is_one_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulebook", "--template", str(tmp_path / "x.po"), "--lang", "nl,de"]) == 2
    assert capsys.readouterr().err == (
        "micropul-print rulebook: error: argument --lang: --template writes one language's "
        "catalogue: give one code, not nl,de\n")
    assert not (tmp_path / "x.po").exists()


@pytest.mark.parametrize("argv", [["--lang", "nl", "--check"], ["--check"], [],
                                  ["--untranslated"], ["--lang", "de", "--no-booklet"]])
def test_a_catalogue_outside_its_game_s_folder_is_pointed_to(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """mine/nl.po instead of mine/cellulae/nl.po was read by no command, which went on
    with the shipped languages as though --locales had not been given."""
    po = _template(tmp_path)
    po.rename(tmp_path / "mine" / "nl.po")
    (tmp_path / "mine" / "cellulae").rmdir()
    mine = tmp_path / "mine"
    out = tmp_path / "out"
    assert main(["rulebook", "--game", "cellulae", "--locales", str(mine), "--out", str(out),
                 *argv]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print rulebook: error: argument --locales: no translations for the "
        f"cellulae rulebook in {str(mine)!r}: they are read from "
        f"{mine / 'cellulae' / '<lang>.po'}, and {mine} holds nl.po directly: move it "
        f"into {mine / 'cellulae'}")
    assert not out.exists()


def test_a_locales_folder_with_nothing_for_any_book_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --game a folder may hold one book's translations only; one holding none
    for any book (here only the English source, which is never replaced) is said."""
    mine = tmp_path / "mine"
    (mine / "micropul").mkdir(parents=True)
    (mine / "micropul" / "en.po").write_text("", encoding="utf-8")
    assert main(["rulebook", "--locales", str(mine), "--untranslated"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print rulebook: error: argument --locales: no translations for any "
        f"rulebook in {str(mine)!r}: they are read from {mine / '<game>' / '<lang>.po'} "
        "(<game>: micropul or cellulae)")
    assert main(["rulebook", "--locales", str(mine), "--check"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print rulebook: error: argument --locales: no translations for the "
        f"micropul rulebook in {str(mine)!r}: they are read from "
        f"{mine / 'micropul' / '<lang>.po'}")


@pytest.mark.parametrize("argv", [["--check"], ["--untranslated", "nl"]])
def test_a_pipe_among_ones_translations_is_refused_without_waiting(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a FIFO waits for a writer: reading it as a .po file hung."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine" / "cellulae").mkdir(parents=True)
    os.mkfifo(tmp_path / "mine" / "cellulae" / "nl.po")
    code = main(["rulebook", "--game", "cellulae", "--locales", "mine", *argv])
    assert (code, capsys.readouterr().err) == (
        1, "mine/cellulae/nl.po: error: is a pipe, not a file\n")


def test_a_configured_locales_folder_with_nothing_for_the_book_is_said_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "micropul-print.toml").write_text('[rulebook]\nlocales = "mine"\n',
                                                 encoding="utf-8")
    assert main(["rulebook", "--check"]) == 1
    assert capsys.readouterr().err == (
        "micropul-print.toml:2:11: error: locales: no translations for the micropul "
        "rulebook in 'mine': they are read from mine/micropul/<lang>.po\n")
