"""The keys and channels of a room on several nodes in Redis
(:mod:`stud8.server.bus.redis`), and the two scripts that change and read the
room's directory of tables in one step each.

Keys live in the Redis database of the room's URL (``redis://host:6379/N``), but
pub/sub channels are shared by every database of a Redis: so a channel's name
carries the database's number too (:class:`Channels`), and two rooms on one Redis
never hear each other.
"""

from __future__ import annotations

__all__ = [
    "CHANGES_SCRIPT",
    "CHANGE_SCRIPT",
    "DIRECTORY_LOG",
    "DIRECTORY_VERSION",
    "PREFIX",
    "TABLES",
    "Channels",
]

PREFIX = "stud8:"
TABLES = f"{PREFIX}tables"  # hash: the directory, an entry per open table
DIRECTORY_VERSION = f"{PREFIX}dirver"  # counter: one up at each change of the directory
DIRECTORY_LOG = f"{PREFIX}dirlog"  # sorted set: each table's id, scored with its last change


class Channels:
    """The pub/sub channels of a room whose keys are in Redis database ``db``, as
    bytes (what the connections send)."""

    def __init__(self, db: int = 0) -> None:
        self.prefix = f"{PREFIX}{db}:"
        self.directory = f"{self.prefix}dir".encode()
        self.wake = f"{self.prefix}wake".encode()
        self.events_prefix = f"{self.prefix}ev:".encode()
        self._events: dict[str, bytes] = {}

    def events(self, table_id: str) -> bytes:
        found = self._events.get(table_id)
        if found is None:
            found = self._events[table_id] = self.events_prefix + table_id.encode()
        return found

    def commands(self, node: str) -> bytes:
        return f"{self.prefix}cmd:{node}".encode()

    def replies(self, node: str) -> bytes:
        return f"{self.prefix}rep:{node}".encode()


# A change of a table's entry (ARGV: table id, entry or '' if it is gone, channel,
# message, the changes the log keeps): the entry, the directory's version one up, the
# entry's version, the news. The log keeps the last ARGV[5] changes: a node further
# behind reads the whole directory anyway (CHANGES_SCRIPT), and one less far behind asks
# only for later versions; so the log holds at most ARGV[5] tables, not every table
# the room ever had.
CHANGE_SCRIPT = b"""
local v = redis.call('INCR', KEYS[3])
if ARGV[2] == '' then
    redis.call('HDEL', KEYS[1], ARGV[1])
else
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('ZADD', KEYS[2], v, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', v - tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[3], ARGV[4])
return v
"""

# What changed since version ARGV[1]: {version} if nothing (or Redis restarted and
# the version went back), {version, ids, entries} else, {version, false} if too much.
CHANGES_SCRIPT = """
local v = tonumber(redis.call('GET', KEYS[3]) or '0')
local since = tonumber(ARGV[1])
if v <= since then return {v} end
if v - since > tonumber(ARGV[2]) then return {v, false} end
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. since, v)
if #ids == 0 then return {v} end
return {v, ids, redis.call('HMGET', KEYS[1], unpack(ids))}
"""
