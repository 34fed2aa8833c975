"""Games you can watch: a game played by bots kept as a *game record* (JSON,
docs/contracts.md, "Game record"), a record read back and replayed through the engine
(every move checked; an illegal one is an error at its line in the record), and the
pictures of a replay: one SVG per turn and one PDF of them all.

The record holds what it takes to play the game again: the game, the catalogue's
name, the seed (the engine's shuffles and draws come from it), the variant, the bots
in seat order, and each move in the game's own move JSON (``GameState.action_to_json``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micropul_print.base.errors import Diagnostic, UserError, errors_in
from micropul_print.base.yamlsource import (
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    check_keys,
    read_yaml,
)
from micropul_print.commands.values import MAX_SEED
from micropul_print.game import registry
from micropul_print.game.api import JSON, GameState
from micropul_print.game.plugin import DrawsStates, players_in_words
from micropul_print.lab.bots import bot_seed, checked_choice, make_bot

if TYPE_CHECKING:
    from micropul_print.draw.primitives import Drawing
    from micropul_print.draw.theme import Theme

FORMAT = "micropul-print game record"
VERSION = 1
KEYS = ("format", "version", "game", "catalogue", "seed", "variant", "players", "bots",
        "moves", "result", "catalogue_digest", "catalogue_path")
REQUIRED = KEYS[:-3]
SHIPPED = "shipped:"  # a catalogue_path naming the game's shipped catalogue
MOVER = "player"  # the key of a recorded move naming its player (1-based)
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
SEEDS = f"a whole number from 0 to {MAX_SEED}"  # the seeds play --seed takes


def catalogue_digest(catalogue: Any) -> str:
    """``sha256:`` and the hex digest of the catalogue's JSON (``catalogue --json``,
    keys sorted): the same for a copy of the file anywhere, with other comments or its
    tiles in another order; another for a tile changed, added or removed."""
    text = json.dumps(catalogue.to_json(), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GameRecord:
    game: str
    catalogue: str  # the catalogue's name
    seed: int
    variant: str
    bots: tuple[str, ...]  # one per seat; their number is the number of players
    moves: tuple[JSON, ...]
    result: JSON  # scores, returns, end, turns ({} when a record leaves it out)
    # catalogue_digest(catalogue) of the catalogue played; None in a record without it
    catalogue_digest: str | None = None
    # Where the catalogue's file is, relative to the record's folder ("shipped:NAME"
    # for a shipped one); None in a record without it
    catalogue_path: str | None = None

    @property
    def players(self) -> int:
        return len(self.bots)

    def to_json_text(self) -> str:
        """The record as JSON text, one move per line (so that a message can name a
        move's line)."""
        head: JSON = {"format": FORMAT, "version": VERSION, "game": self.game,
                      "catalogue": self.catalogue}
        if self.catalogue_digest is not None:
            head["catalogue_digest"] = self.catalogue_digest
        if self.catalogue_path is not None:
            head["catalogue_path"] = self.catalogue_path
        head |= {"seed": self.seed, "variant": self.variant, "players": self.players,
                 "bots": list(self.bots)}
        lines = ["{"]
        lines += [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},"
                  for key, value in head.items()]
        moves = [f"    {json.dumps(move, ensure_ascii=False)}" for move in self.moves]
        lines.append('  "moves": [' + ("\n" + ",\n".join(moves) + "\n  ]," if moves else "],"))
        lines.append(f'  "result": {json.dumps(self.result, ensure_ascii=False)}')
        lines.append("}")
        return "\n".join(lines) + "\n"


def _as_recorded(value: Any) -> Any:
    """A result's value as a record holds it: an end reason (an Enum) is its value."""
    return value.value if isinstance(value, Enum) else value


def _result(state: GameState) -> JSON:
    return {"scores": list(state.scores()), "returns": list(state.returns()),
            "end": state.end_reason(), "turns": state.turn()}


