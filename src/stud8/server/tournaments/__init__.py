"""The room's tournaments: their owner tasks (the director in the room), their
tables, the lobby's views (see :mod:`stud8.server.tournaments.manager`)."""
