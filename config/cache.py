"""The cache: Redis shared by every web process, and a cache that degrades instead of failing.

What lives in the cache is worth having and never worth a refusal: the rate limiters' counters
(bakeoff.ratelimit: token failures and uploads; allauth's limits on sign-up and password reset)
and nothing a request must find. So when the cache's Redis is away (a restart, a network cut, a
full memory) no login, upload or page may fail for it: ``DegradingRedisCache`` answers from a
cache of the process's own, logs a warning once per outage, and tries Redis again after
``RETRY_SECONDS``. The counters then count per process until Redis is back, which is what the
embedded mode always does; what the limiters counted in the process meanwhile is forgotten then.

The durable state is elsewhere: the database, the stored files, the outbox (bakeoff.outbox), which
may refuse a request with 503 and Retry-After; the broker's Redis is the outbox's concern.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

# After a failure, Redis is not asked again for this long: a request while it is away costs
# nothing, instead of a connection attempt (and its timeout) per cache call.
RETRY_SECONDS = 5.0

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)

T = TypeVar("T")


class DegradingRedisCache(RedisCache):
    """Django's Redis cache, answered by a cache of the process's own while Redis is away."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._local = LocMemCache(f"degraded:{server}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._lock = threading.Lock()
        self._away_until = 0.0

    @property
    def degraded(self) -> bool:
        """Whether the cache answers from the process's own store (Redis away, lately)."""
        return time.monotonic() < self._away_until

    def _either(self, remote: Callable[[], T], local: Callable[[], T]) -> T:
        if self.degraded:
            return local()
        try:
            return remote()
        except UNAVAILABLE as error:
            with self._lock:
                first = not self.degraded
                self._away_until = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "the cache's Redis is unavailable (%s): counting rate limits in this process "
                    "until it is back (tried again every %g s)",
                    error,
                    RETRY_SECONDS,
                )
            return local()

    # Every operation of Django's cache API, each answered by Redis or, while it is away, locally.

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._either(
            lambda: super(DegradingRedisCache, self).add(
                key, value, timeout=timeout, version=version
            ),
            lambda: self._local.add(key, value, timeout=timeout, version=version),
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either(
            lambda: super(DegradingRedisCache, self).get(key, default, version),
            lambda: self._local.get(key, default, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._either(
            lambda: super(DegradingRedisCache, self).set(
                key, value, timeout=timeout, version=version
            ),
            lambda: self._local.set(key, value, timeout=timeout, version=version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._either(
            lambda: super(DegradingRedisCache, self).touch(key, timeout=timeout, version=version),
            lambda: self._local.touch(key, timeout=timeout, version=version),
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._either(
            lambda: super(DegradingRedisCache, self).delete(key, version),
            lambda: self._local.delete(key, version),
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._either(
            lambda: super(DegradingRedisCache, self).get_many(keys, version),
            lambda: self._local.get_many(keys, version),
        )

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._either(
            lambda: super(DegradingRedisCache, self).has_key(key, version),
            lambda: self._local.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._either(
            lambda: super(DegradingRedisCache, self).incr(key, delta, version),
            lambda: self._local.incr(key, delta, version),
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._either(
            lambda: super(DegradingRedisCache, self).set_many(
                data, timeout=timeout, version=version
            ),
            lambda: self._local.set_many(data, timeout=timeout, version=version),
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._either(
            lambda: super(DegradingRedisCache, self).delete_many(keys, version),
            lambda: self._local.delete_many(keys, version),
        )

    def clear(self) -> None:
        self._local.clear()
        self._either(lambda: super(DegradingRedisCache, self).clear(), lambda: None)
