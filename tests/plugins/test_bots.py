"""Bots are plugins: the test bots of tests/plugins/bots register under the
``micropul_print.bots`` entry-point group (botplugins-0.1.dist-info), as a separate pip
package would, and take part in a ladder; a bot that raises, returns an illegal action
or overruns its time budget loses that game by forfeit, and the run goes on; a plugin
that cannot be imported is left out with a one-line warning."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from micropul_print.lab import bots
from micropul_print.lab.analyse import Part, play_game

PLUGIN = Path(__file__).resolve().parent / "bots"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


@pytest.fixture
def plugged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test bots registered in this process (the factories read again)."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    bots.bot_factories.cache_clear()
    yield
    bots.bot_factories.cache_clear()


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(PLUGIN), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "micropul_print", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)


def test_the_documented_bot_is_the_one_registered() -> None:
    """docs/analysis.md shows the whole of mybots.py, in under 40 lines."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text("utf-8"), re.S)
    shown = (PLUGIN / "mybots.py").read_text("utf-8")
    assert shown in blocks
    assert len(shown.splitlines()) < 40


def test_plugin_bots_are_listed_after_the_shipped_ones(plugged: None) -> None:
    assert bots.bot_names() == ["random", "greedy", "lookahead", "chatter", "cheater",
                                "closer", "flatterer", "hanger", "hasty", "interrupter",
                                "mute", "nameless", "nobody", "quitter", "raiser", "sloth",
                                "thrifty", "vanisher"]
    assert bots.make_bot("thrifty").name == "thrifty"
    with pytest.raises(ValueError, match=r"^bad bot 'thrifty:3': thrifty takes no options$"):
        bots.make_bot("thrifty:3")
    with pytest.raises(ValueError, match=r"\(expected random, greedy, lookahead\[.*\], "
                                         r"chatter, cheater, closer, flatterer, hanger, "
                                         r"hasty, interrupter, mute, nameless, nobody, "
                                         r"quitter, raiser, sloth, thrifty or vanisher\)$"):
        bots.make_bot("unloadable")


@pytest.mark.parametrize("spec, why", [
    ("raiser", "raiser raised RuntimeError: the bot's own bug"),
    ("cheater", "cheater returned an illegal action: ('not', 'an', 'action')"),
    ("sloth", "sloth did not answer within its budget of 0.01 s (stopped)"),
    ("quitter", "quitter raised SystemExit: 3"),
    ("hanger", "hanger did not answer within its budget of 0.05 s (stopped)"),
    ("closer", "closer raised GeneratorExit: closed"),
    # An object equal to every action broke the engine (internal error); one whose
    # repr never returns hung the run, its message written outside the budget.
    ("flatterer", "flatterer returned an illegal action: Anything()"),
    ("mute", "mute did not answer within its budget of 0.05 s (stopped)"),
])
def test_a_bot_breaking_the_rules_loses_by_forfeit(plugged: None, spec: str, why: str,
                                                    catalogue: object) -> None:
    for seats in ((spec, "random"), ("random", spec)):
        game = play_game("micropul", catalogue, Part("standard", seats), 3)
        loser = seats.index(spec)
        assert game.end == bots.FORFEIT
        assert game.returns == tuple(0.0 if seat == loser else 1.0 for seat in range(2))
        assert game.forfeit is not None
        assert game.forfeit.startswith(f"seed 3, seat {loser + 1}: {why}")
    alone = play_game("micropul", catalogue, Part("standard", (spec,)), 3)
    assert alone.end == bots.FORFEIT and alone.returns == (0.0,)


def test_a_plugin_bot_plays_in_a_ladder_and_a_broken_one_is_left_out(tmp_path: Path) -> None:
    result = run(tmp_path, "analyse", "--bots", "greedy,thrifty,raiser", "--games", "2",
                 "--players", "2", "--jobs", "1", "--json", "out.json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == ["micropul-print: warning: the bot plugin 'odd,name' "
                        "(testbots:raiser) has a name --bots cannot give (no ':', ',' or "
                        "spaces) (left out)",
                        "micropul-print: warning: the bot plugin 'unloadable' "
                        "(no_such_module_of_bots:make) failed to load: ModuleNotFoundError: "
                        "No module named 'no_such_module_of_bots' (left out)"]
    report = json.loads((tmp_path / "out.json").read_text())
    section = report["sections"][0]
    assert [row["bot"] for row in section["ladder"]][-1] == "raiser"
    assert {row["bot"] for row in section["ladder"]} == {"greedy", "thrifty", "raiser"}
    assert section["forfeits"][0] == "seed 0, seat 2: raiser raised RuntimeError: the bot's own bug"
    assert "lost by forfeit: seed 0, seat 2: raiser raised" in result.stdout


