"""Safe YAML input as a tree of located values; knows nothing about any game.

Files are parsed into PyYAML *events* (libyaml's C parser when available) and composed
here, iteratively, into immutable nodes that carry their file, line and column. Nothing
is ever constructed from a tag, so no YAML input can run code; anything beyond the
standard tags is refused. Composing ourselves (rather than ``yaml.compose``) lets us
report duplicate keys, bound alias expansion before it happens, refuse recursive
aliases and deep nesting (libyaml's composer recurses in C and crashes on a few
hundred thousand nested brackets), and point at the exact alias or tag at fault.

Plain scalars are resolved by the YAML 1.2 core schema (:func:`read_number`), not by
PyYAML's YAML 1.1 rules: ``yes``, ``on``, ``1:00``, ``0b101`` and ``1_000`` are text,
and every number is read by one function that counts its digits before converting it.
The limits are listed in docs/catalogue.md ("Limits").

Every problem is a :class:`~micropul_print.base.errors.Diagnostic`; nothing here raises on
bad input. Lines and columns are 1-based; columns count characters.
"""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field
from pathlib import Path
from typing import ClassVar, Protocol, TypeVar

import yaml

from micropul_print.base.errors import Diagnostic, Severity, errors_in, quoted
from micropul_print.base.filekind import kind_of_mode
from micropul_print.base.record import record

T = TypeVar("T")

MAX_BYTES = 1024 * 1024  # refuse larger files before reading them
MAX_NODES = 100_000  # nodes after expanding every alias
MAX_DEPTH = 100  # nested lists/mappings
MAX_PROBLEMS = 100  # the reader stops after this many problems: the rest is noise
# Numbers: digits counted before any conversion, and a size every JSON reader keeps
# exact (2**53 - 1), which also keeps integer keys from sharing a hash.
MAX_NUMBER_DIGITS = 30
MAX_NUMBER = 2**53 - 1

ScalarValue = str | int | float | bool | None

_YAML_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = ("str", "int", "float", "bool", "null")
_STANDARD_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!map and !!seq"

_Parser: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"
try:
    _Parser = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml: same events, slower
    _Parser = yaml.SafeLoader


# ---------------------------------------------------------------------------
# Plain scalars: the YAML 1.2 core schema

_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True,
          "false": False, "False": False, "FALSE": False}
# Booleans of YAML 1.1 only; text in YAML 1.2 (expect_bool says so).
YAML11_BOOLS = frozenset(
    ("y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
     "on", "On", "ON", "off", "Off", "OFF")
)
# [0-9], never \d: only ASCII digits make a number (int() would take '٤' or '²').
_DECIMAL = re.compile(r"[-+]?[0-9]+")
_OCTAL = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_DECIMAL_FRACTION = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INFINITY = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")
# Numbers of YAML 1.1 only, to explain why they are text (linear: no nested choices).
# Patterns, compiled (by re's cache) only when a text needs explaining: compiling
# _YAML11_NUMBER took ~2 ms of every command that reads a file.
_SEXAGESIMAL = r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"
_YAML11_NUMBER = (
    r"[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?"
    r"|\.[0-9_]+(?:[eE][-+][0-9]+)?)"
)
_FOLLOWS_12 = "YAML 1.2, which this tool follows, reads it as text"


@record
class Number:
    """What :func:`read_number` made of a text."""

    value: int | float | None  # None: not a number this tool accepts
    note: str = ""  # why not, or how other YAML readers read it differently


