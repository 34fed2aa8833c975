import random
from typing import Any

from micropul_print.game.state import GameState


def lead(state: GameState, seat: int) -> float:  # its score alone in solitaire
    scores = state.scores()
    return scores[seat] - max((s for o, s in enumerate(scores) if o != seat), default=0.0)


class Thrifty:
    """The action that most raises its lead; a stone (a Micropul claim) only for 2
    points or more: stones are few. Ties broken at random."""

    name = "thrifty"
    move_seconds = 2.0  # its time budget per decision

    def choose(self, state: GameState, rng: random.Random) -> Any:
        me, best, best_gain = state.current_player(), [], float("-inf")
        for action in state.legal_actions():
            before = lead(state, me)
            state.apply_action(action)  # the bot's own copy of the game: safe to change
            gain = lead(state, me) - before
            state.undo()
            if type(action).__name__ == "Claim" and gain < 2:
                gain -= 100  # hold the stone back
            if gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return rng.choice(best)


def make(options: str | None) -> Thrifty:  # the entry point: a factory of bots
    if options is not None:
        raise ValueError("thrifty takes no options")
    return Thrifty()
