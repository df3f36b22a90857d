"""``reviewer-app server import FILE.jsonl``: a back-fill through intake, resumable.

The file is read a line at a time (memory stays flat however long it is) and sent through
the service's intake in batches as a platform account (``--source``, made if missing).
The lines are those of intake_lines.py.

**Resumable.** Intake is idempotent (posts by their platform id, signals by their own
id), so running the import again never stores anything twice. (Its tally is exact only
without a kill: a batch the service committed before the state after it was written -- a
flush is up to three transactions -- is sent again and counted ``unchanged``.) FILE must
be a regular UTF-8 file (import_files.py). To skip quickly what was done,
``FILE.import-state`` (import_state.py) records, after each batch the service committed,
the byte offset the next batch starts at, with the SHA-256 of the file up to there, the
source and the database: a re-run into the same database as the same source checks that
this part of the file is unchanged (refusing a changed file), seeks past it and goes on.
A state for another database (or one naming none) is not resumed: the import starts from
the first line and says so. A finished import leaves the state behind, so running it again
imports nothing (and lines added to the end since are imported).

**Each run's own.** The summary and the exit code are this run's: the lines it read, the
results of its batches and the lines it rejected (``ImportOutcome.total``: since the first
run). A re-run with nothing new exits 0.

**Rejected lines** (not JSON, not an intake shape, or refused by the service: an unknown
post, a reused signal id, ...) do not stop it: each goes to ``FILE.rejected.jsonl`` (or
``--rejects``) as ``{"line": N, "code": ..., "reason": ..., "external_id": ...}`` and the
exit code is 1. The file lists every run's: each run appends its own (a run that rejects
nothing leaves it as it is). Only a rejects file the state names (device, inode) is cut
back (to what its state had: the lines after are redone) or appended to on a resume;
another one must be empty, and never FILE or its state. A file that cannot be read or
does not match its state is exit code 2, as is a second run of a file while one goes (it
holds an OS lock on ``FILE.import-state.lock``: ``one_run``).

On a terminal, a progress line on stderr: lines, bytes, rate and time left.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.import_files import (
    ImportFileError,
    media_reader,
    open_input,
    refuse_other_encodings,
    same_file,
)
from reviewer_app.server.feeds.import_state import (
    DEFAULT_SOURCE,
    ImportState,
    database_id,
    hash_prefix,
    lock_path,
    one_run,
    read_state,
    rejects_path,
    starting_state,
    state_path,
    write_state,
)
from reviewer_app.server.feeds.import_state import temporary_path as _temporary
from reviewer_app.server.feeds.intake_lines import (
    DEFAULT_BATCH,
    MAX_LINE_BYTES,
    IntakeTarget,
    Line,
    Rejection,
    Sender,
    Tally,
    parse_line,
    still_written,
)
from reviewer_app.server.service import Service

EXIT_OK, EXIT_REJECTED, EXIT_BAD_FILE, EXIT_FAILED = 0, 1, 2, 3
MAX_HELD_BYTES = 32 * 1024 * 1024
"""read, not yet committed: past this a batch is sent early (refused lines: 920 MB held)"""
PROGRESS_SECONDS = 0.25
PAUSE_ENV = "REVIEWER_APP_IMPORT_TEST_PAUSE"
"""Tests only: seconds to wait after each committed batch (so a test can kill it mid-way)."""
ANALYZE_FIRST = 10_000
"""lines read before the first refresh of SQLite's statistics (then at each doubling)"""


class Progress:
    """One line on a terminal, redrawn at most every ``PROGRESS_SECONDS``."""

    def __init__(self, out: IO[str] | None, total_bytes: int, start_offset: int) -> None:
        self.out = out
        self.total = total_bytes
        self.start_offset = start_offset
        self.started = time.monotonic()
        self.shown = 0.0

    def update(self, offset: int, lines: int, force: bool = False) -> None:
        if self.out is None:
            return
        now = time.monotonic()
        if not force and now - self.shown < PROGRESS_SECONDS:
            return
        self.shown = now
        elapsed = max(now - self.started, 1e-6)
        done_bytes = offset - self.start_offset
        rate = lines / elapsed
        left = self.total - offset
        eta = left / (done_bytes / elapsed) if done_bytes > 0 else None
        share = offset / self.total if self.total else 1.0
        text = (
            f"\r{lines:,} lines  {share:6.1%} of {self.total / 1e6:,.1f} MB  "
            f"{rate:,.0f} lines/s  {'ETA ' + _clock(eta) if eta is not None else ''}"
        )
        self.out.write(text.ljust(78))
        self.out.flush()

    def end(self) -> None:
        if self.out is not None:
            self.out.write("\n")
            self.out.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


