<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>Accounts</name>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>warned</source>
        <translation>verwarnt</translation>
    </message>
    <message>
        <source>restricted</source>
        <translation>eingeschränkt</translation>
    </message>
    <message>
        <source>suspended</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>marked inauthentic</source>
        <translation>als unecht markiert</translation>
    </message>
    <message>
        <source>Suspend</source>
        <extracomment>the lead&apos;s account actions, in the order the menu offers them</extracomment>
        <translation>Sperren</translation>
    </message>
    <message>
        <source>Mark inauthentic</source>
        <translation>Als unecht markieren</translation>
    </message>
    <message>
        <source>Restrict</source>
        <translation>Einschränken</translation>
    </message>
    <message>
        <source>Warn</source>
        <translation>Verwarnen</translation>
    </message>
    <message>
        <source>⚠ Author warned</source>
        <translation>⚠ Autor verwarnt</translation>
    </message>
    <message>
        <source>⚠ Author restricted</source>
        <translation>⚠ Autor eingeschränkt</translation>
    </message>
    <message>
        <source>⛔ Author suspended</source>
        <translation>⛔ Autor gesperrt</translation>
    </message>
    <message>
        <source>⛔ Author marked inauthentic</source>
        <translation>⛔ Autor als unecht markiert</translation>
    </message>
    <message>
        <source>the author was marked inauthentic</source>
        <translation>der Autor wurde als unecht markiert</translation>
    </message>
    <message>
        <source>the author was suspended</source>
        <translation>der Autor wurde gesperrt</translation>
    </message>
    <message>
        <source>the author was suspended or marked inauthentic</source>
        <translation>der Autor wurde gesperrt oder als unecht markiert</translation>
    </message>
    <message>
        <source>Each account is one account-level decision and one action sent to the platform. Their open items close in every queue without a verdict; reviewers holding one are told why. Their new posts will not be queued.</source>
        <translation>Jedes Konto ist eine Entscheidung auf Kontoebene und eine an die Plattform gesendete Maßnahme. Ihre offenen Einträge werden in allen Warteschlangen ohne Entscheidung geschlossen; wer einen davon hält, erfährt warum. Ihre neuen Beiträge kommen in keine Warteschlange.</translation>
    </message>
    <message>
        <source>Each account is one account-level decision and one action sent to the platform. Their open items stay in review.</source>
        <translation>Jedes Konto ist eine Entscheidung auf Kontoebene und eine an die Plattform gesendete Maßnahme. Ihre offenen Einträge bleiben in der Prüfung.</translation>
    </message>
    <message>
        <source>%Ln account(s)</source>
        <translation>%Ln Konto|%Ln Konten</translation>
    </message>
    <message>
        <source>%Ln open item(s)</source>
        <translation>%Ln offener Eintrag|%Ln offene Einträge</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln Warteschlange|%Ln Warteschlangen</translation>
    </message>
    <message>
        <source>Suspend {accounts} ({items} in {queues})?</source>
        <translation>{accounts} sperren ({items} in {queues})?</translation>
    </message>
    <message>
        <source>Mark {accounts} inauthentic ({items} in {queues})?</source>
        <translation>{accounts} als unecht markieren ({items} in {queues})?</translation>
    </message>
    <message>
        <source>Restrict {accounts}?</source>
        <translation>{accounts} einschränken?</translation>
    </message>
    <message>
        <source>Warn {accounts}?</source>
        <translation>{accounts} verwarnen?</translation>
    </message>
    <message>
        <source>{action}: {accounts} done; {items} closed.</source>
        <translation>{action}: {accounts} erledigt; {items} geschlossen.</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Open items</source>
        <translation>Offene Einträge</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Warteschlangen</translation>
    </message>
    <message>
        <source>Linked accounts</source>
        <extracomment>the lead asked for the author&apos;s open posts to decide together (author id, and whether the linked accounts&apos; posts come too)</extracomment>
        <translation>Verknüpfte Konten</translation>
    </message>
    <message>
        <source>Accounts sharing signals with this author</source>
        <extracomment>the linked accounts being fetched (for the author shown): dropped when it changes</extracomment>
        <translation>Konten, die Signale mit diesem Autor teilen</translation>
    </message>
    <message>
        <source>No linked accounts.</source>
        <translation>Keine verknüpften Konten.</translation>
    </message>
    <message>
        <source>Account action</source>
        <translation>Kontomaßnahme</translation>
    </message>
    <message>
        <source>Note on the account action</source>
        <translation>Notiz zur Kontomaßnahme</translation>
    </message>
    <message>
        <source>Note (why these accounts)</source>
        <translation>Notiz (warum diese Konten)</translation>
    </message>
    <message>
        <source>Apply to the checked accounts…</source>
        <translation>Auf die markierten Konten anwenden…</translation>
    </message>
    <message>
        <source>Apply the account action</source>
        <translation>Die Kontomaßnahme anwenden</translation>
    </message>
    <message>
        <source>Account action result</source>
        <translation>Ergebnis der Kontomaßnahme</translation>
    </message>
    <message>
        <source>All open posts by this author…</source>
        <translation>Alle offenen Beiträge dieses Autors…</translation>
    </message>
    <message>
        <source>Decide this author&apos;s open posts together</source>
        <translation>Offene Beiträge dieses Autors gemeinsam entscheiden</translation>
    </message>
    <message>
        <source>…and the linked accounts&apos;</source>
        <translation>…und die der verknüpften Konten</translation>
    </message>
    <message>
        <source>Decide the open posts of this author and the linked accounts</source>
        <translation>Offene Beiträge dieses Autors und der verknüpften Konten entscheiden</translation>
    </message>
    <message>
        <source>loading the linked accounts</source>
        <translation>Laden der verknüpften Konten</translation>
    </message>
    <message>
        <source>Nothing was applied: {accounts} already {status} or beyond. Uncheck them and try again.</source>
        <translation>Nichts wurde angewendet: {accounts} bereits {status} oder weiter. Entfernen Sie die Markierung und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Applying the account action…</source>
        <translation>Die Kontomaßnahme wird angewendet…</translation>
    </message>
    <message>
        <source>Nothing was applied.</source>
        <translation>Nichts wurde angewendet.</translation>
    </message>
    <message>
        <source>applying the account action</source>
        <translation>Anwenden der Kontomaßnahme</translation>
    </message>
    <message>
        <source>Account status: {status}</source>
        <translation>Kontostatus: {status}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Review desk</source>
        <extracomment>Set (to anything) for startup benchmarks: at the first paint of a post the window prints ``first-post-painted &lt;time.time()&gt;`` on stdout and the app quits (benchmarks/ui_latency.py). Qt&apos;s cap on the memory one image may take while decoding (its default is 256 MB). How long a Python thread may keep the GIL while another waits for it (Python&apos;s default is 5 ms). The GUI thread calls into Python for every cell a view paints; while a worker parses a page of decisions, 5 ms waits added up to frames of 20-40 ms (benchmarks/lead_browser.py); at 1 ms the longest stall stays under 16 ms. what a login that failed this way falls back on: the work saved on this computer</extracomment>
        <translation>Prüfpult</translation>
    </message>
    <message>
        <source>Nothing you review is kept on this computer: offline work is unavailable, and verdicts not yet sent are lost if the app stops before they are sent.</source>
        <translation>Nichts, was Sie prüfen, wird auf diesem Computer gespeichert: Offline-Arbeit ist nicht möglich, und noch nicht gesendete Entscheidungen gehen verloren, wenn die App vor dem Senden beendet wird.</translation>
    </message>
    <message>
        <source>Your login is kept for this session only ({reason}); you will be asked to log in again next time.</source>
        <translation>Ihre Anmeldung gilt nur für diese Sitzung ({reason}); beim nächsten Mal müssen Sie sich erneut anmelden.</translation>
    </message>
    <message>
        <source>Your work on this computer is encrypted with a key that only your password opens, so you can work offline and start the app without a network.</source>
        <translation>Ihre Arbeit auf diesem Computer ist mit einem Schlüssel verschlüsselt, den nur Ihr Passwort öffnet; Sie können also offline arbeiten und die App ohne Netzwerk starten.</translation>
    </message>
    <message>
        <source>Write it like {example}</source>
        <translation>Schreiben Sie sie wie {example}</translation>
    </message>
    <message>
        <source>logging in</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>Your saved work was left as it is; log in again to open it.</source>
        <translation>Ihre gespeicherte Arbeit wurde unverändert gelassen; melden Sie sich erneut an, um sie zu öffnen.</translation>
    </message>
    <message>
        <source>Starting the review desk</source>
        <translation>Die Prüfstelle startet</translation>
    </message>
    <message>
        <source>Logging in to {server} as {user}…</source>
        <translation>Anmeldung bei {server} als {user}…</translation>
    </message>
    <message>
        <source>What the app is doing</source>
        <translation>Was die App gerade tut</translation>
    </message>
    <message>
        <source>Logging in</source>
        <translation>Anmeldung</translation>
    </message>
    <message>
        <source>logging in to the demo server</source>
        <translation>Anmelden am Demo-Server</translation>
    </message>
</context>
<context>
    <name>Bulk</name>
    <message>
        <source>Decided or taken by someone else meanwhile: %Ln post(s).</source>
        <translation>Inzwischen von jemand anderem entschieden oder übernommen: %Ln Beitrag.|Inzwischen von jemand anderem entschieden oder übernommen: %Ln Beiträge.</translation>
    </message>
    <message>
        <source>The service refused the request itself: {why}</source>
        <translation>Der Dienst hat die Anfrage selbst abgelehnt: {why}</translation>
    </message>
    <message>
        <source>Bulk decision refused</source>
        <translation>Gemeinsame Entscheidung abgelehnt</translation>
    </message>
    <message>
        <source>A bulk decision on %Ln post(s) was refused.</source>
        <translation>Eine gemeinsame Entscheidung über %Ln Beitrag wurde abgelehnt.|Eine gemeinsame Entscheidung über %Ln Beiträge wurde abgelehnt.</translation>
    </message>
    <message>
        <source>Open them again to decide together with the same action, policies and note: the posts taken meanwhile are unchecked, the rest can be decided.</source>
        <translation>Öffnen Sie sie erneut, um mit derselben Aktion, denselben Richtlinien und derselben Notiz gemeinsam zu entscheiden: Die inzwischen übernommenen Beiträge sind abgewählt, der Rest kann entschieden werden.</translation>
    </message>
    <message>
        <source>Open them again…</source>
        <translation>Erneut öffnen…</translation>
    </message>
    <message>
        <source>sending the bulk decision</source>
        <extracomment>seconds before a bulk that could not be sent (network, busy service) is tried again bulk id, its posts, why: its first failure in a row (said once, not every retry) held bulks: id -&gt; the furthest ahead its due time can be (its window, a retry&apos;s)</extracomment>
        <translation>Senden der gemeinsamen Entscheidung</translation>
    </message>
    <message>
        <source>Post</source>
        <extracomment>actions a bulk decision does not offer: appeals are decided one by one</extracomment>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Not decided because</source>
        <translation>Nicht entschieden, weil</translation>
    </message>
    <message>
        <source>Decide together</source>
        <translation>Gemeinsam entscheiden</translation>
    </message>
    <message>
        <source>What this list is</source>
        <translation>Was diese Liste zeigt</translation>
    </message>
    <message>
        <source>Posts to decide together</source>
        <translation>Gemeinsam zu entscheidende Beiträge</translation>
    </message>
    <message>
        <source>Action for every checked post</source>
        <translation>Aktion für jeden markierten Beitrag</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>Richtlinien</translation>
    </message>
    <message>
        <source>Note on every decision</source>
        <translation>Notiz zu jeder Entscheidung</translation>
    </message>
    <message>
        <source>Note (why these posts go together)</source>
        <translation>Notiz (warum diese Beiträge zusammengehören)</translation>
    </message>
    <message>
        <source>Decide…</source>
        <translation>Entscheiden…</translation>
    </message>
    <message>
        <source>Decide the checked posts</source>
        <translation>Markierte Beiträge entscheiden</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Undo the bulk decision</source>
        <translation>Gemeinsame Entscheidung rückgängig machen</translation>
    </message>
    <message>
        <source>Bulk decision status</source>
        <translation>Status der gemeinsamen Entscheidung</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Policies (those every queue has)</source>
        <translation>Richtlinien (die jede Warteschlange hat)</translation>
    </message>
    <message>
        <source>Who reads the note</source>
        <translation>Wer die Notiz liest</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons)</source>
        <translation>Was die Autorin oder der Autor lesen wird (Begründung)</translation>
    </message>
    <message>
        <source>The note is shared in {queues}: it is sent to the author of every post in the statement of reasons, and published in the DSA Transparency Database. What each author will read:</source>
        <translation>Die Notiz wird in {queues} geteilt: Sie geht in der Begründung an die Autorin oder den Autor jedes Beitrags und wird in der DSA-Transparenzdatenbank veröffentlicht. Was jede Autorin und jeder Autor lesen wird:</translation>
    </message>
    <message>
        <source>At most {max} posts can be decided together: {n} are checked. Uncheck {over} of them, or decide them in parts.</source>
        <translation>Höchstens {max} Beiträge können gemeinsam entschieden werden: {n} sind angehakt. Entfernen Sie bei {over} davon den Haken oder entscheiden Sie sie in Teilen.</translation>
    </message>
    <message>
        <source>Check at least one policy for this action.</source>
        <translation>Mindestens eine Richtlinie für diese Aktion markieren.</translation>
    </message>
    <message>
        <source>Write a note: this action needs one.</source>
        <translation>Eine Notiz schreiben: Diese Aktion erfordert eine.</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln Beitrag|%Ln Beiträge</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln Warteschlange|%Ln Warteschlangen</translation>
    </message>
    <message>
        <source>{action}: {posts} in {queues} ({names})?</source>
        <translation>{action}: {posts} in {queues} ({names})?</translation>
    </message>
    <message>
        <source>Nothing was decided: the request is not valid ({what}).</source>
        <translation>Nichts wurde entschieden: Die Anfrage ist ungültig ({what}).</translation>
    </message>
    <message>
        <source>Sending %Ln decision(s) in {s} s… (Undo takes them back)</source>
        <translation>%Ln Entscheidung wird in {s} s gesendet… (Rückgängig nimmt sie zurück)|%Ln Entscheidungen werden in {s} s gesendet… (Rückgängig nimmt sie zurück)</translation>
    </message>
    <message>
        <source>Those posts are marked below and unchecked.</source>
        <translation>Diese Beiträge sind unten markiert und abgewählt.</translation>
    </message>
    <message>
        <source>The posts it names are marked below and stay checked: change the action, policies or note as it says (or uncheck them), and decide again.</source>
        <translation>Die genannten Beiträge sind unten markiert und bleiben ausgewählt: Ändern Sie Aktion, Richtlinien oder Notiz wie angegeben (oder wählen Sie sie ab) und entscheiden Sie erneut.</translation>
    </message>
    <message>
        <source>Decide again to decide the rest.</source>
        <translation>Entscheiden Sie erneut, um den Rest zu entscheiden.</translation>
    </message>
    <message>
        <source>Each post becomes its own decision, with its own action sent to the platform. They are sent in {seconds} s; until then you can undo. If any of them was decided or taken by someone else meanwhile, none is decided.</source>
        <translation>Jeder Beitrag wird zu einer eigenen Entscheidung, deren Aktion einzeln an die Plattform gesendet wird. Sie werden in {seconds} s gesendet; bis dahin lässt sich alles rückgängig machen. Wurde einer davon inzwischen von jemand anderem entschieden oder übernommen, wird keiner entschieden.</translation>
    </message>
    <message>
        <source>Decide</source>
        <translation>Entscheiden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Too late to undo: the decisions are being sent.</source>
        <translation>Zu spät zum Rückgängigmachen: Die Entscheidungen werden gesendet.</translation>
    </message>
    <message>
        <source>Undone: nothing was sent.</source>
        <translation>Rückgängig gemacht: Nichts wurde gesendet.</translation>
    </message>
    <message>
        <source>Sending the decisions…</source>
        <translation>Entscheidungen werden gesendet…</translation>
    </message>
    <message>
        <source>decided now</source>
        <translation>gerade entschieden</translation>
    </message>
    <message>
        <source>Done: %Ln decision(s) recorded ({names}).</source>
        <translation>Fertig: %Ln Entscheidung gespeichert ({names}).|Fertig: %Ln Entscheidungen gespeichert ({names}).</translation>
    </message>
    <message>
        <source>Nothing was decided.</source>
        <translation>Nichts wurde entschieden.</translation>
    </message>
    <message>
        <source>Not sent yet: {why} The decisions are kept here and sent again in {s} s.</source>
        <translation>Noch nicht gesendet: {why} Die Entscheidungen bleiben hier und werden in {s} s erneut gesendet.</translation>
    </message>
