"""micropul-print: print-and-play kit generator and rules engine for Micropul."""

__version__ = "0.1.0"
