"""Cellulae's rulebook (rulebook/cellulae.py): its structure and English texts match,
every language present has every English key and placeholder, every figure's claims
hold against the Cellulae engine, false claims and structure mistakes are reported at
their file:line:col, and the values the texts quote come from the catalogue and engine."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.games.cellulae.analysis import analyse_cellulae, load_cellulae_position
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rulebook import CELLULAE, shared_values
from micropul_print.games.cellulae.rules import QUIET_LIMIT
from micropul_print.games.micropul.rulebook import MICROPUL
from micropul_print.rulebook import available_languages, rulebook_for, rulebook_path
from micropul_print.rulebook.locales import check_locale, load_locale, placeholders
from micropul_print.rulebook.verify import check_texts

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data" / "cellulae"


def test_the_book_is_chosen_by_the_catalogues_game(catalogue: CellulaeCatalogue) -> None:
    assert rulebook_for("cellulae") is CELLULAE and rulebook_for("micropul") is MICROPUL
    assert rulebook_path(catalogue, "it", "a4") == "cellulae/rules/cellulae-rules-it-a4.pdf"
    assert CELLULAE.book_file.parent.parent.name == "cellulae"
    with pytest.raises(UserError, match="unknown game 'chess'"):
        rulebook_for("chess")


def test_the_structure_and_the_english_texts_match() -> None:
    english = load_locale("en", CELLULAE.locales_dir)
    assert check_texts(CELLULAE.load_book(), english, CELLULAE.shared_names) == []


@pytest.mark.parametrize("lang", available_languages("cellulae"))
def test_every_language_has_every_key_and_the_same_placeholders(lang: str) -> None:
    reference = load_locale("en", CELLULAE.locales_dir)
    locale = load_locale(lang, CELLULAE.locales_dir)
    assert check_locale(locale, reference) == []
    assert locale.texts.keys() == reference.texts.keys()
    for key, text in reference.texts.items():
        assert placeholders(locale.texts[key]) == placeholders(text), key


def test_every_figure_claim_holds_and_names_its_values(catalogue: CellulaeCatalogue) -> None:
    book = CELLULAE.load_book()
    verified = CELLULAE.verify(book, catalogue)
    assert [v.figure for v in verified] == list(book.figures)
    values = {v.figure.position: v.values for v in verified}
    assert values == {
        "figures/setup.yaml": {"options": 2, "moves": 3},
        "figures/replication.yaml": {},
        "figures/diagonal-only.yaml": {},
        "figures/movement.yaml": {"passed": 2},
        "figures/contamination.yaml": {"flipped": 3},
        "figures/forced.yaml": {"flipped": 2},
        "figures/end.yaml": {"flipped": 2, "black": 13, "white": 12},
    }


def test_the_forced_action_figure_starts_where_its_player_can_only_move(
        catalogue: CellulaeCatalogue) -> None:
    # Player claims count actions after the turns, so what the caption says about the
    # position before the movement (no replication, the movement is forced) is checked
    # here on the position without its turn.
    position = load_cellulae_position(CELLULAE.book_file.parent / "figures/forced.yaml",
                                      catalogue)
    [turn] = position.turns
    before = dataclasses.replace(position, turns=())
    legal = analyse_cellulae(before, catalogue, legal_for=turn.player)["legal"]
    assert position.to_move == turn.player
    assert [a for a in legal if a["action"] == "replicate"] == []
    shown = analyse_cellulae(position, catalogue)["turns"][0]
    assert shown["action"] == "move" and shown["legal"]
    assert {"action": "move", "from": shown["from"], "to": shown["to"]} in legal


def test_the_book_shows_what_the_rules_need(catalogue: CellulaeCatalogue) -> None:
    """Set-up, a replication, a movement over occupied squares, a contamination, an
    illegal diagonal replication with the engine's reason, and an end."""
    by_position = {v.figure.position: v for v in CELLULAE.verify(CELLULAE.load_book(),
                                                                  catalogue)}
    assert by_position["figures/setup.yaml"].analysis["board"] == [
        "W....", ".....", ".....", ".....", "....B"]
    (replication,) = by_position["figures/replication.yaml"].analysis["turns"]
    assert (replication["action"], replication["legal"]) == ("replicate", True)
    (movement,) = by_position["figures/movement.yaml"].analysis["turns"]
    assert (movement["action"], movement["legal"], movement["passes"]) == ("move", True, 2)
    (contamination,) = by_position["figures/contamination.yaml"].analysis["turns"]
    assert contamination["flipped"] == [[2, 1], [1, 2], [3, 2]]
    (diagonal,) = by_position["figures/diagonal-only.yaml"].analysis["turns"]
    assert diagonal["reason"] == "no tile of the player's colour shares a side with the square"
    assert by_position["figures/end.yaml"].analysis["end"] == "board full"


