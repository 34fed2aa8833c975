"""Where the PNG tile files' CPU time goes, stage by stage, in one process.

    python -m bench png [--runs=N] [--theme=NAME]
    taskset -c 0,1 .venv/bin/python -m bench png   # pinned: steadier on a shared machine

For each theme (all three, or ``--theme``), the Micropul faces as ``build --only png``
makes them (48 tiles and the back, 300 dpi, 3 mm bleed), the checkout's code: painting
(``to_raster``), encoding (``png_bytes``), the overview's thumbnails cut from the faces
and the overview sheet (laid out and encoded). CPU time of this process, the best of
``--runs`` runs (the least disturbed), the patch cache emptied before each run, as a
build starts with it empty. No goal: the figures to compare are those of two checkouts
measured in turns on the same machine (the whole process is in ``bench kit``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from typing import Any

from bench.kit import pin_to_two_cpus

THEMES = ("classic", "ink-saver", "colour-safe")


def _best(runs: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """The least CPU time of ``runs`` calls of ``work``, and the last call's result."""
    from micropul_print.backends import png

    best, result = float("inf"), None
    for _ in range(runs):
        if hasattr(png, "_PATCH_CACHE"):  # (a checkout from before the cache has none)
            png._PATCH_CACHE.clear()
            png._patch_cache_pixels = 0
        start = time.process_time()
        result = work()
        best = min(best, time.process_time() - start)
    return best, result


def measure(theme_name: str, runs: int) -> dict[str, float]:
    """Seconds of CPU per stage for one theme's faces."""
    from micropul_print.backends.png import png_bytes, to_raster
    from micropul_print.catalogue.loader import load_catalogue
    from micropul_print.draw.theme import load_theme
    from micropul_print.game import registry
    from micropul_print.game.pieces import FaceGrid
    from micropul_print.kit import plan
    from micropul_print.kit.outputs import OutputDir

    game = registry.get("micropul")
    with tempfile.TemporaryDirectory() as nowhere:  # nothing is written
        kit = plan.game_kit(game, load_catalogue(game.shipped_catalogue()),
                            load_theme(theme_name), OutputDir(nowhere))
    images = kit.pieces.images
    drawings = [drawing for _stem, drawing in images.faces(images.png_bleed)]
    grid = images.overview
    assert isinstance(grid, FaceGrid)
    paint, rasters = _best(runs, lambda: [to_raster(d, 300) for d in drawings])
    encode, _ = _best(runs, lambda: [png_bytes(r, 300) for r in rasters])
    cut, thumbnails = _best(runs, lambda: [
        plan._thumbnail(r, 300, images.png_bleed, kit.pieces.card_size)
        for r in rasters[:grid.count]])
    sheet, _ = _best(runs, lambda: plan.face_grid_png(
        thumbnails, columns=grid.columns, gap=grid.gap, captions=grid.captions))
    return {"paint": paint, "encode": encode, "thumbnails": cut, "overview sheet": sheet}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench png")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--theme", choices=THEMES)
    args, _unknown = parser.parse_known_args(argv)
    pin_to_two_cpus()
    stages = ("paint", "encode", "thumbnails", "overview sheet")
    print(f"{'theme':<12}" + "".join(f"{stage:>16}" for stage in stages) + f"{'total':>10}")
    for theme_name in [args.theme] if args.theme else THEMES:
        seconds = measure(theme_name, args.runs)
        print(f"{theme_name:<12}" + "".join(f"{seconds[s] * 1000:>13.1f} ms" for s in stages)
              + f"{sum(seconds.values()) * 1000:>7.1f} ms")
    return 0
