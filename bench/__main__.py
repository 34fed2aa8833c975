"""Run every benchmark module: bench/<name>.py with a ``main(argv) -> int``."""

from __future__ import annotations

import importlib
import sys

MODULES = ("engine", "kit")


def main(argv: list[str]) -> int:
    wanted = [a for a in argv if not a.startswith("-")] or list(MODULES)
    status = 0
    for name in wanted:
        module = importlib.import_module(f"bench.{name}")
        print(f"== bench {name}", flush=True)
        status |= module.main([a for a in argv if a.startswith("-")])
    return status


sys.exit(main(sys.argv[1:]))