def catalogue_path(catalogue: Any, record: Path, shipped: Path | None) -> str | None:
    """How a record names its catalogue's file: ``shipped:NAME`` for the game's shipped
    catalogue, else the path from the record's folder (so that the two can move
    together), when the file is inside that folder; None (no path) for one elsewhere,
    which replay would refuse to read (:func:`named_catalogue`)."""
    source = Path(catalogue.source)
    if shipped is not None and source.resolve() == shipped.resolve():
        return SHIPPED + shipped.name
    relative = Path(os.path.relpath(source.resolve(), record.resolve().parent))
    return None if relative.parts[:1] == ("..",) else relative.as_posix()


def named_catalogue(read: ReadRecord) -> Path | None:
    """The file a record's ``catalogue_path`` names (None: it names none, or the shipped
    one). A record is shared: its path must stay inside the record's folder, so that a
    record cannot make replay read (and quote) any other file of the machine; UserError
    at the key for an absolute path, a ``..`` that climbs out or a link that leads out."""
    named = read.record.catalogue_path
    if named is None or named.startswith(SHIPPED):
        return None
    folder = Path(read.source).parent
    there = folder / named
    if "\0" in named or not named.strip():
        wrong = "names no file"
    elif Path(named).is_absolute():
        wrong = "is an absolute path"
    elif Path(os.path.normpath(named)).parts[:1] == ("..",):
        wrong = "climbs out of the record's folder with '..'"
    elif not there.resolve().is_relative_to(folder.resolve()):
        wrong = "leads out of the record's folder through a symbolic link"
    else:
        return there
    raise UserError([read.at("catalogue_path", (
        f"the catalogue's path {named!r} {wrong}: replay reads the catalogue a record "
        "names only inside the record's folder (a record may come from anyone); give its "
        "file with --catalogue"))])


def play(game_name: str, catalogue: Any, bots: Sequence[str], seed: int,
         variant: str | None = None,
         path: str | None = None) -> tuple[GameRecord, GameState]:
    """One game of the bots (seat order) from the set-up of ``seed``: its record (each
    move with its player; ``path``, the record's catalogue_path) and its final state.
    The bots play as they do in ``analyse``."""
    game = registry.get(game_name)
    chosen = variant if variant is not None else game.variants(catalogue)[0]
    state = game.new_state(catalogue, players=len(bots), seed=seed, variant=chosen)
    players = [make_bot(spec) for spec in bots]
    rngs = [random.Random(bot_seed(seed, seat)) for seat in range(len(bots))]
    moves = []
    while not state.is_terminal():
        seat = state.current_player()
        move, forfeit = checked_choice(players[seat], state, rngs[seat], state.legal_actions())
        if forfeit is not None:  # a plugin bot's fault, said plainly: no record to write
            raise UserError([Diagnostic("micropul-print", 0, 0, f"the game of seed {seed} "
                                        f"cannot be recorded: seat {seat + 1}, {forfeit}")])
        moves.append({MOVER: seat + 1, **state.action_to_json(move)})
        state.apply_action(move)
    record = GameRecord(game_name, catalogue.name, seed, chosen,
                        tuple(player.name for player in players), tuple(moves),
                        _result(state), catalogue_digest(catalogue), path)
    return record, state


# -- reading ---------------------------------------------------------------------------------

_PLAIN_SEED = re.compile(r"0|[1-9][0-9]{0,18}")


def _plain(node: YamlNode) -> Any:
    if isinstance(node, YamlScalar):
        return node.value
    if isinstance(node, YamlSequence):
        return [_plain(item) for item in node.items]
    if isinstance(node, YamlMapping):
        return {key.raw: _plain(value) for key, value in node.entries}
    return None


@dataclass(frozen=True)
class ReadRecord:
    """A record and where its moves lie in the file, for messages."""

    record: GameRecord
    move_nodes: tuple[YamlNode, ...]
    result_node: YamlNode | None
    source: str
    warnings: tuple[Diagnostic, ...] = ()  # unknown keys
    values: Mapping[str, YamlNode] = field(default_factory=dict)  # each key's value

    def at(self, key: str, message: str) -> Diagnostic:
        """An error at the value of ``key`` in the file (at its start if none)."""
        node = self.values.get(key)
        return node.diagnostic(message) if node is not None else Diagnostic(
            self.source, 1, 1, message)


