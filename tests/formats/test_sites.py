"""Other sites' Stud Hi/Lo hand histories: every real sample reads and replays
through the engine (or is listed with its reason), each site's quirks are read as
the site means them, and a truncated or corrupt file gives a clear error naming
the file and the line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sharedhh import NEEDED, OTHER_SITES, SHARED_HH, files_in
from stud8.cli import main
from stud8.core.cards import Card
from stud8.formats.pokerstars import PokerStarsHand, ReadError, Skipped
from stud8.formats.pokerstars.read import parse_text
from stud8.formats.registry import Status
from stud8.formats.sites import SITES, Site, decode, detect, site_named, verify_hand
from stud8.formats.verify import Verdict, verify_pokerstars
from stud8.terminal.hh import check_file, sniff

DATA = OTHER_SITES

# file: (site, hands read, reproduced, skipped, unreadable) -- and why, where not all
EXPECTED: dict[str, tuple[str, int, int, int, int]] = {
    "absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt": ("absolute", 1, 1, 0, 0),
    "bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt": ("bovada", 1, 1, 0, 0),
    "fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt": ("fulltilt", 1, 1, 0, 0),
    "ipoker_stud8_7-StudHL-EUR-0.05-0.10-201405.txt": ("ipoker", 5, 5, 0, 0),
    "kingsclub_stud8_7-StudHL-USD-40-80-202101.txt": ("kingsclub", 1, 1, 0, 0),
    "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt": ("merge", 1, 1, 0, 0),
    "merge_stud8_7-StudHL-USD-0.25-0.50-201307.no.null.xml": ("merge", 1, 1, 0, 0),
    "merge_stud8_HORSE-Tournament-Freeroll.201107.stud8-games.xml": ("merge", 2, 2, 0, 0),
    "ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt": ("ongame", 1, 1, 0, 0),
    "partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt": ("partypoker", 1, 1, 0, 0),
    "partypoker_stud8_7-StudHL-USD-10-20.201202.wins.lo.pot.txt": ("partypoker", 1, 1, 0, 0),
    "winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt": ("winamax", 1, 1, 0, 0),
    # The second hand of the file is cut off after its seats (fpdb's partial-hand sample).
    "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt": (
        "winning",
        2,
        1,
        0,
        1,
    ),
    "winningpoker_stud8_acr_7Stud-HL-USD-0.10-0.20-202310.hand-history-parser.txt": (
        "winning",
        1,
        1,
        0,
        0,
    ),
    # Seven Card Stud high: read and verified (stud8 plays the whole family).
    "winningpoker_stud_7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham_GAMETYPE.txt": (
        "winning",
        1,
        1,
        0,
        0,
    ),
}

Item = PokerStarsHand | Skipped | ReadError


def read(path: Path) -> tuple[Site, list[Item]]:
    text = decode(path.read_bytes())
    site = detect(text)
    assert site is not None, f"{path.name}: no site detected"
    return site, site.read(text, str(path))


def hands_of(name: str) -> tuple[Site, list[PokerStarsHand]]:
    site, items = read(DATA / name)
    return site, [h for h in items if isinstance(h, PokerStarsHand)]


def only_hand(name: str) -> tuple[Site, PokerStarsHand]:
    site, hands = hands_of(name)
    assert len(hands) == 1
    return site, hands[0]


def seat_of(hand: PokerStarsHand, name: str) -> int:
    return next(s.seat for s in hand.seats if s.name == name)


# ------------------------------------------------------------------ every sample
@NEEDED
def test_every_sample_file_is_listed() -> None:
    files = {p.name for p in DATA.iterdir() if p.name != "SOURCES.md"}
    assert files == set(EXPECTED)
    # Everleaf: no real Stud file here; its samples are ours (tests/data/hh/everleaf/)
    assert set(SITES) - {"everleaf"} == {site for site, *_ in EXPECTED.values()}


@NEEDED
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_sample_reads_and_verifies_or_is_listed_with_its_reason(name: str) -> None:
    want_site, read_n, reproduced, skipped, unreadable = EXPECTED[name]
    site, items = read(DATA / name)
    assert site.name == want_site
    assert len(items) == read_n
    verdicts = [verify_hand(site, h) for h in items if isinstance(h, PokerStarsHand)]
    assert [str(v) for v in verdicts if not v.reproduced] == []
    assert len(verdicts) == reproduced
    assert sum(isinstance(i, Skipped) for i in items) == skipped
    errors = [i for i in items if isinstance(i, ReadError)]
    assert len(errors) == unreadable
    for e in errors:
        assert e.file == str(DATA / name) and e.line > 0


@NEEDED
def test_the_cut_off_winning_hand_is_named_by_file_and_line() -> None:
    name = "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt"
    _, items = read(DATA / name)
    error = items[1]
    assert isinstance(error, ReadError)
    # line 51 is its last (its second seat): the verify output says where it stops
    assert str(error).endswith(
        ":51: the hand is truncated: it stops after its seats (no summary, no 'Game ended at')"
    )


@NEEDED
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hh_verify_reads_every_sample_as_the_command_does(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, read_n, reproduced, skipped, unreadable = EXPECTED[name]
    code = main(["hh", "verify", str(DATA / name)])
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (
        f"files: 1  hands: {read_n}  reproduced: {reproduced}  mismatched: 0  "
        f"skipped: {skipped}  unreadable: {unreadable}"
    )
    assert code == (4 if unreadable else 0)  # a hand that cannot be read


@NEEDED
@pytest.mark.parametrize(
    "name", sorted(n for n, (_, _, reproduced, _, _) in EXPECTED.items() if reproduced)
)
def test_hh_convert_writes_pokerstars_text_that_verifies_again(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["hh", "convert", str(DATA / name), "--to", "pokerstars", "--all-cards"])
    text = capsys.readouterr().out
    hands = [h for h in parse_text(text) if isinstance(h, PokerStarsHand)]
    assert len(hands) == EXPECTED[name][2]
    # PokerStars text carries no site rule: the site's hands verify under its rules.
    site = site_named(EXPECTED[name][0])
    assert all(verify_hand(site, h).reproduced for h in hands)
    out = tmp_path / "hands.jsonl"  # JSON lines keep the rules, the site's among them
    main(["hh", "convert", str(DATA / name), "--to", "json"])
    out.write_text(capsys.readouterr().out)
    assert main(["hh", "verify", str(out)]) == 0


# ------------------------------------------------------------------- detection
@NEEDED
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_only_its_own_site_claims_a_sample(name: str) -> None:
    text = decode((DATA / name).read_bytes())
    claims = [s for s in SITES if site_named(s).detect(text[:4000])]
    assert claims == [EXPECTED[name][0]]


@NEEDED
def test_pokerstars_text_and_other_text_are_no_site() -> None:
    for path in files_in(SHARED_HH, "pokerstars_*.txt"):
        assert detect(decode(path.read_bytes())) is None
    assert detect("") is None
    assert detect("Hello\nworld\n") is None


# ----------------------------------------------------------- each site's quirks
@NEEDED
def test_winning_gives_the_odd_chip_of_a_split_pot_to_the_low_half() -> None:
    """Winning hand 693975843: $7.25 in, $0.14 rake and $0.06 jackpot fee, $7.05
    split; KickAzzJohnny's two pair wins high and collects $3.52, ChazDazzle's
    7-6-4-2-A wins low and collects $3.53. RULES.md would give the odd cent to
    the high half; the site's rule gives it to the low half."""
    site, hands = hands_of(
        "winningpoker_stud8_7-Stud-HL-8max-USD-1.00-2.00-201608.HH00000000_G0.txt"
    )
    hand = hands[0]
    assert hand.hand_id == "693975843"
    assert (hand.total_pot, hand.rake) == (725, 20)
    paid = {hand.name(c.seat): c.amount for c in hand.collected}
    assert paid == {"ChazDazzle": 353, "KickAzzJohnny": 352}
    ours = verify_pokerstars(hand)  # RULES.md's odd chip
    assert not ours.reproduced
    assert ours.problems == (
        "pot: site paid ChazDazzle $3.53, stud8 pays $3.52",
        "pot: site paid KickAzzJohnny $3.52, stud8 pays $3.53",
    )
    assert verify_hand(site, hand).reproduced
    assert site.table_rules(hand).odd_chip_half.value == "low"


