"""A connection's way out: the texts of one turn of the event loop leave in one write,
in order; a client that does not read is dropped (and told why, 1008); and the
room's websocket protocol writes the same messages a plain ASGI server sends, with
and without compression."""

from __future__ import annotations

import asyncio
import functools
from typing import Any
from unittest import mock

import pytest
import websockets

from server.roomclient import passive, play, run, serve, sit
from server.roomdb import serving
from stud8.server.edge.outbox import AsgiOutbox, Flusher, FrameOutbox, WriteTexts
from stud8.server.http import sockets
from stud8.server.http.websocket import frame, frames


def test_the_texts_of_a_turn_of_the_loop_and_the_next_leave_in_one_write() -> None:
    async def body() -> None:
        writes: list[list[str]] = []

        def write(texts: list[str], _framed: dict[str, bytes]) -> int:
            writes.append(list(texts))
            return 0

        outbox = FrameOutbox(write)
        for text in ("a", "b", "c"):
            outbox.push(text)
        assert writes == []  # not yet: after the next turn of the loop
        await asyncio.sleep(0)
        outbox.push("c2")  # what the next turn adds (a reply) goes in the same write
        await asyncio.sleep(0)
        assert writes == [["a", "b", "c", "c2"]]
        outbox.push("d")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert writes == [["a", "b", "c", "c2"], ["d"]]
        await outbox.close()
        outbox.push("e")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert writes == [["a", "b", "c", "c2"], ["d"]] and not outbox.dropped.is_set()

    asyncio.run(body())


def test_one_flusher_writes_every_outbox_of_a_turn_in_one_call_of_the_loop() -> None:
    async def body() -> None:
        writes: list[tuple[str, list[str]]] = []

        def writer(name: str) -> WriteTexts:
            def write(texts: list[str], _framed: dict[str, bytes]) -> int:
                writes.append((name, texts))
                return 0

            return write

        flusher = Flusher()
        ann, bob = (FrameOutbox(writer(n), flusher=flusher) for n in ("ann", "bob"))
        loop = asyncio.get_running_loop()
        with mock.patch.object(loop, "call_soon", wraps=loop.call_soon) as call_soon:
            ann.push("a1")
            bob.push("b1")
            ann.push("a2")
        assert call_soon.call_count == 1  # one call of the loop for both connections
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert writes == [("ann", ["a1", "a2"]), ("bob", ["b1"])]

    asyncio.run(body())


def test_a_text_is_framed_once_for_every_connection_of_a_call_of_the_flusher() -> None:
    async def body() -> None:
        seen: list[dict[str, bytes]] = []
        written: list[bytes] = []

        def write(texts: list[str], framed: dict[str, bytes]) -> int:
            seen.append(framed)
            written.append(frames(texts, framed))
            return 0

        flusher = Flusher()
        event = '{"t":"event","v":1}'
        ann, bob = FrameOutbox(write, flusher=flusher), FrameOutbox(write, flusher=flusher)
        ann.push(event)
        bob.push(event)
        bob.push("only bob's")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert seen[0] is seen[1]  # one call of the flusher: the frames made are shared
        assert written == [frame(event), frame(event) + frame("only bob's")]
        assert set(seen[0]) == {event, "only bob's"}
        ann.push(event)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert seen[2] is not seen[0] and seen[2] == {event: frame(event)}  # a new call

    asyncio.run(body())


@pytest.mark.parametrize("why", ["too many texts", "a full socket", "a dead socket"])
def test_a_client_that_does_not_read_is_dropped(why: str) -> None:
    async def body() -> None:
        drops: list[int] = []

        def write(texts: list[str], _framed: dict[str, bytes]) -> int:
            if why == "a dead socket":
                raise ConnectionError("gone")
            return 10 << 20 if why == "a full socket" else 0

        outbox = FrameOutbox(write, on_drop=lambda: drops.append(1), limit=5)
        for n in range(7 if why == "too many texts" else 1):
            outbox.push(f"t{n}")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert outbox.dropped.is_set() and drops == [1]
        outbox.push("more")  # nothing happens any more, and on_drop is not called again
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert drops == [1]

    asyncio.run(body())


