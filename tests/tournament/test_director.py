"""The director, event by event: seating, levels and breaks, balancing and breaking
(TDA 7, 8, 10, 11), placing, prizes, cancelled hands, the clock, and bad input."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from stud8.tournament import STRUCTURES, Level, Start, Structure, TournamentDefinition
from stud8.tournament.director import Director, DirectorError, Phase
from stud8.tournament.events import (
    Busted,
    Cancelled,
    DealHand,
    Decision,
    FinalTable,
    Finished,
    HandCancelled,
    HandFinished,
    HandRestored,
    LevelStarted,
    Moved,
    MoveReason,
    Register,
    RegistrationClosed,
    Resume,
    Seated,
    Started,
    TableBroken,
    Tick,
    Unregister,
    Unregistered,
)
from tournament.driver import Driver, check_invariants

AT = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)
T0 = AT.timestamp()


def sit_and_go(players: int, *, size: int = 8, structure: str = "turbo", **kw: Any) -> Director:
    d = TournamentDefinition(
        structure=STRUCTURES[structure], max_entrants=players, table_size=size, buy_in=100, **kw
    )
    return Director(d, rng=random.Random(7))


def register_all(td: Director, players: int, now: float = 0.0) -> list[Decision]:
    out: list[Decision] = []
    for i in range(players):
        out += td.handle(Register(now=now, player=f"p{i + 1}"))
    return out


def deals(out: list[Decision] | tuple[Decision, ...]) -> dict[int, DealHand]:
    return {d.table: d for d in out if isinstance(d, DealHand)}


def of(kind: type[Any], out: list[Decision] | tuple[Decision, ...]) -> list[Any]:
    return [d for d in out if isinstance(d, kind)]


def finish(
    td: Director, deal: DealHand, now: float, changes: dict[int, int] | None = None
) -> tuple[Decision, ...]:
    """Finish ``deal`` with these seats' new stacks; the difference goes to (or comes
    from) the first seat not named."""
    stacks = {s: c for s, _, c in deal.seats}
    for seat, chips in (changes or {}).items():
        stacks[seat] = chips
    other = next(s for s in stacks if s not in (changes or {}))
    stacks[other] += sum(c for _, _, c in deal.seats) - sum(stacks.values())
    event = HandFinished(now=now, table=deal.table, hand=deal.hand, stacks=tuple(stacks.items()))
    out = td.handle(event)
    check_invariants(td, out)
    return out


# ------------------------------------------------------------------ seating (TDA 7)
def test_a_sit_and_go_starts_when_full_and_deals_its_table() -> None:
    td = sit_and_go(6)
    out = register_all(td, 5)
    assert td.phase is Phase.REGISTERING and not deals(out)
    out = list(td.handle(Register(now=3, player="p6")))
    assert td.phase.value == "running"
    assert of(Started, out) == [Started(entries=6, prize_pool=600)]
    seated = of(Seated, out)
    assert sorted(s.entry for s in seated) == [1, 2, 3, 4, 5, 6]
    assert {s.table for s in seated} == {1} and all(s.chips == 1500 for s in seated)
    assert of(FinalTable, out) == [FinalTable(table=1, players=6)]
    assert of(LevelStarted, out)[0].stakes == (5, 10, 20, 40)
    (deal,) = deals(out).values()
    assert deal.hand == 1 and deal.level == 1 and len(deal.seats) == 6


def test_the_draw_makes_as_few_tables_as_seat_everyone_within_one_player() -> None:
    td = sit_and_go(20, size=6)
    register_all(td, 20)
    assert sorted(t.players for t in td.tables.values()) == [5, 5, 5, 5]
    td = sit_and_go(19, size=8)
    register_all(td, 19)
    assert sorted(t.players for t in td.tables.values()) == [6, 6, 7]


def test_the_draw_is_random_but_the_same_from_the_same_source() -> None:
    def seats(seed: int) -> list[tuple[int, int, int]]:
        td = Director(sit_and_go(16).definition, rng=random.Random(seed))
        return [(s.entry, s.table, s.seat) for s in of(Seated, register_all(td, 16))]

    assert seats(1) == seats(1)
    assert seats(1) != seats(2)


# ---------------------------------------------------------------- levels and breaks
def test_levels_rise_on_time_and_apply_from_the_next_hand() -> None:
    td = sit_and_go(2)
    (deal,) = deals(register_all(td, 2)).values()
    assert deal.level == 1
    out = td.handle(Tick(now=299))
    assert not of(LevelStarted, out)
    out = td.handle(Tick(now=300))  # turbo: 5 minutes a level
    assert of(LevelStarted, out) == [LevelStarted(level=2, stakes=(5, 10, 30, 60))]
    assert not deals(out)  # the hand in play finishes at level 1's stakes
    out = finish(td, deal, 310, {})
    assert deals(out)[1].level == 2
    out = td.handle(Tick(now=1500))  # several levels at once
    assert [x.level for x in of(LevelStarted, out)] == [3, 4, 5, 6]


def test_levels_by_hands_rise_after_so_many_hands() -> None:
    lv = [Level(ante=1, bring_in=2, small_bet=4 * k, big_bet=8 * k, hands=2) for k in (1, 2)]
    d = TournamentDefinition(
        structure=Structure(name="h", starting_chips=500, steps=tuple(lv)), max_entrants=3
    )
    td = Director(d, rng=random.Random(1))
    (deal,) = deals(register_all(td, 3)).values()
    (deal,) = deals(finish(td, deal, 1)).values()
    out = finish(td, deal, 2)
    assert of(LevelStarted, out)[0].level == 2 and deals(out)[1].level == 2
    for _ in range(5):  # the last level lasts
        out = finish(td, deals(out)[1], 3)
        assert not of(LevelStarted, out)


def test_a_break_stops_the_dealing_until_it_is_over() -> None:
    td = sit_and_go(3, structure="regular")  # 10-minute levels, a 5-minute break after 6
    (deal,) = deals(register_all(td, 3)).values()
    out = td.handle(Tick(now=3600))
    assert of(LevelStarted, out)[-1] == LevelStarted(
        level=7, stakes=(30, 60, 200, 400), break_minutes=5
    )
    assert td.on_break and td.level == 7
    out = finish(td, deal, 3610)
    assert not deals(out)  # nobody is dealt during the break
    assert td.next_deadline() == 3900
    out = td.handle(Tick(now=3900))
    assert of(LevelStarted, out) == [LevelStarted(level=7, stakes=(30, 60, 200, 400))]
    assert deals(out)[1].level == 7


def test_the_clock_pauses_while_the_room_is_down() -> None:
    td = sit_and_go(2)
    register_all(td, 2)
    td.handle(Tick(now=200))
    td.handle(Resume(now=90_000))  # back a day later: the level has 100 s left, as before
    assert td.level == 1 and td.next_deadline() == 90_100
    assert of(LevelStarted, td.handle(Tick(now=90_100)))[0].level == 2


# ------------------------------------------------------------- scheduled and late
def scheduled(**kw: Any) -> Director:
    d = TournamentDefinition(
        structure=STRUCTURES["turbo"],
        start=Start.AT_TIME,
        starts_at=AT,
        min_entrants=3,
        max_entrants=20,
        buy_in=50,
        **kw,
    )
    return Director(d, rng=random.Random(3))


def test_a_scheduled_tournament_starts_at_its_time_or_is_cancelled() -> None:
    td = scheduled()
    register_all(td, 2, now=T0 - 100)
    assert td.next_deadline() == T0
    out = td.handle(Tick(now=T0))
    assert td.phase is Phase.CANCELLED and of(Cancelled, out)
    with pytest.raises(DirectorError, match="cancelled"):
        td.handle(Register(now=T0 + 1, player="late"))
    td = scheduled()
    register_all(td, 4, now=T0 - 100)
    out = td.handle(Tick(now=T0 + 0.5))
    assert of(Started, out) == [Started(entries=4, prize_pool=200)]
    assert of(RegistrationClosed, out) and deals(out)


def test_a_room_back_after_the_scheduled_time_starts_the_tournament_at_once() -> None:
    td = scheduled()
    register_all(td, 4, now=T0 - 100)
    out = td.handle(Resume(now=T0 + 5000))
    assert of(Started, out) and deals(out) and td.level == 1
    assert td.next_deadline() == T0 + 5000 + 300  # level 1 starts now, whole


def test_players_may_unregister_before_the_start_only() -> None:
    td = scheduled()
    register_all(td, 4, now=T0 - 100)
    assert td.handle(Unregister(now=T0 - 50, player="p2")) == (Unregistered(player="p2", entry=2),)
    with pytest.raises(DirectorError, match="p2 is not registered"):
        td.handle(Unregister(now=T0 - 40, player="p2"))
    with pytest.raises(DirectorError, match="has started"):
        td.handle(Unregister(now=T0 + 1, player="p1"))
    td.handle(Tick(now=T0))
    assert len(td.entries) == 3


def test_late_registration_and_re_entry_until_the_end_of_level_n() -> None:
    """TDA 8: late entries and re-entries get full stacks, seated by the same draw."""
    td = scheduled(late_registration=2, reentries=1)
    register_all(td, 3, now=T0 - 100)
    out = td.handle(Tick(now=T0))
    assert not of(RegistrationClosed, out)
    (deal,) = deals(out).values()
    out = td.handle(Register(now=T0 + 10, player="late"))
    (seat,) = of(Seated, out)
    assert (seat.entry, seat.chips, seat.table) == (4, 1500, 1)
    # p1 busts: no place yet (more may come), and he buys in again
    p1 = next(s for s, e, _ in deal.seats if e == 1)
    out = finish(td, deal, T0 + 20, {p1: 0})
    assert of(Busted, out) == [Busted(entry=1, player="p1", table=1, hand=1, place=None)]
    (deal,) = deals(out).values()  # hand 2: p2, p3 and the latecomer
    out = td.handle(Register(now=T0 + 30, player="p1"))
    assert of(Seated, out)[0].entry == 5 and td.prize_pool == 250
    assert not deals(out)  # his table is in a hand: he is dealt in the next one
    (deal,) = deals(finish(td, deal, T0 + 35)).values()
    again = next(s for s, e, _ in deal.seats if e == 5)
    finish(td, deal, T0 + 40, {again: 0})
    with pytest.raises(DirectorError, match="1 re-entries of 1 used"):
        td.handle(Register(now=T0 + 50, player="p1"))
    out = td.handle(Tick(now=T0 + 600))  # level 2 over: registration closes
    assert of(RegistrationClosed, out) == [RegistrationClosed(entries=5, prize_pool=250)]
    with pytest.raises(DirectorError, match="late registration is closed"):
        td.handle(Register(now=T0 + 601, player="later"))


def test_a_late_registrant_when_every_table_is_full_opens_a_table_and_it_is_balanced() -> None:
    d = TournamentDefinition(
        structure=STRUCTURES["turbo"],
        start=Start.AT_TIME,
        starts_at=AT,
        table_size=4,
        max_entrants=20,
        late_registration=1,
    )
    td = Director(d, rng=random.Random(5))
    register_all(td, 8, now=T0 - 1)
    in_play = deals(td.handle(Tick(now=T0)))
    assert len(in_play) == 2  # two full tables of 4
    out = td.handle(Register(now=T0 + 1, player="ninth"))
    check_invariants(td, out)
    assert [s.table for s in of(Seated, out)] == [3] and 3 not in deals(out)  # alone: halted
    out = finish(td, in_play[2], T0 + 2)
    moves = of(Moved, out)  # table 2 gives a player by position
    assert [(m.from_table, m.to_table, m.reason) for m in moves] == [(2, 3, MoveReason.BALANCE)]
    assert 2 in deals(out) and 3 not in deals(out)  # 2 against table 1's 4 in its hand
    out = finish(td, in_play[1], T0 + 3)
    assert [(m.from_table, m.to_table) for m in of(Moved, out)] == [(1, 3)]
    assert set(deals(out)) == {1, 3}
    assert sorted(t.players for t in td.tables.values()) == [3, 3, 3]


# ---------------------------------------------------- balancing and breaking (TDA 10, 11)
def two_full_tables() -> tuple[Director, dict[int, DealHand]]:
    td = sit_and_go(16)
    return td, deals(register_all(td, 16))


def test_a_short_table_halts_until_the_long_one_gives_a_player_by_position() -> None:
    """TDA 11: in Stud, the last seat opened at the short table is filled, by the
    player in the same seat number at the long table (or the next one clockwise)."""
    td, in_play = two_full_tables()
    t1, t2 = in_play[1], in_play[2]
    seats = [s for s, _, _ in t1.seats]
    out = finish(td, t1, 10, {seats[2]: 0, seats[4]: 0})  # two busted at table 1
    assert 1 not in deals(out)  # 6 against 8: it waits for table 2's hand
    opened_last = seats[4]
    out = finish(td, t2, 20)
    (move,) = of(Moved, out)
    assert (move.from_table, move.to_table, move.to_seat) == (2, 1, opened_last)
    assert move.from_seat == opened_last  # table 2 is full: that seat is taken
    assert set(deals(out)) == {1, 2}
    assert sorted(t.players for t in td.tables.values()) == [7, 7]


def test_players_busted_in_one_hand_are_placed_by_their_chips_at_its_deal() -> None:
    td = sit_and_go(6, size=6)
    (deal,) = deals(register_all(td, 6)).values()
    a, b, c, x, y, _z = (s for s, _, _ in deal.seats)
    # first hand: c and x start equal (1500) and bust together: they share 5th and 6th
    out = finish(td, deal, 1, {a: 2000, b: 1000, c: 0, x: 0})
    busted = of(Busted, out)
    assert [(p.place, p.shared) for p in busted] == [(5, 2), (5, 2)]
    (deal,) = deals(out).values()
    # then a (2000 at the deal) and b (1000) bust in one hand: a 3rd, b 4th
    out = finish(td, deal, 2, {a: 0, b: 0})
    placed = {p.entry: p.place for p in of(Busted, out)}
    entry = {s: e for s, e, _ in deal.seats}
    assert placed == {entry[a]: 3, entry[b]: 4}
    (deal,) = deals(out).values()
    out = finish(td, deal, 3, {y: 0})
    (done,) = of(Finished, out)
    assert [(r.place, r.shared, r.prize) for r in done.results] == [
        (1, 1, 390),
        (2, 1, 210),
        (3, 1, 0),
        (4, 1, 0),
        (5, 2, 0),
        (5, 2, 0),
    ]
    assert td.phase is Phase.FINISHED


def test_a_tie_in_the_money_shares_the_places_prizes_odd_chip_to_the_lower_seat() -> None:
    d = TournamentDefinition(
        structure=STRUCTURES["turbo"], max_entrants=3, buy_in=103, payouts=(5000, 3000, 2000)
    )
    td = Director(d, rng=random.Random(2))
    (deal,) = deals(register_all(td, 3)).values()
    _s1, s2, s3 = (s for s, _, _ in deal.seats)
    out = finish(td, deal, 1, {s2: 0, s3: 0})  # equal stacks at the deal: they tie 2nd
    (done,) = of(Finished, out)
    # 3 x 103 = 309: 154 + 2 (the rounding's chips, to first), 92 and 61 shared: 77 + 76
    second = [r for r in done.results if r.place == 2]
    assert [r.shared for r in second] == [2, 2] and done.results[0].prize == 156
    assert sorted(r.prize for r in second) == [76, 77]
    assert sum(r.prize for r in done.results) == 309
    entry = {s: e for s, e, _ in deal.seats}
    assert next(r.prize for r in second if r.entry == entry[s2]) == 77  # the lower seat


def test_tables_break_highest_first_waiting_for_a_hand_in_play() -> None:
    """TDA 10: a broken table's players are drawn to new tables and seats."""
    td = sit_and_go(9)
    in_play = deals(register_all(td, 9))
    assert sorted(t.players for t in td.tables.values()) == [4, 5]
    long_ = max(td.tables.values(), key=lambda t: t.players).number
    deal = in_play[long_]
    out = finish(td, deal, 5, {deal.seats[0][0]: 0})  # 8 left: one table is enough
    if long_ == 2:  # the table to break was idle: broken at once
        assert of(TableBroken, out) == [TableBroken(table=2)]
    else:  # table 2 is in its hand: it closes, table 1 plays on, then it breaks
        assert td.closing == [2] and not of(TableBroken, out) and 1 in deals(out)
        out = finish(td, in_play[2], 6)
        assert of(TableBroken, out) == [TableBroken(table=2)]
    assert all(m.reason is MoveReason.BREAK and m.to_table == 1 for m in of(Moved, out))
    assert of(FinalTable, out) == [FinalTable(table=1, players=8)]
    assert list(td.tables) == [1] and td.tables[1].players == 8


