"""The calls of a reviewer's work: the service's meta, the session, queues, leases,
verdicts, media, breaks and exposure, and the feedback on their own decisions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time
from urllib.parse import quote

from pydantic import ValidationError

from reviewer_app.protocol import (
    BreakRecord,
    EventPage,
    ExposureReport,
    FeedbackNotice,
    FeedbackSeen,
    Item,
    LeaseClaim,
    LeasedItem,
    LeaseGrant,
    LeaseRelease,
    LeaseRenewal,
    LeaseResults,
    Meta,
    MyDecisionPage,
    QueueList,
    SessionCreate,
    SessionInfo,
    User,
    Verdict,
    VerdictBatch,
    VerdictResults,
)

from ..errors import AuthenticationRequired, IncompatibleServer, ProtocolError
from .transport import (
    SUPPORTED_MAJORS,
    HttpClient,
    _name_of,
    _summary,
    _wire_time,
    known_fields,
    log,
)


def local_midnight() -> datetime:
    """This machine's last local midnight, with its UTC offset then (a day the clocks
    change on is 23 or 25 hours long: the offset now may differ)."""
    return datetime.combine(datetime.now().date(), time()).astimezone()


class ReviewCalls(HttpClient):
    """What every reviewer's client calls."""

    def meta(self) -> Meta:
        return self._call("GET", "/meta", reply=Meta, auth=False)

    def check_compatible(self) -> Meta:
        """``GET /meta``; raises IncompatibleServer for a major version we do not speak."""
        meta = self.meta()
        major = int(meta.api_version.split(".", 1)[0])
        if major not in SUPPORTED_MAJORS:
            ours = ", ".join(f"{m}.x" for m in sorted(SUPPORTED_MAJORS))
            raise IncompatibleServer(
                f"The server at {self.server_url} speaks API version {meta.api_version}; "
                f"this client speaks {ours}. Use a client release for API "
                f"{major}.x, or a server that still offers {ours}."
            )
        return meta

    def login(self, username: str, password: str) -> SessionInfo:
        info = self._call(
            "POST",
            "/sessions",
            body=SessionCreate(username=username, password=password),
            reply=SessionInfo,
            auth=False,
        )
        self.token = info.token
        return info

    def logout(self) -> None:
        """Revokes the token on the server (an expired token is as good as revoked)."""
        try:
            self._call("DELETE", "/sessions/current", reply=None)
        except AuthenticationRequired:
            pass
        finally:
            self.token = None

    def me(self) -> User:
        return self._call("GET", "/me", reply=User)

    def queues(self, *, day_start: datetime | None = None) -> QueueList:
        """The queues this user may work, with their counts; ``decided_today`` from
        ``day_start`` (default: this machine's last local midnight, so "today" is the
        reviewer's day, not UTC's)."""
        start = day_start if day_start is not None else local_midnight()
        params = {"day_start": _wire_time(start, "day_start")}
        return self._call("GET", "/queues", reply=QueueList, params=params)

    def claim(self, queue_id: str, count: int, lease_seconds: int) -> LeaseGrant:
        """Lease up to ``count`` items. An item that breaks the contract does not spoil the
        others: it is left out of the grant and listed in ``unusable`` (item id or token,
        and why), so the caller can report it."""
        what = f"POST /queues/{queue_id}/leases"
        doc = self._call(
            "POST",
            f"/queues/{quote(queue_id, safe='')}/leases",
            body=LeaseClaim(count=count, lease_seconds=lease_seconds),
            reply=None,
            parse=True,
            read_timeout=self.timeouts.long_read,
        )
        if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
            raise ProtocolError(f"The server's reply to {what} breaks the contract: no items.")
        items, self.unusable = [], []
        for raw_item in doc["items"]:
            try:
                items.append(known_fields(LeasedItem, raw_item))
            except ValidationError as err:
                name = _name_of(raw_item)
                self.unusable.append((name, _summary(err)))
                log.warning("item %s from %s left out: %s", name, what, _summary(err))
        return self._validated(LeaseGrant, {**doc, "items": []}, what).model_copy(
            update={"items": items}
        )

    def renew(self, tokens: Sequence[str], lease_seconds: int) -> LeaseResults:
        body = LeaseRenewal(tokens=list(tokens), lease_seconds=lease_seconds)
        return self._call("POST", "/leases/renew", body=body, reply=LeaseResults)

    def release(self, tokens: Sequence[str], *, skipped: bool = False) -> LeaseResults:
        """Give leases back; ``skipped``: the reviewer skipped the items (the service then
        offers them to this reviewer only when nothing else is left)."""
        body = LeaseRelease(tokens=list(tokens), skipped=skipped)
        return self._call("POST", "/leases/release", body=body, reply=LeaseResults)

    def record_break(self, record: BreakRecord) -> BreakRecord:
        """A break this reviewer takes, as it starts or ends (the same id updates it)."""
        return self._call("POST", "/breaks", body=record, reply=BreakRecord)

    def exposure(self) -> ExposureReport:
        """Per reviewer: items of each kind of harm this shift and in 7 days, and breaks."""
        return self._call("GET", "/stats/exposure", reply=ExposureReport)

    def item(self, item_id: str) -> Item:
        return self._call("GET", f"/items/{quote(item_id, safe='')}", reply=Item)

    def history(self, item_id: str, cursor: str | None = None) -> EventPage:
        params = {"cursor": cursor} if cursor else None
        return self._call(
            "GET", f"/items/{quote(item_id, safe='')}/history", reply=EventPage, params=params
        )

    def verdicts(self, verdicts: Sequence[Verdict]) -> VerdictResults:
        results = self._call(
            "POST", "/verdicts", body=VerdictBatch(verdicts=list(verdicts)), reply=VerdictResults
        )
        sent = [(v.idempotency_key, v.item_id) for v in verdicts]
        got = [(r.idempotency_key, r.item_id) for r in results.results]
        if got != sent:
            raise ProtocolError(
                f"The server answered {len(got)} verdict results that do not match the "
                f"{len(sent)} verdicts sent; none of them is taken as delivered."
            )
        return results

    def media(self, media_id: str, *, max_bytes: int = 50 * 1024 * 1024) -> tuple[bytes, str]:
        """The bytes of one media file and their content type."""
        response = self._send(
            "GET", f"/media/{quote(media_id, safe='')}", None, None, True, self.timeouts.long_read
        )
        body = self._read(response, "GET /media", min(max_bytes, self.max_reply_bytes))
        if response.status_code != 200:
            raise self._problem(response, body, "GET /media")
        kind = response.headers.get("Content-Type", "application/octet-stream")
        return body, kind.split(";", 1)[0].strip()

    # --- feedback to reviewers -------------------------------------------------------

    def my_decisions(
        self,
        since: datetime | None = None,
        until: datetime | None = None,
        cursor: str | None = None,
        limit: int = 200,
    ) -> MyDecisionPage:
        """The caller's own decisions, newest first, with what became of each (default
        window: the last 7 days)."""
        params: dict[str, str | int] = {"limit": limit}
        if since is not None:
            params["since"] = _wire_time(since, "since")
        if until is not None:
            params["until"] = _wire_time(until, "until")
        if cursor:
            params["cursor"] = cursor
        return self._call("GET", "/me/decisions", reply=MyDecisionPage, params=params)

    def feedback_notice(self) -> FeedbackNotice:
        """Overturns and leads' notes on the caller's decisions since they last looked."""
        return self._call("GET", "/me/feedback", reply=FeedbackNotice)

    def mark_feedback_seen(
        self, until: datetime, *, shown_since: datetime | None = None
    ) -> FeedbackNotice:
        """The caller saw their feedback up to ``until`` (a notice's ``as_of``), on their
        decisions received from ``shown_since`` on (None: on all). Repeating it is
        harmless, but like every POST it is retried only when it surely never arrived."""
        body = FeedbackSeen(until=until, shown_since=shown_since)
        return self._call("POST", "/me/feedback/seen", body=body, reply=FeedbackNotice)