@NEEDED
def test_sites_that_split_by_rules_md_give_the_odd_chip_to_the_high_half() -> None:
    """Bovada (hand 2633952287) pays $2.33 high, $2.32 low; Absolute (1300000000)
    $0.20 high, $0.19 low: RULES.md's rule, nothing to set."""
    for name, high in (
        ("bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt", ("Seat+4", 233)),
        ("absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt", ("PLAYER6", 20)),
    ):
        site, hand = only_hand(name)
        assert site.rules == {}
        assert any(hand.name(c.seat) == high[0] and c.amount == high[1] for c in hand.collected)
        assert verify_pokerstars(hand).reproduced


@NEEDED
def test_kingsclub_names_each_street_after_the_one_before_and_writes_calls_as_totals() -> None:
    _, hand = only_hand("kingsclub_stud8_7-StudHL-USD-40-80-202101.txt")
    third = [a for a in hand.actions if a.street == 3]
    assert [(hand.name(a.seat), a.verb, a.amount) for a in third] == [
        ("Player0", "brings in", 1000),
        ("Hero", "raises", 3000),  # the completion to 40 over a bring-in of 10
        ("Player0", "calls", 3000),  # "calls 40": 30 more
    ]
    assert max(a.street for a in hand.actions) == 7  # *** 6TH STREET *** opens 7th
    assert (hand.total_pot, hand.rake) == (66000, 100)
    # Hero shows [4s Qh Qs ...] after being dealt [Qh 4s Qs]: his cards stay where dealt.
    hero = next(s for s in hand.shows if hand.name(s.seat) == "Hero")
    assert [str(c) for c in hero.cards[:3]] == ["Qh", "4s", "Qs"]


