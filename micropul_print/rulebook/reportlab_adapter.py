"""Every use the rulebook makes of reportlab's private state, in one place.

platypus offers ``wrap``/``split``/``drawOn`` and the doc template's ``handle_*``
hooks; the layout's floating figures, headings that keep lines below them, words
never split across columns and layout passes that draw nothing need a little more:
where a frame's cursor is, whether it is at its top, how tall a KeepTogether really
is, how many lines a paragraph was broken into. Those are read here and nowhere else,
so that following a new reportlab release is one module: PRIVATE_NAMES lists each
private name by the class that holds it, and tests/rulebook/test_reportlab_adapter.py
checks each against the installed reportlab (and what the layout expects of it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfdoc import PDFArray
from reportlab.platypus import Flowable, Frame, KeepTogether, Paragraph

# The private names this module reads, writes or overrides, by the reportlab class
# that has them (the test walks this table).
PRIVATE_NAMES: dict[str, tuple[str, ...]] = {
    "platypus.frames.Frame": ("_atTop", "_aH", "_y", "_y1p", "_y2", "_getAvailableWidth",
                              "_add"),
    "platypus.flowables.KeepTogether": ("_H",),
    "platypus.paragraph.Paragraph": ("blPara", "_JustifyLast", "_wrapWidths", "_width_max",
                                     "_splitLongWordCount", "_hyphenations"),
    "platypus.tables.Table": ("_height",),
    "platypus.doctemplate.BaseDocTemplate": ("_doSave",),
    # set on a flowable by BaseDocTemplate.handle_flowable when it moved it on once
    "platypus.doctemplate.BaseDocTemplate.handle_flowable": ("_postponed",),
    "pdfgen.canvas.Canvas": ("_code", "_formData", "pop_state_stack", "_doc",
                             "_psCommandsBeforePage", "_preamble"),
}
# other_paper also formats a saved document again (PDFDocument.format) after setting
# its pages' Contents, MediaBox, pagewidth and pageheight: names without an underscore,
# but no documented API either. tests/rulebook/test_layout.py checks that what it
# gives is, byte for byte, what drawing on that paper gives.


# -- a frame's state ------------------------------------------------------------------------


def at_top(frame: Frame) -> bool:
    """Whether nothing has been placed in ``frame`` yet."""
    return bool(frame._atTop)


def room(frame: Frame) -> float:
    """The height (points) left between ``frame``'s cursor and its foot."""
    return float(frame._y - frame._y1p)


def cursor(frame: Frame) -> float:
    """The height (points from the page's foot) where the next flowable's box ends
    at the top: the foot of what was placed last."""
    return float(frame._y)


def filled(frame: Frame) -> float:
    """The height (points) filled in ``frame``, from its top."""
    return float(frame._y2 - frame._y)


def available(frame: Frame) -> tuple[float, float]:
    """The width and the (empty frame's) height ``frame`` gives its flowables."""
    return float(frame._getAvailableWidth()), float(frame._aH)


class PlacingFrame(Frame):  # type: ignore[misc]  # reportlab is untyped
    """A frame, without padding, whose ``placed`` hook hears where each flowable it
    takes would be drawn (x, y and the width it leaves, as ``drawOn`` takes them),
    and which draws nothing. A flowable with a ``top_inset`` that opens the frame is
    set that many points lower (:meth:`_add`)."""

    def __init__(self, x: float, y: float, width: float, height: float, id: str) -> None:
        super().__init__(x, y, width, height, leftPadding=0, rightPadding=0, topPadding=0,
                         bottomPadding=0, id=id)

    def placed(self, flowable: Flowable, canv: Any, x: float, y: float,
               space: float) -> None:
        """``flowable`` goes at (x, y) on the page ``canv`` lays out."""

    def _add(self, flowable: Flowable, canv: Any, trySplit: int = 0) -> int:
        where: list[tuple[float, float, float]] = []

        def record(canvas: Any, x: float, y: float, _sW: float = 0) -> None:
            where.append((x, y, _sW))

        # What opens a column is set with what it shows (a ruling's tint, a figure's
        # picture) at the column's top: its box that much lower (``top_inset``
        # points; less than 0 for room kept above it, which the top needs not).
        inset = float(getattr(flowable, "top_inset", 0.0)) if self._atTop else 0.0
        self._y -= inset
        flowable.drawOn = record  # reportlab's Frame._add draws through this
        try:
            added: int = super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn
            if not where:
                self._y += inset
        if added and where:
            self.placed(flowable, canv, *where[0])
        return added

    add = _add  # Frame binds its own _add to this name

    def __deepcopy__(self, memo: dict[int, Any]) -> PlacingFrame:
        # KeepTogether's wrap (flowables._listWrapOn) deep-copies the document's frame
        # at every wrap, to collect what wrapping generates in the copy; a frame holds
        # numbers, strings and tuples of them, which deepcopy walks one by one (a tenth
        # of a layout pass). A copy of the attributes is the same copy; anything
        # mutable (a list of generated content) is still copied deeply.
        copied: PlacingFrame = object.__new__(type(self))
        attributes = copied.__dict__
        attributes.update(self.__dict__)
        for name, value in attributes.items():
            if type(value) not in _IMMUTABLE and not (
                    type(value) is tuple and all(type(v) in _IMMUTABLE for v in value)):
                attributes[name] = copy.deepcopy(value, memo)
        return copied


