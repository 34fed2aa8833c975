"""The command line loads only the module of the command it runs."""

from __future__ import annotations

import gc
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from micropul_print import cli
from micropul_print.cli import main


def _modules_after(code: str) -> set[str]:
    """Module names imported by a fresh interpreter running ``code``."""
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    return set(result.stdout.split())


def test_a_named_command_imports_its_module_alone() -> None:
    loaded = _modules_after("from micropul_print import cli\n"
                            "cli.build_parser(cli.command_named(['build', '--help']))")
    commands = {m for m in loaded if m.startswith("micropul_print.commands.")}
    assert commands == {"micropul_print.commands.build", "micropul_print.commands.values"}
    assert "micropul_print.games.micropul.rules" not in loaded


def test_a_build_without_rulebooks_loads_no_rulebook(tmp_path: Path) -> None:
    """The rulebook package brings Babel, the books and their checks: a build of the
    tile files and sheets alone has no use for them."""
    loaded = _modules_after(
        "from micropul_print import cli\n"
        f"cli.main(['build', '--only', 'svg,sheets', '--paper', 'a4', '--no-config', "
        f"'--quiet', '--out', {str(tmp_path)!r}])")
    assert "micropul_print.rulebook" not in loaded and "babel" not in loaded
    assert (tmp_path / "sheets" / "micropul-tiles-a4.pdf").is_file()
    # Nor a TOML parser without a configuration file, nor fontTools' font parser (the
    # glyph table has every character of the sheets), nor difflib without a mistake.
    assert {"tomllib", "fontTools.ttLib", "difflib"}.isdisjoint(loaded)


def test_no_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    usage = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"    {name}" in usage


@pytest.mark.parametrize("argv, expected", [
    (["build", "--only", "svg"], "build"),
    (["check"], "check"),
    (["--help"], None),
    ([], None),
    (["bulid"], None),
    (["--version", "build"], None),
])
def test_command_named(argv: list[str], expected: str | None) -> None:
    assert cli.command_named(argv) == expected


def test_a_misspelt_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bulid"])
    assert exit_.value.code == 2
    assert "invalid choice: 'bulid'" in capsys.readouterr().err


