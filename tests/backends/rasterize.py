"""PDF pages as Pillow images, through pypdfium2 (a self-contained wheel)."""

from __future__ import annotations

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image


def pdf_page_image(pdf: bytes, dpi: int, page: int = 0) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        image: Image.Image = document[page].render(scale=dpi / 72).to_pil()
        return image.convert("RGB")
    finally:
        document.close()
