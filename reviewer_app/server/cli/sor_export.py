"""``reviewer-app server sor export``: statements of reasons for the DSA Transparency Database.

One statement per line, in the format of the database's statement API (``POST
/api/v1/statement``, DSA Art. 24(5)): each stored statement decided in [--since, --until)
as the API's fields and enumerations (``to_dsa``), checked against the JSON Schema written
from the API's documentation (``dsa_statement.schema.json`` beside this file, which names
the documentation version). Statements are read a chunk at a time and written as they
come, so memory stays flat however many there are; the file appears only when every
statement passed (written to a temporary file beside it, renamed at the end). The
statements of appeals' outcomes stay out: a reversed appeal's lifts a restriction, and an
upheld appeal's restates one whose own statement was exported when it was decided.

A statement is stamped with its decision's time when the decision's transaction starts,
and is visible only once it commits: a window ending "now" would miss one stamped before
its end and committed after the export read, and the next window (from that end on)
would miss it too. So the window ends at the latest ``--margin`` seconds ago (5 minutes,
longer than a decision's transaction takes), which is also the default for ``--until``;
the output names the window written, and the next run's ``--since`` is its end.

Exit codes: 0 written (none is fine: an empty file); 1 a statement failed the schema
(nothing written; stderr names it and the problem); 2 bad arguments or an output that
cannot be written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import IO, Any

import jsonschema

from reviewer_app.protocol import Statement, StatementGround
from reviewer_app.protocol.statements import APPEALED_REDRESS
from reviewer_app.server.cli.database import check
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import statements

SCHEMA_FILE = "dsa_statement.schema.json"
#: seconds before now the window ends at the latest (the default --margin): longer than a
#: decision's transaction takes, between its stamp (``created_at``) and its commit
SETTLE_SECONDS = 300.0

EU = [
    "AT",
    "BE",
    "BG",
    "CY",
    "CZ",
    "DE",
    "DK",
    "EE",
    "ES",
    "FI",
    "FR",
    "GR",
    "HR",
    "HU",
    "IE",
    "IT",
    "LT",
    "LU",
    "LV",
    "MT",
    "NL",
    "PL",
    "PT",
    "RO",
    "SE",
    "SI",
    "SK",
]
EEA = (*EU, "IS", "LI", "NO")

_VISIBILITY = {
    "removed": "DECISION_VISIBILITY_CONTENT_REMOVED",
    "disabled": "DECISION_VISIBILITY_CONTENT_DISABLED",
    "demoted": "DECISION_VISIBILITY_CONTENT_DEMOTED",
    "labelled": "DECISION_VISIBILITY_CONTENT_LABELLED",
}
_WARNING = "Formal warning to the account holder; the account and its content stay available"
_CONTENT_TYPES = {
    "text": "CONTENT_TYPE_TEXT",
    "image": "CONTENT_TYPE_IMAGE",
    "video": "CONTENT_TYPE_VIDEO",
}


@cache
def schema() -> dict[str, Any]:
    """The statement API's JSON Schema (package data)."""
    text = resources.files("reviewer_app.server.cli").joinpath(SCHEMA_FILE).read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    return cls(schema())


def problems(document: Mapping[str, Any]) -> list[str]:
    """What the schema finds wrong with one exported statement (empty: valid)."""
    return sorted(
        f"{'/'.join(map(str, e.absolute_path)) or '(statement)'}: {e.message}"
        for e in _validator().iter_errors(document)
    )


