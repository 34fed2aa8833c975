"""Input hardening of the YAML layer and the readers on top of it: YAML 1.2 numbers and
booleans read by one bounded function, located messages that quote user text safely,
and bounded work on hostile structure. One fixture per failure, with its exact messages
(tests/data/bad/yaml/<failure>.yaml: the reader is chosen by the name's prefix)."""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

import pytest
import yaml

from micropul_print.base import yamlsource
from micropul_print.base.errors import Diagnostic, Severity, UserError
from micropul_print.base.yamlsource import (
    MAX_DEPTH,
    MAX_NODES,
    MAX_NUMBER,
    MAX_PROBLEMS,
    YamlMapping,
    YamlScalar,
    describe_character,
    expect_bool,
    expect_int,
    parse_yaml,
    read_number,
)
from micropul_print.catalogue.loader import (
    read_catalogue,
)
from micropul_print.cli import main
from micropul_print.draw.theme import read_theme
from micropul_print.games.cellulae.analysis import read_cellulae_position
from micropul_print.games.cellulae.catalogue import MAX_BOARD_SIDE, MAX_TILES, CellulaeCatalogue
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.position import read_position
from micropul_print.games.micropul.reader import MAX_MICROPUL_TILES
from micropul_print.sheets.layout import layout_path, load_layout

BAD = Path(__file__).resolve().parents[1] / "data" / "bad" / "yaml"