def test_a_bot_calling_sys_exit_loses_by_forfeit_and_the_run_goes_on(tmp_path: Path) -> None:
    """sys.exit(3) in a bot ended the whole analyse run, silently, with status 3."""
    result = run(tmp_path, "analyse", "--bots", "random,quitter", "--games", "1",
                 "--players", "2", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert "lost by forfeit: seed 0, seat 2: quitter raised SystemExit: 3" in result.stdout


def test_a_factory_making_no_bot_is_a_usage_error_not_an_internal_error(
        tmp_path: Path) -> None:
    """A factory returning None was an internal error (AttributeError, exit 70)."""
    result = run(tmp_path, "analyse", "--bots", "random,nobody", "--games", "1",
                 "--jobs", "1")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "micropul-print analyse: error: argument --bots: the bot plugin 'nobody' made "
        "NoneType, not a bot, for 'nobody' (a bot has a name and a choose(state, rng): see "
        "docs/analysis.md)")


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("spec", ["closer", "interrupter"])
def test_a_bot_raising_a_base_exception_loses_by_forfeit_and_the_run_goes_on(
        tmp_path: Path, spec: str, jobs: str) -> None:
    """GeneratorExit from a bot was a traceback (--jobs 1) or killed its worker, and
    the pool waited for its batch for ever (--jobs 2); a KeyboardInterrupt no Ctrl-C
    sent stopped the run as interrupted (status 130) or, in a worker, hung it too."""
    result = subprocess.run(
        [sys.executable, "-m", "micropul_print", "analyse", "--bots", f"random,{spec}",
         "--games", "2", "--players", "2", "--no-mirror", "--jobs", jobs, "--json",
         "out.json"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(PLUGIN), *filter(None, [os.environ.get("PYTHONPATH")])])})
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads((tmp_path / "out.json").read_text())
    assert len(report["sections"][0]["forfeits"]) == 4


def test_a_worker_that_ends_mid_run_is_an_error_not_a_run_that_never_ends(
        tmp_path: Path) -> None:
    """A worker process that ended while it played (a bot calling os._exit, the system
    out of memory killing it) left its batch unplayed, and the pool waited for it for
    ever."""
    result = run(tmp_path, "analyse", "--bots", "random,vanisher", "--games", "2",
                 "--players", "2", "--no-mirror", "--jobs", "2")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines()[0] == (
        "micropul-print: error: a worker process ended with exit status 5 before its games "
        "were played (a bot plugin that ends its process, a crash, or the system out of "
        "memory): no report; --jobs 1 plays them in this process")
    assert list(tmp_path.iterdir()) == []


def test_a_bot_whose_name_raises_is_a_usage_error_not_an_internal_error(
        tmp_path: Path) -> None:
    """A bot whose name property raised was an internal error (status 70)."""
    result = run(tmp_path, "analyse", "--bots", "random,nameless", "--games", "1",
                 "--jobs", "1")
    assert (result.returncode, result.stderr.splitlines()[-1]) == (2, (
        "micropul-print analyse: error: argument --bots: the bot plugin 'nameless' made "
        "Nameless, whose name raised RuntimeError: no name today, for 'nameless' (a bot "
        "has a name and a choose(state, rng): see docs/analysis.md)"))


def test_a_bot_s_print_goes_to_stderr_not_into_the_json_on_stdout(tmp_path: Path) -> None:
    """A plugin bot's print() landed in analyse --json -'s JSON, which no longer parsed."""
    result = run(tmp_path, "analyse", "--bots", "chatter", "--games", "1", "--players", "1",
                 "--jobs", "1", "--json", "-")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["format"] == "micropul-print analysis"
    assert "chatter thinks aloud" in result.stderr


def test_a_bot_that_never_answers_is_stopped_and_loses_in_a_worker_too(
        tmp_path: Path) -> None:
    """A bot that never returned hung the whole run: its overrun was measured only once
    it answered."""
    result = run(tmp_path, "analyse", "--bots", "random,hanger", "--games", "1",
                 "--players", "2", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert ("lost by forfeit: seed 0, seat 2: hanger did not answer within its budget of "
            "0.05 s (stopped)") in result.stdout


def test_a_bot_with_a_budget_that_is_none_is_a_usage_error(plugged: None) -> None:
    """move_seconds = -1 (or NaN, or a string) was taken as 10 s without a word."""
    with pytest.raises(ValueError) as caught:
        bots.make_bot("hasty")
    assert str(caught.value) == (
        "the bot plugin 'hasty' made 'hasty' with move_seconds -1.0: a time budget is a "
        "number of seconds above 0, at most 3600")