@NEEDED
def test_winamax_keeps_an_uncalled_bet_in_the_pot_it_pays_back() -> None:
    _, hand = only_hand("winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt")
    player0 = seat_of(hand, "Player0")
    assert hand.uncalled == ((player0, 5000),)
    assert sum(c.amount for c in hand.collected) == 22800 - 5000
    assert (hand.total_pot, hand.rake) == (18000, 200)


@NEEDED
def test_merge_counts_an_uncalled_bet_in_the_winner_amount() -> None:
    _, hand = only_hand("merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt")
    assert hand.uncalled == ((seat_of(hand, "Hero"), 50),)
    assert [(hand.name(c.seat), c.amount) for c in hand.collected] == [("Hero", 14)]


@NEEDED
def test_merge_horse_tournament_games_are_tournament_chips_with_no_stakes_written() -> None:
    _, hands = hands_of("merge_stud8_HORSE-Tournament-Freeroll.201107.stud8-games.xml")
    for hand in hands:
        assert (hand.tournament, hand.currency, hand.mixed) == ("36447024-1", "", "HORSE")
        assert (hand.small_bet, hand.big_bet) == (150, 300)
    # Game 24: the low card completes at once (a BET in the bring-in round).
    first = hands[0].actions[0]
    assert (hands[0].name(first.seat), first.verb, first.amount) == ("Player9", "bets", 150)


@NEEDED
def test_ongame_ten_seat_numbers_keep_their_order_and_a_raise_counts_its_first_amount() -> None:
    _, hand = only_hand("ongame_stud8_7-StudHL-USD-0.25-0.50-201008.All.streets.txt")
    assert [s.seat for s in hand.seats] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [s.name for s in hand.seats][-2:] == ["guggi_cool", "HangEv"]  # seats 9 and 10
    raises = [a for a in hand.actions if a.verb == "raises"]
    assert [(a.amount, a.to) for a in raises] == [(50, 100)]  # "raises $1 to $1.37"
    assert (hand.total_pot, hand.rake) == (514, 25)


