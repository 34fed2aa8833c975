"""Translations as gettext catalogues (``<lang>.po``), read and written with Babel, so
that the tools translators already use (Poedit, Weblate, Lokalize, a text editor)
open them.

One entry per text of the English reference: ``msgctxt`` is the text's dotted key,
``msgid`` the English text the translation was made from, ``msgstr`` the
translation. Keeping the English in ``msgid`` is what tells a stale translation
(English changed since) from a current one. gettext's own plural forms
(``msgid_plural``, ``msgstr[n]``) are not used: our plurals are ICU-style and inside
the text, one per placeholder and several per text (docs/rulebook.md).
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import (
    PoFileError,
    PoFileParser,
    generate_po,
    normalize,
    read_po,
    unescape,
)

from micropul_print.base.errors import Diagnostic, printable, quoted
from micropul_print.base.yamlsource import capped, read_input_bytes

# Lines are wrapped as gettext's own tools wrap them; the texts are joined back whole.
WIDTH = 76
# The lines a catalogue is made of: a keyword and a quoted string, a quoted string
# that continues it, a comment, or nothing. Babel reads a string without its quotes
# as the string less its first and last letters; a translator's slip must not do that.
_STRING = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(rf"\s*(?:(?:#~\s*)?(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"
                   rf"{_STRING}|#.*)?\s*")

# Babel reads the "#| msgid" lines of a previous msgid as translator comments too
# ("| msgid ..."): those are not the translator's, and written back they multiply.
_PREVIOUS_COMMENT = re.compile(r'\|\s*(?:(?:msgctxt|msgid|msgid_plural)\s+)?"')
# The header's line naming the file's encoding: "Content-Type: text/plain; charset=UTF-8\n".
_CHARSET = re.compile(r'^\s*"Content-Type:.*?(charset=)([^\s;"\\]*)', re.IGNORECASE)
# The most plural forms a language has: CLDR's six categories (zero, one, two, few,
# many, other). A header declaring more is refused before Babel reads an entry.
MAX_PLURAL_FORMS = 6
_NPLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)", re.IGNORECASE)


def _header_problem(name: str, value: str) -> str | None:
    """What is wrong with one field of a catalogue's header (None: nothing we check)."""
    if name.strip().lower() != "plural-forms":
        return None
    found = _NPLURALS.search(value)
    if found is None:
        return None  # Babel's default, 2
    number = found.group(1)
    if not number.isascii() or not number.isdigit():
        return f"nplurals must be a whole number from 1 to {MAX_PLURAL_FORMS}, got {quoted(number)}"
    if len(number) > 3 or not 1 <= int(number) <= MAX_PLURAL_FORMS:
        shown = number if len(number) <= 12 else f"a number of {len(number)} digits"
        return (f"nplurals={shown}: a language has 1 to {MAX_PLURAL_FORMS} plural forms "
                "(CLDR's zero, one, two, few, many and other)")
    return None


@dataclass(frozen=True)
class PoEntry:
    """One text of a catalogue."""

    key: str  # msgctxt: the dotted key of the English text
    source: str  # msgid: the English text it was translated from
    text: str  # msgstr: the translation; "" when not translated yet
    fuzzy: bool = False  # marked for review (a tool's guess, or the English changed)
    line: int = 0  # the line of its msgstr, 1-based (0 when written, not read)
    comments: tuple[str, ...] = ()  # translator comments ("# ..." above the entry)
    previous: str = ""  # "#| msgid": the English it was translated from, when updated


class _Catalogue(Catalog):
    """A catalogue being read that keeps each entry given again with the msgctxt and
    msgid of an earlier one: Babel merges it into that one, its translation lost. Its
    header's fields are judged before Babel acts on them: a Plural-Forms declaring
    hundreds of millions of forms made Babel build a list that long per entry."""

    def __init__(self) -> None:
        super().__init__(charset="utf-8")
        self.again: list[Message] = []
        self.header_problems: list[tuple[str, str]] = []  # (field, what is wrong)

    def _set_mime_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        for name, value in headers:
            problem = _header_problem(name, value)
            if problem is None:
                try:
                    super()._set_mime_headers([(name, value)])
                except (ValueError, UnknownLocaleError) as exc:  # e.g. nplurals=x
                    problem = f"Babel cannot read it ({printable(str(exc))})"
            if problem is not None:
                self.header_problems.append((name, problem))

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        if id and self.get(id, message.context) is not None:
            self.again.append(message)
        super().__setitem__(id, message)