</context>
<context>
    <name>ContextPanels</name>
    <message>
        <source>classifier</source>
        <extracomment>a post, note, bio or claim in a tab shows this much; the rest on request (a 100,000-character thread reply held the window for over a second as one paragraph) ``limit`` and ``cuts`` of a tab&apos;s render: how long a text may be (None: whole), and a list that gets how many characters each cut left out why a post is queued, in words (``QueueReasonKind``)</extracomment>
        <translation>Klassifikator</translation>
    </message>
    <message>
        <source>user reports</source>
        <translation>Nutzermeldungen</translation>
    </message>
    <message>
        <source>fact-check</source>
        <translation>Faktencheck</translation>
    </message>
    <message>
        <source>appeal</source>
        <translation>Einspruch</translation>
    </message>
    <message>
        <source>escalation</source>
        <translation>Eskalation</translation>
    </message>
    <message>
        <source>entered the queue</source>
        <extracomment>what happened to an item, in words (``EventKind``)</extracomment>
        <translation>in die Warteschlange aufgenommen</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <source>lease renewed</source>
        <translation>Reservierung verlängert</translation>
    </message>
    <message>
        <source>given back</source>
        <translation>zurückgegeben</translation>
    </message>
    <message>
        <source>lease expired</source>
        <translation>Reservierung abgelaufen</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>entschieden</translation>
    </message>
    <message>
        <source>escalated</source>
        <translation>eskaliert</translation>
    </message>
    <message>
        <source>escalation assigned</source>
        <translation>Eskalation zugewiesen</translation>
    </message>
    <message>
        <source>user created</source>
        <translation>Benutzer angelegt</translation>
    </message>
    <message>
        <source>role changed</source>
        <translation>Rolle geändert</translation>
    </message>
    <message>
        <source>password set</source>
        <translation>Passwort gesetzt</translation>
    </message>
    <message>
        <source>access ended</source>
        <translation>Zugang beendet</translation>
    </message>
    <message>
        <source>picked for an audit</source>
        <translation>für ein Audit ausgewählt</translation>
    </message>
    <message>
        <source>audited</source>
        <translation>auditiert</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>aufgehoben</translation>
    </message>
    <message>
        <source>new version of the post from the platform</source>
        <translation>neue Fassung des Beitrags von der Plattform</translation>
    </message>
    <message>
        <source>new signal</source>
        <translation>neues Signal</translation>
    </message>
    <message>
        <source>withdrawn by the platform</source>
        <translation>von der Plattform zurückgezogen</translation>
    </message>
    <message>
        <source>back for review</source>
        <translation>erneut zur Prüfung</translation>
    </message>
    <message>
        <source>queue configuration applied</source>
        <translation>Warteschlangen-Konfiguration angewendet</translation>
    </message>
    <message>
        <source>moved to another queue</source>
        <translation>in eine andere Warteschlange verschoben</translation>
    </message>
    <message>
        <source>API key created</source>
        <translation>API-Schlüssel erstellt</translation>
    </message>
    <message>
        <source>API key revoked</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>account action on the author</source>
        <translation>Kontomaßnahme gegen den Autor</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>durch eine Kontomaßnahme erledigt</translation>
    </message>
    <message>
        <source>held back: the author is actioned</source>
        <translation>zurückgehalten: gegen den Autor wurde vorgegangen</translation>
    </message>
    <message>
        <source>webhook endpoint added</source>
        <translation>Webhook-Endpunkt hinzugefügt</translation>
    </message>
    <message>
        <source>webhook endpoint disabled</source>
        <translation>Webhook-Endpunkt deaktiviert</translation>
    </message>
    <message>
        <source>webhook endpoint enabled</source>
        <translation>Webhook-Endpunkt aktiviert</translation>
    </message>
    <message>
        <source>webhook signing secret changed</source>
        <translation>Signaturschlüssel des Webhooks gewechselt</translation>
    </message>
    <message>
        <source>webhook actions sent again</source>
        <translation>Webhook-Maßnahmen erneut gesendet</translation>
    </message>
    <message>
        <source>could not be shown to reviewers: set aside</source>
        <translation>konnte Prüfern nicht gezeigt werden: zurückgestellt</translation>
    </message>
    <message>
        <source>appealed by the user</source>
        <translation>vom Nutzer angefochten</translation>
    </message>
    <message>
        <source>… (%Ln more character(s): Show the whole text)</source>
        <translation>… (%Ln weiteres Zeichen: Den ganzen Text zeigen)|… (%Ln weitere Zeichen: Den ganzen Text zeigen)</translation>
    </message>
    <message>
        <source>account inauthenticity {score} (rule: {rule})</source>
        <translation>Unechtheit des Kontos {score} (Regel: {rule})</translation>
    </message>
    <message>
        <source>{subject} {score} (rule: {rule})</source>
        <translation>{subject} {score} (Regel: {rule})</translation>
    </message>
    <message>
        <source>%Ln new report(s) since it was kept</source>
        <translation>%Ln neue Meldung, seit er behalten wurde|%Ln neue Meldungen, seit er behalten wurde</translation>
    </message>
    <message>
        <source>new rating {rating} since it was kept</source>
        <translation>neue Bewertung {rating}, seit er behalten wurde</translation>
    </message>
    <message>
        <source>%Ln report(s) of {reason}</source>
        <translation>%Ln Meldung wegen {reason}|%Ln Meldungen wegen {reason}</translation>
    </message>
    <message>
        <source>{followers} follower(s) · follows {following}</source>
        <translation>{followers} Follower · folgt {following}|{followers} Follower · folgt {following}</translation>
    </message>
    <message>
        <source>Account signals: {posts} post(s) a day · inauthenticity score {score}</source>
        <translation>Kontosignale: {posts} Beitrag pro Tag · Unechtheitswert {score}|Kontosignale: {posts} Beiträge pro Tag · Unechtheitswert {score}</translation>
    </message>
    <message>
        <source>Show the whole text (%Ln more character(s))</source>
        <translation>Den ganzen Text zeigen (%Ln weiteres Zeichen)|Den ganzen Text zeigen (%Ln weitere Zeichen)</translation>
    </message>
    <message>
        <source>Queue: {queue}</source>
        <translation>Warteschlange: {queue}</translation>
    </message>
    <message>
        <source>Queue: {queue} (came from {origin})</source>
        <translation>Warteschlange: {queue} (kam aus {origin})</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verifiziert</translation>
    </message>
    <message>
        <source>Account created {date} ({ago})</source>
        <translation>Konto erstellt am {date} ({ago})</translation>
    </message>
    <message>
        <source>Bio: {bio}</source>
        <translation>Bio: {bio}</translation>
    </message>
    <message>
        <source>Prior strikes:</source>
        <translation>Frühere Verwarnungen:</translation>
    </message>
    <message>
        <source>last {date}</source>
        <translation>zuletzt {date}</translation>
    </message>
    <message>
        <source>No prior strikes.</source>
        <translation>Keine früheren Verwarnungen.</translation>
    </message>
    <message>
        <source>Recent decisions on this author&apos;s posts:</source>
        <translation>Letzte Entscheidungen zu Beiträgen dieses Autors:</translation>
    </message>
    <message>
        <source>signal: {signal}</source>
        <translation>Signal: {signal}</translation>
    </message>
    <message>
        <source>shares signals with: {accounts}</source>
        <translation>teilt Signale mit: {accounts}</translation>
    </message>
    <message>
        <source>Not part of a thread.</source>
        <translation>Nicht Teil eines Threads.</translation>
    </message>
    <message>
        <source>this post</source>
        <translation>dieser Beitrag</translation>
    </message>
    <message>
        <source>Replies ({n} in all):</source>
        <translation>Antworten ({n} insgesamt):</translation>
    </message>
    <message>
        <source>No user reports.</source>
        <translation>Keine Nutzermeldungen.</translation>
    </message>
    <message>
        <source>%Ln report(s)</source>
        <translation>%Ln Meldung|%Ln Meldungen</translation>
    </message>
    <message>
        <source>What reporters wrote:</source>
        <translation>Was die Meldenden schrieben:</translation>
    </message>
    <message>
        <source>No fact-checks.</source>
        <translation>Keine Faktenchecks.</translation>
    </message>
    <message>
        <source>Claim: {claim}</source>
        <translation>Behauptung: {claim}</translation>
    </message>
    <message>
        <source>why: {reason}</source>
        <translation>Grund: {reason}</translation>
    </message>
    <message>
        <source>their note: {note}</source>
        <translation>ihre Notiz: {note}</translation>
    </message>
    <message>
        <source>to {lead}</source>
        <translation>an {lead}</translation>
    </message>
    <message>
        <source>to nobody</source>
        <translation>an niemanden</translation>
    </message>
    <message>
        <source>No history.</source>
        <translation>Kein Verlauf.</translation>
    </message>
    <message>
        <source>by {actor}</source>
        <translation>von {actor}</translation>
    </message>
    <message>
        <source>Statement of reasons {puid} (decision {decision}), as the author read it:</source>
        <translation>Begründung {puid} (Entscheidung {decision}), wie die Autorin oder der Autor sie gelesen hat:</translation>
    </message>
    <message>
        <source>Why queued</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>Thread</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>Meldungen</translation>
    </message>
    <message>
        <source>Fact-checks</source>
        <translation>Faktenchecks</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Context</source>
        <extracomment>the width the tabs have to share (their tab widget&apos;s; None: as wide as they ask) the tabs&apos; whole titles are wider than ever before (their counts came)</extracomment>
        <translation>Kontext</translation>
    </message>
    <message>
        <source>Show the whole text</source>
        <extracomment>each tab&apos;s &quot;Show the whole text&quot; button (shown when a text in it was cut)</extracomment>
        <translation>Den ganzen Text zeigen</translation>
    </message>
    <message>
        <source>Author: {status}</source>
        <extracomment>a queue&apos;s name by its id (&quot;Why queued&quot;): the window&apos;s queue list, when it has one ``prepare``&apos;s work: (item, tab index, its text as the box takes it, its cuts) the tab whose whole text is being added to its box, batch by batch runs work once the post is painted and returns what cancels it (the review pane&apos;s ``PostText.after_paint``); None: at once</extracomment>
        <translation>Autor: {status}</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <source>light</source>
        <translation>hell</translation>
    </message>
    <message>
        <source>dark</source>
        <translation>dunkel</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Einstellungsseiten</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>Serveradresse</translation>
    </message>
    <message>
        <source>Items leased ahead</source>
        <translation>Im Voraus reservierte Einträge</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Undo window in seconds</source>
        <translation>Rückgängig-Fenster in Sekunden</translation>
    </message>
    <message>
        <source>Blur media until I reveal it</source>
        <translation>Medien unscharf zeigen, bis ich sie aufdecke</translation>
    </message>
    <message>
        <source>Show media in greyscale until I reveal it</source>
        <translation>Medien in Graustufen zeigen, bis ich sie aufdecke</translation>
    </message>
    <message>
        <source>Text size</source>
        <translation>Textgröße</translation>
    </message>
    <message>
        <source>A new language applies the next time you start the app.</source>
        <translation>Eine neue Sprache gilt ab dem nächsten Start der App.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work.</source>
        <translation>Ihr Passwort wurde geändert, seit dieser Computer Ihre Arbeit zuletzt gespeichert hat.</translation>
    </message>
    <message>
        <source>Enter your previous password to open that work and go on with it; from then on your new password opens it.</source>
        <translation>Geben Sie Ihr bisheriges Passwort ein, um diese Arbeit zu öffnen und damit weiterzumachen; danach öffnet Ihr neues Passwort sie.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work, which holds {n} decisions not sent yet.</source>
        <translation>Ihr Passwort wurde geändert, seit dieser Computer Ihre Arbeit zuletzt gespeichert hat; darin sind {n} Entscheidungen, die noch nicht gesendet wurden.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work, which holds 1 decision not sent yet.</source>
        <translation>Ihr Passwort wurde geändert, seit dieser Computer Ihre Arbeit zuletzt gespeichert hat; darin ist 1 Entscheidung, die noch nicht gesendet wurde.</translation>
    </message>
    <message>
        <source>Enter your previous password to open that work and send what is waiting; from then on your new password opens it.</source>
        <translation>Geben Sie Ihr bisheriges Passwort ein, um diese Arbeit zu öffnen und das Wartende zu senden; danach öffnet Ihr neues Passwort sie.</translation>
    </message>
    <message>
        <source>If you do not know it, start afresh: the work is then moved aside unopened, and kept for support.</source>
        <translation>Wenn Sie es nicht kennen, fangen Sie neu an: Die Arbeit wird dann ungeöffnet beiseitegelegt und für den Support aufbewahrt.</translation>
    </message>
    <message>
        <source>That is not your previous password: it does not open the work saved here. Try again, or start afresh.</source>
        <translation>Das ist nicht Ihr bisheriges Passwort: Es öffnet die hier gespeicherte Arbeit nicht. Versuchen Sie es erneut, oder fangen Sie neu an.</translation>
    </message>
    <message>
        <source>You started afresh: your password was changed and the previous one was not given, so the work saved on this computer could not be opened. It was moved aside, unopened, to {path}; your previous password still opens it, and decisions in it that were not sent are still there. Ask support before deleting it.</source>
        <translation>Sie haben neu angefangen: Ihr Passwort wurde geändert und das bisherige nicht angegeben, daher konnte die auf diesem Computer gespeicherte Arbeit nicht geöffnet werden. Sie wurde ungeöffnet nach {path} verschoben; Ihr bisheriges Passwort öffnet sie weiterhin, und noch nicht gesendete Entscheidungen sind weiterhin darin. Fragen Sie den Support, bevor Sie sie löschen.</translation>
    </message>
    <message>
        <source>Your password was changed</source>
        <translation>Ihr Passwort wurde geändert</translation>
    </message>
    <message>
        <source>Previous password</source>
        <translation>Bisheriges Passwort</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Open my work</source>
        <translation>Meine Arbeit öffnen</translation>
    </message>
    <message>
        <source>Start afresh</source>
        <translation>Neu anfangen</translation>
    </message>
    <message>
        <source>Server (next login)</source>
        <translation>Server (nächste Anmeldung)</translation>
    </message>
    <message>
        <source>Items kept leased ahead in the queue being reviewed, so the next post is always local.</source>
        <translation>Im Voraus reservierte Einträge der geprüften Warteschlange, damit der nächste Beitrag immer lokal vorliegt.</translation>
    </message>
    <message>
        <source>Seconds a verdict stays on this computer, where it can be undone, before it is sent.</source>
        <translation>Sekunden, die eine Entscheidung auf diesem Computer bleibt und rückgängig gemacht werden kann, bevor sie gesendet wird.</translation>
    </message>
    <message>
        <source>Remind me to take breaks (after the queue&apos;s time or posts)</source>
        <translation>An Pausen erinnern (nach der Zeit oder Beitragszahl der Warteschlange)</translation>
    </message>
    <message>
        <source>Break reminders</source>
        <translation>Pausenerinnerungen</translation>
    </message>
    <message>
        <source>Decided {time}</source>
        <translation>Entschieden {time}</translation>
    </message>
    <message>
        <source>Recorded {time}</source>
        <translation>Erfasst {time}</translation>
    </message>
    <message>
        <source>Logging in…</source>
        <translation>Anmeldung läuft…</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Design</translation>
    </message>
    <message>
        <source>Text size (points)</source>
        <translation>Textgröße (Punkt)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Action: {action}</source>
        <translation>Aktion: {action}</translation>
    </message>
    <message>
        <source>Policies: {policies}</source>
        <translation>Richtlinien: {policies}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Fact-check rating: {rating}</source>
        <translation>Faktencheck-Bewertung: {rating}</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>Notiz: {note}</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <source>Conflicts list</source>
        <extracomment>the stored queues the conflicts&apos; items are from, by id, read once a reload (the table asks for its cells&apos; words at every paint)</extracomment>
        <translation>Liste der Konflikte</translation>
    </message>
    <message>
        <source>Someone else decided these posts before your verdict reached the server. Their decision counts. Accept it, or escalate the post to a lead if you think it is wrong.</source>
        <translation>Jemand anderes hat über diese Beiträge entschieden, bevor Ihre Entscheidung den Server erreichte. Deren Entscheidung gilt. Übernehmen Sie sie oder eskalieren Sie den Beitrag an eine Leitung, wenn Sie sie für falsch halten.</translation>
    </message>
    <message>
        <source>The post</source>
        <translation>Der Beitrag</translation>
    </message>
    <message>
        <source>The decision that counts</source>
        <translation>Die geltende Entscheidung</translation>
    </message>
    <message>
        <source>Accept their decision</source>
        <translation>Deren Entscheidung übernehmen</translation>
    </message>
    <message>
        <source>Escalate to a lead</source>
        <translation>An eine Leitung eskalieren</translation>
    </message>
    <message>
        <source>No open conflicts.</source>
        <translation>Keine offenen Konflikte.</translation>
    </message>
    <message>
        <source>(post no longer stored)</source>
        <translation>(Beitrag nicht mehr gespeichert)</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Ihre Entscheidung</translation>
    </message>
    <message>
        <source>The decision that counts, by {reviewer}</source>
        <translation>Die geltende Entscheidung, von {reviewer}</translation>
    </message>
    <message>
        <source>Log in again</source>
        <translation>Erneut anmelden</translation>
    </message>
    <message>
        <source>Log in to the review desk</source>
        <translation>Am Prüfpult anmelden</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>What is happening</source>
        <translation>Was gerade geschieht</translation>
    </message>
    <message>
        <source>Login problem</source>
        <translation>Problem bei der Anmeldung</translation>
    </message>
    <message>
        <source>Log in</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
</context>
<context>
    <name>Escalation</name>
    <message>
        <source>Escalate to a lead</source>
        <translation>An die Teamleitung eskalieren</translation>
    </message>
    <message>
        <source>Why does this post need a lead? Pick a reason with its number or the arrows, add a note if it helps (Tab), then Enter. Esc cancels.</source>
        <translation>Warum braucht dieser Beitrag die Teamleitung? Einen Grund mit seiner Nummer oder den Pfeiltasten wählen, bei Bedarf eine Notiz ergänzen (Tab), dann Enter. Esc bricht ab.</translation>
    </message>
    <message>
        <source>Reasons</source>
        <translation>Gründe</translation>
    </message>
    <message>
        <source>Note for the lead</source>
        <translation>Notiz für die Teamleitung</translation>
    </message>
    <message>
        <source>What is missing</source>
        <translation>Was fehlt</translation>
    </message>
    <message>
        <source>Escalate</source>
        <translation>Eskalieren</translation>
    </message>
    <message>
        <source>Note for the lead (needed for this reason)</source>
        <translation>Notiz für die Teamleitung (für diesen Grund nötig)</translation>
    </message>
    <message>
        <source>Note for the lead (optional)</source>
        <translation>Notiz für die Teamleitung (optional)</translation>
    </message>
    <message>
        <source>Pick a reason first.</source>
        <translation>Zuerst einen Grund wählen.</translation>
    </message>
    <message>
        <source>This reason needs a note: say why, then Enter.</source>
        <translation>Dieser Grund braucht eine Notiz: Begründung eingeben, dann Enter.</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>kein Grund angegeben</translation>
    </message>
    <message>
        <source>{ago} ({time})</source>
        <translation>{ago} ({time})</translation>
    </message>
    <message>
        <source>Escalated by {who} {when} from {queue}: {reason}</source>
        <translation>Eskaliert von {who} {when} aus {queue}: {reason}</translation>
    </message>
    <message>
        <source>Their note: {note}</source>
        <translation>Notiz dazu: {note}</translation>
    </message>
    <message>
        <source>Assigned to {lead} by {by}</source>
        <translation>{lead} zugewiesen von {by}</translation>
    </message>
</context>
<context>
    <name>Exposure</name>
    <message>
        <source>Graphic violence</source>
        <translation>Drastische Gewalt</translation>
    </message>
    <message>
        <source>Hate</source>
        <translation>Hass</translation>
    </message>
    <message>
        <source>Harassment</source>
        <translation>Belästigung</translation>
    </message>
    <message>
        <source>Sexual content</source>
        <translation>Sexuelle Inhalte</translation>
    </message>
    <message>
        <source>Child safety</source>
        <translation>Kinderschutz</translation>
    </message>
    <message>
        <source>Self-harm</source>
        <translation>Selbstverletzung</translation>
    </message>
    <message>
        <source>Violent extremism</source>
        <translation>Gewalttätiger Extremismus</translation>
    </message>
    <message>
        <source>Animal cruelty</source>
        <translation>Tierquälerei</translation>
    </message>
    <message>
        <source>Scams</source>
        <translation>Betrug</translation>
    </message>
    <message>
        <source>Misinformation</source>
        <translation>Falschinformationen</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>On shift since</source>
        <translation>In der Schicht seit</translation>
    </message>
    <message>
        <source>Posts this shift</source>
        <translation>Beiträge in dieser Schicht</translation>
    </message>
    <message>
        <source>Posts in 7 days</source>
        <translation>Beiträge in 7 Tagen</translation>
    </message>
    <message>
        <source>High-harm posts this shift</source>
        <translation>Stark schädliche Beiträge in dieser Schicht</translation>
    </message>
    <message>
        <source>Breaks this shift</source>
        <translation>Pausen in dieser Schicht</translation>
    </message>
    <message>
        <source>Break minutes this shift</source>
        <translation>Pausenminuten in dieser Schicht</translation>
    </message>
    <message>
        <source>Breaks in 7 days</source>
        <translation>Pausen in 7 Tagen</translation>
    </message>
    <message>
        <source>{kind} (shift / 7 days)</source>
        <translation>{kind} (Schicht / 7 Tage)</translation>
    </message>
    <message>
        <source>not on shift</source>
        <translation>nicht in der Schicht</translation>
    </message>
    <message>
        <source>Wellbeing</source>
        <translation>Wohlbefinden</translation>
    </message>
    <message>
        <source>Exposure per reviewer</source>
        <translation>Belastung pro Prüfer</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Figures status</source>
        <translation>Status der Kennzahlen</translation>
    </message>
    <message>
        <source>What each reviewer decided, by the kind of harm their queues and the policies they cited say the posts carry: this shift (activity with no gap of 4 hours) and the last 7 days, with the breaks they took; a kind of harm&apos;s column reads posts this shift / in 7 days. Figures only; no post is shown here.</source>
        <translation>Was jeder Prüfer entschieden hat, nach der Art des Schadens, den die Beiträge laut ihren Warteschlangen und den angeführten Richtlinien tragen: in dieser Schicht (Aktivität ohne Lücke von 4 Stunden) und in den letzten 7 Tagen, mit den genommenen Pausen; die Spalte einer Schadensart zeigt Beiträge in dieser Schicht / in 7 Tagen. Nur Kennzahlen; hier wird kein Beitrag angezeigt.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <extracomment>fetched again every REFRESH_MS while the page is shown, as the Queues page is</extracomment>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>Updated {time}</source>
        <translation>Aktualisiert {time}</translation>
    </message>
    <message>
        <source>loading the figures</source>
        <translation>Laden der Kennzahlen</translation>
    </message>
