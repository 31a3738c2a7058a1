"""The online room: accounts, tables, tournaments, the books and the ASGI app.

Needs the ``server`` extra (``pip install stud8[server]``). Only the command
line layer imports this package.
"""
