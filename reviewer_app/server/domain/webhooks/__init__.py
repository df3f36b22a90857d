"""The webhook dispatcher: each endpoint's enforcement actions, POSTed in order, signed.

**Messages** follow the Standard Webhooks specification: one POST per action, the body
``{"type": "enforcement.action", "timestamp": <decided at>, "data": <the action as the feed
gives it>}`` (compact JSON), and the headers ``webhook-id`` (``act_<action id>``: the same
on every attempt and replay, the receiver's idempotency key), ``webhook-timestamp`` (this
attempt's time, epoch seconds) and ``webhook-signature``: ``v1,`` and the base64 of
HMAC-SHA256 over ``<id>.<timestamp>.<body>`` keyed with the secret's bytes; during a secret
rotation one such signature per secret, space-separated.

**Order and at least once.** An endpoint's actions go out one at a time in seq order (the
feed's order), and the next only after the one before was acknowledged with a 2xx: a
``restore`` never overtakes the ``remove`` it undoes. The endpoint's cursor
(``webhook_state.delivered_seq``) moves only past acknowledged actions, and is written a
moment after (every ``COMMIT_EVERY_SECONDS`` while a run of deliveries goes on, at once
after a retry succeeds, and before anything else is written): a process killed between a
2xx and that write sends those actions again when the endpoint is next delivered. Receivers
deduplicate by ``webhook-id``.

**Lanes.** With ``webhook_lanes`` N > 1 a round's actions are spread over N connections
by author (``_lane_key``): each lane sends its actions in seq order, the next after the one
before was acknowledged, and stops at its first failure; the cursor then moves past the
acknowledged prefix in seq order, so after a failure the actions after it (other lanes'
too) go again: per author the order holds, across rounds and restarts, and a receiver far
away is not held to one action per round trip.

**Failures.** A timeout, a connection error, a 3xx (redirects are not followed), a 5xx or a
429 is retried after a random wait up to ``backoff_base * 2**(attempt - 1)``, capped at
``backoff_max`` (exponential backoff with full jitter), or after ``Retry-After`` (seconds
or an HTTP date) when the receiver says. Any other 4xx is retried the same way, since a
receiver's bad deploy is as likely as a bad message and dropping an enforcement action
is never right, but marks the endpoint ``failing`` at once: it needs a person. ``410 Gone``
disables the endpoint (the receiver says it wants no more). A message still failing
``retry_window`` (24 h) after its first failure disables the endpoint with the reason;
nothing after it is sent, so order holds, and ``webhook enable`` starts it again from that
message. ``failing_after`` consecutive failures mark an endpoint ``failing``; a success
makes it ``active``.

**One dispatcher per endpoint, across processes.** Every API process runs a dispatcher: a
thread that looks every ``poll`` seconds for endpoints with actions after their cursor
whose next attempt is due, and a few worker threads that deliver them (one endpoint per
thread at a time: a slow receiver holds its own thread, not the others). An endpoint is
delivered only under a lease on its state row: ``UPDATE webhook_state SET lease_owner =
<this dispatcher>, lease_until = now + lease WHERE endpoint_id = ? AND (lease_owner IS NULL
OR lease_until < now)``, which one process wins (PostgreSQL re-checks the condition on the
row a concurrent winner committed; SQLite has one writer). The holder renews it while it
delivers, and every write of the cursor names the owner and the state's ``version``: a
dispatcher that lost its lease (paused past its expiry) or whose endpoint an operator
changed (replay, disable, a secret rotation) writes nothing and stops (and, still holding
the lease, reads the endpoint again: a new secret signs from its next message). A message
is sent only while the lease outlasts the request (it is renewed first when it might not;
the request ends by the timeout, a deadline however slowly the receiver answers), so two
processes never send to one endpoint at once.

**A process of its own.** The dispatcher shares its process, and the GIL, with the API: a
busy API process gets through fewer messages a second than the decisions it records.
``reviewer-app server webhook run`` runs a dispatcher alone (webhook_cli.py); API processes
started with ``webhook_workers = 0`` then deliver nothing themselves.
"""
