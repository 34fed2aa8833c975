"""The analysis: what is played, that the figures do not depend on how the work is
shared out, and that each figure is taken the right way round."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.game import registry
from micropul_print.lab import analyse
from micropul_print.lab.analyse import GameSummary, Part
from micropul_print.lab.runner import run_plan


def _catalogue(game: str) -> Any:
    return load_catalogue(registry.get(game).shipped_catalogue())


def test_the_plan_has_every_pairing_both_ways_and_each_solitaire_bot() -> None:
    plan = analyse.plan("micropul", _catalogue("micropul"), ["random", "greedy"], 5, 10)
    assert plan.parts == (
        Part("standard", ("random", "random")), Part("standard", ("random", "greedy")),
        Part("standard", ("greedy", "random")), Part("standard", ("greedy", "greedy")),
        Part("standard", ("random",)), Part("standard", ("greedy",)))
    # Every part plays seeds 10..14, in batches.
    for index in range(len(plan.parts)):
        seeds = [s for b in plan.batches if b.part == index for s in b.seeds]
        assert seeds == [10, 11, 12, 13, 14]


def test_the_plan_covers_each_variant_and_can_be_narrowed() -> None:
    catalogue = _catalogue("cellulae")
    plan = analyse.plan("cellulae", catalogue, ["random"], 2, 0)
    assert [p.variant for p in plan.parts] == ["5", "7", "9"]
    plan = analyse.plan("cellulae", catalogue, ["random"], 2, 0, variants=["7"])
    assert plan.parts == (Part("7", ("random", "random")),)
    plan = analyse.plan("micropul", _catalogue("micropul"), ["greedy"], 2, 0, players=[1])
    assert plan.parts == (Part("standard", ("greedy",)),)
    with pytest.raises(ValueError, match="unknown bot"):
        analyse.plan("cellulae", catalogue, ["nobody"], 2, 0)
    with pytest.raises(ValueError, match="named twice"):
        analyse.plan("cellulae", catalogue, ["random", "random"], 2, 0)


def test_the_results_are_the_same_in_workers_and_in_this_process() -> None:
    catalogue = _catalogue("cellulae")
    plan = analyse.plan("cellulae", catalogue, ["random", "greedy"], 3, 5, variants=["5"])
    here, complete = run_plan(plan, catalogue, jobs=1)
    forked, forked_complete = run_plan(plan, catalogue, jobs=2)
    assert complete and forked_complete
    assert here == forked
    assert [g.seed for g in here[0]] == [5, 6, 7]
    sections = analyse.summarise(plan, catalogue, ["random", "greedy"], here)
    assert sections == analyse.summarise(plan, catalogue, ["random", "greedy"], forked)


def _game(seed: int, returns: tuple[float, ...], scores: tuple[float, ...] = (1.0, 0.0),
          pieces: tuple[tuple[str, int, int, float], ...] = (), turns: int = 10,
          end: str = "done") -> GameSummary:
    return GameSummary(seed, scores, returns, end, turns, (3, 3), 1, 0.5, 0.25, pieces,
                       (("place", turns),), ((("draw", 1), ("place", 2)),) * 2)


def test_points_are_counted_for_the_right_bot_and_seat() -> None:
    parts = (Part("v", ("a", "b")), Part("v", ("b", "a")))
    results = {
        # a in seat 1 wins twice; then b in seat 1 wins once, ties once.
        0: [_game(0, (1.0, 0.0)), _game(1, (1.0, 0.0))],
        1: [_game(0, (1.0, 0.0), pieces=(("7", 3, 0, 2.0),)), _game(1, (0.5, 0.5))],
    }
    section = analyse._two_player(parts, results, ["a", "b"], ["7", "8"], 0, "b")
    # Only lopsided pairings: seat 1 took 3.5 points of 4, but that is a and b in turn
    # in that seat, not the seat: the edge is the fitted seat term, never the pooled
    # 87.5 %. Each order with its extra tie: a first 2.5 of 3, b first 2 of 3, so h is
    # the mean of their logits (log 5 + log 2) / 2 and the edge sigma(h) = sqrt(10) /
    # (1 + sqrt(10)).
    edge = section["first_player"]
    assert edge["method"] == "seat-term" and edge["points"]["method"] == "seat-term"
    assert edge["points"]["value"] == pytest.approx(10**0.5 / (1 + 10**0.5), abs=1e-6)
    assert edge["points"]["low"] < 0.5 < edge["points"]["high"]
    assert edge["games"] == 4 and edge["pairings"] == ["a v b", "b v a"]
    assert "no mirror pairing" in edge["note"]
    assert section["ties"]["value"] == 0.25
    points = section["matrix"]["points"]
    assert points[0][1]["value"] == pytest.approx(2.5 / 4)  # a against b
    assert points[1][0]["value"] == pytest.approx(1.5 / 4)
    assert points[0][0] is None
    assert section["anchor"] == "b"
    first, last = section["ladder"]
    assert (first["bot"], last["bot"]) == ("a", "b")
    assert first["rating"]["value"] > 0 and first["rating"]["method"] == "bradley-terry"
    assert last["rating"] == {"value": 0.0, "low": 0.0, "high": 0.0, "method": "anchor"}
    assert first["gap_below"] == first["rating"] and last["gap_below"] is None
    seven, eight = section["pieces"]
    assert seven["piece"] == "7" and seven["played"]["value"] == 0.25
    assert seven["points"]["value"] == 1.0 and seven["gain"]["value"] == 2.0
    assert seven["held"]["value"] == 0.0 and seven["scoring"]["value"] == 0.0
    assert eight["played"]["value"] == 0.0


def test_the_ladder_gaps_follow_the_rungs_whatever_the_anchor() -> None:
    # c beats b beats a, each time 3 games to 1 over both seat orders.
    parts = (Part("v", ("a", "b")), Part("v", ("b", "c")), Part("v", ("a", "c")))
    results = {index: [_game(seed, (0.0, 1.0)) for seed in range(3)] + [_game(3, (1.0, 0.0))]
               for index in range(3)}
    ladders = {anchor: analyse._two_player(parts, results, ["a", "b", "c"], [], 0,
                                           anchor)["ladder"] for anchor in "abc"}
    for ladder in ladders.values():
        assert [row["bot"] for row in ladder] == ["c", "b", "a"]
        assert [row["gap_below"] is None for row in ladder] == [False, False, True]
        for row, ours in zip(ladder, ladders["a"], strict=True):
            if row["gap_below"] is not None:
                assert row["gap_below"]["value"] == pytest.approx(ours["gap_below"]["value"])
                assert row["gap_below"]["low"] == pytest.approx(ours["gap_below"]["low"])
    # Four games a pair cannot tell the rungs apart.
    assert not analyse.strictly_ordered(ladders["a"])
    assert ladders["c"][0]["rating"]["method"] == "anchor"


def test_the_anchor_is_greedy_when_it_plays_else_the_first_bot() -> None:
    assert analyse.choose_anchor(["random", "greedy", "lookahead"], None) == "greedy"
    assert analyse.choose_anchor(["lookahead:100", "random"], None) == "lookahead:100"
    assert analyse.choose_anchor(["random", "greedy"], "random") == "random"
    with pytest.raises(ValueError, match=r"^--anchor 'lookahead' is not one of the bots "
                       r"\(they are: random, greedy\)$"):
        analyse.choose_anchor(["random", "greedy"], "lookahead")


def test_lead_changes_and_how_late_the_winner_is_known() -> None:
    catalogue = _catalogue("cellulae")
    summary = analyse.play_game("cellulae", catalogue, Part("5", ("random", "greedy")), 2)
    assert summary.turns == len(summary.branching) == len(summary.legal)
    assert sum(count for _, count in summary.moves) == summary.turns
    assert summary.decided is not None and 0.0 <= summary.decided <= 1.0
    assert summary.behind is not None and summary.behind <= summary.decided
    assert summary.lead_changes >= 0
    assert summary.pieces == ()  # Cellulae's tiles are all alike


def test_a_catalogue_compared_with_itself_differs_in_nothing() -> None:
    catalogue = _catalogue("cellulae")
    plan = analyse.plan("cellulae", catalogue, ["random"], 4, 0, variants=["5"])
    results, _ = run_plan(plan, catalogue, jobs=1)
    rows = analyse.compare(plan, results, results, plan)
    analyse.correct(rows)
    assert [row["bots"] for row in rows] == [["random", "random"]]
    assert rows[0]["games"] == 4
    assert all(m["difference"]["value"] == 0 and not m["significant"]
               for m in rows[0]["metrics"])
    assert "first-player edge" in [m["metric"] for m in rows[0]["metrics"]]


def test_a_bot_that_met_no_other_is_not_rated_at_zero_in_the_text() -> None:
    """An analysis stopped after greedy v greedy: lookahead has played nobody. Its
    JSON rating is a "none" interval at 0, which the summary must not read as 'level
    with greedy'."""
    from micropul_print.lab import report

    catalogue = _catalogue("cellulae")
    bots = ["greedy", "lookahead"]
    plan = analyse.plan("cellulae", catalogue, bots, 2, 0, variants=["5"])
    played = {0: analyse.run_batch("cellulae", catalogue, plan.parts[0], plan.batches[0])}
    document = report.build_report([(catalogue, plan)], [(played, False)], bots)
    ladder = document["sections"][0]["ladder"]
    assert [(row["bot"], row["games"], row["rating"]["method"]) for row in ladder] == [
        ("greedy", 0, "anchor"), ("lookahead", 0, "none")]
    text = report.format_text(document)
    assert ("  ladder (Elo, greedy = 0): greedy (no games against the others), lookahead "
            "(no games against the others)\n") in text
    assert "  gaps to the next rung down: greedy not measured; not strictly ordered" in text
    assert "(no games against the others)" in report.render_html(document)


