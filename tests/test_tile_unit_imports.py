"""The tile unit (``build --only svg,sheets --paper a4 --no-calibration``: issue 26's
measure of a quick build) imports what it draws with and nothing else: each module
named here once slowed it down, and would again without a word (bench/kit.py measures
the time; this keeps the diet)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Never imported by the tile unit: what other commands, parts or plugins need.
NOT_IMPORTED = (
    "importlib.metadata",  # the registry reads the shipped games' entry points itself
    "importlib.resources",  # package files are found beside the package
    "multiprocessing",  # no worker pool for jobs this small
    "micropul_print.sheets.printshop",  # only for --print-shop
    "micropul_print.sheets.cutfile",
    "micropul_print.sheets.gutterfold",
    "micropul_print.sheets.board",
    "micropul_print.sheets.calibration",  # --no-calibration: its art is not drawn
    "micropul_print.sheets.vernier",
    "micropul_print.backends.png",  # no PNG asked for
    "PIL.ImageDraw",
    "PIL.ImageFont",
    "micropul_print.rulebook",  # nor a rulebook (Babel, hyphenation, the books' texts)
    "babel",
    "micropul_print.lab",
    "micropul_print.serve",
    "micropul_print.watch",
    "micropul_print.games.micropul.rules",  # the rules engine
    "micropul_print.games.cellulae.rules",
    "svgwrite",  # SVG is written as text
    "fontTools",  # the glyph table has every character of the tile numbers
    "tomllib",  # no configuration file
    "difflib",  # no mistake to suggest a fix for
    "traceback",  # no bug to report
    "threading",  # no thread: signals are held without asking which thread runs
)


def test_the_tile_unit_imports_none_of_what_it_does_not_use(tmp_path: Path) -> None:
    script = (
        "import sys, dataclasses\n"
        "made = []\n"
        "process = dataclasses._process_class\n"
        "def noted(cls, *args):\n"
        "    made.append(cls.__qualname__)\n"
        "    return process(cls, *args)\n"
        "dataclasses._process_class = noted\n"
        "from micropul_print import cli\n"
        "code = cli.main(['build', '--only', 'svg,sheets', '--paper', 'a4', "
        f"'--no-calibration', '--no-config', '--quiet', '--out', {str(tmp_path)!r}])\n"
        "print(code)\n"
        "print(','.join(made) or '-')\n"
        "print('\\n'.join(sorted(sys.modules)))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=tmp_path)
    code, dataclasses_made, *loaded = result.stdout.split()
    assert code == "0"
    # Its records are made by base/record.py: a dataclass compiles its methods from
    # source, about 1 ms a class (39 of them were a third of its time above the floor).
    assert dataclasses_made == "-"
    assert (tmp_path / "sheets" / "micropul-tiles-a4.pdf").is_file()
    imported = [name for name in NOT_IMPORTED
                if any(module == name or module.startswith(f"{name}.") for module in loaded)]
    assert imported == []
    # Only the build's own command module (and the values it parses with).
    assert {m for m in loaded if m.startswith("micropul_print.commands.")} == {
        "micropul_print.commands.build", "micropul_print.commands.values"}
