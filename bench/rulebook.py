"""Rulebook layout and drawing, in CPU time, per game and kind (books, booklets).

    taskset -c 0,1 .venv/bin/python -m bench rulebook [--repeat=R] [--paper=a4,letter]

Each (game, kind) runs in a fresh process (the caches a build fills, parses and
hyphenation patterns, start empty as in a build's worker), laying out every language's
book (or booklet) once and drawing it on each paper: the CPU seconds of the layout
tries (``_render_once``: figure sizes, figures set earlier, balancing), how many tries,
and the CPU seconds of drawing the PDFs. Each figure is the best of R runs (the least
disturbed on a shared machine). A measurement, no goal: the kit's goals are bench/kit.py's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in the child: lays out and draws one game's books or booklets, prints JSON.
_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.rulebook import available_languages, check_rulebook, page_blocks
from micropul_print.rulebook import booklet, layout
game, kind, papers = sys.argv[2], sys.argv[3], sys.argv[4].split(",")
catalogue = load_catalogue(shipped_catalogue(game))
book, locales, figures = check_rulebook(catalogue, available_languages(game))
theme = load_theme("classic")
tries, spent = [0], [0.0]
render_once = layout._render_once
def counted(*args, **kwargs):
    started = time.process_time()
    try:
        return render_once(*args, **kwargs)
    finally:
        tries[0] += 1
        spent[0] += time.process_time() - started
layout._render_once = counted
drawing = 0.0
for locale in locales:
    blocks, texts = page_blocks(book, locale, figures, catalogue, theme)
    if kind == "books":
        laid = layout.lay_out(blocks, texts, layout.BOOK_PAGE, page_budget=book.pages)
        papered = [laid.on(layout.PAPER_SIZES[paper]) for paper in papers]
    else:
        laid = booklet.lay_out(blocks, texts, papers[0])
        papered = [booklet.on_paper(laid, paper) for paper in papers]
    started = time.process_time()
    for one in papered:
        one.pdf
    drawing += time.process_time() - started
print(json.dumps({"layout": spent[0], "tries": tries[0], "draw": drawing,
                  "languages": len(locales)}))
"""


def measure(game: str, kind: str, papers: str) -> dict[str, float]:
    """One fresh process's figures for ``game``'s ``kind`` on ``papers``."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), game, kind, papers],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench rulebook")
    parser.add_argument("--repeat", type=int, default=3, help="runs, best kept (3)")
    parser.add_argument("--paper", default="a4,letter", help="papers drawn (a4,letter)")
    args = parser.parse_args(argv)
    print(f"{'':20} {'layout CPU-s':>12} {'tries':>6} {'draw CPU-s':>11}")
    totals = [0.0, 0.0]
    for game in ("micropul", "cellulae"):
        for kind in ("books", "booklets"):
            runs = [measure(game, kind, args.paper) for _ in range(max(1, args.repeat))]
            layout_s = min(run["layout"] for run in runs)
            draw_s = min(run["draw"] for run in runs)
            totals[0] += layout_s
            totals[1] += draw_s
            print(f"{game + ' ' + kind:20} {layout_s:12.3f} {int(runs[0]['tries']):6d} "
                  f"{draw_s:11.3f}")
    print(f"{'total':20} {totals[0]:12.3f} {'':6} {totals[1]:11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