# What a frame's attributes are, that a deep copy can share.
_IMMUTABLE = frozenset({int, float, str, bool, type(None)})


# -- flowables ------------------------------------------------------------------------------


def together_height(together: KeepTogether) -> float:
    """A KeepTogether's real height after ``wrap`` (its wrap answers a huge height
    when it is too tall, to force a split)."""
    return float(together._H)


def drawn_height(flowable: Flowable) -> float:
    """The height of a flowable just placed: a table's, or any other's."""
    return float(getattr(flowable, "_height", 0) or flowable.height)


def line_count(paragraph: Paragraph) -> int:
    """The lines of a wrapped (or split) paragraph."""
    return len(paragraph.blPara.lines)


def line_texts(paragraph: Paragraph) -> list[str]:
    """The text of each line of a wrapped paragraph (a broken word's head ends in its
    hyphen)."""
    texts = []
    for line in paragraph.blPara.lines:
        if isinstance(line, tuple):  # plain text: (extra space, words)
            texts.append(" ".join(line[1]))
        else:  # with markup: a FragLine of fragments
            texts.append("".join(getattr(word, "text", "") for word in line.words))
    return texts


# What Paragraph.wrap leaves on a paragraph (breakLines' own counters included).
_WRAP_STATE = ("width", "height", "blPara", "_wrapWidths", "_width_max",
               "_splitLongWordCount", "_hyphenations")


def wrap_state(paragraph: Paragraph) -> dict[str, Any] | None:
    """What ``paragraph``'s last wrap left on it (its lines copied), to give another
    paragraph of the same text, style and width (:func:`restore_wrap_state`); None if
    it broke no lines (too narrow a column)."""
    if "blPara" not in paragraph.__dict__:
        return None
    state = {name: paragraph.__dict__[name] for name in _WRAP_STATE
             if name in paragraph.__dict__}
    state["blPara"] = _copy_lines(state["blPara"])
    return state


def restore_wrap_state(paragraph: Paragraph, state: dict[str, Any]) -> None:
    """``paragraph`` as if wrapped as the one :func:`wrap_state` was taken from. Its
    lines are shared with ``state`` until :func:`own_lines` gives it its own copy:
    most paragraphs of a layout are never split, and copying every paragraph's lines
    at every layout try took a tenth of the try."""
    paragraph.__dict__.update(state)
    paragraph.__dict__["_shared_lines"] = state["blPara"]


def own_lines(paragraph: Paragraph) -> None:
    """Give ``paragraph`` its own copy of lines it shares (:func:`restore_wrap_state`)
    before reportlab's split changes them: it adds a space to a word of the lines it
    splits, or changes the class of the last one."""
    shared = paragraph.__dict__.pop("_shared_lines", None)
    if shared is not None and paragraph.__dict__.get("blPara") is shared:
        paragraph.blPara = _copy_lines(shared)


# What Paragraph.__init__ leaves on a paragraph (its parse).
_PARSE_STATE = ("caseSensitive", "encoding", "text", "frags", "style", "bulletText", "debug")


def parse_state(paragraph: Paragraph, style: ParagraphStyle) -> dict[str, Any]:
    """What parsing left on ``paragraph`` (made with ``style``), to give another
    paragraph of the same text and style (:func:`restore_parse_state`)."""
    state = {name: paragraph.__dict__[name] for name in _PARSE_STATE}
    state["frags"] = [_copy_word(frag) for frag in state["frags"]]
    if state["style"] is style:  # not a style of the text's own: the new paragraph's
        del state["style"]
    return state


def restore_parse_state(paragraph: Paragraph, state: dict[str, Any],
                        style: ParagraphStyle) -> None:
    """``paragraph`` as if made with ``style`` from the text :func:`parse_state` was
    taken from. Its fragments are shared with ``state`` until :func:`own_fragments`
    gives it its own copy: a paragraph whose lines come from the cache too never
    reads them (copying them at every layout try took a twentieth of the try)."""
    paragraph.__dict__.update(state)
    paragraph.__dict__["_shared_frags"] = state["frags"]
    if "style" not in state:
        paragraph.style = style


def own_fragments(paragraph: Paragraph) -> None:
    """Give ``paragraph`` its own copy of fragments it shares
    (:func:`restore_parse_state`) before reportlab breaks them into lines or splits
    them: both may change fragments."""
    shared = paragraph.__dict__.pop("_shared_frags", None)
    if shared is not None and paragraph.__dict__.get("frags") is shared:
        paragraph.frags = [_copy_word(frag) for frag in shared]


