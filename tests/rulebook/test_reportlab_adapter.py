"""The reportlab privates the rulebook relies on, each named, against the installed
reportlab: a release that renames or changes one fails here first (and the pin in
pyproject.toml is widened only after these pass)."""

from __future__ import annotations

import copy
import importlib
import inspect
import io
import re
from pathlib import Path
from typing import Any

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
)

from micropul_print.backends.pdf import PageCanvas
from micropul_print.rulebook import reportlab_adapter as private
from micropul_print.rulebook.flowables import CachedParagraph, WrapCache


def _frame() -> Frame:
    return Frame(0, 0, 200, 300, leftPadding=0, rightPadding=0, topPadding=0,
                 bottomPadding=0)


def _canvas() -> PageCanvas:
    return PageCanvas(io.BytesIO(), pagesize=(200, 300))


def _wrapped_paragraph() -> Paragraph:
    paragraph = Paragraph("one two three four five six seven", ParagraphStyle("p"))
    paragraph.wrap(60, 1000)
    return paragraph


def _table() -> Table:
    table = Table([["a"]])
    table.wrap(100, 100)
    return table


def _kept() -> KeepTogether:
    together = KeepTogether([Spacer(10, 50), Spacer(10, 20)])
    together.wrapOn(_canvas(), 200, 60)
    return together


@pytest.mark.parametrize("holder", private.PRIVATE_NAMES)
def test_every_private_named_is_used_by_the_installed_reportlab(holder: str) -> None:
    """Each name in the source of the module that holds it (an attribute read or
    set, a method defined): one renamed or dropped there fails here, by name."""
    *module_path, name_of_class = holder.split(".")[:3] if holder.count(".") > 2 \
        else holder.split(".")
    module = importlib.import_module("reportlab." + ".".join(module_path))
    source = inspect.getsource(module)
    assert hasattr(module, name_of_class), holder
    for name in private.PRIVATE_NAMES[holder]:
        assert re.search(rf"(\.|def |['\"]){name}\b", source), \
            f"reportlab.{holder} no longer uses {name}"


def test_a_frame_reports_its_room_cursor_and_fill() -> None:
    canvas, frame = _canvas(), _frame()
    assert private.at_top(frame) and private.room(frame) == 300
    assert private.available(frame) == (200, 300)
    assert frame.add(Spacer(10, 50), canvas)
    assert not private.at_top(frame)
    assert (private.room(frame), private.cursor(frame), private.filled(frame)) == (250, 250, 50)
    assert private.available(frame) == (200, 300)  # the empty frame's height


def test_a_placing_frame_hears_where_each_flowable_goes_and_draws_nothing() -> None:
    heard: list[tuple[Flowable, float, float, float]] = []

    class Listening(private.PlacingFrame):
        def placed(self, flowable: Flowable, canv: Any, x: float, y: float,
                   space: float) -> None:
            heard.append((flowable, x, y, space))

    frame = Listening(10, 20, 200, 300, "column-0")
    spacer = Spacer(120, 50)
    canvas = _canvas()
    assert frame.add(spacer, canvas)
    assert heard == [(spacer, 10, 270, 80)]
    assert b"".join(c.encode() for c in canvas._code) == b""  # nothing drawn
    assert not frame.add(Spacer(10, 400), canvas, trySplit=1)  # too tall: not placed
    assert len(heard) == 1


def test_a_keep_together_tells_its_real_height() -> None:
    together = _kept()
    assert private.together_height(together) == 70


def test_heights_of_tables_and_other_flowables() -> None:
    table = _table()
    assert private.drawn_height(table) == table._height > 0
    spacer = Spacer(10, 12)
    spacer.wrap(100, 100)
    assert private.drawn_height(spacer) == 12


def test_a_paragraph_counts_its_lines_and_justifies_its_last_one_on_request() -> None:
    paragraph = _wrapped_paragraph()
    assert private.line_count(paragraph) == len(paragraph.blPara.lines) > 1
    private.justify_last_line(paragraph)
    assert paragraph._JustifyLast == 1


def test_a_postponed_flowable_is_recognised_and_forgotten() -> None:
    spacer = Spacer(1, 1)
    assert not private.was_postponed(spacer)
    private.forget_postponed(spacer)  # nothing to forget: no error
    spacer._postponed = 1  # as BaseDocTemplate.handle_flowable marks it
    assert private.was_postponed(spacer)
    private.forget_postponed(spacer)
    assert not private.was_postponed(spacer)


def test_a_document_built_without_saving_writes_nothing() -> None:
    target = io.BytesIO()
    document = BaseDocTemplate(target, pagesize=(200, 300))
    document.addPageTemplates([PageTemplate("p", [_frame()])])
    private.without_saving(document)
    document.build([Spacer(10, 10)])
    assert target.getvalue() == b""


def test_an_open_form_is_dropped_unwritten() -> None:
    target = io.BytesIO()
    canvas = Canvas(target, invariant=1)
    canvas.beginForm("Kept")
    canvas.rect(0, 0, 10, 10)
    canvas.endForm()
    canvas.beginForm("Dropped")
    private.drop_open_form(canvas)
    canvas.doForm("Kept")
    canvas.showPage()
    canvas.save()
    pdf = target.getvalue()
    assert b"/FormXob.Kept" in pdf or b"Kept" in pdf
    assert b"Dropped" not in pdf


