"""The analysis report: its JSON (docs/contracts.md, "Analysis report", and the JSON
Schema ``report.schema.json`` beside this module), its text summary, and
``report.html``: one self-contained page (inline SVG charts drawn by matplotlib, no
script, no network), written with the JSON into a directory.

matplotlib is imported by the HTML page alone: the [lab] extra installs it.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath
from typing import Any

from micropul_print.errors import UsageError
from micropul_print.gameapi import JSON
from micropul_print.lab import analyse
from micropul_print.lab.analyse import Plan
from micropul_print.lab.record import catalogue_digest
from micropul_print.lab.runner import Results
from micropul_print.outputs import OutputDir, write_atomic

SCHEMA = Path(__file__).with_name("report.schema.json")


def _catalogue(catalogue: Any) -> JSON:
    """The catalogue's name, its file's name and its digest. Not the file's folder: a
    report names no path of the machine it was made on (the shipped catalogue's lies
    wherever the package was installed), and is the same wherever the file is."""
    return {"name": catalogue.name, "source": PurePath(catalogue.source).name,
            "digest": catalogue_digest(catalogue)}


def build_report(plans: Sequence[tuple[Any, Plan]], outcomes: Sequence[tuple[Results, bool]],
                 bots: Sequence[str], anchor: str | None = None) -> JSON:
    """The report of a run: the first catalogue's sections, and with a second one
    (``--against``) its sections and the comparison of the two; ladders are measured
    from ``anchor`` (default: analyse.choose_anchor's)."""
    (catalogue, plan), (results, _) = plans[0], outcomes[0]
    document: JSON = {
        "format": analyse.FORMAT,
        "version": analyse.VERSION,
        "game": plan.game,
        "catalogue": _catalogue(catalogue),
        "settings": {"games": plan.games, "seed": plan.seed, "bots": list(bots)},
        "complete": all(complete for _, complete in outcomes),
        "sections": analyse.summarise(plan, catalogue, bots, results, anchor),
        "against": None,
    }
    if len(plans) > 1:
        (other, other_plan), (other_results, _) = plans[1], outcomes[1]
        document["against"] = {
            "catalogue": _catalogue(other),
            "sections": analyse.summarise(other_plan, other, bots, other_results, anchor),
            "comparison": analyse.compare(plan, results, other_results, other_plan),
        }
    return document


def dumps(document: JSON) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_json(document: JSON, target: str) -> None:
    """The report's JSON to a file (atomically), or to stdout for ``-``."""
    if target == "-":
        print(dumps(document), end="")
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


def _section_lines(section: JSON) -> list[str]:
    lines = [f"{section_title(section)}: {section['games']} games"]
    length = section["length"]
    lines.append(f"  length: {_show(length['mean'])} turns (median "
                 f"{length['percentiles']['50']:g}); legal moves per turn "
                 f"{_show(section['branching']['mean'])}")
    ends = ", ".join(f"{reason} {_pct(share)}" for reason, share in section["ends"].items())
    lines.append(f"  ends: {ends}")
    if section["players"] == 2:
        lines.append(f"  first player's points: {_pct(section['first_player'])}; ties "
                     f"{_pct(section['ties'])}")
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
        # A game that counts every finished solitaire game as won: nothing to say.
        always = all(row["won"]["value"] == 1.0 for row in section["bots"])
        for row in section["bots"]:
            par = ", ".join(f"{p['percentile']} % {p['score']['value']:g}" for p in row["par"])
            won = "" if always else f", won {_pct(row['won'])}"
            lines.append(f"  {row['bot']}: score {_show(row['scores']['mean'])}{won}; "
                         f"par: {par}")
    if section["pieces"]:
        rows = sorted(section["pieces"], key=lambda row: row["played"]["value"])
        least = ", ".join(f"{r['piece']} {r['played']['value'] * 100:.0f} %" for r in rows[:3])
        lines.append(f"  pieces played least often: {least}")
    return lines


def _nothing_compared(document: JSON) -> str:
    """Why a run with --against compared nothing: no part played on both catalogues."""
    def variants(sections: Sequence[JSON]) -> str:
        return ", ".join(dict.fromkeys(str(s["variant"]) for s in sections)) or "none played"

    return (f"no part was played on both catalogues (variants played: "
            f"{variants(document['sections'])}; against: "
            f"{variants(document['against']['sections'])})")


def format_text(document: JSON) -> str:
    settings = document["settings"]
    catalogue = document["catalogue"]
    first, last = settings["seed"], settings["seed"] + settings["games"] - 1
    lines = [f"{document['game']} catalogue {catalogue['name']!r} ({catalogue['source']}): "
             f"{settings['games']} games per part, seeds {first}..{last}, bots "
             f"{', '.join(settings['bots'])}"]
    for section in document["sections"]:
        lines += _section_lines(section)
    against = document["against"]
    if against is not None:
        lines.append(f"against {against['catalogue']['name']!r} "
                     f"({against['catalogue']['source']}), on the same seeds:")
        for section in against["sections"]:
            lines += ["  " + line for line in _section_lines(section)]
        lines.append("significant differences (against minus this one, 95 %):")
        if not against["comparison"]:
            lines.append(f"  none compared: {_nothing_compared(document)}")
        found = 0
        for part in against["comparison"]:
            for metric in part["metrics"]:
                if metric["significant"]:
                    found += 1
                    lines.append(f"  {_part(part)}: "
                                 f"{metric['metric']}: {metric['this']:g} -> "
                                 f"{metric['against']:g}, difference "
                                 f"{_show(metric['difference'], digits=3)}")
        if not found and against["comparison"]:
            lines.append("  none")
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
tr.significant td { background: #fff3bf; }
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
    rows = [[_name("game length (turns)"), _cell(section["length"]["mean"])],
            [_name("legal moves per turn"), _cell(section["branching"]["mean"])]]
    rows += [[_name(f"ends: {reason}"), _cell(share, True)]
             for reason, share in section["ends"].items()]
    if section["players"] == 2:
        rows += [[_name("first player's points (a tie is half)"),
                  _cell(section["first_player"], True)],
                 [_name("ties"), _cell(section["ties"], True)]]
        rows += [[_name(f"seat {seat['seat']} wins"), _cell(seat["wins"], True)]
                 for seat in section["seats"]]
        rows += [[_name(f"seat {seat['seat']} score"), _cell(seat["scores"]["mean"])]
                 for seat in section["seats"]]
        rows += [[_name("lead changes per game"), _cell(section["lead_changes"])],
                 [_name("winner in the lead for good after (share of the game)"),
                  _cell(section["decided"], True)],
                 [_name("winner not in the lead (share of the game: drama)"),
                  _cell(section["drama"], True)]]
    return _table(["figure", "value (95 % interval)"], rows)


def _two_player_html(section: JSON, charts: _Charts) -> list[str]:
    order = section["matrix"]["bots"]
    parts = ["<h3>Ladder</h3>",
             f'<p class="note">Elo ratings against {_e(section["anchor"])}, the anchor (0 by '
             "definition); a gap is a rating minus the next one down, with its own interval, "
             "the same whatever the anchor."
             + (f" The ladder is {_e(_order(section))}." if len(section["ladder"]) > 1 else "")
             + "</p>",
             _table(["bot", "Elo rating (95 %)", "gap to the next (95 %)",
                     "points against the others", "games"],
                    [[_name(row["bot"]), f"<td>{_e(_rung(row))}</td>",
                      "<td>&ndash;</td>" if row["gap_below"] is None
                      else f"<td>{_e(_gap(row['gap_below']))}</td>",
                      _cell(row["points"], True), f"<td>{row['games']}</td>"]
                     for row in section["ladder"]])]
    parts.append("<h3>Points of the row's bot against the column's (both seat orders)</h3>")
    parts.append(_table(["", *order], [[_name(a)] + [_cell(section["matrix"]["points"][i][j], True)
                                                   for j in range(len(order))]
                                       for i, a in enumerate(order)]))
    parts.append("<h3>Each pairing</h3>")
    parts.append(_table(["seat 1 v seat 2", "games", "seat 1's points"],
                        [[_name(" v ".join(p["bots"])), f"<td>{p['games']}</td>",
                          _cell(p["first_player"], True)] for p in section["pairings"]]))
    parts.append('<div class="charts">')
    parts.append(charts.ladder(section))
    parts.append(charts.matrix(section, order))
    parts.append(charts.histograms(
        "Final scores", [(f"seat {s['seat']}", s["scores"]["histogram"])
                         for s in section["seats"]], "score"))
    parts.append("</div>")
    return parts


def _solitaire_html(section: JSON, charts: _Charts) -> list[str]:
    rows = []
    for row in section["bots"]:
        rows.append([_name(row["bot"]), f"<td>{row['games']}</td>",
                     _cell(row["scores"]["mean"]), _cell(row["won"], True)]
                    + [_cell(p["score"]) for p in row["par"]])
    parts = ["<h3>Par table</h3>",
             '<p class="note">A score at the 75th percentile beats three games in four of '
             "that bot; the strongest bot's row is the par to aim at.</p>",
             _table(["bot", "games", "mean score", "won"]
                    + [f"{p['percentile']}th percentile" for p in section["bots"][0]["par"]],
                    rows)]
    parts.append('<div class="charts">')
    parts.append(charts.histograms("Final scores", [(row["bot"], row["scores"]["histogram"])
                                                    for row in section["bots"]], "score"))
    parts.append("</div>")
    return parts


def _pieces_html(section: JSON, charts: _Charts) -> list[str]:
    if not section["pieces"]:
        return []
    rows = [[_name(p["piece"]), _cell(p["played"], True), _cell(p["turn"]),
             _cell(p["gain"]), _cell(p["points"], True), _cell(p["final_score"])]
            for p in section["pieces"]]
    return ["<h3>Pieces</h3>", '<div class="charts">', charts.pieces(section), "</div>",
            "<details><summary>every piece</summary>",
            _table(["piece", "played in (share of games)", "turn played",
                    "score gained by the move", "its player's points",
                    "its player's final score"], rows),
            "</details>"]


def _section_html(section: JSON, charts: _Charts, level: str = "h2") -> list[str]:
    parts = [f"<{level}>{_e(section_title(section))}: {section['games']} games</{level}>",
             _summary_table(section)]
    parts += (_two_player_html(section, charts) if section["players"] == 2
              else _solitaire_html(section, charts))
    parts.append('<div class="charts">')
    parts.append(charts.histograms("Game length", [("all games", section["length"]["histogram"])],
                                   "turns"))
    parts.append(charts.branching(section))
    parts.append("</div>")
    parts += _pieces_html(section, charts)
    return parts


def _comparison_html(document: JSON) -> list[str]:
    against = document["against"]
    rows = []
    for part in against["comparison"]:
        for metric in part["metrics"]:
            css = ' class="significant"' if metric["significant"] else ""
            rows.append(f"<tr{css}>" + "".join([
                _name(_part(part)), _name(metric["metric"]),
                f"<td>{metric['this']:g}</td>", f"<td>{metric['against']:g}</td>",
                f"<td>{_e(_show(metric['difference'], digits=3))}</td>",
                f"<td>{'yes' if metric['significant'] else 'no'}</td>"]) + "</tr>")
    head = "".join(f"<th>{_e(h)}</th>" for h in (
        "part", "figure", "this catalogue", "against", "difference (95 %)", "significant"))
    return [f"<h2>Against {_e(against['catalogue']['name'])} "
            f"({_e(against['catalogue']['source'])})</h2>",
            '<p class="note">Both catalogues played the same seeds; a difference is the mean '
            "of the per-game differences (against minus this one), significant when its 95 % "
            "t interval leaves out 0.</p>",
            f"<table><tr>{head}</tr>{''.join(rows)}</table>" if rows
            else f'<p class="note">Nothing compared: {_e(_nothing_compared(document))}.</p>']


def render_html(document: JSON) -> str:
    charts = _Charts()
    settings = document["settings"]
    catalogue = document["catalogue"]
    title = f"Analysis of {catalogue['name']} ({document['game']})"
    parts = [f"<h1>{_e(title)}</h1>",
             f'<p class="note">{_e(catalogue["source"])}: {settings["games"]} games per part, '
             f"seeds {settings['seed']} to {settings['seed'] + settings['games'] - 1}, bots "
             f"{_e(', '.join(settings['bots']))}. Intervals are 95 %: Wilson for shares, "
             "Student's t for means, the Bradley-Terry fit's curvature for ratings and "
             "their gaps, bootstrap for percentiles.</p>"]
    if not document["complete"]:
        parts.append('<p class="note"><strong>Incomplete:</strong> interrupted before every '
                     "game was played.</p>")
    for section in document["sections"]:
        parts += _section_html(section, charts)
    against = document["against"]
    if against is not None:
        parts += _comparison_html(document)
        for section in against["sections"]:
            parts += _section_html(section, charts, "h3")
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
        for number, (label, histogram) in enumerate(series):
            values = [v for v, _ in histogram]
            counts = [c for _, c in histogram]
            if not values:
                continue
            axes.hist(values, weights=counts, bins=_bins(values), histtype="step",
                      linewidth=1.6, label=label, color=self.COLOURS[number % len(self.COLOURS)])
        axes.set_title(title)
        axes.set_xlabel(xlabel)
        axes.set_ylabel("games")
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
        axes.set_xlabel(f"rating ({section['anchor']} = 0)")
        return self._svg(figure)

    def matrix(self, section: JSON, bots: Sequence[str]) -> str:
        figure = self._figure(4.4, 3.6)
        axes = figure.add_subplot()
        size = len(bots)
        points = section["matrix"]["points"]
        values = [[(cell["value"] if cell is not None else 0.5) for cell in row]
                  for row in points]
        image = axes.imshow(values, cmap="RdBu", vmin=0, vmax=1)
        for i in range(size):
            for j in range(size):
                cell = points[i][j]
                text = "–" if cell is None else f"{cell['value'] * 100:.0f} %"
                dark = cell is not None and abs(cell["value"] - 0.5) > 0.3
                axes.text(j, i, text, ha="center", va="center",
                          color="#ffffff" if dark else "#212529")
        axes.set_xticks(range(size), bots)
        axes.set_yticks(range(size), bots)
        axes.set_title("Points of row against column")
        figure.colorbar(image, ax=axes, shrink=0.8)
        return self._svg(figure)

    def branching(self, section: JSON) -> str:
        figure = self._figure()
        axes = figure.add_subplot()
        rows = [row for row in section["branching"]["by_turn"]
                if row[2] * 10 >= section["games"]]  # turns a tenth of the games reach
        axes.plot([r[0] for r in rows], [r[1] for r in rows], color=self.COLOURS[0])
        axes.set_title("Legal moves by turn (turns a tenth of the games reach)")
        axes.set_xlabel("turn")
        axes.set_ylabel("legal moves (mean)")
        return self._svg(figure)

    def pieces(self, section: JSON) -> str:
        rows = section["pieces"]
        figure = self._figure(max(self.WIDTH, 0.16 * len(rows) + 1.2), 4.4)
        top, bottom = figure.subplots(2, 1, sharex=True)
        names = [row["piece"] for row in rows]
        places = range(len(rows))
        # Alone, a player's points say little (a finished game may always count as won):
        # the final score of the games the piece was played in says more.
        second = (("points", "its player's points") if section["players"] > 1
                  else ("final_score", "final score when played"))
        for axes, (key, label) in ((top, ("played", "played in (share of games)")),
                                   (bottom, second)):
            values = [row[key]["value"] for row in rows]
            low = [row[key]["value"] - row[key]["low"] for row in rows]
            high = [row[key]["high"] - row[key]["value"] for row in rows]
            axes.bar(places, values, yerr=[low, high], color=self.COLOURS[0], alpha=0.8,
                     error_kw={"elinewidth": 0.7, "ecolor": "#495057"})
            axes.set_ylabel(label)
            if key != "final_score":
                axes.set_ylim(0, 1)
        bottom.set_xticks(list(places), names, rotation=90, fontsize=7)
        bottom.set_xlabel("piece")
        top.set_title("Each piece (95 % intervals)")
        return self._svg(figure)


def _bins(values: Sequence[float]) -> Any:
    """One bin per whole value when there are few, else about 30."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low <= 60:
        return [low - 0.5 + k for k in range(int(high - low) + 2)]
    return 30
