"""The queues overview's counted sentences (``stats_views.QueuesOverview``), each count in
its one or many form (``words.plural``)."""

from __future__ import annotations

from reviewer_app.protocol.accounts import HeldBack

from ..i18n import translate
from ..plain import whole
from ..words import plural


def held_back_words(held: HeldBack) -> str:
    """'Held back: 1 post of suspended or inauthentic accounts, not queued (1 in this
    window; 1 account actioned).'"""
    return translate(
        "LeadStats",
        "Held back: {posts} of suspended or inauthentic accounts, not queued "
        "({window} in this window; {accounts}).",
    ).format(
        posts=plural(translate("LeadStats", "%Ln post(s)"), held.posts),
        window=whole(held.posts_in_window),
        accounts=plural(translate("LeadStats", "%Ln account(s) actioned"), held.accounts),
    )