def read_record(path: str | Path) -> ReadRecord:
    """A game record file; UserError with every problem of its structure, located."""
    root, diagnostics = read_yaml(path)
    if root is None:
        raise UserError(diagnostics)
    file = str(path)
    if not isinstance(root, YamlMapping):
        raise UserError([*diagnostics, root.diagnostic("a game record is a JSON object")])
    values = {key.raw: _plain(node) for key, node in root.entries}
    seed_node = root.get("seed")
    if (isinstance(seed_node, YamlScalar) and seed_node.style is None
            and _PLAIN_SEED.fullmatch(seed_node.raw)):
        # The file reader keeps whole numbers to 2^53 - 1, what every JSON reader keeps
        # exact; a seed goes to 2^63 - 1 (play --seed), and play writes it in full.
        values["seed"] = int(seed_node.raw)
    if values.get("format") != FORMAT:  # not one: its other keys are not ours to judge
        at = root.get("format") or root
        raise UserError([*diagnostics, at.diagnostic(f"not a game record: 'format' must be "
                                                     f"{FORMAT!r}")])
    diagnostics += check_keys(root, "the game record", REQUIRED, KEYS[len(REQUIRED):])
    if values.get("version") != VERSION:
        at = root.get("version") or root
        diagnostics.append(at.diagnostic(f"game record version {values.get('version')!r} "
                                         f"is not supported (this tool reads {VERSION})"))

    def expect(key: str, kind: type, what: str) -> Any:
        value = values.get(key)
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return value
        if key in values:
            node = root.get(key)
            assert node is not None
            diagnostics.append(node.diagnostic(f"'{key}' must be {what}"))
        return None

    game = expect("game", str, "a game's name")
    catalogue = expect("catalogue", str, "the catalogue's name")
    seed = expect("seed", int, SEEDS)
    if seed is not None and not 0 <= seed <= MAX_SEED:  # none that play can write
        node = root.get("seed")
        assert node is not None
        diagnostics.append(node.diagnostic(f"'seed' must be {SEEDS}"))
        seed = None
    variant = expect("variant", str, "one of the game's variants")
    players = expect("players", int, "the number of players")
    bots = expect("bots", list, "a list of bots, one per seat")
    moves = expect("moves", list, "a list of moves")
    result = expect("result", dict, "an object")
    digest = expect("catalogue_digest", str, "'sha256:' and 64 hex digits")
    named = expect("catalogue_path", str, "the catalogue's path from the record's folder")
    if digest is not None and not DIGEST.fullmatch(digest):
        node = root.get("catalogue_digest")
        assert node is not None
        diagnostics.append(node.diagnostic("'catalogue_digest' must be 'sha256:' and 64 hex "
                                           "digits"))
    if bots is not None and (not all(isinstance(b, str) for b in bots)
                             or (players is not None and len(bots) != players)):
        node = root.get("bots")
        assert node is not None
        diagnostics.append(node.diagnostic(f"'bots' must name one bot per player "
                                           f"({players} players)"))
    if errors_in(diagnostics) or None in (
            game, catalogue, seed, variant, players, bots, moves):
        raise UserError(diagnostics or [Diagnostic(file, 0, 0, "incomplete game record")])
    moves_node = root.get("moves")
    assert isinstance(moves_node, YamlSequence)
    record = GameRecord(game, catalogue, seed, variant, tuple(bots), tuple(moves),
                        result or {}, digest, named)
    return ReadRecord(record, moves_node.items, root.get("result"), file, tuple(diagnostics),
                      {key.raw: node for key, node in root.entries})


