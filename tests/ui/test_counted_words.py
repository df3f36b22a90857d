"""A count beside a noun takes the noun's one or many form (``words.plural``), in English
and in the catalogues: "1 post", never "1 posts"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from reviewer_app.protocol.accounts import HeldBack
from reviewer_app.ui import i18n
from reviewer_app.ui.context_panels import long
from reviewer_app.ui.lead.stats_words import held_back_words
from reviewer_app.ui.post_pane import PostPane


def test_held_back_posts_and_accounts_are_counted_each_in_its_form(qapp: QApplication) -> None:
    one = HeldBack(posts=1, posts_in_window=1, accounts=1)
    assert held_back_words(one) == (
        "Held back: 1 post of suspended or inauthentic accounts, not queued "
        "(1 in this window; 1 account actioned)."
    )
    many = HeldBack(posts=3, posts_in_window=2, accounts=2)
    assert held_back_words(many) == (
        "Held back: 3 posts of suspended or inauthentic accounts, not queued "
        "(2 in this window; 2 accounts actioned)."
    )


def test_a_cut_text_counts_what_it_left_out(qtbot) -> None:
    assert long("abcd", 3, None).endswith("(1 more character: Show the whole text)")
    assert long("abcde", 3, None).endswith("(2 more characters: Show the whole text)")
    pane = PostPane()
    qtbot.addWidget(pane)
    pane._warn_hidden("facts", 1)
    assert pane.facts.text().endswith("The text holds 1 invisible or direction-changing character.")


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("de", "1 Konto betroffen", "2 Konten betroffen"),
        ("es", "1 cuenta afectada", "2 cuentas afectadas"),
    ],
)
def test_the_catalogues_give_both_forms(
    qapp: QApplication, language: str, one: str, two: str
) -> None:
    installed = i18n.install_translators(qapp, language)
    try:
        words = held_back_words(HeldBack(posts=1, posts_in_window=1, accounts=1))
        more = held_back_words(HeldBack(posts=2, posts_in_window=1, accounts=2))
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert one in words and two in more
