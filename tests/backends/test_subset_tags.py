"""Embedded font subsets are named by their content (backends.pdf.subset_tag): across
every PDF of a kit, two subsets share a tag only if they are the same subset, so a
print shop merging our PDFs gets no two different fonts of one name."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from micropul_print.backends.pdf import subset_tag


def _subsets(pdf: Path) -> dict[str, set[str]]:
    """Each embedded font's name ("ABCDEF+Lato-Bold") with the digests of its font
    files (a name used for two different subsets has two): every font descriptor of
    the file, those of the pages' forms too (a booklet's pages are forms)."""
    found: dict[str, set[str]] = {}
    reader = PdfReader(pdf)
    size: Any = reader.trailer["/Size"]
    for number in range(1, int(size)):
        try:
            item: Any = reader.get_object(number)
        except Exception:  # a free entry of the cross-reference table
            continue
        if isinstance(item, dict) and item.get("/Type") == "/FontDescriptor":
            name = str(item["/FontName"])[1:]
            data = item["/FontFile2"].get_object().get_data()
            found.setdefault(name, set()).add(hashlib.sha256(data).hexdigest())
    return found


@pytest.fixture(scope="module")
def kit_pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    from micropul_print.cli import main

    out = tmp_path_factory.mktemp("kit")
    assert main(["build", "--game", "all", "--paper", "a4", "--layout", "all", "--print-shop",
                 "--cut-files", "--booklet", "--lang", "en,de", "--only", "sheets,rulebooks",
                 "--no-config", "--out", str(out), "--quiet"]) == 0
    # A replay's PDF too: every kind of PDF the tool writes.
    record = out / "game.json"
    assert main(["play", "--bots", "random,random", "--record", str(record),
                 "--no-config"]) == 0
    assert main(["replay", str(record), "--out", str(out / "replay"), "--no-config"]) == 0
    return sorted(out.rglob("*.pdf"))


def test_subset_tags_differ_where_subsets_differ(kit_pdfs: list[Path]) -> None:
    assert len(kit_pdfs) > 10
    assert any("booklet" in pdf.name for pdf in kit_pdfs)
    assert any(pdf.name == "replay.pdf" for pdf in kit_pdfs)
    fonts: dict[str, set[str]] = {}
    for pdf in kit_pdfs:
        for name, digests in _subsets(pdf).items():
            fonts.setdefault(name, set()).update(digests)
    assert len(fonts) > 4
    clashes = {name: len(digests) for name, digests in fonts.items() if len(digests) > 1}
    assert clashes == {}
    assert not any(name.startswith("AAAAAA+") for name in fonts)


def test_subset_tag_is_six_capitals_of_the_subsets_content() -> None:
    tag = subset_tag(b"Lato-Bold", [0, 49, 50])
    assert len(tag) == 6 and tag.isalpha() and tag.isupper()
    assert subset_tag(b"Lato-Bold", [0, 49, 50]) == tag
    assert subset_tag(b"Lato-Bold", [0, 49, 51]) != tag
    assert subset_tag(b"Lato-Regular", [0, 49, 50]) != tag
