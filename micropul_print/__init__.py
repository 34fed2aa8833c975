"""micropul-print: print-and-play kits and rules engines for tile games, each game a
plugin (micropul_print.gameapi, micropul_print.registry)."""

__version__ = "0.1.0"
