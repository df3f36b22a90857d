"""Hostile text by Unicode property: every bidi control and default-ignorable code point is
marked where untrusted text is embedded and counted in the post's warning; classifier
highlights land on the intended characters whatever Qt does to CR LF and byte-order marks;
long thread and context texts are cut and the whole text stays reachable. Items come from the
real service; the texts are set on them as a reply could carry them."""

from __future__ import annotations

import random

import pytest
import regex

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Item
from reviewer_app.ui.context_panels import FIELD_LIMIT, ContextPanels
from reviewer_app.ui.longtext import CHUNK
from reviewer_app.ui.plain import FSI, PDI, hidden_count, isolate, marker
from reviewer_app.ui.post_pane import HIGHLIGHT, PostPane
from tests.support.servers import LiveServer
from tests.ui.hostile import BIDI_CONTROLS, IGNORABLE, invisible_strings

QUEUE = "misinformation"
EMOJI_JOINS = ("👩\u200d💻", "👨\u200d👩\u200d👧", "❤\ufe0f", "👩🏽\u200d🚀", "1\ufe0f\u20e3")


@pytest.fixture
def items(demo_server: LiveServer) -> list[Item]:
    with ApiClient(demo_server.url) as api:
        api.login("reviewer", "review-desk-demo")
        grant = api.claim(QUEUE, 3, 60)
        api.release([leased.lease_token for leased in grant.items])
    return [leased.item for leased in grant.items]


def test_every_bidi_control_and_invisible_character_is_marked_and_counted() -> None:
    assert len(IGNORABLE) > 4_000 and set(BIDI_CONTROLS) <= set(IGNORABLE) | {"\u061c"}
    for char in {*IGNORABLE, *BIDI_CONTROLS}:
        if char == "\ufeff":  # a leading BOM gets a U+2060 in front: marked as well
            continue
        shown = isolate(f"ab{char}cd")
        assert shown == f"{FSI}ab{marker(char)}cd{PDI}", hex(ord(char))
        assert hidden_count(f"ab{char}cd{char}") == 2, hex(ord(char))
    # the only raw bidi controls left are the isolate's own pair
    for text in invisible_strings():
        shown = isolate(text)
        assert not regex.search(r"[\p{Default_Ignorable_Code_Point}]", shown[1:-1])
        assert hidden_count(text) == len(text) - len(regex.sub(r"[^a]", "", text)) - 3
    # joiners and variation selectors inside an emoji make the emoji: left alone
    for emoji in EMOJI_JOINS:
        assert isolate(emoji) == FSI + emoji + PDI and hidden_count(emoji) == 0
    assert isolate("ad\u200dmin") == f"{FSI}ad{marker(chr(0x200D))}min{PDI}"


def test_a_leading_byte_order_mark_neither_vanishes_nor_swaps_the_string(qtbot) -> None:
    from PySide6.QtWidgets import QLabel

    from reviewer_app.ui.plain import set_text

    widget = QLabel()
    qtbot.addWidget(widget)
    for bom in ("\ufeff", "\ufffe"):
        set_text(widget, f"{bom}abc")  # Qt dropped one and byte-swapped the other
        assert widget.text() == f"\u2060{bom}abc"
        assert isolate(f"{bom}abc").endswith(
            f"{marker(bom) if bom == chr(0xFEFF) else bom}abc{PDI}"
        )


def test_the_posts_warning_counts_every_invisible_character(items: list[Item], qtbot) -> None:
    pane = PostPane()
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitExposed(pane)
    item = items[0]
    for text in invisible_strings():
        post = item.post.model_copy(update={"text": f"hello {text} world"})
        pane.show_item(item.model_copy(update={"post": post}), lambda _id: None)
        # counted right after the post is painted (a pass over the whole text)
        qtbot.waitUntil(
            lambda t=text: f"holds {hidden_count(t)} invisible" in pane.facts.text(), timeout=5_000
        )
        assert hidden_count(text) == sum(1 for c in text if c in set(IGNORABLE))


