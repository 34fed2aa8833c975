"""docs/analysis.md explains every figure the report holds: its table of figures and its
list of interval methods are kept in step with the report's JSON Schema, so a figure
added to (or renamed in) the report fails here until the doc says what it means."""

from __future__ import annotations

import json
import re
from pathlib import Path

from micropul_print.lab.report import SCHEMA

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"

# A section's keys that are no figures: what the section is, and the ladder's reference.
BOOKKEEPING = {"variant", "players", "games", "anchor"}
# Each figure of a section (its JSON key) and its row in the doc's table of figures.
ROWS = {"first_player": "first-player edge", "ties": "ties", "pairings": "each pairing",
        "ladder": "ladder", "matrix": "points matrix", "length": "length",
        "moves": "moves per game, by kind", "legal": "legal moves per decision, by kind",
        "ends": "ends", "lead_changes": "lead changes",
        "decided": "winner in the lead for good after", "drama": "drama",
        "pieces": "pieces", "bots": "solitaire: scores and par table"}
# Each interval method of the schema and how the doc names it.
METHODS = {"wilson": "**Wilson**", "t": "**Student's t**", "bootstrap": "**percentile "
           "bootstrap**", "bradley-terry": "**Bradley-Terry fit's curvature**",
           "seat-term": "**seat term**", "paired-t": "**paired t**"}
NO_METHOD = {"anchor", "none"}  # the anchor's own rating; too little data for one


def _doc_rows(text: str) -> list[str]:
    table = text.split("| figure | what it says | a good set |", 1)[1].split("\n\n", 1)[0]
    return [line.split("|")[1].strip() for line in table.splitlines()[2:]]


def test_every_figure_of_the_report_has_its_row_in_the_doc_and_no_other() -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))["$defs"]
    keys = (set(schema["two_players"]["required"]) | set(schema["solitaire"]["required"])
            ) - BOOKKEEPING
    assert keys == set(ROWS), "a figure of the report without its row in ROWS"
    assert sorted(_doc_rows(DOCS.read_text("utf-8"))) == sorted(ROWS.values())


def test_every_interval_method_of_the_report_is_named_in_the_doc() -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))["$defs"]
    methods = set(schema["interval"]["properties"]["method"]["enum"]) - NO_METHOD
    assert methods == set(METHODS)
    intervals = re.search(r"Intervals are 95 %:(.*?)\n\n", DOCS.read_text("utf-8"), re.S)
    assert intervals is not None
    paragraph = " ".join(intervals.group(1).split())
    for name in METHODS.values():
        assert name in paragraph, name
