"""The throwaway room's directory (``stud8 serve --memory``): made at the start,
deleted at exit, and swept at the next start if its process was killed.

The directory is ``stud8-room-<pid>-<random>`` in the temporary directory
(``TMPDIR``): its owner's process id is in its name. A process killed with SIGKILL
(or by the OOM killer, or a power cut) deletes nothing; the next throwaway room
started on the machine deletes every such directory whose process is gone, and only
those: a directory of a live process (another throwaway room running) is left, and
so is one whose contents are not a room's database (a file the room never makes).
A process id reused since by another process keeps its dead room's directory until
that process ends too (never a live room's deleted).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PREFIX", "sweep_stale", "throwaway_directory"]

PREFIX = "stud8-room-"
_NAME = re.compile(re.escape(PREFIX) + r"(\d+)-[A-Za-z0-9_]+")
# what a throwaway room leaves in its directory: SQLite's database, log and journal
_ROOM_FILES = re.compile(r"room\.db(-wal|-shm|-journal|\.lock)?")  # .lock: its hold

log = logging.getLogger("stud8.server")


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's too)."""
    if pid <= 0:
        return True  # not a process id we could have written: never ours to delete
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, another user's
    except OSError:
        return True  # cannot tell: keep it
    return True


def sweep_stale(parent: Path) -> list[Path]:
    """Delete the throwaway rooms' directories in ``parent`` whose process is gone
    (see the module); the ones deleted."""
    if os.name != "posix":  # os.kill(pid, 0) tells whether it lives only on POSIX
        return []
    swept: list[Path] = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return swept
    for entry in entries:
        found = _NAME.fullmatch(entry.name)
        if found is None or entry.is_symlink() or not entry.is_dir():
            continue
        pid = int(found[1])
        if pid == os.getpid() or _alive(pid):
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue  # another user's
            if not all(_ROOM_FILES.fullmatch(f.name) for f in entry.iterdir()):
                continue  # not only a room's database: not ours to judge
            shutil.rmtree(entry)
        except OSError as exc:
            log.warning("could not delete the dead throwaway room %s: %s", entry, exc)
            continue
        swept.append(entry)
    return swept


@contextlib.contextmanager
def throwaway_directory(parent: Path | None = None) -> Iterator[Path]:
    """A new directory for a throwaway room (in ``parent``, default the temporary
    directory), deleted at exit, after those of dead processes (see the module)."""
    where = Path(parent if parent is not None else tempfile.gettempdir())
    for stale in sweep_stale(where):
        log.warning("deleted %s: its throwaway room's process is gone", stale)
    with tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-", dir=where) as made:
        yield Path(made)
