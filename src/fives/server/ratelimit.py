"""Token buckets: per connection, and per client address across all its connections."""

from __future__ import annotations

import time
from collections import OrderedDict

__all__ = ["AddressBuckets", "TokenBucket"]


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
