"""``reviewer-app server import FILE.jsonl``: posts, signals and withdrawals from a file."""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
import traceback
from functools import partial
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from reviewer_app.server.cli.database import check, close_sealed, database_failure
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.bulk_import import (
    DEFAULT_SOURCE,
    EXIT_BAD_FILE,
    EXIT_FAILED,
    PAUSE_ENV,
    ImportFileError,
    ImportOutcome,
    import_file,
    rejects_path,
    state_path,
)
from reviewer_app.server.feeds.intake_lines import DEFAULT_BATCH, MAX_BATCH
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service

EXIT_INTERRUPTED = 130
_ACCOUNT = re.compile(r"^[a-z0-9][a-z0-9_.-]{1,63}$")


def add_parser(actions: argparse._SubParsersAction) -> None:
    command = actions.add_parser(
        "import",
        help="import posts, signals and withdrawals from a JSONL file (resumable)",
        description='Send every line of FILE (one JSON object a line: {"type": "post" | '
        '"signal" | "withdrawal" | "media", ...the intake API\'s shape}) through intake as '
        "the platform account --source. Run it again after an interruption: it goes on "
        "where it stopped (FILE.import-state) and never stores anything twice (after a kill, "
        "the batch in progress may be counted again as unchanged); into another database "
        "than the state's, it starts again from the first line. Rejected lines are appended "
        "with their line numbers and reasons to FILE.rejected.jsonl. The summary and the "
        "exit code are the run's own. Exit codes: 0 all imported or nothing new (a last "
        "line without its line end, still being written, is left for the next run), 1 some "
        "lines rejected by this run, 2 the file or the command cannot be used (or another "
        "run is importing it), 3 the import stopped on a database failure or an unexpected "
        "error (run it again to go on).",
    )
    command.add_argument("file", type=Path, metavar="FILE.jsonl")
    command.add_argument(
        "--database-url",
        dest="command_database_url",
        metavar="URL",
        default=None,
        help="the service's database (or give --database-url before import)",
    )
    command.add_argument(
        "--source",
        default=DEFAULT_SOURCE,
        help=f"the platform account the posts come from, made if missing (default "
        f"{DEFAULT_SOURCE}); post and signal ids are the platform's own, per source",
    )
    command.add_argument(
        "--batch",
        type=int,
        default=DEFAULT_BATCH,
        help=f"lines per intake call (1-{MAX_BATCH}, default {DEFAULT_BATCH})",
    )
    command.add_argument(
        "--rejects",
        type=Path,
        default=None,
        help="where rejected lines are listed (default FILE.rejected.jsonl)",
    )


def run(settings: ServerSettings, args: argparse.Namespace) -> int:
    file: Path = args.file
    if not _ACCOUNT.match(args.source):
        print(
            f"--source {args.source!r}: an account name is 2-64 of a-z 0-9 _ . - "
            "(starting with a letter or digit)",
            file=sys.stderr,
        )
        return EXIT_BAD_FILE
    if not 1 <= args.batch <= MAX_BATCH:
        print(f"--batch must be between 1 and {MAX_BATCH}", file=sys.stderr)
        return EXIT_BAD_FILE
    if not file.exists():
        print(f"No file {file}.", file=sys.stderr)
        return EXIT_BAD_FILE
    pause = float(os.environ.get(PAUSE_ENV, "0") or 0)
    check(settings.database_url, read_only=False)
    service = Service(settings)
    service.start()
    # What starting made (modules, models, tables) is never garbage: out of the collector's
    # sight, and young collections rarer, an import spends about 5% of its CPU collecting
    # instead of 20% (measured over 100,000 lines: 0.4 s against 2.1 s).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    try:
        outcome = import_file(
            service,
            file,
            source=args.source,
            batch_size=args.batch,
            rejects=args.rejects,
            progress=sys.stderr if sys.stderr.isatty() else None,
            pause=pause,
            notify=partial(print, file=sys.stderr),
        )
    except ImportFileError as exc:
        print(f"Cannot import: {exc}", file=sys.stderr)
        return EXIT_BAD_FILE
    except KeyboardInterrupt:
        print(
            f"Interrupted. Run the same command again to go on ({state_path(file).name}).",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except ApiError as exc:
        print(f"Cannot import: {exc.detail}", file=sys.stderr)
        return EXIT_BAD_FILE
    except OSError as exc:  # a full disk, a read-only folder, a failing drive
        where = f" ({exc.filename})" if exc.filename else ""
        print(
            f"Cannot import: {exc.strerror or exc}{where}, reading {file} or writing "
            f"{state_path(file).name} or {args.rejects or rejects_path(file)}",
            file=sys.stderr,
        )
        return EXIT_BAD_FILE
    except SQLAlchemyError as exc:  # mid-run (a lock held too long, a connection reset)
        print(
            f"The database failed the import: {database_failure(exc)}. What it committed "
            f"is kept ({state_path(file).name}): the same command goes on from there.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    except Exception:  # never exit code 1, which says some lines were rejected
        traceback.print_exc()
        print(
            "The import stopped on an unexpected error (above). What it committed is kept "
            f"({state_path(file).name}): the same command goes on from there (if it stops "
            "there again, report the error).",
            file=sys.stderr,
        )
        return EXIT_FAILED
    finally:
        close_sealed(service)
    _summary(file, args.source, outcome)
    return outcome.exit_code


def _summary(file: Path, source: str, outcome: ImportOutcome) -> None:
    """This run's lines, results and rejects; since the first run's, apart and said so."""
    tally, total = outcome.tally, outcome.total
    if outcome.resumed_at:
        print(f"Resumed after line {outcome.resumed_at:,} ({state_path(file).name}).")
    print(f"Read {outcome.lines:,} lines this run as {source}: {json.dumps(tally.as_json())}")
    if outcome.unfinished:
        last = outcome.resumed_at + outcome.lines + 1
        print(
            f"Line {last:,} was left for the next run: the file ends in part of a line (no "
            "line end, not JSON yet), as while it is still being written. Run the import "
            "again once the line is whole; until then it is neither imported nor rejected."
        )
    elif outcome.resumed_at and not outcome.lines:
        print(
            f"Nothing was left to import: the {outcome.resumed_at:,} lines of {file.name} "
            "were imported by earlier runs."
        )
    if outcome.resumed_at:
        print(f"Since the first run (into this database): {json.dumps(total.as_json())}")
    earlier = total.rejected - tally.rejected
    if tally.rejected:
        more = f", after the {earlier:,} listed by earlier runs" if earlier else ""
        print(
            f"{tally.rejected:,} lines rejected by this run: see {outcome.rejects} (line "
            f"numbers and reasons{more}).",
            file=sys.stderr,
        )
    elif earlier:
        print(f"No line rejected by this run ({earlier:,} by earlier runs: see {outcome.rejects}).")


__all__ = ["add_parser", "run"]
