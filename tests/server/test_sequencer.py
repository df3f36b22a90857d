"""The event log's sequencer (server/storage/sequencer.py, eventlog.EventChain).

- Writers committing out of id order on PostgreSQL: the late one is sealed after the ones
  already sealed, nothing skipped, nothing reordered, and the chain verifies; an
  ``id > last sealed id`` sealer would have lost it, and the sequencer does not ask that.
- Appends from many threads in two processes, with a sequencer running in each (and one
  more here): every event sealed exactly once, seq dense 1..N, the chain verifies.
- The log's times never go backwards in seq order, as stored and as shown.
- Checkpoints: published while the log grows, verified against the chain and their Ed25519
  signatures; an edited checkpoint, a rewritten stretch of the log (re-hashed so the chain
  holds), a deleted tail, a forged signature and the wrong public key are each named.
- The lag gauge and ``/readyz``; an item's history shows a decision at once, unsealed.
"""

from __future__ import annotations

import base64
import multiprocessing
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import event, select, text, update

from reviewer_app.__main__ import main
from reviewer_app.protocol import EventKind, Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.checkpoints import (
    Signer,
    checkpoint_body,
    create_key_file,
    load_public_key,
    public_pem,
)
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.eventlog import EventChain, entry_hash, verify
from reviewer_app.server.storage.sequencer import (
    BATCH,
    Lag,
    Sequencer,
    by_index,
    first_unsealed_statement,
    lag_statement,
    unsealed_statement,
)
from reviewer_app.server.storage.tables import event_chain, events, log_checkpoints
from tests.support.api import claim, verdict
from tests.support.servers import running

START = 1_800_000_000.0


class Clock:
    """A clock the test moves."""

    def __init__(self, at: float = START) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


def entry(item: str, at: float = START) -> dict[str, Any]:
    return event_row(at, EventKind.decided, "rita", item_id=item, queue_id="spam", action="keep")


def append(db: Database, *rows: dict[str, Any]) -> None:
    with db.write() as conn:
        append_events(conn, list(rows))


def sealed_log(db: Database) -> list[dict[str, Any]]:
    with db.read() as conn:
        return [
            dict(r)
            for r in conn.execute(
                select(events).where(events.c.seq.is_not(None)).order_by(events.c.seq)
            ).mappings()
        ]


# -- commit order ------------------------------------------------------------------------


