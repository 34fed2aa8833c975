"""The design lab: bots, self-play analysis, reports and game records, written once
against the common engine shape (micropul_print.game.api.GameState) so that every
registered game has them. Nothing here names a game.

- :mod:`.bots`: the bot ladder (random, greedy, lookahead: information-set MCTS);
- :mod:`.stats`: confidence intervals, ratings and paired comparisons (pure Python);
- :mod:`.analyse`: seeded batches of self-play games and the metrics taken from them;
- :mod:`.runner`: running batches in this process, in forked workers or on a cluster;
- :mod:`.report`: report.json and the self-contained report.html;
- :mod:`.record`: game records (play, replay) and the pictures of a replay.
"""
