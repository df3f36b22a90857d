"""A reviewer's session with one server: log in (or resume with a saved token), open the
local store, run the sync engine, log out. What the UI and command-line tools build on.

Logging in talks to the network and must run off the GUI thread; everything after it
(recording verdicts, undo, skip, reading the worklist) is local and quick.

The local store is encrypted with the profile's key from the keyring. When there is no
keyring to hold one, the session's store lives in memory (``memory_only``): nothing of it is
written to disk, offline work is not offered, and verdicts not yet sent are lost if the app
stops before they are. Logging out, and ``clear_local_data``, wipe the profile's cache and
its key.
"""

from __future__ import annotations

import logging
import uuid
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from reviewer_app.protocol import Meta, Role, User

from . import events as ev
from .api import ApiClient, normalise_server_url
from .credentials import Credentials, Saved
from .errors import ApiError, AuthenticationRequired, UnsentVerdicts
from .paths import store_path
from .store import Store
from .sync import SyncEngine

log = logging.getLogger("net")


@dataclass(frozen=True)
class LoginResult:
    user: User
    meta: Meta
    saved: Saved


class ReviewSession:
    """One user on one server. ``store`` belongs to the thread that made the session."""

    def __init__(
        self,
        server_url: str,
        user: User,
        token: str,
        *,
        credentials: Credentials,
        data_root: Path | None = None,
        ca_bundle: str | Path | None = None,
        listener: ev.Listener | None = None,
    ) -> None:
        self.server_url = normalise_server_url(server_url)
        self.user = user
        self.credentials = credentials
        self.ca_bundle = ca_bundle
        self.path = store_path(self.server_url, user.username, data_root)
        key = credentials.store_key(self.server_url, user.username)
        #: no keyring holds a key: the store is in memory and nothing is kept on disk
        self.memory_only = key is None
        where: Path | str = self.path
        if self.memory_only:
            where = f"reviewer-app-{uuid.uuid4().hex}"
            log.info("no keyring for the local store key: this session keeps nothing on disk")
        self.store = Store(where, key=key, in_memory=self.memory_only)
        self._token = token
        self.engine = SyncEngine(
            self.server_url,
            where,
            token=token,
            listener=listener,
            ca_bundle=ca_bundle,
            store_key=key,
            store_in_memory=self.memory_only,
        )

    # --- starting ------------------------------------------------------------------------

    @staticmethod
    def log_in(
        server_url: str,
        username: str,
        password: str,
        *,
        credentials: Credentials,
        ca_bundle: str | Path | None = None,
    ) -> tuple[LoginResult, str]:
        """Check the server's API version, log in, keep the token (keyring or memory).
        Returns the result and the token (for ``ReviewSession``). Network: not on the GUI
        thread."""
        url = normalise_server_url(server_url)
        with ApiClient(url, ca_bundle=ca_bundle) as api:
            meta = api.check_compatible()
            info = api.login(username, password)
        saved = credentials.save(url, info.user.username, info.token)
        return LoginResult(info.user, meta, saved), info.token

    @staticmethod
    def resume(
        server_url: str,
        username: str,
        *,
        credentials: Credentials,
        ca_bundle: str | Path | None = None,
    ) -> tuple[User, str] | None:
        """The saved token still works: (user, token). None when there is none or it was
        refused (then it is forgotten). Network errors propagate: the caller can still
        work offline with what is stored, or ask to log in."""
        url = normalise_server_url(server_url)
        token = credentials.load(url, username)
        if not token:
            return None
        with ApiClient(url, token=token, ca_bundle=ca_bundle) as api:
            api.check_compatible()
            try:
                user = api.me()
            except AuthenticationRequired:
                credentials.delete(url, username)
                return None
        return user, token

    def client(self) -> ApiClient:
        """A new API client with this session's token, for one piece of work on a worker
        thread (a lead's figures, an export); the caller closes it."""
        return ApiClient(self.server_url, token=self._token, ca_bundle=self.ca_bundle)

    @property
    def is_lead(self) -> bool:
        """What the server said this user is. The server checks every lead call anyway."""
        return self.user.role in (Role.lead, Role.admin)

    def start(self, queue_ids: list[str] | None = None) -> None:
        if queue_ids:
            self.engine.set_active_queues(queue_ids)
        self.engine.start()

    def relogged_in(self, token: str) -> None:
        """After a 401: the new token from ``log_in`` resumes the paused engine."""
        self._token = token
        self.engine.set_token(token)

    # --- ending --------------------------------------------------------------------------

    def close(self, *, release: bool = True) -> None:
        """A clean exit: the engine sends what was decided and gives back the rest."""
        self.engine.stop(release=release)
        self.store.close()

    def unsent_count(self) -> int:
        """Verdicts saved here and not yet delivered (what clearing local data would lose)."""
        return self.store.pending_count()

    def log_out(self, *, keep_unsent: bool = True) -> int:
        """Send what can be sent, revoke the token on the server, forget it here, and wipe
        the profile's cache. Verdicts that could not be sent stay (encrypted, with the key
        in the keyring) for the next login when ``keep_unsent``; otherwise, or when there
        are none, the store file and its key are deleted. Returns how many were kept."""
        self.engine.stop(release=True)
        try:
            with ApiClient(self.server_url, token=self._token, ca_bundle=self.ca_bundle) as api:
                api.logout()
        except ApiError as err:  # an unreachable server still logs us out here
            log.info("could not revoke the token on the server: %s", type(err).__name__)
        finally:
            self.credentials.delete(self.server_url, self.user.username)
            self._token = ""
            kept = self._wipe(keep_unsent=keep_unsent)
        return kept

    def clear_local_data(self, *, discard_unsent: bool = False) -> None:
        """Delete everything this profile keeps on this computer (the store and its key)
        and log out. Raises UnsentVerdicts, changing nothing, while verdicts are not yet
        delivered, unless ``discard_unsent`` (they are still sent first if the server can
        be reached)."""
        unsent = self.unsent_count()
        if unsent and not discard_unsent:
            raise UnsentVerdicts(unsent)
        self.log_out(keep_unsent=False)

    def _wipe(self, *, keep_unsent: bool) -> int:
        kept = 0
        try:
            if not self.memory_only and keep_unsent and self.store.pending_count():
                kept = self.store.clear(keep_unsent=True)
                log.info("logged out with %d verdicts not sent: kept for the next login", kept)
        finally:
            self.store.close()  # a memory store is gone with its last connection
        if kept or self.memory_only:
            return kept
        for suffix in ("", "-wal", "-shm", "-journal"):
            with suppress(FileNotFoundError):
                Path(str(self.path) + suffix).unlink()
        self.credentials.delete_store_key(self.server_url, self.user.username)
        return 0
