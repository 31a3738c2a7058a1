"""The other nodes' viewers of a node's tables (bus/viewers.py): what a dead node
leaves connected is exactly what it connected and did not disconnect, by table run;
a table that stops running here takes its counts with it."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from stud8.server.bus.viewers import RemoteViewers

NODES, TABLES, RUNS, PLAYERS = ("n2", "n3"), ("t1", "t2"), ("r1", "r2"), ("ann", "bob", "")
KEY = st.tuples(
    st.sampled_from(NODES), st.sampled_from(TABLES), st.sampled_from(RUNS), st.sampled_from(PLAYERS)
)


@given(st.lists(st.tuples(KEY, st.booleans()), max_size=60))
def test_a_dead_node_leaves_what_it_connected_and_did_not_disconnect(
    steps: list[tuple[tuple[str, str, str, str], bool]],
) -> None:
    viewers = RemoteViewers()
    open_: Counter[tuple[str, str, str, str]] = Counter()
    for key, connect in steps:
        if not connect and open_[key] == 0:
            continue  # a table answers a Disconnect only for a connection it has
        open_[key] += 1 if connect else -1
        viewers.note(*key, 1 if connect else -1)
    assert viewers.nodes() == sorted({k[0] for k, n in open_.items() if n > 0})
    for node in NODES:
        left = {(t, r, p): n for (o, t, r, p), n in open_.items() if o == node and n > 0}
        assert {(t, r, p): n for t, r, p, n in viewers.gone(node)} == left
        assert viewers.gone(node) == []  # forgotten: never disconnected twice
    assert viewers.nodes() == []


def test_a_table_that_stops_here_takes_its_counts_with_it() -> None:
    viewers = RemoteViewers()
    viewers.note("n2", "t1", "r1", "ann", 1)
    viewers.note("n2", "t2", "r1", "bob", 1)
    viewers.note("n3", "t1", "r1", "", 1)
    viewers.table_ended("t1")
    assert viewers.nodes() == ["n2"]
    assert viewers.gone("n2") == [("t2", "r1", "bob", 1)]
