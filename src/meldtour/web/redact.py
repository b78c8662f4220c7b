"""Keep the secrets that travel in URL paths out of the access log: a scorer's table
link (``/score/{token}``) and a player's seat link (``/online/seat/{game}/{token}``)
are bearer secrets, so uvicorn's access log line shows them as ``…``."""

from __future__ import annotations

import logging
import re

_SECRET_PATHS = re.compile(r"(/score/|/online/seat/[^/\s?]+/)[^/\s?\"]+")


def redact(text: str) -> str:
    return _SECRET_PATHS.sub(r"\1…", text)


class RedactSecrets(logging.Filter):
    """A filter for ``uvicorn.access``: the request path (its third argument) redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install() -> None:
    """Add the filter to uvicorn's access logger, once."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in logger.filters):
        logger.addFilter(RedactSecrets())