@dataclass(frozen=True)
class ImportOutcome:
    lines: int
    """lines read by this run"""
    tally: Tally
    """results of this run (its ``rejected``: the lines this run rejected)"""
    rejects: Path
    resumed_at: int
    """the line this run started after (0: from the start)"""
    unfinished: bool = False
    """the file ends in part of a line (no line end, not JSON yet): left for the next run"""
    total: Tally = field(default_factory=Tally)
    """results since the import's first run into this database (this run's included)"""
    started_over: str | None = None
    """why a state found beside the file was not resumed (it was for another database)"""

    @property
    def exit_code(self) -> int:
        return EXIT_REJECTED if self.tally.rejected else EXIT_OK


class _Run:
    """One run over the file: reads lines, sends them, writes the state after each batch
    the service committed (see the module)."""

    MAX_HELD_LINES = 10_000
    """read but not yet committed: past this a batch is sent early (memory stays flat)"""

    def __init__(
        self,
        stream: IO[bytes],
        size: int,
        state: ImportState,
        state_file: Path,
        sender: Sender,
        rejects: _Rejects,
        progress: Progress,
        pause: float,
        hasher: Any,
        analyze: Callable[[], None] | None = None,
    ) -> None:
        self.stream = stream
        self.analyze = analyze
        """the planner's statistics refreshed as the tables grow (SQLite; None: not)"""
        self.analyze_at = ANALYZE_FIRST
        self.state = state
        self.state_file = state_file
        self.sender = sender
        self.rejects = rejects
        self.progress = progress
        self.pause = pause
        self.size = size
        self.hasher = hasher
        """sha256 of the file up to ``state.offset``"""
        self.offset = state.offset
        self.number = state.line
        self.held: list[tuple[int, bytes]] = []
        """lines read since ``state.offset`` (start offset, bytes), not yet in the hash"""
        self.held_bytes = 0
        self.pending_from: tuple[int, int] | None = None
        """(offset, lines before it) of the first line the sender holds unsent"""
        self.found: list[Rejection] = []
        """rejections not yet written (their lines are not all committed yet)"""
        self.read = 0
        self.unfinished = False
        self.earlier = Counter(state.tally)
        """results of the runs before this one (the sender's tally is this run's)"""

    def run(self) -> None:
        sender = self.sender
        while raw := self.stream.readline(MAX_LINE_BYTES + 1):
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                self._skip_long_line(raw)
                continue
            if not raw.endswith(b"\n") and still_written(raw, self.number + 1):
                self.unfinished = True  # read again, whole, by the next run
                break
            start = self.offset
            self.offset += len(raw)
            self.number += 1
            self.read += 1
            self.held.append((start, raw))
            self.held_bytes += len(raw)
            if raw.strip():
                parsed = parse_line(raw, self.number)
                if isinstance(parsed, Rejection):
                    self.found.append(parsed)
                else:
                    self._send(parsed, start)
            full = len(self.held) >= self.MAX_HELD_LINES or self.held_bytes >= MAX_HELD_BYTES
            if not sender.pending and (full or len(self.found) >= 1_000):
                self.checkpoint()
            elif full:
                self.found += sender.flush()
                self.pending_from = None
                self.checkpoint()
            self.progress.update(self.offset, self.read)
        self.found += sender.flush()
        self.pending_from = None
        self.checkpoint(done=True)
        self.progress.update(self.offset, self.read, force=True)

    def _skip_long_line(self, first: bytes) -> None:
        """A line longer than ``MAX_LINE_BYTES``: rejected, and read past in chunks (never
        held whole). What came before is sent and committed first, so the chunks go
        straight into the prefix's hash."""
        self.found += self.sender.flush()
        self.pending_from = None
        self.checkpoint()
        self.number += 1
        self.read += 1
        chunk = first
        while chunk:
            self.hasher.update(chunk)
            self.offset += len(chunk)
            if chunk.endswith(b"\n"):
                break
            chunk = self.stream.readline(1 << 20)
        self.found.append(
            Rejection(self.number, "line_too_long", f"a line may be {MAX_LINE_BYTES:,} bytes")
        )

    def _send(self, line: Line, start: int) -> None:
        sender = self.sender
        batches = sender.batches
        self.found += sender.add(line)
        if sender.pending == 0:
            self.pending_from = None
        elif sender.pending == 1:
            self.pending_from = (start, line.number - 1)
        if sender.batches != batches:
            self.checkpoint()

    def checkpoint(self, done: bool = False) -> None:
        """Write the state: committed up to the first line still held by the sender."""
        offset, line = self.pending_from or (self.offset, self.number)
        keep: list[tuple[int, bytes]] = []
        for start, raw in self.held:
            if start < offset:
                self.hasher.update(raw)
            else:
                keep.append((start, raw))
        self.held = keep
        self.held_bytes = sum(len(raw) for _, raw in keep)
        ready = sorted((r for r in self.found if r.number <= line), key=lambda r: r.number)
        self.found = [r for r in self.found if r.number > line]
        self.rejects.write(ready)
        state = self.state
        state.offset, state.line = offset, line
        state.prefix_sha256 = self.hasher.hexdigest()
        state.rejects_size = self.rejects.size()
        state.rejected += len(ready)
        state.tally = dict(self.earlier + self.sender.tally.counts)
        state.media = dict(self.sender.media)
        state.done = done
        write_state(self.state_file, state)
        if self.analyze is not None and self.read >= self.analyze_at:
            # statistics taken when the tables were small (a demo's seed: 337 items) made
            # SQLite read every item for each batch: 20,000 lines 4.3 s -> 30 s
            self.analyze_at = 2 * self.read
            self.analyze()
        if self.pause and not done:
            time.sleep(self.pause)


