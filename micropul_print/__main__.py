import sys

from micropul_print.cli import entry

sys.exit(entry())