def test_no_other_module_touches_a_reportlab_private() -> None:
    """The adapter is the one place: no other module of the package reads, writes or
    overrides a name of PRIVATE_NAMES."""
    package = Path(private.__file__).parent.parent
    names = {name for names in private.PRIVATE_NAMES.values() for name in names}
    pattern = re.compile(rf"(\.|def )({'|'.join(map(re.escape, names))})\b")
    found = [f"{path.relative_to(package)}:{number}: {line.strip()}"
             for path in sorted(package.rglob("*.py")) if path != Path(private.__file__)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []


def test_a_wrap_given_to_another_paragraph_is_the_same_and_its_own() -> None:
    """What a wrap leaves on a paragraph is all in the state taken (a reportlab that
    keeps more fails here), and a paragraph given that state has the lines a wrap of
    its own gives, in a copy of its own."""
    style = ParagraphStyle("p", alignment=4)
    text = "one <b>two</b> three four five six seven eight nine ten eleven twelve"
    first = Paragraph(text, style)
    before = set(first.__dict__)
    first.wrap(60, 1000)
    assert set(first.__dict__) - before <= set(private._WRAP_STATE)
    state = private.wrap_state(first)
    assert state is not None
    second, third = Paragraph(text, style), Paragraph(text, style)
    private.restore_wrap_state(second, state)
    third.wrap(60, 1000)
    assert private.line_texts(second) == private.line_texts(third) == private.line_texts(first)
    assert (second.width, second.height) == (third.width, third.height)
    # The lines shared until it needs its own, its own lines and words then:
    # reportlab's split may add a space to a word.
    assert second.blPara is state["blPara"]
    private.own_lines(second)
    assert second.blPara is not state["blPara"]
    assert second.blPara.lines[0].words[0] is not state["blPara"].lines[0].words[0]
    assert private.line_texts(second) == private.line_texts(first)
    assert private.wrap_state(Paragraph(text, style)) is None  # never wrapped


def test_a_deep_copy_of_a_placing_frame_has_its_state_and_its_own_generated_content() -> None:
    frame = private.PlacingFrame(10, 20, 200, 300, id="col-0")
    frame._y -= 40  # something placed
    frame.add_generated_content(Spacer(1, 1))
    copied = copy.deepcopy(frame)
    assert type(copied) is private.PlacingFrame
    assert {k: v for k, v in vars(copied).items() if k != "_generated_content"} == {
        k: v for k, v in vars(frame).items() if k != "_generated_content"}
    assert private.room(copied) == private.room(frame) == 260
    assert copied._generated_content is not frame._generated_content
    assert len(copied._generated_content) == 1


def test_splitting_a_paragraph_whose_lines_came_from_the_cache_leaves_the_cache_as_it_was(
        ) -> None:
    wraps = WrapCache()
    style = ParagraphStyle("p", alignment=4, leading=12)
    text = "one <b>two</b> three four five six seven eight nine ten eleven twelve"
    first = CachedParagraph(text, style, wraps=wraps)
    first.wrap(60, 1000)
    second = CachedParagraph(text, style, wraps=wraps)
    second.wrap(60, 1000)  # lines from the cache
    (cached,) = wraps.lines.values()
    words_before = [[getattr(w, "text", w) for w in line.words]
                    for line in cached["blPara"].lines]
    assert len(second.split(60, 30)) == 2
    assert [[getattr(w, "text", w) for w in line.words]
            for line in cached["blPara"].lines] == words_before
    third = CachedParagraph(text, style, wraps=wraps)
    third.wrap(60, 1000)
    assert private.line_texts(third) == private.line_texts(first)


def test_a_parse_given_to_another_paragraph_is_shared_until_it_needs_its_own() -> None:
    style = ParagraphStyle("p", alignment=4)
    text = "one <b>two</b> three <i>four</i> five six seven eight nine ten"
    first = Paragraph(text, style)
    state = private.parse_state(first, style)
    second = Paragraph("", style)
    private.restore_parse_state(second, state, style)
    assert second.frags is state["frags"] and second.style is style
    private.own_fragments(second)
    assert second.frags is not state["frags"]
    assert second.frags[0] is not state["frags"][0]
    assert [f.text for f in second.frags] == [f.text for f in first.frags]
    second.wrap(60, 1000)
    first.wrap(60, 1000)
    assert private.line_texts(second) == private.line_texts(first)


def test_breaking_a_paragraph_whose_parse_came_from_the_cache_leaves_the_cache_as_it_was(
        ) -> None:
    wraps = WrapCache()
    style = ParagraphStyle("p", alignment=4, leading=12)
    text = "one <b>two</b> three four five six seven eight nine ten eleven twelve"
    CachedParagraph(text, style, wraps=wraps)
    (parsed,) = wraps.parsed.values()
    before = [dict(vars(frag)) for frag in parsed["frags"]]
    for width in (60, 45, 30):  # each width broken anew, from the cached parse
        paragraph = CachedParagraph(text, style, wraps=wraps)
        paragraph.wrap(width, 1000)
        paragraph.split(width, 30)
    assert [dict(vars(frag)) for frag in parsed["frags"]] == before
