"""``reviewer-app server import``: what stopped it, or made it go wrong, on SQLite and
PostgreSQL. A refused line naming half a character (a lone surrogate) is listed and the
import goes on; two runs of one file at once (the second is refused); refused lines of
4 MB each were all held in memory until the end; a folder where the state goes; a media
line no post can name; the last line left for the next run said so; and an error that is
not a rejected line is never exit code 1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.__main__ import main
from reviewer_app.protocol import QueueFile
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo.files import media_file
from reviewer_app.server.feeds import bulk_import
from reviewer_app.server.feeds.bulk_import import (
    PAUSE_ENV,
    import_file,
    read_state,
    rejects_path,
    state_path,
)
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import media, posts, signals
from tests.support.intake import QUEUES, classifier, post

HERE = Path(__file__).resolve().parents[2]

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def service(database_url: str) -> Iterator[Service]:
    svc = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    svc.start()
    svc.apply_queue_file(QueueFile.model_validate(QUEUES), actor=None)
    try:
        yield svc
    finally:
        svc.close()


@pytest.fixture
def run_import(database_url: str, capsys: pytest.CaptureFixture[str]) -> Run:
    """``reviewer-app server import FILE ...`` in this process: (exit code, stdout, stderr)."""

    def run(file: Path, *extra: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(["server", "import", str(file), "--database-url", database_url, *extra])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def line(kind: str, body: dict[str, Any]) -> str:
    return json.dumps({"type": kind, **body})


def write(path: Path, lines: list[str], end: str = "\n") -> Path:
    path.write_text("\n".join(lines) + end, encoding="utf-8")
    return path


def count(service: Service, table: Any) -> int:
    with service.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def rejected(file: Path) -> list[dict[str, Any]]:
    """The rejects file, read as the strict UTF-8 JSON it must be."""
    return [json.loads(x) for x in rejects_path(file).read_bytes().decode("utf-8").splitlines()]


def said(err: str) -> list[str]:
    """What the command said on stderr, without the service's log lines."""
    return [x for x in err.splitlines() if x and " INFO " not in x]


