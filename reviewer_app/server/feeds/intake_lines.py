"""Intake records one JSON object a line, sent through the service's intake in batches.

The same lines serve a back-fill (``reviewer-app server import FILE.jsonl``) and the demo
(``server seed --demo`` replays ``demo/demo_posts.jsonl``). Each line is one object with a
``type`` and, beside it, the intake API's own shape:

``{"type": "post", ...IntakePost}``
    a post (new, or a new version of one sent before).
``{"type": "signal", "kind": "classifier" | "report" | "fact_check", ...}``
    a signal on a post (the ``Signal`` shapes of ``POST /intake/signals``).
``{"type": "withdrawal", ...Withdrawal}``
    the post was deleted or made private upstream.
``{"type": "media", "ref": NAME, "file": PATH, "mime_type": TYPE}``
    a media file to upload (``PATH`` relative to the JSONL file); posts after it name it
    in ``media[].media_id`` by ``NAME``.
``{"type": "meta", ...}``
    about the file (the demo's generation time); nothing is sent.

A line may also carry ``received_at`` (when the platform sent it): the demo's replay runs
intake at that time; ``server import`` ignores it. Posts, signals and withdrawals go in
batches of their own, each post's lines in file order (``Sender``), so a post sent before
its signals is there when they come. A line that is not JSON, not an object, of no known
type or not of its type's shape is *rejected*: it is reported with its line number and
the reason, and the rest goes on.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, get_args

from pydantic import TypeAdapter, ValidationError

from reviewer_app.protocol import (
    MAX_INTAKE_BATCH,
    IntakePost,
    IntakeResult,
    IntakeStatus,
    Signal,
    Withdrawal,
    describe_errors,
)
from reviewer_app.protocol.common import MediaId
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service

LINE_TYPES = ("post", "signal", "withdrawal", "media", "meta")
DEFAULT_BATCH = 200
MAX_BATCH = MAX_INTAKE_BATCH
MAX_LINE_BYTES = 4 * 1024 * 1024
"""A longer line is rejected without being parsed (a post is at most a few hundred KB)."""

_SIGNAL: TypeAdapter[Signal] = TypeAdapter(Signal)
_TIME: TypeAdapter[datetime] = TypeAdapter(datetime)
_MEDIA_REF: TypeAdapter[str] = TypeAdapter(MediaId)
MEDIA_REF_PATTERN: str = get_args(MediaId)[1].pattern
"""what a media line's ``ref`` must match: a post names it as its ``media_id``"""


@dataclass(frozen=True)
class MediaLine:
    ref: str
    file: str
    mime_type: str | None = None


@dataclass(frozen=True)
class Line:
    """A line that parsed: its number, its type and its model."""

    number: int
    type: str
    value: Any
    received_at: datetime | None = None


@dataclass(frozen=True)
class Rejection:
    """A line that was not imported, and why (``code`` is stable, ``message`` for people)."""

    number: int
    code: str
    message: str
    external_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        """As the rejects file lists it: text UTF-8 can hold (see ``readable``)."""
        found: dict[str, Any] = {
            "line": self.number,
            "code": self.code,
            "reason": readable(self.message),
        }
        if self.external_id is not None:
            found["external_id"] = readable(self.external_id)
        return found


