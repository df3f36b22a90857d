"""The reviewer's breaks not yet recorded by the service, kept here until it has them.

A break taken with no network (or whose end was not sent when the app closed) must reach
the service at the next start, as a verdict decided offline does. Each break is one
``meta`` row, ``break:<id>``, holding its latest state (its start, then its start and end)
as text the sync engine writes and reads (a ``BreakRecord`` as JSON), sealed like the
shift tally. The service keys a break by its id (a record sent twice is one break; its end
updates it), so the row leaves only once the service answered for that very state: an
end kept while the start was on its way stays, and goes next. No schema change: ``meta``
holds named rows; an older release leaves these alone.
"""

from __future__ import annotations

from .file import StoreFile

#: the prefix of the ``meta`` rows holding breaks not yet recorded by the service
BREAK_PREFIX = "break:"


class BreakStore(StoreFile):
    """Breaks kept until the service recorded them (``keep_break``, ``unsent_breaks``,
    ``break_sent``)."""

    def keep_break(self, key: str, text: str) -> None:
        """Keep a break's latest state (``text``) until the service has it (committed:
        once this returns it survives a killed app)."""
        name = f"{BREAK_PREFIX}{key}"
        self._set_meta(name, self._seal_text(f"meta.value:{name}", text))

    def unsent_breaks(self) -> list[tuple[str, str]]:
        """The breaks kept here, (id, text); in no particular order."""
        rows = self._read(
            "SELECT name, value FROM meta WHERE substr(name, 1, ?) = ? ORDER BY name",
            (len(BREAK_PREFIX), BREAK_PREFIX),
        )
        return [
            (name[len(BREAK_PREFIX) :], self._open_text(f"meta.value:{name}", value))
            for name, value in rows
        ]

    def break_sent(self, key: str, text: str) -> None:
        """The service recorded this break as ``text`` says: it leaves, unless a later
        state of it (its end) was kept meanwhile."""
        name = f"{BREAK_PREFIX}{key}"
        with self.transaction() as conn:
            row = conn.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
            if row is not None and self._open_text(f"meta.value:{name}", row[0]) == text:
                conn.execute("DELETE FROM meta WHERE name = ?", (name,))