@NEEDED
def test_partypoker_unseen_up_cards_agree_with_the_recorded_bring_in() -> None:
    _, hand = only_hand("partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt")
    bring_in = hand.bring_in
    assert bring_in is not None and hand.name(bring_in.seat) == "YMAN1"
    ups: dict[int, Card] = {s: hand.up_cards(s)[0] for s in hand.dealt_in}
    assert min(ups, key=lambda s: ups[s]) == bring_in.seat
    # Seen cards are kept: the hero's, and the showdown's.
    assert [str(c) for c in hand.up_cards(seat_of(hand, "Hero"))] == ["3c"]
    assert str(hand.up_cards(seat_of(hand, "PPPPPositive"))[0]) == "Ah"


@NEEDED
def test_converting_says_which_up_cards_were_filled_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = "partypoker_stud8_7-StudHL-USD-0.50-1.00-201008.txt"
    _, hand = only_hand(name)
    filled = [(hand.name(s), street) for s, street in hand.filled_in]
    assert filled == [
        ("tubby09", 3),
        ("ISqzUSqueal", 3),
        ("YMAN1", 3),
        ("YMAN1", 4),
        ("Unladylike", 3),
    ]
    assert main(["hh", "convert", str(DATA / name), "--to", "pokerstars"]) == 0
    err = capsys.readouterr().err
    assert err == (
        f"note: {DATA / name}:4: hand 9581478205: up cards the site does not show, filled in "
        "to agree with its bring-in and openers, are written as dealt: tubby09 (3rd street), "
        "ISqzUSqueal (3rd street), YMAN1 (3rd street), YMAN1 (4th street), "
        "Unladylike (3rd street)\n"
    )
    # Where every up card is seen, nothing is filled in.
    assert all(
        not h.filled_in for n in EXPECTED if not n.startswith("partypoker") for h in hands_of(n)[1]
    )


@NEEDED
def test_partypoker_amounts_are_what_the_player_adds() -> None:
    _, hand = only_hand("partypoker_stud8_7-StudHL-USD-10-20.201202.wins.lo.pot.txt")
    third = [(hand.name(a.seat), a.verb, a.amount, a.to) for a in hand.actions if a.street == 3]
    assert third == [
        ("Player0", "brings in", 300, None),
        ("Player1", "raises", 700, 1000),  # completes [$10 USD]
        ("Player0", "raises", 1000, 2000),  # raises [$17 USD]: 3 + 17 = 20
        ("Player1", "calls", 1000, None),
    ]


