"""The post's six context tabs share a column narrower than their titles by cutting the
longest titles only: Qt cut every title alike, and at 1280 px they read "Why…ued", "A…r",
"Thr…(2)", "Rep…52)", "Fact-…s (0)" and "H…y"."""

from __future__ import annotations

from PySide6.QtWidgets import QTabBar

from reviewer_app.ui.context_panels import ContextPanels, share_cap


def test_the_longest_are_cut_first_and_the_short_stay_whole() -> None:
    assert share_cap([50, 60, 100], 210) == 100  # they fit: nothing is cut
    assert share_cap([50, 60, 100], 200) == 90  # only the longest gives up its 10
    assert share_cap([50, 60, 100], 160) == 55  # then the next longest too
    assert sum(min(w, share_cap([30, 80, 120, 45], 200)) for w in [30, 80, 120, 45]) <= 200


def test_context_tabs_cut_only_the_longest_titles(qtbot) -> None:
    panels = ContextPanels()
    qtbot.addWidget(panels)
    bar = panels.fitting_bar()
    for index, count in ((2, "(2)"), (3, "(52)"), (4, "(0)")):
        panels.setTabText(index, f"{panels.tabText(index)} {count}")
    natural = [QTabBar.tabSizeHint(bar, i).width() for i in range(bar.count())]
    shortest = sorted(range(bar.count()), key=lambda i: natural[i])[:2]  # Author, History
    panels.resize(sum(natural) - 60, 300)
    panels.show()
    qtbot.waitExposed(panels)
    widths = [bar.tabRect(i).width() for i in range(bar.count())]
    assert sum(widths) <= panels.width(), "every tab on screen"
    for i in shortest:
        assert widths[i] >= natural[i], f"{panels.tabText(i)!r} is whole"
    cut = [i for i in range(bar.count()) if widths[i] < natural[i]]
    assert cut and all(natural[i] >= max(natural[j] for j in shortest) for i in cut)
    panels.resize(sum(natural) + 20, 300)  # room again: every title whole
    qtbot.waitUntil(lambda: all(bar.tabRect(i).width() >= natural[i] for i in range(bar.count())))
