"""The analysis report: its JSON (docs/contracts.md, "Analysis report", and the JSON
Schema ``report.schema.json`` beside this module), its text summary, and
``report.html``: one self-contained page (inline SVG charts drawn by matplotlib, no
script, no network), written with the JSON into a directory.

matplotlib is imported by the HTML page alone: the [lab] extra installs it.
"""

from __future__ import annotations

import codecs
import contextlib
import html
import io
import json
import math
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath
from typing import Any

from micropul_print.base.errors import UsageError, printable
from micropul_print.game.api import JSON
from micropul_print.kit.outputs import OutputDir, write_atomic
from micropul_print.lab import analyse
from micropul_print.lab.analyse import Plan
from micropul_print.lab.record import catalogue_digest
from micropul_print.lab.runner import Results

SCHEMA = Path(__file__).with_name("report.schema.json")


def games_count(games: int) -> str:
    """``1 game``, ``2 games``: a run of one game per part said "1 games"."""
    return f"{games} game" if games == 1 else f"{games} games"


def _catalogue(catalogue: Any, path: str | None = None) -> JSON:
    """The set's name, where its file is (base.shown.shown_source), its file's name and its
    digest; ``label`` (set by set_labels) is the name the report uses for it."""
    source = PurePath(catalogue.source).name
    return {"name": catalogue.name, "path": path or source, "source": source,
            "digest": catalogue_digest(catalogue), "label": catalogue.name}


def set_labels(sets: Sequence[JSON]) -> None:
    """Give each set a label of its own: its name; with the name and its path when two
    sets share a name; numbered when even that repeats (one file given twice)."""
    names = Counter(s["name"] for s in sets)
    for found in sets:
        found["label"] = (found["name"] if names[found["name"]] == 1
                          else f"{found['name']} ({found['path']})")
    labels = Counter(s["label"] for s in sets)
    seen: Counter[str] = Counter()
    for found in sets:
        if labels[found["label"]] > 1:
            seen[found["label"]] += 1
            found["label"] = f"{found['label']} #{seen[found['label']]}"


def changed_pieces(first: Any, second: Any) -> list[str]:
    """The pieces (tiles, by id) whose description differs between two catalogues, or
    that only one has: from their JSON's ``tiles`` (none for a game without)."""
    def tiles(catalogue: Any) -> dict[str, Any]:
        found = catalogue.to_json().get("tiles")
        if not isinstance(found, list):
            return {}
        return {str(tile["id"]): tile for tile in found
                if isinstance(tile, dict) and "id" in tile}

    mine, theirs = tiles(first), tiles(second)
    return sorted((key for key in mine.keys() | theirs.keys()
                   if mine.get(key) != theirs.get(key)),
                  key=lambda key: (int(key), "") if key.isdigit() else (0, key))


def _piece_table(first: Sequence[JSON], second: Sequence[JSON],
                 changed: Sequence[str]) -> list[JSON]:
    """Per section both sets played with pieces: each piece's fate in both sets."""
    tables = []
    theirs = {(s["variant"], s["players"]): s for s in second}
    for section in first:
        other = theirs.get((section["variant"], section["players"]))
        if other is None or not section["pieces"] or not other["pieces"]:
            continue
        rows_b = {row["piece"]: row for row in other["pieces"]}
        rows = []
        for row in section["pieces"]:
            match = rows_b.get(row["piece"])
            if match is None:
                continue
            rows.append({"piece": row["piece"], "changed": row["piece"] in changed,
                         **{side: {key: found[key] for key in ("played", "held", "scoring")}
                            for side, found in (("this", row), ("against", match))}})
        tables.append({"variant": section["variant"], "players": section["players"],
                       "rows": rows})
    return tables


def build_report(plans: Sequence[tuple[Any, Plan]], outcomes: Sequence[tuple[Results, bool]],
                 bots: Sequence[str], anchor: str | None = None,
                 paths: Sequence[str] | None = None, sweep: bool = False) -> JSON:
    """The report of a run: the first catalogue's sections, and with a second one
    (``--against``) its sections and the comparison of the two; with ``sweep``, every
    set's sections and each one compared with the first. Ladders are measured from
    ``anchor`` (default: analyse.choose_anchor's); ``paths``: each set's file as a
    report shows it (base.shown.shown_source)."""
    names = [_catalogue(cat, None if paths is None else paths[n])
             for n, (cat, _) in enumerate(plans)]
    set_labels(names)
    (catalogue, plan), (results, _) = plans[0], outcomes[0]
    sections = analyse.summarise(plan, catalogue, bots, results, anchor)
    document: JSON = {
        "format": analyse.FORMAT,
        "version": analyse.VERSION,
        "game": plan.game,
        "catalogue": names[0],
        "settings": {"games": plan.games, "seed": plan.seed, "bots": list(bots)},
        "complete": all(complete for _, complete in outcomes),
        "sections": sections,
        "against": None,
        "sweep": None,
    }
    if sweep:
        sets: list[JSON] = []
        for n in range(1, len(plans)):
            (other, other_plan), (other_results, _) = plans[n], outcomes[n]
            sets.append({"catalogue": names[n],
                         "sections": analyse.summarise(other_plan, other, bots,
                                                       other_results, anchor),
                         "compared": analyse.compare_sections(plan, results, other_plan,
                                                              other_results)})
        analyse.correct(*[found["compared"] for found in sets])
        document["sweep"] = {"correction": analyse.CORRECTION, "alpha": analyse.ALPHA,
                             "sets": sets}
    elif len(plans) > 1:
        (other, other_plan), (other_results, _) = plans[1], outcomes[1]
        other_sections = analyse.summarise(other_plan, other, bots, other_results, anchor)
        compared = analyse.compare_sections(plan, results, other_plan, other_results)
        parts = analyse.compare(plan, results, other_results, other_plan)
        analyse.correct(compared)
        analyse.correct(parts)
        document["against"] = {
            "catalogue": names[1],
            "correction": analyse.CORRECTION,
            "alpha": analyse.ALPHA,
            "summary": analyse.summary_sentences(compared),
            "sections": other_sections,
            "compared": compared,
            "comparison": parts,
            "pieces": _piece_table(sections, other_sections,
                                   changed_pieces(catalogue, other)),
        }
    return document