</context>
<context>
    <name>LeadAdmin</name>
    <message>
        <source>reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>lead</source>
        <translation>Teamleitung</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>Admin</translation>
    </message>
    <message>
        <source>platform</source>
        <translation>Plattform</translation>
    </message>
    <message>
        <source>fact-checker</source>
        <translation>Faktenprüfer</translation>
    </message>
    <message>
        <source>Username</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Anzeigename</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Key starts</source>
        <translation>Schlüssel beginnt mit</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt verwendet</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>live</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Applied</source>
        <translation>Angewendet</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Warteschlangen</translation>
    </message>
    <message>
        <source>the service</source>
        <translation>der Dienst</translation>
    </message>
    <message>
        <source>Users and roles</source>
        <extracomment>this admin made themselves something else, or a call was refused with 403 (another admin did): the words that say so</extracomment>
        <translation>Benutzer und Rollen</translation>
    </message>
    <message>
        <source>Users and their roles</source>
        <translation>Benutzer und ihre Rollen</translation>
    </message>
    <message>
        <source>Users status</source>
        <translation>Status der Benutzer</translation>
    </message>
    <message>
        <source>New role</source>
        <translation>Neue Rolle</translation>
    </message>
    <message>
        <source>Change role</source>
        <translation>Rolle ändern</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>Password again</source>
        <translation>Passwort wiederholen</translation>
    </message>
    <message>
        <source>Add user</source>
        <translation>Benutzer hinzufügen</translation>
    </message>
    <message>
        <source>Add a user</source>
        <translation>Einen Benutzer hinzufügen</translation>
    </message>
    <message>
        <source>New password</source>
        <translation>Neues Passwort</translation>
    </message>
    <message>
        <source>New password again</source>
        <translation>Neues Passwort noch einmal</translation>
    </message>
    <message>
        <source>Set password</source>
        <translation>Passwort setzen</translation>
    </message>
    <message>
        <source>End access…</source>
        <translation>Zugang beenden…</translation>
    </message>
    <message>
        <source>The service no longer lets this account administer (another admin may have made it a lead or a reviewer), so the lists were cleared and the actions disabled.</source>
        <translation>Der Dienst lässt dieses Konto nicht mehr verwalten (ein anderer Admin hat es vielleicht zur Teamleitung oder zum Prüfer gemacht); die Listen wurden deshalb geleert und die Aktionen abgeschaltet.</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>can log in</source>
        <translation>kann sich anmelden</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Zugang</translation>
    </message>
    <message>
        <source>The selected user</source>
        <translation>Der ausgewählte Benutzer</translation>
    </message>
    <message>
        <source>Change role…</source>
        <translation>Rolle ändern…</translation>
    </message>
    <message>
        <source>Set password…</source>
        <translation>Passwort setzen…</translation>
    </message>
    <message>
        <source>loading the users</source>
        <translation>Laden der Benutzer</translation>
    </message>
    <message>
        <source>No one selected: pick a user above.</source>
        <translation>Niemand ausgewählt: Wählen Sie oben einen Benutzer.</translation>
    </message>
    <message>
        <source>{name} ({user}), {role}.</source>
        <translation>{name} ({user}), {role}.</translation>
    </message>
    <message>
        <source>A service account: it calls with API keys (see API keys), and has no password and no other role.</source>
        <translation>Ein Dienstkonto: Es ruft mit API-Schlüsseln auf (siehe API-Schlüssel) und hat kein Passwort und keine andere Rolle.</translation>
    </message>
    <message>
        <source>Their access was ended: setting a password gives it back.</source>
        <translation>Der Zugang wurde beendet: Ein neues Passwort gibt ihn zurück.</translation>
    </message>
    <message>
        <source>This is your own account.</source>
        <translation>Das ist Ihr eigenes Konto.</translation>
    </message>
    <message>
        <source>A username is 2 to 64 characters: lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation>Ein Benutzername hat 2 bis 64 Zeichen: Kleinbuchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; oder &apos;-&apos;, beginnend mit einem Buchstaben oder einer Ziffer.</translation>
    </message>
    <message>
        <source>The password needs at least {n} characters.</source>
        <translation>Das Passwort braucht mindestens {n} Zeichen.</translation>
    </message>
    <message>
        <source>The two passwords differ: type the same twice.</source>
        <translation>Die beiden Passwörter unterscheiden sich: zweimal dasselbe eingeben.</translation>
    </message>
    <message>
        <source>Adding {user}…</source>
        <translation>{user} wird hinzugefügt…</translation>
    </message>
    <message>
        <source>Added {user} ({name}) as {role}.</source>
        <translation>{user} ({name}) als {role} hinzugefügt.</translation>
    </message>
    <message>
        <source>adding the user</source>
        <translation>Hinzufügen des Benutzers</translation>
    </message>
    <message>
        <source>Make {user} ({name}) {role} instead of {old}?</source>
        <translation>{user} ({name}) zu {role} statt {old} machen?</translation>
    </message>
    <message>
        <source>What they hold in leads-only queues and the escalations assigned to them go back at once.</source>
        <translation>Was die Person in Warteschlangen nur für Leads hält, und die ihr zugewiesenen Eskalationen gehen sofort zurück.</translation>
    </message>
    <message>
        <source>This is your own account: it will no longer be an admin, and cannot make itself one again.</source>
        <translation>Das ist Ihr eigenes Konto: Es ist dann kein Admin mehr und kann sich nicht selbst wieder dazu machen.</translation>
    </message>
    <message>
        <source>This account is now {role} and no longer an admin: the Administration tab closes at the next login.</source>
        <translation>Dieses Konto ist jetzt {role} und kein Admin mehr: Der Tab Verwaltung schließt sich bei der nächsten Anmeldung.</translation>
    </message>
    <message>
        <source>{user} is now {role}.</source>
        <translation>{user} ist jetzt {role}.</translation>
    </message>
    <message>
        <source>changing the role</source>
        <translation>Ändern der Rolle</translation>
    </message>
    <message>
        <source>Set a new password for {user} ({name})? Every session of theirs ends at once; they log in with the new one.</source>
        <translation>Ein neues Passwort für {user} ({name}) setzen? Alle Sitzungen der Person enden sofort; sie meldet sich mit dem neuen an.</translation>
    </message>
    <message>
        <source>This gives them their access back.</source>
        <translation>Das gibt der Person ihren Zugang zurück.</translation>
    </message>
    <message>
        <source>This is your own account: this session ends too, and you log in again with the new password.</source>
        <translation>Das ist Ihr eigenes Konto: Auch diese Sitzung endet, und Sie melden sich mit dem neuen Passwort wieder an.</translation>
    </message>
    <message>
        <source>{user}&apos;s password is set: every session of theirs has ended, and they log in with the new one.</source>
        <translation>Das Passwort von {user} ist gesetzt: Alle Sitzungen wurden beendet, die Anmeldung geht mit dem neuen.</translation>
    </message>
    <message>
        <source>setting the password</source>
        <translation>Setzen des Passworts</translation>
    </message>
    <message>
        <source>This is your own account: this session ends at once, and you cannot log in again until another admin sets you a password.</source>
        <translation>Das ist Ihr eigenes Konto: Diese Sitzung endet sofort, und Sie können sich erst wieder anmelden, wenn ein anderer Admin Ihnen ein Passwort setzt.</translation>
    </message>
    <message>
        <source>End access</source>
        <translation>Zugang beenden</translation>
    </message>
    <message>
        <source>ending the access</source>
        <translation>Beenden des Zugangs</translation>
    </message>
    <message>
        <source>End {user}&apos;s access? No password opens their account from now on, every session of theirs ends at once, and the posts they hold and the escalations assigned to them go back. Setting a password gives access back.</source>
        <translation>Den Zugang von {user} beenden? Kein Passwort öffnet das Konto mehr, alle Sitzungen enden sofort, und die gehaltenen Beiträge und zugewiesenen Eskalationen gehen zurück. Ein neues Passwort gibt den Zugang zurück.</translation>
    </message>
    <message>
        <source>{user} can no longer log in; every session of theirs has ended.</source>
        <translation>{user} kann sich nicht mehr anmelden; alle Sitzungen wurden beendet.</translation>
    </message>
    <message>
        <source>API keys</source>
        <extracomment>a call refused with 403 (this account no longer an admin): the words that say so</extracomment>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>API keys status</source>
        <translation>Status der API-Schlüssel</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Widerrufen…</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Schlüsselname</translation>
    </message>
    <message>
        <source>e.g. feed-bridge</source>
        <translation>z. B. feed-bridge</translation>
    </message>
    <message>
        <source>Key role</source>
        <translation>Schlüsselrolle</translation>
    </message>
    <message>
        <source>Create key</source>
        <translation>Schlüssel erstellen</translation>
    </message>
    <message>
        <source>New key:</source>
        <translation>Neuer Schlüssel:</translation>
    </message>
    <message>
        <source>The new key</source>
        <translation>Der neue Schlüssel</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Copy this key now and give it to the platform: it is not shown again. The service keeps only its hash.</source>
        <translation>Diesen Schlüssel jetzt kopieren und an die Plattform weitergeben: Er wird nicht erneut angezeigt. Der Dienst speichert nur seinen Hash.</translation>
    </message>
    <message>
        <source>loading the API keys</source>
        <translation>Laden der API-Schlüssel</translation>
    </message>
    <message>
        <source>Copy the new key below and press Done before making another.</source>
        <translation>Kopieren Sie den neuen Schlüssel unten und drücken Sie Fertig, bevor Sie einen weiteren anlegen.</translation>
    </message>
    <message>
        <source>A key&apos;s name is 2 to 64 characters: lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (it names the platform&apos;s account too).</source>
        <translation>Ein Schlüsselname hat 2 bis 64 Zeichen: Kleinbuchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; oder &apos;-&apos; (er benennt auch das Konto der Plattform).</translation>
    </message>
    <message>
        <source>Made the key {name} for {account}. Copy it and press Done before making another.</source>
        <translation>Schlüssel {name} für {account} angelegt. Kopieren Sie ihn und drücken Sie Fertig, bevor Sie einen weiteren anlegen.</translation>
    </message>
    <message>
        <source>creating the API key</source>
        <translation>Erstellen des API-Schlüssels</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the key {name} of {account} that starts {prefix}, made {created}? Every request with it is refused from now on; this cannot be undone (make a new key instead).</source>
        <translation>Den Schlüssel {name} von {account}, der mit {prefix} beginnt und am {created} erstellt wurde, widerrufen? Jede Anfrage damit wird ab jetzt abgelehnt; das lässt sich nicht rückgängig machen (legen Sie stattdessen einen neuen Schlüssel an).</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Revoked the key {name}.</source>
        <translation>Schlüssel {name} widerrufen.</translation>
    </message>
    <message>
        <source>revoking the API key</source>
        <translation>Widerrufen des API-Schlüssels</translation>
    </message>
    <message>
        <source>Queue configuration</source>
        <extracomment>a call refused with 403 (this account no longer an admin): the words that say so</extracomment>
        <translation>Warteschlangenkonfiguration</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file: {lines}.</source>
        <translation>{file} weicht von der laufenden Warteschlangendatei ab: {lines}.</translation>
    </message>
    <message>
        <source>%Ln line(s) changed</source>
        <translation>%Ln Zeile(n) geändert</translation>
    </message>
    <message>
        <source>Its line endings differ too (not shown).</source>
        <translation>Auch die Zeilenenden unterscheiden sich (nicht gezeigt).</translation>
    </message>
    <message>
        <source>It starts with a byte-order mark too (not shown).</source>
        <translation>Sie beginnt außerdem mit einer Byte-Order-Markierung (nicht gezeigt).</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its line endings and its byte-order mark.</source>
        <translation>{file} weicht von der laufenden Warteschlangendatei nur in den Zeilenenden und der Byte-Order-Markierung ab.</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its line endings.</source>
        <translation>{file} weicht von der laufenden Warteschlangendatei nur in den Zeilenenden ab.</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its byte-order mark.</source>
        <translation>{file} weicht von der laufenden Warteschlangendatei nur in der Byte-Order-Markierung ab.</translation>
    </message>
    <message>
        <source>Running version</source>
        <translation>Laufende Version</translation>
    </message>
    <message>
        <source>The running queue file</source>
        <translation>Die laufende Warteschlangendatei</translation>
    </message>
    <message>
        <source>Difference with a file</source>
        <translation>Unterschied zu einer Datei</translation>
    </message>
    <message>
        <source>Configuration versions</source>
        <translation>Konfigurationsversionen</translation>
    </message>
    <message>
        <source>Queue file status</source>
        <translation>Status der Warteschlangendatei</translation>
    </message>
    <message>
        <source>Compare with a file…</source>
        <translation>Mit einer Datei vergleichen…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>The queues as they run, as a queue file. Change them with reviewer-app server queues apply FILE on the service&apos;s machine; every applied file is a version below.</source>
        <translation>Die Warteschlangen, wie sie laufen, als Warteschlangendatei. Ändern mit reviewer-app server queues apply FILE auf dem Rechner des Dienstes; jede angewendete Datei ist unten eine Version.</translation>
    </message>
    <message>
        <source>loading the queue file</source>
        <translation>Laden der Warteschlangendatei</translation>
    </message>
    <message>
        <source>No configuration version yet.</source>
        <translation>Noch keine Konfigurationsversion.</translation>
    </message>
    <message>
        <source>Version {version}, applied {when} by {who}.</source>
        <translation>Version {version}, angewendet {when} von {who}.</translation>
    </message>
    <message>
        <source>Compare with a queue file</source>
        <translation>Mit einer Warteschlangendatei vergleichen</translation>
    </message>
    <message>
        <source>Queue files (*.toml);;All files (*)</source>
        <translation>Warteschlangendateien (*.toml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>The running queue file is not loaded yet.</source>
        <translation>Die laufende Warteschlangendatei ist noch nicht geladen.</translation>
    </message>
    <message>
        <source>{file} is the same as the running queue file.</source>
        <translation>{file} ist identisch mit der laufenden Warteschlangendatei.</translation>
    </message>
    <message>
        <source>{file} is not UTF-8 text.</source>
        <translation>{file} ist kein UTF-8-Text.</translation>
    </message>
    <message>
        <source>{file} is too large for a queue file.</source>
        <translation>{file} ist zu groß für eine Warteschlangendatei.</translation>
    </message>
    <message>
        <source>{file} could not be read: {reason}</source>
        <translation>{file} konnte nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>comparing</source>
        <translation>Vergleichen</translation>
    </message>
</context>
<context>
    <name>LeadAudits</name>
    <message>
        <source>random</source>
        <translation>zufällig</translation>
    </message>
    <message>
        <source>the same number per reviewer</source>
        <translation>gleich viele pro Prüfer</translation>
    </message>
    <message>
        <source>the same number per action</source>
        <translation>gleich viele pro Aktion</translation>
    </message>
    <message>
        <source>agreed</source>
        <translation>bestätigt</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>aufgehoben</translation>
    </message>
    <message>
        <source>{action} by {reviewer}</source>
        <extracomment>the largest media file fetched with an audit task (the reviewers&apos; are prefetched)</extracomment>
        <translation>{action} von {reviewer}</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Drawn</source>
        <translation>Gezogen</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>Beurteilt</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>{n} of {total}</source>
        <extracomment>queue names by id (the page&apos;s queues): a sample&apos;s queue is shown by its name</extracomment>
        <translation>{n} von {total}</translation>
    </message>
    <message>
        <source>all queues</source>
        <translation>alle Warteschlangen</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Original decision</source>
        <translation>Ursprüngliche Entscheidung</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Decision of record</source>
        <translation>Maßgebliche Entscheidung</translation>
    </message>
    <message>
        <source>Auditor</source>
        <translation>Auditor</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Agreed</source>
        <translation>Bestätigt</translation>
    </message>
    <message>
        <source>Overturned</source>
        <translation>Aufgehoben</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Übereinstimmung</translation>
    </message>
    <message>
        <source>Kappa</source>
        <translation>Kappa</translation>
    </message>
    <message>
        <source>Sample #{id}: %n decision(s) drawn (fewer than {requested}: the window has no more).</source>
        <translation>Stichprobe #{id}: %n Entscheidung gezogen (weniger als {requested}: der Zeitraum hat nicht mehr).|Stichprobe #{id}: %n Entscheidungen gezogen (weniger als {requested}: der Zeitraum hat nicht mehr).</translation>
    </message>
    <message>
        <source>Blind audit</source>
        <extracomment>a post judged (the lead saw it): a key, its queue&apos;s config, the policies of the decision of record, the config of the queue it came from (when that harm counts) — for the window&apos;s shift tally, as a verdict of the review flow is</extracomment>
        <translation>Blindes Audit</translation>
    </message>
    <message>
        <source>Audit progress</source>
        <extracomment>each action&apos;s key in a queue, the reviewer&apos;s own where set (``ui.keys``) fetching the next task or recording a judgement the audit id of the task shown that the service refused to overturn (appealed or back in review since the draw): S (or Leave) sets it aside and goes on</extracomment>
        <translation>Fortschritt des Audits</translation>
    </message>
    <message>
        <source>Last audit result</source>
        <translation>Letztes Audit-Ergebnis</translation>
    </message>
    <message>
        <source>Stop auditing (Alt+S)</source>
        <translation>Audit beenden (Alt+S)</translation>
    </message>
    <message>
        <source>Leave this post (S)</source>
        <translation>Diesen Beitrag auslassen (S)</translation>
    </message>
    <message>
        <source>Decide each post as a reviewer would (same keys). The original decision is hidden until you have decided; the same decision records agreement, another one overturns it and becomes the decision of record.</source>
        <translation>Entscheiden Sie jeden Beitrag wie ein Prüfer (gleiche Tasten). Die ursprüngliche Entscheidung bleibt verborgen, bis Sie entschieden haben; dieselbe Entscheidung gilt als Übereinstimmung, eine andere hebt sie auf und wird zur maßgeblichen Entscheidung.</translation>
    </message>
    <message>
        <source>Sample #{id}: fetching the next post…</source>
        <translation>Stichprobe #{id}: nächster Beitrag wird geholt…</translation>
    </message>
    <message>
        <source>Sample #{id}: every post is judged.</source>
        <translation>Stichprobe #{id}: alle Beiträge sind beurteilt.</translation>
    </message>
    <message>
        <source>Audit sample #{id} is complete.</source>
        <translation>Audit-Stichprobe #{id} ist abgeschlossen.</translation>
    </message>
    <message>
        <source>Sample #{id}: %Ln post(s) left to judge (item {item})</source>
        <translation>Stichprobe #{id}: noch %Ln Beitrag zu beurteilen (Eintrag {item})|Stichprobe #{id}: noch %Ln Beiträge zu beurteilen (Eintrag {item})</translation>
    </message>
    <message>
        <source>Post {item} left the sample without a result: it can no longer be audited ({reason}).</source>
        <translation>Beitrag {item} hat die Stichprobe ohne Ergebnis verlassen: Er kann nicht mehr geprüft werden ({reason}).</translation>
    </message>
    <message>
        <source>auditing</source>
        <translation>Auditieren</translation>
    </message>
    <message>
        <source>No audit in progress.</source>
        <translation>Kein Audit im Gange.</translation>
    </message>
    <message>
        <source>The queue {queue} is not known to this app yet.</source>
        <translation>Die Warteschlange {queue} ist dieser App noch nicht bekannt.</translation>
    </message>
    <message>
        <source>An audit decides: it cannot escalate, skip or be undone. Stop auditing to leave the sample for later.</source>
        <translation>Ein Audit entscheidet: Es kann nicht eskalieren, überspringen oder rückgängig gemacht werden. Beenden Sie das Audit, um die Stichprobe für später zu lassen.</translation>
    </message>
    <message>
        <source>An audit must decide; it cannot escalate.</source>
        <extracomment>the task fetched and not shown yet, and the one shown</extracomment>
        <translation>Ein Audit muss entscheiden; es kann nicht eskalieren.</translation>
    </message>
    <message>
        <source>Recording your judgement…</source>
        <translation>Ihr Urteil wird erfasst…</translation>
    </message>
    <message>
        <source>Your judgement differs from the original, but this post can no longer be overturned ({reason}). Press S (or Leave this post) to leave it out of the sample and go on to the next post.</source>
        <translation>Ihr Urteil weicht vom ursprünglichen ab, aber dieser Beitrag kann nicht mehr aufgehoben werden ({reason}). Drücken Sie S (oder „Diesen Beitrag auslassen“), um ihn aus der Stichprobe zu nehmen und zum nächsten Beitrag zu gehen.</translation>
    </message>
    <message>
        <source>Agreed on {item}: the original was {original}.</source>
        <translation>Bestätigt für {item}: Die ursprüngliche Entscheidung war {original}.</translation>
    </message>
    <message>
        <source>Overturned on {item}: the original was {original}; yours ({yours}) is now the decision of record.</source>
        <translation>Aufgehoben für {item}: Die ursprüngliche Entscheidung war {original}; Ihre ({yours}) ist jetzt die maßgebliche Entscheidung.</translation>
    </message>
    <message>
        <source>Audits</source>
        <translation>Audits</translation>
    </message>
    <message>
        <source>How to draw the sample</source>
        <translation>Wie die Stichprobe gezogen wird</translation>
    </message>
    <message>
        <source>Sample size</source>
        <translation>Stichprobengröße</translation>
    </message>
    <message>
        <source>Decisions from</source>
        <translation>Entscheidungen aus</translation>
    </message>
    <message>
        <source>Queue of the sample</source>
        <translation>Warteschlange der Stichprobe</translation>
    </message>
    <message>
        <source>Draw sample</source>
        <translation>Stichprobe ziehen</translation>
    </message>
    <message>
        <source>Audits status</source>
        <translation>Status der Audits</translation>
    </message>
    <message>
        <source>Audit samples</source>
        <translation>Audit-Stichproben</translation>
    </message>
    <message>
        <source>Audit this sample (blind)</source>
        <translation>Diese Stichprobe auditieren (blind)</translation>
    </message>
    <message>
        <source>Show results</source>
        <translation>Ergebnisse zeigen</translation>
    </message>
    <message>
        <source>Audit results</source>
        <translation>Audit-Ergebnisse</translation>
    </message>
    <message>
        <source>Agreement per reviewer</source>
        <translation>Übereinstimmung pro Prüfer</translation>
    </message>
    <message>
        <source>Draw</source>
        <translation>Ziehe</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>from the</source>
        <translation>aus den</translation>
    </message>
    <message>
        <source>in</source>
        <translation>in</translation>
    </message>
    <message>
        <source>Results of the selected sample:</source>
        <translation>Ergebnisse der gewählten Stichprobe:</translation>
    </message>
    <message>
        <source>Results of the selected sample</source>
        <translation>Ergebnisse der gewählten Stichprobe</translation>
    </message>
    <message>
        <source>Agreement with the auditors, per reviewer:</source>
        <translation>Übereinstimmung mit den Auditoren, pro Prüfer:</translation>
    </message>
    <message>
        <source>No samples yet: draw one above.</source>
        <translation>Noch keine Stichproben: Ziehen Sie oben eine.</translation>
    </message>
    <message>
        <source>Drawing the sample…</source>
        <translation>Stichprobe wird gezogen…</translation>
    </message>
    <message>
        <source>Sample #{id}: %n decision(s) drawn.</source>
        <translation>Stichprobe #{id}: %n Entscheidung gezogen.|Stichprobe #{id}: %n Entscheidungen gezogen.</translation>
    </message>
    <message>
        <source>Select a sample first.</source>
        <translation>Wählen Sie zuerst eine Stichprobe.</translation>
    </message>
    <message>
        <source>Results of sample #{id}: {n} of {total} judged.</source>
        <translation>Ergebnisse der Stichprobe #{id}: {n} von {total} beurteilt.</translation>
    </message>
</context>
<context>
    <name>LeadBreaks</name>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Break reminders</source>
        <translation>Pausenerinnerungen</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Remind after minutes of work</source>
        <translation>Nach Minuten Arbeit erinnern</translation>
    </message>
    <message>
        <source> min</source>
        <translation> Min.</translation>
    </message>
    <message>
        <source>Remind after high-harm posts</source>
        <translation>Nach besonders belastenden Beiträgen erinnern</translation>
    </message>
    <message>
        <source>Queue:</source>
        <translation>Warteschlange:</translation>
    </message>
    <message>
        <source>After minutes of work:</source>
        <translation>Nach Minuten Arbeit:</translation>
    </message>
    <message>
        <source>After high-harm posts:</source>
        <translation>Nach belastenden Beiträgen:</translation>
    </message>
    <message>
        <source>Whichever comes first, since the shift began or the last break. Never for both: no reminders in this queue. Each reviewer may still turn reminders off for themselves.</source>
        <translation>Was zuerst eintritt, seit Schichtbeginn oder der letzten Pause. Beides „nie“: keine Erinnerungen in dieser Warteschlange. Jede Prüferin und jeder Prüfer kann Erinnerungen für sich selbst ausschalten.</translation>
    </message>
    <message>
        <source>Break reminders status</source>
        <translation>Status der Pausenerinnerungen</translation>
    </message>
    <message>
        <source>Reading the queues…</source>
        <translation>Warteschlangen werden gelesen…</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert…</translation>
    </message>
    <message>
        <source>reading the queues</source>
        <translation>Lesen der Warteschlangen</translation>
    </message>
    <message>
        <source>saving the break reminders</source>
        <translation>Speichern der Pausenerinnerungen</translation>
    </message>
    <message>
        <source>Someone else changed this queue&apos;s break reminders while this dialog was open: nothing was saved. Shown now as they are; change them again and save.</source>
        <translation>Jemand anderes hat die Pausenerinnerungen dieser Warteschlange geändert, während dieser Dialog offen war: Nichts wurde gespeichert. Sie werden jetzt so angezeigt, wie sie sind; ändern Sie sie erneut und speichern Sie.</translation>
    </message>
    <message>
        <source>Break reminders of {queue} saved (configuration {n}).</source>
        <translation>Pausenerinnerungen für {queue} gespeichert (Konfiguration {n}).</translation>
    </message>
</context>
<context>
    <name>LeadDecisions</name>
    <message>
        <source>Audited or not</source>
        <translation>Auditiert oder nicht</translation>
    </message>
    <message>
        <source>Audited only</source>
        <translation>Nur auditierte</translation>
    </message>
    <message>
        <source>Not audited</source>
        <translation>Nicht auditiert</translation>
    </message>
    <message>
        <source>entered the queue</source>
        <extracomment>events of one item&apos;s history shown at most (pages of 100)</extracomment>
        <translation>in die Warteschlange aufgenommen</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>übernommen</translation>
    </message>
    <message>
        <source>lease renewed</source>
        <translation>Reservierung verlängert</translation>
    </message>
    <message>
        <source>given back</source>
        <translation>zurückgegeben</translation>
    </message>
    <message>
        <source>lease expired</source>
        <translation>Reservierung abgelaufen</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>entschieden</translation>
    </message>
    <message>
        <source>escalated</source>
        <translation>eskaliert</translation>
    </message>
    <message>
        <source>escalation assigned</source>
        <translation>Eskalation zugewiesen</translation>
    </message>
    <message>
        <source>user created</source>
        <translation>Benutzer angelegt</translation>
    </message>
    <message>
        <source>role changed</source>
        <translation>Rolle geändert</translation>
    </message>
    <message>
        <source>password set</source>
        <translation>Passwort gesetzt</translation>
    </message>
    <message>
        <source>access ended</source>
        <translation>Zugang beendet</translation>
    </message>
    <message>
        <source>picked for an audit</source>
        <translation>für ein Audit ausgewählt</translation>
    </message>
    <message>
        <source>audited</source>
        <translation>auditiert</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>aufgehoben</translation>
    </message>
    <message>
        <source>new version of the post from the platform</source>
        <translation>neue Fassung des Beitrags von der Plattform</translation>
    </message>
    <message>
        <source>new signal</source>
        <translation>neues Signal</translation>
    </message>
    <message>
        <source>withdrawn by the platform</source>
        <translation>von der Plattform zurückgezogen</translation>
    </message>
    <message>
        <source>back for review</source>
        <translation>erneut zur Prüfung</translation>
    </message>
    <message>
        <source>queue configuration applied</source>
        <translation>Warteschlangen-Konfiguration angewendet</translation>
    </message>
    <message>
        <source>moved to another queue</source>
        <translation>in eine andere Warteschlange verschoben</translation>
    </message>
    <message>
        <source>API key created</source>
        <translation>API-Schlüssel erstellt</translation>
    </message>
    <message>
        <source>API key revoked</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>account action on the author</source>
        <translation>Kontomaßnahme gegen den Autor</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>durch eine Kontomaßnahme erledigt</translation>
    </message>
    <message>
        <source>held back: the author is actioned</source>
        <translation>zurückgehalten: gegen den Autor wurde vorgegangen</translation>
    </message>
    <message>
        <source>webhook endpoint added</source>
        <translation>Webhook-Endpunkt hinzugefügt</translation>
    </message>
    <message>
        <source>webhook endpoint disabled</source>
        <translation>Webhook-Endpunkt deaktiviert</translation>
    </message>
    <message>
        <source>webhook endpoint enabled</source>
        <translation>Webhook-Endpunkt aktiviert</translation>
    </message>
    <message>
        <source>webhook signing secret changed</source>
        <translation>Signaturschlüssel des Webhooks gewechselt</translation>
    </message>
    <message>
        <source>webhook actions sent again</source>
        <translation>Webhook-Maßnahmen erneut gesendet</translation>
    </message>
    <message>
        <source>could not be shown to reviewers: set aside</source>
        <translation>konnte Prüfern nicht gezeigt werden: zurückgestellt</translation>
    </message>
    <message>
        <source>appealed by the user</source>
        <translation>vom Nutzer angefochten</translation>
    </message>
    <message>
        <source>action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>policies</source>
        <translation>Richtlinien</translation>
    </message>
    <message>
        <source>rating</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>audit result</source>
        <translation>Audit-Ergebnis</translation>
    </message>
    <message>
        <source>decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>replaces decision</source>
        <translation>ersetzt Entscheidung</translation>
    </message>
    <message>
        <source>to queue</source>
        <translation>in Warteschlange</translation>
    </message>
    <message>
        <source>why queued</source>
        <translation>warum eingereiht</translation>
    </message>
    <message>
        <source>lease until</source>
        <translation>reserviert bis</translation>
    </message>
    <message>
        <source>audit sample</source>
        <translation>Audit-Stichprobe</translation>
    </message>
    <message>
        <source>audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>post</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>previous version</source>
        <translation>vorherige Version</translation>
    </message>
    <message>
        <source>signal</source>
        <translation>Signal</translation>
    </message>
    <message>
        <source>kind of signal</source>
        <translation>Art des Signals</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>score</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>organisation</source>
        <translation>Organisation</translation>
    </message>
    <message>
        <source>routing rule</source>
        <translation>Zuordnungsregel</translation>
    </message>
    <message>
        <source>source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>earlier item</source>
        <translation>früherer Eintrag</translation>
    </message>
    <message>
        <source>earlier decision</source>
        <translation>frühere Entscheidung</translation>
    </message>
    <message>
        <source>earlier action</source>
        <translation>frühere Aktion</translation>
    </message>
    <message>
        <source>new item</source>
        <translation>neuer Eintrag</translation>
    </message>
    <message>
        <source>from queue</source>
        <translation>aus Warteschlange</translation>
    </message>
    <message>
        <source>state</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>lease ended</source>
        <translation>Reservierung beendet</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>key prefix</source>
        <translation>Schlüsselpräfix</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>service account</source>
        <translation>Dienstkonto</translation>
    </message>
    <message>
        <source>queues</source>
        <translation>Warteschlangen</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>emptied into</source>
        <translation>geleert nach</translation>
    </message>
    <message>
        <source>file hash</source>
        <translation>Datei-Hash</translation>
    </message>
    <message>
        <source>queues added</source>
        <translation>Warteschlangen hinzugefügt</translation>
    </message>
    <message>
        <source>queues removed</source>
        <translation>Warteschlangen entfernt</translation>
    </message>
    <message>
        <source>queues changed</source>
        <translation>Warteschlangen geändert</translation>
    </message>
    <message>
        <source>waiting items moved</source>
        <translation>wartende Einträge verschoben</translation>
    </message>
    <message>
        <source>reserved items moved</source>
        <translation>reservierte Einträge verschoben</translation>
    </message>
    <message>
        <source>author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>author id</source>
        <translation>Autor-ID</translation>
    </message>
    <message>
        <source>account action</source>
        <translation>Kontomaßnahme</translation>
    </message>
    <message>
        <source>account status before</source>
        <translation>Kontostatus vorher</translation>
    </message>
    <message>
        <source>account status</source>
        <translation>Kontostatus</translation>
    </message>
    <message>
        <source>account decision</source>
        <translation>Kontoentscheidung</translation>
    </message>
    <message>
        <source>open items closed</source>
        <translation>offene Einträge geschlossen</translation>
    </message>
    <message>
        <source>reverses account decision</source>
        <translation>hebt Kontoentscheidung auf</translation>
    </message>
    <message>
        <source>webhook endpoint</source>
        <translation>Webhook-Endpunkt</translation>
    </message>
    <message>
        <source>address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>action kinds</source>
        <translation>Arten von Maßnahmen</translation>
    </message>
    <message>
        <source>from cursor</source>
        <translation>ab Cursor</translation>
    </message>
    <message>
        <source>cursor before</source>
        <translation>Cursor vorher</translation>
    </message>
    <message>
        <source>old secret signs until</source>
        <translation>alter Schlüssel signiert bis</translation>
    </message>
    <message>
        <source>Decided at</source>
        <extracomment>decisions asked for per page (the service allows up to 500); small pages keep the worker&apos;s hold on the GIL short while the view paints characters of a note&apos;s first line shown in the table</extracomment>
        <translation>Entschieden am</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>Richtlinien</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>Bewertung</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Kind / audit</source>
        <translation>Art / Audit</translation>
    </message>
    <message>
        <source>Author now</source>
        <translation>Autor jetzt</translation>
    </message>
    <message>
        <source>review</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>overturn</source>
        <translation>Aufhebung</translation>
    </message>
    <message>
        <source>of #{id}</source>
        <translation>von #{id}</translation>
    </message>
    <message>
        <source>, audit agreed</source>
        <translation>, Audit bestätigt</translation>
    </message>
    <message>
        <source>, audit overturned it</source>
        <translation>, Audit hob sie auf</translation>
    </message>
    <message>
        <source>loading decisions</source>
        <extracomment>the page being fetched; a newer one (filters changed) drops its result the words of the queues the lead sees (``set_queues``), by queue id</extracomment>
        <translation>Laden der Entscheidungen</translation>
    </message>
    <message>
        <source>by {actor}</source>
        <extracomment>details that name a queue (by its id on the wire)</extracomment>
        <translation>von {actor}</translation>
    </message>
    <message>
        <source>in {queue}</source>
        <translation>in {queue}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Could not write {path}: {reason}. No file was written; choose another folder or free some disk space.</source>
        <translation>{path} konnte nicht geschrieben werden: {reason}. Es wurde keine Datei geschrieben; wählen Sie einen anderen Ordner oder schaffen Sie Speicherplatz.</translation>
    </message>
    <message>
        <source>exporting decisions</source>
        <translation>Exportieren der Entscheidungen</translation>
    </message>
    <message>
        <source>No file was written.</source>
        <translation>Es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <source>Decisions browser</source>
        <extracomment>screens of rows kept loaded ahead of the visible ones</extracomment>
        <translation>Entscheidungsübersicht</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Select a decision to see its item&apos;s history.</source>
        <translation>Wählen Sie eine Entscheidung, um den Verlauf ihres Eintrags zu sehen.</translation>
    </message>
    <message>
        <source>%Ln decision(s), all shown.</source>
        <translation>%Ln Entscheidung, alle angezeigt.|%Ln Entscheidungen, alle angezeigt.</translation>
    </message>
    <message>
        <source>%Ln decision(s) loaded so far; scroll down for more.</source>
        <translation>%Ln Entscheidung bisher geladen; für mehr nach unten scrollen.|%Ln Entscheidungen bisher geladen; für mehr nach unten scrollen.</translation>
    </message>
    <message>
        <source>Item history</source>
        <translation>Verlauf des Eintrags</translation>
    </message>
    <message>
        <source>Item history title</source>
        <translation>Titel des Eintragsverlaufs</translation>
    </message>
    <message>
        <source>Decisions status</source>
        <translation>Status der Entscheidungen</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Try loading the decisions again</source>
        <translation>Entscheidungen erneut laden</translation>
    </message>
    <message>
        <source>Queue filter</source>
        <translation>Filter nach Warteschlange</translation>
    </message>
    <message>
        <source>Any queue</source>
        <translation>Jede Warteschlange</translation>
    </message>
    <message>
        <source>any reviewer</source>
        <translation>jeder Prüfer</translation>
    </message>
    <message>
        <source>Reviewer filter</source>
        <translation>Filter nach Prüfer</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>jede Aktion</translation>
    </message>
    <message>
        <source>Action filter</source>
        <translation>Filter nach Aktion</translation>
    </message>
    <message>
        <source>any policy code</source>
        <translation>jeder Richtliniencode</translation>
    </message>
    <message>
        <source>Policy filter</source>
        <translation>Filter nach Richtlinie</translation>
    </message>
    <message>
        <source>any item</source>
        <translation>jeder Eintrag</translation>
    </message>
    <message>
        <source>Item filter</source>
        <translation>Filter nach Eintrag</translation>
    </message>
    <message>
        <source>Audited filter</source>
        <translation>Filter nach Audit</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Limit to decisions from a time</source>
        <translation>Auf Entscheidungen ab einem Zeitpunkt beschränken</translation>
    </message>
    <message>
        <source>Decided from</source>
        <translation>Entschieden ab</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Limit to decisions before a time</source>
        <translation>Auf Entscheidungen vor einem Zeitpunkt beschränken</translation>
    </message>
    <message>
        <source>Decided before</source>
        <translation>Entschieden vor</translation>
    </message>
    <message>
        <source>Apply filters</source>
        <translation>Filter anwenden</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>Filter leeren</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>Export cancelled after %Ln decision(s); no file was written.</source>
        <translation>Export nach %Ln Entscheidung abgebrochen; es wurde keine Datei geschrieben.|Export nach %Ln Entscheidungen abgebrochen; es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Export the decisions shown as CSV</source>
        <translation>Die angezeigten Entscheidungen als CSV exportieren</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>Fortschritt des Exports</translation>
    </message>
    <message>
        <source>Export status</source>
        <translation>Status des Exports</translation>
    </message>
    <message>
        <source>Cancel export</source>
        <translation>Export abbrechen</translation>
    </message>
    <message>
        <source>Cancel the export</source>
        <translation>Den Export abbrechen</translation>
    </message>
    <message>
        <source>Exported %Ln decision(s) to {path}.</source>
        <translation>%Ln Entscheidung nach {path} exportiert.|%Ln Entscheidungen nach {path} exportiert.</translation>
    </message>
    <message>
        <source>Exporting… %Ln decision(s) written so far.</source>
        <translation>Export läuft… bisher %Ln Entscheidung geschrieben.|Export läuft… bisher %Ln Entscheidungen geschrieben.</translation>
    </message>
    <message>
        <source>Note to reviewer…</source>
        <translation>Notiz an Prüfer…</translation>
    </message>
    <message>
        <source>Write a note to the selected decision&apos;s reviewer</source>
        <translation>Eine Notiz an den Prüfer der ausgewählten Entscheidung schreiben</translation>
    </message>
    <message>
        <source>“Until” must be later than “From”; nothing was changed.</source>
        <translation>„Bis“ muss später als „Von“ sein; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>“{field}” cannot match any decision as written (reviewers and actions are written in lower case, policy codes in capitals such as HATE.2); nothing was changed.</source>
        <translation>„{field}“ passt so geschrieben auf keine Entscheidung (Prüfende und Aktionen werden kleingeschrieben, Richtliniencodes in Großbuchstaben wie HATE.2); nichts wurde geändert.</translation>
    </message>
    <message>
        <source>No decisions match these filters.</source>
        <translation>Keine Entscheidungen passen zu diesen Filtern.</translation>
    </message>
    <message>
        <source>Loading decisions…</source>
        <translation>Entscheidungen werden geladen…</translation>
    </message>
    <message>
        <source>Note sent to {reviewer}.</source>
        <translation>Notiz an {reviewer} gesendet.</translation>
    </message>
    <message>
        <source>History of item {item}</source>
        <translation>Verlauf des Eintrags {item}</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Verlauf wird geladen…</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Hidden while you audit blind.</source>
        <translation>Ausgeblendet, solange Sie blind auditieren.</translation>
    </message>
    <message>
        <source>loading the history</source>
        <translation>Laden des Verlaufs</translation>
    </message>
    <message>
        <source>only the first {n} events are shown.</source>
        <translation>nur die ersten {n} Ereignisse werden angezeigt.</translation>
    </message>
    <message>
        <source>No events recorded for this item.</source>
        <translation>Für diesen Eintrag sind keine Ereignisse erfasst.</translation>
    </message>
    <message>
        <source>Export decisions as CSV</source>
        <translation>Entscheidungen als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot write {path}: choose a file in a folder.</source>
        <translation>{path} kann nicht geschrieben werden: Wählen Sie eine Datei in einem Ordner.</translation>
    </message>
    <message>
        <source>Exporting to {path}…</source>
        <translation>Export nach {path}…</translation>
    </message>
    <message>
        <source>Cancelling the export…</source>
        <translation>Export wird abgebrochen…</translation>
    </message>
    <message>
        <source>Note to reviewer</source>
        <translation>Notiz an Prüfer</translation>
    </message>
    <message>
        <source>What the reviewer should know about this decision</source>
        <translation>Was der Prüfer über diese Entscheidung wissen sollte</translation>
    </message>
    <message>
        <source>Note status</source>
        <translation>Status der Notiz</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>{reviewer} reads this note in My decisions, and is told of it at their next login.</source>
        <translation>{reviewer} liest diese Notiz unter “Meine Entscheidungen” und wird bei der nächsten Anmeldung darauf hingewiesen.</translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation>Zuerst die Notiz schreiben.</translation>
    </message>
    <message>
        <source>A note may be at most {n} characters.</source>
        <translation>Eine Notiz darf höchstens {n} Zeichen lang sein.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Wird gesendet…</translation>
    </message>
    <message>
        <source>sending the note</source>
        <translation>Senden der Notiz</translation>
    </message>
</context>
<context>
    <name>LeadEscalations</name>
    <message>
        <source>Waiting</source>
        <translation>Wartet</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Escalated by</source>
        <translation>Eskaliert von</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>Gehalten von</translation>
    </message>
    <message>
        <source>Assigned to</source>
        <translation>Zugewiesen an</translation>
    </message>
    <message>
        <source>routed by triage</source>
        <translation>von der Triage zugeordnet</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>kein Grund angegeben</translation>
    </message>
    <message>
        <source>{queue} (a queue since removed)</source>
        <translation>{queue} (eine inzwischen entfernte Warteschlange)</translation>
    </message>
    <message>
        <source>Not changed: {lead} has this escalation now.</source>
        <translation>Nicht geändert: {lead} hat diese Eskalation jetzt.</translation>
    </message>
    <message>
        <source>Not changed: this escalation is assigned to nobody now.</source>
        <translation>Nicht geändert: Diese Eskalation ist jetzt niemandem zugewiesen.</translation>
    </message>
    <message>
        <source>Another lead changed its assignment after your list was read.</source>
        <translation>Eine andere Teamleitung hat die Zuweisung geändert, nachdem Ihre Liste gelesen wurde.</translation>
    </message>
    <message>
        <source>The list was read again: assign it anew if it should still move.</source>
        <translation>Die Liste wurde neu gelesen: Weisen Sie sie neu zu, falls sie trotzdem wechseln soll.</translation>
    </message>
    <message>
        <source>It no longer waits in the escalation queue: nothing to assign.</source>
        <translation>Sie wartet nicht mehr in der Eskalations-Warteschlange: nichts zuzuweisen.</translation>
    </message>
    <message>
        <source>Pick another one from the list.</source>
        <translation>Wählen Sie eine andere aus der Liste.</translation>
    </message>
    <message>
        <source>{wait} (over SLA)</source>
        <translation>{wait} (über SLA)</translation>
    </message>
    <message>
        <source>triage</source>
        <translation>Triage</translation>
    </message>
    <message>
        <source>Who holds what</source>
        <translation>Wer hält was</translation>
    </message>
    <message>
        <source>Open escalations</source>
        <translation>Offene Eskalationen</translation>
    </message>
    <message>
        <source>Review this one now</source>
        <translation>Diese jetzt prüfen</translation>
    </message>
    <message>
        <source>Assign to me</source>
        <translation>Mir zuweisen</translation>
    </message>
    <message>
        <source>Lead to assign to</source>
        <translation>Zuzuweisende Teamleitung</translation>
    </message>
    <message>
        <source>Assign to this lead</source>
        <translation>Dieser Teamleitung zuweisen</translation>
    </message>
    <message>
        <source>Assign to nobody</source>
        <translation>Niemandem zuweisen</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Was geschah</translation>
    </message>
    <message>
        <source>Routed here by triage: {n} open</source>
        <translation>Von der Triage hierher geleitet: {n} offen</translation>
    </message>
    <message>
        <source>{lead} ({n})</source>
        <translation>{lead} ({n})</translation>
    </message>
    <message>
        <source>Held by: {held}. Assigned to: {assigned}.</source>
        <translation>Gehalten von: {held}. Zugewiesen an: {assigned}.</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>niemand</translation>
    </message>
    <message>
        <source>The service no longer lets this account see the escalations (it may no longer be a lead&apos;s), so the list was cleared.</source>
        <translation>Der Dienst zeigt diesem Konto die Eskalationen nicht mehr (es gehört vielleicht keiner Leitung mehr), daher wurde die Liste geleert.</translation>
    </message>
    <message>
        <source>{lead} is deciding this escalation now; it comes to you if they let it go.</source>
        <translation>{lead} entscheidet diese Eskalation gerade; sie kommt zu Ihnen, wenn sie sie freigeben.</translation>
    </message>
    <message>
        <source>Type or pick the lead to assign it to.</source>
        <translation>Die zuzuweisende Teamleitung eingeben oder wählen.</translation>
    </message>
    <message>
        <source>This escalation was decided already.</source>
        <translation>Diese Eskalation wurde bereits entschieden.</translation>
    </message>
    <message>
        <source>Assigned to {lead}.</source>
        <translation>{lead} zugewiesen.</translation>
    </message>
    <message>
        <source>Assigned to nobody: any lead may take it.</source>
        <translation>Niemandem zugewiesen: jede Teamleitung kann sie übernehmen.</translation>
    </message>
    <message>
        <source>assigning the escalation</source>
        <translation>Zuweisen der Eskalation</translation>
    </message>
</context>
<context>
    <name>LeadQuality</name>
    <message>
        <source>fast: median {s} s</source>
        <translation>schnell: Median {s} s</translation>
    </message>
    <message>
        <source>action mix far from the others&apos; in {queue} ({d})</source>
        <translation>Aktionsverteilung in {queue} weit von der der anderen entfernt ({d})</translation>
    </message>
    <message>
        <source>overturns up: {before} → {now}</source>
        <translation>Aufhebungen gestiegen: {before} → {now}</translation>
    </message>
    <message>
        <source>Quality flag thresholds</source>
        <translation>Schwellenwerte für Qualitätsmarkierungen</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Flag a median handle time under</source>
        <translation>Markieren bei einer medianen Bearbeitungszeit unter</translation>
    </message>
    <message>
        <source>Flag an action mix farther from the others&apos; than</source>
        <translation>Markieren bei einer Aktionsverteilung weiter von der der anderen entfernt als</translation>
    </message>
    <message>
        <source> points</source>
        <translation> Punkte</translation>
    </message>
    <message>
        <source>Flag an overturn rate up by</source>
        <translation>Markieren bei einem Anstieg der Aufhebungsquote um</translation>
    </message>
    <message>
        <source>with at least decisions</source>
        <translation>bei einer Mindestanzahl an Entscheidungen von</translation>
    </message>
    <message>
        <source>Flag: median under</source>
        <translation>Markierung: Median unter</translation>
    </message>
    <message>
        <source>mix distance over</source>
        <translation>Verteilungsabstand über</translation>
    </message>
    <message>
        <source>overturns up by</source>
        <translation>Aufhebungen gestiegen um</translation>
    </message>
    <message>
        <source>with at least</source>
        <translation>bei mindestens</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Median handle</source>
        <translation>Mediane Bearbeitungszeit</translation>
    </message>
    <message>
        <source>Overturned</source>
        <translation>Aufgehoben</translation>
    </message>
    <message>
        <source>Select a reviewer for their trend.</source>
        <extracomment>the time zone the days are of (``ReviewerTrend.time_zone``); None: this machine&apos;s</extracomment>
        <translation>Einen Prüfer auswählen, um seinen Verlauf zu sehen.</translation>
    </message>
    <message>
        <source>Trend</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Reviewer&apos;s trend by day</source>
        <translation>Verlauf des Prüfers nach Tagen</translation>
    </message>
    <message>
        <source>Loading the trend of {name}…</source>
        <translation>Verlauf von {name} wird geladen…</translation>
    </message>
    <message>
        <source>{name}, day by day</source>
        <translation>{name}, Tag für Tag</translation>
    </message>
    <message>
        <source>loading the trend</source>
        <translation>Laden des Verlaufs</translation>
    </message>
</context>
<context>
    <name>LeadSearch</name>
    <message>
        <source>Author (handle, platform id, name)</source>
        <extracomment>Saved views a key opens: Ctrl+Shift+1 … Ctrl+Shift+9, in the picker&apos;s order.</extracomment>
        <translation>Autor (Handle, Plattform-ID, Name)</translation>
    </message>
    <message>
        <source>Post text</source>
        <translation>Beitragstext</translation>
    </message>
    <message>
        <source>Post platform id or URL</source>
        <translation>Plattform-ID oder URL des Beitrags</translation>
    </message>
    <message>
        <source>Link domain</source>
        <translation>Link-Domain</translation>
    </message>
    <message>
        <source>Report reason</source>
        <translation>Meldegrund</translation>
    </message>
    <message>
        <source>waiting</source>
        <extracomment>an item&apos;s state in words (the wire&apos;s code, &quot;pending&quot;, was shown in every language)</extracomment>
        <translation>wartet</translation>
    </message>
    <message>
        <source>being reviewed</source>
        <translation>in Prüfung</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>entschieden</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>zurückgezogen</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>durch eine Kontomaßnahme erledigt</translation>
    </message>
    <message>
        <source>cannot be shown</source>
        <translation>nicht darstellbar</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Entschieden</translation>
    </message>
    <message>
        <source>Save view</source>
        <translation>Ansicht speichern</translation>
    </message>
    <message>
        <source>View name</source>
        <translation>Name der Ansicht</translation>
    </message>
    <message>
        <source>Share with the team (every lead)</source>
        <translation>Mit dem Team teilen (jede Teamleitung)</translation>
    </message>
    <message>
        <source>Share the view</source>
        <translation>Ansicht teilen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Search in</source>
        <translation>Suchen in</translation>
    </message>
    <message>
        <source>what to find (author and text: 3 characters or more)</source>
        <translation>was gefunden werden soll (Autor und Text: mindestens 3 Zeichen)</translation>
    </message>
    <message>
        <source>Search for</source>
        <translation>Suchen nach</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Saved views</source>
        <translation>Gespeicherte Ansichten</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Open the saved view</source>
        <translation>Gespeicherte Ansicht öffnen</translation>
    </message>
    <message>
        <source>Save search…</source>
        <translation>Suche speichern…</translation>
    </message>
    <message>
        <source>Save this search as a view</source>
        <translation>Diese Suche als Ansicht speichern</translation>
    </message>
    <message>
        <source>Save Decisions filter…</source>
        <translation>Filter “Entscheidungen” speichern…</translation>
    </message>
    <message>
        <source>Save the Decisions tab&apos;s filter as a view</source>
        <translation>Filter des Tabs “Entscheidungen” als Ansicht speichern</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the saved view</source>
        <translation>Gespeicherte Ansicht löschen</translation>
    </message>
    <message>
        <source>Saved views:</source>
        <translation>Gespeicherte Ansichten:</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>Suchergebnisse</translation>
    </message>
    <message>
        <source>Search status</source>
        <translation>Status der Suche</translation>
    </message>
    <message>
        <source>More results</source>
        <translation>Weitere Ergebnisse</translation>
    </message>
    <message>
        <source>Load more results</source>
        <translation>Weitere Ergebnisse laden</translation>
    </message>
    <message>
        <source>Decide these together…</source>
        <translation>Diese gemeinsam entscheiden…</translation>
    </message>
    <message>
        <source>Decide the selected open posts together</source>
        <translation>Ausgewählte offene Beiträge gemeinsam entscheiden</translation>
    </message>
    <message>
        <source>Type something to search for.</source>
        <translation>Einen Suchbegriff eingeben.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Suche läuft…</translation>
    </message>
    <message>
        <source>Nothing found.</source>
        <translation>Nichts gefunden.</translation>
    </message>
    <message>
        <source>Delete saved view</source>
        <translation>Gespeicherte Ansicht löschen</translation>
    </message>
    <message>
        <source>Delete the view {name}, shared by {owner} with every lead? It is gone for all of them; this cannot be undone.</source>
        <translation>Die Ansicht {name} löschen, die {owner} mit jeder Teamleitung teilt? Sie ist dann für alle weg; das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>%Ln item(s) shown, newest first; more below.</source>
        <translation>%Ln Eintrag angezeigt, neueste zuerst; weitere unten.|%Ln Einträge angezeigt, neueste zuerst; weitere unten.</translation>
    </message>
    <message>
        <source>%Ln item(s) found, newest first.</source>
        <translation>%Ln Eintrag gefunden, neueste zuerst.|%Ln Einträge gefunden, neueste zuerst.</translation>
    </message>
    <message>
        <source>At most {max} posts can be decided together: {n} open posts are selected. Select fewer (narrow the search, or select a part of the results) and decide the rest afterwards.</source>
        <translation>Höchstens {max} Beiträge können gemeinsam entschieden werden: {n} offene Beiträge sind ausgewählt. Wählen Sie weniger aus (engen Sie die Suche ein oder wählen Sie einen Teil der Ergebnisse) und entscheiden Sie den Rest danach.</translation>
    </message>
    <message>
        <source>%Ln selected post(s) decided already: left out.</source>
        <translation>%Ln ausgewählter Beitrag ist schon entschieden: ausgelassen.|%Ln ausgewählte Beiträge sind schon entschieden: ausgelassen.</translation>
    </message>
    <message>
        <source>searching</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Select open posts first (Ctrl or Shift and click): decided posts are changed by an audit, not decided again.</source>
        <translation>Zuerst offene Beiträge auswählen (Ctrl oder Shift und klicken): Entschiedene Beiträge werden durch ein Audit geändert, nicht erneut entschieden.</translation>
    </message>
    <message>
        <source>loading the saved views</source>
        <translation>Laden der gespeicherten Ansichten</translation>
    </message>
    <message>
        <source>search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>shared by {owner}</source>
        <translation>geteilt von {owner}</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privat</translation>
    </message>
    <message>
        <source>No saved views yet</source>
        <translation>Noch keine gespeicherten Ansichten</translation>
    </message>
    <message>
        <source>No saved view {n}.</source>
        <translation>Keine gespeicherte Ansicht {n}.</translation>
    </message>
    <message>
        <source>A view&apos;s name is one line of up to {n} characters, with no control characters. Nothing was saved.</source>
        <translation>Der Name einer Ansicht ist eine Zeile mit bis zu {n} Zeichen, ohne Steuerzeichen. Nichts wurde gespeichert.</translation>
    </message>
    <message>
        <source>Saved the view {name}.</source>
        <translation>Ansicht {name} gespeichert.</translation>
    </message>
    <message>
        <source>saving the view</source>
        <translation>Speichern der Ansicht</translation>
    </message>
    <message>
        <source>deleting the view</source>
        <translation>Löschen der Ansicht</translation>
    </message>
    <message>
        <source>Type a search to save first.</source>
        <translation>Zuerst eine Suche zum Speichern eingeben.</translation>
    </message>
    <message>
        <source>Save the search for {q} as a view.</source>
        <translation>Die Suche nach {q} als Ansicht speichern.</translation>
    </message>
    <message>
        <source>The Decisions tab&apos;s filter is not valid.</source>
        <translation>Der Filter des Tabs “Entscheidungen” ist ungültig.</translation>
    </message>
    <message>
        <source>Save the Decisions tab&apos;s current filter as a view.</source>
        <translation>Den aktuellen Filter des Tabs “Entscheidungen” als Ansicht speichern.</translation>
    </message>
</context>
<context>
    <name>LeadStats</name>
    <message>
        <source>last 24 hours</source>
        <extracomment>Windows a lead can pick: (words, hours).</extracomment>
        <translation>letzte 24 Stunden</translation>
    </message>
    <message>
        <source>last 7 days</source>
        <translation>letzte 7 Tage</translation>
    </message>
    <message>
        <source>last 30 days</source>
        <translation>letzte 30 Tage</translation>
    </message>
    <message>
        <source>{n} d</source>
        <extracomment>Backlog samples kept per queue (one per refresh: 12 hours at 30 s).</extracomment>
        <translation>{n} T</translation>
    </message>
    <message>
        <source>{n} h</source>
        <translation>{n} h</translation>
    </message>
    <message>
        <source>{n} min</source>
        <translation>{n} min</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Being reviewed</source>
        <translation>In Prüfung</translation>
    </message>
    <message>
        <source>Oldest waiting</source>
        <translation>Am längsten wartend</translation>
    </message>
    <message>
        <source>SLA</source>
        <translation>SLA</translation>
    </message>
    <message>
        <source>Over SLA</source>
        <translation>Über SLA</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Entschieden</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>Pro Stunde</translation>
    </message>
    <message>
        <source>Escalations open</source>
        <translation>Offene Eskalationen</translation>
    </message>
    <message>
        <source>Action mix</source>
        <translation>Aktionsmix</translation>
    </message>
    <message>
        <source>The oldest waiting post is older than this queue&apos;s SLA.</source>
        <translation>Der am längsten wartende Beitrag ist älter als das SLA dieser Warteschlange.</translation>
    </message>
    <message>
        <source>over SLA</source>
        <translation>über SLA</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entschei­dungen</translation>
    </message>
    <message>
        <source>Median handle</source>
        <translation>Median Bearbeitung</translation>
    </message>
    <message>
        <source>p90 handle</source>
        <translation>p90 Bearbeitung</translation>
    </message>
    <message>
        <source>Audited</source>
        <translation>Auditiert</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Überein­stimmung</translation>
    </message>
    <message>
        <source>Overturn rate</source>
        <translation>Aufhebungs­quote</translation>
    </message>
    <message>
        <source>Kappa</source>
        <translation>Kappa</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <source>Appeals upheld / reversed</source>
        <translation>Widersprüche bestätigt / aufgehoben</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Markie­rungen</translation>
    </message>
    <message>
        <source>Time window</source>
        <extracomment>the quality signals by reviewer (GET /stats/quality), with the queues&apos; names</extracomment>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Figures status</source>
        <translation>Status der Kennzahlen</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Zeitraum:</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>(figures as of {n} s ago)</source>
        <translation>(Zahlen von vor {n} s)</translation>
    </message>
    <message>
        <source>Break reminders…</source>
        <translation>Pausenerinnerungen…</translation>
    </message>
    <message>
        <source>{queue} (oldest {oldest}, SLA {sla}, %Ln post(s) over)</source>
        <translation>{queue} (ältester {oldest}, SLA {sla}, %Ln Beitrag darüber)|{queue} (ältester {oldest}, SLA {sla}, %Ln Beiträge darüber)</translation>
    </message>
    <message>
        <source>Agreement and kappa compare each reviewer with the auditors on audited decisions; overturn rate is overturned decisions (by an audit or a reversed appeal) per decision. Double-click a reviewer (or press Enter) for their decisions. Flags: a median handle time under your threshold, an action mix far from the other reviewers&apos; in a queue (total variation distance), or an overturn rate up against the window before; each only with enough decisions. Select a reviewer for their days.</source>
        <translation>Übereinstimmung und Kappa vergleichen jeden Prüfer mit den Auditoren bei auditierten Entscheidungen; die Aufhebungsquote ist die Zahl aufgehobener Entscheidungen (durch ein Audit oder einen stattgegebenen Einspruch) pro Entscheidung. Doppelklick auf einen Prüfer (oder Enter) zeigt seine Entscheidungen. Markierungen: eine mediane Bearbeitungszeit unter dem eigenen Schwellenwert, eine Aktionsverteilung in einer Warteschlange weit von der der anderen Prüfer (Totalvariationsabstand) oder eine gegenüber dem vorherigen Zeitraum gestiegene Aufhebungsquote; jeweils nur bei genügend Entscheidungen. Einen Prüfer auswählen, um seine Tage zu sehen.</translation>
    </message>
    <message>
        <source>Updated {time}</source>
        <translation>Aktualisiert {time}</translation>
    </message>
    <message>
        <source>loading the figures</source>
        <translation>Laden der Kennzahlen</translation>
    </message>
    <message>
        <source>Queues overview</source>
        <translation>Übersicht der Warteschlangen</translation>
    </message>
    <message>
        <source>Queue health</source>
        <translation>Zustand der Warteschlangen</translation>
    </message>
    <message>
        <source>Decided per hour</source>
        <translation>Entschieden pro Stunde</translation>
    </message>
    <message>
        <source>Waiting posts (sampled while open)</source>
        <translation>Wartende Beiträge (erfasst, solange geöffnet)</translation>
    </message>
    <message>
        <source>SLA breaches</source>
        <translation>SLA-Überschreitungen</translation>
    </message>
    <message>
        <source>Posts of suspended or inauthentic accounts held back</source>
        <translation>Zurückgehaltene Beiträge gesperrter oder unechter Konten</translation>
    </message>
    <message>
        <source>Over SLA: {queues}</source>
        <translation>Über SLA: {queues}</translation>
    </message>
    <message>
        <source>Every queue is within its SLA.</source>
        <translation>Jede Warteschlange liegt innerhalb ihres SLA.</translation>
    </message>
    <message>
        <source>Decided per day</source>
        <translation>Entschieden pro Tag</translation>
    </message>
    <message>
        <source>Reviewers</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Reviewer figures</source>
        <translation>Kennzahlen der Prüfer</translation>
    </message>
    <message>
        <source>Show this reviewer&apos;s decisions</source>
        <translation>Entscheidungen dieses Prüfers zeigen</translation>
    </message>
    <message>
        <source>Held back: {posts} of suspended or inauthentic accounts, not queued ({window} in this window; {accounts}).</source>
        <translation>Zurückgehalten: {posts} gesperrter oder unechter Konten, nicht eingereiht ({window} in diesem Zeitraum; {accounts}).</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln Beitrag|%Ln Beiträge</translation>
    </message>
    <message>
        <source>%Ln account(s) actioned</source>
        <translation>%Ln Konto betroffen|%Ln Konten betroffen</translation>
    </message>
</context>
<context>
    <name>LeadWebhooks</name>
    <message>
        <source>delivering</source>
        <translation>liefert</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>schlägt fehl</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Platform</source>
        <translation>Plattform</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Last success</source>
        <translation>Letzter Erfolg</translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation>Rückstand</translation>
    </message>
    <message>
        <source>Failures in a row</source>
        <translation>Fehlschläge in Folge</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Webhook endpoints and their health</source>
        <translation>Webhook-Endpunkte und ihr Zustand</translation>
    </message>
    <message>
        <source>Webhooks status</source>
        <translation>Status der Webhooks</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Decisions reach each platform&apos;s endpoints as signed webhooks, in order. The backlog is what an endpoint has not acknowledged yet; a failing endpoint is retried with growing waits, a disabled one gets nothing until an operator enables it (reviewer-app server webhook).</source>
        <translation>Entscheidungen erreichen die Endpunkte jeder Plattform als signierte Webhooks, in ihrer Reihenfolge. Der Rückstand ist, was ein Endpunkt noch nicht bestätigt hat; an einen fehlschlagenden Endpunkt wird mit wachsenden Pausen erneut gesendet, ein deaktivierter erhält nichts, bis ein Betreiber ihn aktiviert (reviewer-app server webhook).</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>No webhook endpoints.</source>
        <translation>Keine Webhook-Endpunkte.</translation>
    </message>
    <message>
        <source>%Ln endpoint(s), {troubled} failing or disabled; {backlog} to send.</source>
        <translation>%Ln Endpunkt, {troubled} fehlschlagend oder deaktiviert; {backlog} zu senden.|%Ln Endpunkte, {troubled} fehlschlagend oder deaktiviert; {backlog} zu senden.</translation>
    </message>
    <message>
        <source>loading the webhooks</source>
        <translation>Laden der Webhooks</translation>
    </message>
</context>
<context>
    <name>LeadWorkspace</name>
    <message>
        <source>Review escalations now (same keys as reviewing)</source>
        <translation>Eskalationen jetzt prüfen (gleiche Tasten wie beim Prüfen)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Posts that reviewers escalated wait here for a lead. They are decided in the review flow, with the same keys, and only leads can lease them.</source>
        <translation>Von Prüfern eskalierte Beiträge warten hier auf eine Leitung. Sie werden im Prüfablauf mit denselben Tasten entschieden, und nur Leitungen können sie reservieren.</translation>
    </message>
    <message>
        <source>This service has no escalation queue.</source>
        <translation>Dieser Dienst hat keine Eskalationswarteschlange.</translation>
    </message>
    <message>
        <source>%Ln escalated post(s) waiting, {leased} being decided by leads; oldest waiting {oldest} (SLA {sla}).</source>
        <translation>%Ln eskalierter Beitrag wartet, {leased} werden von Leitungen entschieden; am längsten wartend {oldest} (SLA {sla}).|%Ln eskalierte Beiträge warten, {leased} werden von Leitungen entschieden; am längsten wartend {oldest} (SLA {sla}).</translation>
    </message>
    <message>
        <source>{queue}: {n} open</source>
        <translation>{queue}: {n} offen</translation>
    </message>
    <message>
        <source>No open escalations from other queues.</source>
        <translation>Keine offenen Eskalationen aus anderen Warteschlangen.</translation>
    </message>
    <message>
        <source>loading the escalations</source>
        <translation>Laden der Eskalationen</translation>
    </message>
    <message>
        <source>Lead workspace</source>
        <translation>Leitungsbereich</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Warteschlangen</translation>
    </message>
    <message>
        <source>Reviewers</source>
        <translation>Prüfer</translation>
    </message>
    <message>
        <source>Audits</source>
        <translation>Audits</translation>
    </message>
    <message>
        <source>Wellbeing</source>
        <translation>Wohlbefinden</translation>
    </message>
    <message>
        <source>Escalations</source>
        <translation>Eskalationen</translation>
    </message>
    <message>
        <source>Escalations waiting</source>
        <translation>Wartende Eskalationen</translation>
    </message>
    <message>
        <source>Escalations by queue they came from</source>
        <translation>Eskalationen nach Herkunftswarteschlange</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Administration</source>
        <translation>Verwaltung</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
</context>
<context>
    <name>Links</name>
    <message>
        <source>The preview says {shown}, but the link goes to {host}.</source>
        <translation>Die Vorschau nennt {shown}, der Link führt aber zu {host}.</translation>
    </message>
    <message>
        <source>The host mixes letters of different scripts ({scripts}): look-alike letters can imitate a well-known site. Not plain Latin: {letters}.</source>
        <translation>Der Host mischt Buchstaben verschiedener Schriften ({scripts}): ähnlich aussehende Buchstaben können eine bekannte Website nachahmen. Nicht einfaches Latein: {letters}.</translation>
    </message>
    <message>
        <source>The address starts with {userinfo}@, which is not where it goes: the browser ignores what comes before the @.</source>
        <translation>Die Adresse beginnt mit {userinfo}@; dorthin führt sie nicht: der Browser ignoriert, was vor dem @ steht.</translation>
    </message>
    <message>
        <source>The host is not a valid international domain name; browsers may read it differently.</source>
        <translation>Der Host ist kein gültiger internationaler Domainname; Browser können ihn unterschiedlich lesen.</translation>
    </message>
    <message>
        <source>Open link</source>
        <extracomment>what a bundle (PyInstaller) sets for its own Qt, which a browser it starts must not load the library paths a bundle sets for itself; PyInstaller keeps the system&apos;s in ``*_ORIG``</extracomment>
        <translation>Link öffnen</translation>
    </message>
    <message>
        <source>Open link in browser?</source>
        <translation>Link im Browser öffnen?</translation>
    </message>
    <message>
        <source>Check where this link goes before you open it.</source>
        <translation>Prüfen Sie, wohin dieser Link führt, bevor Sie ihn öffnen.</translation>
    </message>
    <message>
        <source>Host: {host}</source>
        <translation>Host: {host}</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>As the browser sends it: {host}</source>
        <translation>So sendet ihn der Browser: {host}</translation>
    </message>
    <message>
        <source>Host as the browser sends it</source>
        <translation>Host, wie der Browser ihn sendet</translation>
    </message>
    <message>
        <source>Warnings about this link</source>
        <translation>Warnungen zu diesem Link</translation>
    </message>
    <message>
        <source>The whole address:</source>
        <translation>Die ganze Adresse:</translation>
    </message>
    <message>
        <source>The whole address</source>
        <translation>Die ganze Adresse</translation>
    </message>
    <message>
        <source>What went wrong</source>
        <translation>Was schiefging</translation>
    </message>
    <message>
        <source>Copy link</source>
        <translation>Link kopieren</translation>
    </message>
    <message>
        <source>Copy the link</source>
        <translation>Den Link kopieren</translation>
    </message>
    <message>
        <source>Open in browser</source>
        <translation>Im Browser öffnen</translation>
    </message>
    <message>
        <source>Open the link in the browser</source>
        <translation>Den Link im Browser öffnen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Copied. Paste it where you can check it.</source>
        <translation>Kopiert. Fügen Sie ihn dort ein, wo Sie ihn prüfen können.</translation>
    </message>
    <message>
        <source>No browser could open this link on this computer. Copy it and open it where you can.</source>
        <translation>Kein Browser konnte diesen Link auf diesem Computer öffnen. Kopieren Sie ihn und öffnen Sie ihn dort, wo es geht.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>{name} on {server}</source>
        <extracomment>Work deferred until the next post is painted runs at the latest this long after. The reason code of a verdict the service refused because the platform withdrew the post. ... and because an account action closed the item (its author suspended or inauthentic) the window&apos;s size at its first start, where the screen has room for it</extracomment>
        <translation>{name} auf {server}</translation>
    </message>
    <message>
        <source>Review desk</source>
        <translation>Prüfpult</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Queue</source>
        <extracomment>of the pending verdicts, those waiting because another reviewer holds the post the service wants a login (a 401, or it is back for a session that has none) what the banner shows (&quot;conflicts&quot; while it counts them; &quot;&quot; otherwise) what the banner shows when no notice is up (``notify``) &quot;this shift&quot; in My decisions: since this window opened the open escalation reason picker (E), if any queues being worked that have nothing for this reviewer (the engine&apos;s word) every key in force (the table&apos;s, the queues&apos;, and the user&apos;s own) this shift&apos;s items by kind of harm, for break reminders (the service keeps the record the lead sees), kept in the store within a second of a change (off the keypress): a restart goes on with it the reviewer&apos;s own setting (read again after Settings) the queue on screen when the break began (reviewed again on resume)</extracomment>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Work offline…</source>
        <translation>Offline arbeiten…</translation>
    </message>
    <message>
        <source>Work offline: lease a batch (Ctrl+O)</source>
        <translation>Offline arbeiten: ein Paket reservieren (Strg+O)</translation>
    </message>
    <message>
        <source>Queue:</source>
        <translation>Warteschlange:</translation>
    </message>
    <message>
        <source>Skipped: that post goes back to the queue for others.</source>
        <translation>Übersprungen: Dieser Beitrag geht zurück in die Warteschlange, für andere.</translation>
    </message>
    <message>
        <source>Undone: {action} on the post by {author}.</source>
        <translation>Rückgängig: {action} für den Beitrag von {author}.</translation>
    </message>
    <message>
        <source>Saved: {action} on the post by {author}. Ctrl+Z undoes it for a few seconds.</source>
        <translation>Gespeichert: {action} für den Beitrag von {author}. Strg+Z macht es einige Sekunden lang rückgängig.</translation>
    </message>
    <message>
        <source>Classifier scores (bar: score; line: threshold)</source>
        <extracomment>the keys that focus a part of the verdict, and the part the keys that focus a pane, and its place: the side (the worklist), the post, the context, the verdict bar the keys that step through the panes (F6) and through the context tabs (&quot;]&quot;) the next post&apos;s display work, done after this one was painted (``_prepare_next``) what reads a medium from the local store (``show_item``&apos;s) the reviewer moved a handle: the split keeps their sizes from then on</extracomment>
        <translation>Klassifikatorwerte (Balken: Wert; Linie: Schwelle)</translation>
    </message>
    <message>
        <source>Classifier scores</source>
        <translation>Klassifikator-Bewertungen</translation>
    </message>
    <message>
        <source>Scores and context</source>
        <translation>Bewertungen und Kontext</translation>
    </message>
    <message>
        <source>Review or lead workspace</source>
        <translation>Prüfen oder Leitungsbereich</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Lead workspace</source>
        <translation>Leitungsbereich</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>startet…</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Verdicts waiting to be sent</source>
        <translation>Entscheidungen, die auf das Senden warten</translation>
    </message>
    <message>
        <source>Conflicts (Ctrl+K)</source>
        <translation>Konflikte (Strg+K)</translation>
    </message>
    <message>
        <source>Last sync</source>
        <translation>Letzte Synchronisierung</translation>
    </message>
    <message>
        <source>Work offline progress</source>
        <translation>Fortschritt der Offline-Arbeit</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Letzte Meldung</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>&amp;Prüfen</translation>
    </message>
    <message>
        <source>Conflicts…</source>
        <translation>Konflikte…</translation>
    </message>
    <message>
        <source>My decisions…</source>
        <translation>Meine Entscheidungen…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Log in again…</source>
        <translation>Erneut anmelden…</translation>
    </message>
    <message>
        <source>Clear local data…</source>
        <translation>Lokale Daten löschen…</translation>
    </message>
    <message>
        <source>Log out</source>
        <translation>Abmelden</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>On a break: resume first, then work offline.</source>
        <translation>Pause: Setzen Sie die Arbeit zuerst fort, dann können Sie offline arbeiten.</translation>
    </message>
    <message>
        <source>Logging out: sending what you decided…</source>
        <translation>Abmelden: was Sie entschieden haben, wird gesendet…</translation>
    </message>
    <message>
        <source>A store the app could not use earlier is kept aside on this computer with its key: it may hold verdicts never sent. Clearing leaves it; ask support before deleting it.</source>
        <translation>Ein Speicher, den die App früher nicht nutzen konnte, liegt mit seinem Schlüssel beiseite auf diesem Computer: Er kann nie gesendete Entscheidungen enthalten. Das Löschen lässt ihn liegen; fragen Sie den Support, bevor Sie ihn löschen.</translation>
    </message>
    <message>
        <source>Open posts by the author and the linked accounts: {posts} in {queues}.</source>
        <translation>Offene Beiträge der Person und der verknüpften Konten: {posts} in {queues}.</translation>
    </message>
    <message>
        <source>Open posts by the author: {posts} in {queues}.</source>
        <translation>Offene Beiträge der Person: {posts} in {queues}.</translation>
    </message>
    <message>
        <source>%Ln more not listed (the oldest come first).</source>
        <translation>%Ln weiterer nicht aufgeführt (die ältesten zuerst).|%Ln weitere nicht aufgeführt (die ältesten zuerst).</translation>
    </message>
    <message>
        <source>Posts selected in the search: {posts} in {queues}.</source>
        <translation>In der Suche ausgewählte Beiträge: {posts} in {queues}.</translation>
    </message>
    <message>
        <source>Sending %Ln bulk decision(s) held when the app last closed.</source>
        <translation>%Ln beim letzten Schließen der App zurückgehaltene gemeinsame Entscheidung wird gesendet.|%Ln beim letzten Schließen der App zurückgehaltene gemeinsame Entscheidungen werden gesendet.</translation>
    </message>
    <message>
        <source>The bulk decision not sent before is recorded now.</source>
        <translation>Die zuvor nicht gesendete gemeinsame Entscheidung ist jetzt gespeichert.</translation>
    </message>
    <message>
        <source>A bulk decision on %Ln post(s) is not sent yet: {why} It is kept on this computer and tried again every {s} s.</source>
        <translation>Eine gemeinsame Entscheidung über %Ln Beitrag ist noch nicht gesendet: {why} Sie bleibt auf diesem Computer und wird alle {s} s erneut versucht.|Eine gemeinsame Entscheidung über %Ln Beiträge ist noch nicht gesendet: {why} Sie bleibt auf diesem Computer und wird alle {s} s erneut versucht.</translation>
    </message>
    <message>
        <source>A refused bulk decision: {posts} in {queues}.</source>
        <translation>Eine abgelehnte gemeinsame Entscheidung: {posts} in {queues}.</translation>
    </message>
    <message>
        <source>On a break: your posts were given back.</source>
        <translation>Pause: Die reservierten Beiträge wurden zurückgegeben.</translation>
    </message>
    <message>
        <source>Welcome back.</source>
        <translation>Willkommen zurück.</translation>
    </message>
    <message>
        <source>Welcome back. The queue {queue} was removed on the server during your break. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>Willkommen zurück. Die Warteschlange {queue} wurde während Ihrer Pause auf dem Server entfernt. Angezeigt wird jetzt {other}; wählen Sie bei Bedarf eine andere Warteschlange in der Liste.</translation>
    </message>
    <message>
        <source>Welcome back. The queue {queue} was removed on the server during your break; you have no queue left to review.</source>
        <translation>Willkommen zurück. Die Warteschlange {queue} wurde während Ihrer Pause auf dem Server entfernt; Ihnen bleibt keine Warteschlange zum Prüfen.</translation>
    </message>
    <message>
        <source>Not sent yet: %Ln verdict(s), kept in memory only in this session and lost if you quit now. Quit anyway?</source>
        <translation>Noch nicht gesendet: %Ln Entscheidung, in dieser Sitzung nur im Speicher gehalten und verloren, wenn Sie jetzt beenden. Trotzdem beenden?|Noch nicht gesendet: %Ln Entscheidungen, in dieser Sitzung nur im Speicher gehalten und verloren, wenn Sie jetzt beenden. Trotzdem beenden?</translation>
    </message>
    <message>
        <source>Saved on this computer but not sent yet: %Ln verdict(s), sent the next time you start the app. Quit now?</source>
        <translation>Auf diesem Computer gespeichert, aber noch nicht gesendet: %Ln Entscheidung, die beim nächsten Start der App gesendet wird. Jetzt beenden?|Auf diesem Computer gespeichert, aber noch nicht gesendet: %Ln Entscheidungen, die beim nächsten Start der App gesendet werden. Jetzt beenden?</translation>
    </message>
    <message>
        <source>Not sent yet: %Ln verdict(s) waiting while another reviewer holds the post, kept in memory only in this session and lost if you quit now. Quit anyway?</source>
        <translation>Noch nicht gesendet: %Ln Entscheidung, die wartet, solange eine andere Person den Beitrag hält, in dieser Sitzung nur im Speicher gehalten und verloren, wenn Sie jetzt beenden. Trotzdem beenden?|Noch nicht gesendet: %Ln Entscheidungen, die warten, solange andere Personen die Beiträge halten, in dieser Sitzung nur im Speicher gehalten und verloren, wenn Sie jetzt beenden. Trotzdem beenden?</translation>
    </message>
    <message>
        <source>Nothing was escalated: the post changed while the reasons were open.</source>
        <translation>Nichts wurde eskaliert: Der Beitrag hat sich geändert, während die Gründe offen waren.</translation>
    </message>
    <message>
        <source>The queue {queue} is not in your queue list yet; try again shortly.</source>
        <translation>Die Warteschlange {queue} ist noch nicht in Ihrer Liste; versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln Beitrag|%Ln Beiträge</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln Warteschlange|%Ln Warteschlangen</translation>
    </message>
    <message>
        <source>Logged in again: your verdicts are being sent.</source>
        <translation>Erneut angemeldet: Ihre Entscheidungen werden gesendet.</translation>
    </message>
    <message>
        <source>logging in</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>Work offline is unavailable in this session: with no keyring to protect it, nothing you review is kept on this computer.</source>
        <translation>Offline-Arbeit ist in dieser Sitzung nicht möglich: Ohne Schlüsselbund zum Schutz wird nichts, was Sie prüfen, auf diesem Computer gespeichert.</translation>
    </message>
    <message>
        <source>Choose a queue first.</source>
        <translation>Wählen Sie zuerst eine Warteschlange.</translation>
    </message>
    <message>
        <source>Leasing for offline work…</source>
        <translation>Reserviere für Offline-Arbeit…</translation>
    </message>
    <message>
        <source>This deletes everything the app keeps on this computer for you on this server (cached posts and media, your recent decisions, conflicts, and the key that encrypts them) and logs you out.</source>
        <translation>Dies löscht alles, was die App auf diesem Computer für Sie zu diesem Server speichert (zwischengespeicherte Beiträge und Medien, Ihre letzten Entscheidungen, Konflikte und den Schlüssel, der sie verschlüsselt), und meldet Sie ab.</translation>
    </message>
    <message>
        <source>{n} verdicts have not been sent yet.</source>
        <translation>{n} Entscheidungen wurden noch nicht gesendet.</translation>
    </message>
    <message>
        <source>1 verdict has not been sent yet.</source>
        <translation>1 Entscheidung wurde noch nicht gesendet.</translation>
    </message>
    <message>
        <source>The app tries to send them first; any it cannot send are lost.</source>
        <translation>Die App versucht zuerst, sie zu senden; was nicht gesendet werden kann, geht verloren.</translation>
    </message>
    <message>
        <source>Clear local data</source>
        <translation>Lokale Daten löschen</translation>
    </message>
    <message>
        <source>Delete unsent verdicts and clear</source>
        <translation>Ungesendete Entscheidungen löschen und leeren</translation>
    </message>
    <message>
        <source>Clear and log out</source>
        <translation>Löschen und abmelden</translation>
    </message>
    <message>
        <source>Waiting for posts from the server…</source>
        <translation>Warte auf Beiträge vom Server…</translation>
    </message>
    <message>
        <source>No posts here while offline. Use “Work offline” before you lose the network.</source>
        <translation>Offline sind hier keine Beiträge. Nutzen Sie „Offline arbeiten“, bevor Sie das Netz verlieren.</translation>
    </message>
    <message>
        <source>Choose a queue.</source>
        <translation>Wählen Sie eine Warteschlange.</translation>
    </message>
    <message>
        <source>This post&apos;s lease ran out while offline; your verdict may conflict.</source>
        <translation>Die Reservierung dieses Beitrags ist offline abgelaufen; Ihre Entscheidung kann in Konflikt geraten.</translation>
    </message>
    <message>
        <source>Saved: {action} on {item}. Ctrl+Z undoes it for a few seconds.</source>
        <translation>Gespeichert: {action} für {item}. Strg+Z macht es einige Sekunden lang rückgängig.</translation>
    </message>
    <message>
        <source>Undone: {action} on {item}.</source>
        <translation>Rückgängig: {action} für {item}.</translation>
    </message>
    <message>
        <source>the server has no record of leasing it to you (its data may have been restored from a backup or reset since), so the verdict was not recorded; the post waits in its queue to be decided again</source>
        <extracomment>The reason code of a verdict the service refused because the platform withdrew the post. ... and because an account action closed the item (its author suspended or inauthentic) a verdict&apos;s lease the service never issued (its data restored or reset since the claim)</extracomment>
        <translation>der Server hat keine Aufzeichnung, dass er Ihnen den Beitrag zugeteilt hat (seine Daten wurden seitdem vielleicht aus einer Sicherung wiederhergestellt oder zurückgesetzt), daher wurde das Urteil nicht gespeichert; der Beitrag wartet in seiner Warteschlange auf eine neue Entscheidung</translation>
    </message>
    <message>
        <source>Connected to the server.</source>
        <translation>Mit dem Server verbunden.</translation>
    </message>
    <message>
        <source>Next try in {seconds} s.</source>
        <translation>Nächster Versuch in {seconds} s.</translation>
    </message>
    <message>
        <source>Offline.</source>
        <translation>Offline.</translation>
    </message>
    <message>
        <source>No open conflicts left.</source>
        <translation>Keine offenen Konflikte mehr.</translation>
    </message>
    <message>
        <source>1 of your verdicts conflicts with a decision made by someone else. Open Conflicts (Ctrl+K) to see both.</source>
        <translation>Eine Ihrer Entscheidungen steht im Konflikt mit der Entscheidung einer anderen Person. Öffnen Sie Konflikte (Strg+K), um beide zu sehen.</translation>
    </message>
    <message>
        <source>{n} posts in your worklist were withdrawn by the platform (deleted or made private upstream); they left it without a verdict.</source>
        <translation>{n} Beiträge Ihrer Arbeitsliste wurden von der Plattform zurückgezogen (dort gelöscht oder privat gemacht); sie haben die Liste ohne Entscheidung verlassen.</translation>
    </message>
    <message>
        <source>Post {item} was withdrawn by the platform (deleted or made private upstream); it left your worklist without a verdict.</source>
        <translation>Beitrag {item} wurde von der Plattform zurückgezogen (dort gelöscht oder privat gemacht); er hat Ihre Arbeitsliste ohne Entscheidung verlassen.</translation>
    </message>
    <message>
        <source>Resolved: {why}. {n} posts in your worklist were closed by that account action; they left it without a verdict.</source>
        <translation>Erledigt: {why}. {n} Beiträge in Ihrer Arbeitsliste wurden durch diese Kontomaßnahme geschlossen; sie haben sie ohne Entscheidung verlassen.</translation>
    </message>
    <message>
        <source>Resolved: {why}. Post {item} was closed by that account action; it left your worklist without a verdict.</source>
        <translation>Erledigt: {why}. Beitrag {item} wurde durch diese Kontomaßnahme geschlossen; er hat Ihre Arbeitsliste ohne Entscheidung verlassen.</translation>
    </message>
    <message>
        <source>The queue {queue} was removed on the server and its posts moved to another queue. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>Die Warteschlange {queue} wurde auf dem Server entfernt und ihre Beiträge in eine andere Warteschlange verschoben. Angezeigt wird jetzt {other}; wählen Sie bei Bedarf eine andere Warteschlange in der Liste.</translation>
    </message>
    <message>
        <source>The queue {queue} was removed on the server; you have no queue left to review. Choose a queue once one is listed.</source>
        <translation>Die Warteschlange {queue} wurde auf dem Server entfernt; Ihnen bleibt keine Warteschlange zum Prüfen. Wählen Sie eine, sobald eine aufgeführt ist.</translation>
    </message>
    <message>
        <source>You are no longer an administrator: you are now a reviewer.</source>
        <translation>Sie sind kein Administrator mehr: Sie sind jetzt Prüfer.</translation>
    </message>
    <message>
        <source>You are no longer a lead: you are now a reviewer.</source>
        <translation>Sie sind keine Leitung mehr: Sie sind jetzt Prüfer.</translation>
    </message>
    <message>
        <source>The queue {queue} is for leads only, so it is no longer listed for you; its posts stay there. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>Die Warteschlange {queue} ist nur für Leitungen und wird Ihnen daher nicht mehr angezeigt; ihre Beiträge bleiben dort. Jetzt wird {other} angezeigt; wählen Sie bei Bedarf eine andere Warteschlange in der Liste.</translation>
    </message>
    <message>
        <source>The queue {queue} is for leads only, so it is no longer listed for you. You have no queue left to review.</source>
        <translation>Die Warteschlange {queue} ist nur für Leitungen und wird Ihnen daher nicht mehr angezeigt. Ihnen bleibt keine Warteschlange zum Prüfen.</translation>
    </message>
    <message>
        <source>The server can be reached again: log in to send your verdicts.</source>
        <translation>Der Server ist wieder erreichbar: Melden Sie sich an, um Ihre Entscheidungen zu senden.</translation>
    </message>
    <message>
        <source>The server asks you to log in again.</source>
        <translation>Der Server verlangt eine erneute Anmeldung.</translation>
    </message>
    <message>
        <source>Your verdicts are kept and sent once you have logged in (Review ▸ Log in again…).</source>
        <translation>Ihre Entscheidungen bleiben erhalten und werden gesendet, sobald Sie angemeldet sind (Prüfen ▸ Erneut anmelden…).</translation>
    </message>
    <message>
        <source>You can keep deciding what is here.</source>
        <translation>Sie können weiter entscheiden, was hier ist.</translation>
    </message>
    <message>
        <source>Worklist (W)</source>
        <translation>Arbeitsliste (W)</translation>
    </message>
    <message>
        <source>Nothing in {queue} is waiting for you.</source>
        <translation>In {queue} wartet nichts auf Sie.</translation>
    </message>
    <message>
        <source>No other queue has posts waiting either; new posts appear here as they arrive.</source>
        <translation>Auch in keiner anderen Warteschlange warten Beiträge; neue Beiträge erscheinen hier, sobald sie eintreffen.</translation>
    </message>
    <message>
        <source>Queues with posts waiting:</source>
        <translation>Warteschlangen mit wartenden Beiträgen:</translation>
    </message>
    <message>
        <source>{queue}: {n} waiting</source>
        <translation>{queue}: {n} wartend</translation>
    </message>
    <message>
        <source>Alt+{key}</source>
        <translation>Alt+{key}</translation>
    </message>
    <message>
        <source>{n} of your verdicts conflict with a decision made by someone else. Open Conflicts (Ctrl+K) to see both.</source>
        <translation>{n} Ihrer Entscheidungen stehen im Konflikt mit der Entscheidung einer anderen Person. Öffnen Sie Konflikte (Strg+K), um beide zu sehen.</translation>
    </message>
    <message>
        <source>Looking up the author&apos;s open posts…</source>
        <translation>Offene Beiträge des Autors werden gesucht…</translation>
    </message>
    <message>
        <source>The author has no open posts.</source>
        <translation>Der Autor hat keine offenen Beiträge.</translation>
    </message>
    <message>
        <source>looking up the author&apos;s open posts</source>
        <translation>Suchen der offenen Beiträge des Autors</translation>
    </message>
    <message>
        <source>Offline batch: {done} of {total}</source>
        <translation>Offline-Paket: {done} von {total}</translation>
    </message>
    <message>
        <source>Withdrawn by the platform: your verdict on {item} was not needed, the post was deleted or made private upstream before it arrived.</source>
        <translation>Von der Plattform zurückgezogen: Ihre Entscheidung zu {item} wurde nicht gebraucht, der Beitrag wurde dort gelöscht oder privat gemacht, bevor sie ankam.</translation>
    </message>
    <message>
        <source>Resolved: {why}. Your verdict on {item} was not needed: an account action closed the post before it arrived.</source>
        <translation>Erledigt: {why}. Ihre Entscheidung zu {item} war nicht nötig: Eine Kontomaßnahme hat den Beitrag geschlossen, bevor sie ankam.</translation>
    </message>
    <message>
        <source>The server refused your verdict on {item}: {reason}</source>
        <translation>Der Server hat Ihre Entscheidung zu {item} abgelehnt: {reason}</translation>
    </message>
    <message>
        <source>The server refused {n} of your verdicts: {reasons}</source>
        <translation>Der Server hat {n} Ihrer Urteile abgelehnt: {reasons}</translation>
    </message>
    <message>
        <source>● Log in to sync</source>
        <translation>● Anmelden zum Synchronisieren</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
    <message>
        <source>● Offline</source>
        <translation>● Offline</translation>
    </message>
    <message>
        <source>● Syncing</source>
        <translation>● Synchronisiere</translation>
    </message>
    <message>
        <source>● Online</source>
        <translation>● Online</translation>
    </message>
    <message>
        <source>%n conflict(s)</source>
        <translation>%n Konflikt|%n Konflikte</translation>
    </message>
    <message>
        <source>never synced</source>
        <translation>nie synchronisiert</translation>
    </message>
    <message>
        <source>last sync {time}</source>
        <translation>letzte Synchronisierung {time}</translation>
    </message>
    <message>
        <source>Verdicts not sent yet</source>
        <translation>Entscheidungen noch nicht gesendet</translation>
    </message>
    <message>
        <source>added {actions}</source>
        <extracomment>a queue&apos;s settings no part of a verdict uses: a change to them leaves the bar as it is modifiers that say nothing about which key was pressed (as ``keys`` ignores them)</extracomment>
        <translation>hinzugefügt: {actions}</translation>
    </message>
    <message>
        <source>removed {actions}</source>
        <translation>entfernt: {actions}</translation>
    </message>
    <message>
        <source>The actions of {queue} changed on the server: {changes}.</source>
        <translation>Die Aktionen von {queue} wurden auf dem Server geändert: {changes}.</translation>
    </message>
    <message>
        <source>No longer in this queue, so taken off your verdict: {what}.</source>
        <translation>Nicht mehr in dieser Warteschlange, daher aus Ihrer Entscheidung entfernt: {what}.</translation>
    </message>
    <message>
        <source>Key {key} decides nothing in {queue}: its action {action} was removed from this queue on the server.</source>
        <extracomment>per queue id: the keys of the actions removed from it on the server (key, text and the action&apos;s label), which say so when pressed</extracomment>
        <translation>Die Taste {key} entscheidet in {queue} nichts: Ihre Aktion {action} wurde auf dem Server aus dieser Warteschlange entfernt.</translation>
    </message>
    <message>
        <source>Key {key} decides nothing in {queue}: no action of this queue has it.</source>
        <translation>Die Taste {key} entscheidet in {queue} nichts: Keine Aktion dieser Warteschlange hat sie.</translation>
    </message>
