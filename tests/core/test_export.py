"""The decision export over real HTTP: ``ApiClient.export_decisions`` and
``reviewer-app export``. Hostile cells come out neutralised and otherwise unchanged, a
reviewer is refused in plain words, a cut stream leaves no file, and memory stays flat
however many rows pass."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
import tracemalloc
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from reviewer_app.__main__ import main
from reviewer_app.core.api import ApiClient, ExportCancelled
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import Forbidden, NetworkError, ProtocolError
from reviewer_app.core.export import EXIT_DENIED, EXIT_NETWORK, EXIT_OK, EXIT_USAGE
from reviewer_app.protocol import Decision, DecisionQuery, Role, UserCreate, Verdict
from reviewer_app.protocol.csvsafe import (
    DECISION_COLUMNS,
    FORMULA_PREFIXES,
    decision_row,
    neutralise,
    write_rows,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import sessions
from tests.support.bulk import BULK_EPOCH, HOSTILE_NOTES, bulk_decisions
from tests.support.client import login
from tests.support.cut_proxy import CutProxy
from tests.support.proxy import FaultProxy, Rule, http_response
from tests.support.servers import PASSWORD, LiveServer, ServerProcess

QUEUE = LOAD_QUEUE.id
SINCE = datetime(2025, 1, 1, tzinfo=UTC)


def until() -> datetime:
    return datetime.now(UTC) + timedelta(hours=1)


def read_csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def every_decision(lead: ApiClient) -> list[Decision]:
    found: list[Decision] = []
    cursor = None
    while True:
        page = lead.decisions(order="asc", cursor=cursor, limit=500)
        found += page.decisions
        if not (cursor := page.next_cursor):
            return found


def decide_hostile(client: ApiClient, count: int) -> None:
    grant = client.claim(QUEUE, count, 300)
    client.verdicts(
        [
            Verdict(
                idempotency_key=uuid.uuid4(),
                item_id=leased.item.id,
                lease_token=leased.lease_token,
                action="keep",
                note=HOSTILE_NOTES[i % len(HOSTILE_NOTES)] or None,
                time_spent_ms=500,
                decided_at=datetime.now(UTC),
            )
            for i, leased in enumerate(grant.items)
        ]
    )


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def lead(server: LiveServer) -> Iterator[ApiClient]:
    client = login(server.url, "lead")
    yield client
    client.close()


@pytest.fixture
def hostile(server: LiveServer) -> int:
    """A few thousand decisions with hostile notes: 26 through the real verdict flow, the
    rest put straight into the database. Returns how many."""
    decide_hostile(login(server, "rita"), 2 * len(HOSTILE_NOTES))
    bulk_decisions(server.service, 0, 4_000, queue_id=QUEUE)
    return 2 * len(HOSTILE_NOTES) + 4_000


def export_args(server_url: str, user: str, out: Path, *extra: str) -> list[str]:
    return [
        "export",
        "--server",
        server_url,
        "--user",
        user,
        "--since",
        SINCE.isoformat(),
        "--until",
        until().isoformat(),
        "-o",
        str(out),
        *extra,
    ]


# --- the client call ---------------------------------------------------------------------


def test_hostile_cells_round_trip_neutralised(
    lead: ApiClient, hostile: int, tmp_path: Path
) -> None:
    out = tmp_path / "decisions.csv"
    seen: list[int] = []
    with open(out, "w", newline="", encoding="utf-8") as f:
        rows = lead.export_decisions(
            f, DecisionQuery(since=SINCE, until=until()), progress=seen.append
        )
    assert rows == hostile
    assert seen == [*range(1_000, hostile, 1_000), hostile]

    table = read_csv(out)
    assert tuple(table[0]) == DECISION_COLUMNS
    decisions = every_decision(lead)
    assert table[1:] == [decision_row(d) for d in decisions]
    for cell in (c for row in table for c in row):
        assert not cell.startswith(FORMULA_PREFIXES), cell
    notes = [row[DECISION_COLUMNS.index("note")] for row in table[1:]]
    assert notes == [neutralise(d.note or "") for d in decisions]
    assert "'=cmd|' /C calc'!A0" in notes and "multi\nline\r\nnote\rwith every line end" in notes
    assert any("\u202ebidi override\u202c" in n for n in notes)

    # the filters are the search's
    with open(tmp_path / "keep.csv", "w", newline="", encoding="utf-8") as f:
        kept = lead.export_decisions(
            f, DecisionQuery(reviewer="bulk", action="keep", audited=False)
        )
    assert kept == len([d for d in decisions if d.reviewer == "bulk" and d.action == "keep"])
    window = (
        datetime.fromtimestamp(BULK_EPOCH + 100, UTC),
        datetime.fromtimestamp(BULK_EPOCH + 350, UTC),
    )
    with open(tmp_path / "window.csv", "w", newline="", encoding="utf-8") as f:
        assert lead.export_decisions(f, DecisionQuery(since=window[0], until=window[1])) == 250


def raw_csv(rows: list[list[str]], *, header: tuple[str, ...] = DECISION_COLUMNS) -> bytes:
    return (write_rows([list(header)]) + write_rows(rows)).encode()


def csv_reply(body: bytes, kind: str = "text/csv; charset=utf-8") -> bytes:
    return http_response(200, body, {"Content-Type": kind})


def test_a_backend_that_does_not_neutralise_is_neutralised_here(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    lead = ApiClient(proxy.url, token=login(server.url, "lead").token)
    raw = ["=cmd|' /C calc'!A0", "+1", "-1", "@x", "\tt", "\rr", "ok", "", 'q"', "a\nb"]
    row = [*raw, "5", "2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z", "review", ""]
    row += [""] * (len(DECISION_COLUMNS) - len(row))  # the columns added since (audit, appeal)
    proxy.add(Rule("GET", "/api/v1/decisions/export", "respond", payload=csv_reply(raw_csv([row]))))
    out = io.StringIO(newline="")
    assert lead.export_decisions(out) == 1
    got = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert got == [list(DECISION_COLUMNS), [neutralise(c) for c in row]]
    assert got[1][:6] == ["'=cmd|' /C calc'!A0", "'+1", "'-1", "'@x", "'\tt", "'\rr"]


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (csv_reply(raw_csv([], header=("id", "note"))), "not a decision export"),
        (csv_reply(b""), "not a decision export"),
        (csv_reply(raw_csv([["1", "2"]])), f"has 2 cells, not {len(DECISION_COLUMNS)}"),
        (csv_reply(raw_csv([]) + b'"never closed\r\n'), "has 1 cells|not valid CSV"),
        (csv_reply(raw_csv([]) + b"\xff\xfe\r\n"), "not UTF-8"),
        (csv_reply(raw_csv([]), "application/json"), "not CSV"),
        (csv_reply(raw_csv([]) + b"x" * (1024 * 1024 + 10)), "line of over"),
    ],
)
def test_a_reply_that_is_not_the_export_is_a_protocol_error(
    server: LiveServer, proxy: FaultProxy, reply: bytes, words: str
) -> None:
    lead = ApiClient(proxy.url, token=login(server.url, "lead").token)
    proxy.add(Rule("GET", "/api/v1/decisions/export", "respond", payload=reply))
    with pytest.raises(ProtocolError, match=words):
        lead.export_decisions(io.StringIO(newline=""))


def test_an_export_can_be_cancelled(lead: ApiClient, hostile: int) -> None:
    seen: list[int] = []
    with pytest.raises(ExportCancelled, match="cancelled after 2,000") as caught:
        lead.export_decisions(
            io.StringIO(newline=""), progress=seen.append, cancelled=lambda: len(seen) >= 2
        )
    assert caught.value.rows == 2_000 and seen == [1_000, 2_000]


def test_a_reviewer_is_refused_the_export(server: LiveServer) -> None:
    rita = login(server, "rita")
    with pytest.raises(Forbidden) as caught:
        rita.export_decisions(io.StringIO(newline=""))
    assert caught.value.code == "lead_only"


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "closed"])
def test_a_stream_cut_midway_is_a_network_error(
    server: LiveServer, hostile: int, reset: bool
) -> None:
    front = CutProxy(server.port, cut_after=300_000, reset=reset).start()
    try:
        lead = ApiClient(front.url, token=login(server.url, "lead").token)
        seen: list[int] = []
        with pytest.raises(NetworkError, match="cut off"):
            lead.export_decisions(io.StringIO(newline=""), progress=seen.append)
        assert front.cuts == 1 and len(seen) < hostile // 1_000
        if not reset:  # (a reset may discard what the client had not read yet)
            assert seen, "the cut came after the first rows were written"
    finally:
        front.stop()


# --- reviewer-app export -------------------------------------------------------------------


def test_the_command_exports_with_a_password_and_logs_out(
    server: LiveServer,
    hostile: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out" / "decisions.csv"
    out.parent.mkdir()
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    live = live_sessions(server)
    assert main(export_args(server.url, "lead", out, "--password-stdin")) == EXIT_OK
    assert live_sessions(server) == live, "the command's own login was revoked"
    assert len(read_csv(out)) == hostile + 1
    assert leftovers(out.parent) == ["decisions.csv"]
    assert f"Exported {hostile:,} decisions" in capsys.readouterr().err

    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    args = export_args(server.url, "lead", out, "--password-stdin", "--reviewer", "rita")
    assert main([*args, "--queue", QUEUE, "--action", "keep", "--audited", "no"]) == EXIT_OK
    assert len(read_csv(out)) == 2 * len(HOSTILE_NOTES) + 1


def live_sessions(server: LiveServer) -> int:
    with server.service.db.read() as conn:
        query = select(func.count()).where(sessions.c.revoked_at.is_(None))
        return int(conn.execute(query).scalar_one())


def test_the_command_uses_the_token_the_app_saved(
    server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lead = login(server.url, "lead")
    assert lead.token
    Credentials().save(lead.server_url, "lead", lead.token)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # asking for a password would fail
    out = tmp_path / "saved.csv"
    assert main(export_args(server.url, "lead", out)) == EXIT_OK
    assert read_csv(out)[0] == list(DECISION_COLUMNS)
    assert lead.me().username == "lead", "the app's token was not logged out"

    lead.logout()  # a saved token that no longer works: back to the password
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    assert main(export_args(server.url, "lead", out, "--password-stdin")) == EXIT_OK


def test_a_reviewer_gets_the_refusal_explained_and_no_file(
    server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.add_user("rita")
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "decisions.csv"
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    assert main(export_args(server.url, "rita", out, "--password-stdin")) == EXIT_DENIED
    err = capsys.readouterr().err
    assert "only leads and admins can export" in err and "no file was written" in err
    assert leftovers(folder) == [], "neither the file nor a temporary file is left"

    monkeypatch.setattr(sys, "stdin", io.StringIO("wrong password\n"))
    assert main(export_args(server.url, "rita", out, "--password-stdin")) == EXIT_DENIED
    assert "Could not log in as rita" in capsys.readouterr().err
    assert leftovers(folder) == []


@pytest.mark.parametrize("reset", [True, False], ids=["reset", "closed"])
def test_a_cut_export_leaves_no_file_and_exits_4(
    server: LiveServer,
    hostile: int,
    tmp_path: Path,
    reset: bool,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "decisions.csv"
    out.write_text("an older export\n")  # stays as it was
    front = CutProxy(server.port, cut_after=300_000, reset=reset).start()
    try:
        monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
        assert main(export_args(front.url, "lead", out, "--password-stdin")) == EXIT_NETWORK
    finally:
        front.stop()
    err = capsys.readouterr().err
    assert "was cut off" in err and "no file was written" in err
    assert leftovers(folder) == ["decisions.csv"]
    assert out.read_text() == "an older export\n"


def test_usage_and_network_errors_have_their_own_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.csv"
    base = ["export", "--server", "http://127.0.0.1:9", "--user", "lead", "-o", str(out)]
    times = ["--since", "2025-06-02", "--until", "2025-06-01"]
    assert main([*base, *times]) == EXIT_USAGE
    assert "--until must be later than --since" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main([*base, "--since", "yesterday", "--until", "2025-06-01"])
    assert caught.value.code == EXIT_USAGE
    with pytest.raises(SystemExit) as caught:
        main([*base, "--since", "2025-06-01", "--until", "2025-06-02", "--audited", "maybe"])
    assert caught.value.code == EXIT_USAGE
    times = ["--since", "2025-06-01", "--until", "2025-06-02T00:00Z"]
    assert main([*base[:-1], str(tmp_path / "no" / "x.csv"), *times]) == EXIT_USAGE
    assert main([*base, *times]) == EXIT_NETWORK  # nothing listens on port 9
    assert "Connection refused" in capsys.readouterr().err
    assert leftovers(tmp_path) == []


def test_the_command_runs_as_its_own_process(server: LiveServer, tmp_path: Path) -> None:
    decide_hostile(login(server, "rita"), 5)
    out = tmp_path / "decisions.csv"
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reviewer_app",
            *export_args(server.url, "lead", out, "--password-stdin"),
        ],
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert "Exported 5 decisions" in done.stderr
    table = read_csv(out)
    assert len(table) == 6 and tuple(table[0]) == DECISION_COLUMNS


def test_export_help_needs_neither_qt_nor_the_server(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "reviewer_app", "export", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""},
    )
    assert done.returncode == 0, done.stderr
    assert "--password-stdin" in done.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "reviewer_app.core.export" in imported
    assert not {m for m in imported if m.startswith(("PySide6", "reviewer_app.server"))}
    version = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--version"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert version.returncode == 0 and version.stdout.startswith("reviewer-app ")


# --- volume ----------------------------------------------------------------------------------


@pytest.fixture
def big_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The service in its own process (so only the client is in this one's memory), with
    100,000 decisions."""
    url = f"sqlite:///{tmp_path / 'big.db'}"
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
        bulk_decisions(service, 0, 100_000, queue_id=QUEUE)
    finally:
        service.close()
    process = ServerProcess(url).start()
    try:
        yield process
    finally:
        process.stop()


