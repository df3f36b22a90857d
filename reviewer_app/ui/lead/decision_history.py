"""An item's history as plain lines: each event in words (local time, what, who, the
details), read page by page on a pool thread for the decisions browser's timeline."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Event

from ..i18n import QT_TRANSLATE_NOOP, translate
from ..plain import isolate
from ..words import code_words, value_words

if TYPE_CHECKING:
    from .decisions_model import QueueWords

log = logging.getLogger("ui")


#: events of one item's history shown at most (pages of 100)
HISTORY_PAGES = 20
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"

EVENT_WORDS = {
    "enqueued": QT_TRANSLATE_NOOP("LeadDecisions", "entered the queue"),
    "claimed": QT_TRANSLATE_NOOP("LeadDecisions", "claimed"),
    "renewed": QT_TRANSLATE_NOOP("LeadDecisions", "lease renewed"),
    "released": QT_TRANSLATE_NOOP("LeadDecisions", "given back"),
    "expired": QT_TRANSLATE_NOOP("LeadDecisions", "lease expired"),
    "decided": QT_TRANSLATE_NOOP("LeadDecisions", "decided"),
    "escalated": QT_TRANSLATE_NOOP("LeadDecisions", "escalated"),
    "escalation_assigned": QT_TRANSLATE_NOOP("LeadDecisions", "escalation assigned"),
    "user_created": QT_TRANSLATE_NOOP("LeadDecisions", "user created"),
    "role_changed": QT_TRANSLATE_NOOP("LeadDecisions", "role changed"),
    "password_set": QT_TRANSLATE_NOOP("LeadDecisions", "password set"),
    "access_ended": QT_TRANSLATE_NOOP("LeadDecisions", "access ended"),
    "audit_sampled": QT_TRANSLATE_NOOP("LeadDecisions", "picked for an audit"),
    "audited": QT_TRANSLATE_NOOP("LeadDecisions", "audited"),
    "overturned": QT_TRANSLATE_NOOP("LeadDecisions", "overturned"),
    "post_updated": QT_TRANSLATE_NOOP("LeadDecisions", "new version of the post from the platform"),
    "signal_added": QT_TRANSLATE_NOOP("LeadDecisions", "new signal"),
    "withdrawn": QT_TRANSLATE_NOOP("LeadDecisions", "withdrawn by the platform"),
    "rereview": QT_TRANSLATE_NOOP("LeadDecisions", "back for review"),
    "config_applied": QT_TRANSLATE_NOOP("LeadDecisions", "queue configuration applied"),
    "moved": QT_TRANSLATE_NOOP("LeadDecisions", "moved to another queue"),
    "api_key_created": QT_TRANSLATE_NOOP("LeadDecisions", "API key created"),
    "api_key_revoked": QT_TRANSLATE_NOOP("LeadDecisions", "API key revoked"),
    "account_actioned": QT_TRANSLATE_NOOP("LeadDecisions", "account action on the author"),
    "resolved": QT_TRANSLATE_NOOP("LeadDecisions", "resolved by an account action"),
    "held_back": QT_TRANSLATE_NOOP("LeadDecisions", "held back: the author is actioned"),
    "webhook_added": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint added"),
    "webhook_disabled": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint disabled"),
    "webhook_enabled": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint enabled"),
    "webhook_secret_rotated": QT_TRANSLATE_NOOP("LeadDecisions", "webhook signing secret changed"),
    "webhook_replayed": QT_TRANSLATE_NOOP("LeadDecisions", "webhook actions sent again"),
    "unservable": QT_TRANSLATE_NOOP("LeadDecisions", "could not be shown to reviewers: set aside"),
    "appealed": QT_TRANSLATE_NOOP("LeadDecisions", "appealed by the user"),
}

DETAIL_WORDS = {
    "action": QT_TRANSLATE_NOOP("LeadDecisions", "action"),
    "policies": QT_TRANSLATE_NOOP("LeadDecisions", "policies"),
    "rating": QT_TRANSLATE_NOOP("LeadDecisions", "rating"),
    "result": QT_TRANSLATE_NOOP("LeadDecisions", "audit result"),
    "decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "decision"),
    "overturned_decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "replaces decision"),
    "to_queue": QT_TRANSLATE_NOOP("LeadDecisions", "to queue"),
    "reasons": QT_TRANSLATE_NOOP("LeadDecisions", "why queued"),
    "lease_expires_at": QT_TRANSLATE_NOOP("LeadDecisions", "lease until"),
    "sample_id": QT_TRANSLATE_NOOP("LeadDecisions", "audit sample"),
    "audit_id": QT_TRANSLATE_NOOP("LeadDecisions", "audit"),
    "note": QT_TRANSLATE_NOOP("LeadDecisions", "note"),
    # intake, queue files and API keys
    "post": QT_TRANSLATE_NOOP("LeadDecisions", "post"),
    "version": QT_TRANSLATE_NOOP("LeadDecisions", "version"),
    "previous_version": QT_TRANSLATE_NOOP("LeadDecisions", "previous version"),
    "signal": QT_TRANSLATE_NOOP("LeadDecisions", "signal"),
    "signal_kind": QT_TRANSLATE_NOOP("LeadDecisions", "kind of signal"),
    "model": QT_TRANSLATE_NOOP("LeadDecisions", "model"),
    "label": QT_TRANSLATE_NOOP("LeadDecisions", "label"),
    "score": QT_TRANSLATE_NOOP("LeadDecisions", "score"),
    "reason": QT_TRANSLATE_NOOP("LeadDecisions", "reason"),
    "organisation": QT_TRANSLATE_NOOP("LeadDecisions", "organisation"),
    "rule": QT_TRANSLATE_NOOP("LeadDecisions", "routing rule"),
    "source": QT_TRANSLATE_NOOP("LeadDecisions", "source"),
    "earlier_item_id": QT_TRANSLATE_NOOP("LeadDecisions", "earlier item"),
    "earlier_decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "earlier decision"),
    "earlier_action": QT_TRANSLATE_NOOP("LeadDecisions", "earlier action"),
    "new_item_id": QT_TRANSLATE_NOOP("LeadDecisions", "new item"),
    "from_queue": QT_TRANSLATE_NOOP("LeadDecisions", "from queue"),
    "state": QT_TRANSLATE_NOOP("LeadDecisions", "state"),
    "lease_ended": QT_TRANSLATE_NOOP("LeadDecisions", "lease ended"),
    "name": QT_TRANSLATE_NOOP("LeadDecisions", "name"),
    "account": QT_TRANSLATE_NOOP("LeadDecisions", "account"),
    "role": QT_TRANSLATE_NOOP("LeadDecisions", "role"),
    "prefix": QT_TRANSLATE_NOOP("LeadDecisions", "key prefix"),
    "key_id": QT_TRANSLATE_NOOP("LeadDecisions", "key"),
    "username": QT_TRANSLATE_NOOP("LeadDecisions", "user"),
    "service_account": QT_TRANSLATE_NOOP("LeadDecisions", "service account"),
    "queues": QT_TRANSLATE_NOOP("LeadDecisions", "queues"),
    "added": QT_TRANSLATE_NOOP("LeadDecisions", "added"),
    "removed": QT_TRANSLATE_NOOP("LeadDecisions", "removed"),
    "changed": QT_TRANSLATE_NOOP("LeadDecisions", "changed"),
    "drained": QT_TRANSLATE_NOOP("LeadDecisions", "emptied into"),
    "sha256": QT_TRANSLATE_NOOP("LeadDecisions", "file hash"),
    "added_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues added"),
    "removed_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues removed"),
    "changed_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues changed"),
    "moved_pending_count": QT_TRANSLATE_NOOP("LeadDecisions", "waiting items moved"),
    "moved_leased_count": QT_TRANSLATE_NOOP("LeadDecisions", "reserved items moved"),
    # account actions
    "author": QT_TRANSLATE_NOOP("LeadDecisions", "author"),
    "author_id": QT_TRANSLATE_NOOP("LeadDecisions", "author id"),
    "author_action": QT_TRANSLATE_NOOP("LeadDecisions", "account action"),
    "status_before": QT_TRANSLATE_NOOP("LeadDecisions", "account status before"),
    "status": QT_TRANSLATE_NOOP("LeadDecisions", "account status"),
    "account_action_id": QT_TRANSLATE_NOOP("LeadDecisions", "account decision"),
    "closed_items": QT_TRANSLATE_NOOP("LeadDecisions", "open items closed"),
    "reverses_account_action_id": QT_TRANSLATE_NOOP("LeadDecisions", "reverses account decision"),
    # webhook endpoints
    "endpoint": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint"),
    "url": QT_TRANSLATE_NOOP("LeadDecisions", "address"),
    "kinds": QT_TRANSLATE_NOOP("LeadDecisions", "action kinds"),
    "from_seq": QT_TRANSLATE_NOOP("LeadDecisions", "from cursor"),
    "previous_seq": QT_TRANSLATE_NOOP("LeadDecisions", "cursor before"),
    "previous_secret_until": QT_TRANSLATE_NOOP("LeadDecisions", "old secret signs until"),
}


#: details that name a queue (by its id on the wire)
QUEUE_DETAILS = frozenset(("to_queue", "from_queue", "drained"))


def queue_titles(queues: Mapping[str, QueueWords]) -> dict[str, str]:
    """Queue id to name, as the wire gives it (``code_words`` isolates it)."""
    return {queue_id: words.title for queue_id, words in queues.items()}


def event_line(
    event: Event,
    queues: Mapping[str, QueueWords] | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """One event as a plain line: local time, what happened, who, and the details. With
    the lead's ``queues``, a queue is named by its name and an action or a rating by its
    label in the event's queue (as the table above says them), not by their codes.
    ``names`` (queue id to name as the wire gives it) saves making it for every event."""
    queues = queues or {}
    words_of = queues.get(event.queue_id or "")
    if names is None:
        names = queue_titles(queues)
    when = event.at.astimezone().strftime(TIME_FORMAT)
    kind = event.kind.value
    words = translate("LeadDecisions", EVENT_WORDS.get(kind, kind.replace("_", " ")))
    who = (
        " " + translate("LeadDecisions", "by {actor}").format(actor=isolate(event.actor))
        if event.actor
        else ""
    )
    queue = (
        " "
        + translate("LeadDecisions", "in {queue}").format(queue=code_words(event.queue_id, names))
        if event.queue_id and kind == "enqueued"
        else ""
    )
    details = []
    for key, value in event.data.items():
        if value is None or value == [] or value == "":
            continue
        labels = {
            "action": words_of.actions if words_of else None,
            "earlier_action": words_of.actions if words_of else None,
            "rating": words_of.ratings if words_of else None,
        }.get(key)
        if key in QUEUE_DETAILS and isinstance(value, str) and value in names:
            shown = code_words(value, names)
        elif isinstance(value, list):
            shown = ", ".join(value_words(v) for v in value)
        elif isinstance(value, bool):
            shown = translate("LeadDecisions", "yes") if value else translate("LeadDecisions", "no")
        else:  # times in local time, codes in words ("false_information": false information)
            shown = value_words(value, labels)
        name = translate("LeadDecisions", DETAIL_WORDS.get(key, key.replace("_", " ")))
        details.append(f"{name}: {shown}")
    tail = f" — {'; '.join(details)}" if details else ""
    return f"{when}  {words}{who}{queue}{tail}"


def fetch_history(
    client: ApiClient, item_id: str, queues: Mapping[str, QueueWords] | None = None
) -> tuple[list[str], bool]:
    """The lines of an item's history (oldest first) and whether more were left out."""
    lines: list[str] = []
    cursor: str | None = None
    names = queue_titles(queues or {})
    for _ in range(HISTORY_PAGES):
        page = client.history(item_id, cursor)
        lines.extend(event_line(e, queues, names) for e in page.events)
        cursor = page.next_cursor
        if cursor is None:
            return lines, False
    return lines, True
