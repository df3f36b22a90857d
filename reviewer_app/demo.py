"""``reviewer-app --demo``: the embedded reference service on 127.0.0.1, seeded once.

The one module allowed to join ``server`` and the client: it starts the service on a
background thread and opens the review window on it, logged in as a demo account.
"""

from __future__ import annotations

import socket
import threading
from datetime import UTC, datetime
from pathlib import Path

import uvicorn

from reviewer_app.core.paths import data_dir as client_data_dir
from reviewer_app.server.app import create_app
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo_data import build_demo_dataset
from reviewer_app.server.seed import is_seeded, seed_dataset
from reviewer_app.server.service import Service

DEMO_ACCOUNTS = {"reviewer": ("reviewer", "review-desk-demo"), "lead": ("lead", "review-desk-lead")}


def demo_database(data_dir: Path | None = None) -> Path:
    folder = data_dir or client_data_dir() / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "demo-server.db"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class DemoServer:
    """The demo service on a background thread (127.0.0.1 only)."""

    def __init__(self, database: Path, port: int = 0) -> None:
        self.settings = ServerSettings(database_url=f"sqlite:///{database}")
        self.port = port or free_port()
        self.service = Service(self.settings)
        self.service.start()
        if not is_seeded(self.service):
            seed_dataset(self.service, build_demo_dataset(datetime.now(UTC)))
        app = create_app(self.settings, service=self.service)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="demo-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            self._thread.join(0.05)
        if not self._server.started:
            raise RuntimeError("the demo server did not start")

    def wait(self) -> None:
        """Block until the server stops (Ctrl+C ends the wait)."""
        while self._thread.is_alive():
            self._thread.join(1.0)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)


def run_demo(role: str = "reviewer", port: int = 0) -> int:
    """Start the seeded demo service on 127.0.0.1 and open the review window on it."""
    from reviewer_app.ui.app import run_with_login

    database = demo_database()
    server = DemoServer(database, port)
    server.start()
    user, password = DEMO_ACCOUNTS[role]
    print(f"Demo queue service on {server.url}/api/v1 (database {database}); logged in as {user}")
    try:
        return run_with_login(server.url, user, password, demo=True)
    finally:
        server.stop()
