"""The Service's users, sessions, service accounts and API keys, and account actions."""

from __future__ import annotations

from sqlalchemy import Connection

from reviewer_app.protocol import (
    ApiKeyCreated,
    ApiKeyInfo,
    ProblemDetail,
    Role,
    SessionCreate,
    SessionInfo,
    User,
    UserCreate,
    UserList,
)
from reviewer_app.protocol.accounts import (
    AccountActionRequest,
    AccountActionResults,
    LinkedAccounts,
)
from reviewer_app.server.domain import access, account_links, accounts, apikeys, users
from reviewer_app.server.domain.records import Principal, append_events
from reviewer_app.server.facade.base import ServiceBase
from reviewer_app.server.problems import ApiError


class AccountsFacade(ServiceBase):
    """Users, sessions and keys (each call its own transaction)."""

    def create_user(self, new: UserCreate, actor: Principal | None = None) -> User:
        return users.create(self.db, self.hasher, new, self.clock(), actor)

    def list_users(self) -> UserList:
        return users.listing(self.db)

    def change_role(self, username: str, role: Role, actor: Principal) -> User:
        now = self.clock()
        return self._write_retrying(
            lambda conn: users.change_role(conn, username, role, actor, now)
        )

    def set_password(self, username: str, password: str, actor: str | None) -> int:
        """A person's new password (hashed before the transaction); their sessions end. How
        many ended."""
        hashed = self.hasher.hash(password)
        now = self.clock()
        return self._write_retrying(
            lambda conn: access.set_password(conn, actor, username, hashed, now)
        )

    def end_access(self, username: str, actor: str | None) -> int:
        """No password opens the person's account; their sessions end and what they held
        goes back. How many sessions ended."""
        now = self.clock()
        return self._write_retrying(lambda conn: access.end_access(conn, actor, username, now))

    def login(self, request: SessionCreate) -> SessionInfo:
        return users.login(self.db, self.hasher, self.settings, request, self.clock())

    def authenticate(self, token: str) -> Principal | None:
        """The caller a login token or an API key (``rdk_...``) stands for, if live."""
        return users.authenticate(self.db, token, self.clock())

    def service_account(self, name: str, role: Role, actor: str | None = None) -> Principal:
        """The service account (platform or fact_checker) ``name``, made if missing."""
        with self.db.read() as conn:
            found = users.principal(conn, name)
        if found is not None and found.role == role:
            return found
        return self._write_retrying(
            lambda conn: apikeys.service_account(conn, name, role, self.clock(), actor)
        )

    def create_api_key(
        self,
        role: Role,
        name: str,
        account: str | None = None,
        actor: str | None = None,
        display_name: str | None = None,
    ) -> ApiKeyCreated:
        """A new key for the service account ``account`` (default: ``name``), made if
        missing; ``display_name``: the account's name as people read it (a fact-checker's
        organisation). The answer is the only place the key ever is."""
        return self._write_retrying(
            lambda conn: apikeys.create(
                conn, role, name, account, self.clock(), actor, display_name
            )
        )

    def rotate_api_key(self, name: str, actor: str | None = None) -> ApiKeyCreated:
        """A second live key for the account of the live key ``name`` (see apikeys.rotate)."""
        with self.db.write() as conn:
            return apikeys.rotate(conn, name, self.clock(), actor)

    def revoke_api_key(self, key_id: int, actor: str | None = None) -> ApiKeyInfo:
        with self.db.write() as conn:
            return apikeys.revoke(conn, key_id, self.clock(), actor)

    def api_keys(self, *, include_revoked: bool = True) -> list[ApiKeyInfo]:
        with self.db.read() as conn:
            return apikeys.listing(conn, include_revoked=include_revoked)

    def logout(self, token: str) -> None:
        users.logout(self.db, token, self.clock())

    def linked_accounts(self, author_id: str) -> LinkedAccounts:
        """The author and the accounts linked to them (shared account signals)."""
        with self.db.read() as conn:
            return account_links.linked_accounts(conn, author_id)

    def account_action(
        self, lead: Principal, request: AccountActionRequest
    ) -> AccountActionResults:
        """One account action on each of the accounts, all in one transaction or none."""

        # the policies the statements of reasons cite: a lead names codes of any queue, and
        # a code of none would be cited as bare "terms of service" (no label, no clause)
        known = [p for config in self.configs().values() for p in config.policies]
        codes = {p.code for p in known}
        unknown = [(i, code) for i, code in enumerate(request.policies) if code not in codes]
        if unknown:
            raise ApiError(
                422,
                "unknown_policy",
                "Some policy codes are in no queue's configuration; no account action was applied.",
                errors=[
                    ProblemDetail(
                        loc=["policies", i],
                        code="unknown_policy",
                        message=f"Policy {code!r} is not one of any queue's.",
                    )
                    for i, code in unknown
                ],
            )

        def work(conn: Connection) -> AccountActionResults:
            results, events = accounts.lead_action(
                conn, lead, request, self.clock(), postgres=self.postgres, known_policies=known
            )
            append_events(conn, events)
            return AccountActionResults(results=results)

        return self._write_retrying(work)