def read_number(text: str, *, explain: bool = True) -> Number:
    """The number ``text`` is written as, by the YAML 1.2 core schema: whole numbers in
    decimal (``-12``), octal (``0o17``) or hexadecimal (``0x1f``); decimals with an
    optional exponent (``2.5``, ``.5``, ``1e3``); ``.inf``, ``-.inf`` and ``.nan``. Only
    the ASCII digits 0-9 count. A number of more than MAX_NUMBER_DIGITS digits (counted
    before anything is converted) or larger than MAX_NUMBER is refused, with a note.

    The one reader of numbers: YAML resolution and every reader that takes a number
    from a file's text go through it. ``explain=False``: no note on a text that is not a
    number (resolving a plain scalar needs only the value)."""
    if _DECIMAL.fullmatch(text):
        body, base = text.lstrip("+-"), 10
        digits = len(body)
    elif _OCTAL.fullmatch(text) or _HEX.fullmatch(text):
        body, base = text, 8 if text[1] == "o" else 16
        digits = len(text) - 2
    elif _DECIMAL_FRACTION.fullmatch(text):
        body, base = text, 0  # 0: a decimal fraction
        digits = sum(char.isdigit() for char in text)
    elif _INFINITY.fullmatch(text):
        return Number(-math.inf if text.startswith("-") else math.inf)
    elif _NAN.fullmatch(text):
        return Number(math.nan)
    else:
        return Number(None, _why_text(text) if explain else "")
    if digits > MAX_NUMBER_DIGITS:
        return Number(None, f"a number of {digits} digits; at most {MAX_NUMBER_DIGITS} "
                            "are allowed")
    value: int | float = (
        float(text) if base == 0 else int(text, 10) if base == 10 else int(body[2:], base)
    )
    if not abs(value) <= MAX_NUMBER:
        return Number(None, f"beyond ±{MAX_NUMBER} (2^53 - 1), the largest size allowed")
    note = ""
    if base == 10 and len(body) > 1 and body.startswith("0"):
        octal = body.lstrip("0")
        if octal and text == body and not set(octal) & {"8", "9"}:
            octal = f" (or 0o{octal} for octal)"
        else:
            octal = ""
        note = f"YAML 1.1 readers take a leading 0 for octal; write {value}{octal}"
    return Number(value, note)


def _why_text(text: str) -> str:
    """Why a text that looks like a number is not one, or ""."""
    if re.fullmatch(_SEXAGESIMAL, text):
        return f"YAML 1.1 read it as a base-60 number; {_FOLLOWS_12}"
    if re.fullmatch(_YAML11_NUMBER, text):
        if "0b" in text:
            kind = "a binary number"
        elif "_" in text:
            kind = "a number, skipping the '_'"
        else:
            kind = "a number"
        return f"YAML 1.1 read it as {kind}; {_FOLLOWS_12}"
    for char in text:
        if not char.isascii() and (char.isdigit() or char.isnumeric()):
            return f"{describe_character(char)} is not one of the digits 0-9"
    return ""


_NUMBER_STARTS = frozenset("+-.0123456789")


def _resolve(text: str) -> tuple[str, ScalarValue]:
    """(tag, value) of a plain scalar, by the YAML 1.2 core schema."""
    if text in _NULLS:
        return "null", None
    boolean = _BOOLS.get(text)
    if boolean is not None:
        return "bool", boolean
    if text[0] not in _NUMBER_STARTS:  # most text: no need to look further
        return "str", text
    number = read_number(text, explain=False).value
    if number is None:
        return "str", text
    return ("int" if isinstance(number, int) else "float"), number


def _construct(tag: str, text: str) -> tuple[bool, ScalarValue, str]:
    """(valid, value, note) of a scalar tagged ``!!tag``; the note may say why not."""
    if tag == "null":
        return text in _NULLS, None, ""
    if tag == "bool":
        note = f"YAML 1.1 read it as a boolean; {_FOLLOWS_12}" if text in YAML11_BOOLS else ""
        return text in _BOOLS, _BOOLS.get(text), note
    number = read_number(text)
    if tag == "int" and isinstance(number.value, int):
        return True, number.value, ""
    if tag == "float" and number.value is not None:
        return True, float(number.value), ""
    return False, None, number.note


# ---------------------------------------------------------------------------
# Characters

