"""Token buckets: per connection, per client address across all its connections, and per
address across every process of a site (:class:`SiteLimits`)."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

__all__ = ["AddressBuckets", "AddressLimit", "SiteLimits", "SiteTake", "TokenBucket"]

log = logging.getLogger("fives.server")


class TokenBucket:
    """``rate`` messages per second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class AddressBuckets:
    """One bucket per client address (``rate`` per second, ``burst``); a rate of 0 or less is
    no limit. The least recently seen addresses are forgotten past ``keep`` of them."""

    def __init__(self, rate: float, burst: int, keep: int = 20000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, addr: str) -> TokenBucket | None:
        if self.rate <= 0:
            return None
        bucket = self._buckets.get(addr)
        if bucket is None:
            bucket = self._buckets[addr] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(addr)
        return bucket

    def take(self, addr: str) -> bool:
        bucket = self.bucket(addr)
        return bucket is None or bucket.take()


#: takes a token from the site's bucket ``name`` of an address (``rate`` per second,
#: ``burst``): whether there was one; raises when the site's counters cannot be reached
SiteTake = Callable[[str, str, float, int], Awaitable[bool]]


class SiteLimits:
    """The per-address limits that must count the whole site, not one process: new
    identities, queue joins, new tables. Alone, each is this process's :class:`AddressBuckets`;
    in a cluster (:attr:`site` set once it has started) every process takes from one bucket
    in Redis, so an address gets the same allowance however many processes it reaches. If
    Redis cannot be reached the process's own bucket still limits."""

    def __init__(self) -> None:
        self.site: SiteTake | None = None

    def limit(self, name: str, rate_per_minute: float, burst: int) -> AddressLimit:
        return AddressLimit(self, name, rate_per_minute / 60, burst)


class AddressLimit:
    def __init__(self, limits: SiteLimits, name: str, rate: float, burst: int) -> None:
        self.limits = limits
        self.name = name
        self.local = AddressBuckets(rate, burst)

    async def take(self, addr: str) -> bool:
        if self.local.rate <= 0:
            return True
        site = self.limits.site
        if site is not None:
            try:
                return await site(self.name, addr, self.local.rate, self.local.burst)
            except Exception as exc:  # Redis away: this process's bucket, and a warning
                log.warning("rate limit %s: the site's counters are out of reach (%s)",
                            self.name, exc)
        return self.local.take(addr)
