"""A reviewer's session with one server: log in (or start with no network from what this
computer keeps), open the local store, run the sync engine, log out. What the UI and
command-line tools build on.

Logging in talks to the network, and deriving a key from a password takes some tenths of
a second: both run off the GUI thread; everything after them (recording verdicts, undo,
skip, reading the worklist) is local and quick.

**The store's key** (``profile_key``), in one of three modes (``KeyMode``):

- ``keyring``: 32 random bytes in the OS keyring (``Credentials.store_key``), as is the
  token. A start with no network opens the store with them and the saved token.
- ``password``: no usable keyring. The same kind of random key, kept wrapped under a key
  derived from the reviewer's password (argon2id, a salt per profile) in a file beside
  the store (``keyfile``). The token stays in memory for the session; a start with no
  network opens the store with the password typed, checked against that file, not the
  server, and asks for a login when the server is back. A login whose password does not
  open the file (changed since) leaves the store for the previous one (``reopen``).
- ``memory``: no key at all (a session made without a password and no keyring): the store
  lives in memory, nothing of it is written to disk.

Logging out, and ``clear_local_data``, wipe the profile's cache and its key; a store moved
aside (``*.unusable-*``, which may hold unsent verdicts) and the key it needs are left.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from reviewer_app.protocol import Meta, Role, User

from . import events as ev
from . import keyfile
from .api import ApiClient, Timeouts, normalise_server_url
from .credentials import Credentials, KeyringProblem, Saved
from .errors import ApiError, AuthenticationRequired, CoreError, StoreError, UnsentVerdicts
from .paths import data_dir, private_folder, store_path
from .store import OfflineSummary, Store, check_free, encrypted_store, written_before_encryption
from .sync import SyncEngine

log = logging.getLogger("net")


@dataclass(frozen=True)
class LoginResult:
    user: User
    meta: Meta
    saved: Saved


class KeyMode(StrEnum):
    """Where the profile's store key comes from (see the module doc)."""

    keyring = "keyring"
    password = "password"  # noqa: S105 - the mode's name, not a secret
    memory = "memory"


@dataclass(frozen=True)
class ProfileKey:
    """The store's key for one session and where it comes from; ``moved_aside``: a store
    and its key file moved aside for support (damaged, or ``afresh``: ``start_afresh``)."""

    key: bytes | None
    mode: KeyMode
    moved_aside: Path | None = None
    afresh: bool = False
    #: a store kept here that the password the server just accepted does not open (it
    #: changed since): left as it is, with no key, for ``reopen`` (the previous password)
    #: or ``start_afresh``; ``unsent``: what it holds not sent yet (None: not counted)
    locked: Path | None = None
    unsent: int | None = None
    #: a store kept under the keyring's key, which the keyring could not give now: left as
    #: it is (with its unsent verdicts) for a login when it can; this session keeps nothing
    waiting: Path | None = None
    #: the key was made at this login for a store found here unencrypted (written by a
    #: release before encryption): only then may that store's content be sealed in place
    fresh: bool = False


@dataclass(frozen=True)
class OfflineStart:
    """What this computer keeps of a profile, opened with no network: who (as the server
    said at the last login), the saved token (None without one: a login is asked for when
    the server is back), the store's key, and what there is to work on."""

    user: User
    token: str | None
    key: ProfileKey
    summary: OfflineSummary


class NothingSaved(CoreError):
    """Nothing of this profile can be opened with no network: no store, no key, or (with a
    keyring) no saved login. ``logged_out`` when the store is there but its login was ended
    on this computer; ``before_encryption`` when it is a store of a release before
    encryption (a login with the server encrypts it); ``key_missing`` when it is there but
    the keyring answers without its key (it is left as it is)."""

    def __init__(
        self,
        message: str,
        *,
        logged_out: bool = False,
        keyring: tuple[KeyringProblem | None, str | None] | None = None,
        before_encryption: bool = False,
        key_missing: bool = False,
    ) -> None:
        super().__init__(message)
        self.logged_out = logged_out
        #: the store is here but the keyring holding its key cannot be read now: why
        #: (``Credentials.problem`` and ``culprit``)
        self.keyring = keyring
        self.before_encryption = before_encryption
        self.key_missing = key_missing


#: revoking the token at a log-out: a short wait, and the log-out goes on without it
REVOKE = Timeouts(connect=3.05, read=5.0)


