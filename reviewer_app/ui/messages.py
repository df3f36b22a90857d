"""Every failure a reviewer can meet, in plain words, with what to do next.

The core's errors and events carry English messages, for logs and the command line; what
the reviewer reads is worded here, in their language, from the error's type or the
failure's code (``FailureKind``, ``KeyringProblem``). The only words from elsewhere are the
server's own reason for a refusal, shown as what the server said (data, never translated).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from reviewer_app.core.credentials import KeyringProblem
from reviewer_app.core.decision_csv import ExportCancelled
from reviewer_app.core.errors import (
    AuthenticationRequired,
    CertificateError,
    FailureKind,
    Forbidden,
    IncompatibleServer,
    LocalServiceFailed,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
    StoreUnreadable,
    UnsentVerdicts,
)
from reviewer_app.core.keyfile import KeyFileUnusable, WrongPassword
from reviewer_app.core.session import NothingSaved
from reviewer_app.core.store import AlreadyDecided, NothingToUndo

from .i18n import translate
from .plain import clean, isolate
from .words import plural

log = logging.getLogger("ui")

#: the most characters of the server's own reason shown
SERVER_WORDS_LIMIT = 300


@dataclass(frozen=True)
class Message:
    title: str
    detail: str
    next_step: str
    #: the server's own words about it (data: shown as they are), when it gave any
    server_said: str = ""

    def parts(self) -> list[str]:
        said = (
            translate("Messages", "The server said: “{reason}”").format(
                reason=isolate(self.server_said)
            )
            if self.server_said
            else ""
        )
        return [part for part in (self.title, self.detail, said, self.next_step) if part]

    def text(self) -> str:
        """One part a line (a message box, a status line that wraps)."""
        return "\n".join(self.parts())

    def line(self) -> str:
        """All on one line (a label in a row)."""
        return " ".join(self.parts())


def server_words(err: ProblemError) -> str:
    """The server's own reason, or "" when the problem document was made up here (a reply
    without one: its words are this client's, in English)."""
    if err.code == f"http_{err.status}":
        return ""
    words = clean(err.problem.detail or err.problem.title or "").strip()
    if len(words) > SERVER_WORDS_LIMIT:
        words = words[: SERVER_WORDS_LIMIT - 1] + "…"
    return words


def _from_server(err: BaseException, where: str) -> Message | None:
    """The message for a login the server wants, a server of another version, or a busy
    one; None for any other error."""
    if isinstance(err, AuthenticationRequired):
        if err.code in ("invalid_credentials", "bad_credentials", "wrong_password"):
            return Message(
                translate("Messages", "Wrong user name or password."),
                translate("Messages", "The server did not accept them."),
                translate(
                    "Messages",
                    "Check both and try again; after several failures the server makes you wait.",
                ),
            )
        return Message(
            translate("Messages", "The server asks you to log in again."),
            translate("Messages", "Your login has expired or was ended."),
            translate(
                "Messages", "Log in again; your decisions are kept and sent once you are back."
            ),
        )
    if isinstance(err, IncompatibleServer):
        return Message(
            translate("Messages", "This server speaks another version."),
            translate(
                "Messages",
                "This app and the server speak different versions of the review service, "
                "so they cannot work together.",
            ),
            translate("Messages", "Update the app."),
        )
    if isinstance(err, ServiceUnavailable):
        wait = (
            " "
            + translate("Messages", "It asked to wait {seconds} s.").format(
                seconds=f"{err.retry_after:.0f}"
            )
            if err.retry_after
            else ""
        )
        return Message(
            translate("Messages", "The server is busy or failing{where}.").format(where=where),
            translate("Messages", "It answered with the error HTTP {status}.").format(
                status=err.status
            )
            + wait,
            translate(
                "Messages", "Keep working: decisions are saved here and sent when it answers again."
            ),
        )
    return None