def test_a_compared_solitaire_part_is_named_as_one_bot_alone() -> None:
    from micropul_print.lab import report

    catalogue = _catalogue("micropul")
    plan = analyse.plan("micropul", catalogue, ["random"], 2, 0, players=[1])
    results, _ = run_plan(plan, catalogue, jobs=1)
    document = report.build_report([(catalogue, plan), (catalogue, plan)],
                                   [(results, True), (results, True)], ["random"])
    page = report.render_html(document)
    assert '<td class="name">standard, random alone</td><td class="name">score: random</td>' in page
    # One file given twice: two labels all the same.
    assert document["catalogue"]["label"] != document["against"]["catalogue"]["label"]


def test_workers_that_played_everything_end_on_their_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished run lets its workers end (close, join) before the pool is terminated:
    a SIGTERM that reaches a worker still starting is lost, and that worker would then
    wait for work for ever (a run that hung once in CI)."""
    import multiprocessing.pool

    alive_at_terminate: list[int] = []
    real_terminate = multiprocessing.pool.Pool.terminate

    def terminate(self: Any) -> None:
        alive_at_terminate.extend(p.pid for p in self._pool if p.exitcode is None)
        real_terminate(self)

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", terminate)
    catalogue = _catalogue("cellulae")
    plan = analyse.plan("cellulae", catalogue, ["random", "greedy"], 2, 0, variants=["5"])
    assert len(plan.batches) >= 2  # so that two workers play
    results, complete = run_plan(plan, catalogue, jobs=2)
    assert complete and sum(len(games) for games in results.values()) == 2 * len(plan.parts)
    assert alive_at_terminate == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bug_in_a_plugins_game_is_blamed_on_the_plugin_even_from_a_worker(
        jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's traceback stays in the worker: the plugin is noted on the exception."""
    import sys
    import types
    from importlib.metadata import EntryPoint

    from micropul_print.lab import runner

    module = types.ModuleType("buggy_lab_plugin")
    exec(compile("def run_batch(game, catalogue, part, batch):\n    return [1 // 0]\n",
                 "buggy_lab_plugin.py", "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "buggy_lab_plugin", module)
    found = {**registry._entry_points(),
             "buggy": EntryPoint("buggy", "buggy_lab_plugin:GAME", registry.GROUP)}
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    monkeypatch.setattr(runner, "run_batch", module.run_batch)
    catalogue = _catalogue("cellulae")
    plan = analyse.plan("cellulae", catalogue, ["random", "greedy"], 2, 0, variants=["5"])
    assert len(plan.batches) >= 2  # so that, with jobs=2, workers play
    with pytest.raises(ZeroDivisionError) as bug:
        run_plan(plan, catalogue, jobs=jobs)
    assert registry.plugin_blamed(bug.value) == "buggy"


@pytest.mark.parametrize("game", ["micropul", "cellulae"])
def test_score_intervals_stay_within_what_a_score_can_be(game: str) -> None:
    """Three games scoring 0, 0 and 20 gave a mean score of 6.7 between -22 and 35: a
    score is never negative, and a Cellulae colour never covers more than the board
    (25 squares on the 5 x 5)."""
    catalogue = _catalogue(game)
    the_plan = analyse.plan(game, catalogue, ["random"], 3, 0, players=[2])
    variant = the_plan.parts[0].variant
    state = registry.get(game).new_state(catalogue, players=2, variant=variant)
    bounds = analyse.score_range(state)
    assert bounds is not None
    low, high = bounds
    assert low == 0.0 and high == (float("inf") if game == "micropul" else 25.0)
    results = {0: [_game(0, (1.0, 0.0), (0.0, 20.0)), _game(1, (0.0, 1.0), (0.0, 0.0)),
                   _game(2, (0.0, 1.0), (20.0, 20.0))]}
    section, = analyse.summarise(the_plan, catalogue, ["random"], results)
    # The t interval's half width: t(2) 4.303 times the standard error 11.547 / sqrt(3).
    for seat, mean in ((0, 20 / 3), (1, 40 / 3)):
        interval = section["pairings"][0]["scores"][seat]["mean"]
        assert interval["value"] == pytest.approx(mean, abs=1e-6)
        assert interval["low"] == 0.0  # -22.0 and -15.4 before
        assert interval["high"] == pytest.approx(min(high, mean + 28.69), abs=0.01)


def test_a_game_that_does_not_say_what_a_score_can_be_keeps_the_whole_interval() -> None:
    assert analyse.score_range(object()) is None
    section = analyse._solitaire((Part("v", ("a",)),),
                                 {0: [_game(0, (1.0,), (0.0,)), _game(1, (0.0,), (0.0,)),
                                      _game(2, (0.0,), (30.0,))]}, [], 0)
    assert section["bots"][0]["scores"]["mean"]["low"] < 0


def test_the_first_player_edge_comes_from_mirror_pairings_alone() -> None:
    parts = (Part("v", ("a", "a")), Part("v", ("a", "b")), Part("v", ("b", "a")))
    results = {
        0: [_game(0, (1.0, 0.0)), _game(1, (1.0, 0.0)), _game(2, (0.0, 1.0)),
            _game(3, (0.5, 0.5))],
        # a beats b whatever the seat: pooled with the mirror, seat 1 would look even.
        1: [_game(0, (1.0, 0.0)), _game(1, (1.0, 0.0))],
        2: [_game(0, (0.0, 1.0)), _game(1, (0.0, 1.0))],
    }
    edge = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")["first_player"]
    assert edge["points"]["value"] == pytest.approx(2.5 / 4)
    assert edge["games"] == 4 and edge["pairings"] == ["a v a"]
    assert edge["unbalanced"] == [] and edge["note"] is None


def test_one_seat_order_alone_gives_no_first_player_figure() -> None:
    from micropul_print.lab import report

    parts = (Part("v", ("a", "b")), Part("v", ("b", "a")))
    # An interrupted run: b v a never played, so a's strength and seat 1 are one.
    results = {0: [_game(0, (1.0, 0.0)), _game(1, (1.0, 0.0)), _game(2, (0.0, 1.0))]}
    edge = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")["first_player"]
    assert edge["points"] is None and edge["method"] is None
    assert "cannot tell the seat from the bots" in edge["note"]
    assert "a v b 3 games, reversed 0" in report.first_player_text(edge)


def test_the_mirror_pairings_win_over_the_fitted_seat_term() -> None:
    parts = (Part("v", ("a", "a")), Part("v", ("a", "b")), Part("v", ("b", "a")))
    results = {0: [_game(0, (0.0, 1.0)), _game(1, (0.0, 1.0))],
               1: [_game(0, (1.0, 0.0))] * 5, 2: [_game(0, (1.0, 0.0))] * 5}
    edge = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")["first_player"]
    assert edge["method"] == "mirror" and edge["points"]["value"] == 0.0
    assert edge["pairings"] == ["a v a"]


def test_mirror_games_played_alike_on_every_seed_are_said_to_be_copies() -> None:
    from micropul_print.lab import report

    parts = (Part("v", ("a", "a")), Part("v", ("b", "b")))
    # a against itself: one game, 6 times (a game without chance); b's games differ.
    results = {0: [_game(seed, (1.0, 0.0)) for seed in range(6)],
               1: [_game(seed, (1.0, 0.0), turns=10 + seed) for seed in range(6)]}
    edge = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")["first_player"]
    assert edge["method"] == "mirror" and edge["games"] == 12
    assert edge["note"] == ("games played alike on every seed (a v a 6 games, 1 distinct): "
                            "a bot that chooses alike in a game without chance plays one "
                            "game again and again, and the interval counts the copies as "
                            "games")
    assert edge["note"] in report.first_player_text(edge)


def test_an_interrupted_run_with_unbalanced_seat_orders_says_so() -> None:
    from micropul_print.lab import report

    parts = (Part("v", ("a", "a")), Part("v", ("a", "b")), Part("v", ("b", "a")))
    results = {0: [_game(0, (1.0, 0.0)), _game(1, (0.0, 1.0))],
               1: [_game(0, (1.0, 0.0)), _game(1, (1.0, 0.0)), _game(2, (1.0, 0.0))],
               2: [_game(0, (0.0, 1.0))]}
    edge = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")["first_player"]
    assert edge["unbalanced"] == [{"bots": ["a", "b"], "games": [3, 1]}]
    assert "seat orders unbalanced by the interruption: a v b 3 games, reversed 1" in (
        report.first_player_text(edge))


def test_length_is_in_player_turns_and_legal_moves_are_counted_by_kind() -> None:
    catalogue = _catalogue("micropul")
    summary = analyse.play_game("micropul", catalogue, Part("standard", ("greedy", "greedy")),
                                3)
    kinds = dict(summary.moves)
    assert set(kinds) <= {"place", "draw", "claim"} and kinds["place"] > 0
    # Every decision's legal moves, by kind, add up to the legal moves of that decision.
    assert [sum(n for _, n in d) for d in summary.legal] == list(summary.branching)
    section = analyse._common([summary], 0)
    assert set(section["legal"]) >= {"place", "draw"}
    # Placements are averaged over the decisions that offered a placement, apart from
    # the draws: a draw is one choice, a placement one of many.
    assert section["legal"]["draw"]["mean"]["value"] == 1.0
    assert section["legal"]["place"]["mean"]["value"] > 1.0
    assert section["length"]["mean"]["value"] == summary.turns


def test_a_solitaire_section_has_no_win() -> None:
    from micropul_print.lab import report

    catalogue = _catalogue("micropul")
    plan = analyse.plan("micropul", catalogue, ["random", "greedy"], 2, 0, players=[1])
    results, _ = run_plan(plan, catalogue, jobs=1)
    document = report.build_report([(catalogue, plan)], [(results, True)], ["random", "greedy"])
    section, = document["sections"]
    assert all("won" not in row for row in section["bots"])
    assert all("points" not in row for row in section["pieces"])
    for text in (report.format_text(document), report.render_html(document)):
        assert "won" not in text.lower().replace("unknown", "")
        assert "par" in text


def test_differences_are_corrected_for_multiple_comparisons_and_worded() -> None:
    parts = (Part("v", ("a", "a")),)
    this = {0: [_game(seed, (1.0, 0.0), turns=20 + seed % 3) for seed in range(40)]}
    other = {0: [_game(seed, (1.0, 0.0), turns=18 + seed % 2) for seed in range(40)]}
    plan = analyse.Plan("cellulae", parts, 40, 0)
    compared = analyse.compare_sections(plan, this, plan, other)
    analyse.correct(compared)
    (section,) = compared
    length = next(m for m in section["metrics"] if m["metric"] == "length")
    assert length["significant"] and length["p_adjusted"] >= length["p"]
    assert analyse.describe_difference(length).startswith("games 2.5 player turns shorter (")
    edge = next(m for m in section["metrics"] if m["metric"] == "first-player edge")
    # Seat 1 won all 40 games in both: no game without it, too few to compare.
    assert edge["not_compared"] is not None and edge["p"] is None
    assert analyse.summary_sentences(compared) == [
        f"v, 2 players: {analyse.describe_difference(length)}; 2.5 fewer place moves per "
        "game (2.2 to 2.8); first-player edge not "
        f"compared ({edge['not_compared']})"]


def test_a_proportion_needs_enough_games_to_be_compared() -> None:
    parts = (Part("v", ("a", "a")),)
    plan = analyse.Plan("cellulae", parts, 10, 0)
    this = {0: [_game(seed, (1.0, 0.0) if seed % 2 else (0.0, 1.0)) for seed in range(10)]}
    compared = analyse.compare_sections(plan, this, plan, this)
    edge = next(m for m in compared[0]["metrics"] if m["metric"] == "first-player edge")
    assert edge["not_compared"].startswith("too few games to compare a proportion (needs 30")


def test_whole_numbers_go_into_whole_bins() -> None:
    from micropul_print.lab.report import _bins

    # Few values: one bin per whole number, centred on it.
    assert _bins([3.0, 5.0, 9.0]) == [2.5 + k for k in range(8)]
    # Many: a whole width, so that no bin holds more whole numbers than the next.
    edges = _bins([0.0, 100.0])
    widths = {round(b - a, 9) for a, b in itertools.pairwise(edges)}
    assert widths == {3.0} and edges[0] == -0.5 and edges[-1] >= 100.0
    assert _bins([0.5, 1.25]) == 30  # not whole numbers


def test_score_distributions_are_per_bot_not_pooled() -> None:
    from micropul_print.lab import report

    parts = (Part("v", ("a", "a")), Part("v", ("a", "b")), Part("v", ("b", "b")))
    results = {0: [_game(0, (1.0, 0.0), (10.0, 4.0))],
               1: [_game(0, (1.0, 0.0), (50.0, 0.0))],
               2: [_game(0, (0.0, 1.0), (30.0, 31.0))]}
    section = analyse._two_player(parts, results, ["a", "b"], [], 0, "a")
    assert report.pairing_scores(section) == [("a", [[4.0, 1], [10.0, 1]]),
                                              ("b", [[30.0, 1], [31.0, 1]])]


def test_the_tiles_two_catalogues_describe_differently_are_marked() -> None:
    from micropul_print.catalogue.loader import read_catalogue
    from micropul_print.lab import report

    shipped = registry.get("micropul").shipped_catalogue()
    official = _catalogue("micropul")
    assert report.changed_pieces(official, official) == []
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        changed = Path(folder) / "changed.yaml"
        changed.write_text(shipped.read_text("utf-8").replace("W .", "B .", 1), "utf-8")
        variant, _ = read_catalogue(changed)
    assert report.changed_pieces(official, variant) == ["1"]