@pytest.mark.parametrize(("words", "hint"), [
    (["buidl"], "(did you mean 'build'?)"),
    (["build", "--pape", "a4"], "(did you mean '--paper'?)"),
    (["check", "--game", "micropl"], "(did you mean 'micropul'?)"),
    (["build", "--paper", "a5"], ""),
])
def test_a_misspelt_word_is_a_usage_error_with_a_suggestion(
        words: list[str], hint: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(words)
    assert exit_.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith(hint) and "error:" in last


def test_options_are_never_abbreviated(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["build", "--pap", "a4"])
    assert exit_.value.code == 2


@pytest.mark.parametrize("words", [["--back-offset", "-1.5,0.5"], ["--back-offset=-1.5,0.5"],
                                   ["--back-offset", "-2,-3"]])
def test_negative_back_offsets_in_both_forms(words: list[str]) -> None:
    from micropul_print.cli import join_negative_values

    parser, _ = cli.build_parser("build")
    joined = join_negative_values(["build", *words])
    assert parser.parse_args(joined).back_offset in ((-1.5, 0.5), (-2.0, -3.0))


@pytest.mark.parametrize(("command", "option", "value", "expected"), [
    ("build", "--back-offset", "-.5,1", (-0.5, 1.0)),
    ("build", "--back-offset", "-1e1,0", (-10.0, 0.0)),
    ("build", "--back-offset", "-1,+1", (-1.0, 1.0)),
    ("build", "--back-offset", "-1.5E-1, -2.", (-0.15, -2.0)),
    ("build", "--bleed", "-0e0", -0.0),
    ("calibrate", "--offset", "-1e1,0", (-10.0, 0.0)),
])
def test_every_form_of_a_negative_number_in_both_forms(
        command: str, option: str, value: str, expected: object) -> None:
    """argparse itself lets only -1 and -1.5 through as values."""
    parser, _ = cli.build_parser(command)
    dest = option[2:].replace("-", "_")
    for words in ([command, option, value], [command, f"{option}={value}"]):
        assert getattr(parser.parse_args(cli.join_negative_values(words)), dest) == expected


def test_an_infinite_negative_offset_is_refused_for_its_range(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["build", "--back-offset", "-inf,0"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print build: error: argument --back-offset: each back offset must be "
        "within 20 mm")


def test_output_that_cannot_be_written_is_one_line_and_status_1(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "micropul_print", "catalogue"],
                                stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert result.returncode == 1
    assert result.stderr == "micropul-print: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["build", "--help"]])
def test_help_into_a_full_disk_is_reported_not_lost(argv: list[str]) -> None:
    """argparse drops a failed write of its help and exits 0."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "micropul_print", *argv],
                                stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert (result.returncode, result.stderr) == (
        1, "micropul-print: cannot write the output: No space left on device\n")


@pytest.mark.parametrize("argv", [["catalogue"], ["--version"], ["check", "--games", "1"],
                                  ["build", "--only", "sheets", "--paper", "a4", "--quiet"]])
def test_a_closed_stdout_is_written_to_as_nowhere(argv: list[str], tmp_path: Path) -> None:
    """Python makes sys.stdout None when descriptor 1 is closed (``exec 1>&-``): the run
    is the same as one into /dev/null."""
    command = [sys.executable, "-m", "micropul_print", *argv]
    (tmp_path / "closed").mkdir()
    (tmp_path / "devnull").mkdir()
    closed = subprocess.run(command, cwd=tmp_path / "closed", preexec_fn=lambda: os.close(1),
                            stderr=subprocess.PIPE, text=True, check=False)
    nowhere = subprocess.run(command, cwd=tmp_path / "devnull", stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, check=False)
    assert (closed.returncode, closed.stderr) == (0, nowhere.stderr)


def test_a_closed_stderr_too_still_gives_the_status() -> None:
    result = subprocess.run([sys.executable, "-m", "micropul_print", "bulid"],
                            preexec_fn=lambda: os.closerange(1, 3), check=False)
    assert result.returncode == 2


def test_a_bug_is_one_line_and_status_70(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from micropul_print.commands import catalogue

    def broken(_args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(catalogue, "run", broken)
    assert main(["catalogue"]) == 70
    assert capsys.readouterr().err == (
        "micropul-print: internal error: ZeroDivisionError: division by zero (this is a bug; "
        "MICROPUL_PRINT_TRACEBACK=1 shows where)\n")


@pytest.mark.parametrize("value", ["10000001", "-1", "²", "1_000", "1e3", "9" * 5000, " "])
def test_the_number_of_games_is_a_plain_bounded_number(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--games", value])
    assert exit_.value.code == 2
    assert "argument --games: the number of games must be" in capsys.readouterr().err


def test_a_file_the_system_refuses_is_one_line_and_status_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    from micropul_print.commands import catalogue

    def refused(_args: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", "/out/tiles/tile-01.svg")

    monkeypatch.setattr(catalogue, "run", refused)
    assert main(["catalogue"]) == 1
    assert capsys.readouterr().err == (
        "/out/tiles/tile-01.svg: error: cannot write or read it: Permission denied\n")


@pytest.mark.parametrize("device", ["/dev/ptmx", "/dev/zero", "/dev/null"])
def test_a_device_given_as_a_catalogue_is_refused_at_once(
        device: str, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    assert main(["catalogue", device]) == 1
    assert capsys.readouterr().err == f"{device}: error: is a device, not a file\n"


def test_the_command_freezes_what_main_left_before_the_process_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The console command returns main's status, and freezes the objects (the
    interpreter's last collection then has nothing to search)."""
    calls: list[str] = []

    def main(argv: list[str] | None = None) -> int:
        calls.append("main")
        return 3

    monkeypatch.setattr(cli, "main", main)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    assert cli.entry() == 3
    assert calls == ["main", "freeze"]


def test_python_dash_m_runs_the_console_command(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import gc, runpy, sys\n"
         "sys.argv = ['micropul-print', 'init', 'mine']\n"
         "try:\n    runpy.run_module('micropul_print', run_name='__main__')\n"
         "except SystemExit as exc:\n    print(exc.code, gc.get_freeze_count() > 0)"],
        capture_output=True, text=True, check=True, cwd=tmp_path)
    assert result.stdout.split()[-2:] == ["0", "True"]
    assert (tmp_path / "mine").is_dir()


@pytest.mark.parametrize(("argv", "said"), [
    (["play", "--bots", "random", "--record"], "cannot write the game record"),
    (["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1",
      "--json"], "--json: cannot write the report's JSON"),
    (["rulebook", "--lang", "nl", "--template"], "cannot write the catalogue"),
])
def test_a_pipe_given_as_an_output_file_is_refused_not_replaced(
        argv: list[str], said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main([*argv, str(fifo)]) == 1
    assert capsys.readouterr().err == f"{fifo}: error: {said} here: this is a pipe, not a file\n"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize("argv", [
    ["catalogue"], ["play", "--bots", "random"],
    ["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1"]])
def test_a_name_with_a_bidi_override_or_a_line_break_is_escaped_on_stdout_too(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue name may hold U+202E and a line break; printed raw, they reordered the
    terminal's line and split it (catalogue and analyse printed both)."""
    from micropul_print.catalogue.loader import shipped_catalogue

    text = shipped_catalogue("micropul").read_text(encoding="utf-8")
    catalogue = tmp_path / "bidi.yaml"
    catalogue.write_text(text.replace("\nname: Micropul\n", '\nname: "Mine\\u202eX\\nY"\n',
                                      1), encoding="utf-8")
    assert main([*argv, str(catalogue)]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "Mine\\u202eX\\nY" in out


_EMPTY_FILE = "an empty file name; give a file"
_EMPTY_FOLDER = "an empty folder name; give a folder, . for this one"
_EMPTY_THEME = "an empty theme name; give a built-in theme's name or a theme file"


@pytest.mark.parametrize(("words", "message"), [
    (["replay", "g.json", "--out", ""], f"argument --out: {_EMPTY_FOLDER}"),
    (["analyse", "--games", "2", "--bots", "random", "--report", ""],
     f"argument --report: {_EMPTY_FOLDER}"),
    (["analyse", "--json", " "], "argument --json: an empty file name; give a file, - for "
     "stdout"),
    (["analyse", "--against", ""], f"argument --against: {_EMPTY_FILE}"),
    (["analyse", ""], f"argument CATALOGUE: {_EMPTY_FILE}"),
    (["build", ""], f"argument CATALOGUE: {_EMPTY_FILE}"),
    (["build", "--theme", ""], f"argument --theme: {_EMPTY_THEME}"),
    (["catalogue", ""], f"argument CATALOGUE: {_EMPTY_FILE}"),
    (["check", " "], f"argument CATALOGUE: {_EMPTY_FILE}"),
    (["check", "--config", ""], f"argument --config: {_EMPTY_FILE}"),
    (["calibrate", "--config", ""], f"argument --config: {_EMPTY_FILE}"),
    (["rulebook", "--locales", ""], f"argument --locales: {_EMPTY_FOLDER}"),
    (["rulebook", "--template", "", "--lang", "en"], f"argument --template: {_EMPTY_FILE}"),
    (["rulebook", "--catalogue", ""], f"argument --catalogue: {_EMPTY_FILE}"),
    (["play", "--record", ""], f"argument --record: {_EMPTY_FILE}"),
    (["play", ""], f"argument CATALOGUE: {_EMPTY_FILE}"),
    (["position", ""], f"argument FILE: {_EMPTY_FILE}"),
    (["position", "p.yaml", "--catalogue", ""], f"argument --catalogue: {_EMPTY_FILE}"),
    (["replay", ""], f"argument RECORD: {_EMPTY_FILE}"),
    (["replay", "g.json", "--catalogue", "\t"], f"argument --catalogue: {_EMPTY_FILE}"),
    (["replay", "g.json", "--theme", ""], f"argument --theme: {_EMPTY_THEME}"),
])
def test_an_empty_path_is_a_usage_error_in_every_command(
        words: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As build --out "": an unset shell variable, never this folder or the shipped
    catalogue."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(words)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {words[0]}: error: {message}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("words", "message"), [
    (["analyse", "--players", "2,,1"],
     "argument --players: empty player count in '2,,1' (write them as 1,2)"),
    (["analyse", "--variants", "standard,"],
     "argument --variants: empty variant in 'standard,' (write them as 5,7)"),
    (["analyse", "--variants", ", standard"],
     "argument --variants: empty variant in ', standard' (write them as 5,7)"),
    (["build", "--lang", "en,"], "argument --lang: empty language in 'en,' (write them as "
     "en,de)"),
    (["build", "--only", "svg,"], "argument --only: empty part in 'svg,' (write them as "
     "svg,png)"),
    (["rulebook", "--lang", "en,", "--check"],
     "argument --lang: empty language code in 'en,' (write them as en,it)"),
    (["rulebook", "--untranslated", "en,"],
     "argument --untranslated: empty language code in 'en,' (write them as en,it)"),
])
def test_an_empty_item_of_a_list_is_a_usage_error(
        words: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Dropped, it would make the list another one without a word (as --bots random,)."""
    monkeypatch.chdir(tmp_path)
    short = {"analyse": ["--games", "1", "--bots", "random"], "build": ["--only", "svg"]}
    with pytest.raises(SystemExit) as exit_:
        main([*words, *short.get(words[0], [])])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {words[0]}: error: {message}")


@pytest.mark.parametrize(("words", "message"), [
    (["build", "--lang", "en,en"], "argument --lang: language 'en' named twice in 'en,en': "
     "name each once"),
    (["build", "--lang", "pl, en,pl"], "argument --lang: language 'pl' named twice in "
     "'pl, en,pl': name each once"),
    (["build", "--only", "svg,svg"], "argument --only: part 'svg' named twice in 'svg,svg': "
     "name each once"),
    (["rulebook", "--lang", "en,en", "--check"],
     "argument --lang: language code 'en' named twice in 'en,en': name each once"),
    (["rulebook", "--untranslated", "de,de"],
     "argument --untranslated: language code 'de' named twice in 'de,de': name each once"),
])
def test_an_item_named_twice_in_a_list_is_a_usage_error(
        words: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Silently dropped, `en,en` built one language where the user most likely meant two
    (a slip for en,es); as analyse --variants 5,5."""
    monkeypatch.chdir(tmp_path)
    short = {"build": ["--only", "svg"]}
    with pytest.raises(SystemExit) as exit_:
        main([*words, *short.get(words[0], [])])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {words[0]}: error: {message}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("words", "message"), [
    (["build", "--bleed", "\u30003"], "argument --bleed: not a number of millimetres: "
     "'\\u30003'"),
    (["build", "--dpi", "\u2003300"], "argument --dpi: the resolution must be a whole "
     "number from 30 to 2400, got '\\u2003300'"),
    (["check", "--games", "2\xa0"], "argument --games: the number of games must be a whole "
     "number from 0 to 1000000, got '2\\xa0'"),
    (["calibrate", "--offset", "\u20031,2"], "argument --offset: expected two millimetre "
     "values X,Y such as 0.5,-1: '\\u20031,2'"),
    (["calibrate", "--scale", "97\u2028"], "argument --scale: expected the printer's scale "
     "in per cent, X,Y or one value for both, such as 97 or 97,98.5: '97\\u2028'"),
])
def test_only_ascii_blanks_may_surround_a_number(
        words: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An ideographic or em space, NBSP or U+2028 are no blanks anyone types on purpose,
    as '²' is no digit (docs/limits.md)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main([*words, "--no-config"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {words[0]}: error: {message}")
    assert list(tmp_path.iterdir()) == []


def test_only_ascii_blanks_may_surround_a_number_of_the_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "micropul-print.toml"
    path.write_text('[build]\nback-offset = "\u3000 1,2"\n', encoding="utf-8")
    assert main(["build", "--config", str(path), "--show-config"]) == 1
    assert capsys.readouterr().err == (
        f"{path}:2:15: error: back-offset: expected two millimetre values X,Y such as "
        "0.5,-1: '\\u3000 1,2'\n")


def test_ascii_blanks_around_a_number_are_still_read() -> None:
    from micropul_print.commands.values import decimal_number, whole_number

    assert whole_number(0, 9, "n")(" \t7\n") == 7
    assert decimal_number(" 1.5\t") == 1.5


@pytest.mark.parametrize(("words", "unknown"), [
    (["check", "--games", "1", "--jobs=2"], "--jobs=2"),
    (["rulebook", "m.yaml"], "m.yaml"),
    (["build", "--pape", "a4"], "--pape (did you mean '--paper'?)"),
])
def test_an_unknown_argument_is_the_commands_own_usage_error(
        words: list[str], unknown: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Its usage and its name, as every other usage error of the command: argparse left
    unknown words to the top-level parser, which showed the usage of COMMAND."""
    with pytest.raises(SystemExit) as exit_:
        main(words)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: micropul-print {words[0]} [-h]")
    assert err.splitlines()[-1] == (
        f"micropul-print {words[0]}: error: unrecognized arguments: {unknown}")


@pytest.mark.parametrize("argv", [
    ["catalogue"],
    ["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1",
     "--json", "-"]])
def test_a_name_stdout_cannot_encode_is_escaped_not_an_internal_error(
        argv: list[str], tmp_path: Path) -> None:
    """Under PYTHONIOENCODING=ascii (or a C locale Python does not coerce), a catalogue
    named 'Müll' stopped catalogue and analyse with "internal error: UnicodeEncodeError"
    (status 70); the JSON of --json - must stay JSON, with the name intact."""
    from micropul_print.catalogue.loader import shipped_catalogue

    text = shipped_catalogue("micropul").read_text(encoding="utf-8")
    catalogue = tmp_path / "mull.yaml"
    catalogue.write_text(text.replace("\nname: Micropul\n", "\nname: Müll\n", 1),
                         encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "micropul_print", *argv, str(catalogue)],
                            capture_output=True, timeout=120,
                            env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    if "--json" in argv:
        assert json.loads(result.stdout)["catalogue"]["name"] == "Müll"
    else:
        assert result.stdout.startswith(b"M\\xfcll: 48 tiles\n")


@pytest.mark.parametrize(("argv", "config", "expected"), [
    (["build", "--no-config", "--out", "b/" * 2500], "",
     "micropul-print build: error: argument --out: a folder name of 5000 bytes, "
     f"'{'b/' * 30}…' (5000 characters): a path has at most 4096 (the system's PATH_MAX)"),
    (["check", "é" * 200], "",
     "micropul-print check: error: argument CATALOGUE: a file name holding a name of 400 "
     f"bytes, '{'é' * 60}…' (200 characters): a file or folder's name has at most 255 (the "
     "system's NAME_MAX)"),
    (["init", "d" * 256], "",
     "micropul-print init: error: argument DIR: a folder name holding a name of 256 bytes, "
     f"'{'d' * 60}…' (256 characters): a file or folder's name has at most 255 (the "
     "system's NAME_MAX)"),
    (["build"], f'[build]\nout = "{"a/" * 100_000}"\n',  # relative to the file: a/.../a
     "micropul-print.toml:2:7: error: out: a folder name of 199999 bytes, "
     f"'{'a/' * 30}…' (199999 characters): a path has at most 4096 (the system's "
     "PATH_MAX)"),
])
def test_a_path_longer_than_the_system_takes_is_refused_before_any_work(
        argv: list[str], config: str, expected: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A path of 200,000 folders took 90 s to be refused (one folder at a time), and a
    name too long was refused after the work, quoted whole in a line of 40 KB."""
    monkeypatch.chdir(tmp_path)
    if config:
        Path("micropul-print.toml").write_text(config, encoding="utf-8")
    try:
        code = main(argv)
    except SystemExit as usage:  # argparse's own usage error
        code = usage.code  # type: ignore[assignment]
    assert code == (1 if config else 2)
    assert capsys.readouterr().err.splitlines()[-1] == expected
    assert [p.name for p in tmp_path.iterdir()] == (["micropul-print.toml"] if config
                                                    else [])


def test_a_folder_named_with_escape_codes_is_escaped_in_what_init_and_build_print(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """init printed its folder's name raw and build its output folder's: an ESC in them
    recoloured the terminal (the diagnostics escaped them already)."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "v\x1b[31m"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "v\\x1b[31m/micropul.yaml"
    assert err.startswith("A variant of Micropul in v\\x1b[31m: edit micropul.yaml and ")
    assert main(["build", "--no-config", "--only", "svg", "--out", "o\x1b[31m"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and f"into {tmp_path}/o\\x1b[31m in " in out


DATA_BAD = Path(__file__).resolve().parent / "data" / "bad"


@pytest.mark.parametrize(("command", "words", "warning"), [
    ("catalogue", ["unknown_key.yaml"],
     "unknown_key.yaml:6:5: warning: unknown key 'colour' in tile (expected id, face, big or "
     "start)"),
    ("check", ["unknown_key.yaml"],
     "unknown_key.yaml:6:5: warning: unknown key 'colour' in tile (expected id, face, big or "
     "start)"),
    ("build", ["unknown_key.yaml", "--only", "svg", "--no-config"],
     "unknown_key.yaml:6:5: warning: unknown key 'colour' in tile (expected id, face, big or "
     "start)"),
    ("position", ["position_unknown_key.yaml"],
     "position_unknown_key.yaml:3:41: warning: unknown key 'flipped' in placement (expected "
     "tile, x, y or rotation)"),
])
def test_a_run_failed_by_strict_alone_says_so_once_at_the_end(
        command: str, words: list[str], warning: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--strict failed the run on a warning, and nothing said the run had failed, nor
    why: the warning alone, as a run without --strict prints it before succeeding."""
    monkeypatch.chdir(DATA_BAD)
    out = ["--out", str(tmp_path / "kit")] if command == "build" else []
    assert main([command, *words, *out, "--strict"]) == 1
    output, err = capsys.readouterr()
    assert output == ""
    assert err.splitlines() == [
        warning, f"{command} failed: 1 warning(s) treated as errors (--strict)"]
    assert not (tmp_path / "kit").exists()


def test_strict_says_nothing_more_when_errors_failed_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.yaml"
    text = (DATA_BAD / "unknown_key.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("id: 41", "id: 1"), encoding="utf-8")
    assert main(["catalogue", str(path), "--strict"]) == 1
    err = capsys.readouterr().err
    assert ": error: " in err and "--strict" not in err