def dumps(document: JSON) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_json(document: JSON, target: str) -> None:
    """The report's JSON to a file (atomically), or to stdout for ``-``."""
    if target == "-":
        # JSON escapes what the output's encoding lacks (\u00fc), where the text escapes
        # of stdout (\xfc) would make it JSON no reader takes.
        utf = codecs.lookup(sys.stdout.encoding or "utf-8").name.startswith("utf")
        print(json.dumps(document, indent=2, ensure_ascii=not utf), end="\n")
        return
    write_atomic(Path(target), dumps(document).encode("utf-8"))


def report_files(target: Path) -> tuple[Path, str, str]:
    """Where ``--report TARGET`` writes: (folder, page's name, JSON's name). A folder
    gets report.html and report.json; a name ending in .html (or .htm) that is not a
    folder is the page itself, and its JSON goes beside it (report.html: report.json),
    as a user who types ``--report report.html`` expects."""
    if target.suffix.lower() in (".html", ".htm") and not target.is_dir():
        return target.parent, target.name, target.with_suffix(".json").name
    return target, "report.html", "report.json"


def write_report(document: JSON, target: Path) -> list[Path]:
    """The JSON, then the page, where :func:`report_files` says. The page is drawn
    first (its charts take seconds), so that Ctrl-C meanwhile does not leave a new JSON
    beside an old page; a folder this call made and could not fill is removed."""
    folder, page, data = report_files(target)
    html_bytes = render_html(document).encode("utf-8")
    made = not folder.exists()
    output = OutputDir(folder)
    try:
        return [output.write_bytes(data, dumps(document).encode("utf-8")),
                output.write_bytes(page, html_bytes)]
    except BaseException:
        if made:
            with contextlib.suppress(OSError):  # not empty: a file that was written stays
                folder.rmdir()
        raise


# -- text --------------------------------------------------------------------------------------

def _pct(interval: JSON) -> str:
    return _show(interval, 100.0, " %", 1)


def _show(interval: JSON, scale: float = 1.0, unit: str = "", digits: int = 1) -> str:
    value = f"{interval['value'] * scale:.{digits}f}{unit}"
    if interval["method"] == "none":
        return value
    return (f"{value} ({interval['low'] * scale:.{digits}f} to "
            f"{interval['high'] * scale:.{digits}f})")


def _rating(interval: JSON) -> str:
    if interval["method"] == "anchor":
        return "0 (anchor)"
    value = f"{interval['value']:+.0f}"
    if interval["method"] == "none":
        return value
    return f"{value} ({interval['low']:+.0f} to {interval['high']:+.0f})"


def _rung(row: JSON) -> str:
    """A ladder row's rating, or why it has none: a bot that met no other (an
    interrupted run, a single bot) is not rated at 0, whatever its JSON holds."""
    return "(no games against the others)" if row["games"] == 0 else _rating(row["rating"])


def _gap(gap: JSON) -> str:
    return "not measured" if gap["method"] == "none" else _rating(gap)


def _order(section: JSON) -> str:
    """Whether the ladder is strictly ordered: every gap's interval above 0."""
    if analyse.strictly_ordered(section["ladder"]):
        return "strictly ordered (every gap's interval above 0)"
    return "not strictly ordered (a gap's interval reaches 0)"


def _part(part: JSON) -> str:
    """A compared part: its variant and who played (a solitaire part: the bot alone)."""
    bots = part["bots"]
    return f"{part['variant']}, " + (" v ".join(bots) if len(bots) > 1 else f"{bots[0]} alone")


def section_title(section: JSON) -> str:
    mode = "solitaire" if section["players"] == 1 else f"{section['players']} players"
    return f"{section['variant']}, {mode}"


def set_title(catalogue: JSON) -> str:
    """A set as every report names it: its label (its name, made unique) and its path
    (once: a label made unique holds it already)."""
    path = f"({catalogue['path']})"
    return catalogue["label"] if path in catalogue["label"] else f"{catalogue['label']} {path}"


def first_player_text(figure: JSON) -> str:
    """The first player's edge, the pairings it rests on, and a warning when the seat
    orders of an interrupted run are unbalanced; or why there is none."""
    if figure["points"] is None:
        text = str(figure["note"])
    elif figure.get("method") == "seat-term":
        text = (f"{_pct(figure['points'])} of the points to seat 1 against a bot of its "
                f"own strength: the seat term of a rating model fitted to "
                f"{figure['games']} games of the pairings {', '.join(figure['pairings'])} "
                f"(no mirror pairing was played)")
    else:
        text = (f"{_pct(figure['points'])} of the points to seat 1, from {figure['games']} "
                f"games of the mirror pairings {', '.join(figure['pairings'])}")
        if figure["note"]:
            text += f"; {figure['note']}"
    if figure["unbalanced"]:
        orders = ", ".join(f"{' v '.join(row['bots'])} {row['games'][0]} games, reversed "
                           f"{row['games'][1]}" for row in figure["unbalanced"])
        text += f" (seat orders unbalanced by the interruption: {orders})"
    return text


def _kinds_text(figures: JSON, unit: str = "") -> str:
    return ", ".join(f"{kind} {_show(value)}{unit}" for kind, value in figures.items())