</context>
<context>
    <name>Media</name>
    <message>
        <source>image</source>
        <extracomment>The most pixels an image may declare; more is refused before anything is decoded (4096 x 4096: 64 MB while decoding at 8 bits a channel, 128 MB at 16). Images are decoded to fit this box (scaled while decoding where the format can): only a tile is ever shown. Images of at most this many pixels are decoded on the GUI thread when shown (a few ms); larger ones off it, their tile saying so meanwhile (16 images of 4,096 x 4,096 held the window for 4-9 s). Formats decoded, as Qt names them (what the service serves; never SVG or the like).</extracomment>
        <translation>Bild</translation>
    </message>
    <message>
        <source>GIF</source>
        <translation>GIF</translation>
    </message>
    <message>
        <source>video</source>
        <translation>Video</translation>
    </message>
    <message>
        <source>This file is not an image this app can show</source>
        <translation>Diese Datei ist kein Bild, das diese App anzeigen kann</translation>
    </message>
    <message>
        <source>This image is damaged or incomplete; it is not shown</source>
        <translation>Dieses Bild ist beschädigt oder unvollständig; es wird nicht angezeigt</translation>
    </message>
    <message>
        <source>This image is too large to show safely ({width} x {height} pixels)</source>
        <translation>Dieses Bild ist zu groß, um es sicher anzuzeigen ({width} x {height} Pixel)</translation>
    </message>
    <message>
        <source>▶ {duration} · not played</source>
        <translation>▶ {duration} · nicht abgespielt</translation>
    </message>
    <message>
        <source>Media</source>
        <extracomment>why the tile shows a placeholder instead of the media (None: it shows the media) the media was not in the store when the tile was made (``MediaStrip.arrived``) the obscured image and the tile&apos;s pixmap of it (None for a placeholder)</extracomment>
        <translation>Medien</translation>
    </message>
    <message>
        <source>Media {n}: {what}</source>
        <extracomment>the next post&apos;s images by media id, worked out while the reviewer reads this one the next post&apos;s images are being decoded off the GUI thread (``prepare``)</extracomment>
        <translation>Medium {n}: {what}</translation>
    </message>
    <message>
        <source>no description</source>
        <translation>keine Beschreibung</translation>
    </message>
    <message>
        <source>{kind}, {size} bytes: {description}</source>
        <translation>{kind}, {size} Byte: {description}</translation>
    </message>
    <message>
        <source>Marked sensitive by the platform: blurred until you reveal it</source>
        <translation>Von der Plattform als heikel markiert: unscharf, bis Sie es aufdecken</translation>
    </message>
    <message>
        <source>This media is no longer available on the service</source>
        <translation>Diese Medien sind auf dem Dienst nicht mehr verfügbar</translation>
    </message>
    <message>
        <source>Image, {size} bytes: decoding…</source>
        <translation>Bild, {size} Bytes: wird decodiert…</translation>
    </message>
    <message>
        <source>Video, {size} bytes: reading its frames…</source>
        <translation>Video, {size} Bytes: Bilder werden gelesen…</translation>
    </message>
    <message>
        <source>Media not downloaded yet</source>
        <translation>Medien noch nicht heruntergeladen</translation>
    </message>
    <message>
        <source>This file is not a video this app can show</source>
        <translation>Diese Datei ist kein Video, das diese App zeigen kann</translation>
    </message>
    <message>
        <source>This video is damaged or incomplete; it is not shown</source>
        <translation>Dieses Video ist beschädigt oder unvollständig; es wird nicht gezeigt</translation>
    </message>
    <message>
        <source>This video&apos;s format ({codec}) is not shown here</source>
        <translation>Das Format dieses Videos ({codec}) wird hier nicht gezeigt</translation>
    </message>
    <message>
        <source>This video is too large to show safely ({width} x {height} pixels)</source>
        <translation>Dieses Video ist zu groß, um es sicher zu zeigen ({width} x {height} Pixel)</translation>
    </message>