def test_the_asgi_outbox_sends_in_order_and_drops_a_client_that_does_not_read() -> None:
    async def body() -> None:
        sent: list[str] = []
        gate = asyncio.Event()

        async def send(text: str) -> None:
            await gate.wait()
            sent.append(text)

        drops: list[int] = []
        outbox = AsgiOutbox(send, on_drop=lambda: drops.append(1), limit=3)
        for text in ("a", "b"):
            outbox.push(text)
        gate.set()
        await asyncio.sleep(0.01)
        assert sent == ["a", "b"]
        gate.clear()  # the client stops reading
        for n in range(5):
            outbox.push(f"t{n}")
        assert outbox.dropped.is_set() and drops == [1]
        await outbox.close()

    asyncio.run(body())


def test_frames_are_rfc_6455_text_frames() -> None:
    for size in (0, 125, 126, 65535, 65536):
        data = frames(["x" * size])
        head = {0: 2, 125: 2, 126: 4, 65535: 4, 65536: 10}[size]
        assert data[0] == 0x81 and len(data) == head + size


@pytest.mark.parametrize(
    ("room_protocol", "compression"),
    [(True, None), (True, "deflate"), (False, None)],
    ids=["room-frames", "room-deflate", "asgi-send"],
)
def test_every_way_out_sends_the_same_messages(
    room_protocol: bool, compression: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players play hands; what each receives is numbered without a gap, whatever
    writes it: the room's frames, the room's protocol compressing (as with a browser),
    or uvicorn's own protocol through the ASGI send."""
    if not room_protocol:
        monkeypatch.setattr(
            "server.roomclient.serving", functools.partial(serving, room_protocol=False)
        )

    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            async with (
                room.connect(ann_t, compression=compression) as ann,
                room.connect(bob_t, compression=compression) as bob,
                room.connect(compression=compression) as watcher,
            ):
                await sit(room, ann, 1)
                await sit(room, bob, 2)
                # each client checks the numbers have no gap and hide no card it may not see
                await asyncio.gather(play(ann, 2, passive), play(bob, 2, passive))
                await watcher.until(lambda m: m["t"] == "event" and m["v"] >= ann.last_seq)
                assert room.table().hands_played >= 2
                assert [m["t"] for m in watcher.messages[:2]] == ["welcome", "snapshot"]

    run(body)


def test_a_client_that_stops_reading_is_closed_with_1008(monkeypatch: pytest.MonkeyPatch) -> None:
    """An observer whose messages pile up (here: more than 3 texts in one turn of the
    loop) is dropped: closed with 1008, and the table plays on."""
    made: list[FrameOutbox] = []

    def outbox(write: WriteTexts, **options: Any) -> FrameOutbox:
        # the two players' as usual; the third connection's, the watcher's, small
        made.append(FrameOutbox(write, limit=3 if len(made) >= 2 else 10_000, **options))
        return made[-1]

    monkeypatch.setattr(sockets, "FrameOutbox", outbox)

    async def body() -> None:
        async with serve() as room:
            ann_t, bob_t = await room.player("ann"), await room.player("bob")
            url = f"ws://127.0.0.1:{room.port}/ws/v1/tables/t1"
            async with room.connect(ann_t) as ann, room.connect(bob_t) as bob:
                await sit(room, ann, 1)
                await sit(room, bob, 2)
                async with websockets.connect(url, max_queue=None) as watcher:
                    # a hand's deal is more than 3 texts in one turn: the watcher goes
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        while True:
                            await asyncio.wait_for(watcher.recv(), 10)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
                assert made[2].dropped.is_set() and not made[0].dropped.is_set()
                await asyncio.gather(play(ann, 1, passive), play(bob, 1, passive))

    run(body)
