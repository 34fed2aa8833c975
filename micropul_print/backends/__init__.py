"""Thin emitters of micropul_print.draw.primitives.Drawing: SVG (the standard library's
ElementTree, text as Lato outlines), PDF (reportlab) and PNG (Pillow). Each paints
exactly the primitives it is given, in order, so the three outputs show the same
picture. Import the one you need: each loads its own library."""
