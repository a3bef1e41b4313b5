"""Many server processes, one site: PostgreSQL as the store, Redis between the processes.

- **Owner** (:mod:`.owners`): each table is held by exactly one process at a time. A process
  is alive while its key in Redis (a lease renewed every second) exists; a table's owner is
  recorded beside it. Taking a table over claims a fencing token from the store
  (:meth:`fives.store.Store.claim`), and every write carries it (:mod:`.fenced`): a paused or
  partitioned ex-owner is refused by the store itself, and stops on its own once its lease
  lapses.
- **Bus** (:mod:`.bus`): a process that holds a player's socket for a table owned elsewhere
  forwards what the player says to the owner and relays back the owner's messages for that
  connection, per seat as the owner wrote them (:mod:`.remote`), over Redis pub/sub.
- **Queue** (:mod:`.queue`): the quick pairing queue's tickets are in Redis, so any process
  takes a join, a poll or an accept; one process at a time (a lease of its own) matches them
  all, and a group is claimed before it is seated, so that nobody is seated twice.
- **Takeover** is the restart path: a process whose lease lapsed is buried by the others,
  which take its tables from the store (load, replay, resume the clock); the players' pages
  reconnect on their own.
"""

from fives.server.cluster.remote import ClusterDown

__all__ = ["ClusterDown"]
