"""``reviewer-app server sor export`` on SQLite and PostgreSQL: one line per restrictive
decision (none for keep), each valid against the Transparency Database's statement schema
(hostile notes included), the --since/--until window, paging in chunks, and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.server.cli import sor_export
from reviewer_app.server.domain import statements
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts
from tests.support.intake import MISINFO, author, fact_check, post, send
from tests.support.servers import LiveServer

HOSTILE_NOTES = [
    "Bell\x07 and escape \x1b[31mred\x1b[0m and DEL\x7f, tab\t, CR\r\nnext line",
    "Bidi \u202eevil\u202c \u2066isolated\u2069 \u200fmark",
    "Z\u0351\u0352\u0353a\u0354\u0355lgo " * 150,  # combining marks, long
    "\U0001f600" * 1_999,  # astral characters up to the note limit
    "x" * 2_000,
    "Line\u2028separator and paragraph\u2029separator",  # JSON's, but lines to many readers
]


def iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat()


def settle() -> None:
    """Wait out the current second: an export's window ends on a whole second, now at the
    latest (--margin 0), so what was decided in this second belongs to the next window."""
    time.sleep(1.01 - time.time() % 1)


def export(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "reviewer_app",
            "server",
            "--database-url",
            database_url,
            "sor",
            "export",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def setup(server: LiveServer) -> ApiSession:
    document = queue_file()
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["notes_shareable"] = True
    misinfo["config"]["policies"].append(
        {
            "code": "VIOLENCE.THREAT",
            "label": "Threats",
            "description": "Threats of violence against a person",
            "legal_ground": "Criminal law on threats (Section 241 StGB)",
            "category": "violence",
        }
    )
    server.service.apply_queue_file(QueueFile.model_validate(document), actor=None)
    key = server.service.create_api_key(Role.platform, "feed-bridge").key
    return ApiSession(server.url, key)


def by_post(leased: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in leased}


def decide_batch(
    server: LiveServer, prefix: str, session: ApiSession, rita: ApiSession | None = None
) -> dict[str, int]:
    """One verdict of each kind on fresh posts (hostile notes on the removals); decision
    id by post."""
    names = [f"{prefix}-{n}" for n in ("keep", "label", "reduce", "restrict", "threat")]
    hostile = [f"{prefix}-hostile-{i}" for i in range(len(HOSTILE_NOTES))]
    queue_posts(session, names + hostile)
    send(session, "signals", [fact_check(f"{prefix}-label", "missing_context")])
    rita = rita or server.login("rita")
    leased = by_post(claim(rita, MISINFO, len(names) + len(hostile)))
    civic = ["MISINFO.CIVIC"]
    verdicts = [
        verdict(leased[f"{prefix}-keep"], "keep"),
        verdict(leased[f"{prefix}-label"], "label", rating="missing_context"),
        verdict(leased[f"{prefix}-reduce"], "reduce"),
        verdict(leased[f"{prefix}-restrict"], "remove-restrict", policies=civic),
        verdict(
            leased[f"{prefix}-threat"], "remove", policies=["VIOLENCE.THREAT", "MISINFO.CIVIC"]
        ),
    ] + [
        verdict(leased[name], "remove", policies=civic, note=note)
        for name, note in zip(hostile, HOSTILE_NOTES, strict=True)
    ]
    results = rita.decide(verdicts)
    assert [r["status"] for r in results] == ["accepted"] * len(verdicts), results
    names_of = {x["item"]["id"]: n for n, x in leased.items()}
    return {names_of[r["item_id"]]: r["decision"]["id"] for r in results}


def test_every_restrictive_decision_is_exported_valid_and_keep_is_not(
    live_server: LiveServer, tmp_path: Path
) -> None:
    session = setup(live_server)
    decided = decide_batch(live_server, "a", session)
    send(session, "posts", [post("acct-1", author=author("shady-1"))])
    lead = live_server.login("lena", Role.lead)
    with live_server.service.db.read() as conn:
        from sqlalchemy import select

        from reviewer_app.server.storage.tables import authors

        shady = conn.execute(
            select(authors.c.id).where(authors.c.external_id == "shady-1")
        ).scalar_one()
    for action in ("warn", "restrict", "suspend", "mark_inauthentic"):
        answer = lead.post(
            "/authors/actions",
            json={"author_ids": [shady], "action": action, "policies": ["MISINFO.CIVIC"]},
        )
        assert answer.status_code == 200, answer.text

    out = tmp_path / "sor.jsonl"
    settle()
    done = export(
        live_server.settings.database_url,
        "--since",
        "2020-01-01",
        "--until",
        "2999-01-01",
        "--margin",
        "0",  # the statements were just decided: the window reaches now
        "-o",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    lines = read_lines(out)
    # 9 restrictive verdicts (all but keep) and 4 account actions
    assert len(lines) == len(decided) - 1 + 4, [line["puid"] for line in lines]
    validator = jsonschema.Draft202012Validator(sor_export.schema())
    for line in lines:
        assert not list(validator.iter_errors(line)), line
    assert len({line["puid"] for line in lines}) == len(lines)
    with live_server.service.db.read() as conn:
        stored = {
            s.decision_id: s.puid
            for s in (statements.from_row(r) for r in statements.rows_between(conn, 0, 1e12))
        }
    assert decided["a-keep"] not in stored
    for name, decision_id in decided.items():
        if name != "a-keep":
            assert decision_id in stored, name

    puid = {line["puid"]: line for line in lines}
    threat = puid[stored[decided["a-threat"]]]
    assert threat["decision_ground"] == "DECISION_GROUND_ILLEGAL_CONTENT"
    assert threat["illegal_content_legal_ground"].startswith("Criminal law on threats")
    assert threat["category"] == "STATEMENT_CATEGORY_VIOLENCE"
    assert threat["category_addition"] == [
        "STATEMENT_CATEGORY_NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS"
    ]
    restrict = puid[stored[decided["a-restrict"]]]
    assert restrict["decision_visibility"] == ["DECISION_VISIBILITY_CONTENT_REMOVED"]
    assert restrict["decision_provision"] == "DECISION_PROVISION_PARTIAL_SUSPENSION"
    assert restrict["automated_detection"] == "Yes"
    assert restrict["automated_decision"] == "AUTOMATED_DECISION_NOT_AUTOMATED"
    assert restrict["source_type"] == "SOURCE_VOLUNTARY"
    label = puid[stored[decided["a-label"]]]
    assert label["decision_visibility"] == ["DECISION_VISIBILITY_CONTENT_LABELLED"]
    accounts = [line for line in lines if line["content_type"] == ["CONTENT_TYPE_OTHER"]]
    assert sorted(
        line.get("decision_account") or line.get("decision_provision") or "warn"
        for line in accounts
    ) == [
        "DECISION_ACCOUNT_SUSPENDED",
        "DECISION_ACCOUNT_TERMINATED",
        "DECISION_PROVISION_PARTIAL_SUSPENSION",
        "warn",
    ]
    for i in range(len(HOSTILE_NOTES)):
        facts = puid[stored[decided[f"a-hostile-{i}"]]]["decision_facts"]
        assert len(facts) <= 5_000
        assert not any(c in facts for c in "\x07\x1b\x7f\r\u202e\u202c\u2066\u2069\u200f")
        assert "The reviewer's note:" in facts


def test_the_window_takes_what_was_decided_in_it(live_server: LiveServer, tmp_path: Path) -> None:
    session = setup(live_server)
    rita = live_server.login("rita")
    first = decide_batch(live_server, "a", session, rita)
    time.sleep(0.05)
    between = time.time()
    time.sleep(0.05)
    second = decide_batch(live_server, "b", session, rita)
    settle()
    with live_server.service.db.read() as conn:
        puid_of = {
            s.decision_id: s.puid
            for s in (statements.from_row(r) for r in statements.rows_between(conn, 0, 1e12))
        }

    def exported(*window: str) -> set[str]:
        out = tmp_path / "window.jsonl"
        # the statements were just decided: the window may reach now
        done = export(live_server.settings.database_url, *window, "--margin", "0", "-o", str(out))
        assert done.returncode == 0, done.stderr
        return {line["puid"] for line in read_lines(out)}

    restrictive_a = {puid_of[d] for n, d in first.items() if not n.endswith("keep")}
    restrictive_b = {puid_of[d] for n, d in second.items() if not n.endswith("keep")}
    assert exported("--since", "2020-01-01", "--until", iso(between)) == restrictive_a
    assert exported("--since", iso(between), "--margin", "0") == restrictive_b
    assert exported("--since", "2020-01-01", "--until", "2020-01-02") == set()


def test_statements_are_read_and_written_a_chunk_at_a_time(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = setup(live_server)
    restrictive = len(decide_batch(live_server, "a", session)) - 1  # all but keep
    monkeypatch.setattr(statements, "_CHUNK", 2)
    with live_server.service.db.read() as conn:
        rows = list(statements.rows_between(conn, 0, 1e12))
        ids = [r["id"] for r in rows]
        assert ids == sorted(ids) and len(ids) == len(set(ids)) == restrictive == 10
        out = io.StringIO()
        assert sor_export.write(statements.rows_between(conn, 0, 1e12), out) == restrictive
    assert len(out.getvalue().splitlines()) == restrictive


def test_a_statement_the_schema_refuses_stops_the_export_and_writes_nothing(
    live_server: LiveServer, tmp_path: Path
) -> None:
    session = setup(live_server)
    decide_batch(live_server, "a", session)
    with live_server.service.db.write() as conn:  # a fault: a stored payload gone wrong
        from sqlalchemy import update

        from reviewer_app.server.storage.tables import statements as table

        first = conn.execute(table.select().order_by(table.c.id).limit(1)).mappings().one()
        document = json.loads(first["payload"])
        document["facts"] = ""
        conn.execute(
            update(table).where(table.c.id == first["id"]).values(payload=json.dumps(document))
        )
    folder = tmp_path / "export"
    folder.mkdir()
    out = folder / "sor.jsonl"
    settle()
    done = export(
        live_server.settings.database_url,
        "--since",
        "2020-01-01",
        "--until",
        "2999-01-01",
        "--margin",
        "0",  # the statements were just decided: the window reaches now
        "-o",
        str(out),
    )
    assert done.returncode == 1, done.stderr
    assert f"statement {first['id']}: decision_facts" in done.stderr
    assert not out.exists()
    assert list(folder.iterdir()) == [], "no part file left behind"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "yesterday", "--until", "2999-01-01"], "--since/--until"),
        (["--since", "2026-02-01", "--until", "2026-01-01"], "--until must be after"),
        (
            ["--since", "2026-01-01", "--until", "2026-02-01", "--territorial-scope", "US"],
            "--territorial-scope",
        ),
    ],
)
def test_bad_arguments_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    done = export(url, *args, "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    missing = export(url, "--since", "2026-01-01", "--until", "2026-02-01")
    assert missing.returncode == 2  # -o is required (argparse)
    nowhere = export(
        url, "--since", "2026-01-01", "--until", "2026-02-01", "-o", str(tmp_path / "no/x.jsonl")
    )
    assert nowhere.returncode == 2 and "does not exist" in nowhere.stderr


def test_content_dates_and_languages_are_what_the_database_takes() -> None:
    """A post dated 8999 or after the decision, or a language code outside ISO 639-1 ("xx",
    the old "iw"), passed the schema and made the database refuse a whole call."""
    applied = datetime(2026, 12, 6, tzinfo=UTC).timestamp()
    for made, day in [
        (datetime(8999, 12, 31, tzinfo=UTC).timestamp(), applied),
        (applied + 86_400 * 2, applied),
        (datetime(1990, 1, 1, tzinfo=UTC).timestamp(), sor_export.EARLIEST_CONTENT_DATE),
        (None, applied),
        (applied - 3_600, applied - 3_600),
    ]:
        assert sor_export.content_date(made, applied) == day
    assert [sor_export.iso_639_1(x) for x in ("en", "de-AT", "pt_BR", "iw", "xx", "", 7)] == [
        "EN",
        "DE",
        "PT",
        "HE",
        None,
        None,
        None,
    ]