# Each fixture, and every line its reader reports ({path} is the fixture).
EXPECTED = {
    "cellulae_board_side_hex_over_4300_digits": [
        "{path}:7:12: error: 'side' must be a whole number, got "
        "'0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffff…' (5002 "
        'characters) (a number of 5000 digits; at most 30 are allowed)',
    ],
    "cellulae_board_side_too_large": [
        '{path}:9:12: error: board side 27 is too large (expected at most 25)',
    ],
    "cellulae_count_too_large": [
        "{path}:14:12: error: 'count' is 5000 (expected at most 1000 tiles)",
    ],
    "cellulae_position_board_decimal_over_4300_digits": [
        "{path}:1:8: error: 'board' must be a whole number, got "
        "'777777777777777777777777777777777777777777777777777777777777…' (4400 "
        'characters) (a number of 4400 digits; at most 30 are allowed)',
    ],
    "cellulae_position_board_hex_over_4300_digits": [
        "{path}:1:8: error: 'board' must be a whole number, got "
        "'0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffff…' (5002 "
        'characters) (a number of 5000 digits; at most 30 are allowed)',
    ],
    "cellulae_tile_size_infinite": [
        "{path}:5:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got '.inf'",
    ],
    "cellulae_tile_size_too_small": [
        "{path}:5:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got '0.0001'",
    ],
    "cellulae_tile_size_nan": [
        "{path}:5:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got '.nan'",
    ],
    "cellulae_tile_size_overflow": [
        "{path}:5:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got '1e400' (beyond ±9007199254740991 (2^53 - 1), the largest size "
        'allowed)',
    ],
    "control_character": [
        '{path}:2:10: error: U+0007 (BEL) is not allowed in a YAML file (control '
        'characters cannot appear in YAML, not even in quotes)',
    ],
    "deeply_nested": [
        '{path}:2:106: error: lists and mappings are nested more than 100 levels deep',
    ],
    "empty_tiles": [
        "{path}:4:1: error: 'tiles' is empty (expected the tiles of the set, a start tile "
        "among them)",
    ],
    "id_decimal_over_4300_digits": [
        "{path}:8:9: error: 'id' must be a whole number, got "
        "'999999999999999999999999999999999999999999999999999999999999…' (4400 "
        'characters) (a number of 4400 digits; at most 30 are allowed)',
    ],
    "id_hex_over_4300_digits": [
        "{path}:8:9: error: 'id' must be a whole number, got "
        "'0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffff…' (5002 "
        'characters) (a number of 5000 digits; at most 30 are allowed)',
    ],
    "id_leading_zero": [
        "{path}:8:9: warning: 'id' '02' is read as 2: YAML 1.1 readers take a leading 0 "
        'for octal; write 2 (or 0o2 for octal)',
    ],
    "id_sexagesimal": [
        "{path}:8:9: error: 'id' must be a whole number, got '1:00' (YAML 1.1 read it as "
        'a base-60 number; YAML 1.2, which this tool follows, reads it as text)',
    ],
    "key_with_ansi_escape": [
        '{path}:7:5: error: a text holds U+001B (ESC), written as an escape (a value may '
        'hold tabs and line breaks, no other control character)',
        "{path}:7:5: warning: unknown key '\\x1b[2Jstart' in tile (expected id, face, big "
        'or start)',
    ],
    "lone_surrogate_escape": [
        '{path}:2:14: error: invalid YAML: found invalid Unicode character escape code '
        '(while parsing a quoted scalar)',
    ],
    "name_with_ansi_escape": [
        '{path}:2:7: error: a text holds U+001B (ESC), written as an escape (a value may '
        'hold tabs and line breaks, no other control character)',
    ],
    "nul_byte": [
        '{path}:2:10: error: U+0000 (NUL) is not allowed in a YAML file (a file with NUL '
        'characters is often UTF-16 or not text: save it as UTF-8)',
    ],
    "position_player_sexagesimal": [
        "{path}:5:14: error: 'player' must be a whole number, got '1:00' (YAML 1.1 read "
        'it as a base-60 number; YAML 1.2, which this tool follows, reads it as text)',
    ],
    "position_x_fullwidth_digits": [
        "{path}:3:18: error: 'x' must be a whole number, got '１' (U+FF11 (FULLWIDTH "
        'DIGIT ONE) is not one of the digits 0-9)',
    ],
    "position_x_hex_over_4300_digits": [
        "{path}:3:18: error: 'x' must be a whole number, got "
        "'0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffff…' (5002 "
        'characters) (a number of 5000 digits; at most 30 are allowed)',
    ],
    "start_yes": [
        "{path}:4:1: error: no start tile (expected one tile with 'start: true')",
        "{path}:6:12: error: 'start' must be true or false, got 'yes' (YAML 1.1 read "
        "'yes' as a boolean; YAML 1.2, which this tool follows, reads it as text: write "
        'true or false)',
    ],
    "theme_count_arabic_indic_digit": [
        '{path}:27:30: error: marks.dot2.count must be a whole number from 1 to 9; got '
        "'٢' (U+0662 (ARABIC-INDIC DIGIT TWO) is not one of the digits 0-9)",
    ],
    "theme_count_superscript_digit": [
        '{path}:27:30: error: marks.dot2.count must be a whole number from 1 to 9; got '
        "'²' (U+00B2 (SUPERSCRIPT TWO) is not one of the digits 0-9)",
    ],
    "theme_length_arabic_indic_digits": [
        '{path}:7:18: error: face.outline_width must be a length in millimetres; got '
        "'٠.٢' (U+0660 (ARABIC-INDIC DIGIT ZERO) is not one of the digits 0-9)",
    ],
    "theme_length_hex_over_4300_digits": [
        '{path}:7:18: error: face.outline_width must be a length in millimetres; got '
        "'0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffff…' (5002 "
        'characters) (a number of 5000 digits; at most 30 are allowed)',
    ],
    "theme_length_nan": [
        '{path}:7:18: error: face.outline_width must be between 0 and 100 mm; got .nan',
    ],
    "theme_length_sexagesimal": [
        '{path}:7:18: error: face.outline_width must be a length in millimetres; got '
        "'0:20' (YAML 1.1 read it as a base-60 number; YAML 1.2, which this tool "
        'follows, reads it as text)',
    ],
    "theme_mark_name_with_bidi_override": [
        '{path}:26:18: error: marks.\\u202edot1.shape must be one of none, disc, square, '
        "dots, cross; got 'dot'",
    ],
    "tile_count_arabic_indic_digits": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '٢' (U+0662 "
        '(ARABIC-INDIC DIGIT TWO) is not one of the digits 0-9)',
    ],
    "tile_count_binary": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '0b10' (YAML 1.1 "
        'read it as a binary number; YAML 1.2, which this tool follows, reads it as text)',
    ],
    "tile_count_fullwidth_digits": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '２' (U+FF12 "
        '(FULLWIDTH DIGIT TWO) is not one of the digits 0-9)',
    ],
    "tile_count_quoted": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '2' (in quotes, so "
        'it is text: remove the quotes)',
    ],
    "tile_count_sexagesimal_overflow": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got "
        "'1:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:5…' (603 "
        'characters) (YAML 1.1 read it as a base-60 number; YAML 1.2, which this tool '
        'follows, reads it as text)',
    ],
    "tile_count_superscript_digit": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '²' (U+00B2 "
        '(SUPERSCRIPT TWO) is not one of the digits 0-9)',
    ],
    "tile_count_underscore": [
        "{path}:3:13: error: 'tile_count' must be a whole number, got '0_2' (YAML 1.1 "
        "read it as a number, skipping the '_'; YAML 1.2, which this tool follows, reads "
        'it as text)',
    ],
    "utf16_with_bom": [
        '{path}:1:1: error: file is UTF-16 (it starts with a UTF-16 byte-order mark); '
        'save it as UTF-8',
    ],
    "utf16_without_bom": [
        '{path}:1:2: error: U+0000 (NUL) is not allowed in a YAML file (a file with NUL '
        'characters is often UTF-16 or not text: save it as UTF-8)',
    ],
    "utf32_with_bom": [
        '{path}:1:1: error: file is UTF-32 (it starts with a UTF-32 byte-order mark); '
        'save it as UTF-8',
    ],
    "yaml_1_1_directive": [
        "{path}:1:1: warning: the file asks for YAML 1.1 ('%YAML 1.1'), but this tool "
        'reads YAML 1.2: yes, no, on, off, 1:00, 0b101 and 1_000 are text, 017 is 17; '
        'remove the line',
    ],
}