def highlighted(pane: PostPane) -> str:
    """The characters of the post box that carry the highlight, in order (fragment by
    fragment: a block's text and formats as Qt keeps them)."""
    out = []
    block = pane.text.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().background().color() == HIGHLIGHT:
                out.append(fragment.text())
            it += 1
        block = block.next()
    return "".join(out)


#: what Qt drops, merges or byte-swaps, and what takes two UTF-16 units: anywhere in a text
TRICKY = ("\r\n", "\ufeff", "\ufffe", "\r", "\u2028", "😀", "\U0001d573", "\ud800", "\n\r\n")


@pytest.mark.parametrize("where", ["start", "before", "inside", "after", "everywhere"])
def test_highlights_cover_exactly_the_flagged_characters(
    items: list[Item], qtbot, where: str
) -> None:
    pane = PostPane()
    qtbot.addWidget(pane)
    item = items[0]
    rng = random.Random(where)
    for tricky in TRICKY:
        for other in TRICKY:
            mix = rng.choice(TRICKY)
            head = {"start": tricky, "before": f"a {tricky} b{other} ", "everywhere": tricky + mix}
            target = f"FLAG{other}GED" if where in ("inside", "everywhere") else "FLAGGED"
            text = head.get(where, "plain ") + target + f" {tricky} tail{other}"
            start = text.index("FLAG")
            end = start + len(target)
            score = item.scores[0]
            span = {"start": start, "end": end, "label": "x"}
            scored = score.model_validate({**score.model_dump(), "spans": [span]})
            post = item.post.model_copy(update={"text": text})
            pane.show_item(
                item.model_copy(update={"post": post, "scores": [scored]}), lambda _id: None
            )
            want = regex.sub(r"[\r\n]", "", target).replace("\ud800", "\ufffd")
            want = want.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
            got = highlighted(pane)
            assert got.encode("utf-16-le", "surrogatepass") == want.encode(
                "utf-16-le", "surrogatepass"
            ), (where, tricky, other, text)


def test_a_long_thread_reply_is_cut_and_the_whole_text_stays_reachable(
    items: list[Item], qtbot
) -> None:
    item = items[1]
    words = " ".join("w" + str(n) for n in range(30_000))[:100_000]
    nospace = "N" * 100_000
    reply = item.thread.model_dump()
    template = {"author_handle": "someone", "language": "en", "created_at": item.enqueued_at}
    reply["replies"] = [
        {**template, "id": "r1", "text": words},
        {**template, "id": "r2", "text": nospace},
    ]
    reply["reply_count"] = 2
    thread = type(item.thread).model_validate(reply)
    panels = ContextPanels()
    qtbot.addWidget(panels)
    panels.resize(800, 500)
    panels.show()
    panels.show_item(item.model_copy(update={"thread": thread}))
    tab = next(i for i, (t, _r) in enumerate(panels.TABS) if t == "Thread")
    panels.setCurrentIndex(tab)
    shown = panels.boxes["Thread"].toPlainText()
    assert len(shown) < 3 * FIELD_LIMIT + 1_000, "the tab holds a cut, not 200,000 characters"
    assert words[:FIELD_LIMIT] in shown and words[FIELD_LIMIT:][:50] not in shown
    more = panels.more["Thread"]
    assert more.isVisible() and f"{2 * (100_000 - FIELD_LIMIT):,}" in more.text()
    more.click()
    qtbot.waitUntil(lambda: panels.filling is None, timeout=20_000)
    whole = panels.boxes["Thread"].toPlainText()
    assert max(len(line) for line in whole.split("\n")) <= CHUNK
    squeezed = "".join(whole.split())
    assert "".join(words.split()) in squeezed and nospace in squeezed
    assert not more.isVisible()
    panels.show_item(item)  # the next item: cut again, the button back if needed
    assert "N" * 3_000 not in panels.boxes["Thread"].toPlainText()


