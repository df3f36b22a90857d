"""The Service's platform side: the enforcement feed, webhooks and intake."""

from __future__ import annotations

from functools import partial

from reviewer_app.protocol.enforcement import EnforcementPage
from reviewer_app.protocol.intake import (
    Appeal,
    FactCheckPage,
    FactCheckRating,
    IntakePost,
    IntakeResults,
    MediaUploaded,
    Signal,
    Withdrawal,
)
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookList
from reviewer_app.server.domain import appeals, enforcement_feed, webhook_endpoints
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.facade.base import ServiceBase


class PlatformFacade(ServiceBase):
    """What platforms and fact-checkers send and read (each call its own transaction)."""

    def enforcement_page(
        self, caller: Principal, after: int, limit: int
    ) -> tuple[EnforcementPage, int]:
        """The platform's own sealed actions after seq ``after``, and the sealed head read
        before them (what a long poll waits to see pass). A reader catching up (more than
        a page behind the sealed head) reads the replica when there is one: sealed actions
        never change, so a replica behind only gives a shorter page and an older head. A
        page the replica cannot fill is read from the primary: the replica's end may be
        behind it, and an empty page told a platform it had caught up when it had not (a
        long poll then read the replica again and again for its whole wait)."""
        if self.reads.replica is not None and after + limit < self.feed.head():
            found = self.reads.run(  # None: the primary's page below
                lambda conn, _source: enforcement_feed.page(conn, caller.username, after, limit),
                replica_only=True,
            )
            if found is not None and len(found[0].actions) >= limit:
                return found
        return self.feed.page(caller.username, after, limit)

    def webhooks(self) -> WebhookList:
        """Every endpoint and its health (no secrets)."""
        with self.db.read() as conn:
            return webhook_endpoints.listing(conn)

    def webhook(self, endpoint_id: int) -> WebhookEndpoint:
        with self.db.read() as conn:
            return webhook_endpoints.one(conn, endpoint_id)

    def add_webhook(
        self, url: str, account: str, kinds: list[str] | None, actor: str | None
    ) -> tuple[WebhookEndpoint, str]:
        """A new endpoint of the platform account ``account``, and its secret (shown once).
        Its cursor starts past every action decided before this call: those the sequencer
        has not sealed yet are sealed first (else they would be numbered after the cursor
        and sent to an endpoint that did not exist when they were decided)."""
        self.seal_now()
        with self.db.write() as conn:
            return webhook_endpoints.add(conn, url, account, kinds, self.clock(), actor)

    def disable_webhook(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            return webhook_endpoints.disable(
                conn, endpoint_id, "disabled by an operator", self.clock(), actor
            )

    def enable_webhook(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            found = webhook_endpoints.enable(conn, endpoint_id, self.clock(), actor)
        self.dispatcher.poke()
        return found

    def rotate_webhook_secret(
        self, endpoint_id: int, actor: str | None, grace_seconds: float | None = None
    ) -> tuple[WebhookEndpoint, str]:
        """A new secret; the previous one signs too for ``grace_seconds`` (the setting's
        when None)."""
        grace = (
            self.settings.webhook_rotation_grace_seconds if grace_seconds is None else grace_seconds
        )
        with self.db.write() as conn:
            return webhook_endpoints.rotate_secret(conn, endpoint_id, self.clock(), actor, grace)

    def finish_webhook_rotation(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            return webhook_endpoints.finish_rotation(conn, endpoint_id, self.clock(), actor)

    def replay_webhook(self, endpoint_id: int, from_seq: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            found = webhook_endpoints.replay(conn, endpoint_id, from_seq, self.clock(), actor)
        self.dispatcher.poke()
        return found

    def intake_posts(self, caller: Principal, posts: list[IntakePost]) -> IntakeResults:
        """Posts from the platform account ``caller`` (the source of their ids)."""
        return self.intake.posts(caller, posts)

    def intake_signals(self, caller: Principal, signals: list[Signal]) -> IntakeResults:
        return self.intake.signals(caller, signals)

    def intake_withdrawals(self, caller: Principal, withdrawals: list[Withdrawal]) -> IntakeResults:
        return self.intake.withdrawals(caller, withdrawals)

    def intake_appeals(self, caller: Principal, batch: list[Appeal]) -> IntakeResults:
        """Appeals of decisions (appeals.py), one transaction; a result per appeal."""
        return IntakeResults(
            results=self.intake.run(caller, partial(appeals.intake_appeals, batch=batch))
        )

    def intake_media(
        self, caller: Principal, content: bytes, declared_type: str | None
    ) -> MediaUploaded:
        return self.intake.media(caller, content, declared_type)[0]

    def submit_fact_checks(
        self, caller: Principal, ratings: list[FactCheckRating]
    ) -> IntakeResults:
        """Ratings from the fact-checker account ``caller`` (its display name is the
        organisation)."""
        return self.intake.fact_checks(caller, ratings)

    def fact_checks(self, caller: Principal, cursor: str | None, limit: int) -> FactCheckPage:
        """The fact-checker's own ratings, oldest first."""
        return self.intake.fact_check_page(caller, cursor, limit)