def read_fixture(path: Path, micropul: Catalogue, cellulae: CellulaeCatalogue) -> list[str]:
    name = path.stem
    diagnostics: list[Diagnostic]
    if name.startswith("position_"):
        diagnostics = read_position(path, micropul)[1]
    elif name.startswith("cellulae_position_"):
        diagnostics = read_cellulae_position(path, cellulae)[1]
    elif name.startswith("theme_"):
        diagnostics = read_theme(path)[1]
    else:
        diagnostics = read_catalogue(path)[1]
    return [str(d) for d in diagnostics]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_fixture_reports_exactly(
    name: str, catalogue: Catalogue, cellulae_catalogue: CellulaeCatalogue
) -> None:
    path = BAD / f"{name}.yaml"
    found = read_fixture(path, catalogue, cellulae_catalogue)
    assert found == [line.format(path=path) for line in EXPECTED[name]]


def test_every_fixture_is_tested() -> None:
    assert {path.stem for path in BAD.glob("*.yaml")} == set(EXPECTED)


def run_cli(argv: list[str]) -> tuple[int, str]:
    """The exit status and what the command wrote on stderr."""
    stderr, stdout = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        code = main(argv)
    return code, stderr.getvalue()


def command_for(path: Path, out: Path) -> list[str]:
    name = path.stem
    if name.startswith("position_"):
        return ["position", str(path)]
    if name.startswith("cellulae_position_"):
        return ["position", str(path), "--game", "cellulae"]
    if name.startswith("theme_"):
        return ["build", "--theme", str(path), "--out", str(out)]
    return ["check", str(path), "--strict", "--games", "1"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_command_line_exits_1_with_the_messages_and_no_traceback(
    name: str, tmp_path: Path
) -> None:
    path = BAD / f"{name}.yaml"
    code, stderr = run_cli(command_for(path, tmp_path / "out"))
    assert code == 1
    assert "Traceback" not in stderr
    assert all(line.isprintable() for line in stderr.splitlines())
    errors = [line.format(path=path) for line in EXPECTED[name] if ": error: " in line]
    for line in errors or EXPECTED[name]:
        assert line.format(path=path) in stderr.splitlines()
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.*"))


# ---------------------------------------------------------------------------
# Numbers: the YAML 1.2 core schema, read by one bounded function


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0),
        ("-12", -12),
        ("+12", 12),
        ("0o17", 15),
        ("0x1f", 31),
        ("0x1F", 31),
        ("2.5", 2.5),
        (".5", 0.5),
        ("1.", 1.0),
        ("1e3", 1000.0),
        ("-1.5E-3", -0.0015),
        ("1e-400", 0.0),  # too small to tell from 0: harmless
        (str(MAX_NUMBER), MAX_NUMBER),
        (f"-{MAX_NUMBER}", -MAX_NUMBER),
        ("9" * 15 + ".5", 999999999999999.5),
    ],
)
def test_yaml_1_2_numbers(text: str, value: float) -> None:
    number = read_number(text)
    assert number.value == value and type(number.value) is type(value)


