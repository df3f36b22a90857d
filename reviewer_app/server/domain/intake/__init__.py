"""Intake: posts, signals, withdrawals, media and fact-checks from platforms and fact-checkers.

The one way in for the demo, the bulk import and a real platform. Every element is
idempotent and every batch is one write transaction with a statement per kind of row (not
one per element).

**Posts** are upserted by ``(source, external_id)``; the source is the platform account
that sends them. The post's id here, its author's and its media's are derived from the
platform's ids (a digest), so the same post sent twice at once collides on the primary
key instead of making two rows. A post's content hash (the post as sent, its author's
platform id included, the author's own fields left out) tells a replay (``unchanged``)
from a new version (``updated``: the version goes up, the open item shows the new text,
``post_updated`` in its history). Authors are merged, never duplicated: the fields a post
sends overwrite the stored ones, the fields it leaves out stay. A post alone opens no item:
signals route it (and a new version of a post that has signals is routed again).

**Signals** (classifier scores, user reports, fact-checks) are idempotent by their own id:
the same id with the same body is ``unchanged``, with another body ``rejected``
(``id_reused``). Each new signal is added to the post's ``Summary`` (routing.py). A post
with an open item (pending or leased) is never queued twice: the item gets the new
summary, its priority is recomputed, and ``signal_added`` goes in its history. A post
without one is routed (routing.route): the first queue whose rule it meets gets a new item.
A reporter's id is kept only as HMAC-SHA256 under a secret of this service (made once,
``server_secrets``), with the platform account in the message: one reporter can be told
from another, but not named.

**What comes back to review**: a queue that decided a post takes it again only by its
re-review rule, and only after a ``keep`` (``keep`` is "nothing wrong": new reports or a new
fact-check can show otherwise). A post labelled or reduced stays as decided in that queue
(the label or the lower reach is the answer to the signals that brought it), though
another queue whose rules it meets may still take it. A post removed (an action of kind
``remove``, or an author suspended) never comes back to any queue.

**Withdrawals** (the post was deleted or made private upstream) end review of its open
items: state ``withdrawn``, lease cleared and ended, ``withdrawn`` in the history. A verdict
for it later is ``rejected`` with reason ``withdrawn`` (verdicts.py); decided items stay
decided. The post gets no more signals (``post_withdrawn``) while it is withdrawn, and
sending it again is not enough to revive it: a batch of posts may be a replay, which must
change nothing. A post **deleted** never comes back: sent again with the same content it is
``unchanged``, with other content ``rejected`` (``post_deleted``). A post made **private**
comes back only when the platform says it changed after the withdrawal: sent with an
``updated_at`` later than the withdrawal's time (its ``at`` when it gave one, else when the
service received it; kept as the post's ``updated_at`` while it is withdrawn), it is live
once more (a new version if its content differs, routed by its signals again); without
one, or with one not later, it is ``unchanged``. A live post's ``updated_at`` changes
nothing (it is in neither the stored document nor the content hash).

**Concurrency**: each batch locks its posts (PostgreSQL: ``FOR UPDATE`` in id order) before
anything else touches them, so two batches on one post take turns; inserts of posts,
authors and signals are ``ON CONFLICT DO NOTHING``, and a conflict is read back as a
replay. SQLite has one writer at a time anyway. A unique index allows one open item per
post whatever happens.
"""
