"""``reviewer-app server ...`` as an operator gets it wrong: a signing key file that is not
there, a database URL that is no URL, names a database without its driver or one that does
not answer, a log level uvicorn does not know, a read-only command pointed at a database
that does not exist (or is behind this release), a key file that holds no key, an output
path that cannot be written. Each is one sentence on stderr and exit 2: no traceback, no
password from the URL, and a command that only reads creates and migrates nothing."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from reviewer_app.__main__ import build_parser, main
from reviewer_app.server.config import ENV_PREFIX
from reviewer_app.server.storage.checkpoints import public_pem
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.migrations import HEAD

OLDER = f"{int(HEAD) - 1:04d}"
SOR = ["sor", "export", "--since", "2025-01-01", "--until", "2026-01-01", "-o", "out.jsonl"]
#: the commands that only read
READ_ONLY = [
    ["queues", "versions"],
    ["queues", "export"],
    SOR,
    ["api-key", "list"],
    ["webhook", "list"],
    ["verify-log"],
]
WRITE = [["add-user", "bob", "--password-stdin"], ["seed", "--demo"], []]  # []: serve


def server(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``reviewer-app server ARGS`` in this process: the exit code, stdout and stderr."""
    capsys.readouterr()
    code = main(["server", *args])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A database at this release's schema and one a migration behind (copied per test)."""
    folder = tmp_path_factory.mktemp("templates")
    made = {}
    for name, revision in (("current", "head"), ("older", OLDER)):
        db = Database(f"sqlite:///{folder / name}.db")
        db.migrate(revision)
        db.dispose()
        made[name] = folder / f"{name}.db"
    yield made


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder (the default database is a file in it), no database URL
    nor signing key from the environment, and a password on standard input."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    for name in ("DATABASE_URL", "LOG_SIGNING_KEY"):
        monkeypatch.delenv(f"{ENV_PREFIX}{name}", raising=False)
    monkeypatch.setattr(sys, "stdin", _Stdin("a-long-enough-password\n"))
    return folder


class _Stdin:
    def __init__(self, text: str) -> None:
        self.text = text

    def readline(self) -> str:
        return self.text

    def isatty(self) -> bool:
        return False


def copy(templates: dict[str, Path], name: str, folder: Path) -> str:
    target = folder / "desk.db"
    shutil.copyfile(templates[name], target)
    return f"sqlite:///{target}"


# -- 1. the signing key --------------------------------------------------------------------


@pytest.mark.parametrize("command", [*WRITE, ["api-key", "list"], ["webhook", "list"]])
def test_a_missing_signing_key_file_is_a_sentence(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    templates: dict[str, Path],
    here: Path,
    command: list[str],
) -> None:
    url = copy(templates, "current", here)
    monkeypatch.setenv(f"{ENV_PREFIX}LOG_SIGNING_KEY", "/nonexistent.key")
    code, output = server(capsys, "--database-url", url, *command)
    assert code == 2, output
    assert output.startswith(
        f"Cannot start: {ENV_PREFIX}LOG_SIGNING_KEY: cannot read /nonexistent.key: "
    ), output
    assert output.count("\n") == 1, output


# -- 2. database URLs -----------------------------------------------------------------------

WRONG_URLS = [
    ("reviewer.db", "'reviewer.db' is not a database URL (sqlite:///path or postgresql://"),
    ("mysql://u:secretpw@db.internal/desk", "SQLite or PostgreSQL, not mysql"),
    (
        "postgresql://u:secretpw@127.0.0.1:1/desk",
        "Cannot reach the database at postgresql://u:***@127.0.0.1:1/desk: ",
    ),
]