def read_header(path: Path) -> tuple[list[str], str | None]:
    """The comment lines on top of a catalogue (without "# ") and its Language, to
    keep them when the catalogue is written again."""
    data, _problem = read_input_bytes(path)
    text = (data or b"").decode("utf-8-sig", errors="replace")  # read_catalogue judged it
    lines = []
    for line in _lines(text):
        if not line.startswith("#") or line[1:2] in {",", ":", ".", "|", "~"}:
            break
        lines.append(line[2:] if line.startswith("# ") else line[1:])
    try:
        language = read_po(io.StringIO(text)).locale_identifier
    except (PoFileError, ValueError):
        language = None
    return lines, language


def read_catalogue(path: Path) -> tuple[list[PoEntry], list[Diagnostic]]:
    """The entries of a ``.po`` file, in file order, and its problems (each at its
    line): a file that is not a catalogue, an entry without a key (msgctxt) or with
    gettext plural forms, a key given twice."""
    where = str(path)
    data, problem = read_input_bytes(path)  # a pipe or device is refused, not awaited
    if data is None:
        return [], [Diagnostic(where, 0, 0, problem)]
    # A byte order mark, as some editors write one, is no part of the first line.
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return [], [Diagnostic(where, line, column, "not a UTF-8 gettext catalogue: byte "
                               f"0x{data[exc.start]:02x} is not UTF-8 (save the file as "
                               "UTF-8)")]
    for number, row in enumerate(_lines(text), start=1):
        if not _LINE.fullmatch(row):
            return [], [Diagnostic(where, number, 1, "not a gettext catalogue line: expected "
                                   'a keyword and a "quoted text", a "quoted text" '
                                   "continuing one, or a # comment")]
    try:
        # The text, not the bytes: Babel would decode the lines after the header with
        # the charset it names, garbling a UTF-8 file that names another one.
        catalog = _Catalogue()
        PoFileParser(catalog, abort_invalid=True).parse(io.StringIO(text))
    except PoFileError as exc:
        return [], [Diagnostic(where, exc.lineno + 1, 1,
                               f"not a gettext catalogue: {str(exc).lower()}")]
    except ValueError as exc:  # none known since the header is judged first: at its top
        return [], [Diagnostic(where, 1, 1, f"not a gettext catalogue: {printable(str(exc))}")]
    lines = _lines(text)
    if catalog.header_problems:
        return [], [Diagnostic(where, *_header_field_at(lines, name),
                               f"the header's {printable(name.strip())} field: {problem}")
                    for name, problem in catalog.header_problems]
    if catalog.charset.lower() not in {"utf-8", "utf8"}:
        line, column, named = _charset_at(lines)
        return [], [Diagnostic(where, line, column, "not a UTF-8 gettext catalogue: its "
                               f"header says charset={named or catalog.charset} (write "
                               "charset=UTF-8 and save the file as UTF-8)")]
    entries: list[PoEntry] = []
    problems: list[Diagnostic] = []
    seen: dict[str, int] = {}
    for message in catalog:
        if message.id == "":  # the header
            continue
        line = _msgstr_line(lines, message.lineno or 0)
        if not isinstance(message.id, str) or not isinstance(message.string, str):
            problems.append(Diagnostic(where, line, 1, "gettext plural forms (msgid_plural) "
                                       "are not used: write the plural inside the text, "
                                       "{name, plural, one {# ...} other {# ...}}"))
            continue
        key = message.context
        if not key:
            problems.append(Diagnostic(where, line, 1, "an entry without msgctxt: each "
                                       "text is named by its key, e.g. msgctxt "
                                       "\"placing.rule1\""))
            continue
        if key in seen:
            problems.append(Diagnostic(where, line, 1, f"'{key}' is given twice (first at "
                                       f"line {seen[key]})"))
            continue
        seen[key] = line
        entries.append(PoEntry(
            key=key, source=message.id, text=message.string, fuzzy=message.fuzzy, line=line,
            comments=tuple(c for c in message.user_comments
                           if not _PREVIOUS_COMMENT.match(c)),
            previous=_previous_msgid(lines, message.lineno or 0)))
    for message in catalog.again:
        first = catalog.get(message.id, message.context)
        if message.context and first is not None:  # without one, the first is refused
            problems.append(Diagnostic(
                where, _msgstr_line(lines, message.lineno or 0), 1,
                f"'{message.context}' is given twice (first at line "
                f"{_msgstr_line(lines, first.lineno or 0)})"))
    return entries, capped(problems)


