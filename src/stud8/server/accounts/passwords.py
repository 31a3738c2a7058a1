"""Which passwords a room refuses: too short or too long, blank, one character over
and over, the account's own name, or a common password.

The common passwords are Django's list (``common-passwords.txt.gz``, shipped in this
package: the 20,000 passwords most often found in breaches, compiled by Royce
Williams, lowercased; the list Django's ``CommonPasswordValidator`` uses), matched in
any case. A password is refused with the reason, never with the list's rank.

>>> password_problem("Password", name="ann")
'that password is one of the most common ones: choose another'
>>> password_problem("ann_the_man", name="ANN_THE_MAN")
'a password may not be the name'
>>> password_problem(" " * 8)
'a password may not be blank or one character repeated'
>>> password_problem("Tr1cky-Ostrich-7", name="ann") is None
True
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

from stud8.server.wire.limits import PASSWORD_CHARS

__all__ = ["COMMON_PASSWORDS", "common_passwords", "password_problem"]

COMMON_PASSWORDS = Path(__file__).with_name("common-passwords.txt.gz")
MIN_PASSWORD, MAX_PASSWORD = PASSWORD_CHARS


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common passwords, lowercased (read once)."""
    with gzip.open(COMMON_PASSWORDS, "rt", encoding="utf-8") as f:
        return frozenset(line.strip() for line in f if line.strip())


def password_problem(password: object, name: str | None = None) -> str | None:
    """Why ``password`` is refused (for an account named ``name``), or None."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    if len(set(password.strip())) <= 1:
        return "a password may not be blank or one character repeated"
    folded = password.strip().casefold()
    if name is not None and folded == name.strip().casefold():
        return "a password may not be the name"
    if folded in common_passwords():
        return "that password is one of the most common ones: choose another"
    return None
