"""``reviewer-app server import FILE.jsonl`` as its own process, on SQLite and PostgreSQL:
rejected lines named with their numbers and reasons (exit 1), a file or a command it cannot
use (exit 2), a run killed mid-way and run again (every post and signal exactly once), a
re-run of a finished import (nothing twice), media lines, and the progress line on a
terminal only."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.__main__ import main
from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo.files import media_file
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.feeds import bulk_import
from reviewer_app.server.feeds.bulk_import import PAUSE_ENV, read_state, rejects_path, state_path
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import items, posts, signals
from tests.support.intake import QUEUES, classifier, post, report

HERE = Path(__file__).resolve().parents[2]


@pytest.fixture
def service(database_url: str) -> Iterator[Service]:
    """The database with the test queues applied (the import runs in its own process)."""
    svc = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    svc.start()
    svc.apply_queue_file(QueueFile.model_validate(QUEUES), actor=None)
    try:
        yield svc
    finally:
        svc.close()


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def run_import(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    """``reviewer-app server import FILE ...`` in this process (the same entry point)."""

    def run(url: str, file: Path, *extra: str) -> Done:
        capsys.readouterr()
        code = main(["server", "import", str(file), "--database-url", url, *extra])
        out, err = capsys.readouterr()
        return Done(code, out, err)

    return run


def start_import(url: str, file: Path, *extra: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reviewer_app",
            "server",
            "import",
            str(file),
            "--database-url",
            url,
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
        env={**os.environ, **env},
    )


def line(kind: str, body: dict[str, Any]) -> str:
    return json.dumps({"type": kind, **body})


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return path


def count(service: Service, table: Any) -> int:
    with service.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_rejected_lines_are_listed_with_their_numbers_and_reasons(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    good = post("p-1")
    lines = [
        line("post", good),  # 1
        line("signal", classifier("p-1", 0.9, signal_id="s-1")),  # 2: routes it
        '{"type": "post", "external_id": ',  # 3: not JSON
        "",  # 4: blank, skipped
        "[1, 2]",  # 5: not an object
        line("comment", {"text": "hi"}),  # 6: no such type
        line("post", {**post("p-2"), "text": None}),  # 7: not a post
        line("signal", report("nowhere", signal_id="s-2")),  # 8: the service has no such post
        line("signal", report("p-1", signal_id="s-3")),  # 9
        line("signal", {**report("p-1", signal_id="s-3"), "reason": "spam"}),  # 10: id reused
        line("withdrawal", {"post_external_id": "p-1", "reason": "gone"}),  # 11: bad reason
        "[" * 100_000 + "]" * 100_000,  # 12: nested deeper than a JSON reader goes
    ]
    file = write(tmp_path / "feed.jsonl", lines)
    done = run_import(database_url, file, "--source", "feed-bridge")
    assert done.returncode == 1, done.stderr
    assert "8 lines rejected" in done.stderr and "feed.jsonl.rejected.jsonl" in done.stderr
    rejected = [json.loads(x) for x in rejects_path(file).read_text("utf-8").splitlines()]
    assert [(r["line"], r["code"]) for r in rejected] == [
        (3, "not_json"),
        (5, "not_an_object"),
        (6, "unknown_type"),
        (7, "invalid"),
        (8, "unknown_post"),
        (10, "id_reused"),
        (11, "invalid"),
        (12, "not_json"),
    ]
    assert "text" in rejected[3]["reason"]
    assert rejected[4]["external_id"] == "s-2"
    assert count(service, posts) == 1 and count(service, signals) == 2
    with service.db.read() as conn:
        assert conn.execute(select(items.c.queue_id)).scalars().all() == ["misinfo"]
        assert conn.execute(select(posts.c.source)).scalars().all() == ["feed-bridge"]
    summary = json.loads(done.stdout.split(": ", 1)[1])
    assert summary["post.created"] == 1 and summary["signal.created"] == 2
    assert summary["rejected"] == 8


def test_posts_signals_and_withdrawals_go_in_batches_each_post_in_file_order(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    """Interleaved lines (a post, its signals, the next post ...) are sent as batches of
    posts, signals and withdrawals; a post's own lines still count in file order."""
    lines = []
    for n in range(30):  # post, score, report, post, score, report ...
        lines += [line("post", post(f"p-{n}")), line("signal", classifier(f"p-{n}", 0.9))]
        lines.append(line("signal", report(f"p-{n}", "spam")))
    lines.append(line("post", post("p-0", text="Edited upstream")))  # 91: a new version
    lines.append(line("withdrawal", {"post_external_id": "p-1", "reason": "deleted"}))  # 92
    lines.append(line("signal", report("p-1", "spam")))  # 93: after the withdrawal
    lines.append(line("signal", report("p-2", "spam")))  # 94
    file = write(tmp_path / "feed.jsonl", lines)
    done = run_import(database_url, file, "--batch", "20")
    rejected = [json.loads(x) for x in rejects_path(file).read_text("utf-8").splitlines()]
    assert [(r["line"], r["code"]) for r in rejected] == [(93, "post_withdrawn")], rejected
    summary = json.loads(done.stdout.split(": ", 1)[1])
    assert summary["post.created"] == 30 and summary["post.updated"] == 1
    assert summary["signal.created"] == 61 and summary["withdrawal.updated"] == 1
    with service.db.read() as conn:
        states = dict(
            conn.execute(
                select(posts.c.external_id, items.c.state).join(
                    items, items.c.post_id == posts.c.id
                )
            ).all()
        )
    assert states["p-1"] == "withdrawn" and states["p-0"] == "pending"