def _previous_msgid(lines: Sequence[str], msgid_line: int) -> str:
    """The ``#| msgid`` of the entry whose msgid is on ``msgid_line``: the English an
    updated translation was made from (Babel writes it but does not read it back)."""
    start = max(msgid_line - 1, 0)
    while start > 0 and lines[start - 1].strip():  # the entry's lines above its msgid
        start -= 1
    parts = []
    for row in lines[start:msgid_line - 1]:
        if not row.startswith("#|"):
            continue
        rest = row[2:].strip()
        if rest.startswith("msgid_plural"):
            break
        rest = rest.removeprefix("msgid").strip()
        if rest.startswith('"') and rest.endswith('"') and len(rest) >= 2:
            parts.append(unescape(rest))
    return "".join(parts)


def _charset_at(lines: Sequence[str]) -> tuple[int, int, str]:
    """Where the header's Content-Type line names its charset (line, column), and the
    charset as the file spells it ("" when the line is not found)."""
    for number, row in enumerate(lines, start=1):
        found = _CHARSET.search(row)
        if found:
            return number, found.start(1) + 1, found.group(2)
    return 0, 0, ""


def _header_field_at(lines: Sequence[str], name: str) -> tuple[int, int]:
    """Where the header's field ``name`` starts (line, column); the file's first line
    when it is not found on one line (a field split across strings)."""
    wanted = re.compile(rf'^\s*"\s*({re.escape(name.strip())})\s*:', re.IGNORECASE)
    for number, row in enumerate(lines, start=1):
        found = wanted.search(row)
        if found:
            return number, found.start(1) + 1
    return 1, 1


def _lines(text: str) -> list[str]:
    """The file's lines as gettext counts them: only a line feed ends one (a text may
    hold the separators str.splitlines also splits at, such as U+2028)."""
    return text.replace("\r\n", "\n").split("\n")


def _msgstr_line(lines: Sequence[str], msgid_line: int) -> int:
    """The line of the msgstr of the entry whose msgid is on ``msgid_line``: where a
    translation's problem is, and where a translator types."""
    for index in range(max(msgid_line - 1, 0), len(lines)):
        if lines[index].startswith("msgstr"):
            return index + 1
    return msgid_line


def format_catalogue(entries: Iterable[PoEntry], *, lang: str | None, project: str,
                     header: Sequence[str] = ()) -> bytes:
    """A ``.po`` file (a template when ``lang`` is None): ``header`` as comment lines
    on top, then the entries in order. The same entries give the same bytes: no
    dates, no line numbers of the English file."""
    top = [f"# {line}".rstrip() for line in header]
    fields = [f"Project-Id-Version: {project}"]
    if lang is not None:
        fields.append(f"Language: {lang}")
    fields += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
               "Content-Transfer-Encoding: 8bit"]
    head = "\n".join([*top, 'msgid ""', 'msgstr ""', *(f'"{f}\\n"' for f in fields)])
    catalog = Catalog(locale=None, fuzzy=False)
    previous = []
    for entry in entries:
        previous.append(entry.previous)
        message = catalog.add(entry.source, entry.text,
                              flags=("fuzzy",) if entry.fuzzy else (),
                              user_comments=entry.comments, context=entry.key)
        # Babel guesses a format from the braces; ours are ICU plurals, not Python's,
        # and a tool checking them as Python's would refuse every plural.
        message.flags -= {"python-format", "python-brace-format"}
    # Babel writes a previous msgid as a wrapped comment, its strings split across
    # lines, which msgfmt refuses: each line is written here, "#| " before each, just
    # above the entry's msgctxt (every entry has one, in the order given).
    olds = iter(previous)
    body = []
    for line in generate_po(catalog, width=WIDTH, no_location=True, omit_header=True):
        if line.startswith("msgctxt "):
            old = next(olds)
            if old:
                first, *rest = normalize(old, width=WIDTH - len("#| ")).split("\n")
                body += [f"#| msgid {first}\n", *(f"#| {part}\n" for part in rest)]
        body.append(line)
    return (head + "\n\n" + "".join(body)).encode("utf-8")
