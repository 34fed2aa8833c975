"""The rules engines as they were before the speed-up (commit 4329cfa), frozen.

Copied verbatim from micropul_print/rules/{tiles,board,game,cellulae}.py and
micropul_print/setcheck.py; only the imports between these modules became relative.
The differential tests (tests/engines/test_differential.py) and the engine benchmark
(bench/engine.py) play the same seeded games on this copy and on the engine and require
the same legal actions, catalysts, groups, scores, random choices and outcomes at every
turn. Never edit these files to follow an engine change: they are the yardstick.
"""