def _section_lines(section: JSON) -> list[str]:
    lines = [f"{section_title(section)}: {games_count(section['games'])}"]
    length = section["length"]
    lines.append(f"  length: {_show(length['mean'])} player turns (median "
                 f"{length['percentiles']['50']:g}); moves per game: "
                 f"{_kinds_text(section['moves'])}")
    lines.append("  legal moves per decision, by kind: " + ", ".join(
        f"{kind} {_show(found['mean'])}" for kind, found in section["legal"].items()))
    ends = ", ".join(f"{reason} {_pct(share)}" for reason, share in section["ends"].items())
    lines.append(f"  ends: {ends}")
    lines += [f"  lost by forfeit: {note}" for note in section.get("forfeits", ())]
    if section["players"] == 2:
        lines.append(f"  first-player edge: {first_player_text(section['first_player'])}")
        lines.append(f"  ties {_pct(section['ties'])}")
        lines.append(f"  lead changes per game {_show(section['lead_changes'])}; winner in "
                     f"the lead for good after {_pct(section['decided'])} of the game; "
                     f"winner behind {_pct(section['drama'])} of the game")
        ladder = ", ".join(f"{row['bot']} {_rung(row)}" for row in section["ladder"])
        lines.append(f"  ladder (Elo, {section['anchor']} = 0): {ladder}")
        if len(section["ladder"]) > 1:
            gaps = ", ".join(f"{row['bot']} {_gap(row['gap_below'])}"
                             for row in section["ladder"][:-1])
            lines.append(f"  gaps to the next rung down: {gaps}; {_order(section)}")
    else:
        for row in section["bots"]:
            par = ", ".join(f"{p['percentile']} % {p['score']['value']:g}" for p in row["par"])
            lines.append(f"  {row['bot']}: score {_show(row['scores']['mean'])}; "
                         f"par (score percentiles): {par}")
    if section["pieces"]:
        rows = sorted(section["pieces"], key=lambda row: row["played"]["value"])
        least = ", ".join(f"{r['piece']} {r['played']['value'] * 100:.0f} %" for r in rows[:3])
        lines.append(f"  pieces played least often (% of games): {least}")
    return lines


def _nothing_compared(document: JSON) -> str:
    """Why a run with --against compared nothing: no part played on both catalogues."""
    def variants(sections: Sequence[JSON]) -> str:
        return ", ".join(dict.fromkeys(str(s["variant"]) for s in sections)) or "none played"

    return (f"no part was played on both catalogues (variants played: "
            f"{variants(document['sections'])}; against: "
            f"{variants(document['against']['sections'])})")


def _difference_line(metric: JSON) -> str:
    unit = " %" if metric["kind"] == "proportion" else f" {metric['unit']}"
    return (f"{metric['metric']}: {metric['this']:.1f}{unit} -> {metric['against']:.1f}{unit}"
            f", {analyse.describe_difference(metric)}, adjusted p "
            f"{metric['p_adjusted']:.3g}")


def correction_note(correction: str, alpha: float) -> str:
    return (f"differences that survive {correction}'s correction for multiple comparisons "
            f"(family-wise error at most {alpha * 100:g} %); a proportion is compared only "
            f"with at least {analyse.MIN_PROPORTION_GAMES} paired games and "
            f"{analyse.MIN_EVENTS} games with and without it in each set")


def key_figures(section: JSON) -> list[tuple[str, JSON | None, bool]]:
    """(name, interval, in percent) of the figures a sweep's table shows per set."""
    figures: list[tuple[str, JSON | None, bool]] = [
        ("length (player turns)", section["length"]["mean"], False)]
    if section["players"] == 2:
        figures += [("first-player edge (% of points to seat 1)",
                     section["first_player"]["points"], True),
                    ("ties (% of games)", section["ties"], True),
                    ("lead changes per game", section["lead_changes"], False)]
    else:
        figures += [(f"score: {row['bot']}", row["scores"]["mean"], False)
                    for row in section["bots"]]
    return figures


def sweep_rows(document: JSON) -> list[JSON]:
    """Per section of the first set: a row per set with its key figures, and the names
    of the figures that differ significantly from the first set's."""
    sweep = document["sweep"]
    tables = []
    for section in document["sections"]:
        key = (section["variant"], section["players"])
        rows = [{"catalogue": document["catalogue"], "section": section, "differs": {}}]
        for found in sweep["sets"]:
            mine = next((s for s in found["sections"]
                         if (s["variant"], s["players"]) == key), None)
            compared = next((c for c in found["compared"]
                             if (c["variant"], c["players"]) == key), None)
            differs = {} if compared is None else {
                m["metric"]: analyse.describe_difference(m)
                for m in compared["metrics"] if m["significant"]}
            rows.append({"catalogue": found["catalogue"], "section": mine,
                         "differs": differs})
        tables.append({"title": section_title(section), "rows": rows})
    return tables


# Which compared metric each key figure's column stands for.
_KEY_METRICS = {"length (player turns)": "length",
                "first-player edge (% of points to seat 1)": "first-player edge",
                "ties (% of games)": "ties", "lead changes per game": "lead changes"}


def _printable_names(value: Any) -> Any:
    """``value`` with the names and paths of its sets escaped (base.errors.printable): a
    catalogue's name may hold a line break or U+202E, which split or reordered the text
    summary's lines; the JSON and the page keep the name as it is."""
    if isinstance(value, dict):
        return {key: printable(item) if key in _SET_TEXTS and isinstance(item, str)
                else _printable_names(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_printable_names(item) for item in value]
    return value


_SET_TEXTS = frozenset({"name", "label", "path", "source"})


def format_text(document: JSON) -> str:
    document = _printable_names(document)
    settings = document["settings"]
    catalogue = document["catalogue"]
    first, last = settings["seed"], settings["seed"] + settings["games"] - 1
    sweep = document["sweep"]
    against = document["against"]
    sets = [catalogue] + ([found["catalogue"] for found in sweep["sets"]] if sweep
                          else [against["catalogue"]] if against else [])
    lines = [f"{document['game']}: {'; '.join(set_title(s) for s in sets)}: "
             f"{games_count(settings['games'])} per part, seeds {first}..{last}, bots "
             f"{', '.join(settings['bots'])}"]
    if len(sets) > 1:
        lines.append(f"{set_title(catalogue)}:")
    for section in document["sections"]:
        lines += _section_lines(section)
    if against is not None:
        lines.append(f"against {set_title(against['catalogue'])}, on the same seeds:")
        for section in against["sections"]:
            lines += ["  " + line for line in _section_lines(section)]
        lines.append(f"{against['catalogue']['label']} compared with {catalogue['label']} "
                     f"({correction_note(against['correction'], against['alpha'])}):")
        if not against["compared"]:
            lines.append(f"  none compared: {_nothing_compared(document)}")
        lines += ["  " + line for line in against["summary"]]
        for section in against["compared"]:
            for metric in section["metrics"]:
                if metric["significant"]:
                    lines.append(f"  {section_title(section)}: {_difference_line(metric)}")
    if sweep is not None:
        lines.append(f"sweep: each set compared with {catalogue['label']} on the same seeds "
                     f"({correction_note(sweep['correction'], sweep['alpha'])}):")
        for table in sweep_rows(document):
            lines.append(f"  {table['title']}:")
            for row in table["rows"]:
                if row["section"] is None:
                    lines.append(f"    {row['catalogue']['label']}: not played")
                    continue
                figures = "; ".join(f"{name} "
                                    + ("-" if value is None else
                                       _pct(value) if percent else _show(value))
                                    for name, value, percent in key_figures(row["section"]))
                lines.append(f"    {row['catalogue']['label']}: {figures}")
                for text in row["differs"].values():
                    lines.append(f"      differs: {text}")
    if not document["complete"]:
        lines.append("incomplete: interrupted before every game was played")
    return "\n".join(lines) + "\n"


# -- HTML ---------------------------------------------------------------------------------------

@contextlib.contextmanager
def plotting_config() -> Iterator[None]:
    """Unless the user set MPLCONFIGDIR, matplotlib's configuration and font cache go to
    a temporary folder removed afterwards: it would otherwise write ~/.config/matplotlib
    and ~/.cache/matplotlib, outside the output folder. Entered before matplotlib is
    imported (it reads the variable then)."""
    if "MPLCONFIGDIR" in os.environ:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="micropul-print-matplotlib-") as folder:
        os.environ["MPLCONFIGDIR"] = folder
        try:
            yield
        finally:
            os.environ.pop("MPLCONFIGDIR", None)


