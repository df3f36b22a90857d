"""The review desk: a moderator review client and its reference queue service."""

__version__ = "0.1.0"