# YAML's printable characters: anything else may not appear in a file at all.
_NOT_YAML = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# What escapes in double quotes can still put into a value, and this tool refuses:
# control characters other than tab and line break, and halves of UTF-16 pairs.
_NOT_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# Line breaks as the YAML parsers count them, for positions we compute ourselves.
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_C0_NAMES = (
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
    "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
    "SUB", "ESC", "FS", "GS", "RS", "US",
)


def describe_character(char: str) -> str:
    """``U+0007 (BEL)``: a character named so that the message itself stays readable."""
    code = ord(char)
    if code < 0x20:
        name = _C0_NAMES[code]
    elif code == 0x7F:
        name = "DEL"
    elif 0x80 <= code <= 0x9F:
        name = "a C1 control character"
    elif 0xD800 <= code <= 0xDFFF:
        name = "a lone UTF-16 surrogate"
    elif 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
        name = "a noncharacter"
    elif unicodedata.category(char) == "Co":
        name = "a private-use character"
    else:
        name = unicodedata.name(char, "") or "an unassigned code point"
    return f"U+{code:04X} ({name})"


def _where_in(file: str, text: str, index: int) -> Where:
    """Where character ``index`` of ``text`` lies, counting lines as YAML does."""
    line, start = 1, 0
    for match in _LINE_BREAK.finditer(text, 0, index):
        line, start = line + 1, match.end()
    return Where(file, line, index - start + 1)