def require_plotting() -> None:
    """UsageError unless matplotlib can be imported (the [lab] extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--report draws its charts with matplotlib, which is not installed: "
                         "pip install 'micropul-print[lab]'") from None


_STYLE = """
body { font-family: Lato, 'Helvetica Neue', Arial, sans-serif; margin: 2em auto;
       max-width: 70em; color: #212529; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em;
     border-bottom: 1px solid #dee2e6; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
td, th { border: 1px solid #dee2e6; padding: 0.2em 0.6em; text-align: right; }
th { background: #f1f3f5; } td.name, th.name { text-align: left; }
td:not(.name) { white-space: nowrap; }
tr.significant td, td.significant { background: #fff3bf; }
tr.changed td { font-weight: bold; }
ul.summary { font-size: 1.05em; }
.charts { display: flex; flex-wrap: wrap; gap: 1em; } .charts svg { max-width: 100%;
          height: auto; }
p.note { color: #495057; font-size: 0.9em; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _cell(interval: JSON | None, percent: bool = False) -> str:
    if interval is None:
        return "<td>&ndash;</td>"
    return f"<td>{_e(_pct(interval) if percent else _show(interval))}</td>"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f'<th class="name">{_e(h)}</th>' if n == 0 else f"<th>{_e(h)}</th>"
                   for n, h in enumerate(header))
    body = "".join(f"<tr>{''.join(row)}</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _name(text: object) -> str:
    return f'<td class="name">{_e(text)}</td>'


def _summary_table(section: JSON) -> str:
    rows = [[_name("game length (player turns)"), _cell(section["length"]["mean"])]]
    rows += [[_name(f"{kind} moves per game"), _cell(value)]
             for kind, value in section["moves"].items()]
    rows += [[_name(f"legal {kind} moves per decision that offers one"),
              _cell(found["mean"])] for kind, found in section["legal"].items()]
    rows += [[_name(f"ends: {reason} (% of games)"), _cell(share, True)]
             for reason, share in section["ends"].items()]
    if section["players"] == 2:
        edge = section["first_player"]
        rows += [[_name("first-player edge: % of the points to seat 1 against a bot of "
                        "its own strength, fitted seat term (a tie is half)"
                        if edge.get("method") == "seat-term" else
                        "first-player edge: % of the points to seat 1 in the mirror "
                        "pairings (a tie is half)"),
                  "<td>&ndash;</td>" if edge["points"] is None
                  else _cell(edge["points"], True)],
                 [_name("ties (% of games)"), _cell(section["ties"], True)],
                 [_name("lead changes per game"), _cell(section["lead_changes"])],
                 [_name("winner in the lead for good after (% of the game)"),
                  _cell(section["decided"], True)],
                 [_name("winner not in the lead (% of the game: drama)"),
                  _cell(section["drama"], True)]]
    table = _table(["figure", "value (95 % interval)"], rows)
    if section["players"] == 2:
        edge = first_player_text(section["first_player"])
        table += f'<p class="note">First-player edge: {_e(edge)}.</p>'
    return table


def _two_player_html(section: JSON, charts: _Charts) -> list[str]:
    order = section["matrix"]["bots"]
    parts = ["<h3>Ladder</h3>",
             f'<p class="note">Elo ratings against {_e(section["anchor"])}, the anchor (0 by '
             "definition); a gap is a rating minus the next one down, with its own interval, "
             "the same whatever the anchor."
             + (f" The ladder is {_e(_order(section))}." if len(section["ladder"]) > 1 else "")
             + "</p>",
             _table(["bot", "Elo rating (95 %)", "gap to the next (95 %)",
                     "% of points against the others", "games"],
                    [[_name(row["bot"]), f"<td>{_e(_rung(row))}</td>",
                      "<td>&ndash;</td>" if row["gap_below"] is None
                      else f"<td>{_e(_gap(row['gap_below']))}</td>",
                      _cell(row["points"], True), f"<td>{row['games']}</td>"]
                     for row in section["ladder"]])]
    parts.append("<h3>% of the points of the row's bot against the column's "
                 "(both seat orders)</h3>")
    parts.append(_table(["", *order], [[_name(a)] + [_cell(section["matrix"]["points"][i][j], True)
                                                   for j in range(len(order))]
                                       for i, a in enumerate(order)]))
    parts.append("<h3>Each pairing</h3>")
    parts.append('<p class="note">Seat 1\'s points in a lopsided pairing measure that bot '
                 "in that seat, not the seat: only the mirror pairings (a bot against itself) "
                 "measure the first player's edge.</p>")
    parts.append(_table(["seat 1 v seat 2", "games", "% of points to seat 1",
                         "seat 1's score", "seat 2's score"],
                        [[_name(" v ".join(p["bots"]) + (" (mirror)" if p["mirror"] else "")),
                          f"<td>{p['games']}</td>", _cell(p["first_player"], True),
                          _cell(p["scores"][0]["mean"]), _cell(p["scores"][1]["mean"])]
                         for p in section["pairings"]]))
    parts.append('<div class="charts">')
    parts.append(charts.ladder(section))
    parts.append(charts.matrix(section, order))
    parts.append(charts.histograms("Final scores of each bot against itself (both seats)",
                                   pairing_scores(section), "final score (points)"))
    parts.append("</div>")
    return parts


def pairing_scores(section: JSON) -> list[tuple[str, list[list[float]]]]:
    """Score distributions to chart, one per bot: its mirror pairing (both seats: the
    same bot), or, without mirror pairings, seat 1's scores in each pairing."""
    mirror = [p for p in section["pairings"] if p["mirror"]]
    if mirror:
        series = []
        for found in mirror:
            counts: Counter[float] = Counter()
            for seat in found["scores"]:
                counts.update({value: count for value, count in seat["histogram"]})
            series.append((found["bots"][0], [[v, c] for v, c in sorted(counts.items())]))
        return series
    return [(f"{' v '.join(p['bots'])}: seat 1", p["scores"][0]["histogram"])
            for p in section["pairings"]]


def _solitaire_html(section: JSON, charts: _Charts) -> list[str]:
    rows = []
    for row in section["bots"]:
        rows.append([_name(row["bot"]), f"<td>{row['games']}</td>",
                     _cell(row["scores"]["mean"])]
                    + [_cell(p["score"]) for p in row["par"]])
    parts = ["<h3>Par table</h3>",
             '<p class="note">Solitaire has no winner: a score at the 75th percentile beats '
             "three games in four of that bot; the strongest bot's row is the par to aim "
             "at.</p>",
             _table(["bot", "games", "mean score (points)"]
                    + [f"{p['percentile']}th percentile" for p in section["bots"][0]["par"]],
                    rows)]
    parts.append('<div class="charts">')
    parts.append(charts.histograms("Final scores, each bot", [
        (row["bot"], row["scores"]["histogram"]) for row in section["bots"]],
        "final score (points)"))
    parts.append("</div>")
    return parts


def _pieces_html(section: JSON, charts: _Charts) -> list[str]:
    if not section["pieces"]:
        return []
    two = section["players"] == 2
    rows = [[_name(p["piece"]), _cell(p["played"], True), _cell(p["held"], True),
             _cell(p["scoring"], True), _cell(p["turn"]), _cell(p["gain"])]
            + ([_cell(p["points"], True)] if two else []) + [_cell(p["final_score"])]
            for p in section["pieces"]]
    return ["<h3>Pieces</h3>", '<div class="charts">', charts.pieces(section), "</div>",
            "<details><summary>every piece</summary>",
            _table(["piece", "played in (% of games)", "held to the end (% of games)",
                    "in a scoring group (% of games)", "player turn played",
                    "score gained by the move (points)"]
                   + (["its player's points (%)"] if two else [])
                   + ["its player's final score (points)"], rows),
            "</details>"]


def _section_html(section: JSON, charts: _Charts, level: str = "h2",
                  label: str = "") -> list[str]:
    parts = [f"<{level}>{_e(label)}{_e(section_title(section))}: {section['games']} "
             f"games</{level}>", _summary_table(section)]
    parts += (_two_player_html(section, charts) if section["players"] == 2
              else _solitaire_html(section, charts))
    parts.append('<div class="charts">')
    parts.append(charts.histograms("Game length", [("all games", section["length"]["histogram"])],
                                   "length (player turns)"))
    parts.append(charts.legal([("", section)]))
    parts.append("</div>")
    parts += _pieces_html(section, charts)
    return parts


def _metric_cells(metric: JSON) -> list[str]:
    # A proportion's two values are % and their difference is in percentage points.
    unit = ("% (difference: percentage points)" if metric["kind"] == "proportion"
            else metric["unit"])
    if metric["not_compared"]:
        verdict = f"not compared: {metric['not_compared']}"
    else:
        verdict = ("yes" if metric["significant"] else "no") + (
            "" if metric["p_adjusted"] is None else f" (adjusted p {metric['p_adjusted']:.3g})")
    return [_name(metric["metric"]), _name(unit), f"<td>{metric['this']:.2f}</td>",
            f"<td>{metric['against']:.2f}</td>",
            f"<td>{_e(_show(metric['difference'], digits=2))}</td>", _name(verdict)]


def _comparison_rows(rows: Sequence[JSON], title: Any) -> list[str]:
    found = []
    for row in rows:
        for metric in row["metrics"]:
            css = ' class="significant"' if metric["significant"] else ""
            found.append(f"<tr{css}>" + "".join([_name(title(row)), *_metric_cells(metric)])
                         + "</tr>")
    return found


def _comparison_html(document: JSON, charts: _Charts) -> list[str]:
    against = document["against"]
    mine, theirs = document["catalogue"], against["catalogue"]
    head = "".join(f'<th class="name">{_e(h)}</th>' if n in (0, 1, 2, 6) else f"<th>{_e(h)}</th>"
                   for n, h in enumerate(("section", "figure", "unit", mine["label"],
                                          theirs["label"], "difference (95 %)",
                                          "significant")))
    parts = [f"<h2>{_e(theirs['label'])} compared with {_e(mine['label'])}</h2>",
             '<ul class="summary">' + "".join(f"<li>{_e(line)}</li>"
                                              for line in against["summary"]) + "</ul>",
             f'<p class="note">Both sets played the same seeds; a difference is the mean of '
             f"the per-game differences ({_e(theirs['label'])} minus {_e(mine['label'])}) with "
             f"its 95 % t interval; percentages of games differ in percentage points. Listed: "
             f"{_e(correction_note(against['correction'], against['alpha']))}.</p>"]
    rows = _comparison_rows(against["compared"], section_title)
    parts.append(f"<table><tr>{head}</tr>{''.join(rows)}</table>" if rows
                 else f'<p class="note">Nothing compared: {_e(_nothing_compared(document))}.</p>')
    theirs_sections = {(s["variant"], s["players"]): s for s in against["sections"]}
    for section in document["sections"]:
        other = theirs_sections.get((section["variant"], section["players"]))
        if other is None:
            continue
        series = [(mine["label"], section), (theirs["label"], other)]
        parts.append(f"<h3>{_e(section_title(section))}: the two sets overlaid</h3>")
        parts.append('<div class="charts">')
        parts.append(charts.histograms("Game length", [
            (label, found["length"]["histogram"]) for label, found in series],
            "length (player turns)"))
        parts.append(charts.legal(series))
        if section["players"] == 1:
            for bot in section["bots"]:
                parts.append(charts.histograms(f"Final scores: {bot['bot']}", [
                    (label, next(b for b in found["bots"] if b["bot"] == bot["bot"])
                     ["scores"]["histogram"]) for label, found in series
                    if any(b["bot"] == bot["bot"] for b in found["bots"])],
                    "final score (points)"))
        else:
            mirror_a = dict(pairing_scores(section))
            mirror_b = dict(pairing_scores(other))
            for bot, histogram in mirror_a.items():
                if bot in mirror_b:
                    parts.append(charts.histograms(
                        f"Final scores: {bot} against itself", [(mine["label"], histogram),
                                                 (theirs["label"], mirror_b[bot])],
                        "final score (points)"))
        parts.append("</div>")
    for table in against["pieces"]:
        parts.append(f"<h3>{_e(section_title(table))}: each piece in both sets</h3>")
        parts.append('<p class="note">% of games in which the piece was played, held by a '
                     "player to the end, or part of a group that scored; a changed piece "
                     "(marked *) differs between the two sets.</p>")
        header = ["piece"] + [f"{what}: {label}" for what in ("played", "held", "scoring")
                              for label in (mine["label"], theirs["label"])]
        body = []
        for row in table["rows"]:
            css = ' class="changed"' if row["changed"] else ""
            cells = [_name(row["piece"] + (" *" if row["changed"] else ""))]
            for key in ("played", "held", "scoring"):
                cells += [_cell(row["this"][key], True), _cell(row["against"][key], True)]
            body.append(f"<tr{css}>{''.join(cells)}</tr>")
        head_row = "".join(f"<th>{_e(h)}</th>" for h in header)
        parts.append(f"<table><tr>{head_row}</tr>{''.join(body)}</table>")
    if against["comparison"]:
        parts.append("<details><summary>each part (pairing or bot alone) compared"
                     "</summary>")
        parts.append(f"<table><tr>{head}</tr>"
                     f"{''.join(_comparison_rows(against['comparison'], _part))}</table>")
        parts.append("</details>")
    return parts


def _sweep_html(document: JSON, charts: _Charts) -> list[str]:
    sweep = document["sweep"]
    first = document["catalogue"]["label"]
    parts = [f"<h2>Sweep: every set on the same seeds, compared with {_e(first)}</h2>",
             f'<p class="note">One row per set; the 95 % intervals are each set\'s own. '
             f"Marked (yellow, with the difference): figures that differ from {_e(first)}'s, "
             f"the {_e(correction_note(sweep['correction'], sweep['alpha']))}.</p>"]
    for table in sweep_rows(document):
        rows = table["rows"]
        names = [name for name, _, _ in key_figures(rows[0]["section"])]
        columns = ["set", "path", *names, f"differs from {first}"]
        head = "".join(f'<th class="name">{_e(h)}</th>' if n in (0, 1, len(columns) - 1)
                       else f"<th>{_e(h)}</th>" for n, h in enumerate(columns))
        body = []
        for row in rows:
            cells = [_name(row["catalogue"]["label"]), _name(row["catalogue"]["path"])]
            section = row["section"]
            found = {} if section is None else {n: (v, pc) for n, v, pc in key_figures(section)}
            for name in names:
                value, percent = found.get(name, (None, False))
                metric = _KEY_METRICS.get(name, name)
                css = ' class="significant"' if metric in row["differs"] else ""
                cells.append(f"<td{css}>&ndash;</td>" if value is None else
                             f"<td{css}>{_e(_pct(value) if percent else _show(value))}</td>")
            cells.append(f'<td class="name">{_e("; ".join(row["differs"].values()) or "no")}'
                         "</td>" if row is not rows[0] else '<td class="name">(the first)</td>')
            body.append(f"<tr>{''.join(cells)}</tr>")
        parts.append(f"<h3>{_e(table['title'])}</h3>")
        parts.append(f"<table><tr>{head}</tr>{''.join(body)}</table>")
        parts.append('<div class="charts">')
        for name in names:
            points = []
            for row in rows:
                section = row["section"]
                found = {} if section is None else {n: (v, pc)
                                                    for n, v, pc in key_figures(section)}
                value, percent = found.get(name, (None, False))
                if value is not None:
                    points.append((row["catalogue"]["label"], value, percent))
            parts.append(charts.forest(name, points))
        parts.append("</div>")
    return parts


def render_html(document: JSON) -> str:
    charts = _Charts()
    settings = document["settings"]
    catalogue = document["catalogue"]
    sweep = document["sweep"]
    against = document["against"]
    sets = [catalogue] + ([found["catalogue"] for found in sweep["sets"]] if sweep
                          else [against["catalogue"]] if against else [])
    title = (f"Analysis of {catalogue['label']} ({document['game']})" if len(sets) == 1
             else f"{'Sweep' if sweep else 'Comparison'} of {len(sets)} {document['game']} "
                  "sets")
    parts = [f"<h1>{_e(title)}</h1>",
             "<p>" + "<br>".join(f"<strong>{_e(s['label'])}</strong>: set "
                                 f"{_e(repr(s['name']))}, {_e(s['path'])}" for s in sets)
             + "</p>",
             f'<p class="note">{games_count(settings["games"])} per part, '
             f"seeds {settings['seed']} to {settings['seed'] + settings['games'] - 1}, bots "
             f"{_e(', '.join(settings['bots']))}. A player turn is one decision of the player "
             "to move (one move). Intervals are 95 %: Wilson for shares, "
             "Student's t for means, the Bradley-Terry fit's curvature for ratings and "
             "their gaps, bootstrap for percentiles. Shares are shown in percent.</p>"]
    if not document["complete"]:
        parts.append('<p class="note"><strong>Incomplete:</strong> interrupted before every '
                     "game was played.</p>")
    if against is not None:
        parts += _comparison_html(document, charts)
    if sweep is not None:
        parts += _sweep_html(document, charts)
    prefix = f"{catalogue['label']}: " if len(sets) > 1 else ""
    for section in document["sections"]:
        parts += _section_html(section, charts, "h2", prefix)
    if against is not None:
        for section in against["sections"]:
            parts += _section_html(section, charts, "h2", f"{against['catalogue']['label']}: ")
    if sweep is not None:
        for found in sweep["sets"]:
            for section in found["sections"]:
                parts += _section_html(section, charts, "h2", f"{found['catalogue']['label']}: ")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


_SVG_NAMESPACES = (' xmlns:xlink="http://www.w3.org/1999/xlink"',
                   ' xmlns="http://www.w3.org/2000/svg"')


class _Charts:
    """The page's charts, each an inline SVG (matplotlib's SVG backend, with text as
    text, no date and fixed ids: the same report gives the same page)."""

    WIDTH = 5.6  # inches
    HEIGHT = 3.2
    COLOURS = ("#1864ab", "#e8590c", "#2b8a3e", "#862e9c", "#c92a2a", "#5f3dc4")

    def __init__(self) -> None:
        self.count = 0

    def _figure(self, width: float | None = None, height: float | None = None) -> Any:
        from matplotlib.figure import Figure

        return Figure(figsize=(width or self.WIDTH, height or self.HEIGHT),
                      layout="constrained")

    def _svg(self, figure: Any) -> str:
        import matplotlib

        self.count += 1
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": f"chart-{self.count}",
                                    "svg.fonttype": "none", "font.size": 9}):
            # No metadata: its RDF block names web addresses (creativecommons.org,
            # matplotlib.org) that a page said to need no network should not hold.
            figure.savefig(buffer, format="svg", metadata=dict.fromkeys(
                ("Date", "Creator", "Format", "Type")))
        text = buffer.getvalue()
        svg = text[text.index("<svg"):]  # no XML declaration nor doctype inside HTML
        # Inside HTML the parser gives <svg> and xlink:href their namespaces itself.
        for declaration in _SVG_NAMESPACES:
            svg = svg.replace(declaration, "", 1)
        return svg

    def histograms(self, title: str, series: Sequence[tuple[str, list[list[float]]]],
                   xlabel: str) -> str:
        figure = self._figure()
        axes = figure.add_subplot()
        every = [v for _, histogram in series for v, _ in histogram]
        bins = _bins(every) if every else 1  # one set of bins: overlaid series compare
        for number, (label, histogram) in enumerate(series):
            values = [v for v, _ in histogram]
            counts = [c for _, c in histogram]
            if not values:
                continue
            axes.hist(values, weights=counts, bins=bins, histtype="step",
                      linewidth=1.6, label=label, color=self.COLOURS[number % len(self.COLOURS)])
        axes.set_title(title)
        axes.set_xlabel(xlabel)
        axes.set_ylabel("games")
        axes.yaxis.get_major_locator().set_params(integer=True)
        if len(series) > 1:
            axes.legend()
        return self._svg(figure)

    def ladder(self, section: JSON) -> str:
        figure = self._figure()
        axes = figure.add_subplot()
        rows = list(reversed(section["ladder"]))
        for y, row in enumerate(rows):
            rating = row["rating"]
            axes.errorbar([rating["value"]], [y], xerr=[[rating["value"] - rating["low"]],
                                                      [rating["high"] - rating["value"]]],
                          fmt="o", color=self.COLOURS[0], capsize=4)
        axes.set_yticks(range(len(rows)), [row["bot"] for row in rows])
        axes.set_ylim(-0.5, len(rows) - 0.5)
        # Each gap's interval, written between its two rungs (centred across the axes,
        # where a long label still fits): above 0 means the two are in order.
        for y, row in enumerate(rows[1:]):
            gap = row["gap_below"]
            if gap is not None and gap["method"] != "none":
                axes.annotate(f"gap {_rating(gap)}", (0.5, y + 0.5),
                              xycoords=("axes fraction", "data"), ha="center", va="center",
                              fontsize=8, color="#495057")
        axes.axvline(0, color="#adb5bd", linewidth=0.8)
        axes.set_title("Ladder: Elo rating, 95 % interval")
        axes.set_xlabel(f"Elo rating ({section['anchor']} = 0)")
        axes.set_ylabel("bot")
        return self._svg(figure)

    def matrix(self, section: JSON, bots: Sequence[str]) -> str:
        figure = self._figure(4.4, 3.6)
        axes = figure.add_subplot()
        size = len(bots)
        points = section["matrix"]["points"]
        values = [[(cell["value"] * 100 if cell is not None else 50.0) for cell in row]
                  for row in points]
        image = axes.imshow(values, cmap="RdBu", vmin=0, vmax=100)
        for i in range(size):
            for j in range(size):
                cell = points[i][j]
                text = "–" if cell is None else f"{cell['value'] * 100:.0f} %"
                dark = cell is not None and abs(cell["value"] - 0.5) > 0.3
                axes.text(j, i, text, ha="center", va="center",
                          color="#ffffff" if dark else "#212529")
        axes.set_xticks(range(size), bots)
        axes.set_yticks(range(size), bots)
        axes.set_title("% of the points of row against column")
        axes.set_xlabel("column: opponent bot")
        axes.set_ylabel("row: bot")
        figure.colorbar(image, ax=axes, shrink=0.8, label="% of the points")
        return self._svg(figure)

    LINES = ("-", "--", ":", "-.")

    def legal(self, series: Sequence[tuple[str, JSON]]) -> str:
        """Legal moves of each kind by player turn, a line per kind (and per set,
        overlaid): the player turns offering that kind in a tenth of the games."""
        figure = self._figure()
        axes = figure.add_subplot()
        kinds = sorted({kind for _, section in series for kind in section["legal"]})
        for number, (label, section) in enumerate(series):
            for k, kind in enumerate(kinds):
                found = section["legal"].get(kind)
                if found is None:
                    continue
                rows = [row for row in found["by_turn"] if row[2] * 10 >= section["games"]]
                if not rows:
                    continue
                name = f"{label}: {kind}" if label else kind
                axes.plot([r[0] for r in rows], [r[1] for r in rows],
                          color=self.COLOURS[k % len(self.COLOURS)],
                          linestyle=self.LINES[number % len(self.LINES)], label=name)
        axes.set_title("Legal moves of each kind, by player turn")
        axes.set_xlabel("player turn")
        axes.set_ylabel("legal moves of that kind (mean)")
        axes.xaxis.get_major_locator().set_params(integer=True)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=8)
        return self._svg(figure)

    def forest(self, name: str, points: Sequence[tuple[str, JSON, bool]]) -> str:
        """One figure of every set, its 95 % interval as a bar (a sweep)."""
        figure = self._figure(self.WIDTH, 0.5 + 0.35 * max(2, len(points)))
        axes = figure.add_subplot()
        rows = list(reversed(points))
        for y, (_label, value, percent) in enumerate(rows):
            scale = 100.0 if percent else 1.0
            axes.errorbar([value["value"] * scale], [y],
                          xerr=[[(value["value"] - value["low"]) * scale],
                                [(value["high"] - value["value"]) * scale]],
                          fmt="o", color=self.COLOURS[0], capsize=4)
        axes.set_yticks(range(len(rows)), [label for label, _, _ in rows])
        axes.set_ylim(-0.5, len(rows) - 0.5)
        axes.set_title(name)
        axes.set_xlabel(f"{name[:-1]}; 95 % interval)" if name.endswith(")")
                        else f"{name} (mean, 95 % interval)")
        return self._svg(figure)

    def pieces(self, section: JSON) -> str:
        rows = section["pieces"]
        figure = self._figure(max(self.WIDTH, 0.16 * len(rows) + 1.2), 4.4)
        top, bottom = figure.subplots(2, 1, sharex=True)
        names = [row["piece"] for row in rows]
        places = range(len(rows))
        # Alone, there is no winner: the final score of the games the piece was played
        # in says more.
        second = (("points", "its player's points (%)", 100.0) if section["players"] > 1
                  else ("final_score", "final score of its\ngames (points)", 1.0))
        for axes, (key, label, scale) in ((top, ("played", "played in (% of games)", 100.0)),
                                          (bottom, second)):
            values = [row[key]["value"] * scale for row in rows]
            low = [(row[key]["value"] - row[key]["low"]) * scale for row in rows]
            high = [(row[key]["high"] - row[key]["value"]) * scale for row in rows]
            axes.bar(places, values, yerr=[low, high], color=self.COLOURS[0], alpha=0.8,
                     error_kw={"elinewidth": 0.7, "ecolor": "#495057"})
            axes.set_ylabel(label)
            if scale == 100.0:
                axes.set_ylim(0, 100)
        bottom.set_xticks(list(places), names, rotation=90, fontsize=7)
        bottom.set_xlabel("piece (tile number)")
        top.set_title("Each piece (95 % intervals)")
        return self._svg(figure)


def _bins(values: Sequence[float]) -> Any:
    """Whole numbers: bins of a whole width (one value each when there are few), each
    centred on its values, so that no bin holds more whole numbers than the next.
    Otherwise about 30 bins."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil((high - low + 1) / 40))
        count = int((high - low) // width) + 1
        return [low - 0.5 + k * width for k in range(count + 1)]
    return 30


# -- the skill trace (analyse --skill-trace; micropul_print.lab.skilltrace) -----------------

def skill_trace_html(document: JSON) -> str:
    """The skill trace's page: a chart of each step's share with its interval, and the
    table of the steps."""
    from matplotlib.ticker import PercentFormatter

    charts = _Charts()
    steps = document["steps"]
    title = f"Skill trace of {document['bot']} on {document['catalogue']['name']}"
    figure = charts._figure()
    axes = figure.add_subplot()
    for number, variant in enumerate(dict.fromkeys(step["variant"] for step in steps)):
        mine = [step for step in steps if step["variant"] == variant]
        xs = list(range(1, len(mine) + 1))
        values = [100 * step["share"]["value"] for step in mine]
        below = [v - 100 * step["share"]["low"] for v, step in zip(values, mine, strict=True)]
        above = [100 * step["share"]["high"] - v for v, step in zip(values, mine, strict=True)]
        axes.errorbar(xs, values, yerr=[below, above], marker="o", capsize=3, label=variant,
                      color=charts.COLOURS[number % len(charts.COLOURS)])
        axes.set_xticks(xs, [f"{s['stronger'].partition(':')[2]} v "
                             f"{s['weaker'].partition(':')[2]}" for s in mine])
    axes.axhline(50, color="#868e96", linewidth=1, linestyle="--")
    axes.set_ylim(0, 100)
    axes.yaxis.set_major_formatter(PercentFormatter())
    axes.set_xlabel("step: nodes of the stronger bot v nodes of the weaker")
    axes.set_ylabel("stronger bot's share of the points (%)")
    axes.set_title("Each budget against the one below (95 % Wilson intervals)")
    if len({step["variant"] for step in steps}) > 1:
        axes.legend()
    rows = "".join(
        "<tr>" + "".join(f"<td>{_e(str(cell))}</td>" for cell in (
            step["variant"], step["stronger"], step["weaker"], step["games"],
            step["distinct"], step["wins"], step["ties"],
            _show(step["share"], 100.0, " %", 1))) + "</tr>"
        for step in steps)
    head = "".join(f"<th>{_e(h)}</th>" for h in (
        "variant", "stronger", "weaker", "games", "distinct games", "won", "tied",
        "share (95 %)"))
    if any(step["distinct"] < step["games"] // 2 for step in steps):
        head_note = ('<p class="note">Fewer distinct games than games: the bots played '
                     "alike on every seed (a game without chance), so the copies are one "
                     "game each and the intervals, which count them as games, are too "
                     "narrow.</p>")
    else:
        head_note = ""
    note = ("" if document["complete"] else '<p class="note"><strong>Incomplete:</strong> '
            "interrupted before every game was played.</p>")
    body = "\n".join([
        f"<h1>{_e(title)}</h1>",
        f'<p class="note">{_e(document["catalogue"]["source"])}: {document["games"]} games '
        f"per seat order per step from seed {document['seed']}. A share near 50 % means "
        "that twice the thinking no longer pays: the game is shallow from there.</p>",
        note, charts._svg(figure), f"<table><tr>{head}</tr>{rows}</table>", head_note])
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")
