"""Build tests/data/hh/fpdb-regex-samples/: other sites' Stud Hi/Lo hands in the game
structures we have no real sample of (tournaments, another game name, other encodings),
each written to the header pattern of that site's parser in fpdb
(fpdb_3_legacy/*ToFpdb.py of jejellyroll-fr/fpdb-3), on the body of the site's real cash
hand (../shared/hh/other-sites/) with its money turned into tournament chips (cents).
They are built, not real hands: see the folder's README.md.

    python scripts/build_fpdb_regex_samples.py
"""

from __future__ import annotations

import re
from pathlib import Path

from stud8.formats.sites._text import decode

ROOT = Path(__file__).resolve().parents[1] / "tests" / "data" / "hh"
SRC = Path(__file__).resolve().parents[2] / "shared" / "hh" / "other-sites"
OUT = ROOT / "fpdb-regex-samples"


def _cents(m: re.Match[str]) -> str:
    whole, frac = m.group(1).replace(",", ""), m.group(2) or ""
    return str(int(whole) * 100 + int(frac.ljust(2, "0") or "0"))


def chips(text: str) -> str:
    """``$1.25`` -> ``125``: every dollar amount as tournament chips."""
    return re.sub(r"\$(\d[\d,]*)(?:\.(\d{1,2}))?", _cents, text)


def euro_chips(text: str) -> str:
    """``1.25€`` -> ``125``."""
    return re.sub(r"(\d[\d,]*)(?:\.(\d{1,2}))?€", _cents, text)


def source(name: str) -> str:
    return decode((SRC / name).read_bytes()).replace("\r\n", "\n")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    # Full Tilt, a sit & go. FulltiltToFpdb re_HandInfo: #HID: TOURNAMENT (TOURNO), Table
    # TABLE - SB/BB Ante ANTE - GAMETYPE - DATETIME
    text = source("fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt")
    _, body = text.split("\n", 1)
    head = (
        "Full Tilt Poker Game #29408130001: $10 + $1 Sit & Go (212345678), Table 1 - "
        "200/400 Ante 40 - Limit Stud H/L - 01:12:00 ET - 2011/03/28"
    )
    (OUT / "fulltilt_tournament_sit-and-go.txt").write_text(f"{head}\n{chips(body)}")
    # OnGame, a tournament. OnGameToFpdb re_HandInfo: History for hand HID (TOURNAMENT:
    # "NAME", TID, buy-in: $BUYIN); Table: ... (LIMIT SEVEN_CARD_STUD_HI_LO SB/BB, ante: A, Chips)
    text = source("ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt")
    text = chips(
        text.replace(
            "(LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante: $0.05, Real money)",
            "(LIMIT SEVEN_CARD_STUD_HI_LO 25/50, ante: 5, Chips)",
        )
    ).replace(
        "***** History for hand R5-78227816-62 *****",
        '***** History for hand R5-78227816-63 (TOURNAMENT: "Stud 8 Freezeout", T-1234567, '
        "buy-in: $5) *****",
    )
    (OUT / "ongame_tournament_chips.txt").write_text(text)
    # Winamax, a tournament of the game named 7stud8, in UTF-16 with a byte-order mark and
    # CRLF. WinamaxToFpdb re_hand_info: Tournament "NAME" buyIn: X€ + Y€ level: N - HandId:
    # #A-B-C - 7stud8 fixed limit (ANTE/SB/BB) - DATE; Table: 'NAME(TOURNO)#TABLENO' N-max
    text = source("winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt")
    _, _, body = text.split("\n", 2)
    head = (
        'Winamax Poker - Tournament "Stud Hi/Lo Sunday" buyIn: 9€ + 1€ level: 7 - HandId: '
        "#9250794-12-1478991851 - 7stud8 fixed limit (500/2500/5000) - 2016/11/12 23:04:10 UTC\n"
        "Table: 'Stud Hi/Lo Sunday(123456789)#004' 6-max (real money)"
    )
    lines = f"{head}\n{euro_chips(body)}".replace("\n", "\r\n")
    (OUT / "winamax_tournament_7stud8_utf16.txt").write_bytes(lines.encode("utf-16"))
    # Absolute, a tournament, in cp1252. AbsoluteToFpdb re_GameInfo: Stage #HID: Tourney ID
    # N Seven Card Hi/Lo Multi Normal Tournament Normal SB/BB - DATETIME (ET)
    text = source("absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt")
    _, body = text.split("\n", 1)
    head = (
        "Stage #1300000001: Tourney ID 7654321 Seven Card Hi/Lo Multi Normal Tournament "
        "Normal 2/4 - 2009-03-18 19:10:00 (ET)"
    )
    (OUT / "absolute_tournament.txt").write_text(f"{head}\n{chips(body)}", encoding="cp1252")
    # Bovada, a tournament, CRLF. BovadaToFpdb re_game_info: Bovada Hand #HID: GAME
    # Tournament #TOURNO TBL#TABLENO, LIMIT - Level N (SB/BB) - DATETIME
    text = source("bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt")
    _, body = text.split("\n", 1)
    head = (
        "Bovada Hand #2633952288: 7CARD HiLo Tournament #8765432 TBL#1, Fixed Limit - Level 3 "
        "(25/50) - 2012-09-19 13:11:08"
    )
    crlf = f"{head}\n{chips(body)}".replace("\n", "\r\n")
    (OUT / "bovada_tournament_crlf.txt").write_bytes(crlf.encode("utf-8"))


if __name__ == "__main__":
    main()
