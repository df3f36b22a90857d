"""``sor export``'s window ends a margin before now, on SQLite and PostgreSQL: a statement
stamped (at its transaction's start) before the window's end but committed after the export
read is in the next window, whose ``--since`` is the end the output names; consecutive
windows neither miss nor repeat a statement."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import delete, insert, select, update

from reviewer_app.server.cli import sor_export
from reviewer_app.server.storage.tables import statements as table
from tests.server.test_sor_export import decide_batch, read_lines, setup
from tests.support.servers import LiveServer

Export = Callable[..., tuple[set[str], str]]


def iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat()


@pytest.fixture
def export_at(
    live_server: LiveServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> Export:
    """Run ``sor export`` in this process as if it were ``now``: the puids written, and
    what it said."""
    parser = argparse.ArgumentParser()
    sor_export.add_parser(parser.add_subparsers(dest="server_command"))

    def export(now: float, *argv: str) -> tuple[set[str], str]:
        clock = SimpleNamespace(time=lambda: now)
        monkeypatch.setattr(sor_export, "time", clock, raising=False)
        out = tmp_path / "window.jsonl"
        args = parser.parse_args(["sor", "export", *argv, "-o", str(out)])
        code = sor_export.run(live_server.settings, args)
        said = capsys.readouterr().err
        assert code == 0, said
        return {line["puid"] for line in read_lines(out)}, said

    return export


def test_a_statement_committed_after_an_export_is_in_the_next_window(
    live_server: LiveServer, export_at: Export
) -> None:
    session = setup(live_server)
    decide_batch(live_server, "a", session)
    with live_server.service.db.read() as conn:
        rows = [dict(r) for r in conn.execute(select(table).order_by(table.c.id)).mappings()]
    everything = {sor_export.to_dsa(r)["puid"] for r in rows}
    late = rows[-1]
    # a decision whose transaction started before the export and commits after it read:
    # not there while the first export reads
    with live_server.service.db.write() as conn:
        conn.execute(delete(table).where(table.c.id == late["id"]))
    now = max(r["created_at"] for r in rows) + 600  # the others committed long since

    first, said = export_at(now, "--since", "2020-01-01", "--until", iso(now))
    found = re.search(r"The next window starts at --since (\S+)\.", said)
    next_since = found.group(1) if found else iso(now)

    with live_server.service.db.write() as conn:  # it commits, stamped a second before
        conn.execute(insert(table).values({**late, "created_at": now - 1}))
    second, _said = export_at(now + 400, "--since", next_since, "--until", iso(now + 400))

    assert not first & second, "a statement exported twice"
    assert first | second == everything, "a statement never exported"
    assert found is not None, said
    assert float(datetime.fromisoformat(next_since).timestamp()) <= now - 300


def test_the_window_is_said_and_until_defaults_to_the_margin_before_now(
    live_server: LiveServer, export_at: Export
) -> None:
    session = setup(live_server)
    decide_batch(live_server, "a", session)
    with live_server.service.db.read() as conn:
        newest = conn.execute(select(table.c.created_at).order_by(table.c.id.desc())).scalar()
    assert newest is not None
    now = float(int(newest)) + 2
    written, said = export_at(now, "--since", "2020-01-01")
    assert written == set(), "statements of the last 5 minutes may still be committing"
    assert f"[2020-01-01T00:00:00+00:00, {iso(now - 300)})" in said, said
    # a shorter margin, for a service whose transactions are known to be short
    written, said = export_at(now, "--since", "2020-01-01", "--margin", "1")
    assert len(written) == 10 and iso(now - 1) in said, said
    with live_server.service.db.write() as conn:
        conn.execute(update(table).values(created_at=now - 301))
    written, said = export_at(now, "--since", "2020-01-01", "--until", "2999-01-01")
    assert len(written) == 10
    # a future --until is not "less than 300 s ago": the sentence names the window's end
    assert (
        f"--until 2999-01-01 is after {iso(now - 300)} (300 s ago, --margin): "
        "the window ends there instead"
    ) in said, said


def test_a_since_within_the_margin_or_ahead_names_the_latest_end() -> None:
    now = 1_800_000_000.0
    for since in (now - 10, now + 86_400):  # ten seconds ago, and tomorrow
        with pytest.raises(ValueError) as refused:
            sor_export.window(iso(since), None, 300, now)
        assert f"--since {iso(since)} is after {iso(now - 300)} (300 s ago, --margin)" in str(
            refused.value
        ), refused.value
