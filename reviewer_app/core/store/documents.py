"""The documents the store keeps (``protocol`` models as JSON: items, queues, verdicts, the
server's answers, a lead's bulk requests, the profile), read back.

A field this release does not know is left out, not a failure: the protocol's models
refuse unknown fields (``extra="forbid"``), and a document written by a later release may
carry fields it added (as a newer service's reply may: ``core.api.transport``). Anything
else wrong is still refused. A change to these models is also a new store schema
(``schema.py``), so that an older release refuses such a store in its own words;
tests/core/test_store_documents.py checks that the two go together.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

log = logging.getLogger("store")

M = TypeVar("M", bound=BaseModel)

#: rounds of leaving fields out (a field unknown to one member of a union is named again
#: once another member is tried)
_ROUNDS = 4


def read_document(model: type[M], text: str | bytes) -> M:
    """``text`` (a document the store kept) as ``model``, without the fields this release
    does not know; a ``ValidationError`` for anything else."""
    try:
        return model.model_validate_json(text)
    except ValidationError as err:
        if not _unknown(err):
            raise
    doc = json.loads(text)
    left_out = 0
    for _ in range(_ROUNDS):
        try:
            found = model.model_validate(doc)
        except ValidationError as err:
            deleted = _left_out(doc, _unknown(err))
            if not deleted:
                raise
            left_out += deleted
            continue
        log.info("a document kept here carried %d field(s) this release does not know", left_out)
        return found
    return model.model_validate(doc)


def _unknown(err: ValidationError) -> list[tuple[int | str, ...]]:
    return [e["loc"] for e in err.errors() if e.get("type") == "extra_forbidden"]


def _left_out(doc: Any, places: list[tuple[int | str, ...]]) -> int:
    """Delete the fields at these places (pydantic's error locations, in which a union
    member's name is passed over); how many were deleted."""
    deleted = 0
    for place in places:
        node = doc
        for step in place[:-1]:
            into_dict = isinstance(node, dict) and step in node
            into_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
            if into_dict or into_list:
                node = node[step]
        if isinstance(node, dict) and place and place[-1] in node:
            del node[place[-1]]
            deleted += 1
    return deleted
