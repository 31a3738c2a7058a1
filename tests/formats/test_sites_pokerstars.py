"""Every other site's hand we read, written as PokerStars text, is what a tracker
imports: a table name (Absolute names none: ``Hand N``), the site's date in ET (with
the local zone where the site gives one), and fpdb-3's PokerStars importer accepts
every hand with our pot, rake and collected totals (tests/formats/trackercheck.py).
The samples: the real files of ../shared/hh/other-sites/ and
../shared/hh/fpdb-regression/, and the structures of tests/data/hh/fpdb-regex-samples/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sharedhh import FPDB_REGRESSION, NEEDED, OTHER_SITES, files_in
from stud8.cli import main
from stud8.formats.pokerstars import header_date, read_header_date
from stud8.formats.pokerstars.write import HAND_SEPARATOR, to_pokerstars
from stud8.formats.record import HandRecord
from stud8.terminal.hh import load_records
from trackercheck import fpdb_check, totals_are_ours

OURS = Path(__file__).resolve().parents[1] / "data" / "hh" / "fpdb-regex-samples"
SAMPLES = [
    p
    for p in [*files_in(OTHER_SITES), *files_in(FPDB_REGRESSION), *sorted(OURS.glob("*"))]
    if p.suffix in (".txt", ".xml")
]
HEADER = re.compile(r"^PokerStars Hand #(\d+): .* - (\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d .*)$", re.M)
TABLE = re.compile(r"^Table '([^\n]+)' \d+-max", re.M)

# The header date each site's first hand gets: the site's own time in its zone, ET.
DATES = {
    "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt": (
        "2009/03/18 19:10:00 ET"  # "2009-03-18 19:10:00 (ET)"
    ),
    "bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt": "2012/09/19 13:11:08 ET",  # no zone: ET
    "fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt": (
        "2011/03/28 1:12:00 ET"  # "01:12:00 ET 2011/03/28"
    ),
    # iPoker writes no zone; its time is UTC (as fpdb reads it), day first in some files
    "ipoker_stud8_7-StudHL-EUR-0.05-0.10-201405.txt": (
        "2014/05/10 18:02:19 UTC [2014/05/10 14:02:19 ET]"
    ),
    "kingsclub_stud8_7-StudHL-USD-40-80-202101.txt": "2021/01/02 15:52:36 ET",
    "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt": "2011/09/08 22:02:12 ET",  # 20110908220212
    "merge_stud8_7-StudHL-USD-0.25-0.50-201307.no.null.xml": "2013/07/15 21:35:00 ET",
    # "Sat Aug 28 20:33:38 GMT+0300 2010": +3 that day is EET's summer time, and only EET's
    "ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt": (
        "2010/08/28 20:33:38 EET [2010/08/28 13:33:38 ET]"
    ),
    # "Monday, August 30, 20:20:17 EEST 2010"; "Monday, February 27, 09:51:26 EST 2012"
    "partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt": (
        "2010/08/30 20:20:17 EET [2010/08/30 13:20:17 ET]"
    ),
    "partypoker_stud8_7-StudHL-USD-10-20.201202.wins.lo.pot.txt": "2012/02/27 9:51:26 ET",
    "winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt": (
        "2016/11/12 23:04:10 UTC [2016/11/12 18:04:10 ET]"
    ),
    # the old Winning client: "2016/8/2 11:13:2", no zone (fpdb's default zone, ET)
    "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt": (
        "2016/08/02 11:13:02 ET"
    ),
}


def _records(path: Path) -> list[HandRecord]:
    return [r for r in load_records(path) if isinstance(r, HandRecord)]


@NEEDED
def test_the_samples_are_there() -> None:
    names = {p.name for p in SAMPLES}
    assert set(DATES) <= names
    assert len(SAMPLES) >= 20


@NEEDED
@pytest.mark.parametrize("name", sorted(DATES))
def test_each_sites_date_is_written_as_pokerstars_writes_it(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["hh", "convert", str(OTHER_SITES / name), "--to", "pokerstars"])
    text = capsys.readouterr().out
    head = HEADER.search(text)
    assert head is not None, text[:300]
    assert head.group(2) == DATES[name]
    started, zone = read_header_date(head.group(2))
    assert started is not None and started.year > 2000
    # and it reads back to the same moment and zone, so a round trip keeps it
    (record,) = _records(OTHER_SITES / name)[:1]
    assert record.started_at == started and record.time_zone == zone


@NEEDED
def test_a_history_with_no_table_gets_a_table_name_after_the_hand() -> None:
    for name in (
        OTHER_SITES / "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt",
        OURS / "absolute_tournament.txt",
    ):
        (record,) = _records(name)
        assert record.table == ""
        text = to_pokerstars(record, everything=True)
        number = HEADER.search(text).group(1)  # type: ignore[union-attr]
        assert TABLE.findall(text) == [f"Hand {number}"]


@NEEDED
def test_an_absolute_table_line_gives_the_table_its_name(tmp_path: Path) -> None:
    real = OTHER_SITES / "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"
    lines = real.read_text().split("\n")
    lines.insert(1, "Table: TORONTO AVE (Real Money) Seat #6 is the dealer")
    path = tmp_path / "absolute.txt"
    path.write_text("\n".join(lines))
    (record,) = _records(path)
    assert record.table == "TORONTO AVE"
    assert TABLE.findall(to_pokerstars(record)) == ["TORONTO AVE"]


@NEEDED
def test_fpdb_imports_every_other_site_hand_we_write(tmp_path: Path) -> None:
    """Every hand of every sample, converted as `hh convert` converts it (the
    operator's view and the hero's), is accepted by fpdb with our totals."""
    files: list[Path] = []
    written = 0
    for path in SAMPLES:
        records = _records(path)
        if not records:  # a file of another game only: nothing to write
            continue
        texts = [to_pokerstars(r, everything=True) for r in records]
        text = HAND_SEPARATOR.join(texts)
        totals_are_ours(text, records)
        assert all(TABLE.search(t) for t in texts), path.name
        assert "1970/01/01" not in text, path.name
        out = tmp_path / f"{path.parent.name}-{path.stem}.txt"
        out.write_text(text, encoding="utf-8")
        files.append(out)
        written += len(records)
    report = fpdb_check(files)
    found = re.search(r"fpdb-3: (\d+)/(\d+) hands accepted, (\d+) with equal totals", report)
    assert found is not None and found.groups() == (str(written),) * 3, report
    for out in files:
        assert f"{out.name}: " in report, report


@pytest.mark.parametrize(
    ("text", "kwargs", "written"),
    [
        ("2009-03-18 19:10:00 (ET)", {}, "2009/03/18 19:10:00 ET"),
        ("20:33 ET - Monday, March 28, 2011", {}, "2011/03/28 20:33:00 ET"),  # Full Tilt's other
        (
            "Monday, August 30, 20:20:17 EEST 2010",
            {},
            "2010/08/30 20:20:17 EET [2010/08/30 13:20:17 ET]",
        ),
        (
            "Monday, January 30, 20:20:17 CET 2012",
            {},
            "2012/01/30 20:20:17 CET [2012/01/30 14:20:17 ET]",
        ),
        (
            "Sat Aug 28 20:33:38 GMT+0300 2010",
            {},
            "2010/08/28 20:33:38 EET [2010/08/28 13:33:38 ET]",
        ),
        # +5:30 is no PokerStars zone's but IST's; -0230 is nobody's: ET alone
        (
            "Sat Aug 28 20:33:38 GMT+0530 2010",
            {},
            "2010/08/28 20:33:38 IST [2010/08/28 11:03:38 ET]",
        ),
        ("Sat Aug 28 20:33:38 GMT-0230 2010", {}, "2010/08/28 19:03:38 ET"),
        ("20110908220212", {}, "2011/09/08 22:02:12 ET"),
        ("2016/8/2 11:13:2", {}, "2016/08/02 11:13:02 ET"),
        (
            "10.05.2014 18:02:19",
            {"zone": "UTC", "day_first": True},
            "2014/05/10 18:02:19 UTC [2014/05/10 14:02:19 ET]",
        ),
        (
            "2014-05-10 18:02:19",
            {"zone": "UTC"},
            "2014/05/10 18:02:19 UTC [2014/05/10 14:02:19 ET]",
        ),
        # what cannot be a date is no date (the header then says the time is unknown)
        ("2011-02-30 10:00:00", {}, ""),
        ("25:99:00 ET 2011/03/28", {}, ""),
        ("", {}, ""),
        ("Hand #1 - no date at all", {}, ""),
    ],
)
def test_site_dates_in_each_form(text: str, kwargs: dict[str, object], written: str) -> None:
    from stud8.formats.sites._dates import pokerstars_date

    assert pokerstars_date(text, **kwargs) == written  # type: ignore[arg-type]
    if written:
        started, zone = read_header_date(written)
        assert started is not None
        assert header_date(started, zone) == written  # and written again as it was