def _from_network(err: BaseException, where: str) -> Message | None:
    """The message for a server that cannot be reached, answers badly, or refuses; None
    for any other error."""
    if isinstance(err, CertificateError):
        return Message(
            translate("Messages", "The server's certificate is not trusted{where}.").format(
                where=where
            ),
            translate(
                "Messages",
                "It is not signed by an authority this computer trusts, has expired, or is "
                "made out to another address. Nothing was sent.",
            ),
            translate(
                "Messages",
                "Check the server address. If your organisation has its own certificate "
                "authority, ask IT to install it on this computer.",
            ),
        )
    if isinstance(err, NetworkError):
        return Message(
            translate("Messages", "The server cannot be reached{where}.").format(where=where),
            translate(
                "Messages",
                "No connection could be made, or it broke before the whole reply arrived.",
            ),
            translate(
                "Messages",
                "Check the server address and your network; decisions are saved here meanwhile.",
            ),
        )
    if isinstance(err, ProtocolError):
        return Message(
            translate("Messages", "The server sent a reply this app cannot use{where}.").format(
                where=where
            ),
            translate(
                "Messages",
                "The reply was cut off, too large, or not in the form the review service promises.",
            ),
            translate(
                "Messages",
                "Nothing from it was used. If it keeps happening, tell your administrator.",
            ),
        )
    if isinstance(err, Forbidden):
        return Message(
            translate("Messages", "Your account may not do this."),
            "",
            translate("Messages", "Ask a lead or an administrator."),
            server_words(err),
        )
    if isinstance(err, ProblemError):
        said = server_words(err)
        return Message(
            translate("Messages", "The server refused{where}.").format(where=where),
            ""
            if said
            else translate("Messages", "It answered with the error HTTP {status}.").format(
                status=err.status
            ),
            translate(
                "Messages", "Change what it refused and try again, or ask your administrator."
            ),
            said,
        )
    return None


def _local_service_failed(err: LocalServiceFailed) -> Message:
    """The demo's service, started by this app, did not serve (``reason``: its own words)."""
    if err.reason and err.timeout is None:
        stopped = translate("Messages", "The demo's service stopped: {reason}")
        again = translate("Messages", "Put right what it names, then start the demo again.")
        return Message(stopped.format(reason=isolate(err.reason)), "", again)
    return Message(
        translate("Messages", "The demo's service did not start.")
        if err.timeout is not None
        else translate(
            "Messages", "The demo's service stopped before it served (exit code {code})."
        ).format(code=err.exit_code),
        translate("Messages", "What it said is in the terminal the demo was started from."),
        translate(
            "Messages",
            "Start the demo from a terminal to read it; if another demo is running, close "
            "it first.",
        ),
    )


def _left_as_it_is(title: str, why: str) -> Message:
    """Saved work here that cannot be read (its store or its key file), left as it is."""
    return Message(
        title,
        why,
        translate(
            "Messages",
            "Log in when the server can be reached: the app starts a new store and keeps "
            "the old one aside for support.",
        ),
    )


