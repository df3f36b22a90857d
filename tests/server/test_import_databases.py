"""``reviewer-app server import``: the progress file belongs to the file, the database and
the source together, and each run's summary and exit code are its own.

A state written while importing into one database was resumed into another: the second
database got nothing ("Resumed after line 8 ... Read 0 lines"). And after a run with a
rejected line, every later run exited 1 and printed the first run's totals as its own."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.__main__ import main
from reviewer_app.protocol import QueueFile
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.bulk_import import read_state, rejects_path, state_path
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import posts, signals
from tests.server.test_bulk_import import count, line, write
from tests.support.intake import QUEUES, classifier, post


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str

    def this_run(self) -> dict[str, Any]:
        """The summary's figures for this run (``Read N lines this run as ...: {...}``)."""
        (found,) = [x for x in self.stdout.splitlines() if x.startswith("Read ")]
        return dict(json.loads(found.split(": ", 1)[1]))

    def since_first(self) -> dict[str, Any]:
        (found,) = [x for x in self.stdout.splitlines() if x.startswith("Since the first run")]
        return dict(json.loads(found.split(": ", 1)[1]))


@pytest.fixture
def run_import(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    def run(url: str, file: Path, *extra: str) -> Done:
        capsys.readouterr()
        code = main(["server", "import", str(file), "--database-url", url, *extra])
        out, err = capsys.readouterr()
        return Done(code, out, err)

    return run


def started(url: str) -> Service:
    svc = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    svc.start()
    svc.apply_queue_file(QueueFile.model_validate(QUEUES), actor=None)
    return svc


@pytest.fixture
def service(database_url: str) -> Iterator[Service]:
    svc = started(database_url)
    try:
        yield svc
    finally:
        svc.close()


@pytest.fixture
def other(tmp_path: Path) -> Iterator[tuple[str, Service]]:
    """Another database: a SQLite file of its own (a ``./reviewer-server.db`` made by
    mistake, a staging database)."""
    url = f"sqlite:///{tmp_path / 'other.db'}"
    svc = started(url)
    try:
        yield url, svc
    finally:
        svc.close()


def feed(folder: Path) -> Path:
    lines = [line("post", post(f"p-{n}")) for n in range(4)]
    lines += [line("signal", classifier(f"p-{n}", 0.9, signal_id=f"c-{n}")) for n in range(4)]
    return write(folder / "feed.jsonl", lines)


def test_the_same_file_and_state_into_another_database_imports_it_all_there(
    service: Service,
    database_url: str,
    other: tuple[str, Service],
    tmp_path: Path,
    run_import: Callable[..., Done],
) -> None:
    """Into a stray SQLite file first, then (the same file, its state beside it) into the
    real database, SQLite or PostgreSQL: everything reaches the real one, and it says why
    it started from the first line."""
    stray_url, stray = other
    file = feed(tmp_path)
    first = run_import(stray_url, file, "--batch", "3")
    assert first.returncode == 0, first.stderr
    assert count(stray, posts) == 4
    real = run_import(database_url, file, "--batch", "3")
    assert real.returncode == 0, real.stderr
    assert "was for another database; importing from the first line" in real.stderr
    assert str(state_path(file)) in real.stderr
    assert "Resumed" not in real.stdout and "Read 8 lines this run" in real.stdout
    assert real.this_run()["post.created"] == 4 and real.this_run()["signal.created"] == 4
    assert count(service, posts) == 4 and count(service, signals) == 4
    state = read_state(state_path(file))
    assert state is not None and state.done and state.line == 8 and state.database
    # the state names the database by a digest, never by the secret it is made from
    key = service.intake.reporter_key().hex()
    assert key not in state_path(file).read_text("utf-8")
    # again into the real one: nothing new, exit code 0, said so
    again = run_import(database_url, file)
    assert again.returncode == 0, again.stderr
    assert "another database" not in again.stderr
    assert "Read 0 lines this run" in again.stdout and "Nothing was left to import" in again.stdout
    assert again.this_run() == {"rejected": 0}
    assert again.since_first()["post.created"] == 4
    # and back into the stray one: from the first line again, all of it already there
    back = run_import(stray_url, file)
    assert back.returncode == 0 and "another database" in back.stderr, back.stderr
    assert back.this_run()["post.unchanged"] == 4 and "post.created" not in back.this_run()
    assert count(stray, posts) == 4 and count(service, posts) == 4


def test_a_rerun_after_a_rejected_line_reads_nothing_and_exits_0(
    service: Service, database_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    """A cron job re-running a finished import exits 0 and says nothing was left; its
    summary is its own (0 lines read), the earlier runs' figures apart and labelled."""
    lines = [line("post", post(f"p-{n}")) for n in range(3)]
    lines += ["{oops", line("post", post("p-3"))]  # line 4 is not JSON
    file = write(tmp_path / "feed.jsonl", lines)
    first = run_import(database_url, file)
    assert first.returncode == 1, first.stderr
    assert "1 lines rejected" in first.stderr and str(rejects_path(file)) in first.stderr
    assert [json.loads(x)["line"] for x in rejects_path(file).read_text().splitlines()] == [4]
    assert first.this_run()["post.created"] == 4 and first.this_run()["rejected"] == 1
    listed = rejects_path(file).read_bytes()
    second = run_import(database_url, file)
    assert second.returncode == 0, second.stderr
    assert "Read 0 lines this run" in second.stdout, second.stdout
    assert "Nothing was left to import" in second.stdout
    assert second.this_run() == {"rejected": 0}
    assert second.since_first() == {"post.created": 4, "rejected": 1}
    assert "rejected by this run" not in second.stderr
    assert rejects_path(file).read_bytes() == listed  # kept as it was
    # a line added since, rejected: this run's, appended after the earlier run's
    with file.open("a", encoding="utf-8") as out:
        out.write("[1]\n" + line("post", post("p-4")) + "\n")
    third = run_import(database_url, file)
    assert third.returncode == 1, third.stderr
    assert "Read 2 lines this run" in third.stdout
    assert third.this_run() == {"post.created": 1, "rejected": 1}
    assert third.since_first() == {"post.created": 5, "rejected": 2}
    assert "after the 1 listed by earlier runs" in third.stderr
    assert [json.loads(x)["line"] for x in rejects_path(file).read_text().splitlines()] == [4, 6]
    assert count(service, posts) == 5


def test_a_state_that_names_no_database_is_taken_as_this_ones(
    sqlite_url: str, tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    """A state written by an earlier release (version 1, no database in it) is most likely
    this database's, which holds the lines before its offset: the import resumes there, as
    that release did (started over, a file that withdraws a post and brings it back would do
    both again), and says how to start over if it was another's."""
    file = feed(tmp_path)
    assert run_import(sqlite_url, file).returncode == 0
    kept = json.loads(state_path(file).read_text("utf-8"))
    kept["version"] = 1
    kept.pop("database", None)
    state_path(file).write_text(json.dumps(kept), encoding="utf-8")
    done = run_import(sqlite_url, file)
    assert done.returncode == 0, done.stderr
    assert "does not say which database it was for" in done.stderr
    assert f"remove {state_path(file).name}" in done.stderr
    assert done.this_run() == {"rejected": 0}, "nothing read again"
    state = read_state(state_path(file))
    assert state is not None and state.database and state.line == 8


def test_another_source_into_another_database_starts_over_as_that_source(
    sqlite_url: str, other: tuple[str, Service], tmp_path: Path, run_import: Callable[..., Done]
) -> None:
    """The source is refused only where the file was imported as another one (its posts
    would all be stored twice, as another platform's); in another database it is a new
    import."""
    stray_url, _ = other
    file = feed(tmp_path)
    assert run_import(stray_url, file, "--source", "old-bridge").returncode == 0
    done = run_import(sqlite_url, file, "--source", "new-bridge")
    assert done.returncode == 0, done.stderr
    assert "was for another database" in done.stderr
    assert done.this_run()["post.created"] == 4
    back = run_import(stray_url, file, "--source", "old-bridge")  # the state: new-bridge
    assert back.returncode == 0 and "another database" in back.stderr, back.stderr
    assert back.this_run()["post.unchanged"] == 4
    mixed = run_import(stray_url, file, "--source", "new-bridge")
    assert mixed.returncode == 2 and "--source old-bridge" in mixed.stderr, mixed.stderr
