"""Game modules: each maps its own pieces (tiles, backs, tokens) to faces of named marks
(micropul_print.draw.face). They are the only code that knows what a game looks like;
the drawing layer, the themes' mark vocabulary and the backends stay game-neutral."""