@pytest.mark.postgres
def test_a_late_commit_is_sealed_after_what_was_sealed_before_it(pg_url: str) -> None:
    db = Database(pg_url)
    db.migrate()
    sequencer = Sequencer(db, [EventChain()], Clock())
    selects: list[str] = []  # what the sequencer asks of the log
    sealing = threading.Event()

    @event.listens_for(db.engine, "before_cursor_execute")
    def _seen(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        selecting = statement.lstrip().upper().startswith("SELECT")
        if sealing.is_set() and selecting and "FROM events" in statement:
            selects.append(statement)

    def seal_now() -> int:
        sealing.set()
        try:
            return sequencer.seal_now()
        finally:
            sealing.clear()

    try:
        with db.engine.connect() as writer_a:
            tx_a = writer_a.begin()
            append_events(writer_a, [entry("a")])  # takes id 1, commits last
            append(db, entry("b"))  # takes id 2, commits first
            assert seal_now() == 1
            (b,) = sealed_log(db)
            assert (b["item_id"], b["id"], b["seq"]) == ("b", 2, 1)
            tx_a.commit()

        with db.read() as conn:
            last_sealed_id = conn.execute(select(event_chain.c.last_id)).scalar_one()
            naive = conn.execute(select(events.c.id).where(events.c.id > last_sealed_id)).all()
            unsealed = conn.execute(select(events.c.id).where(events.c.seq.is_(None))).all()
        # an id cursor has passed A for good: a sealer asking this would never seal it
        assert (last_sealed_id, naive, [r.id for r in unsealed]) == (2, [], [1])

        assert seal_now() == 1
        log = sealed_log(db)
        assert [(e["item_id"], e["id"], e["seq"]) for e in log] == [("b", 2, 1), ("a", 1, 2)]
        assert log[1]["prev_hash"] == log[0]["hash"]
        with db.read() as conn:
            found = verify(conn)
        assert found.intact and found.checked == 2, found
        # the sealer selects the rows without a place, never by an id cursor
        assert selects and all("seq IS NULL" in s for s in selects), selects
        assert not any("events.id >" in s for s in selects), selects
    finally:
        db.dispose()


def _appender(url: str, tag: str, threads: int, per_thread: int) -> None:
    """A process that appends from several threads while its own sequencer runs."""
    db = Database(url)
    sequencer = Sequencer(db, [EventChain()], time.time)
    sequencer.start()

    def write(n: int) -> None:
        for i in range(per_thread):
            append(db, entry(f"{tag}-{n}-{i}", time.time()))

    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    sequencer.stop()
    db.dispose()


def test_appends_from_two_processes_are_each_sealed_once_in_one_chain(db: Database) -> None:
    threads, per_thread = 4, 40
    spawn = multiprocessing.get_context("spawn")
    url = db.engine.url.render_as_string(hide_password=False)
    processes = [
        spawn.Process(target=_appender, args=(url, tag, threads, per_thread)) for tag in "pq"
    ]
    here = Sequencer(db, [EventChain()], time.time)  # a third sealer, in this process
    here.start()
    for p in processes:
        p.start()
    for p in processes:
        p.join(300)
    here.stop()
    assert [p.exitcode for p in processes] == [0, 0]
    db.dispose()

    total = 2 * threads * per_thread
    log = sealed_log(db)
    assert [e["seq"] for e in log] == list(range(1, total + 1))
    expected = {f"{t}-{n}-{i}" for t in "pq" for n in range(threads) for i in range(per_thread)}
    assert sorted(e["item_id"] for e in log) == sorted(expected)
    with db.read() as conn:
        found = verify(conn)
    assert found.intact and found.checked == total and found.unsealed == 0, found
    times = [e["logged_at"] for e in log]
    assert times == sorted(times)
    assert all(e["logged_at"] >= e["at"] for e in log)


# -- times ------------------------------------------------------------------------------


def test_times_never_go_back_in_log_order(database_url: str) -> None:
    service = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    service.start()
    try:
        db = service.db
        # requests whose clocks were read in another order than they committed
        for n, at in enumerate([100.0, 90.0, 95.0, 120.0, 110.0, 130.0]):
            append(db, entry(f"item-{n}", START + at))
        assert service.seal_now() == 6
        log = sealed_log(db)
        assert [e["logged_at"] - START for e in log] == [100, 100, 100, 120, 120, 130]
        assert [e["at"] - START for e in log] == [100, 90, 95, 120, 110, 130]  # as written
        shown = [e.at.timestamp() - START for e in service.events(None, 100, None).events]
        assert shown == [100, 100, 100, 120, 120, 130]
        with db.read() as conn:
            assert verify(conn).intact

        _unguarded(db)
        with db.write() as conn:
            conn.execute(update(events).where(events.c.seq == 3).values(logged_at=START + 95))
        with db.read() as conn:
            found = verify(conn)
        assert (found.seq, found.problem) == (3, "time_mismatch"), found
    finally:
        service.close()


# -- checkpoints --------------------------------------------------------------------------


def _unguarded(db: Database) -> None:
    """Drop the triggers that keep the log and its checkpoints append-only, as someone with
    write access to the database could."""
    with db.write() as conn:
        if db.is_sqlite:
            for name in ("events_no_update", "events_no_delete", "log_checkpoints_no_update"):
                conn.execute(text(f"DROP TRIGGER {name}"))
            conn.execute(text("DROP TRIGGER log_checkpoints_no_delete"))
        else:
            conn.execute(text("DROP TRIGGER events_no_change ON events"))
            conn.execute(text("DROP TRIGGER log_checkpoints_no_change ON log_checkpoints"))


@pytest.fixture
def checkpointed(db: Database, tmp_path: Path) -> tuple[Database, Path, Path]:
    """A log of 20 entries with signed checkpoints at 10, 15 and 20; the key files."""
    key_file = tmp_path / "log.key"
    signer = create_key_file(key_file)
    public_file = tmp_path / "log.pub"
    public_file.write_text(public_pem(signer.public_key))
    clock = Clock(START + 12)
    sequencer = Sequencer(db, [EventChain(signer, checkpoint_seconds=2.0)], clock)
    append(db, *(entry(f"item-{i}", START + i) for i in range(10)))
    sequencer.seal_now()  # the first checkpoint: none before it
    clock.at += 1
    append(db, *(entry(f"item-{i}", START + i) for i in range(10, 15)))
    sequencer.seal_now()  # sealed, no checkpoint yet: the last is 1 s old
    clock.at += 2
    sequencer.tick()  # nothing to seal, but a checkpoint is due
    append(db, *(entry(f"item-{i}", START + i) for i in range(15, 20)))
    sequencer.seal_now(publish=True)  # at once
    return db, key_file, public_file


def verify_log(db: Database, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    url = db.engine.url.render_as_string(hide_password=False)
    code = main(["server", "verify-log", "--database-url", url, *more])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_checkpoints_are_published_and_verified(
    checkpointed: tuple[Database, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, key_file, public_file = checkpointed
    with db.read() as conn:
        rows = conn.execute(select(log_checkpoints).order_by(log_checkpoints.c.size)).all()
        hashes = {e["seq"]: e["hash"] for e in sealed_log(db)}
        found = verify(conn, load_public_key(public_file))
    assert [r.size for r in rows] == [10, 15, 20]
    assert all(r.head_hash == hashes[r.size] for r in rows)
    # published at 12 and 15; the third at 19, the time of the last entry it covers (whose
    # request's clock ran ahead of the sequencer's)
    assert [r.at - START for r in rows] == [12, 15, 19]
    signer = Signer.from_file(key_file)
    assert {r.key_id for r in rows} == {signer.key_id}
    assert found.intact and (found.checkpoints, found.signatures) == (3, 3), found
    code, output = verify_log(db, capsys, "--public-key", str(public_file))
    assert code == 0, output
    assert "intact: 20 entries" in output and "3 checkpoints hold (3 signatures verified)" in output
    # the private key file gives the same public key
    code, output = verify_log(db, capsys, "--public-key", str(key_file))
    assert code == 0, output


def _edit_checkpoint(conn: Any) -> None:
    conn.execute(
        update(log_checkpoints).where(log_checkpoints.c.size == 15).values(head_hash="f" * 64)
    )


def _rewrite_from_12(conn: Any) -> None:
    """Edit entry 12 and re-hash everything after it, head included: the chain holds."""
    rows = conn.execute(select(events).where(events.c.seq >= 11).order_by(events.c.seq))
    rows = [dict(r) for r in rows.mappings()]
    prev = rows[0]["hash"]
    for row in rows[1:]:
        if row["seq"] == 12:
            row["data"] = '{"action":"remove"}'
        digest = entry_hash(row, prev)
        conn.execute(
            update(events)
            .where(events.c.id == row["id"])
            .values(data=row["data"], prev_hash=prev, hash=digest)
        )
        prev = digest
    conn.execute(update(event_chain).values(last_hash=prev))


def _delete_tail(conn: Any) -> None:
    last = conn.execute(select(events).where(events.c.seq == 17)).mappings().one()
    conn.execute(events.delete().where(events.c.seq > 17))
    conn.execute(
        update(event_chain).values(
            last_seq=17, last_id=last["id"], last_hash=last["hash"], last_at=last["logged_at"]
        )
    )


def _backdate_checkpoint(conn: Any) -> None:
    conn.execute(update(log_checkpoints).where(log_checkpoints.c.size == 15).values(at=START))


@pytest.mark.parametrize(
    ("tamper", "seq", "problem"),
    [
        (_edit_checkpoint, 15, "checkpoint_mismatch"),
        (_rewrite_from_12, 15, "checkpoint_mismatch"),
        (_delete_tail, 20, "checkpoint_beyond_log"),
        (_backdate_checkpoint, 15, "checkpoint_time"),
    ],
    ids=["checkpoint-edited", "log-rewritten-and-rehashed", "tail-deleted", "backdated"],
)
def test_verify_log_names_what_disagrees_with_a_checkpoint(
    checkpointed: tuple[Database, Path, Path],
    capsys: pytest.CaptureFixture[str],
    tamper: Callable[[Any], None],
    seq: int,
    problem: str,
) -> None:
    db = checkpointed[0]
    _unguarded(db)
    with db.write() as conn:
        tamper(conn)
    with db.read() as conn:
        found = verify(conn)
    assert (found.seq, found.problem) == (seq, problem), found
    code, output = verify_log(db, capsys)
    assert code == 1, output
    assert f"broken at entry {seq} ({problem})" in output, output


def test_signatures_are_checked_with_the_given_key(
    checkpointed: tuple[Database, Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, _key, public_file = checkpointed
    other = tmp_path / "other.pub"
    other.write_text(public_pem(Ed25519PrivateKey.generate().public_key()))
    code, output = verify_log(db, capsys, "--public-key", str(other))
    assert code == 1 and "(no_signed_checkpoint)" in output, output

    # a signature made with another key, under the service key's id
    _unguarded(db)
    with db.write() as conn:
        cp = conn.execute(select(log_checkpoints).where(log_checkpoints.c.size == 10)).one()
        forged = Ed25519PrivateKey.generate().sign(checkpoint_body(cp.size, cp.head_hash, cp.at))
        conn.execute(
            update(log_checkpoints)
            .where(log_checkpoints.c.size == 10)
            .values(signature=base64.b64encode(forged).decode())
        )
    code, output = verify_log(db, capsys)  # without a key, signatures are not checked
    assert code == 0, output
    code, output = verify_log(db, capsys, "--public-key", str(public_file))
    assert code == 1 and "broken at entry 10 (bad_signature)" in output, output

    # a signature stripped after the key had signed (the first one made good again)
    genuine = Signer.from_file(_key).sign(cp.size, cp.head_hash, cp.at)
    with db.write() as conn:
        conn.execute(
            update(log_checkpoints)
            .where(log_checkpoints.c.size == 10)
            .values(signature=genuine.signature)
        )
        conn.execute(
            update(log_checkpoints)
            .where(log_checkpoints.c.size == 15)
            .values(signature=None, key_id=None)
        )
    code, output = verify_log(db, capsys, "--public-key", str(public_file))
    assert code == 1 and "broken at entry 15 (unsigned_checkpoint)" in output, output


def test_log_key_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "keys" / "log.key"
    assert main(["server", "log-key", "create", str(path)]) == 0
    created = capsys.readouterr()
    assert created.out.startswith("-----BEGIN PUBLIC KEY-----")
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert main(["server", "log-key", "public", str(path)]) == 0
    assert capsys.readouterr().out == created.out
    assert main(["server", "log-key", "create", str(path)]) == 2  # never overwritten
    assert "never overwritten" in capsys.readouterr().err


# -- the lag, readiness, pokes ------------------------------------------------------------


def test_the_lag_gauge_and_readyz(database_url: str) -> None:
    clock = Clock()
    with running(database_url, clock=clock, log_lag_limit_seconds=10) as server:
        server.service.sequencer.stop()  # as if it had died (after a last round)
        assert requests.get(f"{server.url}/readyz", timeout=10).status_code == 200
        server.add_user("rita")  # logs user_created, which nobody seals now
        clock.at += 11
        ready = requests.get(f"{server.url}/readyz", timeout=10)
        assert ready.status_code == 503, ready.text
        assert ready.json()["code"] == "log_sealing_behind"
        assert "1 committed events are not sealed" in ready.json()["detail"]
        metrics = scrape(server.url)
        assert metrics["reviewdesk_event_log_unsealed_entries"] == 1
        assert metrics["reviewdesk_event_log_sealing_lag_seconds"] == 11
        assert metrics["reviewdesk_event_log_sealed_entries"] == 0  # an empty log before
        assert server.service.seal_now() == 1
        assert requests.get(f"{server.url}/readyz", timeout=10).status_code == 200
        assert server.service.log_lag().unsealed == 0


def scrape(base_url: str) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    response = requests.get(f"{base_url}/metrics", timeout=30)
    assert response.status_code == 200, response.text
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if not sample.labels
    }


def _plan(db: Database, statement: Any, *, index: bool = False) -> str:
    """The database's plan for ``statement``, as one string; ``index``: planned as
    ``sequencer.by_index`` runs it."""
    compiled = str(
        statement.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True})
    )
    with db.read() as conn, by_index(conn) if index else nullcontext():
        if db.is_sqlite:
            return " | ".join(r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled))
        return " | ".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + compiled))