def import_file(
    service: Service,
    file: Path,
    *,
    source: str = DEFAULT_SOURCE,
    batch_size: int = DEFAULT_BATCH,
    rejects: Path | None = None,
    progress: IO[str] | None = None,
    pause: float = 0.0,
    notify: Callable[[str], None] | None = None,
) -> ImportOutcome:
    """Import ``file`` (see the module); ``ImportFileError`` when it cannot be. ``notify``
    is told, before any line is read, why a state beside the file is not resumed."""
    state_file = state_path(file)
    rejects = rejects or rejects_path(file)
    for own in (file, state_file, _temporary(state_file), lock_path(file)):
        if same_file(rejects, own):
            raise ImportFileError(
                f"--rejects {rejects} is the file being imported or its state file: "
                "give the rejected lines another path"
            )
    stream = open_input(file)
    with stream, one_run(file):
        size = os.fstat(stream.fileno()).st_size
        refuse_other_encodings(stream, file)
        said: list[str] = []

        def tell(text: str) -> None:
            said.append(text)
            if notify is not None:
                notify(text)

        state, hasher = _resume(service, stream, file, source, rejects, tell)
        caller = service.service_account(source, Role.platform)
        sender = Sender(
            IntakeTarget(service, caller),
            read_media=media_reader(file.parent),
            batch_size=batch_size,
            media=dict(state.media),
        )
        resumed_at, rejected_before = state.line, state.rejected
        record = partial(write_state, state_file, state)
        with _Rejects(rejects, state, record, default=rejects_path(file)) as out:
            run = _Run(
                stream,
                size,
                state,
                state_file,
                sender,
                out,
                Progress(progress, size, state.offset),
                pause,
                hasher,
                partial(service.db.analyze, rows_per_index=1_000) if service.db.is_sqlite else None,
            )
            try:
                run.run()
            finally:
                run.progress.end()
        sender.tally.rejected = state.rejected - rejected_before
        return ImportOutcome(
            run.read,
            sender.tally,
            rejects,
            resumed_at,
            run.unfinished,
            total=Tally(Counter(state.tally), state.rejected),
            started_over=said[0] if said else None,
        )


