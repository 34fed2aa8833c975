"""`micropul-print play [CATALOGUE]`: one game between bots (or a bot alone in a solitaire
mode), its result printed and, with ``--record``, its game record written for
``replay``. Never loads the drawing libraries."""

from __future__ import annotations

import argparse
from pathlib import Path

from micropul_print.commands.values import MAX_SEED, bot_list, file_name, whole_number
from micropul_print.config import ConfigSpec
from micropul_print.game import registry

HELP = "play one game between bots and write its game record (see docs/analysis.md)"
# The configuration file may set all but --record (a file asked for each game); in a
# folder made by init, play plays that folder's catalogue.
CONFIG = ConfigSpec(exclude=frozenset({"record"}), paths={"catalogue": ()})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("catalogue", metavar="CATALOGUE", nargs="?", type=file_name,
                        help="tile catalogue (default: the shipped catalogue of --game)")
    names = registry.game_names()
    parser.add_argument("--game", choices=names,
                        help=f"play the catalogue shipped for this game (default: {names[0]})")
    parser.add_argument("--bots", metavar="A,B", type=bot_list, default=["greedy", "lookahead"],
                        help="one bot per seat, in seat order: their number is the number of "
                        "players (one: a solitaire game) (default greedy,lookahead)")
    parser.add_argument("--seed", metavar="S", type=whole_number(0, MAX_SEED, "the seed"),
                        default=0,
                        help="the set-up's seed (shuffles and draws) (default 0)")
    parser.add_argument("--variant", metavar="V",
                        help="one of the catalogue's variants (default: the first)")
    parser.add_argument("--record", metavar="FILE", type=file_name,
                        help="write the game record to FILE")


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import UserError, printable
    from micropul_print.commands.analyse import _load, _value_problem, check_not_read
    from micropul_print.config import missing_inputs
    from micropul_print.game.plugin import players_in_words
    from micropul_print.kit.outputs import check_file_target, write_atomic
    from micropul_print.lab.record import catalogue_path, heading, play

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    catalogue = _load(args.catalogue, args.game, False)
    game = registry.get(catalogue.game)
    if len(args.bots) not in game.info.player_counts:
        raise _value_problem(args, "bots", f"{game.info.title} is played by "
                             f"{players_in_words(game.info.player_counts)}: give "
                             f"as many bots, not {len(args.bots)}")
    variants = game.variants(catalogue)
    if args.variant is not None and args.variant not in variants:
        raise _value_problem(args, "variant", f"{catalogue.name} has no variant "
                             f"{args.variant!r} (it has: {', '.join(variants)})")
    if args.record is not None:
        check_file_target(Path(args.record), "the game record")
        check_not_read(Path(args.record), [catalogue], "--record", "the game record")
    try:
        path = (None if args.record is None else
                catalogue_path(catalogue, Path(args.record), game.shipped_catalogue()))
        record, state = play(catalogue.game, catalogue, args.bots, args.seed, args.variant,
                             path)
    except ValueError as exc:  # a bad bot spec
        raise _value_problem(args, "bots", str(exc)) from None
    seats = ", ".join(f"player {seat + 1} ({bot}) {score:g}" for seat, (bot, score)
                      in enumerate(zip(record.bots, state.scores(), strict=True)))
    returns = state.returns()
    winners = [seat + 1 for seat, r in enumerate(returns) if r == max(returns)]
    # Alone there is no winner: the score is the result.
    verdict = ("game over" if len(returns) == 1 else "a tie" if len(winners) > 1
               else f"player {winners[0]} wins")
    print(printable(f"{heading(game.info.title, catalogue.name)}, variant {record.variant}, seed "
                    f"{record.seed}: {seats}; {verdict} ({state.end_reason()}) after "
                    f"{len(record.moves)} player turns"))
    if args.record is not None:
        write_atomic(Path(args.record), record.to_json_text().encode("utf-8"))
    return 0