def _date(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%d")


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def to_dsa(row: Mapping[Any, Any], territorial_scope: Iterable[str] = EU) -> dict[str, Any]:
    """A stored statement row as the statement API's JSON body."""
    statement: Statement = statements.from_row(row)
    context = json.loads(row["context"] or "{}")
    body: dict[str, Any] = {}
    visibility = [_VISIBILITY[v] for v in statement.visibility]
    account = statement.account.value if statement.account is not None else None
    if account == "warned":
        visibility.append("DECISION_VISIBILITY_OTHER")
        body["decision_visibility_other"] = _WARNING
    if visibility:
        body["decision_visibility"] = visibility
    if account == "restricted":
        body["decision_provision"] = "DECISION_PROVISION_PARTIAL_SUSPENSION"
    elif account == "suspended":
        body["decision_account"] = "DECISION_ACCOUNT_SUSPENDED"
    elif account == "terminated":
        body["decision_account"] = "DECISION_ACCOUNT_TERMINATED"
    first = statement.grounds[0]
    explanation = _cap(
        "; ".join(f"{g.label} ({g.reference})" for g in statement.grounds) + ". " + statement.facts,
        2_000,
    )
    if first.ground is StatementGround.illegal:
        body["decision_ground"] = "DECISION_GROUND_ILLEGAL_CONTENT"
        body["illegal_content_legal_ground"] = _cap(first.reference, 500)
        body["illegal_content_explanation"] = explanation
    else:
        body["decision_ground"] = "DECISION_GROUND_INCOMPATIBLE_CONTENT"
        body["incompatible_content_ground"] = _cap(first.reference, 500)
        body["incompatible_content_explanation"] = explanation
        if any(g.ground is StatementGround.illegal for g in statement.grounds):
            body["incompatible_content_illegal"] = "Yes"
    kinds = [_CONTENT_TYPES[k] for k in context.get("content_types", ()) if k in _CONTENT_TYPES]
    if not kinds:  # an account decision: no post
        kinds = ["CONTENT_TYPE_OTHER"]
        body["content_type_other"] = "User account"
    body["content_type"] = kinds
    body["category"] = f"STATEMENT_CATEGORY_{statement.category.value.upper()}"
    more = list(
        dict.fromkeys(
            f"STATEMENT_CATEGORY_{g.category.value.upper()}"
            for g in statement.grounds
            if g.category != statement.category
        )
    )
    if more:
        body["category_addition"] = more
    body["territorial_scope"] = list(territorial_scope)
    language = iso_639_1(context.get("language"))
    if language is not None:
        body["content_language"] = language
    applied = float(row["created_at"])
    body["content_date"] = _date(content_date(row["content_date"], applied))
    body["application_date"] = _date(applied)
    body["decision_facts"] = _cap(statement.facts, 5_000)
    body["source_type"] = "SOURCE_ARTICLE_16" if context.get("notice") else "SOURCE_VOLUNTARY"
    body["automated_detection"] = "Yes" if statement.automated_detection else "No"
    body["automated_decision"] = (
        "AUTOMATED_DECISION_FULLY"
        if statement.automated_decision
        else "AUTOMATED_DECISION_NOT_AUTOMATED"
    )
    body["puid"] = statement.puid
    return body


EARLIEST_CONTENT_DATE = 946_684_800.0  # 2000-01-01
_ISO_639_1_CODES = (
    "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv "
    "cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho "
    "hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku "
    "kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn "
    "no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm "
    "sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi "
    "vo wa wo xh yi yo za zh zu"
)
ISO_639_1 = frozenset(_ISO_639_1_CODES.split())
"""The languages the Transparency Database takes (``content_language``: ISO 639-1)."""
_RENAMED = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "sh": "sr"}


def content_date(made: float | None, applied: float) -> float:
    """When the content was made, within what the database takes: from 2000 on, and never
    after the decision (a platform's clock, or a post dated 8999, made whole calls of
    statements refused); the decision's day when not known."""
    return min(max(float(made), EARLIEST_CONTENT_DATE), applied) if made else applied


def iso_639_1(language: object) -> str | None:
    """A post's language as the database takes it ("EN"), or None (left out: the field
    is optional, and one unknown code refused a whole call of statements)."""
    if not isinstance(language, str):
        return None
    code = language.replace("_", "-").split("-")[0].lower()
    code = _RENAMED.get(code, code)
    return code.upper() if code in ISO_639_1 else None


class InvalidStatement(Exception):
    """An exported statement the schema refuses."""

    def __init__(self, statement_id: int, found: list[str]) -> None:
        super().__init__(f"statement {statement_id}: " + "; ".join(found))
        self.statement_id = statement_id
        self.found = found


def write(
    rows: Iterable[Mapping[Any, Any]], out: IO[str], territorial_scope: Iterable[str] = EU
) -> int:
    """Write each row as one validated JSON line; how many. ``InvalidStatement`` at the
    first the schema refuses."""
    scope = list(territorial_scope)
    count = 0
    for row in rows:
        statement = statements.from_row(row)
        # the database counts restrictions, one statement each: a reversed appeal's restricts
        # nothing, and an upheld appeal's restates a restriction already sent (its own
        # statement, exported when it was decided): sent again, one removal counted twice
        if statement.lifted or statement.redress == APPEALED_REDRESS:
            continue
        body = to_dsa(row, scope)
        found = problems(body)
        if found:
            raise InvalidStatement(int(row["id"]), found)
        line = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        # JSON allows U+2028 and U+2029 raw, but they end lines to many readers (Python's
        # splitlines, JavaScript before ES2019): one statement read as several
        out.write(line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + "\n")
        count += 1
    return count


# -- the command ---------------------------------------------------------------------------