@pytest.mark.parametrize(
    ("text", "value"), [(".inf", math.inf), ("-.Inf", -math.inf), ("+.INF", math.inf)]
)
def test_infinities_are_numbers_that_readers_refuse_as_lengths(text: str, value: float) -> None:
    assert read_number(text).value == value


def test_nan_is_a_number_equal_to_nothing() -> None:
    value = read_number(".NaN").value
    assert isinstance(value, float) and math.isnan(value)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("1:00", "YAML 1.1 read it as a base-60 number; YAML 1.2, which this tool follows, "
                 "reads it as text"),
        ("-1:30.5", "YAML 1.1 read it as a base-60 number; YAML 1.2, which this tool "
                    "follows, reads it as text"),
        ("0b101", "YAML 1.1 read it as a binary number; YAML 1.2, which this tool follows, "
                  "reads it as text"),
        ("1_000", "YAML 1.1 read it as a number, skipping the '_'; YAML 1.2, which this "
                  "tool follows, reads it as text"),
        ("-0x1f", "YAML 1.1 read it as a number; YAML 1.2, which this tool follows, reads "
                  "it as text"),
        ("4\u00b2", "U+00B2 (SUPERSCRIPT TWO) is not one of the digits 0-9"),
        ("\u0664\u0668", "U+0664 (ARABIC-INDIC DIGIT FOUR) is not one of the digits 0-9"),
        ("\uff14\uff18", "U+FF14 (FULLWIDTH DIGIT FOUR) is not one of the digits 0-9"),
        ("\u2167", "U+2167 (ROMAN NUMERAL EIGHT) is not one of the digits 0-9"),
        ("1" * 31, "a number of 31 digits; at most 30 are allowed"),
        ("0x" + "f" * 5000, "a number of 5000 digits; at most 30 are allowed"),
        ("1e99999", "beyond ±9007199254740991 (2^53 - 1), the largest size allowed"),
        (str(MAX_NUMBER + 1), "beyond ±9007199254740991 (2^53 - 1), the largest size allowed"),
        ("nan", ""),
        ("inf", ""),
        ("0X1F", ""),
        ("0o8", ""),
        ("1.2.3", ""),
        ("", ""),
    ],
)
def test_text_that_is_no_number_says_why(text: str, note: str) -> None:
    assert read_number(text) == yamlsource.Number(None, note)


def test_digits_are_counted_before_anything_is_converted() -> None:
    # int() of 400,000 hexadecimal digits is fast, but printing it is not (and decimal
    # text over 4,300 digits raises ValueError): a number that long is never converted.
    assert read_number("0x" + "f" * 400_000).value is None
    assert read_number("9" * 400_000).value is None
    assert read_number("1" + "0" * 400_000 + ".5").value is None


def test_a_leading_zero_is_decimal_with_a_note() -> None:
    assert read_number("017") == yamlsource.Number(
        17, "YAML 1.1 readers take a leading 0 for octal; write 17 (or 0o17 for octal)")
    assert read_number("-09") == yamlsource.Number(
        -9, "YAML 1.1 readers take a leading 0 for octal; write -9")
    assert read_number("0").note == read_number("0.5").note == ""


def scalars(text: str) -> dict[str, YamlScalar]:
    root, diagnostics = parse_yaml(text, "f.yaml")
    assert diagnostics == []
    assert isinstance(root, YamlMapping)
    found = {}
    for key, node in root.entries:
        assert isinstance(node, YamlScalar)
        found[key.raw] = node
    return found


