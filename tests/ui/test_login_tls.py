"""A server whose certificate this computer does not trust: the login says so, with what
to do, and does not start offline as if the server could not be reached."""

from __future__ import annotations

import ssl

import trustme
from PySide6.QtCore import QSettings

from reviewer_app.core.credentials import Credentials
from reviewer_app.ui import preferences as P
from tests.support.keyring_memory import MemoryKeyring
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer


def test_an_untrusted_certificate_is_named_and_nothing_starts_offline(
    demo_server: LiveServer, qtbot, tmp_path
) -> None:
    from reviewer_app.ui.app import run_login

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    trustme.CA().issue_cert("127.0.0.1").configure_cert(context)  # an authority no one trusts
    front = FaultProxy(demo_server.port, tls=context).start()
    try:
        prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
        prefs.set(P.SERVER, front.url)
        prefs.set(P.USERNAME, "reviewer")
        windows: list[object] = []
        dialog = run_login(
            prefs, Credentials(MemoryKeyring()), windows.append, data_root=tmp_path / "data"
        )
        dialog.password.setText("review-desk-demo")
        dialog._on_login_clicked()
        qtbot.waitUntil(lambda: not dialog.error.isHidden(), timeout=20_000)
        said = dialog.error.text()
        assert "certificate is not trusted" in said and "IT" in said, said
        assert "cannot be reached" not in said
        assert windows == [] and dialog.isVisible()
        with qtbot.waitSignal(dialog.destroyed, timeout=5_000):
            dialog.close()  # gone before what it was made with (the preferences) is
    finally:
        front.stop()
