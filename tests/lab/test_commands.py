"""analyse, play and replay through the real command line, on the shipped games and on
Edgematch, the test plugin the core has never heard of."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader

from micropul_print.cli import main
from micropul_print.lab.report import SCHEMA

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "edgematch"


def run(tmp_path: Path, *args: str, plugin: bool = False) -> subprocess.CompletedProcess[str]:
    extra = [str(PLUGIN)] if plugin else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [*extra, *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "micropul_print", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)


def _validate(document: dict[str, object]) -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(document)


def test_analyse_writes_a_valid_report_and_the_same_bytes_every_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["analyse", "--game", "cellulae", "--variants", "5", "--games", "3", "--bots",
            "random,greedy", "--jobs", "1", "--against",
            str(registry_catalogue("cellulae"))]
    assert main([*args, "--report", str(tmp_path / "one")]) == 0
    out = capsys.readouterr().out
    assert "5, 2 players: 12 games" in out
    # The same file twice: labels of their own.
    assert out.startswith("cellulae: Cellulae (shipped:cellulae.yaml) #1; Cellulae "
                          "(shipped:cellulae.yaml) #2: ")
    assert "first-player edge: " in out
    assert "ladder (Elo, greedy = 0): greedy 0 (anchor), random -" in out
    assert "gaps to the next rung down: greedy +" in out
    assert "Holm's correction" in out
    assert "5, 2 players: first-player edge not compared (too few games" in out
    assert main([*args, "--jobs", "2", "--report", str(tmp_path / "two")]) == 0
    for name in ("report.json", "report.html"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    document = json.loads((tmp_path / "one" / "report.json").read_text("utf-8"))
    _validate(document)
    (section,) = document["sections"]
    assert section["anchor"] == "greedy"
    assert [row["gap_below"] is None for row in section["ladder"]] == [False, True]
    assert document["complete"] and document["against"]["comparison"][0]["games"] == 3
    assert document["against"]["compared"][0]["games"] == 12
    page = (tmp_path / "one" / "report.html").read_text("utf-8")
    assert page.count("<svg") >= 5
    # Self-contained: no script, no style sheet, picture or font from anywhere.
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert re.search(r"url\((?!#)", page) is None  # only the page's own clip paths
    assert 'href="http' not in page and 'src="' not in page
    assert "://" not in page  # not even the addresses of matplotlib's SVG metadata
    # The comparison table names its first column, and a proportion's difference is in
    # percentage points, not in %; the overlaid scores are each bot's against itself.
    assert '<th class="name">section</th>' in page
    assert "% (difference: percentage points)" in page
    assert "Final scores: greedy against itself" in page


def test_a_report_names_no_folder_and_is_the_same_wherever_its_catalogue_lies(
        tmp_path: Path) -> None:
    # The shipped catalogue lies wherever the package was installed, and a variant
    # wherever its designer keeps it: the report is the same from any folder and machine.
    shipped = registry_catalogue("micropul")
    text = shipped.read_text("utf-8")
    for folder in ("a", "b/c"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "variant.yaml").write_text(
            "# moved, with a comment of its own\n" + text, "utf-8")
    common = ["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1"]
    first = run(tmp_path / "a", *common, "variant.yaml", "--json", "-")
    # Outside the working folder: the file's name alone, never a folder of the machine.
    second = run(tmp_path / "a", *common, str(tmp_path / "b/c/variant.yaml"), "--json", "-")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout
    assert str(tmp_path) not in first.stdout and str(tmp_path) not in second.stdout
    catalogue = json.loads(first.stdout)["catalogue"]
    assert catalogue["source"] == "variant.yaml"
    # Named by its set name and its path: from the working folder when the file is in
    # it, else the file's name alone.
    assert catalogue["path"] == "variant.yaml" and catalogue["name"] == "Micropul"
    inside = run(tmp_path / "b", *common, "c/variant.yaml", "--json", "-")
    assert json.loads(inside.stdout)["catalogue"]["path"] == "c/variant.yaml"
    shipped_run = run(tmp_path, *common, "--json", "-")
    assert str(shipped.parent) not in shipped_run.stdout
    from_shipped = json.loads(shipped_run.stdout)["catalogue"]
    assert from_shipped == {**catalogue, "source": "micropul.yaml",
                            "path": "shipped:micropul.yaml"}
    (tmp_path / "a" / "variant.yaml").write_text(text.replace("W .", "B .", 1), "utf-8")
    changed = run(tmp_path / "a", *common, "variant.yaml", "--json", "-")
    assert json.loads(changed.stdout)["catalogue"]["digest"] != catalogue["digest"]


def test_a_report_that_cannot_be_finished_leaves_no_half_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["analyse", "--games", "1", "--bots", "random", "--players", "1", "--jobs", "1"]

    def interrupted(*_args: object) -> str:
        raise KeyboardInterrupt

    # Ctrl-C while the charts are drawn: no report.json without its page.
    with monkeypatch.context() as patch:
        patch.setattr("micropul_print.lab.report.render_html", interrupted)
        assert main([*args, "--report", str(tmp_path / "cut")]) == 130
    assert not (tmp_path / "cut").exists()

    def full(target: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    # A full disk: the figures were printed, and no empty folder is left.
    monkeypatch.setattr("micropul_print.kit.outputs.write_atomic", full)
    assert main([*args, "--report", str(tmp_path / "full")]) == 1
    assert "standard, solitaire: 1 game\n" in capsys.readouterr().out
    assert not (tmp_path / "full").exists()


@pytest.mark.parametrize("chosen", [False, True])
def test_a_report_leaves_matplotlib_s_files_nowhere_but_where_the_user_says(
        tmp_path: Path, chosen: bool) -> None:
    """matplotlib writes its configuration and font cache into its MPLCONFIGDIR, else
    into ~/.config and ~/.cache: a temporary folder, removed, unless the user chose one."""
    home, temporary, mine = tmp_path / "home", tmp_path / "tmp", tmp_path / "mine"
    for folder in (home, temporary, mine):
        folder.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
    env.update(HOME=str(home), TMPDIR=str(temporary))
    if chosen:
        env["MPLCONFIGDIR"] = str(mine)
    done = subprocess.run([sys.executable, "-m", "micropul_print", "analyse", "--games", "1",
                           "--bots", "random", "--players", "1", "--jobs", "1", "--report",
                           "out"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "report.html").is_file()
    assert list(home.iterdir()) == [] and list(temporary.iterdir()) == []
    assert bool(list(mine.iterdir())) == chosen


def registry_catalogue(game: str) -> Path:
    from micropul_print.game import registry

    return registry.get(game).shipped_catalogue()


def test_analyse_json_to_stdout_and_the_solitaire_par_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Solitaire has no ladder: --anchor is accepted and changes nothing.
    assert main(["analyse", "--players", "1", "--games", "4", "--bots", "random,greedy",
                 "--anchor", "random", "--json", "-", "--jobs", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    _validate(document)
    (section,) = document["sections"]
    assert (section["variant"], section["players"], section["games"]) == ("standard", 1, 8)
    greedy = section["bots"][1]
    assert greedy["bot"] == "greedy" and [p["percentile"] for p in greedy["par"]] == [
        10, 25, 50, 75, 90]
    assert len(section["pieces"]) == 47  # every tile but the start tile


def test_without_mirror_pairings_the_first_player_edge_is_a_fitted_seat_term(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--no-config", "--game", "cellulae", "--variants", "5",
                 "--bots", "random,greedy", "--no-mirror", "--games", "6", "--json", "-",
                 "--jobs", "1"]) == 0
    document = json.loads(capsys.readouterr().out)
    _validate(document)
    (section,) = document["sections"]
    assert [p["bots"] for p in section["pairings"]] == [["random", "greedy"],
                                                       ["greedy", "random"]]
    edge = section["first_player"]
    assert edge["method"] == "seat-term" and edge["points"]["method"] == "seat-term"
    assert edge["games"] == 12 and edge["pairings"] == ["random v greedy", "greedy v random"]


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,minimax"], "micropul-print analyse: error: argument --bots: unknown "
                                   "bot 'minimax' (expected random, greedy or lookahead"),
    (["--bots", "greedy,random,greedy"], "micropul-print analyse: error: argument --bots: a "
                                         "bot is named twice in greedy,random,greedy\n"),
    (["--seed", "9223372036854775807", "--games", "2"],
     "micropul-print analyse: error: --seed 9223372036854775807 with --games 2 deals seeds "
     "up to 9223372036854775808, past the largest seed, 9223372036854775807: the seed must "
     "be at most 9223372036854775806\n"),
    (["--bots", "random,"], "micropul-print analyse: error: argument --bots: unknown bot '' "
                            "(expected random, "
                            "greedy or lookahead[:NODES][:Ns][:dDEPTH][:greedy][:cC][:wW])\n"),
    (["--bots", "lookahead:"], "micropul-print analyse: error: argument --bots: bad lookahead "
                               "option '' in "
                               "'lookahead:' (expected a node budget N"),
    (["--game", "cellulae", "--variants", "6"], "micropul-print analyse: error: argument "
                                                "--variants: Cellulae has no variant '6' (it "
                                                "has: 5, 7, 9)\n"),
    (["--game", "cellulae", "--players", "1"], "micropul-print analyse: error: argument "
                                               "--players: Cellulae takes 2 players, not 1\n"),
    (["--players", "²"], "micropul-print analyse: error: argument --players: Micropul takes 1 "
                         "or 2 players, not ²\n"),
    (["--players", "02"], "micropul-print analyse: error: argument --players: Micropul takes 1 "
                          "or 2 players, not 02\n"),
    (["--variants", "standard,standard"], "micropul-print analyse: error: argument --variants: "
                                          "a variant is named twice in standard,standard: "
                                          "standard\n"),
    (["--players", "1,2,1"], "micropul-print analyse: error: argument --players: a player "
                             "count is named twice in 1,2,1: 1\n"),
    (["--bots", "random,greedy", "--anchor", "lookahead"],
     "micropul-print analyse: error: --anchor 'lookahead' is not one of the bots "
     "(they are: random, greedy)\n"),
])
def test_analyse_usage_errors_exit_2(args: list[str], message: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--games", "1", *args]) == 2
    assert message in capsys.readouterr().err


def test_analyse_works_on_a_plugin_game(tmp_path: Path) -> None:
    result = run(tmp_path, "analyse", "--game", "edgematch", "--games", "3", "--bots",
                 "random,lookahead:5", "--report", "out", plugin=True)
    assert result.returncode == 0, result.stderr
    assert "3x3, solitaire: 6 games" in result.stdout
    # Not a terminal: one line per finished part.
    assert result.stderr.splitlines()[0].startswith("analyse: 3x3, random alone: done (3/6")
    document = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    _validate(document)
    assert [p["piece"] for p in document["sections"][0]["pieces"]] == [
        str(n) for n in range(1, 10)]


def _in_group(group: int) -> list[int]:
    """The processes still running in a process group (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_an_interrupted_analysis_reports_what_was_played_and_leaves_no_worker(
        tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "micropul_print", "analyse", "--game", "cellulae",
         "--variants", "9", "--games", "4", "--bots", "random,lookahead:400", "--jobs", "2",
         "--json", "partial.json"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stderr is not None
    first = process.stderr.readline()  # random v random, finished long before the rest
    assert first.startswith("analyse: 9, random v random: done"), first
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: the whole group
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "interrupted: the report covers the games played so far" in err
    assert "Traceback" not in err
    assert "incomplete: interrupted before every game was played" in out
    document = json.loads((tmp_path / "partial.json").read_text("utf-8"))
    assert document["complete"] is False
    assert document["sections"][0]["games"] >= 4
    deadline = time.monotonic() + 10
    while _in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _in_group(process.pid) == []


def test_sigterm_to_the_whole_group_stops_analyse_and_its_idle_worker(
        tmp_path: Path) -> None:
    # Solitaire: random's one batch ends at once and its worker waits for more, holding
    # the pool's task queue lock, while the other plays the lookahead's batch. SIGTERM to
    # the group (a service manager's stop) once killed the idle worker with the lock
    # held, and the parent hung for ever in Pool.terminate.
    process = subprocess.Popen(
        [sys.executable, "-m", "micropul_print", "analyse", "--players", "1", "--games",
         "2", "--bots", "random,lookahead:2000", "--jobs", "2", "--json", "out.json"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    assert process.stderr is not None
    first = process.stderr.readline()
    assert first.startswith("analyse: standard, random alone: done"), first
    time.sleep(0.5)  # the idle worker is back waiting for a task
    os.killpg(process.pid, signal.SIGTERM)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    assert (process.returncode, out, err) == (143, "", "micropul-print: stopped (SIGTERM)\n")
    assert not (tmp_path / "out.json").exists()
    deadline = time.monotonic() + 10
    while _in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _in_group(process.pid) == []


def test_play_then_replay_every_turn(tmp_path: Path) -> None:
    result = run(tmp_path, "play", "--bots", "greedy,random", "--seed", "3", "--record",
                 "game.json")
    assert result.returncode == 0, result.stderr
    # The game named once; its length in player turns.
    assert result.stdout.startswith("Micropul, variant standard, seed 3: player 1 "
                                    "(greedy) ")
    assert re.search(r"after \d+ player turns\n$", result.stdout)
    record = json.loads((tmp_path / "game.json").read_text("utf-8"))
    # Each move names its player; the record names its catalogue's file.
    assert [move["player"] for move in record["moves"][:2]] == [1, 2]
    assert record["catalogue_path"] == "shipped:micropul.yaml"
    assert (record["format"], record["game"], record["seed"], record["bots"]) == (
        "micropul-print game record", "micropul", 3, ["greedy", "random"])
    moves = len(record["moves"])
    assert record["result"]["turns"] == moves
    result = run(tmp_path, "replay", "game.json", "--out", "turns")
    assert result.returncode == 0, result.stderr
    svgs = sorted(p.name for p in (tmp_path / "turns").glob("*.svg"))
    assert svgs[0] == "turn-000.svg" and len(svgs) == moves + 1
    assert len(PdfReader(tmp_path / "turns" / "replay.pdf").pages) == moves + 1
    # Every move in notation, one a line, numbered by player turn.
    lines = (tmp_path / "turns" / "moves.txt").read_text("utf-8").splitlines()
    assert len(lines) == moves
    assert re.fullmatch(r"1\. P1 \d+ @ \(-?\d+,-?\d+\) r(0|90|180|270)", lines[0]), lines[0]
    assert lines[1].startswith("2. P2 ")


@pytest.mark.parametrize("seed", [2**53, 2**63 - 1])
def test_a_record_of_any_seed_play_takes_replays(tmp_path: Path, seed: int) -> None:
    """The file reader keeps whole numbers to 2^53 - 1: a record that play wrote with a
    larger seed was refused by replay ("'seed' must be a whole number from 0 to ...")."""
    result = run(tmp_path, "play", "--bots", "random", "--seed", str(seed), "--record",
                 "game.json")
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "game.json").read_text("utf-8"))["seed"] == seed
    result = run(tmp_path, "replay", "game.json", "--out", "turns")
    assert result.returncode == 0, result.stderr


def test_a_replay_into_a_folder_leaves_only_its_own_turns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    turns = tmp_path / "turns"
    lengths = []
    for name, bots in (("long.json", "greedy,greedy"), ("short.json", "random,random")):
        assert main(["play", "--bots", bots, "--seed", "0", "--record",
                     str(tmp_path / name)]) == 0
        lengths.append(len(json.loads((tmp_path / name).read_text("utf-8"))["moves"]))
    assert lengths[0] > lengths[1]
    assert main(["replay", str(tmp_path / "long.json"), "--out", str(turns)]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "short.json"), "--out", str(turns)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"wrote {lengths[1] + 1} SVG pictures, replay.pdf and moves.txt into {turns}; removed "
        f"{lengths[0] - lengths[1]} pictures of an earlier replay")
    # Not the long game's later turns beside the short one's: a reader would take them
    # for one game.
    assert sorted(p.name for p in turns.glob("*.svg")) == [
        f"turn-{n:03d}.svg" for n in range(lengths[1] + 1)]
    # Interrupted after the turns' pictures, before the PDF: the folder is as it was.
    def interrupted(*_args: object) -> bytes:
        raise KeyboardInterrupt

    monkeypatch.setattr("micropul_print.lab.record.pages_pdf", interrupted)
    before = {p.name: p.read_bytes() for p in turns.iterdir()}
    assert main(["replay", str(tmp_path / "long.json"), "--out", str(turns)]) == 130
    assert {p.name: p.read_bytes() for p in turns.iterdir()} == before
    assert main(["replay", str(tmp_path / "long.json"), "--out", str(tmp_path / "new")]) == 130
    assert not (tmp_path / "new").exists()


def test_an_illegal_move_in_a_record_is_an_error_at_its_line(tmp_path: Path) -> None:
    assert run(tmp_path, "play", "--bots", "greedy", "--seed", "1", "--record",
               "game.json").returncode == 0
    lines = (tmp_path / "game.json").read_text("utf-8").splitlines()
    moves_at = lines.index('  "moves": [')
    lines[moves_at + 3] = '    {"place": {"tile": 99, "x": 5, "y": 5, "rotation": 0}},'
    (tmp_path / "game.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run(tmp_path, "replay", "game.json")
    assert result.returncode == 1
    assert result.stderr == (
        f"game.json:{moves_at + 4}:5: error: move 3 (moves[2]): illegal action "
        "Place(tile=99, x=5, y=5, rotation=0): tile 99 is not in player 1's hand\n")


def test_a_record_that_is_not_one(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text('{"format": "chess", "moves": []}\n', encoding="utf-8")
    result = run(tmp_path, "replay", "game.json")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "game.json:1:12: error: not a game record: 'format' must be "
        "'micropul-print game record'")


@pytest.mark.parametrize(("game", "bots", "variant"), [
    ("cellulae", "greedy,greedy", "5"), ("edgematch", "greedy", "3x3")])
def test_play_and_replay_other_games(tmp_path: Path, game: str, bots: str,
                                     variant: str) -> None:
    result = run(tmp_path, "play", "--game", game, "--bots", bots, "--variant", variant,
                 "--record", "game.json", plugin=True)
    assert result.returncode == 0, result.stderr
    result = run(tmp_path, "replay", "game.json", "--out", "turns", plugin=True)
    assert result.returncode == 0, result.stderr
    moves = len(json.loads((tmp_path / "game.json").read_text("utf-8"))["moves"])
    assert len(list((tmp_path / "turns").glob("turn-*.svg"))) == moves + 1


def test_play_needs_as_many_bots_as_players(tmp_path: Path) -> None:
    result = run(tmp_path, "play", "--game", "cellulae", "--bots", "greedy")
    assert result.returncode == 2
    assert result.stderr == ("micropul-print play: error: argument --bots: Cellulae is "
                             "played by 2 players: give as many bots, not 1\n")


def test_play_refuses_an_empty_bot_name(capsys: pytest.CaptureFixture[str]) -> None:
    """Dropped, the empty name after 'greedy,' would make a solitaire game of it."""
    assert main(["play", "--bots", "greedy,"]) == 2
    assert capsys.readouterr().err == (
        "micropul-print play: error: argument --bots: unknown bot '' (expected random, "
        "greedy or "
        "lookahead[:NODES][:Ns][:dDEPTH][:greedy][:cC][:wW])\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["--variant", "nope"], "argument --variant: Micropul has no variant 'nope' (it has: "
                            "standard)"),
    (["--bots", "greedy,lookahead:7:7"], "argument --bots: lookahead option '7' in "
                                         "'lookahead:7:7' says again what an earlier one said "
                                         "(a budget is nodes or seconds, once; every other "
                                         "option once)"),
])
def test_play_s_value_errors_name_their_option_as_argparse_does(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bot or a variant play could not take was said without the "argument --bots:"
    every other value's error starts with."""
    assert main(["play", "--no-config", *argv]) == 2
    assert capsys.readouterr().err == f"micropul-print play: error: {message}\n"


@pytest.mark.parametrize("argv", [
    ["analyse", "--players", "1", "--games", "2", "--bots", "greedy", "--jobs", "1"],
    ["play", "--bots", "random,random"]])
def test_analyse_and_play_import_no_drawing_library(argv: list[str]) -> None:
    code = (
        "import sys; from micropul_print.cli import main; "
        f"assert main({argv!r}) == 0; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "{'reportlab', 'svgwrite', 'PIL', 'matplotlib'}]; "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("option", "missing", "message"), [
    (["--scheduler", "tcp://127.0.0.1:8786"], "distributed",
     "micropul-print analyse: error: --scheduler needs Dask's distributed package: "
     "pip install 'micropul-print[cluster]'\n"),
    (["--report", "out"], "matplotlib",
     "micropul-print analyse: error: --report draws its charts with matplotlib, which is not "
     "installed: pip install 'micropul-print[lab]'\n"),
])
def test_an_extra_not_installed_is_said_before_any_game(
        option: list[str], missing: str, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # what an import of it then raises
    monkeypatch.chdir(tmp_path)
    assert main(["analyse", "--games", "1", "--bots", "random", "--players", "1",
                 *option]) == 2
    assert capsys.readouterr().err == message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("argv", "message"), [
    (["analyse", "--games", "1", "--bots", "random", "--players", "1", "--json", "taken"],
     "taken: error: --json: cannot write the report's JSON here: this is a directory, not a "
     "file\n"),
    (["analyse", "--games", "1", "--bots", "random", "--players", "1", "--report",
      "file.txt"],
     "file.txt: error: --report: cannot write the report here: this is a file, not a directory\n"),
    (["analyse", "--games", "1", "--bots", "random", "--players", "1", "--json",
      "file.txt/report.json"],
     "file.txt/report.json: error: --json: cannot write the report's JSON here: file.txt is a "
     "file, not a directory\n"),
    (["play", "--bots", "random", "--record", "taken"],
     "taken: error: cannot write the game record here: this is a directory, not a file\n"),
    (["replay", "no-record.json", "--out", "file.txt"],
     "file.txt: error: cannot write the pictures here: this is a file, not a directory\n"),
])
def test_an_output_that_cannot_be_written_is_told_before_any_game(
        argv: list[str], message: str, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "file.txt").write_text("mine\n", encoding="utf-8")
    result = run(tmp_path, *argv)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "taken"]
    assert list((tmp_path / "taken").iterdir()) == []


