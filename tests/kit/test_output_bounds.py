"""Where the output goes is checked before any work: a loop of symbolic links as the
output folder or in it (build, rulebook, analyse --report), a report file that is a
link leading out of its folder. Each is one located line, status 1, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from micropul_print.cli import main

LOOP = ("a loop of symbolic links is on the way (each leads to the next and back): "
        "remove it, or write somewhere else")


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("command", [
    ["build", "--only", "svg"], ["rulebook", "--lang", "en", "--paper", "a4"]])
def test_a_loop_as_the_output_folder_is_refused(
        tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    what = "the kit here" if command[0] == "build" else "the rulebooks here"
    assert main([*command, "--no-config", "--out", str(loop / "kit")]) == 1
    assert capsys.readouterr().err == f"{loop / 'kit'}: error: cannot write {what}: {LOOP}\n"
    assert _files(tmp_path) == ["loop"]


@pytest.mark.parametrize("command", [
    ["build", "--only", "svg"], ["rulebook", "--lang", "en", "--paper", "a4"]])
def test_a_loop_inside_the_output_folder_is_refused_before_any_work(
        tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "rules").symlink_to("tiles")
    (out / "tiles").symlink_to("rules")
    assert main([*command, "--no-config", "--quiet", "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"{out / 'rules'}: error: in the output directory: {LOOP}\n"
        f"{out / 'tiles'}: error: in the output directory: {LOOP}\n")
    assert _files(out) == ["rules", "tiles"]


ANALYSE = ["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1"]


def test_a_report_file_linked_out_of_its_folder_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    outside = tmp_path / "outside.html"
    outside.write_text("mine")
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.html").symlink_to(outside)
    assert main([*ANALYSE, "--report", str(report)]) == 1
    err = capsys.readouterr().err
    assert err == (f"{report / 'report.html'}: error: --report: refusing to write outside the "
                   "output "
                   f"directory {report} (the path leads to {outside})\n")
    assert outside.read_text() == "mine"
    assert _files(report) == ["report.html"]


def test_a_report_folder_in_a_loop_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main([*ANALYSE, "--report", str(loop / "r")]) == 1
    assert capsys.readouterr().err == (
        f"{loop / 'r'}: error: --report: cannot write the report here: {LOOP}\n")
    os.unlink(loop)
    assert _files(tmp_path) == []


SKILL_TRACE = ["analyse", "--skill-trace", "lookahead:1", "--games", "1", "--jobs", "1"]


def test_a_skill_trace_s_report_in_a_loop_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main([*SKILL_TRACE, "--report", str(loop / "r")]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"{loop / 'r'}: error: --report: cannot write the report here: {LOOP}\n"
    assert "skill trace" not in captured.out  # no game played
    os.unlink(loop)
    assert _files(tmp_path) == []


def test_a_skill_trace_s_json_in_a_loop_is_refused_before_any_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main([*SKILL_TRACE, "--json", str(loop / "trace.json")]) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"{loop / 'trace.json'}: error: --json: cannot write the report's JSON "
                            f"here: {LOOP}\n")
    assert "skill trace" not in captured.out
