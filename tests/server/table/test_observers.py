"""The lobby's observer count of a table, counted by its owner: every connection of
somebody without a seat (not logged in too), told in the table's status at most once
every ``OBSERVERS_PACE`` seconds, so a crowd opening a table is one status."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.tableharness import Harness, run
from stud8.server.table.commands import ANONYMOUS, Connect, Disconnect, Sit
from stud8.server.table.status import OBSERVERS_PACE, TableStatus


def statuses(h: Harness) -> list[TableStatus]:
    told: list[TableStatus] = []
    h.table.on_status(told.append)
    return told


def test_observers_go_up_and_down_as_viewers_open_and_close_the_table() -> None:
    async def body(h: Harness) -> None:
        told = statuses(h)
        assert told[-1].observers == 0
        for player in ("ann", "bob", ANONYMOUS, ANONYMOUS):
            assert (await h.send(Connect(player=player))).ok
        assert h.table.status().observers == 4
        # a second window of bob's is one more connection watching
        await h.send(Connect(player="bob"))
        assert h.table.status().observers == 5
        # ann sits: her connection is a player's, no more an observer's
        assert (await h.send(Sit(player="ann", seat=1, amount=100))).ok
        assert h.table.status().observers == 4
        assert told[-1].observers == 4  # a seat taken is told at once, observers with it
        for player in ("bob", ANONYMOUS):
            await h.send(Disconnect(player=player))
        assert h.table.status().observers == 2
        await h.advance(OBSERVERS_PACE)
        assert told[-1].observers == 2
        for player in ("bob", ANONYMOUS, "ann"):
            await h.send(Disconnect(player=player))
        await h.advance(OBSERVERS_PACE)
        assert told[-1].observers == 0
        assert told[-1].players == ("ann",)  # disconnected, still seated between hands

    run(body)


def test_the_console_s_watchers_are_the_logged_in_viewers_without_a_seat() -> None:
    async def body(h: Harness) -> None:
        for player in ("carl", "ann", ANONYMOUS, "carl"):
            assert (await h.send(Connect(player=player))).ok
        assert h.table.status().watchers == ("ann", "carl")  # nobody not logged in
        assert (await h.send(Sit(player="ann", seat=1, amount=100))).ok
        assert h.table.status().watchers == ("carl",)
        await h.send(Disconnect(player="carl"))
        assert h.table.status().watchers == ("carl",)  # his second window is open
        await h.send(Disconnect(player="carl"))
        assert h.table.status().watchers == ()

    run(body)


def test_a_crowd_opening_the_table_is_told_once_after_the_pace() -> None:
    async def body(h: Harness) -> None:
        told = statuses(h)
        before = len(told)
        for i in range(30):
            await h.send(Connect(player=f"viewer{i}"))
            await h.advance(OBSERVERS_PACE / 40)  # all within the pace
        assert len(told) == before  # nothing told yet
        await h.advance(OBSERVERS_PACE)
        assert len(told) == before + 1 and told[-1].observers == 30
        # nothing more changed: nothing more is told
        await h.advance(OBSERVERS_PACE * 5)
        assert len(told) == before + 1
        # the next change waits its own pace
        await h.send(Disconnect(player="viewer0"))
        assert len(told) == before + 1
        await h.advance(OBSERVERS_PACE)
        assert len(told) == before + 2 and told[-1].observers == 29

    run(body)


def test_a_disconnect_nobody_connected_counts_nobody_below_zero() -> None:
    async def body(h: Harness) -> None:
        await h.send(Disconnect(player="ghost"))
        await h.send(Disconnect(player=ANONYMOUS))
        assert h.table.status().observers == 0
        await h.send(Connect(player=ANONYMOUS))
        assert h.table.status().observers == 1

    run(body)


VIEWERS = ("ann", "bob", ANONYMOUS)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(VIEWERS)), max_size=25))
def test_the_count_is_the_connections_open_of_those_not_seated(
    moves: list[tuple[bool, str]],
) -> None:
    """Any order of windows opened and closed (more closes than opens too): the count
    is what is still open, never below zero, ann's not counted once she sits."""

    async def body(h: Harness) -> None:
        told = statuses(h)  # what the lobby is told, from the start
        open_now = dict.fromkeys(VIEWERS, 0)
        wanted = 0
        for i, (opens, player) in enumerate(moves):
            if i == len(moves) // 2:
                assert (await h.send(Sit(player="ann", seat=1, amount=100))).ok
            await h.send((Connect if opens else Disconnect)(player=player))
            open_now[player] = max(0, open_now[player] + (1 if opens else -1))
            seated = {s.player for s in h.table.seats.values()}
            wanted = sum(n for p, n in open_now.items() if p not in seated)
            assert h.table.status().observers == wanted
        await h.advance(OBSERVERS_PACE)
        assert told[-1].observers == wanted  # the last count was told, within the pace

    run(body)
