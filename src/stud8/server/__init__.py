"""The online room: storage, the chip ledger and (later) the ASGI server.

Needs the ``server`` extra (``pip install stud8[server]``). Only the command
line layer imports this package.
"""
