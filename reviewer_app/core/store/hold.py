"""One copy of the app at a time on a store: the session's own connection holds a lock
on ``<store>.lock`` (the system's file lock, through ``filelock``) from before the file is
opened, checked or moved aside, until it is closed. A second copy of the app logging in to
the same account on the same server is refused (``StoreInUse``) instead of running a
second sync engine on the store (two windows offering the same posts, a damaged file moved
aside under the other's feet). The lock goes with the process: a copy that was killed
leaves nothing that holds the next one out."""

from __future__ import annotations

import errno
import logging
from pathlib import Path

from filelock import FileLock, Timeout

from ..errors import StoreError, StoreInUse
from ..paths import FILE_MODE, narrow_file, private_folder

log = logging.getLogger("store")

#: the lock file cannot be made: the folder is read-only or not the user's, or the disk (or
#: the user's quota) is full
_UNWRITABLE = frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT})


def hold(path: Path) -> FileLock | None:
    """The lock on the store at ``path`` (``StoreInUse`` when another copy holds it;
    ``StoreError`` when its folder cannot be written), in a 0600 file; None where the file
    system has no locks to take (the store opens unguarded, as before)."""
    lock = FileLock(f"{path}.lock", timeout=0, mode=FILE_MODE, thread_local=False)
    try:
        private_folder(path.parent)
        lock.acquire()
    except Timeout:
        raise StoreInUse(path) from None
    except OSError as exc:
        if exc.errno in _UNWRITABLE:  # a read-only or full data folder (or not the user's)
            folder = path.parent
            raise StoreError(f"The app's data folder {folder} cannot be written: {exc}") from exc
        # a file system without locks (some network shares)
        log.warning("the local store cannot be locked (%s): opened without the guard", exc)
        return None
    narrow_file(Path(lock.lock_file))  # one an older release made with the umask's mode
    return lock


def check_free(path: Path) -> None:
    """``StoreInUse`` when another copy of the app holds the store at ``path`` now: asked
    before a login, so that a copy refused at the store logs nobody in (no new token kept
    over the other copy's in the keyring). The store's own ``hold`` decides in the end."""
    lock = hold(path)
    if lock is not None:
        lock.release()
