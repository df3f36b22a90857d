"""A throwaway PostgreSQL cluster for a test session on a machine that has PostgreSQL's
server programs but no test server named in ``REVIEWER_APP_TEST_PG_URL``: a newcomer's
``make test`` then runs the PostgreSQL half of the suite instead of skipping it.

``initdb`` makes a cluster in a temporary folder (trust authentication, 127.0.0.1 only,
a free port), ``pg_ctl`` starts it and stops it at the end of the session, and the folder
is removed. PostgreSQL refuses to run as root: as root, the cluster runs as the
``postgres`` system user the distribution's package creates (``runuser``)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: where distributions put the server programs when they are not on PATH
SEARCH = (
    "/usr/lib/postgresql/*/bin",  # Debian, Ubuntu
    "/usr/pgsql-*/bin",  # the PostgreSQL project's RPMs
    "/opt/homebrew/opt/postgresql@*/bin",  # Homebrew on Apple silicon
    "/usr/local/opt/postgresql@*/bin",  # Homebrew on Intel
)
SUPERUSER = "reviewer"
#: set to "off" to keep the PostgreSQL tests skipped when no server is named
OPT_OUT_ENV = "REVIEWER_APP_TEST_PG_CLUSTER"


def _version_key(folder: str) -> tuple[int, ...]:
    digits = "".join(c if c.isdigit() else " " for c in folder).split()
    return tuple(int(d) for d in digits)


def server_bin() -> Path | None:
    """The folder of the newest ``initdb`` and ``pg_ctl`` on this machine, if any."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    found = [f for pattern in SEARCH for f in glob.glob(pattern)]
    for folder in sorted(found, key=_version_key, reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    folder: Path
    bin: Path
    port: int
    run_as: str | None

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> Cluster:
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8")
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} -c max_connections=200 "
            # fsync off: a throwaway cluster need not survive a crash. Not
            # synchronous_commit=off: VACUUM then cannot mark freshly committed pages
            # all-visible, and plan tests (test_claim_wire) see other plans than a server's
            "-c fsync=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        return self

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def throwaway_cluster() -> Cluster | None:
    """A started cluster, or ``None`` when this machine cannot make one (no server
    programs; root without a ``postgres`` user; opted out) — the PostgreSQL tests then
    skip and say why, as before."""
    if os.environ.get(OPT_OUT_ENV, "").lower() in ("off", "0", "no"):
        return None
    programs = server_bin()
    if programs is None:
        return None
    run_as = None
    folder = Path(tempfile.mkdtemp(prefix="reviewer-app-pg-"))
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            return None
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        run_as = "postgres"
    cluster = Cluster(folder, programs, _free_port(), run_as)
    try:
        return cluster.start()
    except (subprocess.SubprocessError, OSError):
        cluster.stop()
        return None