def test_a_round_reads_what_is_left_to_seal_by_its_index_not_the_whole_log(
    db: Database,
) -> None:
    """A bulk load (seed, import, the demo) refreshes the planner's figures while its whole
    log is unsealed; SQLite keeps those figures (nothing refreshes them after), so they
    say that nearly every entry is unsealed, and its planner then walked the whole log in
    id order for every round (5 ms a round at 27,000 entries, most of a core under load,
    growing with the log). The round's statement must find what is left to seal through
    an index on both databases, whatever the figures say."""
    chain = EventChain()
    sequencer = Sequencer(db, [chain], Clock())
    with db.write() as conn:
        append_events(conn, [entry(f"old-{n}") for n in range(20_000)])
    db.analyze()  # as seed.py and the demo's replay do after loading
    assert sequencer.seal_now() == 20_000
    append(db, entry("new-1"), entry("new-2"), entry("new-3"))
    if not db.is_sqlite:
        db.analyze()  # autovacuum's figures (SQLite has no such thing)
    plan = _plan(db, unsealed_statement(chain, BATCH, sqlite=db.is_sqlite))
    # by the partial index, or the seq index's NULLs (PostgreSQL's choice): the unsealed only
    assert "ix_events_unsealed" in plan or "Index Cond: (seq IS NULL)" in plan, plan
    assert sequencer.seal_now() == 3
    assert [e["item_id"] for e in sealed_log(db)[-3:]] == ["new-1", "new-2", "new-3"]
    with db.read() as conn:
        assert verify(conn).intact