@pytest.mark.parametrize(("argv", "message"), [
    (["analyse", "set.yaml", "--json", "set.yaml"],
     "set.yaml: error: --json: this is set.yaml, a catalogue this command reads: the "
     "report's JSON would replace it; give another file\n"),
    (["analyse", "--against", "set.yaml", "--json", "./set.yaml"],
     "set.yaml: error: --json: this is set.yaml, a catalogue this command reads: the "
     "report's JSON would replace it; give another file\n"),
    (["analyse", "set.json", "--report", "set.html"],
     "set.json: error: --report: this is set.json, a catalogue this command reads: the "
     "report would replace it; give another file\n"),
    (["play", "set.yaml", "--record", "set.yaml"],
     "set.yaml: error: --record: this is set.yaml, a catalogue this command reads: the game "
     "record would replace it; give another file\n"),
])
def test_an_output_that_would_replace_the_catalogue_read_is_refused(
        argv: list[str], message: str, tmp_path: Path) -> None:
    """analyse --json and play --record wrote over the catalogue they were given."""
    shipped = registry_catalogue("micropul").read_bytes()
    for name in ("set.yaml", "set.json"):
        (tmp_path / name).write_bytes(shipped)
    result = run(tmp_path, *argv, "--games", "1", "--bots", "random", "--players", "1",
                 "--jobs", "1") if argv[0] == "analyse" else run(tmp_path, *argv, "--bots",
                                                                  "random")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.json", "set.yaml"]
    assert all((tmp_path / name).read_bytes() == shipped for name in ("set.yaml", "set.json"))