def replay(read: ReadRecord, catalogue: Any) -> list[GameState]:
    """Every state of the recorded game, from the set-up to the end, each move checked
    by the engine: an illegal or unreadable move, or a game that does not end as the
    record says, is a UserError at its place in the record."""
    record = read.record
    game = registry.get(record.game)
    digest = catalogue_digest(catalogue)
    if record.catalogue_digest is not None and record.catalogue_digest != digest:
        raise UserError([read.at("catalogue_digest", (
            f"the game was played with another version of the catalogue "
            f"{record.catalogue!r}: the tiles of {catalogue.source} differ from its "
            f"tiles: give the file it was played with, with --catalogue"))])
    if record.players not in game.info.player_counts:
        raise UserError([read.at("players", f"{game.info.title} is played by "
                                 f"{players_in_words(game.info.player_counts)}, "
                                 f"not {record.players}")])
    if record.variant not in game.variants(catalogue):
        raise UserError([read.at("variant", f"{catalogue.name} has no variant "
                                 f"{record.variant!r} (it has: "
                                 f"{', '.join(game.variants(catalogue))})")])
    state = game.new_state(catalogue, players=record.players, seed=record.seed,
                           variant=record.variant)
    states = [state.clone()]
    for index, (data, node) in enumerate(zip(record.moves, read.move_nodes, strict=True)):
        where = f"move {index + 1} (moves[{index}])"
        if state.is_terminal():
            raise UserError([node.diagnostic(f"{where}: the game is already over "
                                             f"({state.end_reason()})")])
        if isinstance(data, dict) and MOVER in data:
            data = {key: value for key, value in data.items() if key != MOVER}
            mover = read.record.moves[index][MOVER]
            if type(mover) is not int:  # true == 1 in Python: it passed for player 1
                raise UserError([node.diagnostic(
                    f"{where}: 'player' must be a player number, got {json.dumps(mover)}")])
            if mover != state.current_player() + 1:
                raise UserError([node.diagnostic(
                    f"{where}: recorded as player {mover!r}'s, but it is player "
                    f"{state.current_player() + 1}'s turn")])
        try:
            move = state.action_from_json(data)
            state.apply_action(move)
        except (ValueError, KeyError, TypeError) as exc:
            raise UserError([node.diagnostic(f"{where}: {exc}")]) from None
        states.append(state.clone())
    expected = record.result
    if expected:
        found = _result(state)
        wrong = [key for key in found if key in expected and expected[key] != found[key]]
        if wrong:
            at = read.result_node
            message = ("the replayed game does not end as recorded: "
                       + "; ".join(f"{key} {_as_recorded(found[key])!r}, recorded "
                                   f"{expected[key]!r}" for key in wrong))
            if not state.is_terminal() and expected.get("end") is not None:  # moves left out
                message = (f"the game is not over after the record's {len(record.moves)} "
                           f"moves, and the record says it ended ({expected.get('end')!r}, "
                           f"turns {expected.get('turns')!r}): moves are missing")
            raise UserError([at.diagnostic(message) if at is not None
                             else Diagnostic(read.source, 0, 0, message)])
    return states


# -- pictures --------------------------------------------------------------------------------

HEADER_SIZE = 5.0
HEADER_LINE = 7.0
MARGIN = 6.0
MIN_WIDTH = 160.0
PAPER_MARGIN = 10.0  # mm left free on every side of replay.pdf's pages


def move_notation(data: JSON, state: Any = None) -> str:
    """A recorded move as a player reads it: its player (``P2``), then what the game's
    optional ``move_notation`` (of the state) writes for it (``26 @ (-1,2) r270``:
    tile, cell, rotation); a game without one: the move's kind and its JSON."""
    body = {key: value for key, value in data.items() if key != MOVER}
    who = f"P{data[MOVER]} " if MOVER in data else ""
    writes = getattr(state, "move_notation", None)
    if writes is not None:
        try:
            return who + str(writes(body))
        except (KeyError, TypeError, ValueError):
            pass  # a move the game cannot write: its JSON, below
    return who + json.dumps(body, ensure_ascii=False, separators=(", ", ": "))


def heading(game_title: str, catalogue_name: str) -> str:
    """The game, named once: its title, or ``TITLE, set NAME`` for a set of another
    name."""
    same = catalogue_name.strip().casefold() == game_title.strip().casefold()
    return game_title if same else f"{game_title}, set {catalogue_name}"


