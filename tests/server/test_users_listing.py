"""The users list says whose access was ended: an admin could not tell who still logs in
(End access stayed offered for someone who could not log in any more)."""

from __future__ import annotations

from reviewer_app.protocol import Role, UserList
from tests.support.api import ApiSession
from tests.support.servers import LiveServer


def ended(admin: ApiSession) -> dict[str, bool]:
    """Whose access was ended, as GET /users says."""
    listed = UserList.model_validate(admin.get("/users").json())
    return {u.username: u.access_ended for u in listed.users}


def test_the_users_list_says_whose_access_was_ended(live_server: LiveServer) -> None:
    admin = live_server.login("boss", Role.admin)
    live_server.add_user("rita")
    live_server.service.create_api_key(Role.platform, "bridge")
    assert ended(admin) == {"boss": False, "rita": False, "bridge": False}

    assert admin.request("DELETE", "/users/rita/password").status_code == 204
    # a service account has no password either, and is not "ended"
    assert ended(admin) == {"boss": False, "rita": True, "bridge": False}
    assert {u.username: u.access_ended for u in live_server.service.list_users().users}["rita"]

    # a role change keeps saying so; a password set again gives access back
    changed = admin.request("PUT", "/users/rita/role", json={"role": "lead"})
    assert changed.status_code == 200 and changed.json()["access_ended"] is True, changed.text
    back = admin.request("PUT", "/users/rita/password", json={"password": "back again, long"})
    assert back.status_code == 204, back.text
    assert ended(admin)["rita"] is False
