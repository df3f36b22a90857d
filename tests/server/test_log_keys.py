"""The event log's signing key over the service's life, and verify-log on logs edited in
ways the walk used to misname or crash on.

- A service started without the key its log was signed with refuses to start (an unsigned
  checkpoint after signed ones reads as a signature removed, for good: checkpoints are
  append-only); a process that has no key publishes no checkpoint over signed ones.
- After the key is changed (rotated), verify-log holds the log to every key given.
- verify-log names the entry that may have been changed (the one before a broken link as
  well as the one after), a missing first entry, two checkpoints' dates out of order, and a
  row whose numbers are not numbers, instead of a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text, update

from reviewer_app.__main__ import main
from reviewer_app.protocol import EventKind
from reviewer_app.server.config import ENV_PREFIX
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.storage.checkpoints import Signer, create_key_file, public_pem
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.eventlog import EventChain, entry_hash, verify
from reviewer_app.server.storage.sequencer import Sequencer
from reviewer_app.server.storage.tables import events, log_checkpoints
from tests.support.clock import ManualClock

START = 1_800_000_000.0


def grow(db: Database, chain: EventChain, clock: ManualClock, first: int, count: int) -> None:
    """``count`` more entries, sealed, and a checkpoint of them published."""
    rows = [
        event_row(START + i, EventKind.decided, "rita", item_id=f"item-{i}", queue_id="spam")
        for i in range(first, first + count)
    ]
    with db.write() as conn:
        append_events(conn, rows)
    clock.now = START + first + count + 10
    Sequencer(db, [chain], clock).seal_now(publish=True)


def key(tmp_path: Path, name: str) -> tuple[Signer, Path]:
    signer = create_key_file(tmp_path / f"{name}.key")
    public = tmp_path / f"{name}.pub"
    public.write_text(public_pem(signer.public_key))
    return signer, public


def verify_log(db: Database, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    url = db.engine.url.render_as_string(hide_password=False)
    capsys.readouterr()
    code = main(["server", "verify-log", "--database-url", url, *more])
    out = capsys.readouterr()
    return code, out.out + out.err


def unguarded(db: Database) -> None:
    with db.write() as conn:
        if db.is_sqlite:
            for name in ("events_no_update", "events_no_delete", "log_checkpoints_no_update"):
                conn.execute(text(f"DROP TRIGGER {name}"))
        else:
            conn.execute(text("DROP TRIGGER events_no_change ON events"))
            conn.execute(text("DROP TRIGGER log_checkpoints_no_change ON log_checkpoints"))


def test_a_rotated_key_is_verified_with_every_key_given(
    db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, old_public = key(tmp_path, "old")
    new, new_public = key(tmp_path, "new")
    clock = ManualClock(START)
    grow(db, EventChain(old), clock, 0, 10)
    grow(db, EventChain(new), clock, 10, 5)  # the service restarted with a new key
    code, output = verify_log(db, capsys, "--public-key", str(old_public))
    assert code == 1, output
    assert f"checkpoint 15 is by key {new.key_id}" in output
    assert "give every public key it signed with" in output
    both = ("--public-key", str(old_public), "--public-key", str(new_public))
    code, output = verify_log(db, capsys, *both)
    assert code == 0, output
    assert "2 checkpoints hold (2 signatures verified)" in output, output


def test_a_process_without_the_key_publishes_no_checkpoint_over_signed_ones(
    db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    signer, public = key(tmp_path, "log")
    clock = ManualClock(START)
    grow(db, EventChain(signer), clock, 0, 10)
    grow(db, EventChain(None), clock, 10, 5)  # sealed, but no unsigned checkpoint
    with db.read() as conn:
        sizes = conn.execute(select(log_checkpoints.c.size)).scalars().all()
    assert sizes == [10]
    code, output = verify_log(db, capsys, "--public-key", str(public))
    assert code == 0, output
    grow(db, EventChain(signer), clock, 15, 5)  # the key given again: checkpoints go on
    assert verify_log(db, capsys, "--public-key", str(public))[0] == 0


def test_the_service_refuses_to_start_without_the_key_its_log_was_signed_with(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    db = Database(url)
    db.migrate()
    signer, _public = key(tmp_path, "log")
    grow(db, EventChain(signer), ManualClock(START), 0, 3)
    db.dispose()
    env = {k: v for k, v in os.environ.items() if k != f"{ENV_PREFIX}LOG_SIGNING_KEY"}
    # its own process: serving sets up the process's logging
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", "--database-url", url, "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert (
        f"Cannot start: the event log's checkpoints are signed (key id {signer.key_id}) and no "
        f"signing key is set: set {ENV_PREFIX}LOG_SIGNING_KEY to its key file"
    ) in done.stderr, done.stderr


def _forge_entry(conn: Any, seq: int) -> None:
    """Edit entry ``seq`` and make its own hash again: its link to the next one breaks."""
    row = conn.execute(select(events).where(events.c.seq == seq)).mappings().one()
    forged = {**row, "kind": "released"}
    conn.execute(
        update(events)
        .where(events.c.seq == seq)
        .values(kind="released", hash=entry_hash(forged, row["prev_hash"]))
    )


def test_verify_log_names_the_entry_that_may_have_been_edited_and_a_missing_first_one(
    db: Database, tmp_path: Path
) -> None:
    grow(db, EventChain(None), ManualClock(START), 0, 10)
    unguarded(db)
    with db.write() as conn:
        _forge_entry(conn, 5)
    with db.snapshot() as conn:
        found = verify(conn)
    assert (found.seq, found.problem, found.checked) == (5, "broken_link", 4), found
    assert "this entry was edited (and its hash made again), or entry 6 was" in found.describe()
    assert "(4 entries before it hold)" in found.describe()
    with db.write() as conn:
        conn.execute(events.delete().where(events.c.seq == 1))
    with db.snapshot() as conn:
        found = verify(conn)
    assert (found.seq, found.problem) == (2, "missing_entries"), found
    assert "entry 1 is missing" in found.describe()


def test_verify_log_says_which_two_checkpoints_disagree_on_their_dates(
    db: Database, tmp_path: Path
) -> None:
    clock = ManualClock(START)
    for first in (0, 5, 10):
        grow(db, EventChain(None), clock, first, 5)
    unguarded(db)
    with db.write() as conn:
        conn.execute(
            update(log_checkpoints).where(log_checkpoints.c.size == 10).values(at=START + 1000)
        )
    with db.snapshot() as conn:
        found = verify(conn)
    assert (found.seq, found.problem) == (15, "checkpoint_time"), found
    assert "before the checkpoint before it (10, dated" in found.describe()
    assert "one of the two dates was changed" in found.describe()


@pytest.mark.parametrize(
    ("table", "column", "value", "problem"),
    [(events, "at", "yesterday", "malformed_entry"), (log_checkpoints, "size", "10x", None)],
    ids=["entry-time", "checkpoint-size"],
)
def test_verify_log_reports_a_row_whose_numbers_are_not_numbers(
    db: Database,
    capsys: pytest.CaptureFixture[str],
    table: Any,
    column: str,
    value: str,
    problem: str | None,
) -> None:
    if not db.is_sqlite:
        pytest.skip("PostgreSQL's columns hold numbers only")
    grow(db, EventChain(None), ManualClock(START), 0, 10)
    unguarded(db)
    with db.write() as conn:
        where = "seq = 4" if table is events else "size = 10"  # as text: no type's conversion
        conn.execute(text(f"UPDATE {table.name} SET {column} = :v WHERE {where}"), {"v": value})
    code, output = verify_log(db, capsys)
    assert code == 1, output
    assert "Traceback" not in output
    if problem:
        assert f"broken at entry 4 ({problem})" in output, output
    else:
        assert "(malformed_checkpoint): a checkpoint's size '10x'" in output, output
