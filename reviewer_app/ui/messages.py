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


@dataclass(frozen=True)
class Message:
    title: str
    detail: str
    next_step: str

    def text(self) -> str:
        return f"{self.title}\n{self.detail}\n{self.next_step}"


def describe(err: BaseException, *, during: str = "") -> Message:
    """The message for an error from the core (or anything else, as a last resort)."""
    where = f" while {during}" if during else ""
    if isinstance(err, AuthenticationRequired):
        if err.code in ("invalid_credentials", "bad_credentials", "wrong_password"):
            return Message(
                "Wrong user name or password.",
                str(err.problem.detail or err),
                "Check both and try again; after several failures the server makes you wait.",
            )
        return Message(
            "The server asks you to log in again.",
            str(err.problem.detail or err),
            "Log in again; your decisions are kept and sent once you are back.",
        )
    if isinstance(err, IncompatibleServer):
        return Message("This server speaks another version.", str(err), "Update the app.")
    if isinstance(err, ServiceUnavailable):
        wait = f" It asked to wait {err.retry_after:.0f} s." if err.retry_after else ""
        return Message(
            f"The server is busy or failing{where}.",
            f"{err}.{wait}",
            "Keep working: decisions are saved here and sent when it answers again.",
        )
    if isinstance(err, NetworkError):
        return Message(
            f"The server cannot be reached{where}.",
            str(err),
            "Check the server address and your network; decisions are saved here meanwhile.",
        )
    if isinstance(err, ProtocolError):
        return Message(
            f"The server sent a reply this app cannot use{where}.",
            str(err),
            "Nothing from it was used. If it keeps happening, tell your administrator.",
        )
    if isinstance(err, Forbidden):
        return Message(
            "Your account may not do this.",
            str(err.problem.detail or err),
            "Ask a lead or an administrator.",
        )
    if isinstance(err, ProblemError):
        return Message(f"The server refused{where}.", str(err), "See the reason above.")
    if isinstance(err, StoreError):
        return Message(
            "The local store cannot be written.",
            str(err),
            "Check free disk space and the data folder's permissions, then restart the app.",
        )
    return Message(
        f"Something went wrong{where}.",
        f"{type(err).__name__}: {err}",
        "Try again; if it keeps happening, restart the app and tell your administrator.",
    )
