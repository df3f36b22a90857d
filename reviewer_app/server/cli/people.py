"""``reviewer-app server add-user``, ``set-password NAME`` and ``end-access NAME``: an
admin's hold on who may log in, from the command line (the same as ``PUT`` and ``DELETE
/users/{name}/password``, logged with no actor), and the password prompt they share with
``add-user``."""

from __future__ import annotations

import argparse
import getpass
import sys

from pydantic import ValidationError

from reviewer_app.protocol import PasswordSet, Role
from reviewer_app.protocol.common import describe_errors
from reviewer_app.server.cli.database import with_service
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service


def add_parsers(actions: argparse._SubParsersAction) -> None:
    add_user = actions.add_parser("add-user", help="create a user (password asked for)")
    add_user.add_argument("name")
    add_user.add_argument("--role", choices=[r.value for r in Role], default="reviewer")
    add_user.add_argument("--display-name", default=None)
    _password_stdin(add_user)
    change = actions.add_parser(
        "set-password",
        help="set a person's password (asked for); every session of theirs ends, and a "
        "person whose access was ended can log in again",
    )
    change.add_argument("name")
    _password_stdin(change)
    end = actions.add_parser(
        "end-access",
        help="end a person's access (someone who left, a leaked password): no password opens "
        "the account, every session ends, what they held goes back",
    )
    end.add_argument("name")


def _password_stdin(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )


def read_password(name: str, from_stdin: bool, command: str) -> str | None:
    """The password for ``name``: a line of standard input (``from_stdin``), else asked
    twice on the terminal; None (said on stderr) when there is none to read."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    if not sys.stdin.isatty():
        print(
            "The password is asked for on a terminal, and standard input is not one. To pipe\n"
            f"it in: ... | reviewer-app server {command} {name} --password-stdin",
            file=sys.stderr,
        )
        return None
    try:
        password = getpass.getpass(f"Password for {name}: ")
        again = getpass.getpass("Again: ")
    except (EOFError, KeyboardInterrupt):
        print("\nNo password given; nothing was changed.", file=sys.stderr)
        return None
    if again != password:
        print("The passwords differ; nothing was changed.", file=sys.stderr)
        return None
    return password


def run(settings: ServerSettings, args: argparse.Namespace) -> int:
    """``set-password`` or ``end-access``: 0 when done, 1 when refused, 2 for bad input."""
    password = ""
    if args.server_command == "set-password":
        read = read_password(args.name, args.password_stdin, "set-password")
        if read is None:
            return 2
        try:
            password = PasswordSet(password=read).password
        except ValidationError as exc:
            print(f"Cannot set that password: {describe_errors(exc)}", file=sys.stderr)
            return 2

    def work(service: Service) -> int:
        if args.server_command == "set-password":
            ended = service.set_password(args.name, password, None)
            print(f"Set the password of {args.name}; {ended} session(s) of theirs ended.")
        elif _access_ended(service, args.name):
            service.end_access(args.name, None)  # logs nothing again
            print(f"The access of {args.name} has already ended; nothing was changed.")
        else:
            ended = service.end_access(args.name, None)
            print(f"Ended the access of {args.name}; {ended} session(s) of theirs ended.")
        return 0

    # never makes a database (the account must be there), but writes to it
    return with_service(settings, work, read_only=True, writes=True)


def _access_ended(service: Service, name: str) -> bool:
    """Whether ``name`` is a person whose access has ended already (an unknown name: no,
    and ``end_access`` says so)."""
    return any(u.username == name and u.access_ended for u in service.list_users().users)