def _resume(
    service: Service,
    stream: IO[bytes],
    file: Path,
    source: str,
    rejects: Path,
    notify: Callable[[str], None],
) -> tuple[ImportState, Any]:
    """The state this run goes on from (import_state.starting_state), and the SHA-256 of
    the file up to it; the stream left there. A file changed in that part is refused."""
    state_file = state_path(file)
    state = starting_state(read_state(state_file), database_id(service), source, state_file, notify)
    hasher = hashlib.sha256()
    if hash_prefix(stream, state.offset, hasher) != state.prefix_sha256:
        raise ImportFileError(
            f"{file.name} changed since it was imported up to line {state.line}: remove "
            f"{state_file.name} (and {rejects.name}, if there) to import it from the "
            "start (nothing is stored twice)"
        )
    return state, hasher


class _Rejects:
    """The rejects file, cut back to what the state had (lines after it are redone). Only
    a file the state says this import wrote is cut back; any other is appended to if it
    is empty, else refused (a --rejects naming an existing file was deleted)."""

    def __init__(
        self,
        path: Path,
        state: ImportState,
        record: Callable[[], None],
        default: Path | None = None,
    ) -> None:
        self.path = path
        self.default = default
        """the input's own FILE.rejected.jsonl: where an earlier release wrote them"""
        self.state = state
        self.record = record
        """writes the state (naming the rejects file before a line goes into it)"""
        self.keep = 0
        self.out: IO[bytes] | None = None

    def __enter__(self) -> _Rejects:
        folder = self.path.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise ImportFileError(
                f"cannot write the rejected lines to {self.path}: its folder is missing or "
                "read-only"
            )
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            found = None
        except OSError as exc:
            raise ImportFileError(
                f"cannot write the rejected lines to {self.path}: {exc.strerror or exc}"
            ) from None
        state = self.state
        if (
            found is not None
            and self.default is not None
            and os.path.abspath(self.path) == os.path.abspath(self.default)
            and state.rejects_file is None
            and state.rejects_size > 0
            and stat.S_ISREG(found.st_mode)
            and found.st_size >= state.rejects_size
        ):
            # a state written before the file's identity was kept, with lines in it: the
            # import it resumes wrote its own FILE.rejected.jsonl (a state of now names the
            # file from the first line; another --rejects of an earlier run stays refused)
            state.rejects_file = [found.st_dev, found.st_ino]
        if found is not None and state.rejects_file == [found.st_dev, found.st_ino]:
            # this import's own file: what a run left after the state's last batch is
            # redone, so written again
            self.keep = min(state.rejects_size, found.st_size)
            if found.st_size > self.keep:
                with open(self.path, "r+b") as out:
                    out.truncate(self.keep)
            return self
        state.rejects_file, state.rejects_size = None, 0
        if found is not None and not stat.S_ISREG(found.st_mode):
            if not stat.S_ISCHR(found.st_mode):  # /dev/null will do; a FIFO would block
                raise ImportFileError(f"--rejects {self.path} is not a regular file")
        elif found is not None and found.st_size:
            raise ImportFileError(
                f"{self.path} exists and was not written by this import: remove it or give "
                "--rejects another path (a file the import did not write is never replaced)"
            )
        return self

    def write(self, rejections: list[Rejection]) -> None:
        if not rejections:
            return
        if self.out is None:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
            except OSError as exc:
                raise ImportFileError(
                    f"cannot write the rejected lines to {self.path}: {exc.strerror or exc}"
                ) from None
            self.out = open(fd, "ab")  # noqa: SIM115 - closed by __exit__
            found = os.fstat(fd)
            if self.state.rejects_file != [found.st_dev, found.st_ino]:
                self.state.rejects_file = [found.st_dev, found.st_ino]
                self.record()  # before its first line: a resume may cut it back
        for r in rejections:
            self.out.write(json.dumps(r.as_json(), ensure_ascii=False).encode() + b"\n")

    def size(self) -> int:
        if self.out is None:
            return self.keep
        self.out.flush()
        return self.out.tell()

    def __exit__(self, *exc: object) -> None:
        if self.out is not None:
            self.out.close()


__all__ = [
    "DEFAULT_SOURCE",
    "EXIT_BAD_FILE",
    "EXIT_OK",
    "EXIT_REJECTED",
    "PAUSE_ENV",
    "ImportFileError",
    "ImportOutcome",
    "ImportState",
    "import_file",
    "read_state",
    "rejects_path",
    "state_path",
]