def test_a_commit_that_appended_pokes_the_sequencer(db: Database) -> None:
    sequencer = Sequencer(db, [EventChain()], Clock())
    poked = sequencer._poked
    append(db, entry("x"))
    assert poked.is_set()
    poked.clear()
    with db.write() as conn:  # a write that logs nothing
        conn.execute(select(events.c.id)).all()
    assert not poked.is_set()
    with pytest.raises(RuntimeError), db.write() as conn:
        append_events(conn, [entry("rolled back")])
        raise RuntimeError
    assert not poked.is_set()


def test_an_items_history_shows_a_decision_at_once_then_sealed(database_url: str) -> None:
    with running(database_url) as server:
        seed_load_queue(server.service, 5)
        server.service.sequencer.stop()  # seals the seeding, then nothing more
        rita = server.login("rita")
        lead = server.login("lead", Role.lead)
        (leased,) = claim(rita, LOAD_QUEUE.id, 1)
        item_id = leased["item"]["id"]
        assert rita.decide([verdict(leased, "keep")])[0]["status"] == "accepted"

        history = rita.get(f"/items/{item_id}/history").json()["events"]
        assert [e["kind"] for e in history[-2:]] == ["claimed", "decided"]
        assert all(e["hash"] is None and e["seq"] is None for e in history[-2:])
        assert all(e["hash"] and e["seq"] for e in history[:-2])
        assert lead.get(f"/items/{item_id}").json()["history"][-1]["kind"] == "decided"

        # the lead's log seals first (a read barrier): the decision is in it, chained
        decided = lead.get("/events", params={"kind": "decided"}).json()["events"]
        assert [e["item_id"] for e in decided] == [item_id] and decided[0]["hash"]
        history = rita.get(f"/items/{item_id}/history").json()["events"]
        seqs = [e["seq"] for e in history]
        assert all(seqs) and seqs == sorted(seqs)
        times = [e["at"] for e in history]
        assert times == sorted(times)


