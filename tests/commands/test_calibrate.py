"""`calibrate`: the numbers read on the calibration page go into the configuration
file's [build] table, checked as build checks them, the user's other lines and comments
kept."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from micropul_print.cli import main
from micropul_print.config import CONFIG_NAME


def test_a_new_file_holds_what_was_read_and_the_build_uses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["calibrate", "--offset", "1.25,-0.5", "--scale", "97"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{CONFIG_NAME}: [build] back-offset = [1.25, -0.5] (was [0, 0])",
        f"{CONFIG_NAME}: [build] scale = [97, 97] (was [100, 100])"]
    assert tomllib.loads((tmp_path / CONFIG_NAME).read_text()) == {
        "build": {"back-offset": [1.25, -0.5], "scale": [97.0, 97.0]}}
    assert main(["build", "--show-config"]) == 0
    shown = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert f"back-offset = [1.25, -0.5] # {CONFIG_NAME}:2" in shown
    assert f"scale = [97, 97] # {CONFIG_NAME}:3" in shown


def test_an_offset_of_minus_zero_is_written_and_said_as_zero(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["calibrate", "--offset", "-0,-0.0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"{CONFIG_NAME}: [build] back-offset = [0, 0] (was [0, 0])")
    assert "back-offset = [0.0, 0.0]" in (tmp_path / CONFIG_NAME).read_text()


def test_the_user_s_lines_and_comments_stay(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "printer.toml"
    before = ('# my laser printer\n[build]\npaper = "letter"  # US paper\n'
              'back-offset = [0.5, 0.5]  # from last week\n\n[check]\ngames = 10\n')
    config.write_text(before)
    assert main(["calibrate", "--config", str(config), "--offset", "-1,2"]) == 0
    after = config.read_text()
    assert after == before.replace("[0.5, 0.5]", "[-1.0, 2.0]")
    assert capsys.readouterr().out == (f"{config}: [build] back-offset = [-1, 2] "
                                       "(was [0.5, 0.5])\n")
    assert main(["calibrate", "--config", str(config), "--scale", "98.5,99"]) == 0
    assert config.read_text() == after.replace("# from last week\n",
                                               "# from last week\nscale = [98.5, 99.0]\n")


def test_values_are_checked_as_build_checks_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / CONFIG_NAME
    with pytest.raises(SystemExit) as exit_status:
        main(["calibrate", "--config", str(config), "--scale", "80"])
    assert exit_status.value.code == 2
    assert "each scale must be between 90 and 110 per cent" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["calibrate", "--config", str(config), "--offset", "1"])
    assert "expected two millimetre values X,Y" in capsys.readouterr().err
    assert not config.exists()


@pytest.mark.parametrize("offset", ["١,٢", "1.123456789012345678901234,0"])
def test_an_offset_not_in_at_most_19_ascii_digits_is_refused(
        offset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / CONFIG_NAME
    with pytest.raises(SystemExit) as exit_status:
        main(["calibrate", "--config", str(config), "--offset", offset])
    assert exit_status.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print calibrate: error: argument --offset: expected two millimetre values "
        f"X,Y such as 0.5,-1: {offset!r}")
    assert not config.exists()


def test_a_file_with_problems_is_reported_not_edited(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / CONFIG_NAME
    config.write_text('[build]\npaper = "a5"\n')
    assert main(["calibrate", "--config", str(config), "--offset", "1,1"]) == 1
    assert capsys.readouterr().err == (f"{config}:2:9: error: paper: invalid choice: 'a5' "
                                       "(choose from a4, letter, all)\n")
    assert config.read_text() == '[build]\npaper = "a5"\n'


def test_without_values_it_says_what_the_file_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / CONFIG_NAME).write_text("[build]\nscale = 96.5\n")
    assert main(["calibrate"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "back-offset = [0, 0]  (the default)", f"scale = [96.5, 96.5]  ({CONFIG_NAME}:2)"]


def test_a_linked_configuration_is_written_through_the_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "dots" / "p.toml"
    shared.parent.mkdir()
    shared.write_text('[build]\npaper = "a4"\n')
    (tmp_path / "sl").mkdir()
    monkeypatch.chdir(tmp_path / "sl")
    Path(CONFIG_NAME).symlink_to("../dots/p.toml")
    assert main(["calibrate", "--offset", "0.5,0.5"]) == 0
    assert capsys.readouterr().out == (f"{CONFIG_NAME}: [build] back-offset = [0.5, 0.5] "
                                       "(was [0, 0])\n")
    assert Path(CONFIG_NAME).is_symlink()
    assert shared.read_text() == '[build]\npaper = "a4"\nback-offset = [0.5, 0.5]\n'


def test_comments_inside_a_multi_line_array_stay(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / CONFIG_NAME
    before = '[build]\nback-offset = [\n  0.5,  # x\n  -1,  # y\n]\n'
    config.write_text(before)
    assert main(["calibrate", "--config", str(config), "--offset", "0.25,0.75"]) == 0
    assert config.read_text() == '[build]\nback-offset = [\n  0.25,  # x\n  0.75,  # y\n]\n'
    assert capsys.readouterr().out == (f"{config}: [build] back-offset = [0.25, 0.75] "
                                       "(was [0.5, -1])\n")


@pytest.mark.parametrize("text", ["[check]\r\ngames = 3\r\n", "[build]\r\ndpi = 300\r\n",
                                  "[build]\r\nback-offset = [\r\n  1,\r\n  2,\r\n]\r\n"])
def test_a_file_of_crlf_lines_keeps_them(text: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A file saved on Windows got the new lines ended by LF alone, among its CRLF."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / CONFIG_NAME).write_bytes(text.encode())
    assert main(["calibrate", "--offset", "1,2", "--scale", "99"]) == 0
    written = (tmp_path / CONFIG_NAME).read_bytes()
    assert written.count(b"\n") == written.count(b"\r\n")
    assert tomllib.loads(written.decode())["build"]["back-offset"] == [1.0, 2.0]
