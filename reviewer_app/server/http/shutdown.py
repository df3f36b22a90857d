"""Stopping an API process promptly: long polls answer as soon as the process is told to stop.

uvicorn's graceful stop (SIGTERM, or SIGINT) first closes the listening socket and then waits
for every open request to finish; a long poll of the enforcement feed waits up to 30 s, so
one reader held the whole process (with one worker, the whole service) refusing traffic that
long. Here the stop is told to whatever registered with ``stop_with_process`` (the feed's
``FeedWatch``, whose waiting reads then answer their page at once) before uvicorn's own
handling: with one process through ``StoppingServer`` (a ``uvicorn.Server`` whose
``handle_exit`` says so first), with ``--workers N`` through ``worker_app``, the workers'
app factory, which puts the same call in front of the handlers the worker's server has just
installed (uvicorn loads the app inside its signal capture; each worker is its own spawned
process, and uvicorn's supervisor makes a plain ``uvicorn.Server`` there).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import weakref
from types import FrameType
from typing import Any, Protocol

import uvicorn
from fastapi import FastAPI
from uvicorn.config import STARTUP_FAILURE
from uvicorn.server import HANDLED_SIGNALS

_stopping = threading.Event()


class Stoppable(Protocol):
    def stop(self) -> None:
        """End waits now (called from a signal handler: set flags, wake a loop, no more)."""


# by id: a dataclass (FeedWatch) is not hashable; weak, so a service's end frees its watch
_stoppables: weakref.WeakValueDictionary[int, Stoppable] = weakref.WeakValueDictionary()


def stop_with_process(target: Stoppable) -> None:
    """Have ``target.stop()`` called when this process is told to stop (at once if it was)."""
    _stoppables[id(target)] = target
    if _stopping.is_set():
        target.stop()


def process_stopping() -> None:
    """This process was told to stop: tell everything registered (a signal handler's call)."""
    _stopping.set()
    for target in list(_stoppables.values()):
        target.stop()


class StoppingServer(uvicorn.Server):
    """A ``uvicorn.Server`` that ends the long polls before its graceful stop waits on them."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        process_stopping()
        super().handle_exit(sig, frame)


def serve(app: FastAPI, **options: Any) -> None:
    """``uvicorn.run(app, **options)`` for one process, with ``StoppingServer``."""
    server = StoppingServer(uvicorn.Config(app, **options))
    with contextlib.suppress(KeyboardInterrupt):  # SIGINT, raised again after the stop
        server.run()
    if not server.started:  # as uvicorn.run: the socket could not be bound, say
        raise SystemExit(STARTUP_FAILURE)


def worker_app() -> FastAPI:
    """The app factory of ``--workers N``: each worker's app, with the stop told first."""
    from reviewer_app.server.http.app import create_app_from_env

    app = create_app_from_env()
    _tell_stop_first()
    return app


def _tell_stop_first() -> None:
    """Put ``process_stopping`` in front of the stop signals' handlers (the worker's server
    installed them before it loaded the app)."""
    if threading.current_thread() is not threading.main_thread():
        return  # signals are the main thread's (never so in a uvicorn worker)
    for sig in HANDLED_SIGNALS:
        handler = signal.getsignal(sig)
        if callable(handler):
            signal.signal(sig, _first_stopping(handler))


def _first_stopping(handler: Any) -> Any:
    def handle(sig: int, frame: FrameType | None) -> None:
        process_stopping()
        handler(sig, frame)

    return handle