</context>
<context>
    <name>MediaViewer</name>
    <message>
        <source>Media viewer</source>
        <translation>Medienbetrachter</translation>
    </message>
    <message>
        <source>What this medium is</source>
        <translation>Was dieses Medium ist</translation>
    </message>
    <message>
        <source>The medium, large</source>
        <translation>Das Medium, groß</translation>
    </message>
    <message>
        <source>The medium</source>
        <translation>Das Medium</translation>
    </message>
    <message>
        <source>Frames of the video</source>
        <translation>Bilder des Videos</translation>
    </message>
    <message>
        <source>About this medium</source>
        <translation>Über dieses Medium</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Vorheriges</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Nächstes ▶</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>Aufdecken</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>← → previous, next · + - zoom (or the wheel) · 0 fit · ↑ ↓ Shift+← → move · Space reveal · Esc close</source>
        <translation>← → vorheriges, nächstes · + - zoomen (oder das Mausrad) · 0 einpassen · ↑ ↓ Umschalt+← → verschieben · Leertaste aufdecken · Esc schließen</translation>
    </message>
    <message>
        <source>Keys of the viewer</source>
        <translation>Tasten des Betrachters</translation>
    </message>
    <message>
        <source>Media {n} of {total}</source>
        <translation>Medium {n} von {total}</translation>
    </message>
    <message>
        <source>no description</source>
        <translation>keine Beschreibung</translation>
    </message>
    <message>
        <source>{n} of {total}: {kind}, {size} bytes — {description}</source>
        <translation>{n} von {total}: {kind}, {size} Bytes — {description}</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Verbergen</translation>
    </message>
    <message>
        <source>Frame at {time}</source>
        <translation>Bild bei {time}</translation>
    </message>
    <message>
        <source>it has sound, which is never played</source>
        <translation>es hat Ton, der nie abgespielt wird</translation>
    </message>
    <message>
        <source>no sound</source>
        <translation>ohne Ton</translation>
    </message>
    <message>
        <source>Video, {duration} long, {width} x {height} pixels, {codec}; not played, {sound}. The frames below are taken across its length.</source>
        <translation>Video, {duration} lang, {width} x {height} Pixel, {codec}; nicht abgespielt, {sound}. Die Bilder unten stammen aus seiner ganzen Länge.</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <source>The server said: “{reason}”</source>
        <extracomment>the most characters of the server&apos;s own reason shown the server&apos;s own words about it (data: shown as they are), when it gave any</extracomment>
        <translation>Der Server sagt: „{reason}“</translation>
    </message>
    <message>
        <source>while {during}</source>
        <translation>beim {during}</translation>
    </message>
    <message>
        <source>Wrong user name or password.</source>
        <translation>Falscher Benutzername oder falsches Passwort.</translation>
    </message>
    <message>
        <source>The server did not accept them.</source>
        <translation>Der Server hat sie nicht akzeptiert.</translation>
    </message>
    <message>
        <source>Check both and try again; after several failures the server makes you wait.</source>
        <translation>Prüfen Sie beides und versuchen Sie es erneut; nach mehreren Fehlversuchen lässt der Server Sie warten.</translation>
    </message>
    <message>
        <source>The server asks you to log in again.</source>
        <translation>Der Server verlangt eine erneute Anmeldung.</translation>
    </message>
    <message>
        <source>Your login has expired or was ended.</source>
        <translation>Ihre Anmeldung ist abgelaufen oder wurde beendet.</translation>
    </message>
    <message>
        <source>Log in again; your decisions are kept and sent once you are back.</source>
        <translation>Melden Sie sich erneut an; Ihre Entscheidungen bleiben erhalten und werden danach gesendet.</translation>
    </message>
    <message>
        <source>This server speaks another version.</source>
        <translation>Dieser Server spricht eine andere Version.</translation>
    </message>
    <message>
        <source>This app and the server speak different versions of the review service, so they cannot work together.</source>
        <translation>Diese App und der Server sprechen verschiedene Versionen des Prüfdienstes und können deshalb nicht zusammenarbeiten.</translation>
    </message>
    <message>
        <source>Update the app.</source>
        <translation>Aktualisieren Sie die App.</translation>
    </message>
    <message>
        <source>It asked to wait {seconds} s.</source>
        <translation>Er bat, {seconds} s zu warten.</translation>
    </message>
    <message>
        <source>The server is busy or failing{where}.</source>
        <translation>Der Server ist ausgelastet oder gestört{where}.</translation>
    </message>
    <message>
        <source>It answered with the error HTTP {status}.</source>
        <translation>Er antwortete mit dem Fehler HTTP {status}.</translation>
    </message>
    <message>
        <source>Keep working: decisions are saved here and sent when it answers again.</source>
        <translation>Arbeiten Sie weiter: Entscheidungen werden hier gespeichert und gesendet, sobald er wieder antwortet.</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted{where}.</source>
        <translation>Dem Zertifikat des Servers wird nicht vertraut{where}.</translation>
    </message>
    <message>
        <source>It is not signed by an authority this computer trusts, has expired, or is made out to another address. Nothing was sent.</source>
        <translation>Es ist nicht von einer Stelle signiert, der dieser Computer vertraut, ist abgelaufen oder auf eine andere Adresse ausgestellt. Nichts wurde gesendet.</translation>
    </message>
    <message>
        <source>Check the server address. If your organisation has its own certificate authority, ask IT to install it on this computer.</source>
        <translation>Prüfen Sie die Serveradresse. Hat Ihre Organisation eine eigene Zertifizierungsstelle, bitten Sie die IT, sie auf diesem Computer zu installieren.</translation>
    </message>
    <message>
        <source>The server cannot be reached{where}.</source>
        <translation>Der Server ist nicht erreichbar{where}.</translation>
    </message>
    <message>
        <source>No connection could be made, or it broke before the whole reply arrived.</source>
        <translation>Es kam keine Verbindung zustande, oder sie brach ab, bevor die ganze Antwort ankam.</translation>
    </message>
    <message>
        <source>Check the server address and your network; decisions are saved here meanwhile.</source>
        <translation>Prüfen Sie die Serveradresse und Ihr Netzwerk; Entscheidungen werden solange hier gespeichert.</translation>
    </message>
    <message>
        <source>The server sent a reply this app cannot use{where}.</source>
        <translation>Der Server hat eine Antwort gesendet, die diese App nicht verwenden kann{where}.</translation>
    </message>
    <message>
        <source>The reply was cut off, too large, or not in the form the review service promises.</source>
        <translation>Die Antwort war abgeschnitten, zu groß oder nicht in der Form, die der Prüfdienst zusichert.</translation>
    </message>
    <message>
        <source>Nothing from it was used. If it keeps happening, tell your administrator.</source>
        <translation>Nichts davon wurde verwendet. Wenn das weiter passiert, informieren Sie Ihre Administration.</translation>
    </message>
    <message>
        <source>Your account may not do this.</source>
        <translation>Ihr Konto darf das nicht.</translation>
    </message>
    <message>
        <source>Ask a lead or an administrator.</source>
        <translation>Fragen Sie eine Leitung oder die Administration.</translation>
    </message>
    <message>
        <source>The server refused{where}.</source>
        <translation>Der Server hat abgelehnt{where}.</translation>
    </message>
    <message>
        <source>Change what it refused and try again, or ask your administrator.</source>
        <translation>Ändern Sie, was abgelehnt wurde, und versuchen Sie es erneut, oder fragen Sie Ihre Administration.</translation>
    </message>
    <message>
        <source>The demo&apos;s service stopped: {reason}</source>
        <translation>Der Dienst der Demo wurde beendet: {reason}</translation>
    </message>
    <message>
        <source>Put right what it names, then start the demo again.</source>
        <translation>Beheben Sie, was dort genannt wird, und starten Sie die Demo erneut.</translation>
    </message>
    <message>
        <source>The demo&apos;s service did not start.</source>
        <translation>Der Dienst der Demo ist nicht gestartet.</translation>
    </message>
    <message>
        <source>The demo&apos;s service stopped before it served (exit code {code}).</source>
        <translation>Der Dienst der Demo hat sich beendet, bevor er bereit war (Exit-Code {code}).</translation>
    </message>
    <message>
        <source>What it said is in the terminal the demo was started from.</source>
        <translation>Seine Meldungen stehen im Terminal, aus dem die Demo gestartet wurde.</translation>
    </message>
    <message>
        <source>Start the demo from a terminal to read it; if another demo is running, close it first.</source>
        <translation>Starten Sie die Demo aus einem Terminal, um sie zu lesen; läuft schon eine andere Demo, schließen Sie diese zuerst.</translation>
    </message>
    <message>
        <source>The work saved on this computer cannot be read.</source>
        <translation>Die auf diesem Computer gespeicherte Arbeit kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Its file is damaged or not this app&apos;s; it was left as it is.</source>
        <translation>Ihre Datei ist beschädigt oder gehört nicht zu dieser App; sie wurde unverändert gelassen.</translation>
    </message>
    <message>
        <source>This account&apos;s saved work is open in another copy of the app.</source>
        <translation>Die gespeicherte Arbeit dieses Kontos ist in einer anderen Kopie der App geöffnet.</translation>
    </message>
    <message>
        <source>One copy at a time works with it; nothing was changed.</source>
        <translation>Es kann immer nur eine Kopie damit arbeiten; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Switch to that window, or close it and log in here again.</source>
        <translation>Wechseln Sie zu jenem Fenster, oder schließen Sie es und melden Sie sich hier erneut an.</translation>
    </message>
    <message>
        <source>This password does not open the work saved on this computer.</source>
        <translation>Dieses Passwort öffnet die auf diesem Computer gespeicherte Arbeit nicht.</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Es wurde nichts geändert.</translation>
    </message>
    <message>
        <source>Check it and try again.</source>
        <translation>Prüfen Sie es und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>You logged out on this computer.</source>
        <translation>Sie haben sich auf diesem Computer abgemeldet.</translation>
    </message>
    <message>
        <source>Nothing of yours is saved on this computer for this server.</source>
        <translation>Auf diesem Computer ist für diesen Server nichts von Ihnen gespeichert.</translation>
    </message>
    <message>
        <source>There is nothing to open without the server.</source>
        <translation>Ohne den Server gibt es nichts zu öffnen.</translation>
    </message>
    <message>
        <source>Log in when the server can be reached.</source>
        <translation>Melden Sie sich an, sobald der Server erreichbar ist.</translation>
    </message>
    <message>
        <source>The key of the work saved on this computer cannot be read.</source>
        <translation>Der Schlüssel der auf diesem Computer gespeicherten Arbeit kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Its file is damaged or was written by another release; it was left as it is.</source>
        <translation>Seine Datei ist beschädigt oder stammt von einer anderen Version; sie wurde unverändert gelassen.</translation>
    </message>
    <message>
        <source>%Ln pending</source>
        <translation>%Ln ausstehend</translation>
    </message>
    <message>
        <source>Your saved work was written by a newer release of the app.</source>
        <translation>Ihre gespeicherte Arbeit wurde von einer neueren Version der App geschrieben.</translation>
    </message>
    <message>
        <source>This release of the app cannot open it; nothing was changed.</source>
        <translation>Diese Version der App kann sie nicht öffnen; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Update the app, then log in: your saved work is kept as it is.</source>
        <translation>Aktualisieren Sie die App und melden Sie sich dann an: Ihre gespeicherte Arbeit bleibt, wie sie ist.</translation>
    </message>
    <message>
        <source>Your saved work is from an earlier release, before encryption.</source>
        <translation>Ihre gespeicherte Arbeit stammt von einer früheren Version, vor der Verschlüsselung.</translation>
    </message>
    <message>
        <source>It is kept as it is, with any verdicts not yet sent.</source>
        <translation>Sie bleibt, wie sie ist, mit allen noch nicht gesendeten Urteilen.</translation>
    </message>
    <message>
        <source>Log in once online to upgrade it; it then opens offline too.</source>
        <translation>Melden Sie sich einmal online an, um sie umzustellen; danach öffnet sie auch offline.</translation>
    </message>
    <message>
        <source>Your saved work is on this computer, but its key is missing.</source>
        <translation>Ihre gespeicherte Arbeit ist auf diesem Computer, aber ihr Schlüssel fehlt.</translation>
    </message>
    <message>
        <source>The keyring no longer holds it; nothing was changed.</source>
        <translation>Der Schlüsselbund enthält ihn nicht mehr; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Log in online meanwhile; the saved work waits for its key.</source>
        <translation>Melden Sie sich inzwischen online an; die gespeicherte Arbeit wartet auf ihren Schlüssel.</translation>
    </message>
    <message>
        <source>Log in when the server can be reached: the app starts a new store and keeps the old one aside for support.</source>
        <translation>Melden Sie sich an, sobald der Server erreichbar ist: Die App legt einen neuen Speicher an und bewahrt den alten für den Support auf.</translation>
    </message>
    <message>
        <source>The export was cancelled after %Ln decision(s).</source>
        <translation>Der Export wurde nach %Ln Entscheidung abgebrochen.|Der Export wurde nach %Ln Entscheidungen abgebrochen.</translation>
    </message>
    <message>
        <source>The server cannot be reached.</source>
        <translation>Der Server ist nicht erreichbar.</translation>
    </message>
    <message>
        <source>The server is busy or failing.</source>
        <translation>Der Server ist ausgelastet oder gestört.</translation>
    </message>
    <message>
        <source>The server sent a reply this app cannot use.</source>
        <translation>Der Server hat eine Antwort gesendet, die diese App nicht verwenden kann.</translation>
    </message>
    <message>
        <source>Syncing with the server failed.</source>
        <translation>Die Synchronisierung mit dem Server ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Post {item} from queue {queue} cannot be shown: the server sent it in a form this app refuses. It was left aside; tell your administrator.</source>
        <translation>Der Beitrag {item} aus der Warteschlange {queue} kann nicht angezeigt werden: Der Server hat ihn in einer Form gesendet, die diese App ablehnt. Er wurde beiseitegelegt; informieren Sie Ihre Administration.</translation>
    </message>
    <message>
        <source>Syncing stopped on an unexpected error. Your decisions are kept; restart the app, and if it happens again, tell your administrator.</source>
        <translation>Die Synchronisierung wurde durch einen unerwarteten Fehler beendet. Ihre Entscheidungen bleiben erhalten; starten Sie die App neu und informieren Sie Ihre Administration, wenn es wieder passiert.</translation>
    </message>
    <message>
        <source>Leasing for offline work stopped after {done} of {total} posts.</source>
        <translation>Das Reservieren für die Offline-Arbeit endete nach {done} von {total} Beiträgen.</translation>
    </message>
    <message>
        <source>Only {done} of {total} items could be leased: the queue has no more for you, or you reached the server&apos;s limit of items held at once.</source>
        <translation>Nur {done} von {total} Einträgen konnten reserviert werden: Die Warteschlange hat keine weiteren für Sie, oder Sie haben die Höchstzahl gleichzeitig gehaltener Einträge des Servers erreicht.</translation>
    </message>
    <message>
        <source>Ready to work offline: %Ln post(s) on this computer.</source>
        <translation>Bereit für die Offline-Arbeit: %Ln Beitrag auf diesem Computer.|Bereit für die Offline-Arbeit: %Ln Beiträge auf diesem Computer.</translation>
    </message>
    <message>
        <source>this session keeps its login in memory only</source>
        <translation>diese Sitzung hält ihre Anmeldung nur im Speicher</translation>
    </message>
    <message>
        <source>no keyring service is available on this system</source>
        <translation>auf diesem System ist kein Schlüsselbund-Dienst verfügbar</translation>
    </message>
    <message>
        <source>the keyring backend {name} is not a safe store</source>
        <translation>das Schlüsselbund-Backend {name} ist kein sicherer Speicherort</translation>
    </message>
    <message>
        <source>the keyring backend cannot be used ({name})</source>
        <translation>das Schlüsselbund-Backend ist nicht verwendbar ({name})</translation>
    </message>
    <message>
        <source>the keyring refused to keep it ({name})</source>
        <translation>der Schlüsselbund hat das Speichern abgelehnt ({name})</translation>
    </message>
    <message>
        <source>the keyring failed ({name})</source>
        <translation>der Schlüsselbund ist ausgefallen ({name})</translation>
    </message>
    <message>
        <source>The local store could not be used (it was damaged, not this app&apos;s, or locked with another key). It was moved aside to {path} and a new, empty store was started. Verdicts that were in the old file and not yet sent are still in it; ask support before deleting it.</source>
        <translation>Der lokale Speicher konnte nicht verwendet werden (er war beschädigt, gehörte nicht zu dieser App oder war mit einem anderen Schlüssel verschlüsselt). Er wurde nach {path} verschoben, und ein neuer, leerer Speicher wurde angelegt. Entscheidungen, die in der alten Datei standen und noch nicht gesendet waren, sind weiterhin darin; fragen Sie den Support, bevor Sie sie löschen.</translation>
    </message>
    <message>
        <source>{n} saved verdicts</source>
        <translation>{n} gespeicherten Entscheidungen</translation>
    </message>
    <message>
        <source>1 saved verdict</source>
        <translation>1 gespeicherten Entscheidung</translation>
    </message>
    <message>
        <source>{n} posts</source>
        <translation>{n} Beiträgen</translation>
    </message>
    <message>
        <source>1 post</source>
        <translation>1 Beitrag</translation>
    </message>
    <message>
        <source>The server cannot be reached: working offline with {verdicts} and {posts}.</source>
        <translation>Der Server ist nicht erreichbar: Offline-Arbeit mit {verdicts} und {posts}.</translation>
    </message>
    <message>
        <source>The server cannot be reached: opening the work saved on this computer…</source>
        <translation>Der Server ist nicht erreichbar: Die auf diesem Computer gespeicherte Arbeit wird geöffnet…</translation>
    </message>
    <message>
        <source>The server cannot be reached, and this password does not open the work saved on this computer. Nothing was changed: check the password and try again.</source>
        <translation>Der Server ist nicht erreichbar, und dieses Passwort öffnet die auf diesem Computer gespeicherte Arbeit nicht. Es wurde nichts geändert: Prüfen Sie das Passwort und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Your work saved on this computer earlier (with any verdicts not yet sent) is locked with a key the keyring holds, and the keyring cannot be read now ({reason}). It is left as it is: log in again once the keyring is available (unlocked, or after signing in to the desktop again) and it is sent then. Until then nothing you review is kept on this computer.</source>
        <translation>Ihre früher auf diesem Computer gespeicherte Arbeit (mit noch nicht gesendeten Entscheidungen) ist mit einem Schlüssel gesichert, den der Schlüsselbund verwahrt, und der Schlüsselbund kann gerade nicht gelesen werden ({reason}). Sie bleibt unverändert: Melden Sie sich erneut an, sobald der Schlüsselbund verfügbar ist (entsperrt oder nach erneuter Anmeldung am Desktop), dann wird sie gesendet. Bis dahin wird nichts, was Sie prüfen, auf diesem Computer gespeichert.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and your work saved on this computer is locked with a key the keyring holds, which cannot be read now ({reason}). Nothing was changed: try again once the keyring is available or the network is back.</source>
        <translation>Der Server ist nicht erreichbar, und Ihre auf diesem Computer gespeicherte Arbeit ist mit einem Schlüssel gesichert, den der Schlüsselbund verwahrt und der gerade nicht gelesen werden kann ({reason}). Nichts wurde geändert: Versuchen Sie es erneut, sobald der Schlüsselbund verfügbar oder das Netzwerk zurück ist.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and you logged out on this computer, so working offline needs a login first. Verdicts you had not sent are kept; try again when the network is back.</source>
        <translation>Der Server ist nicht erreichbar, und Sie haben sich auf diesem Computer abgemeldet; für Offline-Arbeit ist daher zuerst eine Anmeldung nötig. Nicht gesendete Entscheidungen bleiben erhalten; versuchen Sie es erneut, wenn das Netzwerk wieder da ist.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and nothing of yours is saved on this computer for this server, so there is nothing to work on offline. Try again when the network is back.</source>
        <translation>Der Server ist nicht erreichbar, und auf diesem Computer ist für diesen Server nichts von Ihnen gespeichert; offline gibt es also nichts zu bearbeiten. Versuchen Sie es erneut, wenn das Netzwerk wieder da ist.</translation>
    </message>
    <message>
        <source>1 pending: the post is held by another reviewer; retrying</source>
        <translation>1 ausstehend: Der Beitrag ist bei einer anderen prüfenden Person; neuer Versuch folgt</translation>
    </message>
    <message>
        <source>{n} pending: {held} held by other reviewers; retrying</source>
        <translation>{n} ausstehend: {held} bei anderen prüfenden Personen; neuer Versuch folgt</translation>
    </message>
    <message>
        <source>Another reviewer holds the post: your verdict is sent again until it counts (they let the post go) or comes back as a conflict (they decided it).</source>
        <translation>Eine andere prüfende Person hat den Beitrag: Ihre Entscheidung wird erneut gesendet, bis sie zählt (der Beitrag wird freigegeben) oder als Konflikt zurückkommt (dort wurde entschieden).</translation>
    </message>
    <message>
        <source>Their hold ends at {time} unless renewed.</source>
        <translation>Deren Reservierung endet um {time}, sofern sie nicht verlängert wird.</translation>
    </message>
    <message>
        <source>“{address}” is not a usable server address.</source>
        <translation>„{address}“ ist keine verwendbare Serveradresse.</translation>
    </message>
    <message>
        <source>The local store cannot be written.</source>
        <translation>Der lokale Speicher kann nicht beschrieben werden.</translation>
    </message>
    <message>
        <source>The disk may be full, the data folder read-only, or the store in use by another copy of the app.</source>
        <translation>Möglicherweise ist die Festplatte voll, der Datenordner schreibgeschützt oder der Speicher von einer anderen Instanz der App belegt.</translation>
    </message>
    <message>
        <source>Check free disk space and the data folder&apos;s permissions, then restart the app.</source>
        <translation>Prüfen Sie den freien Speicherplatz und die Rechte des Datenordners und starten Sie die App neu.</translation>
    </message>
    <message>
        <source>There is no verdict left to undo: the last one&apos;s undo window has passed.</source>
        <translation>Es gibt keine Entscheidung mehr, die sich rückgängig machen lässt: Das Rückgängig-Fenster der letzten ist abgelaufen.</translation>
    </message>
    <message>
        <source>This post is no longer waiting for a decision here.</source>
        <translation>Dieser Beitrag wartet hier nicht mehr auf eine Entscheidung.</translation>
    </message>
    <message>
        <source>It was decided already, or it left the worklist.</source>
        <translation>Er wurde bereits entschieden oder hat die Arbeitsliste verlassen.</translation>
    </message>
    <message>
        <source>{n} verdicts saved here have not been sent yet.</source>
        <translation>{n} hier gespeicherte Entscheidungen wurden noch nicht gesendet.</translation>
    </message>
    <message>
        <source>1 verdict saved here has not been sent yet.</source>
        <translation>1 hier gespeicherte Entscheidung wurde noch nicht gesendet.</translation>
    </message>
    <message>
        <source>Clearing the local data now would lose them.</source>
        <translation>Wenn Sie die lokalen Daten jetzt löschen, gehen sie verloren.</translation>
    </message>
    <message>
        <source>Connect to the server so they are sent, then try again.</source>
        <translation>Verbinden Sie sich mit dem Server, damit sie gesendet werden, und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>What was written of it is incomplete.</source>
        <translation>Was davon geschrieben wurde, ist unvollständig.</translation>
    </message>
    <message>
        <source>Something went wrong{where}.</source>
        <translation>Etwas ist schiefgegangen{where}.</translation>
    </message>
    <message>
        <source>The app met an error it did not expect; the log has the details.</source>
        <translation>In der App ist ein unerwarteter Fehler aufgetreten; Einzelheiten stehen im Protokoll.</translation>
    </message>
    <message>
        <source>Try again; if it keeps happening, restart the app and tell your administrator.</source>
        <translation>Versuchen Sie es erneut; wenn es weiter passiert, starten Sie die App neu und informieren Sie Ihre Administration.</translation>
    </message>