def readable(text: str) -> str:
    """``text``, with a lone surrogate (``"bad\\udc80id"`` in a line's JSON: half of a
    character, which UTF-8 cannot hold) written as its escape, ``\\udc80``: a refusal
    naming it could not be written, and the import stopped there on every run."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def parse_object(obj: Any, number: int) -> Line | Rejection:
    """A decoded line as a ``Line``, or why it is refused."""
    if not isinstance(obj, dict):
        return Rejection(number, "not_an_object", "a line must be one JSON object")
    kind = obj.get("type")
    if kind not in LINE_TYPES:
        return Rejection(
            number,
            "unknown_type",
            f"'type' must be one of {', '.join(LINE_TYPES)} (got {str(kind)[:40]!r})",
        )
    body = {k: v for k, v in obj.items() if k not in ("type", "received_at")}
    try:
        received_at = _TIME.validate_python(obj["received_at"]) if "received_at" in obj else None
        if kind == "post":
            value: Any = IntakePost.model_validate(body)
        elif kind == "signal":
            value = _SIGNAL.validate_python(body)
        elif kind == "withdrawal":
            value = Withdrawal.model_validate(body)
        elif kind == "media":
            value = _media_line(body)
        else:
            value = body
    except ValidationError as exc:
        return Rejection(number, "invalid", describe_errors(exc), _external_id(body))
    except ValueError as exc:
        return Rejection(number, "invalid", str(exc), _external_id(body))
    return Line(number, kind, value, received_at)


def parse_line(raw: bytes, number: int) -> Line | Rejection:
    """One line of a JSONL file (bytes, with or without its newline)."""
    if len(raw) > MAX_LINE_BYTES:
        return Rejection(number, "line_too_long", f"a line may be {MAX_LINE_BYTES:,} bytes")
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return Rejection(number, "not_json", f"not JSON: {str(exc)[:200]}")
    except RecursionError:
        return Rejection(number, "not_json", "not JSON this service reads: nested too deeply")
    return parse_object(obj, number)


def still_written(last: bytes, number: int) -> bool:
    """Whether a file's last line, which has no line end, is a line still being written
    (not JSON yet): it is left where it is, not rejected (its end, written later, was then
    rejected too, and its post never imported)."""
    found = parse_line(last, number)
    return isinstance(found, Rejection) and found.code == "not_json"


def _media_line(body: dict[str, Any]) -> MediaLine:
    ref, path, mime = body.get("ref"), body.get("file"), body.get("mime_type")
    unknown = set(body) - {"ref", "file", "mime_type"}
    if unknown:
        raise ValueError(f"unknown fields: {', '.join(sorted(unknown))}")
    if not isinstance(ref, str) or not isinstance(path, str) or not ref or not path:
        raise ValueError("a media line names its 'ref' and its 'file'")
    if mime is not None and not isinstance(mime, str):
        raise ValueError("'mime_type' must be a string")
    try:
        _MEDIA_REF.validate_python(ref)
    except ValidationError:
        # no post could name it (its media_id has this pattern): uploaded for nothing
        raise ValueError(
            f"'ref' must match {MEDIA_REF_PATTERN} (a post names it as its media_id), "
            f"not {ref[:80]!r}"
        ) from None
    return MediaLine(ref, path, mime)


def _external_id(body: dict[str, Any]) -> str | None:
    for key in ("external_id", "id", "post_external_id", "ref"):
        value = body.get(key)
        if isinstance(value, str):
            return readable(value[:200])
    return None


# -- sending --------------------------------------------------------------------------------


class IntakeTarget:
    """What the lines go to: the service's intake methods, as one caller."""

    def __init__(self, service: Service, caller: Principal) -> None:
        self.service = service
        self.caller = caller

    def posts(self, posts: list[IntakePost]) -> list[IntakeResult]:
        return self.service.intake_posts(self.caller, posts).results

    def signals(self, signals: list[Signal]) -> list[IntakeResult]:
        return self.service.intake_signals(self.caller, signals).results

    def withdrawals(self, withdrawals: list[Withdrawal]) -> list[IntakeResult]:
        return self.service.intake_withdrawals(self.caller, withdrawals).results

    def media(self, content: bytes, declared_type: str | None) -> str:
        return str(self.service.intake_media(self.caller, content, declared_type).media_id)


@dataclass
class Tally:
    """What a run did: results by line type and status, and the lines rejected."""

    counts: Counter[str] = field(default_factory=Counter)
    rejected: int = 0

    def add(self, kind: str, status: str, n: int = 1) -> None:
        self.counts[f"{kind}.{status}"] += n

    def as_json(self) -> dict[str, int]:
        return {**dict(sorted(self.counts.items())), "rejected": self.rejected}


_KINDS = ("post", "signal", "withdrawal")
"""the order a batch's parts are sent in: posts, then signals on them, then withdrawals"""
_RANK = {kind: n for n, kind in enumerate(_KINDS)}


def _post_of(line: Line) -> str:
    value = line.value
    return str(value.external_id if line.type == "post" else value.post_external_id)