@record
class Where:
    """A place in an input file; ``line`` and ``col`` are 1-based, 0 means unknown."""

    file: str
    line: int
    col: int

    def diagnostic(self, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
        return Diagnostic(self.file, self.line, self.col, message, severity)


@record(eq=False)
class YamlNode:
    """A value read from a YAML file, with where it starts."""

    where: Where
    kind: ClassVar[str] = "a value"

    @property
    def file(self) -> str:
        return self.where.file

    @property
    def line(self) -> int:
        return self.where.line

    @property
    def col(self) -> int:
        return self.where.col

    def diagnostic(self, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
        return self.where.diagnostic(message, severity)


@record(eq=False)
class YamlScalar(YamlNode):
    """A scalar. ``raw`` is its text as written (after unquoting), so ``1`` in
    ``symbol: 1`` can be read as the symbol "1"; ``value`` is the resolved value."""

    value: ScalarValue
    raw: str
    tag: str  # one of "str", "int", "float", "bool", "null"
    style: str | None = None  # None: plain; "'" or '"': quoted; "|" or ">": block
    kind: ClassVar[str] = "a scalar"

    def where_at(self, offset: int) -> Where:
        """Where character ``offset`` of ``raw`` lies in the file, when that is certain
        (a one-line plain or simply quoted scalar); otherwise where the scalar starts."""
        if "\n" in self.raw or not 0 <= offset <= len(self.raw):
            return self.where
        if self.style is None:
            shift = 0
        elif self.style == "'" and "'" not in self.raw:
            shift = 1  # double quotes may hide escapes: no way back to columns
        else:
            return self.where
        return Where(self.file, self.line, self.col + shift + offset)


@record(eq=False)
class YamlSequence(YamlNode):
    items: tuple[YamlNode, ...]
    kind: ClassVar[str] = "a list"


@record(eq=False)
class YamlMapping(YamlNode):
    """A mapping with scalar keys, in file order; keys are looked up by their text."""

    entries: tuple[tuple[YamlScalar, YamlNode], ...]
    kind: ClassVar[str] = "a mapping"
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for position, (key, _) in enumerate(self.entries):
            self._index.setdefault(key.raw, position)

    def get(self, key: str) -> YamlNode | None:
        position = self._index.get(key)
        return None if position is None else self.entries[position][1]

    def key_node(self, key: str) -> YamlScalar | None:
        position = self._index.get(key)
        return None if position is None else self.entries[position][0]

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def keys(self) -> list[str]:
        return [key.raw for key, _ in self.entries]


# ---------------------------------------------------------------------------
# Reading


def read_yaml(
    path: str | Path, *, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES
) -> tuple[YamlNode | None, list[Diagnostic]]:
    """Read one YAML document from ``path`` (shown in messages as given).

    Returns the tree, or None when the file cannot be used as YAML, and every
    diagnostic found. A tree may come with errors that spoil no structure (a duplicate
    key keeps its first value), so callers can go on collecting their own problems.
    """
    file = str(path)
    data, problem = read_input_bytes(Path(path), max_bytes)
    if data is None:
        return None, [Diagnostic(file, 0, 0, problem)]
    return parse_yaml(data, file, max_nodes=max_nodes)


def read_document(
    path: str | Path, build: Callable[[YamlNode, list[Diagnostic]], T | None], *,
    max_bytes: int = MAX_BYTES,
) -> tuple[T | None, list[Diagnostic]]:
    """Read ``path`` and ``build`` a value from its tree (``build`` appends its own
    problems to the list it is given). Returns the value, None if there is any error,
    and every diagnostic in file order."""
    root, diagnostics = read_yaml(path, max_bytes=max_bytes)
    value = build(root, diagnostics) if root is not None else None
    diagnostics = in_file_order(diagnostics)
    # The value is judged on every problem; at most MAX_PROBLEMS of them are told.
    return (None if errors_in(diagnostics) else value), capped(diagnostics)


def not_a_file(mode: int) -> str:
    """Why a file of ``mode`` is not read ("" for a regular file): a directory, a pipe
    (opening one waits for a writer), a socket or a device (reading one may never end),
    named by base.filekind.kind_of_mode as the outputs' checks name them."""
    return "" if stat.S_ISREG(mode) else f"is {kind_of_mode(mode)}, not a file"


def read_input_bytes(path: Path, max_bytes: int = MAX_BYTES) -> tuple[bytes | None, str]:
    """The bytes of the regular file ``path``, or None and why not (missing, a folder, a
    pipe or device, larger than ``max_bytes``): every input file is read through here."""
    try:
        problem = not_a_file(os.stat(path).st_mode)  # before opening: opening can hang
        if problem:
            return None, problem
        with path.open("rb") as handle:
            status = os.fstat(handle.fileno())  # the file opened, should it have changed
            problem = not_a_file(status.st_mode)
            if problem:
                return None, problem
            size = status.st_size
            if size > max_bytes:
                return None, _too_large(size, max_bytes)
            # Read one byte past the limit: devices and pipes report no size.
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        return None, "file not found"
    except PermissionError:
        return None, "cannot read file: permission denied"
    except ValueError:  # a NUL in the name: no file can have it
        return None, "cannot read file: its name holds a NUL character"
    except OSError as exc:
        return None, f"cannot read file: {(exc.strerror or str(exc)).lower()}"
    if len(data) > max_bytes:
        return None, f"file is larger than the limit of {max_bytes} bytes ({_mib(max_bytes)})"
    return data, ""


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _too_large(size: int, max_bytes: int) -> str:
    return (
        f"file is too large: {size} bytes ({_mib(size)}); "
        f"the limit is {max_bytes} bytes ({_mib(max_bytes)})"
    )


def parse_yaml(
    data: bytes | str, file: str, *, max_nodes: int = MAX_NODES
) -> tuple[YamlNode | None, list[Diagnostic]]:
    """Parse one YAML document; ``file`` names it in diagnostics. See :func:`read_yaml`."""
    if isinstance(data, bytes):
        text = _decode(data, file)
        if isinstance(text, Diagnostic):
            return None, [text]
    else:
        text = data
    text = text.removeprefix("\ufeff")
    composer = _Composer(file, max_nodes)
    found = composer.compose(text, _Parser)
    if composer.libyaml_too_deep:
        # libyaml 0.2.6 (PyYAML 6.0.4's wheels) refuses flow nesting past 1,000 levels
        # while it scans ahead, before this composer sees the 101st level: the Python
        # parser (same events, no limit of its own) finds where MAX_DEPTH is passed.
        found = _Composer(file, max_nodes).compose(text, yaml.SafeLoader)
    return found


# Byte-order marks of the encodings YAML allows besides UTF-8 (UTF-32 first: its
# little-endian mark begins with UTF-16's).
_OTHER_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe\x00\x00", "UTF-32"),
               (b"\xfe\xff", "UTF-16"), (b"\xff\xfe", "UTF-16"))


def _decode(data: bytes, file: str) -> str | Diagnostic:
    for bom, encoding in _OTHER_BOMS:
        if data.startswith(bom):
            return Diagnostic(file, 1, 1, f"file is {encoding} (it starts with a {encoding} "
                                          "byte-order mark); save it as UTF-8")
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")  # valid: the error is the first one
        where = _where_in(file, before, len(before))
        return where.diagnostic(
            f"file is not valid UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded "
            "(save the file as UTF-8)"
        )


class _Mark(Protocol):
    """A position as PyYAML's pure-Python and libyaml parsers both give it (0-based)."""

    line: int
    column: int


class _Fatal(Exception):
    """Stops composing: the rest of the file cannot be read safely."""


@record(frozen=False)
class _Open:
    """A mapping or sequence whose end event has not come yet."""

    where: Where
    is_mapping: bool
    anchor: str | None
    size: int = 1
    items: list[YamlNode] = field(default_factory=list)
    keys_seen: dict[tuple[str, ScalarValue], Where] = field(default_factory=dict)
    skip_value: bool = False  # the pending value belongs to a refused key


class _Composer:
    def __init__(self, file: str, max_nodes: int) -> None:
        self.file = file
        self.max_nodes = max_nodes
        self.diagnostics: list[Diagnostic] = []
        self.spoiled = False  # an error that leaves no usable tree
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[YamlNode, int]] = {}
        self.open_anchors: set[str] = set()
        self.expanded = 0
        self.documents = 0
        self.root: YamlNode | None = None
        self.libyaml_too_deep = False

    def where(self, mark: _Mark | None) -> Where:
        if mark is None:
            return Where(self.file, 0, 0)
        return Where(self.file, mark.line + 1, mark.column + 1)

    def error(self, where: Where, message: str, *, spoils: bool = True) -> None:
        self.diagnostics.append(where.diagnostic(message))
        self.spoiled = self.spoiled or spoils

    def compose(
        self, text: str, parser: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
    ) -> tuple[YamlNode | None, list[Diagnostic]]:
        bad = _NOT_YAML.search(text)
        if bad is not None:  # the parsers would refuse it without saying where
            self.error(_where_in(self.file, text, bad.start()), _bad_character(bad.group()))
            return None, self.diagnostics
        try:
            for event in yaml.parse(text, Loader=parser):
                self.handle(event)
        except _Fatal:
            pass
        except yaml.MarkedYAMLError as exc:
            if parser is not yaml.SafeLoader and _LIBYAML_TOO_DEEP in (exc.problem or ""):
                self.libyaml_too_deep = True
            self.error(self.where(exc.problem_mark or exc.context_mark),
                       _syntax_message(exc, _language(self.file)))
        except yaml.YAMLError as exc:  # unmarked; the check above leaves none we know of
            reason = getattr(exc, "reason", None) or str(exc).split("\n")[0]
            self.error(Where(self.file, 0, 0), f"invalid {_language(self.file)}: {reason}")
        if not self.diagnostics and self.documents == 0:
            self.error(Where(self.file, 0, 0), "file is empty (no YAML content)")
        return (None if self.spoiled else self.root), self.diagnostics

    def handle(self, event: yaml.Event) -> None:
        if len(self.diagnostics) >= MAX_PROBLEMS:
            self.error(self.where(event.start_mark),
                       f"more than {MAX_PROBLEMS} problems; not reading further")
            raise _Fatal
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.error(
                    self.where(event.start_mark),
                    "several YAML documents in one file (expected one; remove the '---' line)",
                )
                raise _Fatal
            if event.version is not None and tuple(event.version) < (1, 2):
                self.diagnostics.append(self.where(event.start_mark).diagnostic(
                    "the file asks for YAML 1.1 ('%YAML 1.1'), but this tool reads YAML 1.2: "
                    "yes, no, on, off, 1:00, 0b101 and 1_000 are text, 017 is 17; remove "
                    "the line", Severity.WARNING))
        elif isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            self.start(event)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.end()

    def count(self, nodes: int, where: Where, *, alias: bool = False) -> None:
        self.expanded += nodes
        if self.expanded > self.max_nodes:
            if alias:
                message = (
                    f"aliases expand to more than {self.max_nodes} values "
                    "(is this a 'billion laughs' alias bomb?)"
                )
            else:
                message = f"more than {self.max_nodes} values in one file (the limit)"
            self.error(where, message)
            raise _Fatal

    def scalar(self, event: yaml.ScalarEvent) -> None:
        where = self.where(event.start_mark)
        self.count(1, where)
        text: str = event.value
        style = event.style or None  # libyaml gives '' for plain
        value: ScalarValue = text
        short = "str"
        if event.tag is None and style is None:
            short, value = _resolve(text)
        elif event.tag not in (None, "!"):  # "!" and quotes: text
            tag: str = event.tag
            short = tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else ""
            if short not in _SCALAR_TAGS:
                self.bad_tag(where, tag)
                short = "str"
            elif short != "str":
                valid, value, why = _construct(short, text)
                if not valid:
                    why = f" ({why})" if why else ""
                    self.error(where, f"{quoted(text)} is not a valid !!{short} value{why}")
                    short, value = "str", text
        node = YamlScalar(where, value, text, short, style)
        odd = _NOT_TEXT.search(text)
        if odd is not None:  # an escape in double quotes: YAML allows it, we do not
            char = odd.group()
            why = ("half of a UTF-16 pair is not a character" if char >= "\ud800" else
                   "a value may hold tabs and line breaks, no other control character")
            self.error(node.where_at(odd.start()),
                       f"a text holds {describe_character(char)}, written as an escape "
                       f"({why})", spoils=False)
        if event.anchor is not None:
            self.anchors[event.anchor] = (node, 1)
        self.add(node, 1)

    def bad_tag(self, where: Where, tag: str) -> None:
        shown = "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag
        self.error(
            where,
            f"unsupported tag {quoted(shown)} (only the standard tags {_STANDARD_TAGS} "
            "are allowed)",
        )

    def alias(self, event: yaml.AliasEvent) -> None:
        where = self.where(event.start_mark)
        name: str = event.anchor or ""
        if name in self.open_anchors:
            self.error(where, f"recursive alias {quoted('*' + name)} (it refers to a value "
                              "that contains it)")
            raise _Fatal
        if name not in self.anchors:
            self.error(where, f"undefined alias {quoted('*' + name)} (expected an anchor "
                              f"{quoted('&' + name)} before it)")
            raise _Fatal
        node, size = self.anchors[name]
        self.count(size, where, alias=True)
        self.add(node, size)

    def start(self, event: yaml.MappingStartEvent | yaml.SequenceStartEvent) -> None:
        where = self.where(event.start_mark)
        self.count(1, where)
        is_mapping = isinstance(event, yaml.MappingStartEvent)
        expected = _YAML_TAG + ("map" if is_mapping else "seq")
        if event.tag not in (None, "!", expected):
            self.bad_tag(where, event.tag)
        if len(self.stack) >= MAX_DEPTH:
            self.error(where, f"lists and mappings are nested more than {MAX_DEPTH} levels deep")
            raise _Fatal
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Open(where, is_mapping, event.anchor))

    def end(self) -> None:
        frame = self.stack.pop()
        node: YamlNode
        if frame.is_mapping:
            pairs = zip(frame.items[0::2], frame.items[1::2], strict=True)
            entries = tuple((key, value) for key, value in pairs if isinstance(key, YamlScalar))
            node = YamlMapping(frame.where, entries)
        else:
            node = YamlSequence(frame.where, tuple(frame.items))
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (node, frame.size)
        self.add(node, frame.size)

    def add(self, node: YamlNode, size: int) -> None:
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        frame.size += size
        if not frame.is_mapping:
            frame.items.append(node)
            return
        if len(frame.items) % 2 == 1:  # a value
            if frame.skip_value:
                frame.items.pop()
                frame.skip_value = False
            else:
                frame.items.append(node)
            return
        # A key: a plain value that appears once.
        if not isinstance(node, YamlScalar):
            self.error(node.where, f"mapping keys must be plain values, not {node.kind}")
            frame.items.append(node)
            frame.skip_value = True
            return
        identity = (node.tag, node.value)
        first = frame.keys_seen.get(identity)
        if first is not None:
            self.error(
                node.where,
                f"duplicate key {quoted(node.raw)} (already set at line {first.line}; "
                "each key may appear once)",
                spoils=False,
            )
            frame.items.append(node)
            frame.skip_value = True
            return
        frame.keys_seen[identity] = node.where
        frame.items.append(node)


