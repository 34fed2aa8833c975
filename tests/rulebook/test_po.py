"""Reading a gettext catalogue: any bytes give entries or located problems, never a
traceback; what is written is read back exactly."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from micropul_print.base.errors import UserError
from micropul_print.base.yamlsource import MAX_PROBLEMS
from micropul_print.games.cellulae.rulebook import CELLULAE
from micropul_print.rulebook.locales import load_locale, load_locales
from micropul_print.rulebook.po import PoEntry, format_catalogue, read_catalogue

# Lines shaped like a catalogue's, and any text, mixed: the reader's every branch.
_LINES = st.one_of(
    st.sampled_from(['msgid ""', 'msgstr ""', 'msgctxt "a.b"', 'msgid "x"', 'msgstr "y"',
                     '"more"', "#, fuzzy", "#| msgid \"old\"", "# note", "",
                     'msgid_plural "xs"', 'msgstr[0] "z"', '#~ msgid "gone"', 'msgstr x']),
    st.text(max_size=20))


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINES, max_size=12), st.booleans())
def test_any_catalogue_gives_entries_or_problems(lines: list[str], latin1: bool) -> None:
    data = "\n".join(lines).encode("latin-1" if latin1 else "utf-8", errors="replace")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "xx.po"
        path.write_bytes(data)
        entries, problems = read_catalogue(path)
    assert all(problem.file == str(path) for problem in problems)
    assert all(entry.key for entry in entries)


@settings(deadline=None, max_examples=100)
@given(st.lists(st.tuples(st.from_regex(r"[a-z]{1,8}(\.[a-z_0-9]{1,8}){0,2}", fullmatch=True),
                          st.text(min_size=1), st.text(), st.booleans(), st.text()),
                max_size=6, unique_by=lambda entry: entry[0]))
def test_what_is_written_is_read_back(
        items: list[tuple[str, str, str, bool, str]]) -> None:
    entries = [PoEntry(key, source, text, fuzzy=fuzzy, previous=previous if fuzzy else "")
               for key, source, text, fuzzy, previous in items]
    data = format_catalogue(entries, lang="nl", project="test", header=["A header."])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "nl.po"
        path.write_bytes(data)
        back, problems = read_catalogue(path)
    assert problems == []
    assert [(e.key, e.source, e.text, e.fuzzy, e.previous) for e in back] == [
        (e.key, e.source, e.text, e.fuzzy, e.previous) for e in entries]


def test_a_long_previous_msgid_is_written_as_gettext_reads_it(tmp_path: Path) -> None:
    # Babel wrote it as a wrapped comment, its strings split across lines, which msgfmt
    # refuses ("end-of-line within string"); merged again, it became "# | ..." comments.
    old = ("A movement: the black tile slides along its diagonal over {passed, plural, "
           "one {# occupied square} other {# occupied squares}}, its own and the "
           "opponent’s too.")
    entry = PoEntry("figures.movement", old.replace("too", "alike"), "Een beweging.",
                    fuzzy=True, comments=("A note.",), previous=old)
    data = format_catalogue([entry], lang="nl", project="test")
    assert data.decode("utf-8").split("\n\n")[1].splitlines()[:7] == [
        "# A note.",
        "#, fuzzy",
        '#| msgid ""',
        '#| "A movement: the black tile slides along its diagonal over {passed, "',
        '#| "plural, one {# occupied square} other {# occupied squares}}, its own "',
        '#| "and the opponent’s too."',
        'msgctxt "figures.movement"']
    path = tmp_path / "nl.po"
    path.write_bytes(data)
    back, problems = read_catalogue(path)
    assert problems == []
    assert back == [PoEntry(entry.key, entry.source, entry.text, fuzzy=True, line=20,
                            comments=entry.comments, previous=old)]
    assert format_catalogue(back, lang="nl", project="test") == data


def test_a_byte_order_mark_and_crlf_line_ends_change_nothing() -> None:
    data = Path(__file__).parent / "data" / "translations"
    good, good_problems = read_catalogue(data / "good.po")
    saved, saved_problems = read_catalogue(data / "bom_and_crlf.po")
    assert good_problems == saved_problems == []
    assert [(e.key, e.source, e.text, e.line) for e in saved] == [
        (e.key, e.source, e.text, e.line) for e in good]


# --- bounds: the header's plural forms, the number of problems ------------------------

_HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
           '"{field}\\n"\n\nmsgctxt "a.b"\nmsgid "x"\nmsgid_plural "xs"\nmsgstr[0] "y"\n')


@pytest.mark.parametrize(("field", "message"), [
    # Hundreds of millions of forms: Babel built a list that long for each entry.
    ("Plural-Forms: nplurals=300000000; plural=0;",
     "nplurals=300000000: a language has 1 to 6 plural forms (CLDR's zero, one, two, "
     "few, many and other)"),
    ("Plural-Forms: nplurals=7; plural=0;",
     "nplurals=7: a language has 1 to 6 plural forms (CLDR's zero, one, two, few, many "
     "and other)"),
    ("Plural-Forms: nplurals=0; plural=0;",
     "nplurals=0: a language has 1 to 6 plural forms (CLDR's zero, one, two, few, many "
     "and other)"),
    ("Plural-Forms: nplurals=" + "9" * 5000 + "; plural=0;",
     "nplurals=a number of 5000 digits: a language has 1 to 6 plural forms (CLDR's "
     "zero, one, two, few, many and other)"),
    ("Plural-Forms: nplurals=x; plural=0;",
     "nplurals must be a whole number from 1 to 6, got 'x'"),
    ("POT-Creation-Date: yesterday",
     "Babel cannot read it (time data 'yesterday' does not match format '%Y-%m-%d %H:%M')"),
])
def test_a_header_field_babel_cannot_use_is_refused_at_its_line(
        tmp_path: Path, field: str, message: str) -> None:
    path = tmp_path / "xx.po"
    path.write_text(_HEADER.format(field=field), encoding="utf-8")
    entries, problems = read_catalogue(path)
    name = field.split(":")[0]
    assert entries == []
    assert [str(p) for p in problems] == [
        f"{path}:4:2: error: the header's {name} field: {message}"]


def test_six_plural_forms_are_read(tmp_path: Path) -> None:
    """Arabic's six: the bound is CLDR's, not lower (the entry is still refused, for
    its msgid_plural)."""
    path = tmp_path / "ar.po"
    path.write_text(_HEADER.format(field="Plural-Forms: nplurals=6; plural=0;"),
                    encoding="utf-8")
    _entries, problems = read_catalogue(path)
    assert [p.message for p in problems] == [
        "gettext plural forms (msgid_plural) are not used: write the plural inside the "
        "text, {name, plural, one {# ...} other {# ...}}"]


def _with_unknown_keys(tmp_path: Path, count: int) -> Path:
    """A complete Dutch catalogue of the Cellulae book and ``count`` keys English lacks
    (short ones: the file stays within the 1 MiB input limit)."""
    mine = tmp_path / "mine" / "cellulae"
    mine.mkdir(parents=True)
    english = load_locale("en", CELLULAE.locales_dir)
    entries = [PoEntry(key, text, text) for key, text in english.texts.items()]
    entries += [PoEntry(f"u.{n}", "a", "b") for n in range(count)]
    (mine / "nl.po").write_bytes(format_catalogue(entries, lang="nl", project="t"))
    return mine / "nl.po"


def test_twenty_thousand_unknown_keys_are_capped_and_in_file_order(tmp_path: Path) -> None:
    path = _with_unknown_keys(tmp_path, 20_000)
    entries, _ = read_catalogue(path)
    lines = {e.key: e.line for e in entries}
    with pytest.raises(UserError) as caught:
        load_locales(["nl"], CELLULAE.locales_dir, tmp_path / "mine" / "cellulae")
    shown = [str(d) for d in caught.value.diagnostics]
    assert len(shown) == MAX_PROBLEMS + 1
    assert shown[:MAX_PROBLEMS] == [
        f"{path}:{lines[f'u.{n}']}:1: error: unknown key 'u.{n}' (not in en.yaml)"
        for n in range(MAX_PROBLEMS)]
    assert shown[-1] == (f"{path}:{lines[f'u.{MAX_PROBLEMS}']}:1: error: more than "
                         f"{MAX_PROBLEMS} problems (20000 in all); the first "
                         f"{MAX_PROBLEMS} are shown")


def test_unknown_keys_come_in_the_same_order_whatever_the_hash_seed(tmp_path: Path) -> None:
    """They came from a set: another order each run (each process hashes strings with
    its own seed)."""
    _with_unknown_keys(tmp_path, 30)
    outputs = set()
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "micropul_print", "rulebook", "--game", "cellulae",
             "--locales", str(tmp_path / "mine"), "--lang", "nl", "--check"],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed},
            check=False)
        assert done.returncode == 1, done.stderr
        outputs.add(done.stderr)
    (output,) = outputs
    assert output.count("unknown key") == 30


# Header fields and values a translator's tool or a hostile file may hold.
_HEADER_LINES = st.builds(
    lambda name, value: f'"{name}: {value}\\n"',
    st.sampled_from(["Plural-Forms", "Language", "Content-Type", "POT-Creation-Date",
                     "PO-Revision-Date", "Project-Id-Version", "X-Other"]),
    st.one_of(st.from_regex(r"nplurals=[0-9x]{0,12}; plural=[n0-9?:<>=!%&| ()]{0,12};",
                            fullmatch=True),
              st.sampled_from(["nl", "xx_YY", "../x", "", "text/plain; charset=UTF-8",
                               "2026-11-27 10:00+0000", "9999-99-99 99:99"]),
              st.text(alphabet=st.characters(exclude_characters='"\\\n'), max_size=20)))


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_LINES, _HEADER_LINES), max_size=14))
def test_any_catalogue_gives_entries_or_located_problems(lines: list[str]) -> None:
    """No traceback, and every problem at a line and column of the file, at most
    MAX_PROBLEMS and one more; the work is bounded by the file's size (1 MiB), never
    by a declared count."""
    data = "\n".join(['msgid ""', 'msgstr ""', *lines]).encode("utf-8", "replace")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "xx.po"
        path.write_bytes(data)
        _entries, problems = read_catalogue(path)
    assert len(problems) <= MAX_PROBLEMS + 1
    for problem in problems:
        assert problem.file == str(path)
        assert problem.line >= 1 and problem.col >= 1, problem
        assert str(problem).isprintable(), problem
