"""The configuration file: precedence (default < file < command line), where each setting
comes from, values checked as on the command line, and every problem located
(tests/data/bad/config/<failure>.toml, with the exact messages)."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import pytest

from micropul_print import cli
from micropul_print.config import (
    CONFIG_NAME,
    CommandOptions,
    ConfigSpec,
    locate,
    toml_value,
)

BAD = Path(__file__).parent / "data" / "bad" / "config"


def keys_of(command: str) -> str:
    """The keys a command's table takes, as the messages list them."""
    module = cli._load(command)
    assert module is not None
    parser = cli.Parser(prog=command)
    module.add_arguments(parser)
    return ", ".join(sorted(CommandOptions(command, parser, module.CONFIG).actions))


EXPECTED = {
    "unknown_option": ["{path}:2:1: error: unknown option 'papr' in [build] (did you mean "
                       "'paper'?); [build] takes {build}"],
    "unknown_table": ["{path}:2:2: error: unknown table [bild] (did you mean [build]?): the "
                      "tables are [analyse], [build], [catalogue], [check], [play], "
                      "[position], [replay] and [rulebook], one per command"],
    "option_outside_a_table": ["{path}:1:1: error: 'paper' is outside any table: options go "
                               "under the table of their command, [analyse], [build], "
                               "[catalogue], [check], [play], [position], [replay] and "
                               "[rulebook]"],
    "command_not_a_table": ["{path}:1:1: error: build must be a table ([build]) of options, "
                            "not a string"],
    "invalid_choice": ["{path}:2:9: error: paper: invalid choice: 'a5' (choose from a4, "
                       "letter, all)"],
    "invalid_value": ["{path}:2:15: error: back-offset: expected two millimetre values X,Y "
                      "such as 0.5,-1: '1.5'"],
    "switch_not_true_or_false": ["{path}:2:11: error: numbers: expected true or false, not a "
                                 "string"],
    "true_for_a_number": ["{path}:2:9: error: games: expected a string, a number or an array "
                          "of them, not true or false"],
    "table_for_a_value": ["{path}:2:9: error: paper: expected a string, a number or an array "
                          "of them, not a table"],
    "empty_path": ["{path}:2:7: error: out: an empty path; give one, or remove the line for "
                   "the default",
                   "{path}:5:13: error: catalogue: an empty path; give one, or remove the line "
                   "for the default"],
    "path_not_a_string": ["{path}:2:7: error: out: expected one path, as a string in quotes, "
                          "not a number",
                          "{path}:5:13: error: catalogue: expected one path, as a string in "
                          "quotes, not an array (several catalogues, a sweep, go on the "
                          "command line)"],
    "empty_array": ["{path}:2:8: error: lang: expected a string, a number or an array of "
                    "them, not an empty array"],
    "not_ascii_digits": ["{path}:2:15: error: back-offset: expected two millimetre values "
                         "X,Y such as 0.5,-1: '١,٢'"],
    "not_a_whole_number": ["{path}:2:8: error: seed: the seed must be a whole number from 0 "
                           "to 9223372036854775807, got '1.5'"],
    "syntax_error": ["{path}:2:9: error: not valid TOML: invalid value"],
    "unclosed_array": ["{path}:3:1: error: not valid TOML: invalid value at the end of the "
                       "file"],
    "table_twice": ["{path}:4:7: error: not valid TOML: cannot declare ('build',) twice"],
    "not_utf8": ["{path}:2:1: error: not UTF-8 text"],
    "byte_order_mark": ["{path}:1:1: error: a byte order mark starts the file: save it as "
                        "UTF-8 without one, as TOML asks"],
    "nested_too_deep": ["{path}:2:108: error: not valid TOML: arrays or tables nested "
                        "deeper than 100"],
    "several_problems": [
        "{path}:3:9: error: bleed: bleed must be between 0 and 10 mm",
        "{path}:4:1: error: unknown option 'quoted key' in [build]; [build] takes {build}",
        "{path}:7:10: error: strict: expected true or false, not a string",
        "{path}:8:1: error: unknown option 'build' in [check]; [check] takes {check}",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_problem_of_the_file_is_located(name: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = BAD / f"{name}.toml"
    assert cli.main(["check", "--config", str(path), "--show-config"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    expected = [line.format(path=path, build=keys_of("build"), check=keys_of("check"))
                for line in EXPECTED[name]]
    assert err.splitlines() == expected


def test_every_bad_configuration_fixture_is_tested() -> None:
    assert {p.stem for p in BAD.glob("*.toml")} == set(EXPECTED)


def test_a_missing_configuration_file_is_a_one_line_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.toml"
    assert cli.main(["build", "--config", str(missing)]) == 1
    assert capsys.readouterr().err == (f"{missing}: error: cannot read the configuration "
                                       "file: file not found\n")


@pytest.mark.parametrize("command", [["build"], ["check"], ["calibrate", "--offset", "1,1"]])
def test_a_pipe_given_as_the_configuration_is_refused_without_waiting(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Opening a FIFO waits for a writer: the command hung until it was killed."""
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    assert cli.main([*command, "--config", str(fifo)]) == 1
    assert capsys.readouterr().err == (f"{fifo}: error: cannot read the configuration "
                                       "file: is a pipe, not a file\n")


def show(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[str, str]]:
    """The settings --show-config prints: {key: (value as TOML, source)}."""
    assert cli.main([*argv, "--show-config"]) == 0
    found = {}
    for line in capsys.readouterr().out.splitlines()[2:]:
        setting, source = line.rsplit("  # ", 1)
        if setting.startswith("# "):
            found[setting[2:].split(":")[0]] = ("(not set)", source)
        else:
            key, value = setting.split(" = ", 1)
            found[key] = (value.rstrip(), source)
    return found


def test_the_command_line_wins_over_the_file_and_the_file_over_the_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / CONFIG_NAME).write_text(
        "# my printer\n[build]\npaper = \"a4\"\nback-offset = [1.5, -0.5]\nnumbers = false\n"
        "scale = 97\n\n[check]\ngames = 7\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    build = show(["build", "--paper", "letter", "--dpi", "150"], capsys)
    assert build["paper"] == ('"letter"', "command line")
    assert build["dpi"] == ("150", "command line")
    assert build["back-offset"] == ("[1.5, -0.5]", f"{CONFIG_NAME}:4")
    assert build["numbers"] == ("false", f"{CONFIG_NAME}:5")
    assert build["scale"] == ("[97, 97]", f"{CONFIG_NAME}:6")
    assert build["duplex"] == ('"long"', "default")
    assert build["bleed"] == ("(not set)", "default")
    check = show(["check"], capsys)
    assert check["games"] == ("7", f"{CONFIG_NAME}:9")
    assert show(["check", "--games", "3"], capsys)["games"] == ("3", "command line")
    assert show(["check", "--no-config"], capsys)["games"] == ("200", "default")


def test_a_configuration_elsewhere_takes_its_paths_from_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "variant"
    folder.mkdir()
    config = folder / "settings.toml"
    config.write_text('[build]\ncatalogue = "mine.yaml"\ntheme = "ink-saver"\nout = "kit"\n'
                      f'[rulebook]\ntheme = "look.yaml"\ncatalogue = "{tmp_path}/abs.yaml"\n',
                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    build = show(["build", "--config", "variant/settings.toml"], capsys)
    assert build["catalogue"][0] == f'"{os.path.join("variant", "mine.yaml")}"'
    assert build["theme"][0] == '"ink-saver"'  # a built-in theme's name is not a path
    assert build["out"][0] == f'"{os.path.join("variant", "kit")}"'
    rulebook = show(["rulebook", "--config", "variant/settings.toml"], capsys)
    assert rulebook["theme"][0] == f'"{os.path.join("variant", "look.yaml")}"'
    assert rulebook["catalogue"][0] == f'"{tmp_path}/abs.yaml"'


def test_values_from_the_file_reach_the_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / CONFIG_NAME).write_text(
        '[build]\npaper = "letter"\nonly = ["sheets"]\nout = "kit"\nquiet = true\n'
        'calibration = false\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["build"]) == 0
    assert capsys.readouterr() == ("", "")
    assert sorted(p.name for p in (tmp_path / "kit" / "sheets").iterdir()) == [
        "micropul-tiles-letter.pdf"]


def test_the_defaults_in_effect_without_a_file_are_the_parser_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    settings = show(["build"], capsys)
    assert {source for _value, source in settings.values()} == {"default"}
    assert settings["only"] == ('["svg", "png", "sheets", "rulebooks"]', "default")
    assert settings["paper"] == ('"a4"', "default")
    assert "watch" not in settings and "config" not in settings


@pytest.mark.parametrize("command", ["build", "rulebook", "check"])
def test_the_command_line_undoes_every_switch_of_the_file(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    options = cli.configurable_commands()[command]
    switches = {key: action.default for key, action in options.actions.items()
                if action.nargs == 0}
    assert switches  # every command has some, e.g. strict, quiet, booklet
    (tmp_path / CONFIG_NAME).write_text(
        f"[{command}]\n" + "".join(f"{key} = {str(not default).lower()}\n"
                                   for key, default in switches.items()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    from_file = show([command], capsys)
    undo = []
    for line, (key, default) in enumerate(switches.items(), start=2):
        assert from_file[key] == (str(not default).lower(), f"{CONFIG_NAME}:{line}")
        # The flag that gives the default back: --no-strict, --numbers, --booklet.
        (flag,) = [action.option_strings[0] for action in options.every_action[key]
                   if action.const == default]
        undo.append(flag)
    from_command_line = show([command, *undo], capsys)
    for key, default in switches.items():
        assert from_command_line[key] == (str(default).lower(), "command line")


def test_a_switch_of_the_file_reaches_the_command_when_it_has_an_opposite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # --booklet and --no-booklet share one key: the file's value used to lose to
    # --booklet's default, taken for a command-line value.
    (tmp_path / CONFIG_NAME).write_text(
        '[rulebook]\nbooklet = false\nlang = ["en"]\npaper = "a4"\nout = "kit"\n',
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert show(["rulebook"], capsys)["booklet"] == ("false", f"{CONFIG_NAME}:2")
    assert cli.main(["rulebook", "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "kit" / "rules").iterdir()) == [
        "micropul-rules-en-a4.pdf"]


def test_switches_take_the_name_of_what_they_switch() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-numbers", dest="numbers", action="store_false")
    parser.add_argument("--fast", action="store_true")
    parser.add_argument("--mode", action="store_const", const="quick", default="slow")
    parser.add_argument("--skip", dest="skip_me")
    options = CommandOptions("x", parser, ConfigSpec(exclude=frozenset({"skip-me"})))
    assert sorted(options.actions) == ["fast", "mode", "numbers"]
    here = Path()
    assert options.convert("numbers", False, here) is False
    assert options.convert("fast", True, here) is True
    assert options.convert("mode", True, here) == "quick"
    assert options.convert("mode", False, here) == "slow"


def test_keys_and_values_are_found_wherever_toml_allows_them() -> None:
    text = ('# a comment [not a table]\ntop = 1\n[build]\npaper = "a4"   # x = 2\n'
            'back-offset = [1.5,\n   -0.5]\n"quoted key" = """multi\nline "" = string"""\n'
            "lit = 'c:\\x'\ninline = { a = 1, b.c = \"x\" }\n[ rulebook ]\n"
            "dotted.key = 2020-01-01 10:00:00\n[[pages]]\nx = 1\n")
    spots = locate(text)
    assert spots[("top",)] == (2, 1, 2, 7)
    assert spots[("build",)][:2] == (3, 2)
    assert spots[("build", "paper")] == (4, 1, 4, 9)
    assert spots[("build", "back-offset")] == (5, 1, 5, 15)
    assert spots[("build", "quoted key")] == (7, 1, 7, 16)
    assert spots[("build", "lit")] == (9, 1, 9, 7)
    assert spots[("build", "inline", "a")] == (10, 12, 10, 16)
    assert spots[("build", "inline", "b", "c")] == (10, 21, 10, 25)
    assert spots[("rulebook",)][:2] == (11, 3)
    assert spots[("rulebook", "dotted", "key")] == (12, 8, 12, 14)
    assert spots[("pages", "x")] == (14, 1, 14, 5)
    assert ("build", "x") not in spots  # inside a comment


def test_settings_are_shown_as_toml() -> None:
    assert [toml_value(v) for v in (True, 3, 97.0, 1.5, (1.5, -0.5), "a\"b", frozenset("ba"))] \
        == ["true", "3", "97", "1.5", "[1.5, -0.5]", '"a\\"b"', '["a", "b"]']


@pytest.mark.parametrize("command", ["build", "rulebook", "check"])
def test_every_key_is_documented(command: str) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")
    (row,) = [line for line in doc.splitlines() if line.startswith(f"| `[{command}]` |")]
    assert sorted(key.strip("`") for key in re.findall(r"`[a-z-]+`", row)) == sorted(
        keys_of(command).split(", "))


@pytest.mark.parametrize(("toml", "expected"), [
    ('lang = "xx"', "2:8: error: lang: unknown language 'xx' for the micropul rulebook; "
                    "choose from en,de,es,fr,it,pl"),
    ('locales = "nodir"', "2:11: error: locales: no folder 'nodir'"),
])
def test_a_value_the_rulebook_refuses_is_blamed_on_the_file_not_an_option(
        toml: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path(CONFIG_NAME).write_text(f"[rulebook]\n{toml}\n")
    assert cli.main(["rulebook", "--check"]) == 1
    assert capsys.readouterr().err == f"{CONFIG_NAME}:{expected}\n"
    assert cli.main(["rulebook", "--check", "--no-config", f"--{toml.split()[0]}",
                     toml.split('"')[1]]) == 2  # typed: the option's own usage error
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print rulebook: error: argument --{expected.split(': ', 2)[2]}")


def test_an_input_the_file_names_that_is_not_there_is_blamed_on_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path(CONFIG_NAME).write_text('[build]\ntheme = "nonexistent.yaml"\n'
                                 'catalogue = "nope.yaml"\n[rulebook]\ntheme = "x"\n')
    themes = "(nor a built-in theme: classic, ink-saver, colour-safe)"
    assert cli.main(["build", "--out", "kit"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:2:9: error: theme: file not found: 'nonexistent.yaml' {themes}\n"
        f"{CONFIG_NAME}:3:13: error: catalogue: file not found: 'nope.yaml'\n")
    assert cli.main(["rulebook", "--check"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:5:9: error: theme: file not found: 'x' {themes}\n")
    assert cli.main(["build", "--no-config", "--theme", "nonexistent.yaml"]) == 1
    assert capsys.readouterr().err == "nonexistent.yaml: error: file not found\n"  # typed
    assert not (tmp_path / "kit").exists()


def test_an_out_the_file_names_that_cannot_be_a_kit_s_folder_is_blamed_on_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`out = "notes.txt"` (a file): the error named notes.txt alone, as though typed."""
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("mine")
    Path(CONFIG_NAME).write_text('[build]\nout = "notes.txt"\n')
    assert cli.main(["build", "--only", "svg"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:2:7: error: out: notes.txt: cannot write the kit here: this is a "
        "file, not a directory\n")
    assert cli.main(["build", "--only", "svg", "--out", "notes.txt"]) == 1  # typed
    assert capsys.readouterr().err == (
        "notes.txt: error: cannot write the kit here: this is a file, not a directory\n")
    Path(CONFIG_NAME).write_text('[rulebook]\nout = "notes.txt"\n')
    assert cli.main(["rulebook", "--lang", "en"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:2:7: error: out: notes.txt: cannot write the rulebooks here: this is "
        "a file, not a directory\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [CONFIG_NAME, "notes.txt"]


def test_an_input_the_file_names_that_is_a_folder_is_blamed_on_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As a missing one: the reader's ".: error: is a directory, not a file" named the
    folder alone, as though it had been typed, not the line of the file that named it."""
    monkeypatch.chdir(tmp_path)
    Path("themes").mkdir()
    Path(CONFIG_NAME).write_text('[build]\ntheme = "themes"\ncatalogue = "."\n'
                                 '[check]\ncatalogue = "themes"\n')
    assert cli.main(["build", "--out", "kit"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:2:9: error: theme: 'themes' is a directory, not a file\n"
        f"{CONFIG_NAME}:3:13: error: catalogue: '.' is a directory, not a file\n")
    assert cli.main(["check"]) == 1
    assert capsys.readouterr().err == (
        f"{CONFIG_NAME}:5:13: error: catalogue: 'themes' is a directory, not a file\n")
    assert cli.main(["check", "--no-config", "themes"]) == 1
    assert capsys.readouterr().err == "themes: error: is a directory, not a file\n"  # typed
    assert not (tmp_path / "kit").exists()
