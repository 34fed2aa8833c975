"""The Micropul rules engine: pure Python, no I/O, no YAML, no rendering.

- ``Board`` (rules.board): tiles in play; ``place``, ``legality`` (reason or None),
  ``legal_placements``, ``preview`` (catalysts a placement would activate), ``groups``,
  ``add_stone``, ``group_scores``.
- ``Match`` (rules.game): set-up, hands, supplies, core, stones, turns for one or two
  players, in the vocabulary of every rules engine (``legal_actions``,
  ``apply_action``, ``undo``, ``clone``, ``current_player``, ``is_terminal``,
  ``returns``); ``outcome``, ``preview``; the random policy.

See docs/rules-engine.md.
"""

from micropul_print.games.micropul.rules.board import (
    COLOUR_CLASH,
    NO_LINK,
    NOT_ADJACENT,
    OCCUPIED,
    REASONS,
    Board,
    Catalyst,
    Group,
    IllegalPlacementError,
    Placement,
)
from micropul_print.games.micropul.rules.game import (
    CORE_EXHAUSTED,
    END_REASONS,
    NO_LEGAL_ACTION,
    OUT_OF_TILES,
    Action,
    Claim,
    Draw,
    IllegalActionError,
    Match,
    Outcome,
    Place,
    play_random_game,
)

__all__ = [
    "COLOUR_CLASH",
    "CORE_EXHAUSTED",
    "END_REASONS",
    "NOT_ADJACENT",
    "NO_LEGAL_ACTION",
    "NO_LINK",
    "OCCUPIED",
    "OUT_OF_TILES",
    "REASONS",
    "Action",
    "Board",
    "Catalyst",
    "Claim",
    "Draw",
    "Group",
    "IllegalActionError",
    "IllegalPlacementError",
    "Match",
    "Outcome",
    "Place",
    "Placement",
    "play_random_game",
]
