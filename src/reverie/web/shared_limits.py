"""Rate limits shared by every server process, kept in Redis.

One Lua script checks and spends a frame's buckets (the seat's and the address's) in
one round trip and one atomic step, so two processes cannot both spend the last token.
Buckets are Redis hashes (``t`` tokens, ``s`` stamp) that expire once they would be full
again. When Redis does not answer, frames pass (limits loosen for a moment; the game
does not stop) and the failure is counted.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Hashable, Sequence

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from reverie.bus.redis import Pipeliner, Script
from reverie.games import Limit
from reverie.web.limits import Bucket

log = logging.getLogger("reverie.web")

# ARGV: now, peek (1: only tell whether each bucket has a token), then rate, burst and
# cost per key.
_SCRIPT = """
local now = tonumber(ARGV[1])
local peek = ARGV[2] == '1'
local left = {}
for i = 1, #KEYS do
  local rate = tonumber(ARGV[3 * i])
  local burst = tonumber(ARGV[3 * i + 1])
  local cost = math.min(tonumber(ARGV[3 * i + 2]), burst)
  local held = redis.call('HMGET', KEYS[i], 't', 's')
  local tokens = tonumber(held[1])
  local stamp = tonumber(held[2])
  if tokens == nil then
    tokens = burst
  else
    tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  end
  if tokens < cost then
    return 0
  end
  left[i] = {tokens - cost, rate, burst}
end
if peek then
  return 1
end
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], 't', tostring(left[i][1]), 's', tostring(now))
  local refill = math.ceil((left[i][3] - left[i][1]) / left[i][2] * 1000) + 1000
  redis.call('PEXPIRE', KEYS[i], refill)
end
return 1
"""


def redis_key(key: Hashable) -> str:
    """A bucket's Redis key (its parts joined; token hashes and codes have no ``|``).

    >>> redis_key(("seat", "K7QMXP", "ab12", ("move", "Vote")))
    "reverie:rl:seat|K7QMXP|ab12|('move', 'Vote')"
    """
    parts = key if isinstance(key, tuple) else (key,)
    return "reverie:rl:" + "|".join(str(p) for p in parts)


# A stroke checks its allowance: the same few keys and limits again and again.
_cached_key = functools.lru_cache(maxsize=4096)(redis_key)


@functools.lru_cache(maxsize=256)
def _limit_args(limit: Limit, cost: float) -> tuple[str, str, str]:
    return repr(float(limit.rate)), repr(float(limit.burst)), repr(float(cost))


class RedisLimiter:
    """A :class:`~reverie.web.limits.SharedLimiter` in Redis."""

    def __init__(
        self,
        client: aioredis.Redis,
        clock: Callable[[], float] = time.time,
        pipeliner: Pipeliner | None = None,
    ) -> None:
        self.client = client
        self.clock = clock
        self.errors = 0
        # The bus's pipeliner: a stroke's check rides in the same round trip as the
        # other commands of its turn of the event loop.
        self.pipeliner = pipeliner if pipeliner is not None else Pipeliner(client)
        self._script = Script(_SCRIPT)

    async def _run(self, items: Sequence[Bucket], peek: bool) -> bool:
        if not items:
            return True
        args: list[float | str] = [repr(self.clock()), "1" if peek else "0"]
        for _, limit, cost in items:
            args += _limit_args(limit, cost)
        try:
            command = self._script.command([_cached_key(k) for k, _, _ in items], args)
            ok = await self.pipeliner.call(*command, script=self._script)
        except (RedisError, OSError) as exc:
            self.errors += 1
            if self.errors == 1 or self.errors % 1000 == 0:
                log.warning("rate limits not checked (Redis: %s); letting frames pass", exc)
            return True
        return bool(ok)

    async def take_all(self, items: Sequence[Bucket]) -> bool:
        """Spend from every bucket if each has enough, else from none."""
        return await self._run(items, peek=False)

    async def peek(self, key: Hashable, limit: Limit) -> bool:
        """Whether ``key``'s bucket has a token."""
        return await self._run([(key, limit, 1.0)], peek=True)