def _from_here(err: BaseException) -> Message | None:
    """The message for this computer's errors (the store, its key, undo); None for any other."""
    from reviewer_app.core.errors import StoreInUse, StoreTooNew

    if isinstance(err, StoreUnreadable):
        return _left_as_it_is(
            translate("Messages", "The work saved on this computer cannot be read."),
            translate("Messages", "Its file is damaged or not this app's; it was left as it is."),
        )
    if isinstance(err, StoreTooNew | StoreInUse):
        return _store_too_new() if isinstance(err, StoreTooNew) else _store_in_use()
    if isinstance(err, StoreError):
        return Message(
            translate("Messages", "The local store cannot be written."),
            translate(
                "Messages",
                "The disk may be full, the data folder read-only, or the store in use by "
                "another copy of the app.",
            ),
            translate(
                "Messages",
                "Check free disk space and the data folder's permissions, then restart the app.",
            ),
        )
    if isinstance(err, LocalServiceFailed):
        return _local_service_failed(err)
    if isinstance(err, WrongPassword):
        return Message(
            translate("Messages", "This password does not open the work saved on this computer."),
            translate("Messages", "Nothing was changed."),
            translate("Messages", "Check it and try again."),
        )
    if isinstance(err, NothingSaved) and (err.before_encryption or err.key_missing):
        return _saved_work_not_opened(err)
    if isinstance(err, NothingSaved):
        return Message(
            translate("Messages", "You logged out on this computer.")
            if err.logged_out
            else translate(
                "Messages", "Nothing of yours is saved on this computer for this server."
            ),
            translate("Messages", "There is nothing to open without the server."),
            translate("Messages", "Log in when the server can be reached."),
        )
    if isinstance(err, KeyFileUnusable):
        return _left_as_it_is(
            translate("Messages", "The key of the work saved on this computer cannot be read."),
            translate(
                "Messages",
                "Its file is damaged or was written by another release; it was left as it is.",
            ),
        )
    if isinstance(err, NothingToUndo):
        return Message(
            translate(
                "Messages",
                "There is no verdict left to undo: the last one's undo window has passed.",
            ),
            "",
            "",
        )
    if isinstance(err, AlreadyDecided):
        return Message(
            translate("Messages", "This post is no longer waiting for a decision here."),
            translate("Messages", "It was decided already, or it left the worklist."),
            "",
        )
    if isinstance(err, UnsentVerdicts):
        return Message(
            (
                translate("Messages", "{n} verdicts saved here have not been sent yet.")
                if err.count != 1
                else translate("Messages", "1 verdict saved here has not been sent yet.")
            ).format(n=err.count),
            translate("Messages", "Clearing the local data now would lose them."),
            translate("Messages", "Connect to the server so they are sent, then try again."),
        )
    if isinstance(err, ExportCancelled):
        return _export_cancelled(err.rows)
    return None


def _export_cancelled(rows: int) -> Message:
    return Message(
        plural(
            QCoreApplication.translate(
                "Messages", "The export was cancelled after %Ln decision(s)."
            ),
            rows,
        ),
        translate("Messages", "What was written of it is incomplete."),
        "",
    )


def describe(err: BaseException, *, during: str = "") -> Message:
    """The message for an error from the core (or anything else, as a last resort)."""
    where = " " + translate("Messages", "while {during}").format(during=during) if during else ""
    for found in (_from_server(err, where), _from_network(err, where), _from_here(err)):
        if found is not None:
            return found
    log.warning("an unexpected error, shown in general words: %r", err)
    return Message(
        translate("Messages", "Something went wrong{where}.").format(where=where),
        translate("Messages", "The app met an error it did not expect; the log has the details."),
        translate(
            "Messages",
            "Try again; if it keeps happening, restart the app and tell your administrator.",
        ),
    )


# --- what the sync engine reports by code ------------------------------------------------


def failure(kind: FailureKind | str | None) -> FailureKind | None:
    """A failure code as sent through a signal (its string) back as the enum."""
    if kind is None or kind == "":
        return None
    try:
        return FailureKind(kind)
    except ValueError:
        return FailureKind.unexpected


def failure_sentence(kind: FailureKind | str | None) -> str:
    """What went wrong, as a sentence, from a failure code the sync engine sent (why it is
    offline, why a batch stopped)."""
    match failure(kind):
        case FailureKind.network:
            return translate("Messages", "The server cannot be reached.")
        case FailureKind.busy:
            return translate("Messages", "The server is busy or failing.")
        case FailureKind.bad_reply:
            return translate("Messages", "The server sent a reply this app cannot use.")
        case FailureKind.store:
            return translate("Messages", "The local store cannot be written.")
        case _:
            return translate("Messages", "Syncing with the server failed.")


