import sys

from micropul_print.launch import entry

sys.exit(entry())