def test_plain_scalars_resolve_by_the_yaml_1_2_core_schema() -> None:
    found = scalars(
        "a: true\nb: False\nc: yes\nd: off\ne: ~\nf: NULL\ng: 1:00\nh: 0o17\ni: 017\n"
        "j: 0b1\nk: 1_0\nl: .inf\nm: 1e3\nn: '5'\no: !!str 5\np: ! 5\nq: !!int 0x10\n"
        "r: !!float 2\n"
    )
    assert {key: (node.tag, node.value) for key, node in found.items()} == {
        "a": ("bool", True),
        "b": ("bool", False),
        "c": ("str", "yes"),
        "d": ("str", "off"),
        "e": ("null", None),
        "f": ("null", None),
        "g": ("str", "1:00"),
        "h": ("int", 15),
        "i": ("int", 17),
        "j": ("str", "0b1"),
        "k": ("str", "1_0"),
        "l": ("float", math.inf),
        "m": ("float", 1000.0),
        "n": ("str", "5"),
        "o": ("str", "5"),
        "p": ("str", "5"),
        "q": ("int", 16),
        "r": ("float", 2.0),
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!int 1:00\n", "f.yaml:1:4: error: '1:00' is not a valid !!int value (YAML 1.1 "
                            "read it as a base-60 number; YAML 1.2, which this tool follows, "
                            "reads it as text)"),
        ("a: !!int 2.5\n", "f.yaml:1:4: error: '2.5' is not a valid !!int value"),
        ("a: !!float x\n", "f.yaml:1:4: error: 'x' is not a valid !!float value"),
        ("a: !!bool on\n", "f.yaml:1:4: error: 'on' is not a valid !!bool value (YAML 1.1 "
                           "read it as a boolean; YAML 1.2, which this tool follows, reads it "
                           "as text)"),
        ("a: !!null 0\n", "f.yaml:1:4: error: '0' is not a valid !!null value"),
    ],
)
def test_tagged_scalars_are_read_by_the_same_rules(text: str, message: str) -> None:
    assert [str(d) for d in parse_yaml(text, "f.yaml")[1]] == [message]


def test_expect_int_explains_numbers_of_other_yaml_versions() -> None:
    found = scalars("a: 1:00\nb: '7'\nc: 07\nd: 7.0\n")
    out: list[Diagnostic] = []
    assert [expect_int(found[key], repr(key), out) for key in "abcd"] == [None, None, 7, None]
    assert [str(d) for d in out] == [
        "f.yaml:1:4: error: 'a' must be a whole number, got '1:00' (YAML 1.1 read it as a "
        "base-60 number; YAML 1.2, which this tool follows, reads it as text)",
        "f.yaml:2:4: error: 'b' must be a whole number, got '7' (in quotes, so it is text: "
        "remove the quotes)",
        "f.yaml:3:4: warning: 'c' '07' is read as 7: YAML 1.1 readers take a leading 0 for "
        "octal; write 7 (or 0o7 for octal)",
        "f.yaml:4:4: error: 'd' must be a whole number, got '7.0'",
    ]


@pytest.mark.parametrize("word", ["yes", "No", "ON", "off", "y", "N"])
def test_yaml_1_1_booleans_are_text_and_expect_bool_says_so(word: str) -> None:
    node = scalars(f"a: {word}\n")["a"]
    out: list[Diagnostic] = []
    assert expect_bool(node, "'start'", out) is None
    assert [str(d) for d in out] == [
        f"f.yaml:1:4: error: 'start' must be true or false, got {word!r} (YAML 1.1 read "
        f"{word!r} as a boolean; YAML 1.2, which this tool follows, reads it as text: write "
        "true or false)"
    ]


def test_quoted_yes_gets_no_yaml_1_1_hint() -> None:
    out: list[Diagnostic] = []
    expect_bool(scalars("a: 'yes'\n")["a"], "'start'", out)
    assert [d.message for d in out] == ["'start' must be true or false, got 'yes'"]


def test_duplicate_keys_compare_yaml_1_2_values() -> None:
    # YAML 1.1 told the boolean key yes from the text key 'yes'; in YAML 1.2 both are text.
    assert [str(d) for d in parse_yaml("yes: 1\n'yes': 2\n", "f.yaml")[1]] == [
        "f.yaml:2:1: error: duplicate key 'yes' (already set at line 1; each key may appear "
        "once)"
    ]


def test_page_layouts_read_numbers_by_the_same_rules(tmp_path: Path) -> None:
    text = layout_path("a4").read_text(encoding="utf-8").replace("margin: 5.0", "margin: ٥")
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_layout(path)
    assert [d.message for d in raised.value.diagnostics] == [
        "'margin' must be a non-negative number of millimetres"
    ]


