import sys

from micropul_print.cli import main

sys.exit(main())
