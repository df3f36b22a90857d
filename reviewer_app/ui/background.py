"""Work off the GUI thread, results back on it: ``run_in_background(parent, fn)``.

Like Anki's ``CollectionOp``: the function runs on a pool thread and never touches widgets;
its result or error comes back through a signal to callbacks on the GUI thread. Used for
the few network calls outside the sync engine (logging in, resuming a session).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger("ui")


class _Relay(QObject):
    succeeded = Signal(object)
    failed = Signal(object)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.fn = fn
        self.relay = relay

    def run(self) -> None:
        try:
            result = self.fn()
        except Exception as err:  # handed to the failure callback on the GUI thread
            self.relay.failed.emit(err)
        else:
            self.relay.succeeded.emit(result)


_live: set[_Relay] = set()


def run_in_background(
    parent: QObject,
    fn: Callable[[], Any],
    on_success: Callable[[Any], None],
    on_failure: Callable[[BaseException], None],
) -> None:
    """Run ``fn`` on the global thread pool; call back on ``parent``'s (GUI) thread."""
    relay = _Relay(parent)
    _live.add(relay)

    def done(callback: Callable[[Any], None], value: Any) -> None:
        _live.discard(relay)
        relay.deleteLater()
        callback(value)

    relay.succeeded.connect(lambda value: done(on_success, value))
    relay.failed.connect(lambda err: done(on_failure, err))
    QThreadPool.globalInstance().start(_Job(fn, relay))
