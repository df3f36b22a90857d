"""The documents the local store keeps (``protocol`` models as JSON) and its schema version
go together: a release refuses a store of a newer schema in its own words ("written by a
newer release"), but a store of its own schema it reads, and the models refuse fields they
do not know. Fields added to a stored model without a new schema made an older release
fail on the first document it read (``User.access_ended``, ``Queue.counts.not_for_you``,
both under schema 8). Since schema 9 a field this release does not know is left out too."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sqlite3
from enum import Enum
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from reviewer_app.core.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Store
from reviewer_app.protocol import (
    Decision,
    Item,
    Queue,
    Role,
    User,
    Verdict,
    VerdictResult,
)
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import login
from tests.support.servers import LiveServer

STORE_CODE = Path(__file__).resolve().parents[2] / "reviewer_app" / "core" / "store"

#: the models the store keeps as documents (items, queues, the journal's verdicts and the
#: server's answers, conflicts, a lead's held bulk requests, the profile)
STORED: tuple[type[BaseModel], ...] = (
    BulkDecisionRequest,
    Decision,
    Item,
    Queue,
    User,
    Verdict,
    VerdictResult,
)

#: the stored models' fingerprint (``documents_fingerprint``) for each store schema, from
#: the one whose documents it first recorded. Schema 8's is that of the release that made
#: it (6ccd81c): its models gained fields later, without a schema of their own (the bug).
FINGERPRINTS: dict[int, str] = {
    8: "231cb466a773c16fca745ef5",
    9: "53a043b35b44bc4e869dd1a5",
    10: "e9c2c316cade66293bd5263f",
    11: "e364fc33a3f7691b356c5586",
    12: "e364fc33a3f7691b356c5586",  # a column (items.offline), no document changed
}


def _meta(value: Any) -> str:
    """A constraint or validator, the same from one run to the next (no addresses)."""
    if isinstance(value, FieldInfo):
        return f"Field({value.alias}, {[_meta(m) for m in value.metadata]})"
    func = getattr(value, "func", None)
    if func is not None:
        return f"{type(value).__name__}({getattr(func, '__qualname__', repr(func))})"
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))


def _shape(kind: Any, models: dict[str, Any]) -> str:
    """The name of ``kind`` as a document holds it; the models and enums it names are
    described in ``models`` (their fields, types, constraints, what they refuse)."""
    origin, args = get_origin(kind), get_args(kind)
    if origin is Annotated:
        return f"Annotated[{_shape(args[0], models)}, {[_meta(m) for m in args[1:]]}]"
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        name = f"{kind.__module__.rsplit('.', 1)[-1]}.{kind.__qualname__}"
        if name not in models:
            models[name] = None  # (a model that names itself)
            models[name] = {
                "extra": kind.model_config.get("extra"),
                "fields": {
                    field: [
                        _shape(info.annotation, models),
                        info.is_required(),
                        info.alias,
                        info.discriminator if isinstance(info.discriminator, str) else None,
                        [_meta(m) for m in info.metadata],
                    ]
                    for field, info in sorted(kind.model_fields.items())
                },
            }
        return name
    if isinstance(kind, type) and issubclass(kind, Enum):
        models[kind.__qualname__] = sorted(str(member.value) for member in kind)
        return kind.__qualname__
    if origin in (Union, UnionType):
        return f"Union[{', '.join(sorted(_shape(a, models) for a in args))}]"
    if args:
        return f"{_shape(origin, models)}[{', '.join(_shape(a, models) for a in args)}]"
    return getattr(kind, "__qualname__", None) or _meta(kind)


def documents_fingerprint() -> tuple[str, dict[str, Any]]:
    """A digest of every field of the stored models (and of the models and enums they
    hold): names, types, constraints, which are required, whether unknown ones are
    refused. Docstrings and descriptions are not part of it."""
    models: dict[str, Any] = {}
    for model in STORED:
        _shape(model, models)
    text = json.dumps(models, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24], models


def _parsed_in_store_code() -> set[str]:
    """The models the store's code reads documents as (``read_document(X, …)``, and
    ``X.model_validate_json(…)`` as before schema 9)."""
    found: set[str] = set()
    for source in STORE_CODE.glob("*.py"):
        if source.name == "documents.py":  # the reader itself, of any model
            continue
        for node in ast.walk(ast.parse(source.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "read_document" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Name):
                    found.add(first.id)
            elif (
                isinstance(func, ast.Attribute)
                and func.attr == "model_validate_json"
                and isinstance(func.value, ast.Name)
            ):
                found.add(func.value.id)
    return found


def test_the_fingerprint_covers_every_model_the_store_keeps() -> None:
    assert _parsed_in_store_code() == {m.__name__ for m in STORED}, (
        "the store reads documents of another model set: add the new model to STORED (its "
        "fields are then part of the fingerprint of the store's schema)"
    )


def test_a_change_to_a_stored_model_comes_with_a_new_store_schema() -> None:
    """A field added to, removed from or changed in a model the store keeps needs a store
    migration (a no-op one is enough): a release of the schema before it then refuses the
    store in its own words instead of failing on the first document it reads."""
    current, _models = documents_fingerprint()
    recorded = FINGERPRINTS.get(SCHEMA_VERSION)
    assert recorded is not None, (
        f"no fingerprint of the stored models is recorded for store schema {SCHEMA_VERSION}: "
        f"record {current!r} for it in FINGERPRINTS (tests/core/test_store_documents.py)"
    )
    assert current == recorded, (
        f"the models the local store keeps as documents ({', '.join(m.__name__ for m in STORED)}) "
        f"changed, but the store's schema did not (still {SCHEMA_VERSION}): a release of "
        f"schema {SCHEMA_VERSION} would meet documents it cannot parse. Add a store migration "
        "(a no-op one is enough, in reviewer_app/core/store/schema.py), then record "
        f"{current!r} for schema {SCHEMA_VERSION + 1} in FINGERPRINTS here."
    )


def test_a_store_of_schema_8_opens_upgraded_and_a_store_of_this_one_is_past_8(
    tmp_path: Path,
) -> None:
    """The documents gained fields after schema 8 was released: a store written now is of a
    later schema, which a release of schema 8 refuses as a newer release's; a store of
    schema 8 opens, upgraded, with what it held."""
    path = tmp_path / "store.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for migrate in MIGRATIONS[:8]:
        migrate(conn)
    conn.execute("PRAGMA user_version=8")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("INSERT INTO settings (name, value) VALUES ('prefetch_target', '33')")
    conn.execute("COMMIT")
    conn.close()
    with Store(path) as store:
        assert store.recovery_message is None
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.settings.get_named("prefetch_target") == 33
    assert SCHEMA_VERSION > 8


def test_fields_a_later_release_adds_to_stored_documents_are_left_out(tmp_path: Path) -> None:
    """Documents with fields this release does not know (as a later release may write
    them: the profile, a queue, an item, a verdict) are read without them; a known field
    that breaks the model is still refused."""
    import pytest
    from pydantic import ValidationError

    server = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    try:
        seed_load_queue(server.service, 5)
        client = login(server, "sam")
        key = bytes(range(32))
        path = tmp_path / "store.sqlite3"
        with Store(path, key=key) as store:
            store.save_queues(client.queues().queues)
            store.add_leased(client.claim(LOAD_QUEUE.id, 2, 600))
            first, second = [r.item_id for r in store.worklist(LOAD_QUEUE.id)]
            entry = store.record_verdict(first, action="keep", note="mine", undo_window=0)
            store.save_profile(User(id=2, username="sam", display_name="Sam", role=Role.reviewer))

            def later(where: str, sealed: object, change: Any) -> str | bytes:
                doc = json.loads(store._open_text(where, sealed))
                change(doc)
                return store._seal_text(where, json.dumps(doc))

            conn = store.conn
            rows = conn.execute("SELECT id, document FROM queues").fetchall()
            for queue_id, document in rows:
                doc = json.loads(document)
                doc["counts"]["future_count"] = 3
                doc["future_field"] = {"a": 1}
                conn.execute(
                    "UPDATE queues SET document = ? WHERE id = ?", (json.dumps(doc), queue_id)
                )
            where = f"items.document:{first}"
            (sealed,) = conn.execute("SELECT document FROM items WHERE id = ?", (first,)).fetchone()
            conn.execute(
                "UPDATE items SET document = ? WHERE id = ?",
                (
                    later(where, sealed, lambda d: d["post"].update(future_field=[1, 2])),
                    first,
                ),
            )
            where = f"journal.verdict:{entry.key}"
            (sealed,) = conn.execute(
                "SELECT verdict FROM journal WHERE key = ?", (entry.key,)
            ).fetchone()
            conn.execute(
                "UPDATE journal SET verdict = ? WHERE key = ?",
                (later(where, sealed, lambda d: d.update(future_flag=True)), entry.key),
            )
            where = "meta.value:profile"
            (sealed,) = conn.execute("SELECT value FROM meta WHERE name = 'profile'").fetchone()
            conn.execute(
                "UPDATE meta SET value = ? WHERE name = 'profile'",
                (later(where, sealed, lambda d: d.update(future_access="x")),),
            )
            broken = f"items.document:{second}"
            (sealed,) = conn.execute(
                "SELECT document FROM items WHERE id = ?", (second,)
            ).fetchone()
            conn.execute(
                "UPDATE items SET document = ? WHERE id = ?",
                (
                    later(broken, sealed, lambda d: d.update(future_field=1, id=17)),
                    second,
                ),
            )

        with Store(path, key=key) as store:
            assert [q.id for q in store.queues()] == [q.id for q in client.queues().queues]
            item = store.stored_item(first)
            assert item is not None and "future_field" not in item.item.model_dump_json()
            kept = store.journal_entry(entry.key)
            assert kept is not None and kept.verdict.note == "mine"
            profile = store.profile()
            assert profile is not None and profile.username == "sam"
            with pytest.raises(ValidationError):
                store.stored_item(second)
    finally:
        server.stop()
