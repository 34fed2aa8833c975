"""What kind of thing a file mode is, in the words every message uses: one function
for the inputs' reader (base.yamlsource), the outputs' checks (kit.outputs) and a
sweep's folder (commands.analyse), so that a pipe is called a pipe everywhere."""

from __future__ import annotations

import stat


def kind_of_mode(mode: int) -> str:
    """What a file of ``mode`` (``os.stat(...).st_mode``) is, with its article: a
    file, a directory, a pipe, a socket or a device."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"  # character or block: reading one may never end
