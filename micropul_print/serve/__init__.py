"""`micropul-print serve`: the kit and the lab in a browser page that follows the edits.

The page is fed by the tool's own commands, run as child processes, so that it rests
on their command lines (the most stable interface the tool has) and nothing else:

- ``build --watch --out KIT`` makes the kit into a folder serve owns (a temporary
  folder, removed when serve stops) and rebuilds it whenever an input changes: the
  watcher's own change detection, debouncing and partial rebuilds (micropul_print.watch);
  its lines say when a rebuild ends and what went wrong (``file:line:col``);
- ``check --games 0`` after each rebuild gives the set's problems;
- ``replay RECORD --out DIR`` draws the turns of a game record for the replay viewer.

:mod:`.kitwatch` runs and reads them, :mod:`.view` turns the kit folder into what the
page shows, :mod:`.server` answers the browser (loopback only, GET only, files of the
served kit only), :mod:`.pdfpages` draws PDF pages as pictures, :mod:`.lab` finds the
reports and game records. docs/serve.md documents the page and its security model.
"""

from __future__ import annotations

from micropul_print.serve.app import ServeOptions, serve

__all__ = ["ServeOptions", "serve"]
