"""Every failure a reviewer can meet, in plain words, with what to do next."""

from __future__ import annotations

from dataclasses import dataclass

from reviewer_app.core.errors import (
    AuthenticationRequired,
    Forbidden,
    IncompatibleServer,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
)

from .i18n import translate


@dataclass(frozen=True)
class Message:
    title: str
    detail: str
    next_step: str

    def text(self) -> str:
        return f"{self.title}\n{self.detail}\n{self.next_step}"


def describe(err: BaseException, *, during: str = "") -> Message:
    """The message for an error from the core (or anything else, as a last resort)."""
    where = " " + translate("Messages", "while {during}").format(during=during) if during else ""
    if isinstance(err, AuthenticationRequired):
        if err.code in ("invalid_credentials", "bad_credentials", "wrong_password"):
            return Message(
                translate("Messages", "Wrong user name or password."),
                str(err.problem.detail or err),
                translate(
                    "Messages",
                    "Check both and try again; after several failures the server makes you wait.",
                ),
            )
        return Message(
            translate("Messages", "The server asks you to log in again."),
            str(err.problem.detail or err),
            translate(
                "Messages", "Log in again; your decisions are kept and sent once you are back."
            ),
        )
    if isinstance(err, IncompatibleServer):
        return Message(
            translate("Messages", "This server speaks another version."),
            str(err),
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
            f"{err}.{wait}",
            translate(
                "Messages", "Keep working: decisions are saved here and sent when it answers again."
            ),
        )
    if isinstance(err, NetworkError):
        return Message(
            translate("Messages", "The server cannot be reached{where}.").format(where=where),
            str(err),
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
            str(err),
            translate(
                "Messages",
                "Nothing from it was used. If it keeps happening, tell your administrator.",
            ),
        )
    if isinstance(err, Forbidden):
        return Message(
            translate("Messages", "Your account may not do this."),
            str(err.problem.detail or err),
            translate("Messages", "Ask a lead or an administrator."),
        )
    if isinstance(err, ProblemError):
        return Message(
            translate("Messages", "The server refused{where}.").format(where=where),
            str(err),
            translate("Messages", "See the reason above."),
        )
    if isinstance(err, StoreError):
        return Message(
            translate("Messages", "The local store cannot be written."),
            str(err),
            translate(
                "Messages",
                "Check free disk space and the data folder's permissions, then restart the app.",
            ),
        )
    return Message(
        translate("Messages", "Something went wrong{where}.").format(where=where),
        f"{type(err).__name__}: {err}",
        translate(
            "Messages",
            "Try again; if it keeps happening, restart the app and tell your administrator.",
        ),
    )