# ---------------------------------------------------------------------------
# Characters


def problems(text: str | bytes) -> list[str]:
    return [str(d) for d in parse_yaml(text, "f.yaml")[1]]


def test_a_control_character_is_located_counting_characters_and_line_breaks() -> None:
    assert problems("a: é\r\nb: 'ménage \x07'\n") == [
        "f.yaml:2:12: error: U+0007 (BEL) is not allowed in a YAML file (control characters "
        "cannot appear in YAML, not even in quotes)"
    ]
    assert problems(b"a: 1\rb: \x1b[2J\n") == [
        "f.yaml:2:4: error: U+001B (ESC) is not allowed in a YAML file (control characters "
        "cannot appear in YAML, not even in quotes)"
    ]


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x00", "U+0000 (NUL)"),
        ("\x07", "U+0007 (BEL)"),
        ("\x1b", "U+001B (ESC)"),
        ("\x7f", "U+007F (DEL)"),
        ("\x9b", "U+009B (a C1 control character)"),
        ("\ud800", "U+D800 (a lone UTF-16 surrogate)"),
        ("\ufffe", "U+FFFE (a noncharacter)"),
        ("\U0010ffff", "U+10FFFF (a noncharacter)"),
        ("\ue000", "U+E000 (a private-use character)"),
        ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ],
)
def test_characters_are_named_by_code_point(char: str, shown: str) -> None:
    assert describe_character(char) == shown


def test_characters_yaml_forbids_are_refused_before_parsing() -> None:
    assert problems("a: \ufffe\n") == [
        "f.yaml:1:4: error: U+FFFE (a noncharacter) is not allowed in a YAML file"
    ]
    assert problems("a: \ud800\n") == [  # only a str can hold one: the Python API
        "f.yaml:1:4: error: U+D800 (a lone UTF-16 surrogate) is not allowed in a YAML file"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('a: "\\e[31mred"\n', "f.yaml:1:4: error: a text holds U+001B (ESC), written as an "
                               "escape (a value may hold tabs and line breaks, no other "
                               "control character)"),
        ('"\\r": 1\n', "f.yaml:1:1: error: a text holds U+000D (CR), written as an escape "
                        "(a value may hold tabs and line breaks, no other control character)"),
        ('a: "\\x9b"\n', "f.yaml:1:4: error: a text holds U+009B (a C1 control character), "
                          "written as an escape (a value may hold tabs and line breaks, no "
                          "other control character)"),
    ],
)
def test_control_characters_written_as_escapes_are_refused(text: str, message: str) -> None:
    assert problems(text) == [message]


def test_tabs_and_line_breaks_written_as_escapes_are_text() -> None:
    assert scalars('a: "x\\ty\\nz"\n')["a"].value == "x\ty\nz"


@pytest.mark.parametrize("parser", [yaml.CSafeLoader, yaml.SafeLoader])
def test_a_lone_surrogate_escape_is_refused_by_either_parser(
    parser: type[yaml.SafeLoader], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yamlsource, "_Parser", parser)
    _, diagnostics = parse_yaml('a: "\\ud800"\n', "f.yaml")
    assert len(diagnostics) == 1 and diagnostics[0].line == 1
    assert diagnostics[0].severity is Severity.ERROR


def test_encodings_other_than_utf8() -> None:
    text = "a: 1\n"
    for encoding, name in (("utf-16", "UTF-16"), ("utf-32", "UTF-32"),
                           ("utf-16-be", None), ("utf-32-le", None)):
        data = text.encode(encoding)
        if name is None:  # no byte-order mark: the first NUL shows it
            assert problems(data)[0].startswith("f.yaml:1:")
            assert "(NUL) is not allowed" in problems(data)[0]
        else:
            assert problems(data) == [
                f"f.yaml:1:1: error: file is {name} (it starts with a {name} byte-order mark); "
                "save it as UTF-8"
            ]


def test_invalid_utf8_is_located_after_crlf_and_multibyte_characters() -> None:
    assert problems("a: é\r\nb: ".encode() + b"ok \xff") == [
        "f.yaml:2:7: error: file is not valid UTF-8: byte 0xff cannot be decoded (save the "
        "file as UTF-8)"
    ]


