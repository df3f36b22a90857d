"""Log output of the service: readable text or one JSON object per line.

Both formats go to standard error through the root logger, so uvicorn's own loggers, the
``server`` category and the access log (``server.access``, see ``observe.py``) all come
out alike. Access lines carry method, route template, status, duration and request id:
never a token, a password, a query string or a body.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: uvicorn's level below DEBUG (``--log-level trace``), which ``logging`` does not know
TRACE = 5
logging.addLevelName(TRACE, "TRACE")
#: loggers kept at INFO or above whatever the level: urllib3 (requests' HTTP layer, the
#: webhook sender's) logs each request's path *with its query string* at DEBUG, and a
#: receiver's token is often put there
QUIET_LOGGERS = ("urllib3", "requests")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, plus the
    record's ``fields`` (a dict given as ``extra={"fields": {...}}``) at the top level."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            for key, value in fields.items():
                entry.setdefault(key, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` document (uvicorn applies it in every worker too)."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    )
    number = level_number(level)
    uvicorn_logger = {"handlers": [], "propagate": True}
    quiet = {"level": max(number, logging.INFO)}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["default"], "level": number},
        "loggers": {
            "uvicorn": dict(uvicorn_logger),
            "uvicorn.error": dict(uvicorn_logger),
            "uvicorn.access": dict(uvicorn_logger),
            **{name: dict(quiet) for name in QUIET_LOGGERS},
        },
    }


def level_number(level: str) -> int:
    """A level's number: a ``logging`` name (any case; ``warn`` too) or uvicorn's ``trace``."""
    name = level.strip().upper()
    number = (
        TRACE if name == "TRACE" else logging.getLevelName("WARNING" if name == "WARN" else name)
    )
    if not isinstance(number, int):
        raise ValueError(
            f"log level must be one of trace, debug, info, warning, error, critical, not {level!r}"
        )
    return number
