"""A table: its owner task, the only writer of its hand and its seats.

What other parts may import (the table's vocabulary): :mod:`.commands`, :mod:`.events`,
:mod:`.snapshot`, :mod:`.spec`, :mod:`.status` and :mod:`.books` (the port through which
a table writes to the world). The rest are its insides, used only by those that run
tables (``docs/architecture.md``, "The room: its parts").
"""