def test_a_long_post_shows_its_first_screen_at_once_and_the_rest_after_the_paint(
    items: list[Item], qtbot
) -> None:
    """More than a screen of text: the first screen (``first_screen``: what fills the box,
    with its highlights) is in the box when the post is painted; the rest, up to the display
    limit, and the highlights in it, right after that paint."""
    from reviewer_app.ui.post_pane import DISPLAY_LIMIT

    pane = PostPane()
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitExposed(pane)
    first = pane.text.first_screen()
    item = items[0]
    words = "".join(f"word{n} " for n in range(4_000))[: DISPLAY_LIMIT - 100] + "\u202e😀"
    early = words.index("word10 ")
    late = words.index("word1500 ")
    assert early + 6 < first < late
    score = item.scores[0]
    spans = [
        {"start": early, "end": early + 6, "label": "x"},
        {"start": late, "end": late + 8, "label": "x"},
    ]
    scored = score.model_validate({**score.model_dump(), "spans": spans})
    post = item.post.model_copy(update={"text": words})
    painted: list[tuple[int, str]] = []
    pane.text.first_painted.connect(
        lambda: painted.append((len(pane.text.toPlainText()), highlighted(pane)))
    )
    pane.show_item(item.model_copy(update={"post": post, "scores": [scored]}), lambda _id: None)
    assert len(pane.text.toPlainText()) == first and pane.text.filling
    qtbot.waitUntil(lambda: not pane.text.filling, timeout=5_000)
    assert painted == [(first, "word10")]
    assert pane.text.toPlainText() == words
    assert highlighted(pane) == "word10word1500"
    # a new post before the rest came: the old rest never lands in the new post's box
    pane.show_item(item.model_copy(update={"post": post}), lambda _id: None)
    pane.show_item(items[1], lambda _id: None)
    qtbot.wait(100)
    assert pane.text.toPlainText() == items[1].post.text[:first] or (
        pane.text.toPlainText() == items[1].post.text
    )


@pytest.mark.parametrize(
    "kind", ["words", "narrow letters", "paragraphs", "one long word", "wide letters"]
)
def test_the_first_screen_fills_the_box(items: list[Item], qtbot, kind: str) -> None:
    """What is in the box at the first paint of a long post covers the box to its bottom
    line whatever the text's letters (the rest comes right after that paint), and is no
    more than a few screens: in a box of the window's size, less than FIRST_SCREEN."""
    from reviewer_app.ui.post_pane import FIRST_SCREEN

    text = {
        "words": "".join(f"word{n} " for n in range(2_000)),
        "narrow letters": "il1.| " * 2_000,
        "paragraphs": "A short line.\n" * 1_000,
        "one long word": "i" * 9_000,
        "wide letters": "WM漢字" * 2_000,
    }[kind]
    pane = PostPane()
    qtbot.addWidget(pane)
    pane.resize(340, 560)  # the post pane of a 1280 x 860 window, about
    pane.show()
    qtbot.waitExposed(pane)
    box = pane.text
    # the post before it: the box as the pane's byline, facts and link leave it
    pane.show_item(items[1], lambda _id: None)
    qtbot.waitUntil(lambda: not box.filling)
    qtbot.wait(50)
    first = box.first_screen()
    assert first < FIRST_SCREEN, first
    at_paint: list[bool] = []

    def covered() -> None:  # more text than the box shows: it scrolls
        at_paint.append(box.verticalScrollBar().maximum() > 0)

    box.first_painted.connect(covered)
    post = items[0].post.model_copy(update={"text": text})
    pane.show_item(items[0].model_copy(update={"post": post, "scores": []}), lambda _id: None)
    assert len(box.toPlainText()) == first
    qtbot.waitUntil(lambda: not box.filling, timeout=5_000)
    assert at_paint == [True]