# ----------------------------------------------------------- cancelled hands (item 3)
def test_a_cancelled_hand_restores_every_stack_to_the_deal_and_is_dealt_again() -> None:
    td, in_play = two_full_tables()
    deal = in_play[1]
    deal = deals(finish(td, deal, 1, {deal.seats[0][0]: 700}))[1]  # stacks now differ
    before = {e.entry: e.chips for e in td.entries.values()}
    out = td.handle(HandCancelled(now=2, table=1, hand=deal.hand))
    check_invariants(td, out)
    (restored,) = of(HandRestored, out)
    assert restored.seats == deal.seats and restored.hand == deal.hand
    assert {e.entry: e.chips for e in td.entries.values()} == before
    again = deals(out)[1]
    assert again.seats == deal.seats and again.hand > deal.hand
    with pytest.raises(DirectorError, match=f"not hand {deal.hand}"):
        td.handle(HandFinished(now=3, table=1, hand=deal.hand, stacks=()))


# ------------------------------------------------------------------------ bad input
BAD_EVENTS: list[tuple[Any, str]] = [  # what a buggy or hostile caller might send
    ("tick", "not a tournament event"),
    (Tick(now=float("nan")), "a number of seconds"),
    (Tick(now="5"), "a number of seconds"),  # type: ignore[arg-type]
    (Tick(now=-1), "time went backwards"),
    (Register(now=10, player="p1"), "already registered"),
    (Register(now=10, player=""), "1 to 64 printable"),
    (Register(now=10, player="x" * 65), "1 to 64 printable"),
    (Register(now=10, player="a\nb"), "1 to 64 printable"),
    (Register(now=10, player=7), "1 to 64 printable"),  # type: ignore[arg-type]
    (Register(now=10, player="new"), "late registration is closed"),
    (Unregister(now=10, player="p1"), "has started"),
    (HandFinished(now=10, table=9, hand=1, stacks=()), "there is no table 9"),
    (HandFinished(now=10, table=1, hand=99, stacks=()), "not hand 99"),
    (HandCancelled(now=10, table="1", hand=1), "there is no table '1'"),  # type: ignore[arg-type]
    (HandFinished(now=10, table=1, hand=1, stacks=((1, 10),)), "were dealt"),
    (HandFinished(now=10, table=1, hand=1, stacks=[(1, 10)]), "(seat, chips) pairs"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("event", "says"), BAD_EVENTS, ids=lambda x: str(x)[:40])
def test_a_bad_event_is_refused_clearly_and_changes_nothing(event: Any, says: str) -> None:
    td = sit_and_go(3)
    register_all(td, 3, now=5)
    before = json.dumps(td.to_dict())
    with pytest.raises(DirectorError) as e:
        td.handle(event)
    assert says in str(e.value) and isinstance(e.value, ValueError)
    assert json.dumps(td.to_dict()) == before


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda st: (*st[:-1], (st[-1][0], st[-1][1] + 1)), "sum to 4501, but 4500"),
        (lambda st: (*st[:-1], (st[-1][0], -1)), "not a whole number"),
        (lambda st: (*st[:-1], (st[-1][0], True)), "not a whole number"),
        (lambda st: (*st[:-1], (st[-1][0], 1500.0)), "not a whole number"),
        (lambda st: (*st[:-1], (st[0][0], 1500)), "were dealt"),
    ],
)
def test_a_hand_that_makes_or_loses_chips_is_refused(change: Any, says: str) -> None:
    td = sit_and_go(3)
    (deal,) = deals(register_all(td, 3)).values()
    stacks = tuple((s, c) for s, _, c in deal.seats)
    before = json.dumps(td.to_dict())
    with pytest.raises(DirectorError) as e:
        td.handle(HandFinished(now=1, table=1, hand=deal.hand, stacks=change(stacks)))
    assert says in str(e.value)
    assert json.dumps(td.to_dict()) == before