def sync_problem(kind: FailureKind | str, item_id: str | None, queue_id: str | None) -> str:
    """A problem the sync engine reports (not a network state), as a sentence."""
    code = failure(kind)
    if code is FailureKind.bad_reply and item_id is not None:
        return translate(
            "Messages",
            "Post {item} from queue {queue} cannot be shown: the server sent it in a form "
            "this app refuses. It was left aside; tell your administrator.",
        ).format(item=item_id, queue=queue_id or "?")
    if code is FailureKind.store:
        message = describe(StoreError())
        return f"{message.title} {message.next_step}"
    return translate(
        "Messages",
        "Syncing stopped on an unexpected error. Your decisions are kept; restart the app, "
        "and if it happens again, tell your administrator.",
    )


def offline_batch_ended(done: int, total: int, kind: FailureKind | str | None) -> str:
    """The end of a "work offline" batch: ready, short, or stopped by a failure."""
    code = failure(kind)
    if code is not None:
        stopped = translate(
            "Messages", "Leasing for offline work stopped after {done} of {total} posts."
        ).format(done=done, total=total)
        return f"{stopped} {failure_sentence(code)}"
    if done < total:
        return translate(
            "Messages",
            "Only {done} of {total} items could be leased: the queue has no more for you, or "
            "you reached the server's limit of items held at once.",
        ).format(done=done, total=total)
    return plural(
        QCoreApplication.translate(
            "Messages", "Ready to work offline: %Ln post(s) on this computer."
        ),
        done,
    )


def keyring_reason(problem: KeyringProblem | None, culprit: str | None) -> str:
    """Why the login is kept for this session only (``Saved.problem``), in words."""
    name = culprit or "?"
    match problem:
        case KeyringProblem.memory_only:
            return translate("Messages", "this session keeps its login in memory only")
        case KeyringProblem.no_keyring:
            return translate("Messages", "no keyring service is available on this system")
        case KeyringProblem.unsafe:
            return translate("Messages", "the keyring backend {name} is not a safe store").format(
                name=name
            )
        case KeyringProblem.unusable:
            return translate("Messages", "the keyring backend cannot be used ({name})").format(
                name=name
            )
        case KeyringProblem.refused:
            return translate("Messages", "the keyring refused to keep it ({name})").format(
                name=name
            )
        case _:
            return translate("Messages", "the keyring failed ({name})").format(name=name)


def store_moved_aside(path: Path) -> str:
    """The local store was damaged, foreign or locked with another key and was moved aside."""
    return translate(
        "Messages",
        "The local store could not be used (it was damaged, not this app's, or locked with "
        "another key). It was moved aside to {path} and a new, empty store was started. "
        "Verdicts that were in the old file and not yet sent are still in it; ask support "
        "before deleting it.",
    ).format(path=path)


# --- working with no network --------------------------------------------------------------


def offline_start(unsent: int, posts: int) -> str:
    """What a start with no network found on this computer (said by the login dialog and
    the window)."""
    verdicts = (
        translate("Messages", "{n} saved verdicts")
        if unsent != 1
        else translate("Messages", "1 saved verdict")
    ).format(n=unsent)
    items = (
        translate("Messages", "{n} posts") if posts != 1 else translate("Messages", "1 post")
    ).format(n=posts)
    return translate(
        "Messages", "The server cannot be reached: working offline with {verdicts} and {posts}."
    ).format(verdicts=verdicts, posts=items)


def offline_opening() -> str:
    """While a start with no network opens what this computer keeps."""
    return translate(
        "Messages", "The server cannot be reached: opening the work saved on this computer…"
    )


def offline_wrong_password() -> str:
    """A start with no network whose password does not open the saved work (nothing was
    changed)."""
    return translate(
        "Messages",
        "The server cannot be reached, and this password does not open the work saved on "
        "this computer. Nothing was changed: check the password and try again.",
    )


