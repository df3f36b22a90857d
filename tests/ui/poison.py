"""A generic poisoner of the wire: every free-text field of every reply the client reads is
replaced with hostile strings, within the contract's limits, so the reply stays valid and
reaches the widgets.

Free-text fields are found in the pydantic models' JSON schemas, not listed by hand: a
string whose only constraint is "no NUL" (``Label``, ``ShortText``, ``LongText``,
``NoteText``). Ids, slugs, policy codes, user names, URLs, enum values, times and tokens have
patterns or formats of their own and are left alone, so every reference still resolves.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from reviewer_app.protocol import (
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleList,
    AuditTaskGrant,
    DecisionPage,
    EventPage,
    ExposureReport,
    Item,
    LeaseGrant,
    QueueList,
    QueueStatsReport,
    ReviewerStatsReport,
    SessionInfo,
    User,
    VerdictResults,
)
from reviewer_app.protocol.common import _NO_NUL

#: Every reply a client window reads that can carry free text (``/meta`` is left alone: its
#: feature names are the client's switches, not something shown).
REPLIES: tuple[type[BaseModel], ...] = (
    LeaseGrant,
    QueueList,
    Item,
    EventPage,
    DecisionPage,
    QueueStatsReport,
    ReviewerStatsReport,
    ExposureReport,
    AuditSampleList,
    AuditSample,
    AuditTaskGrant,
    AuditResults,
    AuditResult,
    VerdictResults,
    SessionInfo,
    User,
)


def is_free_text(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "string" and schema.get("pattern") == _NO_NUL


class Poisoner:
    """Rewrites reply bodies (for FaultProxy "rewrite" rules); thread-safe."""

    def __init__(self, strings: Sequence[str], models: Sequence[type[BaseModel]] = REPLIES):
        self.strings = list(strings)
        self.models = list(models)
        self.schemas = {m: m.model_json_schema(mode="serialization") for m in models}
        self._next = itertools.count()
        self._lock = threading.Lock()
        #: (model name, free-text paths poisoned) per reply rewritten
        self.rewritten: list[tuple[str, int]] = []
        #: replies whose poisoned form no longer validated (they are passed on unchanged)
        self.failures: list[str] = []
        #: every free-text field name poisoned, as model.field
        self.fields: set[str] = set()

    def text(self, schema: dict[str, Any]) -> str:
        with self._lock:
            value = self.strings[next(self._next) % len(self.strings)]
        value = value[: schema.get("maxLength", len(value))]
        if len(value) < schema.get("minLength", 0):
            value = "x" * schema["minLength"]
        return value

    def __call__(self, body: bytes) -> bytes:
        try:
            doc = json.loads(body)
        except ValueError:
            return body  # media bytes and the like
        model = next((m for m in self.models if _valid(m, doc)), None)
        if model is None:
            return body  # problem documents, /meta, lease results
        schema = self.schemas[model]
        count = [0]
        poisoned = self._walk(doc, schema, schema.get("$defs", {}), model.__name__, count)
        out = json.dumps(poisoned).encode()  # lone surrogates travel as \ud800 escapes
        try:  # as the client reads it: lone surrogates become U+FFFD, then the model
            model.model_validate(_replace_surrogates(json.loads(out)))
        except ValidationError as err:
            self.failures.append(f"{model.__name__}: {err}"[:2_000])
            return body
        with self._lock:
            self.rewritten.append((model.__name__, count[0]))
        return out

    def _walk(
        self, value: Any, schema: dict[str, Any], defs: dict[str, Any], owner: str, count: list[int]
    ) -> Any:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            return self._walk(value, defs[name], defs, name, count)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                branch = _branch(value, schema[key], defs)
                return value if branch is None else self._walk(value, branch, defs, owner, count)
        if isinstance(value, dict):
            props = schema.get("properties", {})
            for name, inner in list(value.items()):
                if name in props:
                    if isinstance(inner, str) and is_free_text(_resolved(props[name], defs)):
                        self.fields.add(f"{owner}.{name}")
                    value[name] = self._walk(inner, props[name], defs, owner, count)
            return value
        if isinstance(value, list):
            items = schema.get("items", {})
            return [self._walk(v, items, defs, owner, count) for v in value]
        if isinstance(value, str) and is_free_text(schema):
            count[0] += 1
            return self.text(schema)
        return value


def _valid(model: type[BaseModel], doc: Any) -> bool:
    try:
        model.model_validate(doc)
        return True
    except ValidationError:
        return False


def _replace_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [_replace_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {k: _replace_surrogates(v) for k, v in value.items()}
    return value


def _resolved(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key, []):
            if is_free_text(branch):
                return branch
    return schema


def _branch(value: Any, branches: list[dict[str, Any]], defs: dict[str, Any]) -> dict | None:
    """The branch of a union that describes ``value`` (by JSON type)."""
    kind = {dict: "object", list: "array", str: "string", type(None): "null"}.get(type(value))
    for branch in branches:
        target = defs[branch["$ref"].rsplit("/", 1)[-1]] if "$ref" in branch else branch
        if target.get("type") == kind or (kind == "object" and "properties" in target):
            return branch
    return None


def poisoned_rules(poisoner: Callable[[bytes], bytes]) -> list[Any]:
    """FaultProxy rules that pass every JSON reply of the API through ``poisoner``."""
    from tests.support.proxy import Rule

    return [
        Rule(method, "/api/v1/", "rewrite", times=10**9, rewrite=poisoner)
        for method in ("GET", "POST", "PUT")
    ]