class ReviewSession:
    """One user on one server. ``store`` belongs to the thread that made the session."""

    def __init__(
        self,
        server_url: str,
        user: User,
        token: str | None,
        *,
        credentials: Credentials,
        data_root: Path | None = None,
        ca_bundle: str | Path | None = None,
        listener: ev.Listener | None = None,
        key: ProfileKey | None = None,
        offline: bool = False,
    ) -> None:
        """``key``: the store's key from ``profile_key`` or ``open_offline`` (without one,
        the keyring's, else a memory store). ``offline``: a start with no network (the
        profile kept here is not updated from the server). ``token`` None: no login yet
        (the engine only checks whether the server can be reached)."""
        self.server_url = normalise_server_url(server_url)
        self.user = user
        self.credentials = credentials
        self.ca_bundle = ca_bundle
        self.data_root = data_root
        self.path = store_path(self.server_url, user.username, data_root)
        if key is None:
            key = _keyring_key(credentials, self.server_url, user.username, self.path)
        self.key = key
        #: no key: the store is in memory and nothing is kept on disk
        self.memory_only = key.key is None
        #: where the key comes from, and so what a start with no network needs
        self.key_mode = KeyMode.memory if self.memory_only else key.mode
        self.started_offline = offline
        where: Path | str = self.path
        if self.memory_only:
            where = f"reviewer-app-{uuid.uuid4().hex}"
            log.info("no key for the local store: this session keeps nothing on disk")
        else:
            private_folder(self.path.parent, within=data_root or data_dir())
        # with no network the file is not checked here: ``open_offline`` checked it and says
        # what it found, and a damaged file is moved aside only at a login (SECURITY.md)
        self.store = Store(
            where,
            key=key.key,
            in_memory=self.memory_only,
            check=not offline,
            seal_plaintext=key.fresh,
            exclusive=True,  # one copy of the app at a time (``StoreInUse``)
        )
        self._token = token or ""
        #: the lead workspace's one client (``shared_client``), made when first asked for
        self._shared: ApiClient | None = None
        try:
            if not offline and not self.memory_only:
                self.store.save_profile(user)
            self.engine = SyncEngine(
                self.server_url,
                where,
                token=token,
                listener=listener,
                ca_bundle=ca_bundle,
                store_key=key.key,
                store_in_memory=self.memory_only,
            )
        except BaseException:  # (a StoreError: the caller says it) never a store left open
            self.store.close()
            raise

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
    def log_in_with_key(
        server_url: str,
        username: str,
        password: str,
        *,
        credentials: Credentials,
        data_root: Path | None = None,
        first: Callable[[], None] | None = None,
        kdf: keyfile.KdfParams = keyfile.DEFAULT_PARAMS,
    ) -> tuple[LoginResult, str, ProfileKey]:
        """``log_in``, then ``profile_key``, refused (``StoreInUse``) before the login while
        another copy of the app holds this profile's store. A key wrapped under the password
        is unwrapped beside the login (and ``first``, the demo's wait for its service), its
        key used only for a login the server accepted under the same name (else as after any
        login); ``kdf``: the costs of a key file made now. Network, KDF: not on the GUI thread."""
        url = normalise_server_url(server_url)
        path = store_path(url, username, data_root)
        check_free(path)  # held by another copy of the app: ``StoreInUse``, and no login
        wrapped = keyfile.key_file_path(path)
        early: Future[bytes] | None = None
        pool = ThreadPoolExecutor(1, thread_name_prefix="key-file")
        try:
            if keyfile.exists(wrapped):
                early = pool.submit(keyfile.unlock, wrapped, password, url, username)
            if first is not None:
                first()
            result, token = ReviewSession.log_in(
                server_url, username, password, credentials=credentials
            )
        finally:
            pool.shutdown(wait=False)  # a refused login does not wait for the KDF
        if early is not None and result.user.username == username:
            try:
                return result, token, ProfileKey(early.result(), KeyMode.password)
            except (keyfile.WrongPassword, keyfile.KeyFileUnusable, OSError):
                pass  # as for any accepted login, below
        key = ReviewSession.profile_key(
            server_url,
            result.user.username,
            password,
            credentials=credentials,
            data_root=data_root,
            kdf=kdf,
        )
        return result, token, key

    @staticmethod
    def profile_key(
        server_url: str,
        username: str,
        password: str,
        *,
        credentials: Credentials,
        data_root: Path | None = None,
        kdf: keyfile.KdfParams = keyfile.DEFAULT_PARAMS,
    ) -> ProfileKey:
        """The store's key for a login the server just accepted: the one wrapped under the
        password beside the store when this profile has such a file; else the keyring's;
        else (no usable keyring) a new one wrapped under the password (with the costs
        ``kdf``). A key file the password does not open (changed since) leaves a store kept
        here as it is (``locked``: ``reopen`` or ``start_afresh``); a damaged one, or one with
        no store, is moved aside with its store and a new one made. KDF: not on the GUI thread."""
        url = normalise_server_url(server_url)
        path = store_path(url, username, data_root)
        wrapped = keyfile.key_file_path(path)
        if keyfile.exists(wrapped):
            try:
                return ProfileKey(
                    keyfile.unlock(wrapped, password, url, username), KeyMode.password
                )
            except (keyfile.WrongPassword, keyfile.KeyFileUnusable) as err:
                if isinstance(err, keyfile.WrongPassword) and keyfile.has_store(path):
                    unsent = keyfile.unsent_unopened(path)  # (the password's changed since)
                    return ProfileKey(None, KeyMode.password, locked=path, unsent=unsent)
                log.warning("the saved work here does not open with this login: %s", err)
                aside = keyfile.move_aside(path)
                fresh = keyfile.create(wrapped, password, url, username, params=kdf)
                return ProfileKey(fresh, KeyMode.password, moved_aside=aside)
        kept = _keyring_key(credentials, url, username, path)
        if kept.key is not None or kept.waiting is not None:
            return kept
        log.info("no keyring: the local store key is kept wrapped under the password")
        private_folder(path.parent, within=data_root or data_dir())
        return ProfileKey(
            keyfile.create(wrapped, password, url, username, params=kdf),
            KeyMode.password,
            fresh=keyfile.has_store(path),  # written before encryption (else it would wait)
        )

    @staticmethod
    def reopen(
        server_url: str, username: str, previous: str, password: str, *, data_root: Path | None
    ) -> ProfileKey:
        """The key of a store ``profile_key`` found ``locked``, opened with ``previous`` and
        wrapped under ``password`` (the one the server accepted) in one atomic replacement
        (``keyfile.reopen``; ``WrongPassword`` changes nothing). KDF: not on the GUI thread."""
        url = normalise_server_url(server_url)
        wrapped = keyfile.key_file_path(store_path(url, username, data_root))
        return ProfileKey(
            keyfile.reopen(wrapped, previous, password, url, username), KeyMode.password
        )

    @staticmethod
    def start_afresh(
        server_url: str, username: str, password: str, *, data_root: Path | None
    ) -> ProfileKey:
        """A ``locked`` store moved aside unopened with its key file (the previous password
        opens it) for a new one with a new key. KDF: not on the GUI thread."""
        url = normalise_server_url(server_url)
        path = store_path(url, username, data_root)
        aside = keyfile.move_aside(path)
        fresh = keyfile.create(keyfile.key_file_path(path), password, url, username)
        return ProfileKey(fresh, KeyMode.password, moved_aside=aside, afresh=True)

    @staticmethod
    def open_offline(
        server_url: str,
        username: str,
        password: str,
        *,
        credentials: Credentials,
        data_root: Path | None = None,
    ) -> OfflineStart:
        """What this computer keeps of the profile, for a start with no network: the store
        opened with the password (checked against the key file beside it, not the server)
        or with the keyring's key and saved token. Raises ``WrongPassword`` (nothing is
        changed), ``NothingSaved``, ``KeyFileUnusable`` or ``StoreError``. Runs a KDF and
        opens the store: not on the GUI thread (the session is then made on it)."""
        url = normalise_server_url(server_url)
        path = store_path(url, username, data_root)
        if not path.is_file():
            raise NothingSaved(f"Nothing is saved on this computer for {username} on {url}.")
        wrapped = keyfile.key_file_path(path)
        token = credentials.load(url, username)
        if keyfile.exists(wrapped):
            key = ProfileKey(keyfile.unlock(wrapped, password, url, username), KeyMode.password)
        else:
            found = credentials.store_key(url, username, create=False)
            if found is None and written_before_encryption(path):
                raise NothingSaved(
                    f"The work saved for {username} on {url} was kept by a release before "
                    "encryption; a login with the server encrypts it (nothing is lost).",
                    before_encryption=True,
                )
            if found is None and credentials.reason is not None:
                raise NothingSaved(
                    f"The work saved for {username} on {url} needs its key from the keyring, "
                    f"which cannot be read now ({credentials.reason}).",
                    keyring=(credentials.problem, credentials.culprit),
                )
            if found is None:
                raise NothingSaved(
                    f"The work saved for {username} on {url} is here, but its key is not in "
                    "the keyring; it was left as it is.",
                    key_missing=True,
                )
            if not token:
                raise NothingSaved(
                    f"{username} logged out of {url} on this computer; log in once the server "
                    "can be reached.",
                    logged_out=True,
                )
            key = ProfileKey(found, KeyMode.keyring)
        # the profile and what is there, read on this thread; the session opens its own. The
        # file is checked, and a damaged one is said (StoreUnreadable) and left as it is
        with Store(path, key=key.key, move_aside=False) as store:
            user = store.profile() or User(
                id=1, username=username, display_name=username, role=Role.reviewer
            )
            summary = store.offline_summary()
        if user.username != username:
            raise StoreError(f"The local store {path} belongs to {user.username}, not {username}.")
        return OfflineStart(user, token or None, key, summary)

    def log_in_again(self, password: str) -> tuple[LoginResult, str]:
        """A new login for this session's user (after a 401, or when the server is back for
        a session that started with no network): the token is kept as at any login, and a
        store key wrapped under an older password is wrapped under this one. Network and a
        KDF: not on the GUI thread; then ``relogged_in`` on it."""
        result, token = self.log_in(
            self.server_url,
            self.user.username,
            password,
            credentials=self.credentials,
            ca_bundle=self.ca_bundle,
        )
        if self.key_mode is KeyMode.password and self.key.key is not None:
            wrapped = keyfile.key_file_path(self.path)
            keyfile.keep_under(wrapped, self.key.key, password, self.server_url, self.user.username)
        return result, token

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

    def shared_client(self) -> ApiClient:
        """The one client the lead workspace's ops share, on any thread (it keeps a session
        per thread): this session's token and the engine's retry policy; a new login gives
        it the new token. Closed with the session; callers never close it."""
        if self._shared is None:
            self._shared = ApiClient(self.server_url, token=self._token, ca_bundle=self.ca_bundle)
        return self._shared

    @property
    def is_lead(self) -> bool:
        """What the server said this user is. The server checks every lead call anyway."""
        return self.user.role in (Role.lead, Role.admin)

    def start(self, queue_ids: list[str] | None = None) -> None:
        if queue_ids:
            self.engine.set_active_queues(queue_ids)
        self.engine.start()

    def relogged_in(self, token: str) -> None:
        """After a 401 (or a start with no network): the new token from ``log_in`` (or
        ``log_in_again``) resumes the paused engine; the profile kept here is refreshed."""
        self._token = token
        self.engine.set_token(token)
        if self._shared is not None:
            self._shared.token = token

    def profile_updated(self, user: User) -> None:
        """The server's word on who this is, after a login (GUI thread: the store's)."""
        self.user = user
        if not self.memory_only:
            self.store.save_profile(user)

    # --- ending --------------------------------------------------------------------------

    def close(self, *, release: bool = True) -> None:
        """A clean exit: the engine sends what was decided and gives back the rest."""
        self.engine.stop(release=release)
        self.store.close()
        self._close_shared()

    def _close_shared(self) -> None:
        shared, self._shared = self._shared, None
        if shared is not None:
            shared.token = None  # an op still running is refused here, never sent
            shared.close()

    def unsent_count(self) -> int:
        """Verdicts saved here and not yet delivered, and the posts of a lead's bulk
        decisions held here unanswered (what clearing local data would lose). A store moved
        aside (``moved_aside``) is not counted: it cannot be read here, and is never wiped."""
        return self.store.pending_count() + self.store.held_bulk_items()

    def moved_aside(self) -> list[Path]:
        """This profile's stores moved aside as unusable (``*.unusable-*``), which may hold
        verdicts never sent: logging out and clearing leave them, and their keys, alone."""
        return keyfile.stores_moved_aside(self.path)

    def log_out(self, *, keep_unsent: bool = True) -> int:
        """Send what can be sent, revoke the token on the server, forget it here, and wipe
        the profile's cache. Verdicts that could not be sent stay (encrypted, with the key
        in the keyring) for the next login when ``keep_unsent``; otherwise, or when there
        are none, the store file and its key are deleted. Returns how many were kept.
        ``end_online`` (any thread) then ``forget_here`` (the store's), in one call."""
        try:
            self.end_online()
        finally:
            kept = self.forget_here(keep_unsent=keep_unsent)
        return kept

    def end_online(self) -> None:
        """The network part of logging out, on any thread (the window stays responsive):
        the engine sends what was decided and gives back the rest, then the token is
        revoked on the server, with a short wait (a server that cannot be reached still
        logs us out here)."""
        self.engine.stop(release=True)
        try:
            with ApiClient(
                self.server_url, token=self._token, ca_bundle=self.ca_bundle, timeouts=REVOKE
            ) as api:
                api.logout()
        except ApiError as err:
            log.info("could not revoke the token on the server: %s", type(err).__name__)

    def forget_here(self, *, keep_unsent: bool = True) -> int:
        """The local part of logging out (the store's thread): the token forgotten, the
        profile wiped but for unsent work when ``keep_unsent``. How many were kept."""
        self.credentials.delete(self.server_url, self.user.username)
        self._token = ""
        self._close_shared()
        return self._wipe(keep_unsent=keep_unsent)

    def clear_local_data(self, *, discard_unsent: bool = False) -> None:
        """Delete everything this profile keeps on this computer (the store and its key)
        and log out. Raises UnsentVerdicts, changing nothing, while verdicts are not yet
        delivered, unless ``discard_unsent`` (they are still sent first if the server can
        be reached)."""
        self.check_clear(discard_unsent=discard_unsent)
        self.log_out(keep_unsent=False)

    def check_clear(self, *, discard_unsent: bool = False) -> None:
        """Raises UnsentVerdicts while verdicts are not yet delivered, unless
        ``discard_unsent``: what ``clear_local_data`` checks first."""
        unsent = self.unsent_count()
        if unsent and not discard_unsent:
            raise UnsentVerdicts(unsent)

    def _wipe(self, *, keep_unsent: bool) -> int:
        kept = 0
        try:
            if not self.memory_only and keep_unsent and self.unsent_count():
                # the held bulk decisions stay too (clear keeps them): the next login sends them
                kept = self.store.clear(keep_unsent=True) + self.store.held_bulk_items()
                log.info("logged out with %d verdicts not sent: kept for the next login", kept)
        finally:
            self.store.close()  # a memory store is gone with its last connection
        if kept or self.memory_only:
            return kept  # the key stays (keyring or key file): the verdicts need it
        for suffix in ("", "-wal", "-shm", "-journal", ".lock", keyfile.SUFFIX):
            with suppress(FileNotFoundError):
                Path(str(self.path) + suffix).unlink()
        aside = self.moved_aside()
        if aside:  # its key file went with it; a keyring's key is the one it needs
            log.warning(
                "logged out; %d local stores moved aside are kept with their key (they may "
                "hold verdicts not sent): %s",
                len(aside),
                ", ".join(str(p) for p in aside),
            )
        if not any(not keyfile.exists(keyfile.key_file_path(p)) for p in aside):
            self.credentials.delete_store_key(self.server_url, self.user.username)
        return 0


