"""A tooltip shows an untrusted string's bidi marks, embeddings and overrides as markers, as
``isolate`` does in labels: a link preview's URL "https://bank.example/login" + U+202E +
"gnp.exe" was shown as ".../loginexe.png". The isolates ``isolate`` wraps a string in stay
(they reorder nothing outside them), and so does text in right-to-left scripts."""

from __future__ import annotations

from reviewer_app.ui.plain import FSI, PDI, isolate, marker, tooltip


def test_a_tooltip_shows_reordering_controls_as_markers() -> None:
    spoof = "https://bank.example/login\u202egnp.exe"
    assert "\u202e" not in tooltip(spoof)
    assert f"login{marker(chr(0x202E))}gnp.exe" in tooltip(spoof)
    for control in ("\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d"):
        assert control not in tooltip(f"a{control}b"), hex(ord(control))


def test_a_tooltip_keeps_isolates_and_right_to_left_text() -> None:
    handle = isolate("@leila_lens")
    assert tooltip(handle).count(FSI) == 1 and tooltip(handle).count(PDI) == 1
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # its ZWNJ belongs to it
    assert persian in tooltip(persian)
    assert "&lt;b&gt;" in tooltip("<b>bold</b>"), "still escaped"
