"""How the tool names a catalogue's file to its user: the one rule behind a command's
summary (``check``'s first line, its diagnostics) and a report's ``source``
(``analyse``, the skill trace).

A catalogue shipped with a game is ``shipped:NAME``, never the path of the installed
package: a site-packages folder says nothing to a designer, and differs from machine
to machine.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePath

SHIPPED = "shipped:"


def shown_source(source: str, shipped: Iterable[Path] = (), *,
                 within: Path | None = None) -> str:
    """How ``source`` (a catalogue's path, as the user gave it) is shown: ``shipped:NAME``
    when it is one of the ``shipped`` catalogues. Else, without ``within``, as given (a
    command's words answer the user's); with ``within`` (a report's working folder),
    relative to that folder when the file lies in it (``variants/a.yaml``), else its
    file's name alone: a report names no folder of the machine it was made on, and
    is the same wherever it is made from."""
    for catalogue in shipped:
        try:
            if Path(source).resolve() == catalogue.resolve():
                return SHIPPED + catalogue.name
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL: not it
            pass
    if within is None:
        return source
    try:
        return Path(os.path.abspath(source)).relative_to(within.resolve()).as_posix()
    except ValueError:  # elsewhere
        return PurePath(source).name
