"""The protocol: every message between the browser and the room (websocket and REST),
each one type that parses, encodes and makes its schema; ``docs/protocol.md`` is
generated from them (:mod:`.schemas`). Limits on what a client may send:
:mod:`.limits`."""
