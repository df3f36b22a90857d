"""The service's schema (SQLAlchemy Core), by concern. Times are UTC epoch seconds (float).

Every table is importable from here (``from reviewer_app.server.storage.tables import items``);
the modules say which part of the service each belongs to."""

from __future__ import annotations

from ._base import metadata
from .accounts import (
    api_keys,
    config_versions,
    login_attempts,
    queues,
    server_secrets,
    sessions,
    users,
)
from .log import (
    enforcement_actions,
    event_chain,
    events,
    log_checkpoints,
    statements,
)
from .oversight import (
    appeals,
    audit_items,
    audit_samples,
    decision_notes,
    feedback_seen,
)
from .platform import (
    account_actions,
    author_links,
    authors,
    fact_check_ratings,
    fact_check_targets,
    held_posts,
    post_media,
    posts,
    signals,
    strikes,
)
from .review import (
    SEARCH_INDEX_OBJECTS,
    breaks,
    decision_policies,
    decisions,
    item_search,
    item_search_keys,
    items,
    leases,
    media,
    saved_views,
    skips,
    verdict_keys,
)
from .rollups import (
    decision_mix_rollups,
    handle_time_rollups,
    queue_hourly,
    reviewer_rollups,
    rollup_cursor,
)
from .webhooks import (
    webhook_endpoints,
    webhook_state,
)

__all__ = [
    "SEARCH_INDEX_OBJECTS",
    "account_actions",
    "api_keys",
    "appeals",
    "audit_items",
    "audit_samples",
    "author_links",
    "authors",
    "breaks",
    "config_versions",
    "decision_mix_rollups",
    "decision_notes",
    "decision_policies",
    "decisions",
    "enforcement_actions",
    "event_chain",
    "events",
    "fact_check_ratings",
    "fact_check_targets",
    "feedback_seen",
    "handle_time_rollups",
    "held_posts",
    "item_search",
    "item_search_keys",
    "items",
    "leases",
    "log_checkpoints",
    "login_attempts",
    "media",
    "metadata",
    "post_media",
    "posts",
    "queue_hourly",
    "queues",
    "reviewer_rollups",
    "rollup_cursor",
    "saved_views",
    "server_secrets",
    "sessions",
    "signals",
    "skips",
    "statements",
    "strikes",
    "users",
    "verdict_keys",
    "webhook_endpoints",
    "webhook_state",
]
