"""The Alembic environment of the room's database (run by :func:`stud8.server.storage.upgrade`)."""