def test_false_claims_fail_at_their_lines(catalogue: CellulaeCatalogue) -> None:
    path = DATA / "false_claims.yaml"
    with pytest.raises(UserError) as caught:
        CELLULAE.verify(CELLULAE.load_book(path), catalogue)
    figure = "error: figure figures/"
    assert [str(d) for d in caught.value.diagnostics] == [
        f'{path}:9:11: {figure}contamination.yaml: claim "turn 1: flips is [[1, 1], [2, 1]]" '
        "is false: the engine says [[2, 1], [1, 2], [3, 2]]",
        f'{path}:10:11: {figure}contamination.yaml: claim "turn 1: flipped is 2" is false: '
        "the engine says 3",
        f'{path}:15:11: {figure}movement.yaml: claim "turn 1: passes is 3" is false: '
        "the engine says 2",
        f'{path}:20:11: {figure}diagonal-only.yaml: claim "turn 1: legal is true" is false: '
        "the engine says false",
        f'{path}:21:11: {figure}diagonal-only.yaml: claim "turn 1: passes is 1" cannot be '
        "checked: turn 1 is not a legal movement",
        f'{path}:26:11: {figure}end.yaml: claim "the end of the game: winner is white" is '
        'false: the engine says "black"',
        f'{path}:27:11: {figure}end.yaml: claim "square (7, 0): colour is empty" cannot be '
        "checked: (7, 0) is off the 5 × 5 board",
        f'{path}:32:11: {figure}forced.yaml: claim "turn 1: replications is 1" is false: '
        "the engine says 0",
    ]


def test_each_mistake_in_a_structure_is_reported() -> None:
    path = DATA / "bad_structure.yaml"
    with pytest.raises(UserError) as caught:
        CELLULAE.load_book(path)
    assert [str(d) for d in caught.value.diagnostics] == [
        # A warning, yet it stops the book: the book is the project's own source.
        f"{path}:6:7: warning: unknown key 'outline' in a figure (expected position, "
        "caption, claims or highlight)",
        f"{path}:8:20: error: unknown player 'grey' (expected black or white)",
        f"{path}:9:20: error: a square is [x, y], counted from 0 at the top-left corner; "
        "got a list",
        f"{path}:10:18: error: a claim about the game is about its end: 'game: end', "
        "got 'start'",
        f"{path}:11:28: error: 'flips' is a list of squares [x, y], got '2'",
        f"{path}:12:11: error: a claim names exactly one subject: turn, player, square or game",
        f"{path}:16:20: error: unknown symbol 'red' (expected black or white)",
        f"{path}:17:18: error: unknown mark 'stone' (expected start, highlight, arrow, "
        "flipped or cross)",
    ]


def test_the_texts_quote_the_catalogue_and_the_engine(catalogue: CellulaeCatalogue) -> None:
    assert shared_values(catalogue) == {
        "tile_count": 81, "tile_size": "30", "quiet_limit": QUIET_LIMIT,
        "quiet_each": QUIET_LIMIT // 2, "small_side": 5, "small_tiles": 25,
        "medium_side": 7, "medium_tiles": 49, "large_side": 9, "large_tiles": 81,
    }
    assert set(shared_values(catalogue)) == CELLULAE.shared_names


def test_a_catalogue_without_the_three_boards_is_refused(
        catalogue: CellulaeCatalogue) -> None:
    two_boards = dataclasses.replace(catalogue, boards=catalogue.boards[:2])
    with pytest.raises(UserError) as caught:
        shared_values(two_boards)
    (problem,) = caught.value.diagnostics
    assert problem.message == ("the Cellulae rulebook describes 3 boards (the standard one "
                               "and two longer ones); this catalogue offers 2")
    # At the catalogue's `boards` key, as every problem of a file: it named the file alone.
    assert (problem.file, problem.line, problem.col) == (
        catalogue.source, *catalogue.key_at["boards"])
    assert problem.line > 0