def test_the_looks_for_what_is_left_to_seal_use_its_index_after_a_bulk_seal(
    db: Database,
) -> None:
    """Right after a bulk load is sealed, the planner's figures (taken while the load was
    unsealed, and not refreshed until autovacuum next analyzes the table) say that nearly
    every entry is unsealed. The sequencer's idle look ("is anything left?", every 50 ms)
    and the lag gauge (every scrape of /metrics and /readyz) were then planned as a scan of
    the whole log on PostgreSQL: 37 ms a look at 110,000 entries, in proportion to the log
    (SQLite found them by the seq index). Both must go by an index of the unsealed entries
    whatever the figures say."""
    chain = EventChain()
    sequencer = Sequencer(db, [chain], Clock())
    with db.write() as conn:
        append_events(conn, [entry(f"old-{n}") for n in range(20_000)])
    db.analyze()  # as seed.py and the demo's replay do after loading
    assert sequencer.seal_now() == 20_000  # and no ANALYZE since: the figures are stale
    sqlite = db.is_sqlite
    for statement, index in (
        (first_unsealed_statement(chain, sqlite=sqlite), False),
        (lag_statement(chain, sqlite=sqlite), True),  # as Sequencer.lag runs it
    ):
        plan = _plan(db, statement, index=index)
        # the partial index, or the unsealed ones in the seq index: never the whole log
        assert any(
            by in plan
            for by in ("ix_events_unsealed", "ix_events_seq (seq=?)", "Index Cond: (seq IS NULL)")
        ), plan
    with db.read() as conn:
        assert sequencer.lag(conn, START) == {chain.name: Lag(0, 0.0)}
    append(db, entry("new-1", START + 5))
    with db.read() as conn:
        assert sequencer.lag(conn, START + 7) == {chain.name: Lag(1, 2.0)}
    assert sequencer.tick() is False  # the look found it: sealed
    assert sealed_log(db)[-1]["item_id"] == "new-1"
