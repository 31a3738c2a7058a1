"""Accounts: sign-up and log-in, passwords hashed with argon2id, sessions and their
tokens, bans, and the operators' role (:mod:`.accounts`, :mod:`.auth`,
:mod:`.passwords`, :mod:`.database`: the accounts kept in the room's database)."""
