"""micropul-print: print-and-play kits and rules engines for tile games, each game a
plugin (micropul_print.game.api, micropul_print.game.registry)."""

__version__ = "0.1.0"