def turn_drawing(record: GameRecord, game_title: str, catalogue_name: str,
                 picture: Drawing, state: GameState, turn: int,
                 mover: int | None) -> Drawing:
    """One turn's page: a header (game, turn, the move just played in notation, the
    scores) above the game's own picture of the state."""
    from micropul_print.draw.primitives import Drawing, Group, Text

    seats = ", ".join(f"P{seat + 1} ({bot}) {score:g}"
                      for seat, (bot, score) in enumerate(zip(record.bots, state.scores(),
                                                              strict=True)))
    if turn == 0:
        happened = f"set-up: seed {record.seed}, variant {record.variant}"
    else:
        data = record.moves[turn - 1]
        if mover is not None and isinstance(data, dict) and MOVER not in data:
            data = {MOVER: mover + 1, **data}
        happened = f"player turn {turn}: {move_notation(data, state)}"
    over = state.end_reason()
    lines = [f"{heading(game_title, catalogue_name)}: player turn {turn} of "
             f"{len(record.moves)}",
             happened, f"scores: {seats}" + (f"; over: {over}" if over else "")]
    items: list[Any] = [Text(MARGIN, MARGIN + HEADER_SIZE + n * HEADER_LINE, text,
                             HEADER_SIZE, anchor="start", weight="bold" if n == 0 else "regular")
                        for n, text in enumerate(lines)]
    top = MARGIN + len(lines) * HEADER_LINE + 4.0
    items.append(Group(picture.items, dx=MARGIN, dy=top))
    width = max(MIN_WIDTH, picture.width + 2 * MARGIN)
    return Drawing(width, top + picture.height + MARGIN, tuple(items))


def replay_drawings(read: ReadRecord, catalogue: Any, theme: Theme,
                    states: Sequence[GameState]) -> list[Drawing]:
    """The page of every turn (the set-up first). UserError if the game cannot draw
    its states."""
    game = registry.get(read.record.game)
    if not isinstance(game, DrawsStates):
        raise UserError([Diagnostic(read.source, 0, 0, f"{game.info.title} cannot draw its "
                                    "positions (its plugin has no state_drawing): it can be "
                                    "replayed, not pictured")])
    pages = []
    for turn, state in enumerate(states):
        mover = states[turn - 1].current_player() if turn else None
        picture = game.state_drawing(catalogue, theme, state)
        pages.append(turn_drawing(read.record, game.info.title, catalogue.name, picture, state,
                                  turn, mover))
    return pages


def pages_pdf(pages: Sequence[Drawing], title: str, paper: str = "a4") -> bytes:
    """Every page on the kit's ``paper`` (a4 or letter, portrait), each drawing at the
    top left inside PAPER_MARGIN, scaled down to fit when it is larger. ``title`` goes
    into the metadata: the caller gives one without a path."""
    import io

    from reportlab.lib.units import mm

    from micropul_print.backends.pdf import draw, make_canvas
    from micropul_print.sheets.layout import load_layout

    layout = load_layout(paper)
    width, height = layout.paper_width, layout.paper_height
    room_w, room_h = width - 2 * PAPER_MARGIN, height - 2 * PAPER_MARGIN
    buffer = io.BytesIO()
    canvas = make_canvas(buffer, (width * mm, height * mm), title)
    # reportlab's own default was "unspecified": a replay says what it holds.
    canvas.setSubject(f"A game replayed and checked move by move: {len(pages)} pages, "
                      "the set-up then one per player turn")
    for page in pages:
        scale = min(1.0, room_w / page.width, room_h / page.height)
        canvas.saveState()
        # draw() puts (x, y) mm from the top-left corner; scaled about that corner,
        # then moved inside the margin.
        canvas.translate(PAPER_MARGIN * mm, height * mm - PAPER_MARGIN * mm)
        canvas.scale(scale, scale)
        canvas.translate(0, -height * mm)
        draw(canvas, page, 0.0, 0.0)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
