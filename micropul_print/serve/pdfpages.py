"""PDF pages as PNG pictures for the page: the kit's own PDFs, drawn by PDFium
(pypdfium2, the renderer of Chromium's PDF viewer), so the page shows exactly what
will print, at its true proportions. Pictures are kept by the file's content hash,
so an unchanged page is drawn once."""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from pathlib import Path

DPI = 80  # the page shows an A4 page 360 px wide: sharp on a high-density screen too
MM_PER_POINT = 25.4 / 72
MAX_PAGES = 500  # a kit's PDF has a few dozen pages at most
_CACHED = 256  # pictures kept

# PDFium is not thread-safe: one page is drawn at a time.
_LOCK = threading.Lock()
_pictures: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
_sizes: dict[tuple[str, str], list[tuple[float, float]]] = {}


def page_sizes(path: Path, version: str) -> list[tuple[float, float]]:
    """Each page's width and height in millimetres (at most MAX_PAGES pages)."""
    key = (str(path), version)
    with _LOCK:
        if key not in _sizes:
            import pypdfium2  # type: ignore[import-untyped]

            document = pypdfium2.PdfDocument(str(path))
            try:
                sizes = []
                for index in range(min(len(document), MAX_PAGES)):
                    page = document[index]
                    width, height = page.get_size()
                    sizes.append((round(width * MM_PER_POINT, 2),
                                  round(height * MM_PER_POINT, 2)))
                    page.close()
            finally:
                document.close()
            if len(_sizes) > _CACHED:
                _sizes.clear()
            _sizes[key] = sizes
        return _sizes[key]


def page_png(path: Path, version: str, index: int) -> bytes | None:
    """Page ``index`` (from 0) of the PDF at ``path`` as PNG, or None if it has none."""
    key = (str(path), version, index)
    with _LOCK:
        cached = _pictures.get(key)
        if cached is not None:
            _pictures.move_to_end(key)
            return cached
        import pypdfium2

        document = pypdfium2.PdfDocument(str(path))
        try:
            if not 0 <= index < min(len(document), MAX_PAGES):
                return None
            page = document[index]
            bitmap = page.render(scale=DPI / 72)
            picture = bitmap.to_pil()
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG", compress_level=1)
            page.close()
        finally:
            document.close()
        data = buffer.getvalue()
        _pictures[key] = data
        while len(_pictures) > _CACHED:
            _pictures.popitem(last=False)
        return data