class Sender:
    """Sends parsed lines to an ``IntakeTarget`` in batches of up to ``batch_size``.

    Posts, signals and withdrawals are held apart and sent together (a call for each, in
    that order) when one of them is full, so a file that interleaves them (a post, its
    signals, the next post) still goes in batches. Each post's lines keep their file
    order: a line that would be sent before an earlier held line of its post (a new
    version of a post after its signals, a signal after its withdrawal) first sends what
    is held; so does a media line (uploaded where it stands). With ``window``, a line
    received more than ``window`` seconds after the held ones' first also does, and ``at``
    is told each send's first ``received_at`` before it goes (the demo's replay clock)."""

    def __init__(
        self,
        target: IntakeTarget,
        *,
        read_media: Callable[[str], bytes],
        batch_size: int = DEFAULT_BATCH,
        window: float | None = None,
        at: Callable[[datetime | None], None] | None = None,
        media: dict[str, str] | None = None,
    ) -> None:
        if not 1 <= batch_size <= MAX_BATCH:
            raise ValueError(f"the batch size must be between 1 and {MAX_BATCH}")
        self.target = target
        self.read_media = read_media
        self.batch_size = batch_size
        self.window = window
        self.at = at
        self.media = media if media is not None else {}
        """media line ``ref`` -> the service's media id"""
        self.tally = Tally()
        self.batches = 0
        """sends made (a send: its intake calls, or a media upload)"""
        self._held: dict[str, list[Line]] = {kind: [] for kind in _KINDS}
        self._first: Line | None = None
        self._latest: dict[str, int] = {}
        """post external id -> the rank of its latest held line"""

    @property
    def pending(self) -> int:
        """Lines held, not sent yet."""
        return sum(len(lines) for lines in self._held.values())

    def add(self, line: Line) -> list[Rejection]:
        """Hold one line (sending what is held first or after, as the class says); returns
        the lines the sends rejected."""
        rejected: list[Rejection] = []
        if line.type == "meta":
            return rejected
        if self._first is not None and self._must_send_before(line):
            rejected += self.flush()
        if line.type == "media":
            return rejected + self._upload(line)
        held = self._held[line.type]
        held.append(line)
        if self._first is None:
            self._first = line
        post = _post_of(line)
        self._latest[post] = max(self._latest.get(post, 0), _RANK[line.type])
        if len(held) >= self.batch_size:
            rejected += self.flush()
        return rejected

    def _must_send_before(self, line: Line) -> bool:
        if line.type == "media":
            return True
        if self._latest.get(_post_of(line), -1) > _RANK[line.type]:
            return True
        first = self._first
        assert first is not None
        if self.window is None or line.received_at == first.received_at:
            return False
        if line.received_at is None or first.received_at is None:
            return True
        return abs((line.received_at - first.received_at).total_seconds()) > self.window

    def flush(self) -> list[Rejection]:
        """Send what is held; returns the lines rejected."""
        first = self._first
        if first is None:
            return []
        held = self._held
        self._held = {kind: [] for kind in _KINDS}
        self._first = None
        self._latest = {}
        if self.at is not None:
            self.at(first.received_at)
        self.batches += 1
        rejected: list[Rejection] = []
        for kind, batch in held.items():
            if batch:
                rejected += self._send(kind, batch)
        self.tally.rejected += len(rejected)
        return rejected

    def _send(self, kind: str, batch: list[Line]) -> list[Rejection]:
        if kind == "post":
            results = self.target.posts([self._with_media(line.value) for line in batch])
        elif kind == "signal":
            results = self.target.signals([line.value for line in batch])
        else:
            results = self.target.withdrawals([line.value for line in batch])
        rejected: list[Rejection] = []
        for line, result in zip(batch, results, strict=True):
            self.tally.add(kind, result.status.value)
            if result.status is IntakeStatus.rejected:
                reason = result.reason
                rejected.append(
                    Rejection(
                        line.number,
                        reason.code if reason else "rejected",
                        reason.message if reason else "rejected by the service",
                        result.external_id,
                    )
                )
        return rejected

    def _with_media(self, post: IntakePost) -> IntakePost:
        """The post with its media lines' names replaced by the ids they were uploaded as."""
        if not any(m.media_id in self.media for m in post.media):
            return post
        media = [
            m.model_copy(update={"media_id": self.media[m.media_id]})
            if m.media_id in self.media
            else m
            for m in post.media
        ]
        return post.model_copy(update={"media": media})

    def _upload(self, line: Line) -> list[Rejection]:
        spec: MediaLine = line.value
        try:
            content = self.read_media(spec.file)
        except (OSError, ValueError) as exc:
            self.tally.add("media", "rejected")
            self.tally.rejected += 1
            return [Rejection(line.number, "media_unreadable", str(exc)[:300], spec.ref)]
        self.batches += 1
        try:
            self.media[spec.ref] = self.target.media(content, spec.mime_type)
        except ApiError as exc:
            self.tally.add("media", "rejected")
            self.tally.rejected += 1
            return [Rejection(line.number, exc.code, exc.detail[:300], spec.ref)]
        self.tally.add("media", "uploaded")
        return []


__all__ = [
    "DEFAULT_BATCH",
    "LINE_TYPES",
    "MAX_BATCH",
    "IntakeTarget",
    "Line",
    "MediaLine",
    "Rejection",
    "Sender",
    "Tally",
    "parse_line",
    "parse_object",
    "readable",
    "still_written",
]
