"""A font subset is made and compressed once per process (backends.pdf._KEPT_SUBSETS):
a book's A4 and Letter files embed the same subsets. What is kept must be exactly what
reportlab would have made, and a subset of other characters must not be taken for it."""

from __future__ import annotations

import io
import zlib
from typing import Any

import pytest
from reportlab.pdfbase import pdfdoc, ttfonts

from micropul_print.backends import pdf as backend
from micropul_print.draw.primitives import Drawing, Text


def _pdf(text: str) -> bytes:
    drawing = Drawing(40.0, 20.0, (Text(5.0, 10.0, text, 4.0, anchor="start"),))
    return backend.to_pdf(drawing, "subsets")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Calls of reportlab's own subsetting and compression, from a cleared store."""
    monkeypatch.setattr(backend, "_KEPT_SUBSETS", backend._KeptSubsets())
    calls = {"made": 0, "compressed": 0}
    make, compress = ttfonts.TTFontFile.makeSubset, pdfdoc.PDFStreamFilterZCompress.encode

    def counted_make(face: Any, subset: list[int]) -> bytes:
        calls["made"] += 1
        return bytes(make(face, subset))

    def counted_compress(flate: Any, content: bytes) -> bytes:
        calls["compressed"] += 1
        return bytes(compress(flate, content))

    monkeypatch.setattr(ttfonts.TTFontFile, "makeSubset", counted_make)
    monkeypatch.setattr(pdfdoc.PDFStreamFilterZCompress, "encode", counted_compress)
    return calls


def test_a_subset_drawn_twice_is_made_once_and_gives_the_same_bytes(
        counted: dict[str, int]) -> None:
    first = _pdf("Łódź 48")
    assert counted["made"] == 1
    assert _pdf("Łódź 48") == first
    assert counted["made"] == 1  # the second document's subset was kept


def test_a_subset_of_other_characters_is_made_anew(counted: dict[str, int]) -> None:
    first = _pdf("Łódź")
    second = _pdf("Żółw")
    # reportlab's subset holds all of ASCII, then the other letters in the order of
    # their first use: the two subsets differ.
    assert counted["made"] == 2
    assert first != second


def test_kept_subsets_give_reportlabs_own_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = backend._KeptSubsets()
    face = ttfonts.TTFontFile(str(backend._FONT_FILES["regular"]))
    subset = [0, *map(ord, "Złote pióro")]
    content = kept.make(face, subset)
    assert content == ttfonts.TTFontFile(str(backend._FONT_FILES["regular"])).makeSubset(subset)
    assert kept.make(face, list(subset)) is content
    assert zlib.decompress(kept.compress(content)) == content
    assert kept.compress(content) == zlib.compress(content)


def test_the_store_keeps_a_bounded_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend, "SUBSETS_KEPT", 3)
    kept = backend._KeptSubsets()
    for n in range(10):
        kept.compress(bytes([n]) * 100)
    assert len(kept.compressed) == 3
    assert list(kept.compressed) == [bytes([n]) * 100 for n in (7, 8, 9)]


def test_the_lent_filter_is_given_back(counted: dict[str, int]) -> None:
    flate = pdfdoc.PDFZCompress
    _pdf("x")
    assert pdfdoc.PDFZCompress is flate
    out = io.BytesIO(_pdf("y"))
    assert out.getvalue().startswith(b"%PDF")
