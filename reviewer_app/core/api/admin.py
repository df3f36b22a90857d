"""The calls of administration (admins only): users and roles, API keys, the queue
file."""

from __future__ import annotations

from urllib.parse import quote

from reviewer_app.protocol import User
from reviewer_app.protocol.intake import ApiKeyCreate, ApiKeyCreated, ApiKeyInfo, ApiKeyList
from reviewer_app.protocol.meta import (
    PasswordSet,
    QueueFileHistory,
    RoleChange,
    RunningQueueFile,
    UserCreate,
    UserList,
)

from .transport import HttpClient


class AdminCalls(HttpClient):
    """What the admin tab calls."""

    def users(self) -> UserList:
        """Every user: people and service accounts, with their roles."""
        return self._call("GET", "/users", reply=UserList)

    def create_user(self, body: UserCreate) -> User:
        """A new person with a password (409 when the username is taken)."""
        return self._call("POST", "/users", body=body, reply=User)

    def change_role(self, username: str, body: RoleChange) -> User:
        path = f"/users/{quote(username, safe='')}/role"
        return self._call("PUT", path, body=body, reply=User)

    def set_password(self, username: str, body: PasswordSet) -> None:
        """A person's new password: every session of theirs ends."""
        path = f"/users/{quote(username, safe='')}/password"
        self._call("PUT", path, body=body, reply=None)

    def end_access(self, username: str) -> None:
        """No password opens the person's account; their sessions end, what they held goes
        back (409 for the only admin who can log in)."""
        self._call("DELETE", f"/users/{quote(username, safe='')}/password", reply=None)

    def api_keys(self) -> ApiKeyList:
        """Service accounts' API keys, live and revoked: never the key itself."""
        return self._call("GET", "/admin/api-keys", reply=ApiKeyList)

    def create_api_key(self, body: ApiKeyCreate) -> ApiKeyCreated:
        """A new key: the answer is the only time the key itself is shown."""
        return self._call("POST", "/admin/api-keys", body=body, reply=ApiKeyCreated)

    def revoke_api_key(self, key_id: int) -> ApiKeyInfo:
        return self._call("DELETE", f"/admin/api-keys/{int(key_id)}", reply=ApiKeyInfo)

    def queue_file(self) -> RunningQueueFile:
        """The running queue file as TOML, with its configuration version."""
        return self._call("GET", "/admin/queue-file", reply=RunningQueueFile)

    def queue_file_history(self) -> QueueFileHistory:
        """Every configuration version, newest first."""
        return self._call("GET", "/admin/queue-file/history", reply=QueueFileHistory)