@NEEDED
def test_ipoker_reads_a_cp1252_euro_under_a_utf8_declaration_and_orders_actions() -> None:
    data = (DATA / "ipoker_stud8_7-StudHL-EUR-0.05-0.10-201405.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert "€0.05/€0.10" in decode(data)
    _, hands = hands_of("ipoker_stud8_7-StudHL-EUR-0.05-0.10-201405.txt")
    second = hands[1]
    sixth = [(second.name(a.seat), a.verb, a.amount, a.to) for a in second.actions if a.street == 6]
    assert sixth == [  # action no. 9, 10, 11, 12 though written 10, 12, 9, 11
        ("Hero", "bets", 10, None),
        ("Player0", "raises", 10, 20),
        ("Hero", "raises", 10, 30),
        ("Player0", "calls", 10, None),
    ]


@NEEDED
def test_absolute_ignores_a_folded_players_repeated_pocket() -> None:
    _, hand = only_hand("absolute_stud8_7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt")
    hero = seat_of(hand, "Hero")
    assert [d.street for d in hand.deals if d.seat == hero] == [3]
    assert hand.hero == hero


@NEEDED
def test_bovada_reads_the_stakes_from_the_bets_and_a_completion_at_once() -> None:
    _, hand = only_hand("bovada_stud8_7-StudHL-USD-0.25-0.50-201209.txt")
    assert (hand.small_bet, hand.big_bet) == (25, 50)
    first = hand.actions[0]
    assert (hand.name(first.seat), first.verb, first.amount) == ("Seat+1", "bets", 25)
    assert hand.hero == 2


@NEEDED
def test_full_tilt_keeps_a_sitting_out_seat_out_of_the_deal() -> None:
    _, hand = only_hand("fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt")
    player6 = seat_of(hand, "Player6")
    assert next(s for s in hand.seats if s.seat == player6).sitting_out
    assert player6 not in hand.dealt_in
    assert hand.uncalled == ((seat_of(hand, "Hero"), 400),)


@NEEDED
def test_acr_pots_and_collections_by_pot_with_a_jackpot_fee() -> None:
    _, hand = only_hand(
        "winningpoker_stud8_acr_7Stud-HL-USD-0.10-0.20-202310.hand-history-parser.txt"
    )
    assert hand.pots == (836, 60)
    assert (hand.total_pot, hand.rake) == (906, 10)
    assert sorted((c.pot, hand.name(c.seat), c.amount) for c in hand.collected) == [
        (0, "AzRic", 418),
        (0, "KickShorty", 418),
        (1, "AzRic", 30),
        (1, "KickShorty", 30),
    ]
    short = next(a for a in hand.actions if a.all_in)
    assert (hand.name(short.seat), short.verb, short.amount) == ("MasterChief24", "calls", 5)


@NEEDED
def test_the_newer_acr_format_reads_a_stud_hi_lo_header() -> None:
    """The real ACR Stud (high) hand relabelled Stud Hi/Lo: nobody shows down, so
    the game's split plays no part and the hand must still reproduce."""
    path = DATA / "winningpoker_stud_7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham_GAMETYPE.txt"
    text = path.read_text().replace("7Stud(Fixed Limit)", "7Stud H/L(Fixed Limit)", 1)
    site = detect(text)
    assert site is not None and site.name == "winning"
    (hand,) = site.read(text, "relabelled")
    assert isinstance(hand, PokerStarsHand)
    assert verify_hand(site, hand).reproduced
    assert (hand.total_pot, hand.rake) == (37, 1)
    assert hand.uncalled == ((seat_of(hand, "Player2"), 8),)


# ----------------------------------------------------------------- encodings
FT = DATA / "fulltilt_stud8_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt"


@NEEDED
@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("utf-8"),
        lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode("utf-8"),
        lambda t: t.encode("utf-16"),  # with a byte-order mark
        lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
        lambda t: t.encode("utf-16-le"),  # no mark
        lambda t: t.replace("\n", "\r").encode("cp1252"),
    ],
    ids=["utf8", "bom-crlf", "utf16", "utf16be", "utf16le-no-bom", "cp1252-cr"],
)
def test_a_history_reads_in_every_encoding_and_line_end(encode: object, tmp_path: Path) -> None:
    text = FT.read_text(encoding="ascii")
    path = tmp_path / "hand.txt"
    path.write_bytes(encode(text))  # type: ignore[operator]
    assert [c.status for c in check_file(path)] == [Status.REPRODUCED]


@NEEDED
def test_a_utf16_history_reads_with_its_euro_signs(tmp_path: Path) -> None:
    text = decode((DATA / "winamax_stud8_7-StudHL-6max-EUR-25-50-201611._8games_.txt").read_bytes())
    path = tmp_path / "winamax.txt"
    path.write_bytes(text.encode("utf-16"))
    assert [c.status for c in check_file(path)] == [Status.REPRODUCED]


# ------------------------------------------------------------- hostile input
def _outcome(site: Site, text: str, file: str) -> list[Verdict | Skipped | ReadError]:
    out: list[Verdict | Skipped | ReadError] = []
    for item in site.read(text, file):
        out.append(verify_hand(site, item) if isinstance(item, PokerStarsHand) else item)
    return out


