"""Work off the GUI thread, results back on it: ``Op`` (and ``run_op``, its short form).

Like Anki's ``CollectionOp``/``QueryOp``: an op belongs to an owner widget; its work runs on
a pool thread and never touches widgets; its result, its failure and its progress come back
through queued signals to callbacks on the GUI thread. On top of that, what every caller
needed by hand before:

- **stale results dropped**: starting an op with the same ``key`` on the same owner drops
  the older op's result (a search typed over, a page of filters changed meanwhile);
- **cancel**: ``op.cancel()`` sets a flag the work may check (``op.cancelled``) to stop
  early; a cancelled op delivers nothing, not even its failure. ``op.stop()`` sets the same
  flag but still delivers how the work ended (an export that says how far it got);
- **progress**: ``op.report(value)`` from the work reaches the ``progress`` callback on the
  GUI thread; reports that come faster than the GUI thread takes them are coalesced to the
  newest (thousands of queued callbacks froze Picard's UI: PICARD-3281);
- **owner gone**: an op whose owner was destroyed delivers nothing.

Nothing here waits: the GUI thread never blocks on an op (a cancelled op's work runs on
until it looks at the flag or ends; its thread is the pool's, not the GUI's).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

log = logging.getLogger("ui")

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]
Progress = Callable[[Any], None]


class Op(QObject):
    """One piece of background work owned by ``owner``. Make it, then ``run(work)``::

        op = Op(self, success=self._loaded, failure=self._failed, key="page")
        op.run(lambda: fetch(api, op.report, lambda: op.cancelled))

    ``success``, ``failure`` and ``progress`` run on the GUI thread, only while the op is
    current (not cancelled, not superseded by a newer op of its key, its owner alive).
    """

    _succeeded = Signal(object)
    _failed = Signal(object)
    _progressed = Signal()

    def __init__(
        self,
        owner: QObject,
        *,
        success: Success,
        failure: Failure,
        progress: Progress | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__()  # no parent: it lives until its work ends, whatever the owner does
        self.owner = owner
        self.key = key
        self._on_success = success
        self._on_failure = failure
        self._on_progress = progress
        self._cancel = threading.Event()  # dropped: nothing delivered
        self._stop = threading.Event()  # asked to stop: the outcome still delivered
        self._owner_gone = False
        self._lock = threading.Lock()
        self._latest: Any = None
        self._report_queued = False
        self._started = False
        self._succeeded.connect(self._deliver_success)
        self._failed.connect(self._deliver_failure)
        self._progressed.connect(self._deliver_progress)
        owner.destroyed.connect(self._on_owner_destroyed)

    # --- the GUI thread's side ---------------------------------------------------------

    def run(self, work: Callable[[], Any]) -> Op:
        """Start ``work`` on the global pool; an older op of this owner and key goes stale."""
        assert not self._started, "an op runs once"
        self._started = True
        if self.key is not None:
            older = _current.get((id(self.owner), self.key))
            if older is not None and older.owner is self.owner:
                older.cancel()
            _current[(id(self.owner), self.key)] = self
        _live.add(self)
        QThreadPool.globalInstance().start(_Job(self, work))
        return self

    def cancel(self) -> None:
        """Nothing of this op is delivered from now on; ``cancelled`` tells the work."""
        self._cancel.set()
        self._forget_key()

    def stop(self) -> None:
        """Ask the work to end early (``cancelled`` turns True); unlike ``cancel``, what it
        returns or raises then is still delivered."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        """True once cancelled, stopped, superseded or orphaned (any thread may ask): the
        work should end soon."""
        return self._cancel.is_set() or self._stop.is_set()

    @property
    def current(self) -> bool:
        return not self._cancel.is_set() and not self._owner_gone and shiboken6.isValid(self.owner)

    def _forget_key(self) -> None:
        if self.key is not None and _current.get((id(self.owner), self.key)) is self:
            del _current[(id(self.owner), self.key)]

    def _on_owner_destroyed(self, *_args: Any) -> None:
        self._owner_gone = True
        self.cancel()

    def _end(self) -> None:
        self._forget_key()
        if shiboken6.isValid(self.owner):
            with contextlib.suppress(RuntimeError, TypeError):  # gone meanwhile: nothing to undo
                self.owner.destroyed.disconnect(self._on_owner_destroyed)
        # let go once this delivery is over: a QObject is never freed inside its own slot
        self.deleteLater()
        QTimer.singleShot(0, functools.partial(_live.discard, self))

    def _deliver_success(self, value: Any) -> None:
        current = self.current
        self._end()
        if current:
            self._on_success(value)

    def _deliver_failure(self, err: BaseException) -> None:
        current = self.current
        self._end()
        if current:
            self._on_failure(err)
        else:
            log.debug("a dropped op failed: %s", type(err).__name__)

    def _deliver_progress(self) -> None:
        with self._lock:
            value, self._latest, self._report_queued = self._latest, None, False
        if self._on_progress is not None and self.current:
            self._on_progress(value)

    # --- the work's side (a pool thread) -----------------------------------------------

    def report(self, value: Any) -> None:
        """Progress from the work; the newest value reaches the GUI thread."""
        with self._lock:
            self._latest = value
            if self._report_queued:
                return
            self._report_queued = True
        self._progressed.emit()


class _Job(QRunnable):
    def __init__(self, op: Op, work: Callable[[], Any]) -> None:
        super().__init__()
        self.op = op
        self.work = work

    def run(self) -> None:
        try:
            result = self.work()
        except Exception as err:  # handed to the failure callback on the GUI thread
            self.op._failed.emit(err)
        else:
            self.op._succeeded.emit(result)


#: ops whose work has not ended (the op is a QObject without a parent: kept alive here)
_live: set[Op] = set()
#: per (owner, key), the op whose result is still wanted (GUI thread only)
_current: dict[tuple[int, str], Op] = {}


def run_op(
    owner: QObject,
    work: Callable[[], Any],
    success: Success,
    failure: Failure,
    *,
    key: str | None = None,
) -> Op:
    """``Op(owner, success=..., failure=..., key=key).run(work)``: for work that reports no
    progress and never looks at the cancel flag."""
    return Op(owner, success=success, failure=failure, key=key).run(work)


def run_in_background(
    parent: QObject,
    fn: Callable[[], Any],
    on_success: Success,
    on_failure: Failure,
) -> None:
    """The older form (no key, no cancel): ``run_op`` without its op."""
    run_op(parent, fn, on_success, on_failure)
