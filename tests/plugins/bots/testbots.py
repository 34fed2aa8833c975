"""Bots that break the rules of a bot (tests/plugins/test_bots.py): each loses its games
by forfeit, and the run goes on."""

from __future__ import annotations

import os
import random
import time
from typing import Any

from micropul_print.game.state import GameState


class Raiser:
    name = "raiser"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        raise RuntimeError("the bot's own bug")


class Cheater:
    name = "cheater"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return ("not", "an", "action")


class Sloth:
    name = "sloth"
    move_seconds = 0.01

    def choose(self, state: GameState, rng: random.Random) -> Any:
        time.sleep(0.05)
        return state.legal_actions()[0]


def raiser(options: str | None) -> Raiser:
    return Raiser()


def cheater(options: str | None) -> Cheater:
    return Cheater()


def sloth(options: str | None) -> Sloth:
    return Sloth()


class Quitter:
    name = "quitter"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        raise SystemExit(3)  # what sys.exit(3) raises


class Chatter:
    name = "chatter"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        print("chatter thinks aloud")
        return state.legal_actions()[0]


def quitter(options: str | None) -> Quitter:
    return Quitter()


def chatter(options: str | None) -> Chatter:
    return Chatter()


def nobody(options: str | None) -> None:  # a factory that forgot its return
    return None


class Hanger:
    name = "hanger"
    move_seconds = 0.05

    def choose(self, state: GameState, rng: random.Random) -> Any:
        while True:  # never answers, and swallows what an Exception would say
            try:
                time.sleep(30)
            except Exception:  # the point: a bot that hides its errors
                continue


def hanger(options: str | None) -> Hanger:
    return Hanger()


class Hasty:
    name = "hasty"
    move_seconds = -1.0  # not a budget

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return state.legal_actions()[0]


def hasty(options: str | None) -> Hasty:
    return Hasty()


class Closer:
    name = "closer"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        raise GeneratorExit("closed")  # a BaseException, as a generator's close() raises


def closer(options: str | None) -> Closer:
    return Closer()


class Interrupter:
    name = "interrupter"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        raise KeyboardInterrupt  # no Ctrl-C came: the bot's own doing


def interrupter(options: str | None) -> Interrupter:
    return Interrupter()


class Nameless:
    @property
    def name(self) -> str:
        raise RuntimeError("no name today")

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return state.legal_actions()[0]


def nameless(options: str | None) -> Nameless:
    return Nameless()


class Vanisher:
    name = "vanisher"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        os._exit(5)  # no exception to catch: the process ends here


def vanisher(options: str | None) -> Vanisher:
    return Vanisher()


class Anything:
    def __eq__(self, other: object) -> bool:
        return True  # equal to every action: not one of them

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "Anything()"


class Flatterer:
    name = "flatterer"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return Anything()


def flatterer(options: str | None) -> Flatterer:
    return Flatterer()


class Endless:
    def __repr__(self) -> str:
        while True:  # never answers: the message about it would never be written
            time.sleep(30)


class Mute:
    name = "mute"
    move_seconds = 0.05

    def choose(self, state: GameState, rng: random.Random) -> Any:
        return Endless()


def mute(options: str | None) -> Mute:
    return Mute()