def _copy_lines(lines: Any) -> Any:
    """A copy of a paragraph's broken lines (``blPara``) that no split of another
    copy changes: reportlab's split adds a space to a word of the lines it splits."""
    copied = copy.copy(lines)
    copied.lines = [(line[0], list(line[1])) if isinstance(line, tuple)
                    else _copy_frag_line(line) for line in lines.lines]
    return copied


def _copy_frag_line(line: Any) -> Any:
    copied = _copy_word(line)
    copied.words = [_copy_word(word) for word in line.words]
    return copied


def _copy_word(word: Any) -> Any:
    """A shallow copy of a fragment or line (an attribute bag, or a list of them)."""
    if isinstance(word, list):
        return copy.copy(word)
    copied = object.__new__(type(word))
    copied.__dict__.update(word.__dict__)
    return copied


def justify_last_line(paragraph: Paragraph) -> None:
    """Set the paragraph's last line justified, as the lines above it (a paragraph
    cut in two: that line is not the real last one)."""
    paragraph._JustifyLast = 1


def forget_postponed(flowable: Flowable) -> None:
    """Forget that the doc template moved ``flowable`` on once already: it gives up
    on one that fails again (raises LayoutError), which a float waiting in between
    makes wrong."""
    if getattr(flowable, "_postponed", False):
        del flowable._postponed


def was_postponed(flowable: Flowable) -> bool:
    return bool(getattr(flowable, "_postponed", False))


# -- documents and canvases ------------------------------------------------------------------


def without_saving(document: Any) -> None:
    """Make ``document``'s build a layout pass: no PDF is written at its end."""
    document._doSave = 0


def drop_open_form(canvas: Any) -> None:
    """Forget the form ``canvas`` has begun and not ended (nothing drawn in it), as
    if it had never been begun: endForm would write it into the PDF."""
    canvas._code = []
    canvas._formData = None
    canvas.pop_state_stack()


# -- one drawing, several papers ---------------------------------------------------------------


@dataclass(frozen=True)
class Patch:
    """Operators of a page that depend on its paper: where they start in the page's
    content stream (characters from its start) and what they read."""

    at: int
    text: str


def centring_line(dx: float, dy: float) -> str:
    """The operator Canvas.translate(dx, dy) writes on a fresh line."""
    return f"{fp_str(1, 0, 0, 1, dx, dy)} cm"


def stream_offset(canvas: Any, index: int | None = None) -> int:
    """Where the line ``index`` of the current page's operators (None: the next line
    written) will start in the page's content stream (Canvas.showPage joins them by
    lines after its preamble)."""
    lines = [*canvas._psCommandsBeforePage, canvas._preamble, *canvas._code[:index]]
    return len("\n".join(lines)) + 1


def operators_of(canvas: Any, paint: Callable[[], None]) -> str:
    """The operators ``paint`` writes on ``canvas``'s page, as the page's stream would
    hold them, taken back out of the page (``paint`` must leave the graphics state
    as it found it)."""
    code = canvas._code
    start = len(code)
    paint()
    text = "\n".join(code[start:])
    del code[start:]
    return text


def centre_page(canvas: Any, dx: float, dy: float) -> Patch:
    """Move the origin of ``canvas``'s page by (dx, dy) points, in an operator of its
    own (no later transform is folded into it), returned with its place in the page's
    content stream: other_paper changes it for another paper."""
    code = canvas._code
    canvas.translate(dx, dy)
    if code[-1] != centring_line(dx, dy):
        raise AssertionError("the centring was folded into an earlier transform")
    # Canvas.transform folds a transform into the line before it when that line is
    # one: an empty line between keeps the centring alone on its line.
    code.append("")
    return Patch(stream_offset(canvas, len(code) - 2), code[-2])


def other_paper(canvas: Any, patches: list[Patch], paper: tuple[float, float],
                texts: list[str]) -> tuple[bytes, list[Patch]]:
    """The document ``canvas`` has saved, formatted again on ``paper`` (points): each
    page that size, its patch (the operators that depend on the paper) read as its
    text of ``texts`` instead; and where the patches now are. The same bytes as
    drawing the pages anew on that paper, for a fraction of the time (only the pages'
    streams are compressed again)."""
    document = canvas._doc
    pages = document.Pages.pages
    if len(pages) != len(patches):
        raise AssertionError("a page was drawn without its patch")
    moved = []
    for page, patch, text in zip(pages, patches, texts, strict=True):
        stream = page.Contents.content
        end = patch.at + len(patch.text)
        if stream[patch.at:end] != patch.text:
            raise AssertionError("a page's patch is not where it was written")
        page.Contents.content = stream[:patch.at] + text + stream[end:]
        moved.append(Patch(patch.at, text))
        page.pagewidth, page.pageheight = paper
        page.MediaBox = PDFArray([0, 0, paper[0], paper[1]])
    return bytes(document.format()), moved
