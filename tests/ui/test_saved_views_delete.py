"""Saved views on the Search tab, as leads share them, against the real service: the list
was read once a session, so a colleague's shared view never appeared until the lead saved
or deleted one; Delete was offered on another lead's view, which the service refuses; it
deleted a view shared with the whole team at one click; and after a failed delete ("No
such view") the list still showed the view. Now the list is read again each time the tab
is shown, Delete is offered on the lead's own views only (an admin's: any, as the service
allows), a shared view is asked about first (Cancel the default), and a failed delete
reads the list again."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Role, SavedViewCreate, SearchKind, SearchQuery, SearchView
from reviewer_app.ui.lead.search import SearchPane
from reviewer_app.ui.plain import isolate
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_admin_desk import answer

COLLEAGUE = "lead-b"
ADMIN = "views-admin"


def save(server: LiveServer, user: tuple[str, str], name: str, *, shared: bool) -> int:
    """``user`` saves a search view over HTTP, as their own desk would; its id."""
    view = SearchView(search=SearchQuery(kind=SearchKind.text, q=name))
    with ApiClient(server.url) as client:
        client.login(*user)
        return client.save_view(SavedViewCreate(name=name, shared=shared, view=view)).id


def on_server(server: LiveServer, user: tuple[str, str]) -> set[str]:
    """The names of the views ``user`` sees on the service."""
    with ApiClient(server.url) as client:
        client.login(*user)
        return {v.name for v in client.saved_views().views}


def search_tab(desk: Desk) -> SearchPane:
    lead = desk.window.lead
    assert lead is not None
    with desk.qtbot.waitSignal(lead.search.views_loaded, timeout=30_000):
        desk.window.show_mode(1)
        lead.setCurrentWidget(lead.search)
    return lead.search


def reshow(desk: Desk) -> None:
    """Another tab, then the Search tab again."""
    lead = desk.window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.queues_view)
    lead.setCurrentWidget(lead.search)


def pick(pane: SearchPane, name: str) -> None:
    pane.picker.setCurrentIndex(next(i for i, v in enumerate(pane.views) if v.name == name))


def test_a_colleagues_shared_view_appears_when_the_tab_is_shown_again(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user(COLLEAGUE, Role.lead)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    pane = search_tab(desk)
    assert pane.views == []
    save(demo_server, (COLLEAGUE, PASSWORD), "Wave from b", shared=True)
    save(demo_server, LEAD, "Mine", shared=False)  # saved elsewhere (another desk of theirs)
    pick_before = pane.picker.currentIndex()
    reshow(desk)  # the call is on a pool thread: the tab shows at once
    desk.wait(lambda: {v.name for v in pane.views} == {"Wave from b", "Mine"})
    assert pane.picker.currentIndex() == pick_before == 0
    pick(pane, "Wave from b")
    save(demo_server, (COLLEAGUE, PASSWORD), "Another from b", shared=True)
    reshow(desk)
    desk.wait(lambda: len(pane.views) == 3)
    assert pane.views[pane.picker.currentIndex()].name == "Wave from b"  # still picked


def test_delete_only_on_ones_own_views_and_a_shared_one_is_asked_first(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user(COLLEAGUE, Role.lead)
    save(demo_server, (COLLEAGUE, PASSWORD), "Team view of b", shared=True)
    save(demo_server, LEAD, "Team view of mine", shared=True)
    save(demo_server, LEAD, "Private of mine", shared=False)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    pane = search_tab(desk)
    desk.wait(lambda: len(pane.views) == 3)

    pick(pane, "Team view of b")  # the service refuses it: not offered
    assert not pane.delete_button.isEnabled()
    pane.delete_button.click()
    desk.qtbot.wait(300)
    assert pane.confirmation is None and "Team view of b" in on_server(demo_server, LEAD)
    pick(pane, "Private of mine")
    assert pane.delete_button.isEnabled()

    # a view the team shares: asked first, Cancel the default; Cancel keeps it
    pick(pane, "Team view of mine")
    assert pane.delete_button.isEnabled()
    pane.delete_button.click()
    asked = answer(desk, pane, QMessageBox.StandardButton.Cancel)
    assert isolate("Team view of mine") in asked and "every lead" in asked
    desk.qtbot.wait(300)
    assert "Team view of mine" in on_server(demo_server, (COLLEAGUE, PASSWORD))
    pane.delete_button.click()
    answer(desk, pane, QMessageBox.StandardButton.Yes)
    desk.wait(lambda: "Team view of mine" not in {v.name for v in pane.views})
    assert "Team view of mine" not in on_server(demo_server, (COLLEAGUE, PASSWORD))

    # a private one goes at once: no one else has it
    pick(pane, "Private of mine")
    pane.delete_button.click()
    assert pane.confirmation is None
    desk.wait(lambda: [v.name for v in pane.views] == ["Team view of b"])


def test_an_admin_may_delete_another_leads_shared_view(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user(ADMIN, Role.admin)
    save(demo_server, LEAD, "Shared by the lead", shared=True)
    desk: Desk = desk_factory(demo_server.url, user=(ADMIN, PASSWORD))
    pane = search_tab(desk)
    desk.wait(lambda: len(pane.views) == 1)
    assert pane.delete_button.isEnabled()
    pane.delete_button.click()
    assert "lead" in answer(desk, pane, QMessageBox.StandardButton.Yes)
    desk.wait(lambda: pane.views == [])
    assert on_server(demo_server, LEAD) == set()


def test_a_failed_delete_reads_the_list_again(demo_server: LiveServer, desk_factory) -> None:
    view_id = save(demo_server, LEAD, "Gone meanwhile", shared=False)
    save(demo_server, LEAD, "Still here", shared=False)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    pane = search_tab(desk)
    desk.wait(lambda: len(pane.views) == 2)
    pick(pane, "Gone meanwhile")
    with ApiClient(demo_server.url) as other_desk:  # the lead's other desk deletes it
        other_desk.login(*LEAD)
        other_desk.delete_view(view_id)
    pane.delete_button.click()
    desk.wait(lambda: "No such view" in pane.status.text())
    desk.wait(lambda: [v.name for v in pane.views] == ["Still here"])
    assert "No such view" in pane.status.text()  # the list read again, the words stay