@NEEDED
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_history_cut_anywhere_gives_errors_that_name_the_file_and_line(name: str) -> None:
    site, _ = read(DATA / name)
    text = decode((DATA / name).read_bytes())
    for k in range(1, 24):
        cut = text[: len(text) * k // 24]
        for item in _outcome(site, cut, "cut.txt"):
            if isinstance(item, ReadError):
                assert item.file == "cut.txt" and item.line >= 1
                assert str(item).startswith(f"cut.txt:{item.line}: ")
            elif isinstance(item, Verdict):
                assert item.problems or item.reproduced


@NEEDED
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hh_verify_of_a_truncated_file_says_where_and_ends_without_a_traceback(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (DATA / name).read_bytes()
    bad = tmp_path / name
    bad.write_bytes(data[: len(data) * 2 // 3 + 1])  # mid-line, maybe mid-character
    code = main(["hh", "verify", str(bad)])
    out = capsys.readouterr().out
    assert "Traceback" not in out
    problems = out.splitlines()[:-1]
    assert problems and all(line.startswith(f"{bad}:") for line in problems)
    if EXPECTED[name][2]:
        assert code == 4  # the cut hand cannot be read: it is not a hand that departs
    else:  # a hand of another game is skipped before its end is looked for
        assert code == 0 and all(": skipped: not a Stud Hi/Lo hand" in p for p in problems)


_LINES = st.lists(st.integers(0, 400), min_size=1, max_size=6)


@NEEDED
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(EXPECTED)),
    drop=_LINES,
    mangle=st.lists(
        st.tuples(st.integers(0, 400), st.integers(0, 80), st.characters()), max_size=4
    ),
)
def test_corrupt_histories_never_raise(
    name: str, drop: list[int], mangle: list[tuple[int, int, str]]
) -> None:
    site, _ = read(DATA / name)
    lines = decode((DATA / name).read_bytes()).split("\n")
    for k in sorted({d % len(lines) for d in drop}, reverse=True):
        del lines[k]
    for row, col, char in mangle:
        if lines:
            r = row % len(lines)
            c = col % (len(lines[r]) + 1)
            lines[r] = lines[r][:c] + char + lines[r][c + 1 :]
    for item in _outcome(site, "\n".join(lines), "fuzz.txt"):
        assert isinstance(item, Verdict | Skipped | ReadError)


def test_an_xml_entity_bomb_is_refused_before_parsing() -> None:
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
        '<description type="7-Stud H/L8" stakes="Limit $0.25/$0.50"/>\n'
        '<game id="1-1" starttime="20110908220212" gametype="43" realmoney="true">&b;</game>\n'
    )
    site = detect(bomb)
    assert site is not None and site.name == "merge"
    (error,) = site.read(bomb, "bomb.xml")
    assert isinstance(error, ReadError)
    assert str(error) == "bomb.xml:2: a Merge history has no document type nor entities"


@NEEDED
def test_broken_xml_names_the_line_where_it_breaks() -> None:
    path = DATA / "merge_stud8_7-StudHL-USD-0.25-0.50-201307.no.null.xml"
    text = decode(path.read_bytes()).replace('<round id="FIFTH_STREET"', '<round id="FIFTH', 1)
    (error,) = site_named("merge").read(text, "broken.xml")
    assert isinstance(error, ReadError)
    line = text[: text.index('<round id="FIFTH')].count("\n") + 1
    assert error.line == line and "not well-formed" in error.message


def test_an_unknown_file_is_still_cannot_tell_the_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Stage one of the plan\nnothing else\n")
    code = main(["hh", "verify", str(path)])
    out = capsys.readouterr().out
    assert "cannot tell the format" in out and code == 4


@NEEDED
def test_a_sites_chat_about_pokerstars_or_a_variant_does_not_fool_the_sniffer() -> None:
    path = DATA / "merge_stud8_7-StudHL-USD-0.25-0.50-201111.txt"
    text = decode(path.read_bytes()).replace(
        "<round id=",
        '<event type="CHAT" player="Hero" text="PokerStars has a variant = razz"/><round id=',
        1,
    )
    assert sniff(text) == "merge"