def test_a_line_over_the_limit_is_rejected_and_read_past(
    service: Service,
    database_url: str,
    tmp_path: Path,
    run_import: Callable[..., Done],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bulk_import, "MAX_LINE_BYTES", 2_000)
    long_post = line("post", post("p-long", text="x" * 5_000))
    lines = [line("post", post("p-1")), long_post, line("post", post("p-2"))]
    lines.append(line("signal", classifier("p-2", 0.9)))
    file = write(tmp_path / "feed.jsonl", lines)
    done = run_import(database_url, file)
    assert done.returncode == 1
    rejected = [json.loads(x) for x in rejects_path(file).read_text("utf-8").splitlines()]
    assert [(r["line"], r["code"]) for r in rejected] == [(2, "line_too_long")]
    assert count(service, posts) == 2 and count(service, items) == 1
    state = read_state(state_path(file))
    assert state is not None and state.done and state.line == 4
    again = run_import(database_url, file)  # the state's hash covers the long line too
    # nothing new: exit code 0 (the rejected line was this import's first run's)
    assert again.returncode == 0 and "Read 0 lines this run" in again.stdout


def test_a_finished_import_run_again_imports_nothing_and_goes_on_with_new_lines(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    lines = [line("post", post(f"p-{n}")) for n in range(5)]
    lines += [line("signal", classifier(f"p-{n}", 0.9, signal_id=f"c-{n}")) for n in range(5)]
    file = write(tmp_path / "feed.jsonl", lines)
    first = run_import(database_url, file, "--batch", "2")
    assert first.returncode == 0, first.stderr
    assert not rejects_path(file).exists()
    state = read_state(state_path(file))
    assert state is not None and state.done and state.line == 10
    again = run_import(database_url, file, "--batch", "2")
    assert again.returncode == 0, again.stderr
    assert "Resumed after line 10" in again.stdout and "Read 0 lines" in again.stdout
    # lines added at the end are imported by the next run, the rest is not sent again
    with file.open("a", encoding="utf-8") as out:
        out.write(line("signal", report("p-0", signal_id="r-late")) + "\n")
    third = run_import(database_url, file)
    assert third.returncode == 0 and "Read 1 lines" in third.stdout, third.stdout
    assert count(service, posts) == 5 and count(service, signals) == 6
    assert count(service, items) == 5
    # a line still being written (no line end, not JSON yet) waits for the next run
    late = line("post", post("p-late"))
    with file.open("a", encoding="utf-8") as out:
        out.write(late[:30])
    fourth = run_import(database_url, file)
    assert fourth.returncode == 0 and "Read 0 lines" in fourth.stdout, fourth.stdout
    assert "ends in part of a line" in fourth.stdout and not rejects_path(file).exists()
    with file.open("a", encoding="utf-8") as out:
        out.write(late[30:] + "\n")
    fifth = run_import(database_url, file)
    assert fifth.returncode == 0 and "Read 1 lines" in fifth.stdout, fifth.stdout
    assert count(service, posts) == 6


def test_a_file_or_command_it_cannot_use_is_exit_code_2(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    missing = run_import(database_url, tmp_path / "nope.jsonl")
    assert missing.returncode == 2 and "No file" in missing.stderr
    file = write(tmp_path / "feed.jsonl", [line("post", post("p-1"))])
    assert run_import(database_url, file, "--batch", "0").returncode == 2
    assert run_import(database_url, file, "--source", "Not An Account").returncode == 2
    assert run_import(database_url, file).returncode == 0
    # the part already imported changed: refused, and it says how to start over
    write(file, [line("post", post("p-9"))])
    changed = run_import(database_url, file)
    assert changed.returncode == 2 and "changed since it was imported" in changed.stderr
    other = run_import(database_url, file, "--source", "another")
    assert other.returncode == 2 and "--source bulk-import" in other.stderr
    fields = '"version": 1, "offset": 0, "line": 0, "prefix_sha256": "", "rejects_size": 0'
    for broken in ("null", f'{{{fields}, "source": "bulk-import", "media": []}}', "[" * 100_000):
        state_path(file).write_text(broken, encoding="utf-8")
        garbled = run_import(database_url, file)
        assert garbled.returncode == 2 and "is not an import state" in garbled.stderr
    state_path(file).unlink()
    nowhere = run_import(database_url, file, "--rejects", str(tmp_path / "no" / "r.jsonl"))
    assert nowhere.returncode == 2 and "cannot write the rejected lines" in nowhere.stderr
    assert run_import(database_url, file).returncode == 0
    assert count(service, posts) == 2


def test_media_lines_upload_files_beside_the_file(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "card.png").write_bytes(media_file("rip_card.png").read_bytes())
    with_media = {**post("p-1"), "media": [{"media_id": "card", "alt_text": "a card"}]}
    lines = [
        line("media", {"ref": "card", "file": "pics/card.png", "mime_type": "image/png"}),
        line("media", {"ref": "gone", "file": "pics/gone.png"}),
        line("post", with_media),
        line("signal", classifier("p-1", 0.95)),
        # not beside the file, not a file, or too big: refused before it is read whole
        line("media", {"ref": "up", "file": "../outside.png"}),
        line("media", {"ref": "abs", "file": str(tmp_path.parent / "outside.png")}),
        line("media", {"ref": "dev", "file": "pics/zero"}),
        line("media", {"ref": "big", "file": "pics/big.png", "mime_type": "image/png"}),
    ]
    (tmp_path.parent / "outside.png").write_bytes(media_file("rip_card.png").read_bytes())
    (tmp_path / "pics" / "zero").symlink_to("/dev/zero")
    with open(tmp_path / "pics" / "big.png", "wb") as big:
        big.truncate(2 * 1024**3)  # sparse: 2 GB on paper, read at most 8 MiB and a byte
    file = write(tmp_path / "feed.jsonl", lines)
    done = run_import(database_url, file)
    assert done.returncode == 1
    rejected = [json.loads(x) for x in rejects_path(file).read_text("utf-8").splitlines()]
    assert [(r["line"], r["code"]) for r in rejected] == [
        (2, "media_unreadable"),
        (5, "media_unreadable"),
        (6, "media_unreadable"),
        (7, "media_unreadable"),
        (8, "media_too_large"),
    ]
    lead = service.create_user(
        UserCreate(username="lena", password="lena-password", role=Role.lead)
    )
    with service.db.read() as conn:
        (item_id,) = conn.execute(select(items.c.id)).scalars().all()
    shown = service.item(Principal(lead.id, "lena", "Lena", Role.lead), item_id)
    assert [m.alt_text for m in shown.post.media] == ["a card"]
    content, mime = service.media(
        Principal(lead.id, "lena", "Lena", Role.lead), shown.post.media[0].id
    )
    assert mime == "image/png" and content == media_file("rip_card.png").read_bytes()


POSTS, REPORTS_EACH = 300, 9


def big_file(path: Path, bad_every: int = 0) -> Path:
    """Posts, each routed by a classifier score, and REPORTS_EACH reports on each (and,
    with ``bad_every``, a line that is not JSON after every ``bad_every`` good ones)."""
    lines = [line("post", post(f"p-{n}")) for n in range(POSTS)]
    lines += [line("signal", classifier(f"p-{n}", 0.9, signal_id=f"c-{n}")) for n in range(POSTS)]
    lines += [
        line("signal", report(f"p-{n}", "spam", signal_id=f"r-{n}-{k}"))
        for k in range(REPORTS_EACH)
        for n in range(POSTS)
    ]
    if bad_every:
        lines = [
            x
            for n, good in enumerate(lines)
            for x in [good, "{oops"][: 2 if (n + 1) % bad_every == 0 else 1]
        ]
    return write(path, lines)


def test_killed_mid_way_and_run_again_every_post_and_signal_counts_once(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    file = big_file(tmp_path / "backfill.jsonl", bad_every=100)
    good = POSTS * (2 + REPORTS_EACH)
    total = good + good // 100
    # A pause after each committed batch makes the run long enough to kill in the middle.
    running = start_import(database_url, file, "--batch", "50", env={PAUSE_ENV: "0.05"})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = read_state(state_path(file)) if state_path(file).exists() else None
            if state is not None and state.line >= total // 3:
                break
            assert running.poll() is None, running.stderr.read() if running.stderr else ""
            time.sleep(0.01)
        running.send_signal(signal.SIGKILL)
    finally:
        running.wait(30)
        if running.stderr is not None:
            running.stderr.close()
    stopped = read_state(state_path(file))
    assert stopped is not None and not stopped.done and 0 < stopped.line < total
    assert count(service, signals) < POSTS * (1 + REPORTS_EACH)

    again = run_import(database_url, file, "--batch", "50")
    assert again.returncode == 1, again.stderr  # the bad lines
    assert f"Resumed after line {stopped.line:,}" in again.stdout
    rejected = [json.loads(x)["line"] for x in rejects_path(file).read_text().splitlines()]
    assert rejected == [n * 101 for n in range(1, good // 100 + 1)]  # each once, in order
    finished = read_state(state_path(file))
    assert finished is not None and finished.done and finished.line == total
    assert count(service, posts) == POSTS
    assert count(service, signals) == POSTS * (1 + REPORTS_EACH)
    with service.db.read() as conn:
        payloads = conn.execute(select(items.c.payload)).scalars().all()
    assert len(payloads) == POSTS
    assert {json.loads(p)["reports"]["total"] for p in payloads} == {REPORTS_EACH}


def test_progress_on_a_terminal_only(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    file = big_file(tmp_path / "backfill.jsonl")
    leader, follower = pty.openpty()
    try:
        running = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reviewer_app",
                "server",
                "import",
                str(file),
                "--database-url",
                database_url,
                "--batch",
                "100",
            ],
            stdout=subprocess.DEVNULL,
            stderr=follower,
            cwd=HERE,
            env=dict(os.environ),
        )
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process ended: the terminal is gone
                break
            if not chunk:
                break
            shown += chunk
        assert running.wait(120) == 0
    finally:
        os.close(leader)
    text = shown.decode()
    assert "lines/s" in text and "ETA" in text and "MB" in text, text
    quiet = run_import(database_url, big_file(tmp_path / "again.jsonl"))
    assert quiet.returncode == 0 and "lines/s" not in quiet.stderr


def test_sqlite_statistics_follow_the_tables_as_they_grow(
    service: Service,
    database_url: str,
    tmp_path: Path,
    run_import: Callable[..., Done],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Statistics taken when the tables were small (a demo's seed) were never taken again:
    SQLite then read every item for each batch (20,000 lines in 30 s, not 4)."""
    if not service.db.is_sqlite:
        pytest.skip("PostgreSQL's autovacuum analyzes as tables grow")
    service.db.analyze()  # the tables empty
    monkeypatch.setattr(bulk_import, "ANALYZE_FIRST", 100)
    file = write(tmp_path / "feed.jsonl", [line("post", post(f"p-{n}")) for n in range(300)])
    assert run_import(database_url, file).returncode == 0
    with service.db.read() as conn:
        stat = conn.exec_driver_sql(
            "SELECT stat FROM sqlite_stat1 WHERE tbl = 'posts' AND idx IS NOT NULL"
        ).first()
    assert stat is not None and int(stat[0].split()[0]) >= 200, "taken again since"
