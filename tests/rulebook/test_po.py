"""Reading a gettext catalogue: any bytes give entries or located problems, never a
traceback; what is written is read back exactly."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
