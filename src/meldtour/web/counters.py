"""Where the app's rate counters live (the ``limits`` library): this process's memory,
or Redis (``MELDTOUR_REDIS_URL``) with its keys under ``MELDTOUR_REDIS_PREFIX`` like the
cluster's, so that two sites sharing one Redis never count each other's clients."""

from __future__ import annotations

from limits.storage import Storage, storage_from_string

#: The prefix when ``MELDTOUR_REDIS_PREFIX`` is not set (the cluster's default).
DEFAULT_PREFIX = "meldtour"


def counter_storage(redis_url: str | None, prefix: str | None = None) -> Storage:
    """The storage of the app's counters: memory without Redis, else Redis keys named
    ``{prefix}:limits:…``."""
    if not redis_url:
        storage = storage_from_string("memory://")
    else:
        storage = storage_from_string(redis_url, key_prefix=f"{prefix or DEFAULT_PREFIX}:limits")
    assert isinstance(storage, Storage)  # the synchronous kind (not limits.aio)
    return storage


__all__ = ["DEFAULT_PREFIX", "counter_storage"]