@pytest.mark.parametrize("command", [*WRITE, *READ_ONLY, ["import", "posts.jsonl"]])
@pytest.mark.parametrize(("url", "words"), WRONG_URLS)
def test_a_database_url_mistake_is_a_sentence(
    capsys: pytest.CaptureFixture[str], here: Path, command: list[str], url: str, words: str
) -> None:
    (here / "posts.jsonl").write_text("", encoding="utf-8")
    code, output = server(capsys, "--database-url", url, *command)
    assert code == 2, output
    assert words in output and output.count("\n") == 1, output
    assert "secretpw" not in output
    assert sorted(p.name for p in here.iterdir()) == ["posts.jsonl"], "nothing was made"


@pytest.mark.parametrize("command", [["api-key", "list"], ["add-user", "bob", "--password-stdin"]])
def test_postgresql_without_its_driver_names_the_extra(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    here: Path,
    command: list[str],
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` fails
    url = "postgresql://u:secretpw@127.0.0.1:1/desk"
    code, output = server(capsys, "--database-url", url, *command)
    assert code == 2, output
    assert "install the postgres extra: pip install 'reviewer-app[postgres]'" in output, output
    assert "secretpw" not in output and output.count("\n") == 1, output


def test_a_sqlite_path_that_cannot_hold_a_database_is_a_sentence(
    capsys: pytest.CaptureFixture[str], here: Path
) -> None:
    (here / "afile").write_text("", encoding="utf-8")
    for path, words in (
        (here / "afile" / "desk.db", f"Cannot make the database at {here / 'afile' / 'desk.db'}: "),
        (here, f"{here} is a folder: give the database file's path"),
    ):
        code, output = server(
            capsys, "--database-url", f"sqlite:///{path}", "add-user", "bob", "--password-stdin"
        )
        assert code == 2, output
        assert output.startswith(words) and output.count("\n") == 1, output


# -- 3. log levels ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "level"),
    [("warn", "warning"), ("WARNING", "warning"), ("Debug", "debug"), ("trace", "trace")],
)
def test_log_levels_are_read_in_any_case(given: str, level: str) -> None:
    args = build_parser("server").parse_args(["server", "--log-level", given])
    assert args.log_level == level
    dispatcher = ["server", "webhook", "run", "--log-level", given]
    assert build_parser("server").parse_args(dispatcher).dispatcher_log_level == level


def test_every_log_level_offered_is_one_uvicorn_knows() -> None:
    import uvicorn.config

    from reviewer_app.server.cli.args import LOG_LEVELS

    assert set(LOG_LEVELS) == set(uvicorn.config.LOG_LEVELS)


@pytest.mark.parametrize(
    "words", [["--log-level", "bogus"], ["webhook", "run", "--log-level", "x"]]
)
def test_an_unknown_log_level_is_refused_where_it_is_read(
    capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser("server").parse_args(["server", *words])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


# -- 4. read-only commands ---------------------------------------------------------------------


@pytest.mark.parametrize("command", READ_ONLY)
def test_a_read_only_command_makes_no_database(
    capsys: pytest.CaptureFixture[str], here: Path, command: list[str]
) -> None:
    missing = here / "mistyped" / "desk.db"
    code, output = server(capsys, "--database-url", f"sqlite:///{missing}", *command)
    assert code == 2, output
    assert output == (
        f"No review-desk database at {missing} (start the service once, or pass --database-url)\n"
    )
    # the default database is a file in the working folder: run from another folder
    code, output = server(capsys, *command)
    assert code == 2, output
    assert f"No review-desk database at {here / 'reviewer-server.db'} (" in output
    assert list(here.iterdir()) == [], "no file, no folder, no lock file"


@pytest.mark.parametrize("command", READ_ONLY)
def test_a_read_only_command_migrates_nothing(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path, command: list[str]
) -> None:
    url = copy(templates, "older", here)
    code, output = server(capsys, "--database-url", url, *command)
    assert code == 2, output
    assert "the database's schema is older than this release" in output.lower(), output
    assert "start the service once to upgrade it" in output and output.count("\n") == 1
    db = Database(url)
    try:
        assert db.schema_revision() == OLDER
    finally:
        db.dispose()
    assert not (here / "out.jsonl").exists()


def test_a_read_only_command_reads_a_current_database(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path
) -> None:
    url = copy(templates, "current", here)
    written = (
        "Wrote 0 statements decided in [2025-01-01T00:00:00+00:00, 2026-01-01T00:00:00+00:00) "
        "to out.jsonl. The next window starts at --since 2026-01-01T00:00:00+00:00.\n"
    )
    assert server(capsys, "--database-url", url, *SOR) == (0, written)
    code, output = server(capsys, "--database-url", url, "queues", "versions")
    assert (code, output) == (0, "No configuration version yet (apply a queue file).\n")


def test_commands_that_write_still_make_and_migrate(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path
) -> None:
    url = copy(templates, "older", here)
    code, output = server(capsys, "--database-url", url, "add-user", "bob", "--password-stdin")
    assert code == 0, output
    fresh = here / "new" / "desk.db"
    command = ["api-key", "create", "--role", "platform", "--name", "feed"]
    code, output = server(capsys, "--database-url", f"sqlite:///{fresh}", *command)
    assert code == 0 and fresh.is_file(), output
    for made in (url, f"sqlite:///{fresh}"):
        db = Database(made)
        try:
            assert db.schema_revision() == HEAD
        finally:
            db.dispose()


@pytest.mark.parametrize("command", WRITE, ids=lambda c: " ".join(c) or "serve")
def test_a_command_that_writes_refuses_a_schema_from_a_newer_release(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path, command: list[str]
) -> None:
    """A database a newer release wrote (an Alembic revision this one does not know): one
    sentence, not Alembic's traceback, and the database is left as it was."""
    url = copy(templates, "current", here)
    newer = f"{int(HEAD) + 1:04d}"
    db = Database(url)
    try:
        with db.engine.begin() as conn:
            conn.exec_driver_sql(f"UPDATE alembic_version SET version_num = '{newer}'")
    finally:
        db.dispose()
    code, output = server(capsys, "--database-url", url, *command)
    assert code == 2, output
    assert output == (
        f"The database's schema (revision {newer}) is not one this release knows (it ends at "
        f"{HEAD}): use the release that wrote it\n"
    )
    db = Database(url)
    try:
        assert db.schema_revision() == newer
    finally:
        db.dispose()


# -- 5. verify-log's words ------------------------------------------------------------------


def test_verify_log_without_a_signed_checkpoint_says_so(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path
) -> None:
    url = copy(templates, "current", here)
    public = here / "log.pub"
    public.write_text(public_pem(Ed25519PrivateKey.generate().public_key()), encoding="utf-8")
    code, output = server(capsys, "verify-log", "--database-url", url, "--public-key", str(public))
    assert code == 1, output
    assert "at entry None" not in output and "entry None" not in output, output
    assert "(no_signed_checkpoint): no signed checkpoint exists yet" in output, output


def test_verify_log_names_a_file_without_a_key(
    capsys: pytest.CaptureFixture[str], templates: dict[str, Path], here: Path
) -> None:
    url = copy(templates, "current", here)
    settings = here / "settings.toml"
    settings.write_text('database_url = "sqlite:///desk.db"\n', encoding="utf-8")
    code, output = server(
        capsys, "verify-log", "--database-url", url, "--public-key", str(settings)
    )
    assert (code, output) == (2, f"no Ed25519 public or private key in {settings}\n")


# -- 6. openapi -o --------------------------------------------------------------------------


def test_openapi_to_a_path_it_cannot_write_is_a_sentence(
    capsys: pytest.CaptureFixture[str], here: Path
) -> None:
    for output in (here / "nodir" / "x.json", here):
        code, words = server(capsys, "openapi", "-o", str(output))
        assert code == 2, words
        assert words.startswith(f"Cannot write {output}: ") and words.count("\n") == 1, words
    code, words = server(capsys, "openapi", "-o", str(here / "openapi.json"))
    assert code == 0 and (here / "openapi.json").is_file(), words
