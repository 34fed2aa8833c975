"""Hostile input, generated: the YAML reader, the catalogue, position and theme readers
and the command line give a result or located diagnostics, never another exception.

Work is bounded by the size of what is generated (values of at most a few thousand
characters or levels), never by a clock: hypothesis runs without deadlines, so a loaded
machine cannot make these tests fail.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from micropul_print.base.errors import Diagnostic, errors_in
from micropul_print.base.yamlsource import MAX_NUMBER, parse_yaml, read_number
from micropul_print.catalogue.loader import read_catalogue
from micropul_print.cli import main
from micropul_print.draw.theme import THEMES_DIR, read_theme
from micropul_print.games.cellulae.analysis import read_cellulae_position
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.position import read_position

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CLI_SETTINGS = settings(max_examples=20, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow])

# Problems of a whole file, which have no line to point at.
FILE_LEVEL = ("file is empty (no YAML content)",)

# --- documents with a slot for a value ------------------------------------------------

CATALOGUE = """\
game: micropul
name: Two tiles
tile_count: 2
tiles:
  - id: 1
    start: true
    face:
      - W W
      - B B
  - id: 2
    big:
      colour: W
      catalyst: 1
"""

CELLULAE = """\
game: cellulae
name: Cellulae
author: Federico Latini
tile_size_mm: 30
boards:
  - side: 5
    tiles: 25
tile_count: 25
tiles:
  - id: 1
    count: 25
    faces:
      - colour: white
        mark: square-light
      - colour: black
        mark: square-dark
"""

POSITION = """\
placements:
  - tile: 41
    x: 0
    y: 0
    rotation: 0
  - tile: 7
    x: 1
    y: 0
    rotation: 90
stones:
  - player: 1
    x: 0
    y: 0
    quadrant: tl
"""

CELLULAE_POSITION = """\
board: 5
to_move: black
tiles:
  - x: 0
    y: 0
    colour: white
  - x: 4
    y: 4
    colour: black
turns:
  - player: black
    replicate:
      x: 4
      y: 3
  - player: white
    move:
      from: [0, 0]
      to: [2, 2]
  - player: black
    skip: true