def _bad_character(char: str) -> str:
    message = f"{describe_character(char)} is not allowed in a YAML file"
    if char == "\x00":
        message += " (a file with NUL characters is often UTF-16 or not text: save it as UTF-8)"
    elif char < "\xa0":
        message += " (control characters cannot appear in YAML, not even in quotes)"
    return message


def _language(file: str) -> str:
    """What a file is written in, as its syntax errors say: a game record or a
    position (*.json) is JSON, read by the YAML reader (JSON is YAML), and "invalid
    YAML" about a JSON file misled."""
    return "JSON" if file.lower().endswith(".json") else "YAML"


def _syntax_message(exc: yaml.MarkedYAMLError, language: str = "YAML") -> str:
    problem = (exc.problem or "").strip() or "cannot parse this"
    message = f"invalid {language}: {problem}"
    if exc.context:
        context = exc.context.strip()
        mark = exc.context_mark
        if mark is not None and exc.problem_mark is not None and mark.line != exc.problem_mark.line:
            context += f" started at line {mark.line + 1}"
        message += f" ({context})"
    return message


# ---------------------------------------------------------------------------
# Helpers for validators: each reports what is wrong and what was expected.


def describe(node: YamlNode) -> str:
    """How a value is named in a message: quoted scalars (escaped, and cut when long:
    :func:`~micropul_print.base.errors.quoted`), or its kind."""
    if isinstance(node, YamlScalar):
        if node.tag == "null" and node.raw in ("", "~"):
            return "nothing"
        return quoted(node.raw)
    return node.kind


