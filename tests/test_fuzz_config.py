"""Hostile configuration files, generated: the TOML reader (config.read_config) gives
the settings or located diagnostics, never another exception, whatever the keys and
values (numbers of thousands of digits, NUL characters, nesting, dates, any text).

Work is bounded by the size of what is generated, never by a clock (no deadlines)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from micropul_print import cli
from micropul_print.base.errors import UserError
from micropul_print.config import read_config

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COMMANDS = cli.configurable_commands()
KEYS = sorted({key for options in COMMANDS.values() for key in options.actions})

characters = st.characters(exclude_categories=["Cs"])
digits = st.text(alphabet="0123456789", min_size=1, max_size=6000)
scalars = st.one_of(
    digits,
    digits.map(lambda d: f"-{d}"),
    st.text(alphabet="0123456789abcdef", min_size=1, max_size=5000).map(lambda h: f"0x{h}"),
    st.text(alphabet="01234567", min_size=1, max_size=5000).map(lambda o: f"0o{o}"),
    st.floats().map(lambda f: repr(f).replace("inf", "inf").lower()),
    st.sampled_from(["1e99999", "-1e-99999", "nan", "+inf", "1_000", "0.5", "true",
                     "false", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
                     "9999-12-31T23:59:60Z", '"a\\u0000b"', '"\\u0000"', '""', "''",
                     "2000-02-30"]),
    st.text(characters, max_size=200).map(lambda t: json.dumps(t, ensure_ascii=False)),
    st.text(characters, max_size=50).map(lambda t: json.dumps("\0".join([t, t]))),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
    st.dictionaries(st.sampled_from(KEYS), inner, max_size=3).map(
        lambda table: "{" + ", ".join(f"{k} = {v}" for k, v in table.items()) + "}"),
), max_leaves=8)
keys = st.one_of(st.sampled_from(KEYS), st.text(characters, min_size=1, max_size=20).map(
    lambda k: json.dumps(k, ensure_ascii=False)))
tables = st.sampled_from([*sorted(COMMANDS), "nope"])
documents = st.lists(st.tuples(tables, st.lists(st.tuples(keys, values), max_size=4)),
                     max_size=3).map(lambda parts: "".join(
                         f"[{table}]\n" + "".join(f"{k} = {v}\n" for k, v in lines)
                         for table, lines in parts))


def read(text: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "micropul-print.toml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        try:
            read_config(path, COMMANDS)
        except UserError as problem:
            assert problem.diagnostics
            for diagnostic in problem.diagnostics:
                assert diagnostic.file == str(path)
                assert diagnostic.line >= 1, diagnostic


@SETTINGS
@given(documents)
def test_any_document_gives_settings_or_located_problems(text: str) -> None:
    read(text)


@SETTINGS
@given(st.sampled_from(sorted(COMMANDS)), st.text(characters, max_size=400))
def test_any_text_in_a_table_gives_settings_or_located_problems(table: str, text: str) -> None:
    read(f"[{table}]\n{text}")


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes_give_settings_or_located_problems(data: bytes) -> None:
    read(data)


def test_a_number_past_python_s_limit_of_digits_is_located() -> None:
    """tomllib raised ValueError ("Exceeds the limit (4300 digits)"): an internal error
    in check, build and the watcher alike."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "micropul-print.toml"
        path.write_text("[build]\n\ndpi =  " + "7" * 5000 + "\n")
        try:
            read_config(path, COMMANDS)
        except UserError as problem:
            assert [str(d) for d in problem.diagnostics] == [
                f"{path}:3:8: error: a number of more than 19 digits: no option takes one"]
        else:
            raise AssertionError("read")


def test_a_nul_character_in_a_path_is_located() -> None:
    """Path('a\\0b') raised "embedded null byte": an internal error."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "micropul-print.toml"
        path.write_text('[build]\nout = "kit\\u0000"\n')
        try:
            read_config(path, COMMANDS)
        except UserError as problem:
            assert [str(d) for d in problem.diagnostics] == [
                f"{path}:2:7: error: out: the value holds a NUL character, which no option "
                "can take (nor can the command line pass one)"]
        else:
            raise AssertionError("read")


def test_a_huge_value_is_quoted_short() -> None:
    """The scale's message quoted all 5,000 characters of the value, on one line."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "micropul-print.toml"
        path.write_text('[build]\nscale = "1' + "0" * 5000 + '"\n')
        try:
            read_config(path, COMMANDS)
        except UserError as problem:
            (diagnostic,) = problem.diagnostics
            assert len(str(diagnostic)) < 400
            assert str(diagnostic).endswith("(5001 characters)")
        else:
            raise AssertionError("read")
