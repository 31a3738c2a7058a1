"""The books: what the room keeps in its database.

The double-entry chip ledger (:mod:`.ledger`), every hand stored (:mod:`.hands`), the
tables and their seats (:mod:`.seats`), the chat lines (:mod:`.chat`), private tables'
codes (:mod:`.invitations`), tournaments (:mod:`.tournaments`), the writes of a table
that lost its lease refused (:mod:`.fencing`), the crash recovery (:mod:`.recovery`),
the cards dealt read back for the fairness report (:mod:`.dealt`), and the one writer
thread every write goes through (:mod:`.writer`).
:class:`~.room.RoomBooks` is the tables' port (:mod:`stud8.server.table.books`) on the
database; :class:`~.memory.MemoryBooks` the same port in memory.
"""
