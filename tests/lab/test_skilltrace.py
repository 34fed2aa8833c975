"""analyse --skill-trace: the lookahead at 1, 2, 4, 8 and 16 times its budget, each
against the one below, with each step's share and Wilson interval; a usage error for a
bot without a node budget and for a game without two players."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from micropul_print.cli import main
from micropul_print.game import registry
from micropul_print.lab import skilltrace
from micropul_print.lab.analyse import GameSummary
from micropul_print.lab.report import skill_trace_html


def test_the_budgets_are_the_bot_s_own_times_1_to_16() -> None:
    assert skilltrace.budget_specs("lookahead") == [
        "lookahead:30", "lookahead:60", "lookahead:120", "lookahead:240", "lookahead:480"]
    assert skilltrace.budget_specs("lookahead:5:d2:w2") == [
        "lookahead:5:d2:w2", "lookahead:10:d2:w2", "lookahead:20:d2:w2",
        "lookahead:40:d2:w2", "lookahead:80:d2:w2"]


@pytest.mark.parametrize("spec", ["greedy", "random", "lookahead:0.5s"])
def test_a_bot_without_a_node_budget_is_refused_naming_what_is_supported(spec: str) -> None:
    with pytest.raises(ValueError, match=r"^--skill-trace needs a bot with a node budget "
                       r"to scale: lookahead\[:NODES\]\[:dDEPTH\]\[:greedy\]\[:cC\]\[:wW\] "
                       rf"\(not a time budget Ns\); '{spec}' has none$"):
        skilltrace.budget_specs(spec)


def test_a_budget_whose_16_times_passes_the_largest_is_refused_before_any_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """lookahead:1000000 was accepted, then its 2,000,000-node step was refused by the
    bot's own bound while the games were being set up: an internal error, status 70."""
    assert skilltrace.budget_specs("lookahead:62500")[-1] == "lookahead:1000000"
    assert main(["analyse", "--skill-trace", "lookahead:1000000", "--games", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "micropul-print analyse: error: --skill-trace plays 'lookahead:1000000' at up to 16 "
        "times its node budget, 1,000,000: 16,000,000 nodes, past the largest budget, "
        "1,000,000; give it at most 62,500 nodes"]


def test_a_game_without_two_players_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = SimpleNamespace(info=SimpleNamespace(player_counts=(1,), title="Patience"),
                            variants=lambda catalogue: ("standard",))
    monkeypatch.setattr(registry, "get", lambda name: alone)
    with pytest.raises(ValueError, match=r"^--skill-trace plays two-player games; Patience "
                       r"is played by 1 player \(skill traces are supported for games with a "
                       r"two-player mode\)$"):
        skilltrace.plan("patience", None, "lookahead", 4, 0)


def _game(seed: int, returns: tuple[float, float]) -> GameSummary:
    return GameSummary(seed, (0.0, 0.0), returns, "core exhausted", 10, (), 0, None, None, ())


def test_each_step_counts_the_stronger_bot_s_points_in_both_seat_orders(
        catalogue: Any) -> None:
    plan = skilltrace.plan("micropul", catalogue, "lookahead:1", 2, 0)
    assert [p.bots for p in plan.parts[:2]] == [("lookahead:2", "lookahead:1"),
                                                ("lookahead:1", "lookahead:2")]
    assert len(plan.parts) == 8  # four steps, two seat orders each
    results = {0: [_game(0, (1.0, 0.0)), _game(1, (0.5, 0.5))],   # stronger first
               1: [_game(0, (1.0, 0.0)), _game(1, (0.0, 1.0))]}   # stronger second
    (step,) = skilltrace.summarise(plan, results)[:1]
    assert step["stronger"] == "lookahead:2" and step["weaker"] == "lookahead:1"
    assert (step["factor"], step["games"], step["wins"], step["ties"]) == (2, 4, 2, 1)
    assert step["share"]["value"] == 0.625 and step["share"]["method"] == "wilson"
    assert step["share"]["low"] < 0.625 < step["share"]["high"]


def test_a_step_of_games_played_alike_on_every_seed_says_they_are_copies(
        catalogue: Any) -> None:
    plan = skilltrace.plan("micropul", catalogue, "lookahead:1", 6, 0)
    # A game without chance and bots that play alike: each seat order one game, 6 times.
    copies = {0: [_game(seed, (1.0, 0.0)) for seed in range(6)],
              1: [_game(seed, (1.0, 0.0)) for seed in range(6)]}
    (step,) = skilltrace.summarise(plan, copies)[:1]
    assert (step["games"], step["distinct"]) == (12, 2)
    document = {"game": "micropul", "catalogue": {"name": "Micropul", "source": "m.yaml"},
                "bot": "lookahead:1", "games": 6, "seed": 0, "complete": True,
                "steps": [step]}
    assert ("only 2 distinct games: the bots play alike on every seed, and the interval "
            "counts the copies as games") in skilltrace.format_text(document)
    assert "Fewer distinct games than games" in skill_trace_html(document)
    # Games that differ (here in length) are each their own.
    varied = {0: [GameSummary(seed, (0.0, 0.0), (1.0, 0.0), "core exhausted", 10 + seed,
                              (), 0, None, None, ()) for seed in range(6)]}
    (step,) = skilltrace.summarise(plan, varied)[:1]
    assert (step["games"], step["distinct"]) == (6, 6)
    document["steps"] = [step]
    assert "distinct" not in skilltrace.format_text(document)


def test_the_command_reports_text_json_and_a_chart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["analyse", "--skill-trace", "lookahead:1", "--games", "1", "--jobs", "1"]
    assert main([*args, "--json", str(tmp_path / "trace.json")]) == 0
    out = capsys.readouterr().out
    assert "skill trace of lookahead:1, 1 game per seat order per step" in out
    assert "  standard: lookahead:16 v lookahead:8: " in out
    document = json.loads((tmp_path / "trace.json").read_text("utf-8"))
    assert document["format"] == "micropul-print skill trace"
    assert document["catalogue"]["source"] == "shipped:micropul.yaml"  # no folder named
    assert [s["factor"] for s in document["steps"]] == [2, 2, 2, 2]
    assert all(s["games"] == 2 for s in document["steps"])
    page = skill_trace_html(document)
    assert "<svg" in page and "stronger bot's share of the points (%)" in page
    assert "lookahead:16" in page


def test_the_command_s_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--skill-trace", "greedy", "--games", "1"]) == 2
    assert "--skill-trace needs a bot with a node budget" in capsys.readouterr().err