def _keyring_key(credentials: Credentials, url: str, username: str, path: Path) -> ProfileKey:
    """The keyring's key for the profile whose store is at ``path``: the one it holds for a
    store kept here; else, when that store is encrypted, none (it waits, as for a keyring
    that cannot be read now: never a new key for it); else a new one (``fresh`` when a store
    written before encryption is here: it is sealed with it). A memory key with no
    ``waiting`` when the keyring can keep nothing."""
    found_store = keyfile.has_store(path)
    if found_store:  # kept under the keyring's key
        found = credentials.store_key(url, username, create=False)
        if found is not None:
            return ProfileKey(found, KeyMode.keyring)
        # with no keyring at all (none, or none fit for secrets), a store of a release
        # before encryption never had a key: it gets its first (``profile_key``: wrapped
        # under the password), as it would from a keyring; it never waits for one
        first = credentials.problem is not KeyringProblem.failed and written_before_encryption(path)
        if credentials.reason is not None and not first:  # the keyring cannot be read now
            log.warning("the saved work here waits for the keyring: %s", credentials.reason)
            return ProfileKey(None, KeyMode.memory, waiting=path)
        # it answers, but not with this store's key (a file that cannot be read at all is
        # moved aside as damaged, kept whole, under the new key's profile)
        if encrypted_store(path):
            credentials.no_store_key()
            log.warning("the saved work here waits for its key: %s", credentials.reason)
            return ProfileKey(None, KeyMode.memory, waiting=path)
    kept = credentials.store_key(url, username)
    if kept is None:
        return ProfileKey(None, KeyMode.memory)
    return ProfileKey(kept, KeyMode.keyring, fresh=found_store)