</context>
<context>
    <name>Models</name>
    <message>
        <source>to review</source>
        <extracomment>the roles the worklist answers how many characters of a post the worklist&apos;s Item column shows the worklist&apos;s State and Sync columns: a word or two (their columns are narrow: the Item column takes the rest), each the whole cell&apos;s text (&quot;decided (keep)&quot; and &quot;waiting to send&quot; were cut to &quot;decide…&quot; and &quot;wait…&quot;); a decided row&apos;s action is in its tooltip</extracomment>
        <translation>zu prüfen</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>entschieden</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>gesendet</translation>
    </message>
    <message>
        <source>conflict</source>
        <translation>Konflikt</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>to send</source>
        <translation>zu senden</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>expired</source>
        <extracomment>a title longer than this (in characters) and of several words goes on more lines the most lines a column&apos;s title takes where a translation lets a long word break (&quot;Überein­stimmung&quot;), as in print</extracomment>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>Item</source>
        <extracomment>the translation context of ``HEADERS`` (each marked with ``QT_TRANSLATE_NOOP``) long titles of several words shown on two lines (``two_lines``): a table of many figures then fits its window (the Reviewers and Wellbeing tables scrolled sideways at 1280 px, each column as wide as its title on one line)</extracomment>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Frist</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>Sync</translation>
    </message>
    <message>
        <source>lost</source>
        <extracomment>a queue&apos;s action labels by its id (a decided row&apos;s action in its words) what the Item column shows of each item: its author and the start of its post (``describe``), kept for as long as the item is on the list each described item&apos;s author&apos;s handle (as given: isolate it to show it)</extracomment>
        <translation>verloren</translation>
    </message>
    <message>
        <source>, oldest {n} h</source>
        <translation>, älteste {n} h</translation>
    </message>
    <message>
        <source>, oldest {n} min</source>
        <translation>, älteste {n} min</translation>
    </message>
    <message>
        <source>{pending} waiting, {leased} being reviewed, {decided} decided today</source>
        <translation>{pending} wartend, {leased} in Prüfung, {decided} heute entschieden</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Ihre Entscheidung</translation>
    </message>
    <message>
        <source>Decision that counts</source>
        <translation>Geltende Entscheidung</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Von</translation>
    </message>