def add_parser(actions: argparse._SubParsersAction) -> None:
    sor = actions.add_parser(
        "sor",
        help="statements of reasons: export them for the DSA Transparency Database",
        description="Every restrictive decision of record has a statement of reasons. "
        "Export writes them in the Transparency Database's statement API format.",
    )
    commands = sor.add_subparsers(dest="sor_command", required=True)
    export = commands.add_parser(
        "export",
        help="write the statements decided in [--since, --until) as JSON lines",
    )
    export.add_argument(
        "--database-url",
        dest="command_database_url",
        default=None,
        help="the service's database (or give --database-url before sor)",
    )
    export.add_argument(
        "--since", required=True, help="from this time on (ISO 8601; a date means 00:00 UTC)"
    )
    export.add_argument(
        "--until",
        default=None,
        help="up to, not including, this time (default and latest: --margin seconds ago; "
        "the output names the window's end: the next run's --since)",
    )
    export.add_argument(
        "--margin",
        type=float,
        default=SETTLE_SECONDS,
        metavar="SECONDS",
        help="how long before now the window ends at the latest (default 300: longer than "
        "a decision's transaction takes, so a statement stamped before the window's end and "
        "committed after the export read is not missed by this window and the next)",
    )
    export.add_argument("-o", "--output", type=Path, required=True, help="the .jsonl file")
    export.add_argument(
        "--territorial-scope",
        default="EU",
        help="where the decisions apply: EU, EEA, or country codes with commas (default EU)",
    )


def _when(text: str) -> float:
    found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if found.tzinfo is None:
        found = found.replace(tzinfo=UTC)
    return found.timestamp()


def _scope(text: str) -> list[str]:
    if text.upper() == "EU":
        return list(EU)
    if text.upper() == "EEA":
        return list(EEA)
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    unknown = [c for c in codes if c not in EEA]
    if not codes or unknown:
        raise ValueError(f"not EU or EEA country codes: {', '.join(unknown) or text!r}")
    return list(dict.fromkeys(codes))


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat()


def window(
    since_text: str, until_text: str | None, margin: float, now: float
) -> tuple[float, float]:
    """The export's [since, until): ``until`` at the latest ``margin`` seconds before ``now``
    (a whole second, so it reads back exactly as the next ``--since``); ValueError says
    what is wrong."""
    if not margin >= 0:
        raise ValueError("--margin must be 0 or more seconds")
    since = _when(since_text)
    latest = float(int(now - margin))
    until = latest if until_text is None else min(_when(until_text), latest)
    if until <= since:
        if until_text is not None and until == _when(until_text):
            raise ValueError("--until must be after --since")
        raise ValueError(
            f"--since {since_text} is after {_iso(latest)} ({margin:g} s ago, --margin): "
            "statements decided since may still be committing. Export that window after "
            f"{_iso(since + margin)}."
        )
    if until_text is not None and until < _when(until_text):
        print(
            f"--until {until_text} is after {_iso(until)} ({margin:g} s ago, --margin): the "
            "window ends there instead, as statements decided after it may still be "
            "committing.",
            file=sys.stderr,
        )
    return since, until


def run(settings: ServerSettings, args: argparse.Namespace) -> int:
    try:
        since, until = window(args.since, args.until, args.margin, time.time())
    except ValueError as exc:
        print(f"--since/--until: {exc}", file=sys.stderr)
        return 2
    try:
        scope = _scope(args.territorial_scope)
    except ValueError as exc:
        print(f"--territorial-scope: {exc}", file=sys.stderr)
        return 2
    output: Path = args.output
    if not output.parent.is_dir():
        print(f"{output}: its folder does not exist", file=sys.stderr)
        return 2
    from reviewer_app.server.storage.db import Database

    check(settings.database_url, read_only=True)  # an existing database, at this schema
    db = Database(settings.database_url)
    try:
        return _export(db, since, until, output, scope)
    finally:
        db.dispose()


def _export(db: Any, since: float, until: float, output: Path, scope: list[str]) -> int:
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{output.name}.", suffix=".part", dir=output.parent
        )
    except OSError as exc:
        print(f"{output}: cannot write there: {exc}", file=sys.stderr)
        return 2
    done = False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out, db.read() as conn:
            count = write(statements.rows_between(conn, since, until), out, scope)
        os.replace(temporary, output)
        done = True
    except InvalidStatement as exc:
        print(f"{exc}\nNothing was written.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{output}: cannot write it: {exc}", file=sys.stderr)
        return 2
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    print(
        f"Wrote {count} statement{'s' if count != 1 else ''} decided in [{_iso(since)}, "
        f"{_iso(until)}) to {output}. The next window starts at --since {_iso(until)}.",
        file=sys.stderr,
    )
    return 0
