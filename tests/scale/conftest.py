from tests.pg import postgres_url
from tests.redisdb import redis_url

__all__ = ["postgres_url", "redis_url"]