# ---------------------------------------------------------------------------
# Structure: bounded work, located errors, no recursion


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[" * 10_000 + "]" * 10_000, "1:101"),
        ("{a: " * 10_000 + "1" + "}" * 10_000, "1:401"),
        ("- " * 10_000 + "x", "1:201"),
        ("".join(" " * i + "a:\n" for i in range(200)), "101:101"),
    ],
)
def test_ten_thousand_levels_stop_at_the_limit(text: str, where: str) -> None:
    assert problems(text) == [
        f"f.yaml:{where}: error: lists and mappings are nested more than {MAX_DEPTH} levels "
        "deep"
    ]


def test_a_wide_mapping_stops_at_the_value_limit() -> None:
    text = "".join(f"k{i}: {i}\n" for i in range(3000))  # the mapping, keys, values
    assert [str(d) for d in parse_yaml(text, "f.yaml", max_nodes=5000)[1]] == [
        "f.yaml:2500:8: error: more than 5000 values in one file (the limit)"
    ]


def test_a_huge_string_is_one_value() -> None:
    node = scalars("a: " + "x" * 1_000_000 + "\n")["a"]
    assert len(node.raw) == 1_000_000


def test_reading_stops_after_too_many_problems() -> None:
    found = problems("".join(f"- !t{i} x\n" for i in range(1000)))
    assert len(found) == MAX_PROBLEMS + 1
    assert found[-1] == (
        f"f.yaml:{MAX_PROBLEMS + 1}:3: error: more than {MAX_PROBLEMS} problems; not reading "
        "further"
    )


def test_a_yaml_1_1_directive_is_read_as_yaml_1_2_with_a_warning() -> None:
    root, diagnostics = parse_yaml("%YAML 1.1\n---\na: yes\n", "f.yaml")
    assert isinstance(root, YamlMapping)
    assert [d.severity for d in diagnostics] == [Severity.WARNING]
    node = root.get("a")
    assert isinstance(node, YamlScalar) and node.value == "yes"


def test_the_limits_are_the_documented_ones() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "catalogue.md").read_text("utf-8")
    limits = doc.split("### Limits", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[0].strip("| ").replace("`", ""): line.split(" | ")[1]
            for line in limits.splitlines() if line.startswith("| ") and " | " in line}
    assert rows["file size"].startswith(f"{yamlsource.MAX_BYTES // 2**20} MiB")
    assert rows["values"].startswith(f"{MAX_NODES:,} in a file")
    assert rows["nesting"].startswith(f"{MAX_DEPTH} levels")
    assert rows["digits in a number"].startswith(f"{yamlsource.MAX_NUMBER_DIGITS},")
    assert rows["size of a number"].startswith(f"±{MAX_NUMBER:,} ")
    assert rows["problems found while reading the YAML"] == str(MAX_PROBLEMS)
    assert rows["tiles in a Micropul catalogue"].startswith(f"{MAX_MICROPUL_TILES:,} ")
    assert rows["a Cellulae board's side"] == str(MAX_BOARD_SIDE)
    assert rows["a Cellulae tile's count"] == str(MAX_TILES)


def test_too_many_tiles(tmp_path: Path) -> None:
    # Generated: a fixture of 10,001 tiles would be a 400 kB file in the repository.
    lines = ["game: micropul", "name: Huge", f"tile_count: {MAX_MICROPUL_TILES + 1}", "tiles:",
             "  - {id: 1, face: [W B, B W], start: true}"]
    lines += [f"  - {{id: {n}, face: [W ., . .]}}" for n in range(2, MAX_MICROPUL_TILES + 2)]
    path = tmp_path / "too_many_tiles.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [str(d) for d in read_catalogue(path)[1]] == [
        f"{path}:4:1: error: {MAX_MICROPUL_TILES + 1:,} tiles are listed (expected at most "
        f"{MAX_MICROPUL_TILES:,})"]


def test_a_plain_scalar_is_resolved_without_explaining_why_it_is_text() -> None:
    # Resolving ". 1" (a tile's face) needs only "not a number"; the note's YAML 1.1
    # patterns are compiled only for a message that shows it.
    assert read_number("1:30").note.startswith("YAML 1.1 read it as a base-60 number")
    assert read_number("1:30", explain=False) == yamlsource.Number(None, "")
    assert read_number("0x1f", explain=False) == yamlsource.Number(31, "")
