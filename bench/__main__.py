"""Run every benchmark module: bench/<name>.py with a ``main(argv) -> int``."""

from __future__ import annotations

import importlib
import sys

MODULES = ("engine", "kit", "lab", "png", "rulebook", "serve", "watch")


def main(argv: list[str]) -> int:
    # Leading module names choose the benchmarks; everything else goes to each of them.
    wanted = [a for a in argv if a in MODULES]
    rest = [a for a in argv if a not in MODULES]
    status = 0
    for name in wanted or MODULES:
        module = importlib.import_module(f"bench.{name}")
        print(f"== bench {name}", flush=True)
        status |= module.main(rest)
    return status


sys.exit(main(sys.argv[1:]))