</context>
<context>
    <name>MyDecisions</name>
    <message>
        <source>today {time}</source>
        <extracomment>pages of 500 asked for at most (a shift&apos;s or a week&apos;s decisions of one reviewer) the periods, narrowest first, and how many days back the wider ones reach made this much earlier than it reached the service: offline work, said so</extracomment>
        <translation>heute {time}</translation>
    </message>
    <message>
        <source>yesterday {time}</source>
        <translation>gestern {time}</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>Confirmed in an audit</source>
        <translation>In einem Audit bestätigt</translation>
    </message>
    <message>
        <source>Overturned in an audit</source>
        <translation>In einem Audit aufgehoben</translation>
    </message>
    <message>
        <source>Appealed, waiting for a decision</source>
        <translation>Einspruch eingelegt, wartet auf Entscheidung</translation>
    </message>
    <message>
        <source>Appealed and upheld</source>
        <translation>Einspruch eingelegt, Entscheidung bestätigt</translation>
    </message>
    <message>
        <source>Reversed on appeal</source>
        <translation>Nach Einspruch geändert</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>jemand</translation>
    </message>
    <message>
        <source>{at}: {who} overturned it in an audit to {action}.</source>
        <translation>{at}: {who} hat sie in einem Audit aufgehoben und in {action} geändert.</translation>
    </message>
    <message>
        <source>{at}: {who} agreed with it in an audit.</source>
        <translation>{at}: {who} hat ihr in einem Audit zugestimmt.</translation>
    </message>
    <message>
        <source>{at}: reversed on appeal to {action}.</source>
        <translation>{at}: nach Einspruch in {action} geändert.</translation>
    </message>
    <message>
        <source>{at}: the appeal was decided and it stands.</source>
        <translation>{at}: Über den Einspruch wurde entschieden; die Entscheidung bleibt bestehen.</translation>
    </message>
    <message>
        <source>{at}: the user appealed it.</source>
        <translation>{at}: Der Nutzer hat Einspruch eingelegt.</translation>
    </message>
    <message>
        <source>{at}: a note from {who}.</source>
        <translation>{at}: eine Notiz von {who}.</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>Notiz: {note}</translation>
    </message>
    <message>
        <source>The post: {text}</source>
        <translation>Der Beitrag: {text}</translation>
    </message>
    <message>
        <source>Escalated — the lead decided: {action}</source>
        <translation>Eskaliert – die Teamleitung entschied: {action}</translation>
    </message>
    <message>
        <source>Escalated, waiting for a lead</source>
        <translation>Eskaliert, wartet auf die Teamleitung</translation>
    </message>
    <message>
        <source>{time}, {queue}: you decided {action}.</source>
        <translation>{time}, {queue}: eigene Entscheidung {action}.</translation>
    </message>
    <message>
        <source>Sent later: it reached the service {time}.</source>
        <translation>Später gesendet: beim Dienst eingegangen {time}.</translation>
    </message>
    <message>
        <source>Conflict: another decision counts</source>
        <translation>Konflikt: Eine andere Entscheidung zählt</translation>
    </message>
    <message>
        <source>{time}, {queue}: you decided {mine}, but {who} had decided {theirs} first; theirs counts.</source>
        <translation>{time}, {queue}: eigene Entscheidung {mine}, aber {who} hatte zuvor {theirs} entschieden; diese zählt.</translation>
    </message>
    <message>
        <source>Not sent yet</source>
        <translation>Noch nicht gesendet</translation>
    </message>
    <message>
        <source>Refused: {why}</source>
        <translation>Abgelehnt: {why}</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Entschieden</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Eigene Entscheidung</translation>
    </message>
    <message>
        <source>What became of it</source>
        <translation>Was daraus wurde</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>My decisions</source>
        <translation>Meine Entscheidungen</translation>
    </message>
    <message>
        <source>Which decisions</source>
        <translation>Welche Entscheidungen</translation>
    </message>
    <message>
        <source>The last {n} days</source>
        <translation>Die letzten {n} Tage</translation>
    </message>
    <message>
        <source>This shift (since {time})</source>
        <translation>Diese Schicht (seit {time})</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Select a decision to read what became of it.</source>
        <translation>Eine Entscheidung auswählen, um zu sehen, was daraus wurde.</translation>
    </message>
    <message>
        <source>My decisions status</source>
        <translation>Status von “Meine Entscheidungen”</translation>
    </message>
    <message>
        <source>Your own decisions and what became of each: audits, appeals, conflicts and notes from your leads. Bold rows were overturned or carry a note.</source>
        <translation>Die eigenen Entscheidungen und was aus jeder wurde: Audits, Einsprüche, Konflikte und Notizen der Teamleitung. Fett gedruckte Zeilen wurden aufgehoben oder haben eine Notiz.</translation>
    </message>
    <message>
        <source>Loading your decisions…</source>
        <translation>Eigene Entscheidungen werden geladen…</translation>
    </message>
    <message>
        <source>1 decision.</source>
        <translation>1 Entscheidung.</translation>
    </message>
    <message>
        <source>{n} decisions.</source>
        <translation>{n} Entscheidungen.</translation>
    </message>
    <message>
        <source>Only the newest are shown.</source>
        <translation>Nur die neuesten werden angezeigt.</translation>
    </message>
    <message>
        <source>loading your decisions</source>
        <translation>Laden Ihrer Entscheidungen</translation>
    </message>
    <message>
        <source>Your decisions on the service could not be read: {why} Shown: what this computer holds (conflicts, verdicts not sent yet or refused).</source>
        <translation>Ihre Entscheidungen beim Dienst konnten nicht gelesen werden: {why} Angezeigt wird, was dieser Computer hat (Konflikte, noch nicht gesendete oder abgelehnte Urteile).</translation>
    </message>
    <message>
        <source>Feedback on earlier decisions is not in this list: choose a longer period to read it.</source>
        <translation>Rückmeldungen zu früheren Entscheidungen sind nicht in dieser Liste: Wählen Sie einen längeren Zeitraum, um sie zu lesen.</translation>
    </message>
    <message>
        <source>1 of your decisions was overturned</source>
        <translation>1 eigene Entscheidung wurde aufgehoben</translation>
    </message>
    <message>
        <source>{n} of your decisions were overturned</source>
        <translation>{n} eigene Entscheidungen wurden aufgehoben</translation>
    </message>
    <message>
        <source>1 note from a lead came</source>
        <translation>1 Notiz von der Teamleitung ist eingegangen</translation>
    </message>
    <message>
        <source>{n} notes from a lead came</source>
        <translation>{n} Notizen von der Teamleitung sind eingegangen</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>since {time}</source>
        <translation>seit {time}</translation>
    </message>
    <message>
        <source>Open My decisions ({keys}) to read them.</source>
        <translation>“Meine Entscheidungen” ({keys}) öffnen, um sie zu lesen.</translation>
    </message>
    <message>
        <source>Feedback on your decisions</source>
        <extracomment>the key that opens My decisions now (the reviewer may have changed it)</extracomment>
        <translation>Rückmeldungen zu den eigenen Entscheidungen</translation>
    </message>
    <message>
        <source>Feedback notice</source>
        <translation>Hinweis auf Rückmeldungen</translation>
    </message>
    <message>
        <source>Open My decisions</source>
        <translation>“Meine Entscheidungen” öffnen</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
</context>
<context>
    <name>Plain</name>
    <message>
        <source>{n} d ago</source>
        <extracomment>Characters that change the direction of text or hide themselves, by Unicode property: every default-ignorable code point (soft hyphen, joiners, fillers, variation selectors, tags...) and every bidi control. A zero-width joiner between two pictographs and a variation selector after an emoji are spared: they make one emoji (&quot;👩‍💻&quot;, &quot;❤️&quot;). What ``isolate`` puts around every untrusted string it embeds: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so the string takes its own direction and cannot reorder the app&apos;s words around it (numbers after a Hebrew queue name, &quot;waiting&quot; after an override). bidi marks, embeddings and overrides (a tooltip keeps the isolates ``isolate`` adds) the widest a text from the wire (an action&apos;s label, a queue&apos;s name) makes a button, a combo or a table column: longer ones are elided, the whole text in the tooltip. A window&apos;s minimum size never depends on data. how many characters of a name a combo box is sized for, whatever its items the widths ``fit_columns`` gave a header&apos;s columns that only a reader resizes (not the last, which may stretch, nor one that takes the spare width: ``stretch_column``)</extracomment>
        <translation>vor {n} T</translation>
    </message>
    <message>
        <source>{n} h ago</source>
        <translation>vor {n} h</translation>
    </message>
    <message>
        <source>{n} min ago</source>
        <translation>vor {n} min</translation>
    </message>
    <message>
        <source>{n} s ago</source>
        <translation>vor {n} s</translation>
    </message>