def saved_work_waits(reason: str) -> str:
    """A login whose earlier work here is kept under the keyring's key, which the keyring
    cannot give now: that work is left as it is, and this session keeps nothing on disk."""
    return translate(
        "Messages",
        "Your work saved on this computer earlier (with any verdicts not yet sent) is locked "
        "with a key the keyring holds, and the keyring cannot be read now ({reason}). It is "
        "left as it is: log in again once the keyring is available (unlocked, or after "
        "signing in to the desktop again) and it is sent then. Until then nothing you review "
        "is kept on this computer.",
    ).format(reason=reason)


def offline_nothing_saved(err: NothingSaved) -> str:
    """A start with no network that finds nothing it may open."""
    if err.before_encryption or err.key_missing:  # kept here, but not to be opened now
        return _saved_work_not_opened(err).line()
    if err.keyring is not None:
        return translate(
            "Messages",
            "The server cannot be reached, and your work saved on this computer is locked "
            "with a key the keyring holds, which cannot be read now ({reason}). Nothing was "
            "changed: try again once the keyring is available or the network is back.",
        ).format(reason=keyring_reason(*err.keyring))
    if err.logged_out:
        return translate(
            "Messages",
            "The server cannot be reached, and you logged out on this computer, so working "
            "offline needs a login first. Verdicts you had not sent are kept; try again when "
            "the network is back.",
        )
    return translate(
        "Messages",
        "The server cannot be reached, and nothing of yours is saved on this computer for "
        "this server, so there is nothing to work on offline. Try again when the network is "
        "back.",
    )


def pending_words(pending: int, held: int) -> str:
    """The status bar's count of verdicts not yet sent, and why some wait."""
    if not held:
        return plural(translate("Messages", "%Ln pending"), pending)
    if held == 1 and pending == 1:
        return translate("Messages", "1 pending: the post is held by another reviewer; retrying")
    return translate("Messages", "{n} pending: {held} held by other reviewers; retrying").format(
        n=pending, held=held
    )


def held_until_words(held: int, until: str | None) -> str:
    """The tooltip of a count with verdicts that wait for another reviewer's hold."""
    if not held:
        return ""
    text = translate(
        "Messages",
        "Another reviewer holds the post: your verdict is sent again until it counts "
        "(they let the post go) or comes back as a conflict (they decided it).",
    )
    if until:
        text += " " + translate("Messages", "Their hold ends at {time} unless renewed.").format(
            time=until
        )
    return text


def bad_address(address: str) -> str:
    """A server address that is not one (what ``normalise_server_url`` refuses)."""
    return translate("Messages", "“{address}” is not a usable server address.").format(
        address=clean(address)
    )


def _store_too_new() -> Message:
    """The store here is a newer release's (``StoreTooNew``): left as it is, unread."""
    return Message(
        translate("Messages", "Your saved work was written by a newer release of the app."),
        translate("Messages", "This release of the app cannot open it; nothing was changed."),
        translate("Messages", "Update the app, then log in: your saved work is kept as it is."),
    )


def _store_in_use() -> Message:
    """The store here is open in another copy of the app (``StoreInUse``)."""
    return Message(
        translate("Messages", "This account's saved work is open in another copy of the app."),
        translate("Messages", "One copy at a time works with it; nothing was changed."),
        translate("Messages", "Switch to that window, or close it and log in here again."),
    )


def _saved_work_not_opened(err: NothingSaved) -> Message:
    """Saved work here a start with no network may not open: a store of a release before
    encryption (``before_encryption``), or one whose key left the keyring (``key_missing``)."""
    if err.before_encryption:
        return Message(
            translate("Messages", "Your saved work is from an earlier release, before encryption."),
            translate("Messages", "It is kept as it is, with any verdicts not yet sent."),
            translate("Messages", "Log in once online to upgrade it; it then opens offline too."),
        )
    return Message(
        translate("Messages", "Your saved work is on this computer, but its key is missing."),
        translate("Messages", "The keyring no longer holds it; nothing was changed."),
        translate("Messages", "Log in online meanwhile; the saved work waits for its key."),
    )