@pytest.mark.parametrize("out", [[], ["--out", "turns"]])
def test_a_theme_that_is_not_one_is_refused_before_the_record_is_played(
        out: list[str], record_text: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """replay --theme nope was accepted without --out, and refused only after the whole
    game had been replayed (its "moves, all legal" said first) with it."""
    path = tmp_path / "game.json"
    path.write_text(record_text, encoding="utf-8")
    assert main(["replay", str(path), "--theme", "nope", *out]) == 1
    assert capsys.readouterr().err == (
        "nope: error: no theme 'nope': give a built-in theme (classic, ink-saver, "
        "colour-safe) or the path of a theme .yaml file\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


BAD_THEMES = Path(__file__).resolve().parents[1] / "data" / "bad" / "themes"


@pytest.mark.parametrize("out", [[], ["--out", "turns"]])
@pytest.mark.parametrize(("game", "bots", "theme", "message"), [
    ("micropul", "greedy,greedy", "theme_without_the_stones.yaml",
     "{theme}:24:3: error: theme 'without-stones' has no mark 'stone-1', which Micropul's "
     "tiles need (it has: back-emblem, back-fill, blank, disc-dark, disc-light, dot1, dot2, "
     "plus, square-dark, square-light)\n"
     "{theme}:24:3: error: theme 'without-stones' has no mark 'stone-2', which Micropul's "
     "tiles need (it has: back-emblem, back-fill, blank, disc-dark, disc-light, dot1, dot2, "
     "plus, square-dark, square-light)\n"),
    ("cellulae", "greedy,random", "theme_without_square_light.yaml",
     "{catalogue}:26:31: error: theme 'without-square-light' has no mark 'square-light' (it "
     "has: back-emblem, back-fill, blank, disc-dark, disc-light, dot1, dot2, plus, "
     "square-dark, stone-1, stone-2)\n"),
])
def test_a_theme_without_the_game_s_marks_is_refused_before_the_record_is_played(
        game: str, bots: str, theme: str, message: str, out: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """replay drew with any theme that was one: a mark the game draws missing from it
    was an internal error (KeyError) after the whole game had been replayed."""
    record = tmp_path / "game.json"
    assert main(["play", "--game", game, "--bots", bots, "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record), "--theme", str(BAD_THEMES / theme), *out]) == 1
    assert capsys.readouterr().err == message.format(
        theme=BAD_THEMES / theme, catalogue=registry_catalogue(game))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize(("argv", "message"), [
    (["replay", "no-record.json", "--out", "/dev/null"],
     "/dev/null: error: cannot write the pictures here: this is a device, not a "
     "directory\n"),
    (["replay", "no-record.json", "--out", "/dev/null/turns"],
     "/dev/null/turns: error: cannot write the pictures here: /dev/null is a device, not a "
     "directory\n"),
    (["analyse", "--games", "1", "--bots", "random", "--players", "1", "--report",
      "/dev/null"],
     "/dev/null: error: --report: cannot write the report here: this is a device, not a "
     "directory\n"),
    (["play", "--bots", "random", "--record", "/dev/null/game.json"],
     "/dev/null/game.json: error: cannot write the game record here: /dev/null is a "
     "device, not a directory\n"),
    (["build", "--only", "svg", "--out", "/dev/null"],
     "/dev/null: error: cannot write the kit here: this is a device, not a directory\n"),
    (["build", "--only", "svg", "--out", "/dev/null/kit"],
     "/dev/null/kit: error: cannot write the kit here: /dev/null is a device, not a "
     "directory\n"),
    (["rulebook", "--out", "/dev/null"],
     "/dev/null: error: cannot write the rulebooks here: this is a device, not a "
     "directory\n"),
    (["init", "/dev/null/variant"],
     "/dev/null/variant: error: /dev/null is a device, not a directory: init writes its "
     "files into a folder\n"),
    (["calibrate", "--offset", "0,0", "--config", "/dev/null/micropul-print.toml"],
     "/dev/null/micropul-print.toml: error: cannot write the configuration here: "
     "/dev/null is a device, not a directory\n"),
])
def test_dev_null_as_an_output_folder_is_called_a_device_not_a_file(
        argv: list[str], message: str, tmp_path: Path) -> None:
    """replay --out /dev/null said "this is a file"; under /dev/null, calibrate said
    "File exists" (mkdir's word for it) and build "Not a directory", naming no folder."""
    result = run(tmp_path, *argv)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", message)
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A recorded game of Micropul, two greedy players, seed 3."""
    where = tmp_path_factory.mktemp("record") / "game.json"
    assert main(["play", "--bots", "greedy,greedy", "--seed", "3", "--record",
                 str(where)]) == 0
    return where.read_text("utf-8")


def _line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"game": "micropul"', '"game": "chess"',
     "{line}:11: error: unknown game 'chess' (registered: micropul, cellulae"),
    ('"game": "micropul"', '"game": "cellulae"',
     "{catalogue_line}:16: error: the game was played with the cellulae catalogue "
     "'Micropul', not 'Cellulae'"),
    ('"catalogue": "Micropul"', '"catalogue": "Micropul 2"',
     "{line}:16: error: the game was played with the micropul catalogue 'Micropul 2', not "
     "'Micropul'"),
    ('"variant": "standard"', '"variant": "9"',
     "{line}:14: error: Micropul has no variant '9' (it has: standard)"),
    ('"players": 2,\n  "bots": ["greedy", "greedy"]', '"players": 3,\n  "bots": ["greedy", '
     '"greedy", "greedy"]', "{line}:14: error: Micropul is played by 1 or 2 players, not 3"),
    ('"seed": 3', '"seed": 4',
     "{first_move}:5: error: move 1 (moves[0]): illegal action Place(tile="),
    ('"end": "core exhausted"', '"end": "banana"',
     "{line}:13: error: the replayed game does not end as recorded: end 'core exhausted', "
     "recorded 'banana'\n"),
    ('"seed": 3', '"seed": -3',
     "{line}:11: error: 'seed' must be a whole number from 0 to 9223372036854775807"),
    ('"seed": 3', '"seed": 9223372036854775808',
     "{line}:11: error: 'seed' must be a whole number from 0 to 9223372036854775807"),
])
def test_a_tampered_record_is_an_error_at_its_place(
        old: str, new: str, message: str, record_text: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert old in record_text
    text = record_text.replace(old, new, 1)
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    lines = {"line": _line_of(text, new.splitlines()[0]),
             "catalogue_line": _line_of(text, '"catalogue"'),
             "first_move": _line_of(text, '"moves"') + 1}
    expected = message.format(**{key: f"{path}:{n}" for key, n in lines.items()})
    err = capsys.readouterr().err
    assert err.startswith(expected), err
    assert len(err.splitlines()) == 1


def test_a_record_knows_its_catalogue_wherever_it_lies_and_tells_a_changed_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = registry_catalogue("micropul").read_text("utf-8")
    (tmp_path / "variant.yaml").write_text(shipped, "utf-8")
    record = tmp_path / "game.json"
    assert main(["play", str(tmp_path / "variant.yaml"), "--bots", "greedy,random",
                 "--seed", "5", "--record", str(record)]) == 0
    text = record.read_text("utf-8")
    line = _line_of(text, '"catalogue_digest": "sha256:')
    assert line == 6
    # Moved, with a comment of its own: the same tiles, the same catalogue.
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "copy.yaml").write_text("# a copy\n" + shipped, "utf-8")
    assert main(["replay", str(record), "--catalogue", str(tmp_path / "moved/copy.yaml")]) == 0
    assert main(["replay", str(record)]) == 0  # the shipped one is that catalogue too
    # One tile changed, the name kept: said at the digest, not at a move it makes illegal.
    changed = tmp_path / "changed.yaml"
    changed.write_text(shipped.replace("W .", "B .", 1), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(record), "--catalogue", str(changed)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{record}:{line}:23: error: the game was played with another version of the "
        f"catalogue 'Micropul': the tiles of {changed} differ from its tiles: give the file "
        "it was played with, with --catalogue")
    # A record without a digest (written before it had one) is replayed as it was.
    older = tmp_path / "older.json"
    older.write_text("".join(line for line in text.splitlines(keepends=True)
                             if "catalogue_digest" not in line), "utf-8")
    assert main(["replay", str(older)]) == 0
    broken = tmp_path / "broken.json"
    broken.write_text(text.replace('"sha256:', '"md5:', 1), "utf-8")
    assert main(["replay", str(broken)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{broken}:6:23: error: 'catalogue_digest' must be 'sha256:' and 64 hex digits")


def test_a_record_missing_its_last_moves_says_so(
        record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(record_text)
    turns, end = record["result"]["turns"], record["result"]["end"]
    record["moves"] = record["moves"][:10]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    line = _line_of(path.read_text("utf-8"), '"result"')
    assert capsys.readouterr().err == (
        f"{path}:{line}:13: error: the game is not over after the record's 10 moves, and "
        f"the record says it ended ({end!r}, turns {turns}): moves are missing\n")


def test_a_truncated_record_is_an_error_at_its_end(
        record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(record_text[: len(record_text) // 2], encoding="utf-8")
    assert main(["replay", str(path), "--out", str(tmp_path / "turns")]) == 1
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: error: invalid JSON: .*\n",
                        capsys.readouterr().err)
    assert not (tmp_path / "turns").exists()


def test_a_broken_json_record_is_invalid_json_not_invalid_yaml(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record (JSON) cut short said 'invalid YAML', a format the user never wrote."""
    path = tmp_path / "game.json"
    path.write_text("[\n", encoding="utf-8")
    assert main(["replay", "--no-config", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}:2:1: error: invalid JSON: did not find expected node content (while "
        "parsing a flow node)\n")


def test_a_placement_off_any_json_number_is_said_so_not_an_unknown_kind_of_move(
        tmp_path: Path) -> None:
    """x = 10^20 (read as text, beyond what JSON readers keep exact) was 'expected one of
    place, draw, claim', of a move that was a place."""
    assert run(tmp_path, "play", "--bots", "greedy", "--seed", "1", "--record",
               "game.json").returncode == 0
    lines = (tmp_path / "game.json").read_text("utf-8").splitlines()
    moves_at = lines.index('  "moves": [')
    lines[moves_at + 3] = ('    {"player": 1, "place": {"tile": 9, "x": 100000000000000000000, '
                           '"y": 5, "rotation": 0}},')
    (tmp_path / "game.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run(tmp_path, "replay", "game.json")
    assert result.returncode == 1
    assert result.stderr.endswith(
        "(place's x must be a whole number, at most 2^53 - 1 either side of 0 (what every "
        "JSON reader keeps exact))\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["analyse", "--games", "0"], "argument --games: the number of games must be from 1 to "
     "1000000, got 0"),
    (["analyse", "--games", "99999999999999"], "argument --games: the number of games must "
     "be from 1 to 1000000, got 99999999999999"),
    (["analyse", "--games", "1x"], "argument --games: the number of games must be a whole "
     "number from 1 to 1000000, got '1x'"),
    (["analyse", "--jobs", "0"], "argument --jobs: the number of worker processes must be "
     "from 1 to 1024, got 0"),
    (["analyse", "--jobs", "-1"], "argument --jobs: the number of worker processes must be "
     "from 1 to 1024, got -1"),
    (["analyse", "--seed", "-5"], "argument --seed: the seed must be from 0 to "
     "9223372036854775807, got -5"),
    (["play", "--seed", "99999999999999999999"], "argument --seed: the seed must be a whole "
     "number from 0 to 9223372036854775807, got '99999999999999999999'"),
])
def test_analyse_and_play_values_out_of_range_are_usage_errors(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A run that could not end (a hundred trillion games: the plan alone fills the
    memory) or a seed no record can hold is refused before anything is played."""
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {argv[0]}: error: {message}")


def test_against_a_catalogue_of_another_game_names_against(
        capsys: pytest.CaptureFixture[str]) -> None:
    other = registry_catalogue("cellulae")
    line = _line_of(other.read_text("utf-8"), "game: cellulae")
    assert main(["analyse", "--games", "1", "--against", str(other)]) == 1
    assert capsys.readouterr().err == (
        f"{other}:{line}:7: error: --against needs a micropul catalogue, this is a cellulae "
        "one\n")


def test_against_a_catalogue_with_no_board_in_common_says_nothing_was_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = registry_catalogue("cellulae").read_text("utf-8")
    boards = "  - {side: 5, tiles: 25}\n  - {side: 7, tiles: 49}\n  - {side: 9, tiles: 81}\n"
    assert boards in shipped
    small = tmp_path / "small.yaml"
    small.write_text(shipped.replace(boards, "  - {side: 3, tiles: 9}\n"), "utf-8")
    assert main(["analyse", "--game", "cellulae", "--games", "1", "--bots", "random",
                 "--jobs", "1", "--against", str(small),
                 "--report", str(tmp_path / "report")]) == 0
    nothing = ("no part was played on both catalogues (variants played: 5, 7, 9; against: "
               "3)")
    # Not "none" significant: no difference was even measured.
    assert capsys.readouterr().out.endswith(
        f"in each set):\n  none compared: {nothing}\n")
    page = (tmp_path / "report" / "report.html").read_text("utf-8")
    assert f"Nothing compared: {nothing}." in page


@pytest.mark.parametrize(("given", "page", "data"), [
    ("out", "out/report.html", "out/report.json"),
    ("report.html", "report.html", "report.json"),
    ("out/Mine.HTM", "out/Mine.HTM", "out/Mine.json"),
])
def test_report_takes_a_folder_or_the_page_s_own_name(
        given: str, page: str, data: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--report report.html made a folder named report.html: a name ending in .html is
    the page itself, its JSON beside it."""
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    assert main(["analyse", "--game", "cellulae", "--variants", "5", "--games", "1",
                 "--bots", "random", "--jobs", "1", "--report", given]) == 0
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                     if p.is_file())
    assert written == sorted([page, data])
    assert (tmp_path / page).read_text("utf-8").startswith("<!DOCTYPE html>")
    json.loads((tmp_path / data).read_text("utf-8"))


def test_a_folder_named_like_a_page_stays_a_folder(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lab.html").mkdir()
    assert main(["analyse", "--game", "cellulae", "--variants", "5", "--games", "1",
                 "--bots", "random", "--jobs", "1", "--report", "lab.html"]) == 0
    assert sorted(p.name for p in (tmp_path / "lab.html").iterdir()) == [
        "report.html", "report.json"]


def test_moves_are_written_as_a_player_reads_them() -> None:
    from micropul_print.catalogue.loader import load_catalogue
    from micropul_print.game import registry
    from micropul_print.lab.record import move_notation

    def state(game: str) -> object:
        found = registry.get(game)
        return found.new_state(load_catalogue(found.shipped_catalogue()), players=2,
                               variant=found.variants(load_catalogue(
                                   found.shipped_catalogue()))[0])

    micropul, cellulae = state("micropul"), state("cellulae")
    assert move_notation({"player": 2, "place": {"tile": 26, "x": -1, "y": 2,
                                                 "rotation": 270}},
                         micropul) == "P2 26 @ (-1,2) r270"
    assert move_notation({"player": 1, "draw": None}, micropul) == "P1 draws"
    assert move_notation({"player": 1, "draw": 12}, micropul) == "P1 draws 12"
    assert move_notation({"player": 1, "claim": {"x": 0, "y": 0, "quadrant": "tl"}},
                         micropul) == "P1 stone @ (0,0) tl"
    assert move_notation({"player": 2, "move": {"from": [4, 4], "to": [1, 1]}},
                         cellulae) == "P2 moves (4,4) -> (1,1)"
    assert move_notation({"replicate": {"x": 1, "y": 0}}, cellulae) == "replicates @ (1,0)"
    assert move_notation({"player": 1, "skip": True}, cellulae) == "P1 skips"
    # A game that writes no notation: the move's JSON, its player named.
    assert move_notation({"player": 1, "turn": {"to": 3}}) == 'P1 {"turn": {"to": 3}}'


def test_a_replay_is_readable_on_the_kit_s_paper(tmp_path: Path) -> None:
    assert main(["play", "--bots", "greedy,greedy", "--seed", "3", "--record",
                 str(tmp_path / "game.json")]) == 0
    for paper, size in (("a4", (595, 842)), ("letter", (612, 792))):
        out = tmp_path / paper
        assert main(["replay", str(tmp_path / "game.json"), "--out", str(out),
                     "--paper", paper]) == 0
        pdf = PdfReader(out / "replay.pdf")
        box = pdf.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size
        # The metadata names no folder of this machine.
        assert pdf.metadata is not None and str(tmp_path) not in str(pdf.metadata)
        assert pdf.metadata.title == "Micropul replay: game.json"
        # reportlab's default subject was "unspecified".
        assert pdf.metadata.subject == (
            f"A game replayed and checked move by move: {len(pdf.pages)} pages, the set-up "
            "then one per player turn")
    first = (tmp_path / "a4" / "turn-001.svg").read_text("utf-8")
    # The game named once, the move in notation, its player named.
    assert "Micropul: player turn 1 of" in first and "Micropul, Micropul" not in first
    assert re.search(r"player turn 1: P1 \d+ @ \(-?\d+,-?\d+\) r\d+\"", first)


def test_the_state_picture_has_coordinates_the_last_placement_and_stones_by_player() -> None:
    from micropul_print.draw.primitives import Circle, Rect, Text
    from micropul_print.draw.theme import load_theme
    from micropul_print.games.micropul import statedrawing
    from micropul_print.games.micropul.engine import MicropulState
    from micropul_print.games.micropul.rules.game import Claim, Place

    catalogue = registry_catalogue("micropul")
    from micropul_print.catalogue.loader import load_catalogue

    model = load_catalogue(catalogue)
    state = MicropulState.new(model, players=2, seed=1)
    place = next(m for m in state.legal_actions() if isinstance(m, Place))
    state.apply_action(place)
    claim = next(m for m in state.legal_actions() if isinstance(m, Claim))
    state.apply_action(claim)
    picture = statedrawing.state_drawing(model, load_theme("classic"), state)
    frames = [item for item in picture.items if isinstance(item, Rect)
              and item.stroke == statedrawing.LAST_PLACED]
    assert len(frames) == 1
    texts = {item.text for item in picture.items if isinstance(item, Text)}
    assert {str(place.x), str(place.y), "0"} <= texts
    rings = [item.fill for item in picture.items if isinstance(item, Circle)
             and item.fill in statedrawing.PLAYER_COLOURS.values()]
    assert statedrawing.PLAYER_COLOURS[2] in rings  # player 2 claimed


def test_replay_finds_the_catalogue_the_record_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = registry_catalogue("micropul").read_text("utf-8")
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "thin.yaml").write_text(shipped.replace("W .", "B .", 1).replace(
        "name: Micropul", "name: Thin", 1), "utf-8")
    record = tmp_path / "game.json"
    assert main(["play", str(sets / "thin.yaml"), "--bots", "greedy,random", "--seed",
                 "5", "--record", str(record)]) == 0
    assert json.loads(record.read_text("utf-8"))["catalogue_path"] == "sets/thin.yaml"
    capsys.readouterr()
    # Without --catalogue: the file the record names, found from the record's folder.
    assert main(["replay", str(record), "--out", str(tmp_path / "out")]) == 0
    svg = (tmp_path / "out" / "turn-000.svg").read_text("utf-8")
    assert "Micropul, set Thin: player turn 0 of" in svg
    (sets / "thin.yaml").rename(sets / "gone.yaml")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 1
    line = _line_of(record.read_text("utf-8"), '"catalogue_path"')
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{record}:{line}:21: error: the catalogue the game was played with is not where "
        f"the record says ({tmp_path / 'sets/thin.yaml'}): give its file with --catalogue")
    assert main(["replay", str(record), "--catalogue", str(sets / "gone.yaml")]) == 0


def test_a_record_beside_no_catalogue_names_no_path_out_of_its_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """play wrote '../thin.yaml', a path replay now refuses (it could lead anywhere)."""
    shipped = registry_catalogue("micropul").read_text("utf-8")
    (tmp_path / "thin.yaml").write_text(shipped.replace("name: Micropul", "name: Thin", 1),
                                        "utf-8")
    record = tmp_path / "games" / "game.json"
    record.parent.mkdir()
    assert main(["play", str(tmp_path / "thin.yaml"), "--bots", "greedy,random", "--seed",
                 "5", "--record", str(record)]) == 0
    assert "catalogue_path" not in json.loads(record.read_text("utf-8"))
    assert main(["replay", str(record), "--catalogue", str(tmp_path / "thin.yaml")]) == 0


@pytest.mark.parametrize(("named", "wrong"), [
    ("/etc/passwd", "is an absolute path"),
    ("../../../../../../etc/passwd", "climbs out of the record's folder with '..'"),
    ("sets/../../outside.yaml", "climbs out of the record's folder with '..'"),
    ("link.yaml", "leads out of the record's folder through a symbolic link"),
])
def test_a_record_naming_a_catalogue_path_out_of_its_folder_is_refused_unread(
        named: str, wrong: str, record_text: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A shared record made replay read any file of the machine, and quote it."""
    folder = tmp_path / "shared"
    folder.mkdir()
    secret = tmp_path / "outside.yaml"
    secret.write_text("password: hunter2\n", "utf-8")
    (folder / "link.yaml").symlink_to(secret)
    text = re.sub(r'"catalogue_path": "[^"]*"', f'"catalogue_path": {json.dumps(named)}',
                  record_text)
    record = folder / "game.json"
    record.write_text(text, "utf-8")
    assert main(["replay", str(record)]) == 1
    err = capsys.readouterr().err
    line = _line_of(text, '"catalogue_path"')
    assert err.splitlines()[-1] == (
        f"{record}:{line}:21: error: the catalogue's path {named!r} {wrong}: replay reads "
        "the catalogue a record names only inside the record's folder (a record may come "
        "from anyone); give its file with --catalogue")
    assert "hunter2" not in err and "root:" not in err
    # --catalogue on the command line wins: the record's path is not looked at.
    assert main(["replay", str(record), "--catalogue", str(registry_catalogue("micropul"))]) == 0


def test_a_move_recorded_for_the_wrong_player_is_an_error_at_it(
        record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = record_text.replace('{"player": 2,', '{"player": 1,', 1)
    path = tmp_path / "game.json"
    path.write_text(text, "utf-8")
    assert main(["replay", str(path)]) == 1
    line = _line_of(text, '"moves"') + 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{path}:{line}:5: error: move 2 (moves[1]): recorded as player 1's, but it is "
        "player 2's turn")


@pytest.mark.parametrize(("player", "shown"), [("true", "true"), ('"1"', '"1"'),
                                             ("1.0", "1.0")])
def test_a_move_s_player_that_is_not_a_number_is_an_error_at_it(
        player: str, shown: str, record_text: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """"player": true passed for player 1 (true == 1 in Python), and "1" was said as
    "recorded as player '1''s"."""
    text = record_text.replace('{"player": 1,', f'{{"player": {player},', 1)
    path = tmp_path / "game.json"
    path.write_text(text, "utf-8")
    assert main(["replay", str(path)]) == 1
    line = _line_of(text, '"moves"') + 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"{path}:{line}:5: error: move 1 (moves[0]): 'player' must be a player number, got "
        f"{shown}")


def test_analyse_play_and_replay_read_the_folder_s_configuration(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "thin-ice"
    assert main(["init", str(variant)]) == 0
    monkeypatch.chdir(variant)
    capsys.readouterr()
    assert main(["analyse", "--games", "1", "--bots", "random", "--players", "1",
                 "--jobs", "1", "--json", "-"]) == 0
    document = json.loads(capsys.readouterr().out)
    # The folder's catalogue, under its own name, not the shipped one.
    assert document["catalogue"]["name"] == "thin-ice"
    assert document["catalogue"]["path"] == "micropul.yaml"
    assert main(["play", "--bots", "random", "--record", "game.json"]) == 0
    played = capsys.readouterr().out
    assert played.startswith("Micropul, set thin-ice, variant standard")
    assert "game over" in played and "won" not in played  # alone: no winner
    assert json.loads((variant / "game.json").read_text("utf-8"))["catalogue"] == "thin-ice"
    assert main(["replay", "game.json"]) == 0
    assert main(["replay", "--show-config", "game.json"]) == 0
    assert 'theme = "theme.yaml"' in " ".join(capsys.readouterr().out.split())


def _sweep_sets(folder: Path) -> list[Path]:
    """Three Micropul sets: the official one and two with one tile changed each."""
    shipped = registry_catalogue("micropul").read_text("utf-8")
    folder.mkdir()
    sets = {"a.yaml": shipped,
            "b.yaml": shipped.replace("W .", "B .", 1).replace("name: Micropul", "name: Dark", 1),
            "c.yaml": shipped.replace("B .", "W .", 1).replace("name: Micropul", "name: Light",
                                                               1)}
    for name, text in sets.items():
        (folder / name).write_text(text, "utf-8")
    return [folder / name for name in sets]


def test_a_sweep_plays_every_set_on_the_same_seeds_and_compares_each_with_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _sweep_sets(tmp_path / "sets")
    common = ["--games", "3", "--bots", "random", "--jobs", "1"]
    assert main(["analyse", *map(str, paths), *common, "--report",
                 str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("micropul: Micropul (a.yaml); Dark (b.yaml); Light (c.yaml): ")
    assert "sweep: each set compared with Micropul on the same seeds" in out
    assert "    Dark: length (player turns) " in out and "    Light: length" in out
    document = json.loads((tmp_path / "report" / "report.json").read_text("utf-8"))
    _validate(document)
    sweep = document["sweep"]
    assert [found["catalogue"]["label"] for found in sweep["sets"]] == ["Dark", "Light"]
    assert sweep["correction"] == "Holm"
    # Every set on the same seeds: the comparison pairs every game.
    for found in sweep["sets"]:
        assert [c["games"] for c in found["compared"]] == [
            s["games"] for s in document["sections"]]
    page = (tmp_path / "report" / "report.html").read_text("utf-8")
    assert "Sweep: every set on the same seeds, compared with Micropul" in page
    # A folder is its catalogues, in name order: the same run.
    assert main(["analyse", str(tmp_path / "sets"), *common, "--json", "-"]) == 0
    from_folder = json.loads(capsys.readouterr().out)
    assert from_folder["sweep"] == sweep


def test_a_sweep_with_a_bad_catalogue_says_where_and_analyses_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _sweep_sets(tmp_path / "sets")
    paths[1].write_text(paths[1].read_text("utf-8").replace("tile_count: 48",
                                                            "tile_count: [48", 1), "utf-8")
    paths[2].write_text(paths[2].read_text("utf-8").replace("tile_count: 48",
                                                            "tile_count: many", 1), "utf-8")
    assert main(["analyse", *map(str, paths), "--games", "2", "--bots", "random",
                 "--jobs", "1", "--report", str(tmp_path / "report")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    errors = captured.err.splitlines()
    # Both files' problems, each at its line and column, and no game played.
    assert any(re.match(rf"{re.escape(str(paths[1]))}:\d+:\d+: error: ", e) for e in errors)
    assert any(re.match(rf"{re.escape(str(paths[2]))}:\d+:\d+: error: ", e) for e in errors)
    assert "analyse:" not in captured.err
    assert not (tmp_path / "report").exists()


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


def _dangling(path: Path) -> None:
    path.symlink_to("gone.yaml")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


@pytest.mark.parametrize(("make", "message"), [
    (_loop, "a symbolic link in a loop (following it leads back to it): no catalogue to "
     "read; remove it or point it at a catalogue"),
    (_dangling, "a symbolic link to 'gone.yaml', which is not there: no catalogue to read; "
     "remove it or point it at a catalogue"),
    (_fifo, "a pipe, not a file: no catalogue to read"),
])
@pytest.mark.parametrize("alone", [True, False])
def test_a_sweep_folder_s_symlink_loop_is_reported_not_taken_for_no_catalogue(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str,
        alone: bool) -> None:
    """A folder whose only .yaml was a link in a loop was 'a folder without any
    catalogue'; beside good sets, the broken link was left out without a word."""
    folder = tmp_path / "sets"
    if alone:
        folder.mkdir()
    else:
        _sweep_sets(folder)
    make(folder / "broken.yaml")
    assert main(["analyse", str(folder), "--games", "1", "--bots", "random",
                 "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"{folder / 'broken.yaml'}: error: {message}\n")


@pytest.mark.parametrize(("extra", "message"), [
    (["--against", "{a}"], "--against compares two catalogues, a sweep (several catalogues) "
     "compares each with the first: give one or the other"),
    (["{empty}"], "{empty}: a folder without any catalogue (*.yaml) to sweep"),
])
def test_sweep_usage_errors(tmp_path: Path, extra: list[str], message: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    paths = _sweep_sets(tmp_path / "sets")
    (tmp_path / "empty").mkdir()
    names = {"a": str(paths[0]), "empty": str(tmp_path / "empty")}
    words = [word.format(**names) for word in extra]
    given = [str(paths[0]), str(paths[1])] if extra[0] == "--against" else words
    rest = words if extra[0] == "--against" else []
    assert main(["analyse", *given, *rest, "--games", "1", "--bots", "random"]) == 2
    assert message.format(**names) in capsys.readouterr().err


@pytest.mark.parametrize(("command", "line", "message"), [
    ("analyse", 'anchor = "nobody"', "2:10: error: anchor: --anchor 'nobody' is not one of "
     "the bots (they are: random, greedy, lookahead)"),
    ("analyse", 'bots = "random,random"', "2:8: error: bots: a bot is named twice in "
     "random,random"),
    ("analyse", 'variants = "nope"', "2:12: error: variants: Micropul has no variant "
     "'nope' (it has: standard)"),
    ("analyse", "players = [7]", "2:11: error: players: Micropul takes 1 or 2 players, not 7"),
    ("analyse", 'skill-trace = "greedy"', "2:15: error: skill-trace: --skill-trace needs a "
     "bot with a node budget to scale: lookahead[:NODES][:dDEPTH][:greedy][:cC][:wW] (not "
     "a time budget Ns); 'greedy' has none"),
    ("play", 'variant = "nope"', "2:11: error: variant: Micropul has no variant 'nope' "
     "(it has: standard)"),
    ("play", 'bots = "random,random,random"', "2:8: error: bots: Micropul is played by 1 "
     "or 2 players: give as many bots, not 3"),
])
def test_a_lab_value_from_the_configuration_is_refused_at_its_place(
        command: str, line: str, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Not a usage error about an option the user never typed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "micropul-print.toml").write_text(f"[{command}]\n{line}\n", "utf-8")
    assert main([command, "--game", "micropul"]) == 1
    assert capsys.readouterr().err == f"micropul-print.toml:{message}\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "2"], "and --players leaves out the solitaire"),
    (["--game", "cellulae"], "and Cellulae has no solitaire"),
])
def test_no_mirror_with_one_bot_and_no_solitaire_is_a_usage_error_not_an_empty_run(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    """--no-mirror --bots greedy --players 2 played nothing, printed a heading alone and
    ended with status 0."""
    assert main(["analyse", "--no-config", "--no-mirror", "--bots", "greedy", "--games",
                 "1", "--jobs", "1", *argv]) == 2
    assert capsys.readouterr().err == (
        "micropul-print analyse: error: no mirror pairing (no bot against itself) with one "
        f"bot (greedy) leaves no game to play, {message}; give a second bot, or let the bot "
        "play itself\n")


def test_one_game_a_part_is_one_game_not_1_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--no-config", "--games", "1", "--bots", "random",
                 "--players", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 game per part, seeds 0..0" in out and "standard, solitaire: 1 game\n" in out
    assert "1 games" not in out