def _export_peak(lead: ApiClient, path: Path, rows: int) -> tuple[int, int, float]:
    """Rows exported, the peak of memory allocated meanwhile, and rows per second (slowed
    by tracemalloc itself)."""
    end = datetime.fromtimestamp(BULK_EPOCH + rows, UTC)
    tracemalloc.start()
    try:
        started = time.perf_counter()
        with open(path, "w", newline="", encoding="utf-8") as f:
            got = lead.export_decisions(f, DecisionQuery(since=SINCE, until=end))
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return got, peak, got / seconds


@pytest.mark.slow
def test_memory_stays_flat_exporting_100000_decisions(
    big_server: ServerProcess, tmp_path: Path
) -> None:
    lead = ApiClient(big_server.url)
    lead.login("lead", PASSWORD)
    peaks = {}
    for rows in (10_000, 100_000):
        got, peaks[rows], rate = _export_peak(lead, tmp_path / f"{rows}.csv", rows)
        assert got == rows
        print(f"export of {rows:,} rows: peak {peaks[rows] / 1e6:.2f} MB, {rate:,.0f} rows/s")
    assert len(read_csv(tmp_path / "100000.csv")) == 100_001
    # Ten times the rows, about the same memory: a batch of rows at a time, never all.
    assert peaks[100_000] < 1.5 * peaks[10_000] + 1_000_000, peaks
    assert peaks[100_000] < 8_000_000, peaks


def test_what_a_server_says_reaches_the_terminal_without_its_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A problem's words come from the server: an escape sequence in them could rewrite
    the terminal (its title, its screen); they are written as their code points."""
    import json as json_module
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    hostile = "no \x1b]0;owned\x07 way\x9b2J"
    body = json_module.dumps(
        {"title": "Refused", "status": 422, "code": "bad", "detail": hostile}
    ).encode()

    class Refuse(BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            self.send_response(422)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _refuse

        def log_message(self, *_args: object) -> None:
            pass

    hostile_server = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=hostile_server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{hostile_server.server_address[1]}"
        times = ["--since", "2025-06-01", "--until", "2025-06-02T00:00Z"]
        args = ["export", "--server", url, "--user", "lead", "-o", str(tmp_path / "x.csv")]
        capsys.readouterr()
        assert main([*args, *times]) != 0
    finally:
        hostile_server.shutdown()
    said = capsys.readouterr().err
    assert "\x1b" not in said and "\x07" not in said and "\x9b" not in said, said
    assert "\\u001b]0;owned\\u0007" in said, said