def test_a_full_or_finished_tournament_refuses_more() -> None:
    td = scheduled()
    register_all(td, 20, now=T0 - 10)
    with pytest.raises(DirectorError, match="full"):
        td.handle(Register(now=T0 - 5, player="21st"))
    td = sit_and_go(2)
    (deal,) = deals(register_all(td, 2)).values()
    finish(td, deal, 1, {deal.seats[0][0]: 0})
    for event in (Register(now=2, player="x"), HandCancelled(now=2, table=1, hand=1)):
        with pytest.raises(DirectorError, match="finished"):
            td.handle(event)
    assert td.handle(Tick(now=3)) == ()


def test_a_director_needs_a_definition_and_a_random_source() -> None:
    with pytest.raises(DirectorError):
        Director("turbo", rng=random.Random())  # type: ignore[arg-type]
    with pytest.raises(DirectorError):
        Director(sit_and_go(2).definition, rng=None)  # type: ignore[arg-type]
    with pytest.raises(DirectorError, match="malformed"):
        Director.from_dict({"definition": sit_and_go(2).definition.to_dict()})


# ----------------------------------------------------------------------- the state
@pytest.mark.parametrize("seed", range(6))
def test_the_state_goes_through_json_at_every_event_and_plays_on_the_same(seed: int) -> None:
    def play(round_trip: int) -> tuple[Any, int]:
        td = Director(sit_and_go(30, size=7).definition, rng=random.Random(seed))
        driver = Driver(td, random.Random(seed), round_trip_every=round_trip)
        register_all(td, 30)
        for x in td.tables.values():
            assert x.hand is not None
        driver.in_play = {
            t.number: DealHand(
                table=t.number,
                hand=t.hand,  # type: ignore[arg-type]
                level=1,
                seats=tuple((s, e, c) for s, (e, c) in sorted(t.dealt.items())),
            )
            for t in td.tables.values()
        }
        finished = driver.run()
        return finished, driver.events

    assert play(1) == play(0)