def number_value(node: YamlNode) -> int | float | None:
    """The number a plain scalar is written as (resolved by :func:`read_number`, so
    within the limits; ``.inf`` and ``.nan`` included), or None for anything else."""
    if isinstance(node, YamlScalar) and node.tag in ("int", "float"):
        value = node.value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
    return None


def explain(node: YamlNode) -> str:
    """`` (why)`` to add to a message saying a number was expected: why this scalar is
    no number though it looks like one (YAML 1.1 forms, limits, digits that are not
    0-9, quotes); "" when there is nothing to add."""
    if not isinstance(node, YamlScalar) or node.tag != "str":
        return ""
    number = read_number(node.raw)
    if node.style is None:
        note = number.note
    elif number.value is not None:
        note = "in quotes, so it is text: remove the quotes"
    else:
        note = ""
    return f" ({note})" if note else ""


def join_choices(choices: Sequence[str], last: str = "or") -> str:
    """``a, b or c``."""
    if len(choices) <= 1:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} {last} {choices[-1]}"


def check_keys(
    mapping: YamlMapping, what: str, required: Iterable[str], optional: Iterable[str] = ()
) -> list[Diagnostic]:
    """Unknown keys are warnings (a typo should not stop a build unless strict);
    missing required keys are errors, reported at the mapping."""
    required = list(required)
    known = [*required, *optional]
    found: list[Diagnostic] = []
    for key, _ in mapping.entries:
        if key.raw not in known:
            found.append(
                key.diagnostic(
                    f"unknown key {quoted(key.raw)} in {what} (expected {join_choices(known)})",
                    Severity.WARNING,
                )
            )
    for name in required:
        if name not in mapping:
            found.append(mapping.diagnostic(f"{what} is missing the required key {name!r}"))
    return found


