"""Other sites' dates, read in each site's own form and zone and said as PokerStars
says them (:func:`stud8.formats.pokerstars.header_date`): ET, after the local time
when the site gives one in a zone of its own.

The forms (one real file of each in ../shared/hh/other-sites/, beside the repository):

- Absolute ``2009-03-18 19:10:00 (ET)``; Full Tilt ``01:12:00 ET 2011/03/28`` (or
  ``20:33 ET - Monday, March 28, 2011``); PartyPoker ``Monday, August 30,
  20:20:17 EEST 2010``: the zone they write.
- OnGame ``Sat Aug 28 20:33:38 GMT+0300 2010``: an offset from GMT; the local zone is
  the PokerStars zone whose offset it was that day, if exactly one has it.
- Bovada and KingsClub ``2021-01-02 15:52:36``, Merge ``20110908220212``, Winning's
  old client ``2016/8/2 11:13:2``: no zone written; ET, as fpdb reads them (Winning:
  fpdb's default import zone, America/New_York).
- iPoker ``2014-05-10 18:02:19`` (or ``10/05/2014 18:02:19``, ``10.05.2014 ...``,
  day first): no zone written; UTC, as fpdb reads it.

A zone's summer name (EEST, CEST, EDT, PDT...) says its offset; the local zone is
then written by the name PokerStars gives it all year (EET, CET, ET, PT), as
PokerStars does.

>>> pokerstars_date("2009-03-18 19:10:00 (ET)")
'2009/03/18 19:10:00 ET'
>>> pokerstars_date("Monday, August 30, 20:20:17 EEST 2010")
'2010/08/30 20:20:17 EET [2010/08/30 13:20:17 ET]'
>>> pokerstars_date("Sat Aug 28 20:33:38 GMT+0300 2010")
'2010/08/28 20:33:38 EET [2010/08/28 13:33:38 ET]'
>>> pokerstars_date("10/05/2014 18:02:19", zone="UTC", day_first=True)
'2014/05/10 18:02:19 UTC [2014/05/10 14:02:19 ET]'
>>> pokerstars_date("no date here")
''
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from stud8.formats.pokerstars import ZONES, header_date

__all__ = ["pokerstars_date"]

#: A zone's names as sites write them: (the name PokerStars gives it, its offset
#: in hours when the name says it, else None: the zone's own rules that day).
_NAMES: dict[str, tuple[str, float | None]] = {
    "ET": ("ET", None),
    "EST": ("ET", -5),
    "EDT": ("ET", -4),
    "CT": ("CT", None),
    "CST": ("CT", -6),
    "CDT": ("CT", -5),
    "MT": ("MT", None),
    "MST": ("MT", -7),
    "MDT": ("MT", -6),
    "PT": ("PT", None),
    "PST": ("PT", -8),
    "PDT": ("PT", -7),
    "AKT": ("AKT", None),
    "HT": ("HT", None),
    "HST": ("HT", -10),
    "BRT": ("BRT", None),
    "ART": ("ART", None),
    "WET": ("WET", None),
    "WEST": ("WET", 1),
    "BST": ("WET", 1),
    "CET": ("CET", None),
    "CEST": ("CET", 2),
    "MEZ": ("CET", None),
    "MESZ": ("CET", 2),
    "EET": ("EET", None),
    "EEST": ("EET", 3),
    "MSK": ("MSK", None),
    "UTC": ("UTC", 0),
    "GMT": ("UTC", 0),
}
_MONTHS = {
    m: n
    for n, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_OFFSET = re.compile(r"\b(?:GMT|UTC)\s*([+-])(\d{1,2}):?(\d\d)?\b")
_ZONE = re.compile(r"\b(" + "|".join(sorted(_NAMES, key=len, reverse=True)) + r")\b")
_TIME = re.compile(r"(?<![\d.])(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?(?![\d])")
_YMD = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
_DMY = re.compile(r"\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b")
_COMPACT = re.compile(r"^\s*(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)")
_NAMED = re.compile(r"\b([A-Z][a-z]{2,8})\.?\s+(\d{1,2})\b(?!:)")
_YEAR = re.compile(r"(?<![\d:/.-])(\d{4})(?![\d:/.-])")


def _zone_info(name: str) -> tzinfo | None:
    if name == "UTC":
        return UTC
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(ZONES[name])
    except (ImportError, KeyError, OSError, ValueError):
        return None


def _named_at(offset: timedelta, moment: datetime) -> str:
    """The one PokerStars zone whose offset at ``moment`` is ``offset`` ('' if none
    or several have it)."""
    if offset == timedelta(0):
        return "UTC"
    names = []
    for name in ZONES:
        zone = _zone_info(name) if name not in ("UTC", "GMT") else None
        if zone is not None and moment.astimezone(zone).utcoffset() == offset:
            names.append(name)
    return names[0] if len(names) == 1 else ""


def _wall_clock(text: str, day_first: bool) -> datetime | None:
    compact = _COMPACT.match(text)
    if compact:
        y, mo, d, h, mi, s = (int(x) for x in compact.groups())
        return _made(y, mo, d, h, mi, s)
    time = _TIME.search(text)
    if time is None:
        return None
    h, mi, s = int(time.group(1)), int(time.group(2)), int(time.group(3) or 0)
    rest = text[: time.start()] + " " + text[time.end() :]
    rest = _OFFSET.sub(" ", rest)
    ymd = _YMD.search(rest)
    dmy = _DMY.search(rest)
    if ymd:
        y, mo, d = (int(x) for x in ymd.groups())
    elif dmy:
        a, b, y = (int(x) for x in dmy.groups())
        d, mo = (a, b) if day_first else (b, a)
    else:
        named = next((m for m in _NAMED.finditer(rest) if m.group(1)[:3].lower() in _MONTHS), None)
        year = _YEAR.search(rest)
        if named is None or year is None:
            return None
        mo, d, y = _MONTHS[named.group(1)[:3].lower()], int(named.group(2)), int(year.group(1))
    return _made(y, mo, d, h, mi, s)


def _made(y: int, mo: int, d: int, h: int, mi: int, s: int) -> datetime | None:
    try:
        return datetime(y, mo, d, h, mi, s)
    except ValueError:
        return None


def pokerstars_date(text: str, *, zone: str = "ET", day_first: bool = False) -> str:
    """The site's date ``text`` as a PokerStars header says it ('' when it cannot
    be read): in the zone it names, else in ``zone`` (the site's, where it writes
    none); ``day_first`` for a site that writes ``10/05/2014`` for the 10th of May."""
    local = _wall_clock(text, day_first)
    if local is None:
        return ""
    offset = _OFFSET.search(text)
    if offset is not None:
        sign = -1 if offset.group(1) == "-" else 1
        delta = sign * timedelta(hours=int(offset.group(2)), minutes=int(offset.group(3) or 0))
        try:
            moment = local.replace(tzinfo=timezone(delta))
        except ValueError:
            return ""
        name = _named_at(delta, moment)
        return header_date(moment.astimezone(UTC), "" if name == "ET" else name)
    named = _ZONE.search(text)
    family, hours = _NAMES[named.group(1) if named else zone]
    if hours is not None:
        moment = local.replace(tzinfo=timezone(timedelta(hours=hours)))
    else:
        where = _zone_info(family)
        if where is None:  # no zone data on this machine: the time as UTC
            where = UTC
        moment = local.replace(tzinfo=where)
    return header_date(moment.astimezone(UTC), "" if family == "ET" else family)
