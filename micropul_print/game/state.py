"""The one vocabulary of every rules engine (after OpenSpiel's ``State``): what the
bots, the analysis and the replays are written against, whatever the game.

Every state, the rules engines' own and the :class:`GameState` a game plugin's
``new_state`` returns, speaks it (docs/rules-engine.md):

- ``legal_actions()``: every legal action of the player to move, in a fixed order;
  empty once terminal;
- ``apply_action(action)``: play it (a ValueError naming the reason if it is not
  legal; nothing changes then);
- ``undo()``: take back the last action applied, the state's random generator included;
- ``clone()``: an independent copy, random generator included;
- ``current_player()``: the seat to move, from 0;
- ``is_terminal()``: whether the game is over;
- ``returns()``: each seat's result once over (1 won, 0 lost, 0.5 each in a tie or a
  draw), all 0 before.

Chance is the state's own: there are no chance nodes. Whatever is random in the rules
(the order of a shuffled pile, a tile drawn face down) is drawn, as the action that
needs it is applied, from the state's own generator, seeded at the set-up: the same
seed and the same actions give the same game, ``clone()`` keeps the generator and
``undo()`` puts it back. What a player may not see (a pile's order, face-down tiles)
is redrawn by ``determinized(seed)``, for searches that must not peek.

Nothing here imports a game, a drawing library or YAML.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self, runtime_checkable

JSON = dict[str, Any]


@runtime_checkable
class GameState(Protocol):
    """One game in progress, in the vocabulary above. Players are numbered from 0 in
    seat order. Actions are hashable values (tuples, frozen dataclasses) that compare
    equal when they are the same action: searches keep them as dictionary keys.

    A state may also have ``action_class(action) -> Hashable | None``: actions of the
    player to move with the same class lead to positions that differ only where no
    rule looks (a marker put on one square or another of a region that the rules only
    ever see whole), so the bots value one action per class; None: an action of its
    own. And ``score_range``, a pair (lowest, highest; ``inf`` for no ceiling): what
    :meth:`scores` can be, which the analysis cuts the intervals of mean scores to.
    And ``scores_after(actions) -> Sequence[tuple[scores, returns | None]]``: for
    each of ``actions`` (legal now), the scores after it and, if it ends the game, the
    returns (None otherwise), exactly what applying it, reading :meth:`scores` and
    :meth:`returns`, and taking it back would give, but cheaper (the bots rank every
    move of every position they search by it; without it, they play and undo each).
    And ``is_legal(action) -> bool``: whether ``action`` (made as :meth:`legal_actions`
    makes them) is in :meth:`legal_actions` now, without listing them all (the
    lookahead looks at a searched node's best moves one by one).
    And ``scratch_determinized(seed)``: what :meth:`determinized` gives, for a search
    that only plays forward from it and throws it away: :meth:`undo` may be refused
    (IndexError) on it and on its clones, which lets the state skip its undo records
    (the lookahead's determinisations, when the state also has ``scores_after``).
    And ``scratch_redrawn(rng)``: the same, drawing from the generator ``rng`` itself
    (shared with the caller, neither seeded nor copied): ``scratch_redrawn(
    random.Random(seed))`` is ``scratch_determinized(seed)``; the lookahead prefers it,
    sparing a generator's seeding per determinisation.
    """

    @property
    def players(self) -> int: ...

    def current_player(self) -> int:
        """The seat to move (0-based); meaningless once :meth:`is_terminal`."""
        ...

    def legal_actions(self) -> Sequence[Any]:
        """Every legal action of the player to move, in a fixed order; empty when over."""
        ...

    def apply_action(self, action: Any) -> None:
        """Play a legal action for the player to move; ValueError if it is not legal."""
        ...

    def undo(self) -> None:
        """Take back the last action applied (its draws from the generator included):
        the state is as a clone made before it; IndexError if there is none."""
        ...

    def clone(self) -> Self:
        """An independent copy (same position, same random generator state)."""
        ...

    def determinized(self, seed: int) -> Self:
        """A copy in which everything hidden from the player to move (face-down tiles,
        the order of a pile) is redrawn at random with ``seed``, consistently with
        everything that player can see: what a bot of that player may look at. The
        player to move has the same legal actions in it (they are in its sight): a
        search lists them once for all its determinisations."""
        ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> tuple[float, ...]:
        """Each seat's score if the game ended now (the final scores once over)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Once over: 1 for each winner, 0 for each loser, 0.5 for each seat in a tie
        or a draw; before the end, all 0."""
        ...

    def end_reason(self) -> str | None:
        """Why the game ended (one of the game's documented reasons), or None."""
        ...

    def turn(self) -> int:
        """Actions applied since the set-up."""
        ...

    def action_to_json(self, action: Any) -> JSON:
        """An action as the JSON of the game's position files (docs/contracts.md)."""
        ...

    def action_from_json(self, data: JSON) -> Any:
        """The action a JSON object describes; ValueError if it describes none."""
        ...


@runtime_checkable
class PieceState(Protocol):
    """Optional members of a :class:`GameState` whose actions put distinct pieces in
    play (numbered tiles, cards): with them, ``analyse`` reports how often each piece
    is played, when, and how its player fares. A game of identical pieces leaves them
    out."""

    def pieces(self) -> tuple[str, ...]:
        """Every piece an action can put in play in this game, in the set's order."""
        ...

    def piece_of(self, action: Any) -> str | None:
        """The piece ``action`` puts in play (one of :meth:`pieces`), or None."""
        ...