</context>
<context>
    <name>PostPane</name>
    <message>
        <source>Post text</source>
        <extracomment>Longer texts show this much first; the rest on request (layout of a huge block is slow). of a post&apos;s text, what fills the box (``PostText.first_screen``; at most this much) is in it before the next post is painted; the rest (up to DISPLAY_LIMIT) is added right after that paint. Qt lays out what is put in, a screen from its end and one from its start, and at the 1280 x 860 window&apos;s box (about 350 characters shown) putting 3,000 characters in took 0.5-0.6 ms of a keypress and at least this much (a box not laid out yet) the post box&apos;s preferred height: the lines its text takes, within these bounds (it grows into the room its pane has to spare) a whole long text is in (it is added in batches)</extracomment>
        <translation>Text des Beitrags</translation>
    </message>
    <message>
        <source>the decision on this account</source>
        <extracomment>the lines the box asks for (``fit_lines``), and whether it holds the whole text</extracomment>
        <translation>die Entscheidung zu diesem Konto</translation>
    </message>
    <message>
        <source>the decision on this post</source>
        <translation>die Entscheidung zu diesem Beitrag</translation>
    </message>
    <message>
        <source>Appeal {id} of {subject}</source>
        <translation>Widerspruch {id} gegen {subject}</translation>
    </message>
    <message>
        <source>Action on the account: {action}</source>
        <translation>Maßnahme gegen das Konto: {action}</translation>
    </message>
    <message>
        <source>Reviewer&apos;s note: {note}</source>
        <translation>Notiz der Prüferin/des Prüfers: {note}</translation>
    </message>
    <message>
        <source>Outcome: {outcome}</source>
        <translation>Ergebnis: {outcome}</translation>
    </message>
    <message>
        <source>upheld</source>
        <translation>bestätigt</translation>
    </message>
    <message>
        <source>reversed</source>
        <translation>aufgehoben</translation>
    </message>
    <message>
        <source>ended when the platform withdrew the post</source>
        <translation>beendet, als die Plattform den Beitrag zurückzog</translation>
    </message>
    <message>
        <source>The statement of reasons the user was given:</source>
        <translation>Die Begründung, die der Nutzer erhalten hat:</translation>
    </message>
    <message>
        <source>Post</source>
        <extracomment>a queue&apos;s name by its id (the queue list&apos;s), for the escalation banner</extracomment>
        <translation>Beitrag</translation>
    </message>
    <message>
        <source>Author and time</source>
        <translation>Autor und Zeit</translation>
    </message>
    <message>
        <source>Author&apos;s account status</source>
        <translation>Kontostatus des Autors</translation>
    </message>
    <message>
        <source>Language and reach</source>
        <translation>Sprache und Reichweite</translation>
    </message>
    <message>
        <source>Why it was escalated</source>
        <translation>Warum eskaliert wurde</translation>
    </message>
    <message>
        <source>The appeal</source>
        <translation>Der Widerspruch</translation>
    </message>
    <message>
        <source>Show the whole text</source>
        <translation>Den ganzen Text zeigen</translation>
    </message>
    <message>
        <source>Link preview</source>
        <translation>Linkvorschau</translation>
    </message>
    <message>
        <source>Open link in browser…</source>
        <translation>Link im Browser öffnen…</translation>
    </message>
    <message>
        <source>Open the post&apos;s link in the system browser</source>
        <translation>Den Link des Beitrags im Browser des Systems öffnen</translation>
    </message>
    <message>
        <source>No post to review.</source>
        <extracomment>the post is never narrower than this many of its average characters a line</extracomment>
        <translation>Kein Beitrag zu prüfen.</translation>
    </message>
    <message>
        <source>✓ verified</source>
        <translation>✓ verifiziert</translation>
    </message>
    <message>
        <source>Show the whole text (%Ln more character(s))</source>
        <translation>Den ganzen Text zeigen (%Ln weiteres Zeichen)|Den ganzen Text zeigen (%Ln weitere Zeichen)</translation>
    </message>
    <message>
        <source>The text holds %Ln invisible or direction-changing character(s).</source>
        <translation>Der Text enthält %Ln unsichtbares oder richtungsänderndes Zeichen.|Der Text enthält %Ln unsichtbare oder richtungsändernde Zeichen.</translation>
    </message>
    <message>
        <source>Language: {language} · {views} views · {shares} shares · {recent} views in the last hour ({growth}/h)</source>
        <translation>Sprache: {language} · {views} Aufrufe · {shares} Teilungen · {recent} Aufrufe in der letzten Stunde ({growth}/h)</translation>
    </message>
    <message>
        <source>Contested: {action} {policies} by {reviewer}, {time}</source>
        <translation>Angefochten: {action} {policies} von {reviewer}, {time}</translation>
    </message>
    <message>
        <source>The user wrote ({time}):</source>
        <translation>Die Person schrieb ({time}):</translation>
    </message>
    <message>
        <source>posted {ago} ({time})</source>
        <translation>gepostet {ago} ({time})</translation>
    </message>
    <message>
        <source>Link: {domain} — {title}</source>
        <translation>Link: {domain} — {title}</translation>
    </message>
    <message>
        <source>Post address: {url}</source>
        <translation>Adresse des Beitrags: {url}</translation>
    </message>
</context>
<context>
    <name>QueuePicker</name>
    <message>
        <source>{pending} waiting, {others} waiting for someone else, {leased} being reviewed, {decided} decided today</source>
        <translation>{pending} wartend, {others} wartend für andere, {leased} in Prüfung, {decided} heute entschieden</translation>
    </message>
    <message>
        <source>last known counts</source>
        <translation>zuletzt bekannte Zahlen</translation>
    </message>
    <message>
        <source>counts as of {time}</source>
        <translation>Stand: {time}</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s). An appeal never goes to whoever decided or escalated the post before.</source>
        <translation>In {queue} wartend für andere: %Ln Beitrag/Beiträge. Ein Einspruch geht nie an jemanden, der den Beitrag vorher entschieden oder eskaliert hat.</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s), assigned to another lead.</source>
        <translation>In {queue} wartend für andere: %Ln Beitrag/Beiträge, einem anderen Lead zugewiesen.</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s).</source>
        <translation>In {queue} wartend für andere: %Ln Beitrag/Beiträge.</translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message>
        <source>a policy code</source>
        <translation>einen Richtliniencode</translation>
    </message>
    <message>
        <source>a fact-check rating</source>
        <translation>eine Faktencheck-Bewertung</translation>
    </message>
    <message>
        <source>a note</source>
        <translation>eine Notiz</translation>
    </message>
    <message>
        <source>press P, move with the arrows and tick with Space</source>
        <translation>P drücken, mit den Pfeilen bewegen und mit Leertaste ankreuzen</translation>
    </message>
    <message>
        <source>press R and pick one with the arrows</source>
        <translation>R drücken und mit den Pfeilen eine wählen</translation>
    </message>
    <message>
        <source>press N and write it</source>
        <translation>N drücken und sie schreiben</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>{action} needs {words}: {how}. Then Ctrl+Enter. Esc cancels.</source>
        <translation>{action} braucht {words}: {how}. Dann Strg+Eingabe. Esc bricht ab.</translation>
    </message>
    <message>
        <source>{action} needs {words}: {how}. Then Ctrl+Enter.</source>
        <translation>{action} braucht {words}: {how}. Dann Strg+Eingabe.</translation>
    </message>
    <message>
        <source>The post you were looking at was taken back by the server (its lease ended and someone else has it now). Here is the next one.</source>
        <extracomment>E (or the escalate button): the window asks for a reason (ActionConfig, reasons) where the items come from and the verdicts go an item to show before the others once it is here (a lead&apos;s picked escalation)</extracomment>
        <translation>Der Beitrag, den Sie angesehen haben, wurde vom Server zurückgenommen (seine Reservierung endete und jemand anderes hat ihn jetzt). Hier ist der nächste.</translation>
    </message>
    <message>
        <source>Withdrawn by the platform: the post you were looking at was deleted or made private upstream, so it needs no verdict. Here is the next one.</source>
        <translation>Von der Plattform zurückgezogen: Der Beitrag, den Sie gerade ansahen, wurde dort gelöscht oder privat gemacht und braucht keine Entscheidung. Hier ist der nächste.</translation>
    </message>
    <message>
        <source>Resolved: {why}. The post you were looking at was closed by that account action, so it needs no verdict. Here is the next one.</source>
        <translation>Erledigt: {why}. Der Beitrag, den Sie angesehen haben, wurde durch diese Kontomaßnahme geschlossen und braucht keine Entscheidung. Hier ist der nächste.</translation>
    </message>
    <message>
        <source>Post {item} needs no verdict from you now (decided, skipped or taken back); the post on screen stays.</source>
        <translation>Beitrag {item} braucht jetzt keine Entscheidung mehr (entschieden, übersprungen oder zurückgenommen); der angezeigte Beitrag bleibt.</translation>
    </message>
    <message>
        <source>This queue has no escalation action.</source>
        <translation>Diese Warteschlange hat keine Eskalationsaktion.</translation>
    </message>
    <message>
        <source>The verdict could not be saved.</source>
        <extracomment>why this desk cannot escalate (None: it can)</extracomment>
        <translation>Die Entscheidung konnte nicht gespeichert werden.</translation>
    </message>
    <message>
        <source>The verdict could not be saved: it breaks the rules for verdicts (a note may be too long, or hold characters that are not allowed).</source>
        <translation>Die Entscheidung konnte nicht gespeichert werden: Sie verstößt gegen die Regeln für Entscheidungen (eine Notiz ist vielleicht zu lang oder enthält unzulässige Zeichen).</translation>
    </message>
</context>
<context>
    <name>Scores</name>
    <message>
        <source>Classifier scores</source>
        <translation>Klassifikatorwerte</translation>
    </message>
    <message>
        <source>No classifier scores for this post.</source>
        <translation>Keine Klassifikatorwerte für diesen Beitrag.</translation>
    </message>
    <message>
        <source>OVER</source>
        <translation>DARÜBER</translation>
    </message>
    <message>
        <source>{label} by {model} {version}: score {score}, threshold {threshold}, over the threshold</source>
        <translation>{label} von {model} {version}: Wert {score}, Schwelle {threshold}, über der Schwelle</translation>
    </message>
    <message>
        <source>{label} by {model} {version}: score {score}, threshold {threshold}, under the threshold</source>
        <translation>{label} von {model} {version}: Wert {score}, Schwelle {threshold}, unter der Schwelle</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>Decide with the action that shows this key</source>
        <translation>Mit der Aktion entscheiden, die diese Taste zeigt</translation>
    </message>
    <message>
        <source>Escalate to a lead</source>
        <extracomment>Every command, in the order the shortcuts list shows them.</extracomment>
        <translation>An eine Leitung eskalieren</translation>
    </message>
    <message>
        <source>Switch to queue {n} of the queue list</source>
        <extracomment>the default keys, in Qt&apos;s portable text (&quot;Ctrl+Return&quot;) what it does (translated in the &quot;Shortcuts&quot; context) a Qt shortcut (a menu action&apos;s, or the Lead workspace&apos;s): Qt&apos;s shortcut map triggers it, not the key filter may fire while a text field has focus (only keys with Ctrl or Alt, Esc or F1…F35) only leads and admins have it</extracomment>
        <translation>Zu Warteschlange {n} der Warteschlangenliste wechseln</translation>
    </message>
    <message>
        <source>Lead workspace: open saved view {n} (the Search tab&apos;s picker)</source>
        <translation>Teamleitungs-Arbeitsbereich: gespeicherte Ansicht {n} öffnen (Auswahl im Tab “Suche”)</translation>
    </message>
    <message>
        <source>Skip: give the post back</source>
        <translation>Überspringen: Beitrag zurückgeben</translation>
    </message>
    <message>
        <source>Take a break: give back your posts and pause (the same key resumes)</source>
        <translation>Pause machen: eigene Beiträge zurückgeben und pausieren (dieselbe Taste setzt fort)</translation>
    </message>
    <message>
        <source>Choose policy codes (arrows move, Space ticks)</source>
        <translation>Richtliniencodes wählen (Pfeile bewegen, Leertaste kreuzt an)</translation>
    </message>
    <message>
        <source>Choose a fact-check rating</source>
        <translation>Eine Faktencheck-Bewertung wählen</translation>
    </message>
    <message>
        <source>Write a note</source>
        <translation>Eine Notiz schreiben</translation>
    </message>
    <message>
        <source>Submit the verdict waiting for a policy, rating or note</source>
        <translation>Die Entscheidung absenden, die auf eine Richtlinie, Bewertung oder Notiz wartet</translation>
    </message>
    <message>
        <source>Undo the last verdict (within its undo window)</source>
        <translation>Letzte Entscheidung rückgängig machen (innerhalb ihres Rückgängig-Zeitfensters)</translation>
    </message>
    <message>
        <source>Reveal or hide the media</source>
        <translation>Medien einblenden oder ausblenden</translation>
    </message>
    <message>
        <source>View the media large (arrows: previous, next; + and -: zoom)</source>
        <translation>Medien groß anzeigen (Pfeiltasten: vorheriges, nächstes; + und -: Zoom)</translation>
    </message>
    <message>
        <source>Switch to the next queue</source>
        <translation>Zur nächsten Warteschlange wechseln</translation>
    </message>
    <message>
        <source>Switch to the previous queue</source>
        <translation>Zur vorherigen Warteschlange wechseln</translation>
    </message>
    <message>
        <source>Next pane: worklist, post, context, verdict bar (Shift: previous)</source>
        <translation>Nächster Bereich: Arbeitsliste, Beitrag, Kontext, Entscheidungsleiste (Shift: vorheriger)</translation>
    </message>
    <message>
        <source>Previous pane</source>
        <translation>Vorheriger Bereich</translation>
    </message>
    <message>
        <source>Go to the worklist (arrows choose, that post opens)</source>
        <translation>Zur Arbeitsliste (Pfeiltasten wählen, der Beitrag öffnet sich)</translation>
    </message>
    <message>
        <source>Go to the post&apos;s text</source>
        <translation>Zum Text des Beitrags</translation>
    </message>
    <message>
        <source>Go to the context tabs</source>
        <translation>Zu den Kontext-Tabs</translation>
    </message>
    <message>
        <source>Go to the verdict bar</source>
        <translation>Zur Entscheidungsleiste</translation>
    </message>
    <message>
        <source>Next context tab (in the Lead workspace: its next tab)</source>
        <translation>Nächster Kontext-Tab (im Teamleitungs-Arbeitsbereich: dessen nächster Tab)</translation>
    </message>
    <message>
        <source>Previous context tab (or Lead workspace tab)</source>
        <translation>Vorheriger Kontext-Tab (oder Tab im Teamleitungs-Arbeitsbereich)</translation>
    </message>
    <message>
        <source>My decisions: what became of yours (audits, appeals, leads&apos; notes)</source>
        <translation>Meine Entscheidungen: was aus den eigenen wurde (Audits, Einsprüche, Notizen der Teamleitung)</translation>
    </message>
    <message>
        <source>Settings (and this list&apos;s keys: Shortcuts)</source>
        <translation>Einstellungen (und die Tasten dieser Liste: Tastenkürzel)</translation>
    </message>
    <message>
        <source>Review (leads and admins)</source>
        <translation>Prüfung (Teamleitungen und Admins)</translation>
    </message>
    <message>
        <source>Lead workspace (Tab moves through it, Enter opens the row)</source>
        <translation>Teamleitungs-Arbeitsbereich (Tab bewegt sich hindurch, Enter öffnet die Zeile)</translation>
    </message>
    <message>
        <source>Decide: {action}</source>
        <translation>Entscheiden: {action}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Press one key, with or without modifiers.</source>
        <extracomment>modifiers that say nothing about which command a key is</extracomment>
        <translation>Eine Taste drücken, mit oder ohne Modifikatoren.</translation>
    </message>
    <message>
        <source>{key} moves through the window and opens rows: choose another.</source>
        <translation>{key} bewegt sich durch das Fenster und öffnet Zeilen: eine andere wählen.</translation>
    </message>
    <message>
        <source>{key} is already the key of “{command}”.</source>
        <translation>{key} ist bereits die Taste für “{command}”.</translation>
    </message>
    <message>
        <source>{key} is already the key of the action “{action}” in the queue {queue}.</source>
        <translation>{key} ist bereits die Taste der Aktion “{action}” in der Warteschlange {queue}.</translation>
    </message>
    <message>
        <source>1 … 9</source>
        <translation>1 … 9</translation>
    </message>
    <message>
        <source>Cancel that verdict</source>
        <translation>Diese Entscheidung abbrechen</translation>
    </message>
    <message>
        <source>Work offline: lease a batch to review without a network</source>
        <translation>Offline arbeiten: ein Paket reservieren, um ohne Netz zu prüfen</translation>
    </message>
    <message>
        <source>Open conflicts</source>
        <translation>Konflikte öffnen</translation>
    </message>
    <message>
        <source>Quit (asks first if verdicts are not sent yet)</source>
        <translation>Beenden (fragt zuerst, wenn Entscheidungen noch nicht gesendet sind)</translation>
    </message>
    <message>
        <source>This list</source>
        <translation>Diese Liste</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <extracomment>a row: (&quot;command&quot;, Command) or (&quot;action&quot;, queue id, action id)</extracomment>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Commands and their keys</source>
        <translation>Befehle und ihre Tasten</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Taste</translation>
    </message>
    <message>
        <source>Choose a command and press Enter, then the new key. Tab leaves the key field.</source>
        <translation>Einen Befehl wählen und Enter drücken, dann die neue Taste. Tab verlässt das Tastenfeld.</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>Was zu tun ist</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Neue Taste</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Letzte Änderung</translation>
    </message>
    <message>
        <source>Reset this key</source>
        <translation>Diese Taste zurücksetzen</translation>
    </message>
    <message>
        <source>Reset all keys</source>
        <translation>Alle Tasten zurücksetzen</translation>
    </message>
    <message>
        <source>New key:</source>
        <translation>Neue Taste:</translation>
    </message>
    <message>
        <source>{queue}: {action}</source>
        <translation>{queue}: {action}</translation>
    </message>
    <message>
        <source>(yours)</source>
        <translation>(eigene)</translation>
    </message>
    <message>
        <source>Press the new key for “{command}”.</source>
        <translation>Die neue Taste für “{command}” drücken.</translation>
    </message>
    <message>
        <source>{key} is now the key of “{command}”.</source>
        <translation>{key} ist jetzt die Taste für “{command}”.</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>“{command}” has its default key again.</source>
        <translation>“{command}” hat wieder seine Standardtaste.</translation>
    </message>
    <message>
        <source>Every key is back to its default.</source>
        <translation>Alle Tasten sind wieder auf Standard.</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <source>Verdict</source>
        <extracomment>Actions that take a post down or act on its author: their buttons look different ... in red type with a red edge, in light and dark palettes alike (theme.Tone.destructive) What the reviewer can give for each problem code of the rule (the rest are refusals or a config the reviewer cannot change).</extracomment>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>What the verdict still needs</source>
        <extracomment>the ratings fact-checkers gave the item on screen, and the one the rating starts at the action chosen last (bold), whose statement of reasons is shown</extracomment>
        <translation>Was der Entscheidung noch fehlt</translation>
    </message>
    <message>
        <source>Policy codes (P; arrows, Space to tick)</source>
        <extracomment>the action buttons, in as many rows as the bar&apos;s width needs (``_arrange``)</extracomment>
        <translation>Richtliniencodes (P; Pfeile, Leertaste zum Ankreuzen)</translation>
    </message>
    <message>
        <source>Fact-check rating (R)</source>
        <translation>Faktencheck-Bewertung (R)</translation>
    </message>
    <message>
        <source>Note (N; Ctrl+Enter submits)</source>
        <translation>Notiz (N; Strg+Eingabe sendet ab)</translation>
    </message>
    <message>
        <source>Note (N to write, Ctrl+Enter to submit)</source>
        <translation>Notiz (N zum Schreiben, Strg+Eingabe zum Absenden)</translation>
    </message>
    <message>
        <source>Policy codes (P):</source>
        <translation>Richtliniencodes (P):</translation>
    </message>
    <message>
        <source>Rating (R):</source>
        <translation>Bewertung (R):</translation>
    </message>
    <message>
        <source>What the fact-checkers said, for the label actions</source>
        <translation>Was die Faktenprüfer sagen, für die Kennzeichnungs-Aktionen</translation>
    </message>
    <message>
        <source>Note (N):</source>
        <translation>Notiz (N):</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons):</source>
        <translation>Was die Autorin oder der Autor lesen wird (Begründung):</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons)</source>
        <translation>Was die Autorin oder der Autor lesen wird (Begründung)</translation>
    </message>
    <message>
        <source>a policy code</source>
        <translation>einen Richtliniencode</translation>
    </message>
    <message>
        <source>a rating</source>
        <translation>eine Bewertung</translation>
    </message>
    <message>
        <source>a note</source>
        <translation>eine Notiz</translation>
    </message>
    <message>
        <source>{action}, key {key}</source>
        <translation>{action}, Taste {key}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>, needs {what}</source>
        <translation>, braucht {what}</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>(no rating)</source>
        <translation>(keine Bewertung)</translation>
    </message>
    <message>
        <source>{rating} (fact-checkers&apos;)</source>
        <translation>{rating} (von Faktenprüfern)</translation>
    </message>
    <message>
        <source>No fact-check on this post: the label actions need one.</source>
        <translation>Kein Faktencheck zu diesem Beitrag: Die Kennzeichnungs-Aktionen brauchen einen.</translation>
    </message>
    <message>
        <source>Fact-checkers rated this post: {ratings}. A label starts with {preset}; another rating needs a note.</source>
        <translation>Faktenprüfer haben diesen Beitrag bewertet: {ratings}. Eine Kennzeichnung beginnt mit {preset}; eine andere Bewertung braucht eine Notiz.</translation>
    </message>
    <message>
        <source>Fact-checkers rated this post: {ratings} (none of them on this queue&apos;s scale). A label needs a rating and a note.</source>
        <translation>Faktenprüfer haben diesen Beitrag bewertet: {ratings} (keine davon auf der Skala dieser Warteschlange). Eine Kennzeichnung braucht eine Bewertung und eine Notiz.</translation>
    </message>
    <message>
        <source>{action} is not available: no fact-checker has rated this post, and a label needs a fact-check.</source>
        <translation>{action} ist nicht möglich: Kein Faktenprüfer hat diesen Beitrag bewertet, und eine Kennzeichnung braucht einen Faktencheck.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled and reduced: use {action} (key {key}) or choose another rating.</source>
        <translation>Bewertungen „{rating}“ werden gekennzeichnet und in der Verbreitung reduziert: Nehmen Sie {action} (Taste {key}) oder wählen Sie eine andere Bewertung.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled and reduced: choose another rating.</source>
        <translation>Bewertungen „{rating}“ werden gekennzeichnet und in der Verbreitung reduziert: Wählen Sie eine andere Bewertung.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled, not reduced: use {action} (key {key}) or choose a rating that reduces.</source>
        <translation>Bewertungen „{rating}“ werden nur gekennzeichnet, nicht in der Verbreitung reduziert: Nehmen Sie {action} (Taste {key}) oder wählen Sie eine Bewertung, die die Verbreitung reduziert.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled, not reduced: choose a rating that reduces.</source>
        <translation>Bewertungen „{rating}“ werden nur gekennzeichnet, nicht in der Verbreitung reduziert: Wählen Sie eine Bewertung, die die Verbreitung reduziert.</translation>
    </message>
    <message>
        <source>No fact-checker gave this post the rating {rating}: keep theirs, or say in a note why yours differs.</source>
        <translation>Kein Faktenprüfer hat diesem Beitrag die Bewertung {rating} gegeben: Behalten Sie deren Bewertung, oder begründen Sie in einer Notiz, warum Ihre abweicht.</translation>
    </message>
    <message>
        <source>Choose an action: the statement of reasons the author will read shows here before you submit.</source>
        <translation>Wählen Sie eine Aktion: Die Begründung, die die Autorin oder der Autor lesen wird, erscheint hier, bevor Sie absenden.</translation>
    </message>
    <message>
        <source>{action} restricts nothing: the author gets no statement of reasons.</source>
        <translation>{action} schränkt nichts ein: Die Autorin oder der Autor erhält keine Begründung.</translation>
    </message>
</context>
<context>
    <name>Wellbeing</name>
    <message>
        <source>Break reminder</source>
        <translation>Pausenerinnerung</translation>
    </message>
    <message>
        <source>Take a break (B)</source>
        <translation>Pause machen (B)</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>You have reviewed %Ln post(s) with graphic or distressing content since your last break. Time for a short break?</source>
        <translation>Seit der letzten Pause wurde %Ln Beitrag mit drastischen oder belastenden Inhalten geprüft. Zeit für eine kurze Pause?|Seit der letzten Pause wurden %Ln Beiträge mit drastischen oder belastenden Inhalten geprüft. Zeit für eine kurze Pause?</translation>
    </message>
    <message>
        <source>You have been reviewing for %Ln minute(s). Time for a short break?</source>
        <translation>Seit %Ln Minute wird geprüft. Zeit für eine kurze Pause?|Seit %Ln Minuten wird geprüft. Zeit für eine kurze Pause?</translation>
    </message>
    <message>
        <source>Take a break ({key})</source>
        <translation>Pause machen ({key})</translation>
    </message>
    <message>
        <source>On a break</source>
        <translation>In der Pause</translation>
    </message>
    <message>
        <source>Resume reviewing (B)</source>
        <translation>Prüfen fortsetzen (B)</translation>
    </message>
    <message>
        <source>Since {time}. The posts you held were given back to the queue and nothing is leased for you until you resume. Step away from the screen for a while.</source>
        <translation>Seit {time}. Die reservierten Beiträge wurden an die Warteschlange zurückgegeben, und bis zum Fortsetzen wird nichts reserviert. Eine Weile vom Bildschirm weggehen.</translation>
    </message>
    <message>
        <source>Resume reviewing ({key})</source>
        <translation>Prüfen fortsetzen ({key})</translation>
    </message>
</context>
<context>
    <name>Words</name>
    <message>
        <source>%1%</source>
        <extracomment>a percentage: %1 is the figure; put the percent sign where the language does (&quot;%1 %&quot; with a no-break space in German and Spanish)</extracomment>
        <translation>%1&#xa0;%</translation>
    </message>
</context>
</TS>
