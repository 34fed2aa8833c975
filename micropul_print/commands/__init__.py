"""One module per command-line command (see micropul_print.cli)."""
