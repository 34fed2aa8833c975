"""Set facts and simulations (micropul_print.games.micropul.setcheck)."""

from __future__ import annotations

from micropul_print.errors import Severity
from micropul_print.games.micropul.model import Catalogue, Tile
from micropul_print.games.micropul.rules.game import END_REASONS
from micropul_print.games.micropul.setcheck import (
    activation_example,
    format_facts,
    format_simulation,
    set_facts,
    simulate,
)


def test_the_official_set(catalogue: Catalogue) -> None:
    facts = set_facts(catalogue)
    assert [d for d in facts.diagnostics if d.severity != Severity.NOTICE] == []
    assert [(a, b) for a, b, _ in facts.same_up_to_rotation] == [(35, 36), (41, 42), (45, 46)]
    assert next(d.message for d in facts.diagnostics) == (
        "tiles 35 and 36 are identical up to rotation (tile 35 turned 90 degrees is tile 36)"
    )
    assert facts.swap_pairs == 24
    assert facts.big == {"white": 2, "black": 2}
    assert facts.symbols["white"] == facts.symbols["black"]
    # 44 small tiles x 4 quadrants, plus one micropul and one catalyst per big tile.
    assert sum(facts.symbols.values()) == 44 * 4 + 4 * 2
    assert facts.catalysts == facts.symbols["dot"] + facts.symbols["double"] + facts.symbols["plus"]
    # Catalysts whose both sides are blank or catalysts need a helper tile to be reached.
    assert facts.catalysts_needing_third_tile == [
        "7 br",
        "8 br",
        "25 br",
        "26 br",
        "31 br",
        "32 br",
    ]
    assert "catalysts that can be activated: 46 of 46" in format_facts(facts)


def test_activation_example_is_a_legal_sequence(catalogue: Catalogue) -> None:
    from micropul_print.games.micropul.rules import Board

    example = activation_example(catalogue, catalogue.tile(25), 2)
    assert example is not None and len(example) == 4
    board = Board(catalogue)
    board.place(*example[0], check=False)
    for placement in example[1:]:
        done = board.place(*placement)
    assert ("br", 0, 0) in {(c.position, c.x, c.y) for c in done.activated}


def small_set(*tiles: Tile) -> Catalogue:
    return Catalogue(game="micropul", name="test", tiles=tiles, source="small.yaml")


def test_missing_swap_and_unreachable_catalyst(catalogue: Catalogue) -> None:
    start = Tile(1, ("white", "white", "black", "black"), start=True)
    swap = Tile(2, ("black", "black", "white", "white"))
    lonely = Tile(3, ("white", "empty", "dot", "empty"))  # like 7, whose dot needs helpers
    facts = set_facts(small_set(start, swap, lonely))
    errors = [str(d) for d in facts.diagnostics if d.severity == Severity.ERROR]
    assert errors == [
        "small.yaml: error: tile 3 has no colour-swapped twin in the set",
        "small.yaml: error: tile 3: the one-dot catalyst at br can never be activated",
    ]


def test_a_tile_that_cannot_attach() -> None:
    start = Tile(1, ("white", "empty", "empty", "empty"), start=True)
    black = Tile(2, ("black", "empty", "empty", "empty"))
    messages = [d.message for d in set_facts(small_set(start, black)).diagnostics]
    assert "tile 1 cannot be placed legally next to any other tile of the set" in messages
    assert "tile 2 cannot be placed legally next to any other tile of the set" in messages


def test_simulations(catalogue: Catalogue) -> None:
    for players in (1, 2):
        sim = simulate(catalogue, 30, seed=5, players=players)
        assert sim.games == len(sim.turns) == 30
        assert sum(sim.reasons.values()) == 30 and set(sim.reasons) == set(END_REASONS)
        assert all(len(s) == players for s in sim.scores)
        assert simulate(catalogue, 30, seed=5, players=players).scores == sim.scores
        lines = format_simulation(sim)
        assert lines[0].startswith("30 " + ("two-player" if players == 2 else "solitaire"))
        assert any(line.startswith("  ended by: core exhausted") for line in lines)


def test_progress_is_reported(catalogue: Catalogue) -> None:
    seen: list[int] = []
    simulate(catalogue, 200, players=2, progress=seen.append)
    assert seen[0] == 2 and seen[-1] == 200


def test_a_tile_repeated_three_times_is_noted_with_the_first_only() -> None:
    start = Tile(1, ("white", "white", "black", "black"), start=True)
    swap = Tile(2, ("black", "black", "white", "white"))
    copies = [Tile(i, ("white", "dot", "black", "empty")) for i in (3, 5)]
    turned = Tile(7, ("empty", "white", "dot", "black"))  # 3 turned 90 degrees
    twins = [Tile(i, ("black", "dot", "white", "empty")) for i in (4, 6, 8)]
    facts = set_facts(small_set(start, swap, copies[0], twins[0], copies[1], twins[1],
                                turned, twins[2]))
    assert facts.same_up_to_rotation == [
        (1, 2, 180), (3, 5, 0), (3, 7, 90), (4, 6, 0), (4, 8, 0)
    ]
    notices = [d.message for d in facts.diagnostics if d.severity == Severity.NOTICE]
    assert notices[2] == (
        "tiles 3 and 7 are identical up to rotation (tile 3 turned 90 degrees is tile 7)"
    )