"""

THEME = (THEMES_DIR / "classic.yaml").read_text(encoding="utf-8")

# A line holding a value: "key: value" or "- value" (block style), value replaced whole;
# or a key whose value is the block below it ("tiles:"), replaced with that block.
_SLOT = re.compile(r"^(\s*(?:- )?[\w-]+: |\s*- )(\S.*)$")
_BLOCK = re.compile(r"^(\s*(?:- )?[\w-]+:)\s*(?:#.*)?$")


def slots(document: str) -> list[int]:
    """The lines of ``document`` whose value can be replaced."""
    return [n for n, line in enumerate(document.splitlines())
            if _SLOT.match(line) or _BLOCK.match(line)]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" -"))


def with_values(document: str, values: dict[int, str]) -> str:
    """``document`` with the value of each slot in ``values`` replaced (a block key's
    whole block), last line first so that the line numbers hold."""
    lines = document.splitlines()
    for line in sorted(values, reverse=True):
        block = _BLOCK.match(lines[line])
        if block is not None:
            end = line + 1
            while end < len(lines) and (not lines[end].strip()
                                        or _indent(lines[end]) > _indent(lines[line])):
                end += 1
            lines[line:end] = [f"{block.group(1)} {values[line]}"]
            continue
        match = _SLOT.match(lines[line])
        assert match is not None
        lines[line] = match.group(1) + values[line]
    return "\n".join(lines) + "\n"


# --- hostile values ----------------------------------------------------------------------

WRONG_TYPES = [
    "", "~", "[]", "{}", "[1, 2]", "{a: 1}", "yes", "off", "1:00", "0b11", "1_0", "017",
    "'12'", "3.5", "-1", "0", ".nan", "-.inf", "1e400", "0x" + "f" * 5000, "9" * 4400,
    "٤٢", "４２", "²", "!!str 12", "!!python/object/apply:os.system ['true']", "*undefined",
    "&a [*a]", '"\\e[31mred"', '"\\x00"', '"\\u202e"', "[" * 200 + "]" * 200,
]

_DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=6000)
numbers_as_text = st.one_of(
    _DIGITS,
    _DIGITS.map(lambda digits: "-" + digits),
    st.text(alphabet="0123456789abcdefABCDEF", min_size=1, max_size=6000).map("0x{}".format),
    st.text(alphabet="01234567", min_size=1, max_size=100).map("0o{}".format),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=12),
    st.lists(st.integers(0, 59).map(str), min_size=2, max_size=400).map(":".join),
    st.lists(st.integers(0, 59).map(str), min_size=2, max_size=400).map(":".join).map(
        lambda text: text + ".5"),
    st.floats().map(repr),
    st.builds("{}e{}".format, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)),
    st.sampled_from(["0b101", "1_000", "017", "-0x1", ".inf", "-.Inf", ".NaN", "nan", "inf",
                     "+", "-", ".", "1.", ".5", "1e", "0x", "0o"]),
)
# Characters a terminal acts on or that cannot be encoded, raw or as escapes.
odd_characters = st.text(
    alphabet=st.characters(categories=["Cc", "Cf", "Cs", "Co", "Zl", "Zp"]),
    min_size=1, max_size=4,
)
escaped = odd_characters.map(
    lambda text: '"' + "".join(f"\\U{ord(char):08x}" for char in text) + '"')
raw = st.builds(lambda before, odd: before + odd, st.text(max_size=5), odd_characters)
nested = st.integers(1, 3000).flatmap(
    lambda depth: st.sampled_from(["[" * depth + "]" * depth,
                                   "{a: " * depth + "1" + "}" * depth,
                                   "[" * depth]))
wide = st.integers(1, 3000).map(lambda n: "{" + ", ".join(f"k{i}: {i}" for i in range(n)) + "}")
words = st.sampled_from(["yes", "No", "ON", "off", "y", "true", "FALSE", "null", "~", "W",
                         "W .", "W X Y", "white", "tl", "micropul", "cellulae"])
hostile_values = st.one_of(
    numbers_as_text, escaped, raw, nested, wide, words, st.sampled_from(WRONG_TYPES),
    st.text(max_size=30),
)


# --- what every reader must do -------------------------------------------------------------


def assert_reported(result: object, diagnostics: list[Diagnostic], path: str) -> None:
    """Diagnostics located in the file read, on one printable line each; a result
    exactly when there is no error."""
    for diagnostic in diagnostics:
        assert isinstance(diagnostic, Diagnostic)
        assert diagnostic.file == path
        if diagnostic.message not in FILE_LEVEL:
            assert diagnostic.line >= 1 and diagnostic.col >= 1, diagnostic
        assert str(diagnostic).isprintable(), str(diagnostic)
    assert (result is None) == bool(errors_in(diagnostics)), diagnostics


Reader = Callable[[Path], tuple[object, list[Diagnostic]]]


def read_text(reader: Reader, text: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "input.yaml"
        if isinstance(text, str):
            text = text.encode("utf-8", "surrogatepass")  # lone surrogates: invalid UTF-8
        path.write_bytes(text)
        result, diagnostics = reader(path)
        assert_reported(result, diagnostics, str(path))


def readers(micropul: Catalogue, cellulae: CellulaeCatalogue) -> dict[str, tuple[str, Reader]]:
    """Each reader with the valid document its slots come from."""
    return {
        "catalogue": (CATALOGUE, read_catalogue),
        "cellulae catalogue": (CELLULAE, read_catalogue),
        "position": (POSITION, lambda path: read_position(path, micropul)),
        "cellulae position": (CELLULAE_POSITION,
                              lambda path: read_cellulae_position(path, cellulae)),
        "theme": (THEME, read_theme),
    }


READERS = ("catalogue", "cellulae catalogue", "position", "cellulae position", "theme")


@pytest.mark.parametrize("name", READERS)
def test_the_templates_are_valid(
    name: str, catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue
) -> None:
    document, reader = readers(catalogue, cellulae_catalogue)[name]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "input.yaml"
        path.write_text(document, encoding="utf-8")
        result, diagnostics = reader(path)
    assert result is not None and diagnostics == []
    assert len(slots(document)) >= 9


@pytest.mark.parametrize("name", READERS)
def test_a_wrong_type_at_every_key(
    name: str, catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue
) -> None:
    document, reader = readers(catalogue, cellulae_catalogue)[name]
    for line in slots(document):
        for value in WRONG_TYPES:
            read_text(reader, with_values(document, {line: value}))


@pytest.mark.parametrize("name", READERS)
@SETTINGS
@given(data=st.data())
def test_hostile_values_anywhere(
    name: str, catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue, data: st.DataObject
) -> None:
    document, reader = readers(catalogue, cellulae_catalogue)[name]
    values = data.draw(st.dictionaries(st.sampled_from(slots(document)), hostile_values,
                                       min_size=1, max_size=3), label="values")
    read_text(reader, with_values(document, values))


@pytest.mark.parametrize("name", ["catalogue", "cellulae catalogue"])
def test_check_on_a_wrong_type_at_every_key(
    name: str, catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue
) -> None:
    document, _ = readers(catalogue, cellulae_catalogue)[name]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "input.yaml"
        for line in slots(document):
            for value in WRONG_TYPES:
                path.write_text(with_values(document, {line: value}), encoding="utf-8")
                code, stderr = run_cli(["check", str(path), "--games", "1"])
                assert code in (0, 1) and "Traceback" not in stderr, (line, value)


# --- the YAML reader alone ------------------------------------------------------------------

_YAML_CHARACTERS = [*"[]{}:,-?!&*#'\"|>%@` \n\t\r0123456789abxyn.:_~\\",
                    "\x07", "\ufeff", "\u2028", "é", "٣"]
yamlish = st.text(alphabet=st.sampled_from(_YAML_CHARACTERS), max_size=300)


@SETTINGS
@given(st.one_of(yamlish, st.text(max_size=300)))
def test_any_text_gives_a_tree_or_located_problems(text: str) -> None:
    root, diagnostics = parse_yaml(text, "f.yaml")
    assert root is not None or diagnostics
    assert_located(diagnostics)


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes_give_a_tree_or_located_problems(data: bytes) -> None:
    root, diagnostics = parse_yaml(data, "f.yaml")
    assert root is not None or diagnostics
    assert_located(diagnostics)


def assert_located(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in diagnostics:
        if diagnostic.message not in FILE_LEVEL:
            assert diagnostic.line >= 1 and diagnostic.col >= 1, diagnostic
        assert str(diagnostic).isprintable()


@SETTINGS
@given(st.one_of(numbers_as_text, st.text(max_size=50)))
def test_read_number_stays_within_its_limits(text: str) -> None:
    value = read_number(text).value
    if value is None:
        return
    assert text.isascii()  # only the digits 0-9 make a number
    if isinstance(value, float) and not math.isfinite(value):
        assert text.lstrip("+-").lower() in (".inf", ".nan")  # only when written so
    else:
        assert abs(value) <= MAX_NUMBER


# --- the command line ---------------------------------------------------------------------

_LINE = re.compile(r"^(?P<file>.+?)(?::\d+:\d+)?: (?:error|warning|notice): .+$")


def run_cli(argv: list[str]) -> tuple[int, str]:
    stderr, stdout = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        code = main(argv)
    return code, stderr.getvalue()


@pytest.mark.parametrize(
    ("name", "command"),
    [("catalogue", ["check", "--games", "1"]), ("cellulae catalogue", ["catalogue"]),
     ("position", ["position"]), ("cellulae position", ["position", "--game", "cellulae"])],
)
@CLI_SETTINGS
@given(data=st.data())
def test_command_line_reports_without_a_traceback(
    name: str, command: list[str], catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue,
    data: st.DataObject,
) -> None:
    document, _ = readers(catalogue, cellulae_catalogue)[name]
    values = data.draw(st.dictionaries(st.sampled_from(slots(document)), hostile_values,
                                       min_size=1, max_size=2), label="values")
    document = with_values(document, values)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "input.yaml"
        path.write_bytes(document.encode("utf-8", "surrogatepass"))
        argv = [command[0], str(path), *command[1:]]
        code, stderr = run_cli(argv)
    assert code in (0, 1)
    assert "Traceback" not in stderr
    for written in stderr.splitlines():
        match = _LINE.match(written)
        assert match is not None and match.group("file") == str(path), written
        assert written.isprintable()
    if code == 1 and command[0] != "check":  # check reports a failed set on stdout
        assert stderr
