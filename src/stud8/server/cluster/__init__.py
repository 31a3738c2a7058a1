"""A room on several nodes: PostgreSQL for the books, Redis for who runs what.

Each node is one ``stud8 serve --database postgresql://... --redis redis://... --node
NAME`` process. Redis holds what the nodes must agree on quickly and may lose:

- the live nodes and their load (:mod:`stud8.server.cluster.nodes`: a heartbeat key
  per node with a short TTL);
- each table's owner (:mod:`stud8.server.cluster.leases`: a lease key per table with
  a short TTL, renewed by its owner);
- each table's waiting list (:mod:`stud8.server.cluster.waitlists`), so that it
  survives its owner;

PostgreSQL holds what must never be lost or contradicted: the chips, the hands,
the tables and their seats, and each table's fencing epoch
(:mod:`stud8.server.books.fencing`), which is what actually stops a node that lost
a table from moving its chips.

Every key of a room starts with :data:`PREFIX`; the Redis database number in the
URL (``redis://host:6379/N``) keeps rooms apart on one Redis.
"""

from stud8.server.bus.channels import PREFIX

__all__ = ["PREFIX"]
