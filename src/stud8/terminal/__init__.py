"""The pieces of the terminal table (``stud8 play``, in :mod:`stud8.play`).

:mod:`~stud8.terminal.render` says what happens at the table in plain text (ANSI colour
only when asked); :mod:`~stud8.terminal.commands` reads what the player types.
"""
