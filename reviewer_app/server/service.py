"""The queue service's operations, each in its own transaction. HTTP lives in ``http``."""

from __future__ import annotations

from reviewer_app.server.facade.accounts import AccountsFacade
from reviewer_app.server.facade.lead import LeadFacade
from reviewer_app.server.facade.platform import PlatformFacade
from reviewer_app.server.facade.review import ReviewFacade


class Service(ReviewFacade, LeadFacade, AccountsFacade, PlatformFacade):
    """The queue service: one object per process, each operation its own transaction
    (facade/: the operations by concern; domain/: what they do; storage/: the database)."""
