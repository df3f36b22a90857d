"""Lead search over items and their decisions, and saved views (a named search or decisions
filter, private to its lead or shared with the team)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints, field_validator

from .common import (
    HttpUrl,
    ItemId,
    JsonBool,
    Label,
    Page,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .items import ItemState
from .verdicts import QUERY_YEARS, DecisionQuery

MAX_QUERY = 200
MAX_VIEWS = 200
"""Saved views a lead may keep."""
MAX_VIEW_NAME = 80


class SearchKind(StrEnum):
    """What a search looks in. ``author`` and ``text`` find the query anywhere in the
    author's handle, platform id or display name, or in the post's text (at least three
    characters, any case); the others are exact (any case): ``post`` the post's platform
    id or its URL, ``domain`` a domain a link in the post names (or a parent of it),
    ``reason`` a report reason."""

    author = "author"
    text = "text"
    post = "post"
    domain = "domain"
    reason = "reason"


SearchText = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_QUERY, pattern=r"^[^\x00]*$")
]


class SearchQuery(WireModel):
    """A search: its kind and what to look for."""

    kind: SearchKind
    q: SearchText


class SearchHit(WireModel):
    """An item that matched, with what a lead needs to tell it apart, and its decision."""

    item_id: ItemId
    queue_id: Slug
    state: ItemState
    enqueued_at: Timestamp
    post_id: ShortText = Field(description="the post's platform id")
    post_url: HttpUrl | None = None
    excerpt: ShortText = Field(description="the post's text, its first 200 characters")
    author_id: ShortText = Field(description="the author's platform id")
    author_handle: ShortText
    author_name: ShortText
    decision_id: int | None = None
    action: Slug | None = None
    reviewer: Username | None = None
    decided_at: Timestamp | None = None


class SearchPage(Page):
    hits: list[SearchHit] = Field(max_length=1_000)


# -- saved views --------------------------------------------------------------------------------

# A view's name is one line of text, not blank: the rule as a pattern, so the document
# states it (the characters themselves in the class, not escapes, so every regex dialect
# that reads the document means the same).
_CONTROL = "\x00-\x1f\x7f-\x9f\u2028\u2029"
_SPACE = " \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff"
VIEW_NAME_PATTERN = f"^[^{_CONTROL}]*[^{_CONTROL}{_SPACE}][^{_CONTROL}]*$"

ViewName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_VIEW_NAME, pattern=VIEW_NAME_PATTERN),
]


def _kind_required(schema: dict[str, Any]) -> None:
    """The tag the saved view's union is told apart by must be sent (it has a default in
    Python, so the schema would call it optional)."""
    required = schema.setdefault("required", [])
    if "kind" not in required:
        required.insert(0, "kind")


class SearchView(WireModel):
    model_config = ConfigDict(**WireModel.model_config, json_schema_extra=_kind_required)

    kind: Literal["search"] = "search"
    search: SearchQuery


_YEARS = re.compile(str(QUERY_YEARS["pattern"]))


class DecisionsView(WireModel):
    model_config = ConfigDict(**WireModel.model_config, json_schema_extra=_kind_required)

    kind: Literal["decisions"] = "decisions"
    filter: DecisionQuery

    @field_validator("filter", mode="before")
    @classmethod
    def _json_types(cls, value: object) -> object:
        """``DecisionQuery`` parses leniently (query strings are text); in a JSON body
        ``audited`` is true, false or null (never 0 or "yes"), and ``since`` and ``until``
        are RFC 3339 strings of the years the service keeps (never a number)."""
        if not isinstance(value, dict):
            return value
        if not isinstance(value.get("audited"), bool | None):
            raise ValueError("audited is true, false or null")
        for name in ("since", "until"):
            when = value.get(name)
            if when is not None and not (isinstance(when, str) and _YEARS.match(when)):
                raise ValueError(f"{name} is a time such as 2026-12-01T09:00:00Z")
        return value


SavedViewQuery = Annotated[SearchView | DecisionsView, Field(discriminator="kind")]


class SavedViewCreate(WireModel):
    name: ViewName
    shared: JsonBool = Field(default=False, description="seen by every lead, not only its owner")
    view: SavedViewQuery


class SavedView(WireModel):
    id: int
    name: Label
    owner: Username
    shared: bool
    created_at: Timestamp
    view: SavedViewQuery


class SavedViewList(WireModel):
    """The caller's own views and the views other leads shared, by name."""

    views: list[SavedView] = Field(max_length=10_000)


__all__ = [
    "MAX_QUERY",
    "MAX_VIEWS",
    "MAX_VIEW_NAME",
    "DecisionsView",
    "SavedView",
    "SavedViewCreate",
    "SavedViewList",
    "SavedViewQuery",
    "SearchHit",
    "SearchKind",
    "SearchPage",
    "SearchQuery",
    "SearchView",
]