def expect_mapping(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> YamlMapping | None:
    if isinstance(node, YamlMapping):
        return node
    diagnostics.append(node.diagnostic(f"{what} must be a mapping of keys, got {describe(node)}"))
    return None


def expect_sequence(
    node: YamlNode, what: str, diagnostics: list[Diagnostic]
) -> YamlSequence | None:
    if isinstance(node, YamlSequence):
        return node
    diagnostics.append(node.diagnostic(f"{what} must be a list, got {describe(node)}"))
    return None


def expect_int(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> int | None:
    """A whole number (see :func:`read_number`); a leading zero, which YAML 1.1 readers
    take for octal, is read as decimal with a warning."""
    value = number_value(node)
    if isinstance(value, int) and isinstance(node, YamlScalar):
        note = read_number(node.raw).note
        if note:
            diagnostics.append(node.diagnostic(
                f"{what} {quoted(node.raw)} is read as {value}: {note}", Severity.WARNING))
        return value
    diagnostics.append(node.diagnostic(
        f"{what} must be a whole number, got {describe(node)}{explain(node)}"))
    return None


def expect_bool(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> bool | None:
    """true or false (any case YAML 1.2 allows); yes, no, on and off are text in YAML 1.2,
    and the message says so."""
    if isinstance(node, YamlScalar) and node.tag == "bool" and isinstance(node.value, bool):
        return node.value
    hint = ""
    if isinstance(node, YamlScalar) and node.style is None and node.raw in YAML11_BOOLS:
        hint = (f" (YAML 1.1 read {node.raw!r} as a boolean; {_FOLLOWS_12}: "
                "write true or false)")
    diagnostics.append(node.diagnostic(
        f"{what} must be true or false, got {describe(node)}{hint}"))
    return None


def expect_text(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> str | None:
    """Any non-empty scalar, as written: ``name: 1984`` is the text "1984"."""
    if isinstance(node, YamlScalar) and node.tag != "null" and node.raw.strip():
        return node.raw
    diagnostics.append(node.diagnostic(f"{what} must be a non-empty text, got {describe(node)}"))
    return None


def in_file_order(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by position; file-level problems (line 0) first, ties keep their order."""
    return sorted(diagnostics, key=lambda d: (d.file, d.line, d.col))


_GRAVITY = (Severity.NOTICE, Severity.WARNING, Severity.ERROR)


def capped(problems: Iterable[Diagnostic]) -> list[Diagnostic]:
    """One file's problems in file order (those of no line first, as found) and at most
    MAX_PROBLEMS of them, then one saying there are more, as the YAML reader stops:
    20,000 unknown keys are not 20,000 lines, and the same each run. That line is as
    grave as the gravest problem it stands for, so an error left out still counts."""
    ordered = in_file_order(problems)
    if len(ordered) <= MAX_PROBLEMS:
        return ordered
    first = ordered[MAX_PROBLEMS]
    gravest = max((d.severity for d in ordered[MAX_PROBLEMS:]), key=_GRAVITY.index)
    return [*ordered[:MAX_PROBLEMS],
            Diagnostic(first.file, first.line, first.col,
                       f"more than {MAX_PROBLEMS} problems ({len(ordered)} in all); "
                       f"the first {MAX_PROBLEMS} are shown", gravest)]