def test_an_id_with_a_lone_surrogate_is_listed_and_the_import_goes_on(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    """``"bad\\udc80id"`` in a line's JSON is half a character: the line was refused, but
    its refusal could not be written (UTF-8 cannot hold it), so the import stopped there with
    a traceback, exit code 1, on every run: the posts after it were never imported."""
    lines = [line("post", post(f"p-{n}")) for n in range(10)]
    lines[4] = lines[4].replace('"external_id": "p-4"', '"external_id": "bad\\udc80id"')
    lines.append(line("signal", classifier("p-1", 0.9, signal_id="s-1")))
    lines[-1] = lines[-1].replace('"s-1"', '"s\\ud800-1"')
    lines.append('{"type": "media", "ref": "card\\udfff", "file": "card.png"}')
    lines.append('{"type": "post", "\\udc80": 1}')
    file = write(tmp_path / "feed.jsonl", lines)
    code, out, err = run_import(file, "--batch", "2")
    assert code == 1, err
    assert "Traceback" not in err and "4 lines rejected" in err, err
    found = rejected(file)
    assert [(r["line"], r["code"]) for r in found] == [
        (5, "invalid"),
        (11, "invalid"),
        (12, "invalid"),
        (13, "invalid"),
    ]
    assert found[0]["external_id"] == "bad\\udc80id"  # the escape, as text
    assert found[1]["external_id"] == "s\\ud800-1" and found[2]["external_id"] == "card\\udfff"
    assert count(service, posts) == 9 and count(service, signals) == 0
    state = read_state(state_path(file))
    assert state is not None and state.done and state.line == 13 and state.rejected == 4
    code, out, err = run_import(file)
    assert code == 0 and "Read 0 lines" in out and len(rejected(file)) == 4, err


def start_import(url: str, file: Path, pause: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reviewer_app",
            "server",
            "import",
            str(file),
            "--batch",
            "10",
            "--database-url",
            url,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
        env={**os.environ, PAUSE_ENV: pause},
    )


def wait_for_line(running: subprocess.Popen[str], file: Path, line: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = read_state(state_path(file)) if state_path(file).exists() else None
        if state is not None and state.line >= line:
            return
        assert running.poll() is None, running.stderr.read() if running.stderr else ""
        time.sleep(0.01)
    raise AssertionError(f"the import did not get to line {line}")


def test_a_second_run_of_a_file_being_imported_is_refused_at_once(
    service: Service, database_url: str, tmp_path: Path, run_import: Run
) -> None:
    """Both ran: both sent the same lines and renamed one ``FILE.import-state.tmp`` (one
    failed on the rename), the rejects file got its lines twice and the tally was mixed.
    The lock goes with the process that holds it: when it ends, and when it is killed."""
    lines = [line("post", post(f"p-{n}")) for n in range(200)] + ["{oops"]
    file = write(tmp_path / "feed.jsonl", lines)
    first = start_import(database_url, file, "0.2")
    try:
        wait_for_line(first, file, 10)
        started = time.monotonic()
        code, out, err = run_import(file)
        assert code == 2, err
        assert said(err) == ["Cannot import: feed.jsonl is being imported by another run"]
        assert time.monotonic() - started < 30 and not out
        first.send_signal(signal.SIGKILL)  # its lock goes with it
    finally:
        first.wait(30)
        if first.stderr is not None:
            first.stderr.close()
    code, out, err = run_import(file)
    assert code == 1, err
    assert [r["line"] for r in rejected(file)] == [201]
    assert count(service, posts) == 200
    # a run that ended let go of it too (nothing new: exit code 0)
    code, out, err = run_import(file)
    assert code == 0 and "Read 0 lines" in out, err


def test_the_state_is_written_through_a_temporary_of_this_process_only() -> None:
    state = Path("feed.jsonl.import-state")
    temporary = bulk_import._temporary(state)
    assert temporary != Path("feed.jsonl.import-state.tmp")
    assert str(os.getpid()) in temporary.name and temporary.parent == state.parent


def test_refused_lines_are_not_held_past_the_cap(
    service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines read are held until what they hold is committed (the state's hash covers them):
    a count of lines (10,000) or refusals (1,000) let go of them, so 200 refused lines of
    4 MB were all held (920 MB). What is held is now capped in bytes too: measured as each
    checkpoint lets go of them (they only grow in between)."""
    cap = 1024 * 1024
    monkeypatch.setattr(bulk_import, "MAX_HELD_BYTES", cap, raising=False)
    held: list[int] = []
    checkpoint = bulk_import._Run.checkpoint

    def measured(run: Any, done: bool = False) -> None:
        held.append(sum(len(raw) for _, raw in run.held))
        checkpoint(run, done)

    monkeypatch.setattr(bulk_import._Run, "checkpoint", measured)
    too_long = "x" * 150_000  # a post's text is at most 100,000 characters: refused
    lines = []
    for n in range(60):
        lines.append(line("post", post(f"long-{n}", text=too_long)))
        if n % 4 == 0:  # and posts that go in, held by the sender when the cap is reached
            lines.append(line("post", post(f"p-{n}")))
    file = write(tmp_path / "feed.jsonl", lines)
    total = file.stat().st_size
    assert total > 8 * cap
    outcome = import_file(service, file)
    assert held and max(held) <= cap + 160_000, held  # the cap, and the line that reached it
    assert outcome.tally.rejected == 60 and outcome.lines == 75
    assert [r["line"] for r in rejected(file)] == [n for n in range(1, 76) if n % 5 != 2]
    assert count(service, posts) == 15
    state = read_state(state_path(file))
    assert state is not None and state.done and state.offset == total


def test_the_cap_on_what_is_held_is_tens_of_megabytes() -> None:
    assert 16 * 1024 * 1024 <= bulk_import.MAX_HELD_BYTES <= 64 * 1024 * 1024


def test_a_folder_where_the_state_goes_is_said_in_one_line(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    file = write(tmp_path / "feed.jsonl", [line("post", post("p-1"))])
    state_path(file).mkdir()
    code, _, err = run_import(file)
    assert code == 2, err
    (message,) = said(err)
    assert message.startswith("Cannot import: cannot read the import state") and (
        "feed.jsonl.import-state" in message
    ), err
    state_path(file).rmdir()
    state_path(file).write_bytes(b"\xff\xfe{}")  # not UTF-8
    code, _, err = run_import(file)
    assert code == 2 and "is not an import state" in err and "Traceback" not in err, err
    state_path(file).unlink()
    assert run_import(file)[0] == 0 and count(service, posts) == 1


def test_a_media_line_no_post_can_name_is_refused(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    """A post names its media by ``media_id`` (``^[A-Za-z0-9_-]{1,64}$``): a media line
    whose ``ref`` does not match it was uploaded, for nothing."""
    (tmp_path / "card.png").write_bytes(media_file("rip_card.png").read_bytes())
    lines = [
        line("media", {"ref": "photo.png", "file": "card.png"}),
        line("media", {"ref": "card_1", "file": "card.png"}),
        line("post", {**post("p-1"), "media": [{"media_id": "card_1", "alt_text": "a card"}]}),
    ]
    file = write(tmp_path / "feed.jsonl", lines)
    code, out, err = run_import(file)
    assert code == 1, err
    (refused,) = rejected(file)
    assert refused["line"] == 1 and refused["code"] == "invalid"
    assert "^[A-Za-z0-9_-]{1,64}$" in refused["reason"] and "'photo.png'" in refused["reason"]
    assert count(service, media) == 1 and count(service, posts) == 1
    assert json.loads(out.split(": ", 1)[1])["media.uploaded"] == 1


def test_the_last_line_left_for_the_next_run_is_said(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    """A last line with no line end that is not JSON yet is being written: it is left for
    the next run (exit code 0), and the summary names it."""
    lines = [line("post", post("p-1")), line("post", post("p-2")), '{"type":"post", broken']
    file = write(tmp_path / "feed.jsonl", lines, end="")
    for _ in range(2):
        code, out, err = run_import(file)
        assert code == 0, err
        assert "Line 3 was left for the next run" in out, out
        assert not rejects_path(file).exists()
    assert count(service, posts) == 2


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_rejects_that_cannot_be_written_are_not_exit_code_1(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    """Exit code 1 says lines were rejected and listed: a rejects file on a full disk
    (``/dev/full``) was a traceback with exit code 1."""
    file = write(tmp_path / "feed.jsonl", [line("post", post("p-1")), "{oops"])
    code, _, err = run_import(file, "--rejects", "/dev/full")
    assert code == 2, err
    (message,) = said(err)
    assert message.startswith("Cannot import: No space left on device") and (
        "/dev/full" in message
    ), err


def test_an_unexpected_error_is_exit_code_3(
    service: Service, tmp_path: Path, run_import: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault planted in the reading of line 2 (none is known): exit code 3 with the
    traceback, never 1 (some lines rejected); what was committed is kept."""
    real = bulk_import.parse_line

    def faulty(raw: bytes, number: int) -> Any:
        if number == 2:
            raise RuntimeError("planted")
        return real(raw, number)

    monkeypatch.setattr(bulk_import, "parse_line", faulty)
    file = write(tmp_path / "feed.jsonl", [line("post", post(f"p-{n}")) for n in range(3)])
    code, _, err = run_import(file, "--batch", "1")
    assert code == 3, err
    assert "RuntimeError: planted" in err and "unexpected error" in err
    assert count(service, posts) == 1
    monkeypatch.setattr(bulk_import, "parse_line", real)
    code, out, err = run_import(file)
    assert code == 0 and "Resumed after line 1" in out, err
    assert count(service, posts) == 3


def test_a_database_failure_mid_run_is_exit_code_3(
    service: Service, tmp_path: Path, run_import: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database failure during the run (planted: a lock held past SQLite's 30 s busy
    timeout, or a connection reset, takes too long to make here) says to run it again,
    exit code 3; it was exit code 2, which says the file or command cannot be used."""
    from sqlalchemy.exc import OperationalError

    real = bulk_import.parse_line

    def failing(raw: bytes, number: int) -> Any:
        if number == 2:
            raise OperationalError("INSERT INTO posts", {}, Exception("database is locked"))
        return real(raw, number)

    monkeypatch.setattr(bulk_import, "parse_line", failing)
    file = write(tmp_path / "feed.jsonl", [line("post", post(f"p-{n}")) for n in range(3)])
    code, _, err = run_import(file, "--batch", "1")
    assert code == 3, err
    (message,) = said(err)
    assert message.startswith("The database failed the import: ") and "goes on" in message
    monkeypatch.setattr(bulk_import, "parse_line", real)
    code, out, err = run_import(file)
    assert code == 0 and "Resumed after line 1" in out, err
    assert count(service, posts) == 3


def test_a_killed_runs_state_left_unrenamed_is_removed_by_the_next_run(
    service: Service, tmp_path: Path, run_import: Run
) -> None:
    """Each run names its state's next version for its process: a run killed between
    writing and renaming it left that file beside the data, one more at every kill."""
    file = write(tmp_path / "feed.jsonl", [line("post", post("p-1"))])
    stale = tmp_path / "feed.jsonl.import-state.99999.tmp"
    stale.write_text("{}", encoding="utf-8")
    other = tmp_path / "other.jsonl.import-state.99999.tmp"  # another file's: left alone
    other.write_text("{}", encoding="utf-8")
    code, _, err = run_import(file)
    assert code == 0, err
    assert not stale.exists() and other.exists()
    assert not list(tmp_path.glob("feed.jsonl.import-state.*.tmp"))