def corrupt_entry_chips(data: dict[str, Any]) -> None:
    data["entries"][0][2] += 1


def corrupt_seat(data: dict[str, Any]) -> None:
    data["tables"][0]["seats"][0][1] = 99


def corrupt_dealt_chips(data: dict[str, Any]) -> None:
    data["tables"][0]["dealt"][0][2] -= 1


def corrupt_unseat(data: dict[str, Any]) -> None:
    data["tables"][0]["seats"].pop()


def corrupt_step(data: dict[str, Any]) -> None:
    data["step"] = 500


def corrupt_rng(data: dict[str, Any]) -> None:
    data["rng"] = [3, [1, 2], None]


def corrupt_phase(data: dict[str, Any]) -> None:
    data["phase"] = "paused"


def corrupt_closing(data: dict[str, Any]) -> None:
    data["closing"] = [7]


@pytest.mark.parametrize(
    ("corrupt", "says"),
    [
        (corrupt_entry_chips, "do not add up"),
        (corrupt_seat, "entry 99"),
        (corrupt_dealt_chips, "the hand dealt to seat"),
        (corrupt_unseat, "not seated once each"),
        (corrupt_step, "not a step of the structure"),
        (corrupt_rng, "malformed"),
        (corrupt_phase, "malformed"),
        (corrupt_closing, "closing tables [7]"),
    ],
)
def test_a_corrupt_record_is_refused_with_what_does_not_hold(corrupt: Any, says: str) -> None:
    td, _ = two_full_tables()
    data = json.loads(json.dumps(td.to_dict()))
    assert Director.from_dict(data).to_dict() == td.to_dict()
    corrupt(data)
    with pytest.raises(DirectorError) as e:
        Director.from_dict(data)
    assert says in str(e.value)
