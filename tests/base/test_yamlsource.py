"""The safe located YAML reader, independent of any game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from micropul_print.base.errors import Diagnostic, Severity
from micropul_print.base.yamlsource import (
    MAX_DEPTH,
    Where,
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    check_keys,
    describe,
    expect_bool,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    parse_yaml,
    read_yaml,
)


def parse(text: str | bytes) -> YamlNode:
    root, diagnostics = parse_yaml(text, "f.yaml")
    assert diagnostics == []
    assert root is not None
    return root


def problems(text: str | bytes, **limits: int) -> list[str]:
    return [str(d) for d in parse_yaml(text, "f.yaml", **limits)[1]]


def at(root: YamlMapping, key: str) -> YamlNode:
    node = root.get(key)
    assert node is not None
    return node


def mapping(text: str) -> YamlMapping:
    root = parse(text)
    assert isinstance(root, YamlMapping)
    return root


def test_every_node_knows_its_line_and_column() -> None:
    root = mapping("a: 1\nlist:\n  - x\n  - {k: 'quoted'}\n")
    assert (root.line, root.col) == (1, 1)
    items = root.get("list")
    assert isinstance(items, YamlSequence) and (items.line, items.col) == (3, 3)
    first, second = items.items
    assert isinstance(first, YamlScalar) and first.where == Where("f.yaml", 3, 5)
    assert isinstance(second, YamlMapping) and (second.line, second.col) == (4, 5)
    key = second.key_node("k")
    assert key is not None and key.col == 6


def test_columns_count_characters_not_bytes() -> None:
    root = mapping("ménage: x\n")
    assert at(root, "ménage").col == 9


def test_scalars_keep_raw_text_and_resolved_tag() -> None:
    root = mapping("a: 1\nb: '1'\nc: yes\nd:\ne: 2.5\nf: 2001-01-01\ng: 0x1f\nh: !!str 7\n")
    seen = {}
    for key, node in root.entries:
        assert isinstance(node, YamlScalar)
        seen[key.raw] = (node.value, node.raw, node.tag)
    assert seen == {
        "a": (1, "1", "int"),
        "b": ("1", "1", "str"),
        "c": ("yes", "yes", "str"),  # YAML 1.2: only true and false are booleans
        "d": (None, "", "null"),
        "e": (2.5, "2.5", "float"),
        "f": ("2001-01-01", "2001-01-01", "str"),  # no implicit timestamps
        "g": (31, "0x1f", "int"),
        "h": ("7", "7", "str"),
    }


def test_where_at_points_inside_one_line_scalars() -> None:
    root = mapping("p: W X\nq: 'W X'\nr: \"W\\tX\"\ns: >\n  W X\n")
    expected = {"p": 6, "q": 7, "r": 4, "s": 4}  # escapes and block scalars: the start
    for key, col in expected.items():
        node = root.get(key)
        assert isinstance(node, YamlScalar)
        assert node.where_at(2).col == col, key


def test_aliases_share_the_anchored_value() -> None:
    root = mapping("a: &row [W, B]\nb: *row\n")
    assert root.get("a") is root.get("b")


def test_file_problems_have_no_position(tmp_path: Path) -> None:
    assert [str(d) for d in read_yaml(tmp_path)[1]] == [
        f"{tmp_path}: error: is a directory, not a file"
    ]
    missing = tmp_path / "missing.yaml"
    assert [str(d) for d in read_yaml(missing)[1]] == [f"{missing}: error: file not found"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(tmp_path: Path) -> None:
    locked = tmp_path / "locked.yaml"
    locked.write_text("a: 1\n")
    locked.chmod(0)
    assert [str(d) for d in read_yaml(locked)[1]] == [
        f"{locked}: error: cannot read file: permission denied"
    ]


def test_a_device_is_never_read() -> None:
    # /dev/zero never ends, /dev/ptmx would wait: refused before opening.
    root, diagnostics = read_yaml("/dev/zero", max_bytes=1000)
    assert root is None
    assert [str(d) for d in diagnostics] == ["/dev/zero: error: is a device, not a file"]


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_size_limit_applies_to_files_that_report_no_size() -> None:
    # A /proc file is a regular file of size 0 with more to read: only the bounded
    # read stops it.
    root, diagnostics = read_yaml("/proc/self/maps", max_bytes=10)
    assert root is None
    assert [str(d) for d in diagnostics] == [
        "/proc/self/maps: error: file is larger than the limit of 10 bytes (9.53674e-06 MiB)"
    ]


def test_byte_order_mark_is_accepted() -> None:
    assert mapping("\ufeffa: 1\n").get("a") is not None
    root, diagnostics = parse_yaml(b"\xef\xbb\xbfa: 1\n", "f.yaml")
    assert diagnostics == [] and isinstance(root, YamlMapping)


def test_not_utf8_points_at_the_first_bad_byte() -> None:
    assert problems(b"a: ok\nb: caf\xc3\xa9 \xc3(\n") == [
        "f.yaml:2:9: error: file is not valid UTF-8: byte 0xc3 cannot be decoded "
        "(save the file as UTF-8)"
    ]


def test_empty_and_comment_only_files() -> None:
    expected = ["f.yaml: error: file is empty (no YAML content)"]
    assert problems("") == expected
    assert problems("# nothing\n\n   \n") == expected


def test_syntax_errors_use_the_parser_mark() -> None:
    assert problems("a: [1, 2\nb: 3\n") == [
        "f.yaml:2:2: error: invalid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence started at line 1)"
    ]


def test_every_bad_tag_is_reported_and_nothing_is_constructed() -> None:
    text = (
        "a: !!python/object/apply:os.system ['false']\n"
        "b: !!binary aGk=\n"
        "c: !custom {x: 1}\n"
        "d: !!seq {x: 1}\n"
        "e: !!int twelve\n"
    )
    root, diagnostics = parse_yaml(text, "f.yaml")
    assert root is None
    allowed = "(only the standard tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq"
    assert [str(d) for d in diagnostics] == [
        f"f.yaml:1:4: error: unsupported tag '!!python/object/apply:os.system' {allowed} "
        "are allowed)",
        f"f.yaml:2:4: error: unsupported tag '!!binary' {allowed} are allowed)",
        f"f.yaml:3:4: error: unsupported tag '!custom' {allowed} are allowed)",
        f"f.yaml:4:4: error: unsupported tag '!!seq' {allowed} are allowed)",
        "f.yaml:5:4: error: 'twelve' is not a valid !!int value",
    ]


def test_duplicate_keys_keep_the_first_value_and_are_errors() -> None:
    root, diagnostics = parse_yaml("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert [str(d) for d in diagnostics] == [
        "f.yaml:3:1: error: duplicate key 'a' (already set at line 1; each key may appear once)"
    ]
    assert isinstance(root, YamlMapping) and root.keys() == ["a", "b"]
    first = root.get("a")
    assert isinstance(first, YamlScalar) and first.value == 1


def test_keys_of_different_types_are_different_keys() -> None:
    assert mapping("1: a\n'1': b\n").keys() == ["1", "1"]


def test_complex_keys_are_refused() -> None:
    assert problems("? [a, b]\n: 1\n") == [
        "f.yaml:1:3: error: mapping keys must be plain values, not a list"
    ]


def test_several_documents() -> None:
    assert problems("a: 1\n---\na: 2\n") == [
        "f.yaml:2:1: error: several YAML documents in one file (expected one; "
        "remove the '---' line)"
    ]
    assert isinstance(parse("---\na: 1\n...\n"), YamlMapping)


def billion_laughs(levels: int) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bombs_are_refused_at_the_alias_that_crosses_the_limit() -> None:
    root, diagnostics = parse_yaml(billion_laughs(10), "f.yaml")
    assert root is None
    assert [str(d) for d in diagnostics] == [
        "f.yaml:5:45: error: aliases expand to more than 100000 values "
        "(is this a 'billion laughs' alias bomb?)"
    ]


def test_alias_limit_counts_every_expanded_value() -> None:
    text = billion_laughs(3)  # root + 3 keys + a0 (1 + 10) + a1 (1 + 10 * 11) + a2 (1 + 10 * 111)
    assert problems(text, max_nodes=1237) == []
    assert problems(text, max_nodes=1236) == [
        "f.yaml:3:55: error: aliases expand to more than 1236 values "
        "(is this a 'billion laughs' alias bomb?)"
    ]


def test_recursive_and_undefined_aliases() -> None:
    assert problems("a: &a {b: *a}\n") == [
        "f.yaml:1:11: error: recursive alias '*a' (it refers to a value that contains it)"
    ]
    assert problems("a: *nowhere\n") == [
        "f.yaml:1:4: error: undefined alias '*nowhere' (expected an anchor '&nowhere' before it)"
    ]


def test_deep_nesting_is_refused_without_recursing() -> None:
    depth = 200_000  # libyaml's own composer crashes the interpreter on this
    assert problems("[" * depth + "]" * depth) == [
        f"f.yaml:1:{MAX_DEPTH + 1}: error: lists and mappings are nested more than "
        f"{MAX_DEPTH} levels deep"
    ]
    assert isinstance(parse("[" * MAX_DEPTH + "]" * MAX_DEPTH), YamlSequence)


def test_check_keys_warns_about_unknown_and_requires_the_required() -> None:
    root = mapping("name: x\ncolor: red\n")
    assert [str(d) for d in check_keys(root, "the theme", ["name", "size"], ["colour"])] == [
        "f.yaml:2:1: warning: unknown key 'color' in the theme (expected name, size or colour)",
        "f.yaml:1:1: error: the theme is missing the required key 'size'",
    ]


def test_expect_helpers_report_what_was_expected() -> None:
    root = mapping("n: seven\nb: maybe\nl: x\nm: [1]\nt: ''\ne:\n")
    out: list[Diagnostic] = []

    def get(key: str) -> YamlNode:
        return at(root, key)

    assert expect_int(get("n"), "'n'", out) is None
    assert expect_bool(get("b"), "'b'", out) is None
    assert expect_sequence(get("l"), "'l'", out) is None
    assert expect_mapping(get("m"), "'m'", out) is None
    assert expect_text(get("t"), "'t'", out) is None
    assert expect_text(get("e"), "'e'", out) is None
    assert [str(d) for d in out] == [
        "f.yaml:1:4: error: 'n' must be a whole number, got 'seven'",
        "f.yaml:2:4: error: 'b' must be true or false, got 'maybe'",
        "f.yaml:3:4: error: 'l' must be a list, got 'x'",
        "f.yaml:4:4: error: 'm' must be a mapping of keys, got a list",
        "f.yaml:5:4: error: 't' must be a non-empty text, got ''",
        "f.yaml:6:3: error: 'e' must be a non-empty text, got nothing",
    ]
    assert all(d.severity is Severity.ERROR for d in out)
    assert describe(root) == "a mapping"


def test_value_limit_without_aliases_is_not_called_a_bomb() -> None:
    assert problems("[1, 2, 3]\n", max_nodes=3) == [
        "f.yaml:1:8: error: more than 3 values in one file (the limit)"
    ]


def test_pipes_are_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    assert [str(d) for d in read_yaml(pipe)[1]] == [
        f"{pipe}: error: is a pipe, not a file"
    ]
