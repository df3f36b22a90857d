<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES" sourcelanguage="en">
<context>
    <name>Accounts</name>
    <message>
        <source>active</source>
        <translation>activa</translation>
    </message>
    <message>
        <source>warned</source>
        <translation>advertida</translation>
    </message>
    <message>
        <source>restricted</source>
        <translation>restringida</translation>
    </message>
    <message>
        <source>suspended</source>
        <translation>suspendida</translation>
    </message>
    <message>
        <source>marked inauthentic</source>
        <translation>marcada como no auténtica</translation>
    </message>
    <message>
        <source>Suspend</source>
        <extracomment>the lead&apos;s account actions, in the order the menu offers them</extracomment>
        <translation>Suspender</translation>
    </message>
    <message>
        <source>Mark inauthentic</source>
        <translation>Marcar como no auténtica</translation>
    </message>
    <message>
        <source>Restrict</source>
        <translation>Restringir</translation>
    </message>
    <message>
        <source>Warn</source>
        <translation>Advertir</translation>
    </message>
    <message>
        <source>⚠ Author warned</source>
        <translation>⚠ Autor advertido</translation>
    </message>
    <message>
        <source>⚠ Author restricted</source>
        <translation>⚠ Autor restringido</translation>
    </message>
    <message>
        <source>⛔ Author suspended</source>
        <translation>⛔ Autor suspendido</translation>
    </message>
    <message>
        <source>⛔ Author marked inauthentic</source>
        <translation>⛔ Autor marcado como no auténtico</translation>
    </message>
    <message>
        <source>the author was marked inauthentic</source>
        <translation>el autor fue marcado como no auténtico</translation>
    </message>
    <message>
        <source>the author was suspended</source>
        <translation>el autor fue suspendido</translation>
    </message>
    <message>
        <source>the author was suspended or marked inauthentic</source>
        <translation>el autor fue suspendido o marcado como no auténtico</translation>
    </message>
    <message>
        <source>Each account is one account-level decision and one action sent to the platform. Their open items close in every queue without a verdict; reviewers holding one are told why. Their new posts will not be queued.</source>
        <translation>Cada cuenta es una decisión a nivel de cuenta y una acción enviada a la plataforma. Sus elementos abiertos se cierran en todas las colas sin veredicto; a quien tenga uno se le dice por qué. Sus nuevas publicaciones no entrarán en ninguna cola.</translation>
    </message>
    <message>
        <source>Each account is one account-level decision and one action sent to the platform. Their open items stay in review.</source>
        <translation>Cada cuenta es una decisión a nivel de cuenta y una acción enviada a la plataforma. Sus elementos abiertos siguen en revisión.</translation>
    </message>
    <message>
        <source>%Ln account(s)</source>
        <translation>%Ln cuenta|%Ln cuentas</translation>
    </message>
    <message>
        <source>%Ln open item(s)</source>
        <translation>%Ln elemento abierto|%Ln elementos abiertos</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln cola|%Ln colas</translation>
    </message>
    <message>
        <source>Suspend {accounts} ({items} in {queues})?</source>
        <translation>¿Suspender {accounts} ({items} en {queues})?</translation>
    </message>
    <message>
        <source>Mark {accounts} inauthentic ({items} in {queues})?</source>
        <translation>¿Marcar {accounts} como no auténticas ({items} en {queues})?</translation>
    </message>
    <message>
        <source>Restrict {accounts}?</source>
        <translation>¿Restringir {accounts}?</translation>
    </message>
    <message>
        <source>Warn {accounts}?</source>
        <translation>¿Advertir a {accounts}?</translation>
    </message>
    <message>
        <source>{action}: {accounts} done; {items} closed.</source>
        <translation>{action}: {accounts} hecho; {items} cerrados.</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Cuenta</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Open items</source>
        <translation>Elementos abiertos</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Colas</translation>
    </message>
    <message>
        <source>Linked accounts</source>
        <extracomment>the lead asked for the author&apos;s open posts to decide together (author id, and whether the linked accounts&apos; posts come too)</extracomment>
        <translation>Cuentas vinculadas</translation>
    </message>
    <message>
        <source>Accounts sharing signals with this author</source>
        <extracomment>the linked accounts being fetched (for the author shown): dropped when it changes</extracomment>
        <translation>Cuentas que comparten señales con este autor</translation>
    </message>
    <message>
        <source>No linked accounts.</source>
        <translation>No hay cuentas vinculadas.</translation>
    </message>
    <message>
        <source>Account action</source>
        <translation>Acción sobre la cuenta</translation>
    </message>
    <message>
        <source>Note on the account action</source>
        <translation>Nota sobre la acción sobre la cuenta</translation>
    </message>
    <message>
        <source>Note (why these accounts)</source>
        <translation>Nota (por qué estas cuentas)</translation>
    </message>
    <message>
        <source>Apply to the checked accounts…</source>
        <translation>Aplicar a las cuentas marcadas…</translation>
    </message>
    <message>
        <source>Apply the account action</source>
        <translation>Aplicar la acción sobre la cuenta</translation>
    </message>
    <message>
        <source>Account action result</source>
        <translation>Resultado de la acción sobre la cuenta</translation>
    </message>
    <message>
        <source>All open posts by this author…</source>
        <translation>Todas las publicaciones abiertas de este autor…</translation>
    </message>
    <message>
        <source>Decide this author&apos;s open posts together</source>
        <translation>Decidir en bloque las publicaciones abiertas de este autor</translation>
    </message>
    <message>
        <source>…and the linked accounts&apos;</source>
        <translation>…y las de las cuentas vinculadas</translation>
    </message>
    <message>
        <source>Decide the open posts of this author and the linked accounts</source>
        <translation>Decidir las publicaciones abiertas de este autor y de las cuentas vinculadas</translation>
    </message>
    <message>
        <source>loading the linked accounts</source>
        <translation>cargar las cuentas vinculadas</translation>
    </message>
    <message>
        <source>Nothing was applied: {accounts} already {status} or beyond. Uncheck them and try again.</source>
        <translation>No se aplicó nada: {accounts} ya {status} o más. Desmárquelas e inténtelo de nuevo.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Applying the account action…</source>
        <translation>Aplicando la acción sobre la cuenta…</translation>
    </message>
    <message>
        <source>Nothing was applied.</source>
        <translation>No se aplicó nada.</translation>
    </message>
    <message>
        <source>applying the account action</source>
        <translation>aplicar la acción sobre la cuenta</translation>
    </message>
    <message>
        <source>Account status: {status}</source>
        <translation>Estado de la cuenta: {status}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Review desk</source>
        <extracomment>Set (to anything) for startup benchmarks: at the first paint of a post the window prints ``first-post-painted &lt;time.time()&gt;`` on stdout and the app quits (benchmarks/ui_latency.py). Qt&apos;s cap on the memory one image may take while decoding (its default is 256 MB). How long a Python thread may keep the GIL while another waits for it (Python&apos;s default is 5 ms). The GUI thread calls into Python for every cell a view paints; while a worker parses a page of decisions, 5 ms waits added up to frames of 20-40 ms (benchmarks/lead_browser.py); at 1 ms the longest stall stays under 16 ms. what a login that failed this way falls back on: the work saved on this computer</extracomment>
        <translation>Mesa de revisión</translation>
    </message>
    <message>
        <source>Nothing you review is kept on this computer: offline work is unavailable, and verdicts not yet sent are lost if the app stops before they are sent.</source>
        <translation>Nada de lo que revisa se guarda en este equipo: el trabajo sin conexión no está disponible y los veredictos aún no enviados se pierden si la aplicación se cierra antes de enviarlos.</translation>
    </message>
    <message>
        <source>Your login is kept for this session only ({reason}); you will be asked to log in again next time.</source>
        <translation>Su inicio de sesión solo se conserva durante esta sesión ({reason}); la próxima vez tendrá que iniciar sesión de nuevo.</translation>
    </message>
    <message>
        <source>Your work on this computer is encrypted with a key that only your password opens, so you can work offline and start the app without a network.</source>
        <translation>Su trabajo en este equipo está cifrado con una clave que solo abre su contraseña, así que puede trabajar sin conexión e iniciar la aplicación sin red.</translation>
    </message>
    <message>
        <source>Write it like {example}</source>
        <translation>Escríbala como {example}</translation>
    </message>
    <message>
        <source>logging in</source>
        <translation>iniciar sesión</translation>
    </message>
    <message>
        <source>Your saved work was left as it is; log in again to open it.</source>
        <translation>Su trabajo guardado se dejó tal como estaba; inicie sesión de nuevo para abrirlo.</translation>
    </message>
    <message>
        <source>Starting the review desk</source>
        <translation>Iniciando la mesa de revisión</translation>
    </message>
    <message>
        <source>Logging in to {server} as {user}…</source>
        <translation>Iniciando sesión en {server} como {user}…</translation>
    </message>
    <message>
        <source>What the app is doing</source>
        <translation>Lo que hace la aplicación</translation>
    </message>
    <message>
        <source>Logging in</source>
        <translation>Iniciando sesión</translation>
    </message>
    <message>
        <source>logging in to the demo server</source>
        <translation>iniciar sesión en el servidor de demostración</translation>
    </message>
</context>
<context>
    <name>Bulk</name>
    <message>
        <source>Decided or taken by someone else meanwhile: %Ln post(s).</source>
        <translation>Decidida o tomada por otra persona mientras tanto: %Ln publicación.|Decididas o tomadas por otra persona mientras tanto: %Ln publicaciones.</translation>
    </message>
    <message>
        <source>The service refused the request itself: {why}</source>
        <translation>El servicio rechazó la solicitud en sí: {why}</translation>
    </message>
    <message>
        <source>Bulk decision refused</source>
        <translation>Decisión en bloque rechazada</translation>
    </message>
    <message>
        <source>A bulk decision on %Ln post(s) was refused.</source>
        <translation>Se rechazó una decisión en bloque sobre %Ln publicación.|Se rechazó una decisión en bloque sobre %Ln publicaciones.</translation>
    </message>
    <message>
        <source>Open them again to decide together with the same action, policies and note: the posts taken meanwhile are unchecked, the rest can be decided.</source>
        <translation>Ábralas de nuevo para decidir en bloque con la misma acción, políticas y nota: las publicaciones tomadas mientras tanto quedan desmarcadas y el resto se puede decidir.</translation>
    </message>
    <message>
        <source>Open them again…</source>
        <translation>Abrirlas de nuevo…</translation>
    </message>
    <message>
        <source>sending the bulk decision</source>
        <extracomment>seconds before a bulk that could not be sent (network, busy service) is tried again bulk id, its posts, why: its first failure in a row (said once, not every retry) held bulks: id -&gt; the furthest ahead its due time can be (its window, a retry&apos;s)</extracomment>
        <translation>enviar la decisión en bloque</translation>
    </message>
    <message>
        <source>Post</source>
        <extracomment>actions a bulk decision does not offer: appeals are decided one by one</extracomment>
        <translation>Publicación</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Not decided because</source>
        <translation>No decidida porque</translation>
    </message>
    <message>
        <source>Decide together</source>
        <translation>Decidir en bloque</translation>
    </message>
    <message>
        <source>What this list is</source>
        <translation>Qué es esta lista</translation>
    </message>
    <message>
        <source>Posts to decide together</source>
        <translation>Publicaciones para decidir en bloque</translation>
    </message>
    <message>
        <source>Action for every checked post</source>
        <translation>Acción para cada publicación marcada</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>Políticas</translation>
    </message>
    <message>
        <source>Note on every decision</source>
        <translation>Nota en cada decisión</translation>
    </message>
    <message>
        <source>Note (why these posts go together)</source>
        <translation>Nota (por qué estas publicaciones van juntas)</translation>
    </message>
    <message>
        <source>Decide…</source>
        <translation>Decidir…</translation>
    </message>
    <message>
        <source>Decide the checked posts</source>
        <translation>Decidir las publicaciones marcadas</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Deshacer</translation>
    </message>
    <message>
        <source>Undo the bulk decision</source>
        <translation>Deshacer la decisión en bloque</translation>
    </message>
    <message>
        <source>Bulk decision status</source>
        <translation>Estado de la decisión en bloque</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Acción</translation>
    </message>
    <message>
        <source>Policies (those every queue has)</source>
        <translation>Políticas (las que tiene cada cola)</translation>
    </message>
    <message>
        <source>Who reads the note</source>
        <translation>Quién lee la nota</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons)</source>
        <translation>Lo que leerá el autor (exposición de motivos)</translation>
    </message>
    <message>
        <source>The note is shared in {queues}: it is sent to the author of every post in the statement of reasons, and published in the DSA Transparency Database. What each author will read:</source>
        <translation>La nota se comparte en {queues}: se envía al autor de cada publicación en la exposición de motivos y se publica en la base de datos de transparencia de la DSA. Lo que leerá cada autor:</translation>
    </message>
    <message>
        <source>At most {max} posts can be decided together: {n} are checked. Uncheck {over} of them, or decide them in parts.</source>
        <translation>Como máximo se pueden decidir {max} publicaciones juntas: hay {n} marcadas. Desmarque {over} de ellas o decídalas por partes.</translation>
    </message>
    <message>
        <source>Check at least one policy for this action.</source>
        <translation>Marcar al menos una política para esta acción.</translation>
    </message>
    <message>
        <source>Write a note: this action needs one.</source>
        <translation>Escribir una nota: esta acción la requiere.</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln publicación|%Ln publicaciones</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln cola|%Ln colas</translation>
    </message>
    <message>
        <source>{action}: {posts} in {queues} ({names})?</source>
        <translation>¿{action}: {posts} en {queues} ({names})?</translation>
    </message>
    <message>
        <source>Nothing was decided: the request is not valid ({what}).</source>
        <translation>No se decidió nada: la solicitud no es válida ({what}).</translation>
    </message>
    <message>
        <source>Sending %Ln decision(s) in {s} s… (Undo takes them back)</source>
        <translation>Enviando %Ln decisión en {s} s… (Deshacer la retira)|Enviando %Ln decisiones en {s} s… (Deshacer las retira)</translation>
    </message>
    <message>
        <source>Those posts are marked below and unchecked.</source>
        <translation>Esas publicaciones están marcadas abajo y desmarcadas.</translation>
    </message>
    <message>
        <source>The posts it names are marked below and stay checked: change the action, policies or note as it says (or uncheck them), and decide again.</source>
        <translation>Las publicaciones que nombra están marcadas abajo y siguen seleccionadas: cambie la acción, las políticas o la nota como indica (o desmárquelas) y vuelva a decidir.</translation>
    </message>
    <message>
        <source>Decide again to decide the rest.</source>
        <translation>Vuelva a decidir para decidir el resto.</translation>
    </message>
    <message>
        <source>Each post becomes its own decision, with its own action sent to the platform. They are sent in {seconds} s; until then you can undo. If any of them was decided or taken by someone else meanwhile, none is decided.</source>
        <translation>Cada publicación se convierte en su propia decisión, con su propia acción enviada a la plataforma. Se envían en {seconds} s; hasta entonces se puede deshacer. Si mientras tanto otra persona decidió o tomó alguna de ellas, no se decide ninguna.</translation>
    </message>
    <message>
        <source>Decide</source>
        <translation>Decidir</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Too late to undo: the decisions are being sent.</source>
        <translation>Demasiado tarde para deshacer: las decisiones se están enviando.</translation>
    </message>
    <message>
        <source>Undone: nothing was sent.</source>
        <translation>Deshecho: no se envió nada.</translation>
    </message>
    <message>
        <source>Sending the decisions…</source>
        <translation>Enviando las decisiones…</translation>
    </message>
    <message>
        <source>decided now</source>
        <translation>decidida ahora</translation>
    </message>
    <message>
        <source>Done: %Ln decision(s) recorded ({names}).</source>
        <translation>Hecho: %Ln decisión registrada ({names}).|Hecho: %Ln decisiones registradas ({names}).</translation>
    </message>
    <message>
        <source>Nothing was decided.</source>
        <translation>No se decidió nada.</translation>
    </message>
    <message>
        <source>Not sent yet: {why} The decisions are kept here and sent again in {s} s.</source>
        <translation>Aún no enviadas: {why} Las decisiones se conservan aquí y se vuelven a enviar en {s} s.</translation>
    </message>
</context>
<context>
    <name>ContextPanels</name>
    <message>
        <source>classifier</source>
        <extracomment>a post, note, bio or claim in a tab shows this much; the rest on request (a 100,000-character thread reply held the window for over a second as one paragraph) ``limit`` and ``cuts`` of a tab&apos;s render: how long a text may be (None: whole), and a list that gets how many characters each cut left out why a post is queued, in words (``QueueReasonKind``)</extracomment>
        <translation>clasificador</translation>
    </message>
    <message>
        <source>user reports</source>
        <translation>denuncias de usuarios</translation>
    </message>
    <message>
        <source>fact-check</source>
        <translation>verificación de datos</translation>
    </message>
    <message>
        <source>appeal</source>
        <translation>apelación</translation>
    </message>
    <message>
        <source>escalation</source>
        <translation>escalado</translation>
    </message>
    <message>
        <source>entered the queue</source>
        <extracomment>what happened to an item, in words (``EventKind``)</extracomment>
        <translation>entró en la cola</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>reservado</translation>
    </message>
    <message>
        <source>lease renewed</source>
        <translation>reserva renovada</translation>
    </message>
    <message>
        <source>given back</source>
        <translation>devuelto</translation>
    </message>
    <message>
        <source>lease expired</source>
        <translation>reserva caducada</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>decidido</translation>
    </message>
    <message>
        <source>escalated</source>
        <translation>escalado</translation>
    </message>
    <message>
        <source>escalation assigned</source>
        <translation>escalación asignada</translation>
    </message>
    <message>
        <source>user created</source>
        <translation>usuario creado</translation>
    </message>
    <message>
        <source>role changed</source>
        <translation>rol cambiado</translation>
    </message>
    <message>
        <source>password set</source>
        <translation>contraseña establecida</translation>
    </message>
    <message>
        <source>access ended</source>
        <translation>acceso retirado</translation>
    </message>
    <message>
        <source>picked for an audit</source>
        <translation>elegido para una auditoría</translation>
    </message>
    <message>
        <source>audited</source>
        <translation>auditado</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>revocado</translation>
    </message>
    <message>
        <source>new version of the post from the platform</source>
        <translation>nueva versión de la publicación desde la plataforma</translation>
    </message>
    <message>
        <source>new signal</source>
        <translation>nueva señal</translation>
    </message>
    <message>
        <source>withdrawn by the platform</source>
        <translation>retirada por la plataforma</translation>
    </message>
    <message>
        <source>back for review</source>
        <translation>de nuevo en revisión</translation>
    </message>
    <message>
        <source>queue configuration applied</source>
        <translation>configuración de colas aplicada</translation>
    </message>
    <message>
        <source>moved to another queue</source>
        <translation>movida a otra cola</translation>
    </message>
    <message>
        <source>API key created</source>
        <translation>clave de API creada</translation>
    </message>
    <message>
        <source>API key revoked</source>
        <translation>clave de API revocada</translation>
    </message>
    <message>
        <source>account action on the author</source>
        <translation>acción sobre la cuenta del autor</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>resuelto por una acción sobre la cuenta</translation>
    </message>
    <message>
        <source>held back: the author is actioned</source>
        <translation>retenida: se actuó contra el autor</translation>
    </message>
    <message>
        <source>webhook endpoint added</source>
        <translation>punto de webhook añadido</translation>
    </message>
    <message>
        <source>webhook endpoint disabled</source>
        <translation>punto de webhook desactivado</translation>
    </message>
    <message>
        <source>webhook endpoint enabled</source>
        <translation>punto de webhook activado</translation>
    </message>
    <message>
        <source>webhook signing secret changed</source>
        <translation>clave de firma del webhook cambiada</translation>
    </message>
    <message>
        <source>webhook actions sent again</source>
        <translation>acciones del webhook enviadas de nuevo</translation>
    </message>
    <message>
        <source>could not be shown to reviewers: set aside</source>
        <translation>no se pudo mostrar a los revisores: apartado</translation>
    </message>
    <message>
        <source>appealed by the user</source>
        <translation>recurrido por el usuario</translation>
    </message>
    <message>
        <source>… (%Ln more character(s): Show the whole text)</source>
        <translation>… (%Ln carácter más: Mostrar el texto completo)|… (%Ln caracteres más: Mostrar el texto completo)</translation>
    </message>
    <message>
        <source>account inauthenticity {score} (rule: {rule})</source>
        <translation>inautenticidad de la cuenta {score} (regla: {rule})</translation>
    </message>
    <message>
        <source>{subject} {score} (rule: {rule})</source>
        <translation>{subject} {score} (regla: {rule})</translation>
    </message>
    <message>
        <source>%Ln new report(s) since it was kept</source>
        <translation>%Ln denuncia nueva desde que se mantuvo|%Ln denuncias nuevas desde que se mantuvo</translation>
    </message>
    <message>
        <source>new rating {rating} since it was kept</source>
        <translation>nueva calificación {rating} desde que se mantuvo</translation>
    </message>
    <message>
        <source>%Ln report(s) of {reason}</source>
        <translation>%Ln denuncia por {reason}|%Ln denuncias por {reason}</translation>
    </message>
    <message>
        <source>{followers} follower(s) · follows {following}</source>
        <translation>{followers} seguidor · sigue a {following}|{followers} seguidores · sigue a {following}</translation>
    </message>
    <message>
        <source>Account signals: {posts} post(s) a day · inauthenticity score {score}</source>
        <translation>Señales de la cuenta: {posts} publicación al día · puntuación de inautenticidad {score}|Señales de la cuenta: {posts} publicaciones al día · puntuación de inautenticidad {score}</translation>
    </message>
    <message>
        <source>Show the whole text (%Ln more character(s))</source>
        <translation>Mostrar el texto completo (%Ln carácter más)|Mostrar el texto completo (%Ln caracteres más)</translation>
    </message>
    <message>
        <source>Queue: {queue}</source>
        <translation>Cola: {queue}</translation>
    </message>
    <message>
        <source>Queue: {queue} (came from {origin})</source>
        <translation>Cola: {queue} (procede de {origin})</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verificado</translation>
    </message>
    <message>
        <source>Account created {date} ({ago})</source>
        <translation>Cuenta creada el {date} ({ago})</translation>
    </message>
    <message>
        <source>Bio: {bio}</source>
        <translation>Biografía: {bio}</translation>
    </message>
    <message>
        <source>Prior strikes:</source>
        <translation>Sanciones anteriores:</translation>
    </message>
    <message>
        <source>last {date}</source>
        <translation>última {date}</translation>
    </message>
    <message>
        <source>No prior strikes.</source>
        <translation>Sin sanciones anteriores.</translation>
    </message>
    <message>
        <source>Recent decisions on this author&apos;s posts:</source>
        <translation>Decisiones recientes sobre publicaciones de este autor:</translation>
    </message>
    <message>
        <source>signal: {signal}</source>
        <translation>señal: {signal}</translation>
    </message>
    <message>
        <source>shares signals with: {accounts}</source>
        <translation>comparte señales con: {accounts}</translation>
    </message>
    <message>
        <source>Not part of a thread.</source>
        <translation>No forma parte de un hilo.</translation>
    </message>
    <message>
        <source>this post</source>
        <translation>esta publicación</translation>
    </message>
    <message>
        <source>Replies ({n} in all):</source>
        <translation>Respuestas ({n} en total):</translation>
    </message>
    <message>
        <source>No user reports.</source>
        <translation>Sin denuncias de usuarios.</translation>
    </message>
    <message>
        <source>%Ln report(s)</source>
        <translation>%Ln denuncia|%Ln denuncias</translation>
    </message>
    <message>
        <source>What reporters wrote:</source>
        <translation>Lo que escribieron los denunciantes:</translation>
    </message>
    <message>
        <source>No fact-checks.</source>
        <translation>Sin verificaciones de datos.</translation>
    </message>
    <message>
        <source>Claim: {claim}</source>
        <translation>Afirmación: {claim}</translation>
    </message>
    <message>
        <source>why: {reason}</source>
        <translation>motivo: {reason}</translation>
    </message>
    <message>
        <source>their note: {note}</source>
        <translation>su nota: {note}</translation>
    </message>
    <message>
        <source>to {lead}</source>
        <translation>a {lead}</translation>
    </message>
    <message>
        <source>to nobody</source>
        <translation>a nadie</translation>
    </message>
    <message>
        <source>No history.</source>
        <translation>Sin historial.</translation>
    </message>
    <message>
        <source>by {actor}</source>
        <translation>por {actor}</translation>
    </message>
    <message>
        <source>Statement of reasons {puid} (decision {decision}), as the author read it:</source>
        <translation>Exposición de motivos {puid} (decisión {decision}), tal como la leyó el autor:</translation>
    </message>
    <message>
        <source>Why queued</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>Hilo</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>Denuncias</translation>
    </message>
    <message>
        <source>Fact-checks</source>
        <translation>Verificaciones</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>Context</source>
        <extracomment>the width the tabs have to share (their tab widget&apos;s; None: as wide as they ask) the tabs&apos; whole titles are wider than ever before (their counts came)</extracomment>
        <translation>Contexto</translation>
    </message>
    <message>
        <source>Show the whole text</source>
        <extracomment>each tab&apos;s &quot;Show the whole text&quot; button (shown when a text in it was cut)</extracomment>
        <translation>Mostrar el texto completo</translation>
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
        <translation>sistema</translation>
    </message>
    <message>
        <source>light</source>
        <translation>claro</translation>
    </message>
    <message>
        <source>dark</source>
        <translation>oscuro</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>Igual que el sistema</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Ajustes</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Páginas de configuración</translation>
    </message>
    <message>
        <source>General</source>
        <translation>General</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <translation>Atajos</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>Dirección del servidor</translation>
    </message>
    <message>
        <source>Items leased ahead</source>
        <translation>Elementos reservados por adelantado</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Undo window in seconds</source>
        <translation>Plazo para deshacer en segundos</translation>
    </message>
    <message>
        <source>Blur media until I reveal it</source>
        <translation>Desenfocar los medios hasta que los muestre</translation>
    </message>
    <message>
        <source>Show media in greyscale until I reveal it</source>
        <translation>Mostrar los medios en escala de grises hasta que los muestre</translation>
    </message>
    <message>
        <source>Text size</source>
        <translation>Tamaño del texto</translation>
    </message>
    <message>
        <source>A new language applies the next time you start the app.</source>
        <translation>Un idioma nuevo se aplica la próxima vez que inicie la aplicación.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work.</source>
        <translation>Su contraseña se cambió después de que este equipo guardara su trabajo por última vez.</translation>
    </message>
    <message>
        <source>Enter your previous password to open that work and go on with it; from then on your new password opens it.</source>
        <translation>Escriba su contraseña anterior para abrir ese trabajo y continuar con él; a partir de entonces lo abrirá su contraseña nueva.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work, which holds {n} decisions not sent yet.</source>
        <translation>Su contraseña se cambió después de que este equipo guardara su trabajo por última vez; contiene {n} decisiones que aún no se han enviado.</translation>
    </message>
    <message>
        <source>Your password was changed since this computer last saved your work, which holds 1 decision not sent yet.</source>
        <translation>Su contraseña se cambió después de que este equipo guardara su trabajo por última vez; contiene 1 decisión que aún no se ha enviado.</translation>
    </message>
    <message>
        <source>Enter your previous password to open that work and send what is waiting; from then on your new password opens it.</source>
        <translation>Escriba su contraseña anterior para abrir ese trabajo y enviar lo que espera; a partir de entonces lo abrirá su contraseña nueva.</translation>
    </message>
    <message>
        <source>If you do not know it, start afresh: the work is then moved aside unopened, and kept for support.</source>
        <translation>Si no la conoce, empiece de cero: el trabajo se aparta entonces sin abrir y se conserva para el soporte.</translation>
    </message>
    <message>
        <source>That is not your previous password: it does not open the work saved here. Try again, or start afresh.</source>
        <translation>Esa no es su contraseña anterior: no abre el trabajo guardado aquí. Inténtelo de nuevo o empiece de cero.</translation>
    </message>
    <message>
        <source>You started afresh: your password was changed and the previous one was not given, so the work saved on this computer could not be opened. It was moved aside, unopened, to {path}; your previous password still opens it, and decisions in it that were not sent are still there. Ask support before deleting it.</source>
        <translation>Ha empezado de cero: su contraseña se cambió y no se indicó la anterior, así que no se pudo abrir el trabajo guardado en este equipo. Se movió, sin abrir, a {path}; su contraseña anterior sigue abriéndolo, y las decisiones que no se enviaron siguen en él. Consulte al soporte antes de borrarlo.</translation>
    </message>
    <message>
        <source>Your password was changed</source>
        <translation>Su contraseña se cambió</translation>
    </message>
    <message>
        <source>Previous password</source>
        <translation>Contraseña anterior</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problema</translation>
    </message>
    <message>
        <source>Open my work</source>
        <translation>Abrir mi trabajo</translation>
    </message>
    <message>
        <source>Start afresh</source>
        <translation>Empezar de cero</translation>
    </message>
    <message>
        <source>Server (next login)</source>
        <translation>Servidor (próximo inicio de sesión)</translation>
    </message>
    <message>
        <source>Items kept leased ahead in the queue being reviewed, so the next post is always local.</source>
        <translation>Elementos reservados por adelantado en la cola en revisión, para que la siguiente publicación esté siempre en local.</translation>
    </message>
    <message>
        <source>Seconds a verdict stays on this computer, where it can be undone, before it is sent.</source>
        <translation>Segundos que un veredicto permanece en este equipo, donde se puede deshacer, antes de enviarse.</translation>
    </message>
    <message>
        <source>Remind me to take breaks (after the queue&apos;s time or posts)</source>
        <translation>Recordar tomar pausas (tras el tiempo o las publicaciones de la cola)</translation>
    </message>
    <message>
        <source>Break reminders</source>
        <translation>Recordatorios de pausa</translation>
    </message>
    <message>
        <source>Decided {time}</source>
        <translation>Decidido {time}</translation>
    </message>
    <message>
        <source>Recorded {time}</source>
        <translation>Registrado {time}</translation>
    </message>
    <message>
        <source>Logging in…</source>
        <translation>Iniciando sesión…</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Tema</translation>
    </message>
    <message>
        <source>Text size (points)</source>
        <translation>Tamaño del texto (puntos)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>Action: {action}</source>
        <translation>Acción: {action}</translation>
    </message>
    <message>
        <source>Policies: {policies}</source>
        <translation>Políticas: {policies}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>Fact-check rating: {rating}</source>
        <translation>Calificación de verificación: {rating}</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>Nota: {note}</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Conflictos</translation>
    </message>
    <message>
        <source>Conflicts list</source>
        <extracomment>the stored queues the conflicts&apos; items are from, by id, read once a reload (the table asks for its cells&apos; words at every paint)</extracomment>
        <translation>Lista de conflictos</translation>
    </message>
    <message>
        <source>Someone else decided these posts before your verdict reached the server. Their decision counts. Accept it, or escalate the post to a lead if you think it is wrong.</source>
        <translation>Otra persona decidió sobre estas publicaciones antes de que su veredicto llegara al servidor. Su decisión es la que cuenta. Acéptela o escale la publicación a un responsable si cree que es errónea.</translation>
    </message>
    <message>
        <source>The post</source>
        <translation>La publicación</translation>
    </message>
    <message>
        <source>The decision that counts</source>
        <translation>La decisión que cuenta</translation>
    </message>
    <message>
        <source>Accept their decision</source>
        <translation>Aceptar su decisión</translation>
    </message>
    <message>
        <source>Escalate to a lead</source>
        <translation>Escalar a un responsable</translation>
    </message>
    <message>
        <source>No open conflicts.</source>
        <translation>No hay conflictos abiertos.</translation>
    </message>
    <message>
        <source>(post no longer stored)</source>
        <translation>(publicación ya no guardada)</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Su decisión</translation>
    </message>
    <message>
        <source>The decision that counts, by {reviewer}</source>
        <translation>La decisión que cuenta, de {reviewer}</translation>
    </message>
    <message>
        <source>Log in again</source>
        <translation>Volver a iniciar sesión</translation>
    </message>
    <message>
        <source>Log in to the review desk</source>
        <translation>Iniciar sesión en la mesa de revisión</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Nombre de usuario</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Por qué</translation>
    </message>
    <message>
        <source>What is happening</source>
        <translation>Qué está pasando</translation>
    </message>
    <message>
        <source>Login problem</source>
        <translation>Problema al iniciar sesión</translation>
    </message>
    <message>
        <source>Log in</source>
        <translation>Iniciar sesión</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Más tarde</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Servidor</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Usuario</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Contraseña</translation>
    </message>
</context>
<context>
    <name>Escalation</name>
    <message>
        <source>Escalate to a lead</source>
        <translation>Escalar a un responsable</translation>
    </message>
    <message>
        <source>Why does this post need a lead? Pick a reason with its number or the arrows, add a note if it helps (Tab), then Enter. Esc cancels.</source>
        <translation>¿Por qué necesita esta publicación un responsable? Elegir un motivo con su número o las flechas, añadir una nota si ayuda (Tab) y luego Enter. Esc cancela.</translation>
    </message>
    <message>
        <source>Reasons</source>
        <translation>Motivos</translation>
    </message>
    <message>
        <source>Note for the lead</source>
        <translation>Nota para el responsable</translation>
    </message>
    <message>
        <source>What is missing</source>
        <translation>Qué falta</translation>
    </message>
    <message>
        <source>Escalate</source>
        <translation>Escalar</translation>
    </message>
    <message>
        <source>Note for the lead (needed for this reason)</source>
        <translation>Nota para el responsable (necesaria para este motivo)</translation>
    </message>
    <message>
        <source>Note for the lead (optional)</source>
        <translation>Nota para el responsable (opcional)</translation>
    </message>
    <message>
        <source>Pick a reason first.</source>
        <translation>Primero elegir un motivo.</translation>
    </message>
    <message>
        <source>This reason needs a note: say why, then Enter.</source>
        <translation>Este motivo necesita una nota: explicar por qué y luego Enter.</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>sin motivo</translation>
    </message>
    <message>
        <source>{ago} ({time})</source>
        <translation>{ago} ({time})</translation>
    </message>
    <message>
        <source>Escalated by {who} {when} from {queue}: {reason}</source>
        <translation>Escalada por {who} {when} desde {queue}: {reason}</translation>
    </message>
    <message>
        <source>Their note: {note}</source>
        <translation>Su nota: {note}</translation>
    </message>
    <message>
        <source>Assigned to {lead} by {by}</source>
        <translation>Asignada a {lead} por {by}</translation>
    </message>
</context>
<context>
    <name>Exposure</name>
    <message>
        <source>Graphic violence</source>
        <translation>Violencia gráfica</translation>
    </message>
    <message>
        <source>Hate</source>
        <translation>Odio</translation>
    </message>
    <message>
        <source>Harassment</source>
        <translation>Acoso</translation>
    </message>
    <message>
        <source>Sexual content</source>
        <translation>Contenido sexual</translation>
    </message>
    <message>
        <source>Child safety</source>
        <translation>Seguridad infantil</translation>
    </message>
    <message>
        <source>Self-harm</source>
        <translation>Autolesiones</translation>
    </message>
    <message>
        <source>Violent extremism</source>
        <translation>Extremismo violento</translation>
    </message>
    <message>
        <source>Animal cruelty</source>
        <translation>Crueldad animal</translation>
    </message>
    <message>
        <source>Scams</source>
        <translation>Estafas</translation>
    </message>
    <message>
        <source>Misinformation</source>
        <translation>Desinformación</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Revisor</translation>
    </message>
    <message>
        <source>On shift since</source>
        <translation>En turno desde</translation>
    </message>
    <message>
        <source>Posts this shift</source>
        <translation>Publicaciones en este turno</translation>
    </message>
    <message>
        <source>Posts in 7 days</source>
        <translation>Publicaciones en 7 días</translation>
    </message>
    <message>
        <source>High-harm posts this shift</source>
        <translation>Publicaciones de alto daño en este turno</translation>
    </message>
    <message>
        <source>Breaks this shift</source>
        <translation>Pausas en este turno</translation>
    </message>
    <message>
        <source>Break minutes this shift</source>
        <translation>Minutos de pausa en este turno</translation>
    </message>
    <message>
        <source>Breaks in 7 days</source>
        <translation>Pausas en 7 días</translation>
    </message>
    <message>
        <source>{kind} (shift / 7 days)</source>
        <translation>{kind} (turno / 7 días)</translation>
    </message>
    <message>
        <source>not on shift</source>
        <translation>fuera de turno</translation>
    </message>
    <message>
        <source>Wellbeing</source>
        <translation>Bienestar</translation>
    </message>
    <message>
        <source>Exposure per reviewer</source>
        <translation>Exposición por revisor</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Figures status</source>
        <translation>Estado de las cifras</translation>
    </message>
    <message>
        <source>What each reviewer decided, by the kind of harm their queues and the policies they cited say the posts carry: this shift (activity with no gap of 4 hours) and the last 7 days, with the breaks they took; a kind of harm&apos;s column reads posts this shift / in 7 days. Figures only; no post is shown here.</source>
        <translation>Lo que decidió cada revisor, según el tipo de daño que sus colas y las políticas citadas atribuyen a las publicaciones: en este turno (actividad sin interrupciones de 4 horas) y en los últimos 7 días, con las pausas que tomó; la columna de cada tipo de daño indica publicaciones en este turno / en 7 días. Solo cifras; aquí no se muestra ninguna publicación.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <extracomment>fetched again every REFRESH_MS while the page is shown, as the Queues page is</extracomment>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>Updated {time}</source>
        <translation>Actualizado {time}</translation>
    </message>
    <message>
        <source>loading the figures</source>
        <translation>cargar las cifras</translation>
    </message>
</context>
<context>
    <name>LeadAdmin</name>
    <message>
        <source>reviewer</source>
        <translation>revisor</translation>
    </message>
    <message>
        <source>lead</source>
        <translation>responsable</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>administrador</translation>
    </message>
    <message>
        <source>platform</source>
        <translation>plataforma</translation>
    </message>
    <message>
        <source>fact-checker</source>
        <translation>verificador de datos</translation>
    </message>
    <message>
        <source>Username</source>
        <translation>Nombre de usuario</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nombre visible</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rol</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Key starts</source>
        <translation>La clave empieza por</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Cuenta</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Último uso</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Revocada</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>live</source>
        <translation>activa</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Versión</translation>
    </message>
    <message>
        <source>Applied</source>
        <translation>Aplicada</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Por</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Colas</translation>
    </message>
    <message>
        <source>the service</source>
        <translation>el servicio</translation>
    </message>
    <message>
        <source>Users and roles</source>
        <extracomment>this admin made themselves something else, or a call was refused with 403 (another admin did): the words that say so</extracomment>
        <translation>Usuarios y roles</translation>
    </message>
    <message>
        <source>Users and their roles</source>
        <translation>Usuarios y sus roles</translation>
    </message>
    <message>
        <source>Users status</source>
        <translation>Estado de los usuarios</translation>
    </message>
    <message>
        <source>New role</source>
        <translation>Nuevo rol</translation>
    </message>
    <message>
        <source>Change role</source>
        <translation>Cambiar rol</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Contraseña</translation>
    </message>
    <message>
        <source>Password again</source>
        <translation>Repetir contraseña</translation>
    </message>
    <message>
        <source>Add user</source>
        <translation>Añadir usuario</translation>
    </message>
    <message>
        <source>Add a user</source>
        <translation>Añadir un usuario</translation>
    </message>
    <message>
        <source>New password</source>
        <translation>Contraseña nueva</translation>
    </message>
    <message>
        <source>New password again</source>
        <translation>Contraseña nueva otra vez</translation>
    </message>
    <message>
        <source>Set password</source>
        <translation>Establecer contraseña</translation>
    </message>
    <message>
        <source>End access…</source>
        <translation>Retirar el acceso…</translation>
    </message>
    <message>
        <source>The service no longer lets this account administer (another admin may have made it a lead or a reviewer), so the lists were cleared and the actions disabled.</source>
        <translation>El servicio ya no deja administrar a esta cuenta (otro administrador puede haberla hecho responsable o revisora), así que las listas se vaciaron y las acciones se desactivaron.</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>retirado</translation>
    </message>
    <message>
        <source>can log in</source>
        <translation>puede iniciar sesión</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Acceso</translation>
    </message>
    <message>
        <source>The selected user</source>
        <translation>El usuario seleccionado</translation>
    </message>
    <message>
        <source>Change role…</source>
        <translation>Cambiar rol…</translation>
    </message>
    <message>
        <source>Set password…</source>
        <translation>Establecer contraseña…</translation>
    </message>
    <message>
        <source>loading the users</source>
        <translation>cargar los usuarios</translation>
    </message>
    <message>
        <source>No one selected: pick a user above.</source>
        <translation>Nadie seleccionado: elija un usuario arriba.</translation>
    </message>
    <message>
        <source>{name} ({user}), {role}.</source>
        <translation>{name} ({user}), {role}.</translation>
    </message>
    <message>
        <source>A service account: it calls with API keys (see API keys), and has no password and no other role.</source>
        <translation>Una cuenta de servicio: llama con claves de API (vea Claves de API) y no tiene contraseña ni otro rol.</translation>
    </message>
    <message>
        <source>Their access was ended: setting a password gives it back.</source>
        <translation>Su acceso se retiró: establecer una contraseña se lo devuelve.</translation>
    </message>
    <message>
        <source>This is your own account.</source>
        <translation>Esta es su propia cuenta.</translation>
    </message>
    <message>
        <source>A username is 2 to 64 characters: lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit.</source>
        <translation>Un nombre de usuario tiene de 2 a 64 caracteres: letras minúsculas, dígitos, &apos;.&apos;, &apos;_&apos; o &apos;-&apos;, y empieza por una letra o un dígito.</translation>
    </message>
    <message>
        <source>The password needs at least {n} characters.</source>
        <translation>La contraseña necesita al menos {n} caracteres.</translation>
    </message>
    <message>
        <source>The two passwords differ: type the same twice.</source>
        <translation>Las dos contraseñas no coinciden: escribir la misma dos veces.</translation>
    </message>
    <message>
        <source>Adding {user}…</source>
        <translation>Añadiendo a {user}…</translation>
    </message>
    <message>
        <source>Added {user} ({name}) as {role}.</source>
        <translation>Se añadió a {user} ({name}) como {role}.</translation>
    </message>
    <message>
        <source>adding the user</source>
        <translation>añadir el usuario</translation>
    </message>
    <message>
        <source>Make {user} ({name}) {role} instead of {old}?</source>
        <translation>¿Hacer a {user} ({name}) {role} en lugar de {old}?</translation>
    </message>
    <message>
        <source>What they hold in leads-only queues and the escalations assigned to them go back at once.</source>
        <translation>Lo que tenga en colas solo para responsables y las escalaciones asignadas vuelven al momento.</translation>
    </message>
    <message>
        <source>This is your own account: it will no longer be an admin, and cannot make itself one again.</source>
        <translation>Esta es su propia cuenta: dejará de ser administradora y no podrá volver a serlo por sí misma.</translation>
    </message>
    <message>
        <source>This account is now {role} and no longer an admin: the Administration tab closes at the next login.</source>
        <translation>Esta cuenta es ahora {role} y ya no es administradora: la pestaña Administración se cierra en el próximo inicio de sesión.</translation>
    </message>
    <message>
        <source>{user} is now {role}.</source>
        <translation>{user} ahora es {role}.</translation>
    </message>
    <message>
        <source>changing the role</source>
        <translation>cambiar el rol</translation>
    </message>
    <message>
        <source>Set a new password for {user} ({name})? Every session of theirs ends at once; they log in with the new one.</source>
        <translation>¿Establecer una contraseña nueva para {user} ({name})? Todas sus sesiones terminan al momento; inicia sesión con la nueva.</translation>
    </message>
    <message>
        <source>This gives them their access back.</source>
        <translation>Esto le devuelve el acceso.</translation>
    </message>
    <message>
        <source>This is your own account: this session ends too, and you log in again with the new password.</source>
        <translation>Esta es su propia cuenta: esta sesión también termina y vuelve a iniciar sesión con la contraseña nueva.</translation>
    </message>
    <message>
        <source>{user}&apos;s password is set: every session of theirs has ended, and they log in with the new one.</source>
        <translation>La contraseña de {user} está establecida: todas sus sesiones han terminado y entra con la nueva.</translation>
    </message>
    <message>
        <source>setting the password</source>
        <translation>establecer la contraseña</translation>
    </message>
    <message>
        <source>This is your own account: this session ends at once, and you cannot log in again until another admin sets you a password.</source>
        <translation>Esta es su propia cuenta: esta sesión termina al momento y no podrá volver a entrar hasta que otro administrador le establezca una contraseña.</translation>
    </message>
    <message>
        <source>End access</source>
        <translation>Retirar el acceso</translation>
    </message>
    <message>
        <source>ending the access</source>
        <translation>retirar el acceso</translation>
    </message>
    <message>
        <source>End {user}&apos;s access? No password opens their account from now on, every session of theirs ends at once, and the posts they hold and the escalations assigned to them go back. Setting a password gives access back.</source>
        <translation>¿Retirar el acceso de {user}? Ninguna contraseña abre ya su cuenta, todas sus sesiones terminan al momento y las publicaciones que tiene y las escalaciones asignadas vuelven. Establecer una contraseña devuelve el acceso.</translation>
    </message>
    <message>
        <source>{user} can no longer log in; every session of theirs has ended.</source>
        <translation>{user} ya no puede iniciar sesión; todas sus sesiones han terminado.</translation>
    </message>
    <message>
        <source>API keys</source>
        <extracomment>a call refused with 403 (this account no longer an admin): the words that say so</extracomment>
        <translation>Claves de API</translation>
    </message>
    <message>
        <source>API keys status</source>
        <translation>Estado de las claves de API</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Revocar…</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Nombre de la clave</translation>
    </message>
    <message>
        <source>e.g. feed-bridge</source>
        <translation>p. ej., feed-bridge</translation>
    </message>
    <message>
        <source>Key role</source>
        <translation>Rol de la clave</translation>
    </message>
    <message>
        <source>Create key</source>
        <translation>Crear clave</translation>
    </message>
    <message>
        <source>New key:</source>
        <translation>Nueva clave:</translation>
    </message>
    <message>
        <source>The new key</source>
        <translation>La nueva clave</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Hecho</translation>
    </message>
    <message>
        <source>Copy this key now and give it to the platform: it is not shown again. The service keeps only its hash.</source>
        <translation>Copiar esta clave ahora y entregarla a la plataforma: no se vuelve a mostrar. El servicio solo guarda su hash.</translation>
    </message>
    <message>
        <source>loading the API keys</source>
        <translation>cargar las claves de API</translation>
    </message>
    <message>
        <source>Copy the new key below and press Done before making another.</source>
        <translation>Copie la clave nueva de abajo y pulse Hecho antes de crear otra.</translation>
    </message>
    <message>
        <source>A key&apos;s name is 2 to 64 characters: lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos; (it names the platform&apos;s account too).</source>
        <translation>El nombre de una clave tiene de 2 a 64 caracteres: letras minúsculas, dígitos, &apos;.&apos;, &apos;_&apos; o &apos;-&apos; (también da nombre a la cuenta de la plataforma).</translation>
    </message>
    <message>
        <source>Made the key {name} for {account}. Copy it and press Done before making another.</source>
        <translation>Clave {name} creada para {account}. Cópiela y pulse Hecho antes de crear otra.</translation>
    </message>
    <message>
        <source>creating the API key</source>
        <translation>crear la clave de API</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>Revocar clave de API</translation>
    </message>
    <message>
        <source>Revoke the key {name} of {account} that starts {prefix}, made {created}? Every request with it is refused from now on; this cannot be undone (make a new key instead).</source>
        <translation>¿Revocar la clave {name} de {account} que empieza por {prefix}, creada el {created}? Toda petición con ella se rechaza desde ahora; no se puede deshacer (cree una clave nueva en su lugar).</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Revocar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Revoked the key {name}.</source>
        <translation>Se revocó la clave {name}.</translation>
    </message>
    <message>
        <source>revoking the API key</source>
        <translation>revocar la clave de API</translation>
    </message>
    <message>
        <source>Queue configuration</source>
        <extracomment>a call refused with 403 (this account no longer an admin): the words that say so</extracomment>
        <translation>Configuración de colas</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file: {lines}.</source>
        <translation>{file} difiere del archivo de colas en uso: {lines}.</translation>
    </message>
    <message>
        <source>%Ln line(s) changed</source>
        <translation>%Ln línea(s) cambiada(s)</translation>
    </message>
    <message>
        <source>Its line endings differ too (not shown).</source>
        <translation>También difieren los finales de línea (no se muestran).</translation>
    </message>
    <message>
        <source>It starts with a byte-order mark too (not shown).</source>
        <translation>Además empieza con una marca de orden de bytes (no se muestra).</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its line endings and its byte-order mark.</source>
        <translation>{file} difiere del archivo de colas en uso solo en los finales de línea y la marca de orden de bytes.</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its line endings.</source>
        <translation>{file} difiere del archivo de colas en uso solo en los finales de línea.</translation>
    </message>
    <message>
        <source>{file} differs from the running queue file only in its byte-order mark.</source>
        <translation>{file} difiere del archivo de colas en uso solo en la marca de orden de bytes.</translation>
    </message>
    <message>
        <source>Running version</source>
        <translation>Versión en ejecución</translation>
    </message>
    <message>
        <source>The running queue file</source>
        <translation>El archivo de colas en ejecución</translation>
    </message>
    <message>
        <source>Difference with a file</source>
        <translation>Diferencia con un archivo</translation>
    </message>
    <message>
        <source>Configuration versions</source>
        <translation>Versiones de configuración</translation>
    </message>
    <message>
        <source>Queue file status</source>
        <translation>Estado del archivo de colas</translation>
    </message>
    <message>
        <source>Compare with a file…</source>
        <translation>Comparar con un archivo…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>The queues as they run, as a queue file. Change them with reviewer-app server queues apply FILE on the service&apos;s machine; every applied file is a version below.</source>
        <translation>Las colas tal como se ejecutan, como archivo de colas. Se cambian con reviewer-app server queues apply FILE en la máquina del servicio; cada archivo aplicado figura abajo como una versión.</translation>
    </message>
    <message>
        <source>loading the queue file</source>
        <translation>cargar el archivo de colas</translation>
    </message>
    <message>
        <source>No configuration version yet.</source>
        <translation>Aún no hay ninguna versión de configuración.</translation>
    </message>
    <message>
        <source>Version {version}, applied {when} by {who}.</source>
        <translation>Versión {version}, aplicada {when} por {who}.</translation>
    </message>
    <message>
        <source>Compare with a queue file</source>
        <translation>Comparar con un archivo de colas</translation>
    </message>
    <message>
        <source>Queue files (*.toml);;All files (*)</source>
        <translation>Archivos de colas (*.toml);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>The running queue file is not loaded yet.</source>
        <translation>El archivo de colas en ejecución aún no está cargado.</translation>
    </message>
    <message>
        <source>{file} is the same as the running queue file.</source>
        <translation>{file} es igual al archivo de colas en ejecución.</translation>
    </message>
    <message>
        <source>{file} is not UTF-8 text.</source>
        <translation>{file} no es texto UTF-8.</translation>
    </message>
    <message>
        <source>{file} is too large for a queue file.</source>
        <translation>{file} es demasiado grande para un archivo de colas.</translation>
    </message>
    <message>
        <source>{file} could not be read: {reason}</source>
        <translation>No se pudo leer {file}: {reason}</translation>
    </message>
    <message>
        <source>comparing</source>
        <translation>comparar</translation>
    </message>
</context>
<context>
    <name>LeadAudits</name>
    <message>
        <source>random</source>
        <translation>al azar</translation>
    </message>
    <message>
        <source>the same number per reviewer</source>
        <translation>el mismo número por revisor</translation>
    </message>
    <message>
        <source>the same number per action</source>
        <translation>el mismo número por acción</translation>
    </message>
    <message>
        <source>agreed</source>
        <translation>coincide</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>revocada</translation>
    </message>
    <message>
        <source>{action} by {reviewer}</source>
        <extracomment>the largest media file fetched with an audit task (the reviewers&apos; are prefetched)</extracomment>
        <translation>{action} de {reviewer}</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Muestra</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Por</translation>
    </message>
    <message>
        <source>Drawn</source>
        <translation>Extraídas</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>Evaluadas</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>{n} of {total}</source>
        <extracomment>queue names by id (the page&apos;s queues): a sample&apos;s queue is shown by its name</extracomment>
        <translation>{n} de {total}</translation>
    </message>
    <message>
        <source>all queues</source>
        <translation>todas las colas</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Original decision</source>
        <translation>Decisión original</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Decision of record</source>
        <translation>Decisión oficial</translation>
    </message>
    <message>
        <source>Auditor</source>
        <translation>Auditor</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Nota</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>sin cambios</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Revisor</translation>
    </message>
    <message>
        <source>Agreed</source>
        <translation>Coincidentes</translation>
    </message>
    <message>
        <source>Overturned</source>
        <translation>Revocadas</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Concordancia</translation>
    </message>
    <message>
        <source>Kappa</source>
        <translation>Kappa</translation>
    </message>
    <message>
        <source>Sample #{id}: %n decision(s) drawn (fewer than {requested}: the window has no more).</source>
        <translation>Muestra #{id}: %n decisión extraída (menos de {requested}: el periodo no tiene más).|Muestra #{id}: %n decisiones extraídas (menos de {requested}: el periodo no tiene más).</translation>
    </message>
    <message>
        <source>Blind audit</source>
        <extracomment>a post judged (the lead saw it): a key, its queue&apos;s config, the policies of the decision of record, the config of the queue it came from (when that harm counts) — for the window&apos;s shift tally, as a verdict of the review flow is</extracomment>
        <translation>Auditoría a ciegas</translation>
    </message>
    <message>
        <source>Audit progress</source>
        <extracomment>each action&apos;s key in a queue, the reviewer&apos;s own where set (``ui.keys``) fetching the next task or recording a judgement the audit id of the task shown that the service refused to overturn (appealed or back in review since the draw): S (or Leave) sets it aside and goes on</extracomment>
        <translation>Progreso de la auditoría</translation>
    </message>
    <message>
        <source>Last audit result</source>
        <translation>Último resultado de auditoría</translation>
    </message>
    <message>
        <source>Stop auditing (Alt+S)</source>
        <translation>Dejar de auditar (Alt+S)</translation>
    </message>
    <message>
        <source>Leave this post (S)</source>
        <translation>Dejar esta publicación (S)</translation>
    </message>
    <message>
        <source>Decide each post as a reviewer would (same keys). The original decision is hidden until you have decided; the same decision records agreement, another one overturns it and becomes the decision of record.</source>
        <translation>Decida cada publicación como lo haría un revisor (mismas teclas). La decisión original permanece oculta hasta que usted decida; la misma decisión registra concordancia, otra distinta la revoca y pasa a ser la decisión oficial.</translation>
    </message>
    <message>
        <source>Sample #{id}: fetching the next post…</source>
        <translation>Muestra #{id}: obteniendo la siguiente publicación…</translation>
    </message>
    <message>
        <source>Sample #{id}: every post is judged.</source>
        <translation>Muestra #{id}: todas las publicaciones están evaluadas.</translation>
    </message>
    <message>
        <source>Audit sample #{id} is complete.</source>
        <translation>La muestra de auditoría #{id} está completa.</translation>
    </message>
    <message>
        <source>Sample #{id}: %Ln post(s) left to judge (item {item})</source>
        <translation>Muestra #{id}: queda %Ln publicación por evaluar (elemento {item})|Muestra #{id}: quedan %Ln publicaciones por evaluar (elemento {item})</translation>
    </message>
    <message>
        <source>Post {item} left the sample without a result: it can no longer be audited ({reason}).</source>
        <translation>La publicación {item} salió de la muestra sin resultado: ya no se puede auditar ({reason}).</translation>
    </message>
    <message>
        <source>auditing</source>
        <translation>auditar</translation>
    </message>
    <message>
        <source>No audit in progress.</source>
        <translation>No hay ninguna auditoría en curso.</translation>
    </message>
    <message>
        <source>The queue {queue} is not known to this app yet.</source>
        <translation>Esta aplicación aún no conoce la cola {queue}.</translation>
    </message>
    <message>
        <source>An audit decides: it cannot escalate, skip or be undone. Stop auditing to leave the sample for later.</source>
        <translation>Una auditoría decide: no puede escalar, omitir ni deshacerse. Deje de auditar para dejar la muestra para más tarde.</translation>
    </message>
    <message>
        <source>An audit must decide; it cannot escalate.</source>
        <extracomment>the task fetched and not shown yet, and the one shown</extracomment>
        <translation>Una auditoría debe decidir; no puede escalar.</translation>
    </message>
    <message>
        <source>Recording your judgement…</source>
        <translation>Registrando su evaluación…</translation>
    </message>
    <message>
        <source>Your judgement differs from the original, but this post can no longer be overturned ({reason}). Press S (or Leave this post) to leave it out of the sample and go on to the next post.</source>
        <translation>Su juicio difiere del original, pero esta publicación ya no se puede revocar ({reason}). Pulse S (o «Dejar esta publicación») para sacarla de la muestra y pasar a la siguiente.</translation>
    </message>
    <message>
        <source>Agreed on {item}: the original was {original}.</source>
        <translation>Coincide en {item}: la original era {original}.</translation>
    </message>
    <message>
        <source>Overturned on {item}: the original was {original}; yours ({yours}) is now the decision of record.</source>
        <translation>Revocada en {item}: la original era {original}; la suya ({yours}) es ahora la decisión oficial.</translation>
    </message>
    <message>
        <source>Audits</source>
        <translation>Auditorías</translation>
    </message>
    <message>
        <source>How to draw the sample</source>
        <translation>Cómo extraer la muestra</translation>
    </message>
    <message>
        <source>Sample size</source>
        <translation>Tamaño de la muestra</translation>
    </message>
    <message>
        <source>Decisions from</source>
        <translation>Decisiones de</translation>
    </message>
    <message>
        <source>Queue of the sample</source>
        <translation>Cola de la muestra</translation>
    </message>
    <message>
        <source>Draw sample</source>
        <translation>Extraer muestra</translation>
    </message>
    <message>
        <source>Audits status</source>
        <translation>Estado de las auditorías</translation>
    </message>
    <message>
        <source>Audit samples</source>
        <translation>Muestras de auditoría</translation>
    </message>
    <message>
        <source>Audit this sample (blind)</source>
        <translation>Auditar esta muestra (a ciegas)</translation>
    </message>
    <message>
        <source>Show results</source>
        <translation>Mostrar resultados</translation>
    </message>
    <message>
        <source>Audit results</source>
        <translation>Resultados de auditoría</translation>
    </message>
    <message>
        <source>Agreement per reviewer</source>
        <translation>Concordancia por revisor</translation>
    </message>
    <message>
        <source>Draw</source>
        <translation>Extraer</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>decisiones</translation>
    </message>
    <message>
        <source>from the</source>
        <translation>de los</translation>
    </message>
    <message>
        <source>in</source>
        <translation>en</translation>
    </message>
    <message>
        <source>Results of the selected sample:</source>
        <translation>Resultados de la muestra seleccionada:</translation>
    </message>
    <message>
        <source>Results of the selected sample</source>
        <translation>Resultados de la muestra seleccionada</translation>
    </message>
    <message>
        <source>Agreement with the auditors, per reviewer:</source>
        <translation>Concordancia con los auditores, por revisor:</translation>
    </message>
    <message>
        <source>No samples yet: draw one above.</source>
        <translation>Aún no hay muestras: extraiga una arriba.</translation>
    </message>
    <message>
        <source>Drawing the sample…</source>
        <translation>Extrayendo la muestra…</translation>
    </message>
    <message>
        <source>Sample #{id}: %n decision(s) drawn.</source>
        <translation>Muestra #{id}: %n decisión extraída.|Muestra #{id}: %n decisiones extraídas.</translation>
    </message>
    <message>
        <source>Select a sample first.</source>
        <translation>Seleccione primero una muestra.</translation>
    </message>
    <message>
        <source>Results of sample #{id}: {n} of {total} judged.</source>
        <translation>Resultados de la muestra #{id}: {n} de {total} evaluadas.</translation>
    </message>
</context>
<context>
    <name>LeadBreaks</name>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>Break reminders</source>
        <translation>Recordatorios de pausa</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Remind after minutes of work</source>
        <translation>Recordar tras minutos de trabajo</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Remind after high-harm posts</source>
        <translation>Recordar tras publicaciones de alto daño</translation>
    </message>
    <message>
        <source>Queue:</source>
        <translation>Cola:</translation>
    </message>
    <message>
        <source>After minutes of work:</source>
        <translation>Tras minutos de trabajo:</translation>
    </message>
    <message>
        <source>After high-harm posts:</source>
        <translation>Tras publicaciones de alto daño:</translation>
    </message>
    <message>
        <source>Whichever comes first, since the shift began or the last break. Never for both: no reminders in this queue. Each reviewer may still turn reminders off for themselves.</source>
        <translation>Lo que ocurra primero, desde el inicio del turno o la última pausa. «Nunca» en ambos: sin recordatorios en esta cola. Cada revisor puede desactivar los recordatorios para sí mismo.</translation>
    </message>
    <message>
        <source>Break reminders status</source>
        <translation>Estado de los recordatorios de pausa</translation>
    </message>
    <message>
        <source>Reading the queues…</source>
        <translation>Leyendo las colas…</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Guardando…</translation>
    </message>
    <message>
        <source>reading the queues</source>
        <translation>leer las colas</translation>
    </message>
    <message>
        <source>saving the break reminders</source>
        <translation>guardar los recordatorios de pausa</translation>
    </message>
    <message>
        <source>Someone else changed this queue&apos;s break reminders while this dialog was open: nothing was saved. Shown now as they are; change them again and save.</source>
        <translation>Otra persona cambió los recordatorios de pausa de esta cola mientras este diálogo estaba abierto: no se guardó nada. Se muestran ahora como están; cámbielos de nuevo y guarde.</translation>
    </message>
    <message>
        <source>Break reminders of {queue} saved (configuration {n}).</source>
        <translation>Recordatorios de pausa de {queue} guardados (configuración {n}).</translation>
    </message>
</context>
<context>
    <name>LeadDecisions</name>
    <message>
        <source>Audited or not</source>
        <translation>Auditadas o no</translation>
    </message>
    <message>
        <source>Audited only</source>
        <translation>Solo auditadas</translation>
    </message>
    <message>
        <source>Not audited</source>
        <translation>No auditadas</translation>
    </message>
    <message>
        <source>entered the queue</source>
        <extracomment>events of one item&apos;s history shown at most (pages of 100)</extracomment>
        <translation>entró en la cola</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>reservado</translation>
    </message>
    <message>
        <source>lease renewed</source>
        <translation>reserva renovada</translation>
    </message>
    <message>
        <source>given back</source>
        <translation>devuelto</translation>
    </message>
    <message>
        <source>lease expired</source>
        <translation>reserva caducada</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>decidido</translation>
    </message>
    <message>
        <source>escalated</source>
        <translation>escalado</translation>
    </message>
    <message>
        <source>escalation assigned</source>
        <translation>escalación asignada</translation>
    </message>
    <message>
        <source>user created</source>
        <translation>usuario creado</translation>
    </message>
    <message>
        <source>role changed</source>
        <translation>rol cambiado</translation>
    </message>
    <message>
        <source>password set</source>
        <translation>contraseña establecida</translation>
    </message>
    <message>
        <source>access ended</source>
        <translation>acceso retirado</translation>
    </message>
    <message>
        <source>picked for an audit</source>
        <translation>elegido para una auditoría</translation>
    </message>
    <message>
        <source>audited</source>
        <translation>auditado</translation>
    </message>
    <message>
        <source>overturned</source>
        <translation>revocado</translation>
    </message>
    <message>
        <source>new version of the post from the platform</source>
        <translation>nueva versión de la publicación desde la plataforma</translation>
    </message>
    <message>
        <source>new signal</source>
        <translation>nueva señal</translation>
    </message>
    <message>
        <source>withdrawn by the platform</source>
        <translation>retirada por la plataforma</translation>
    </message>
    <message>
        <source>back for review</source>
        <translation>de nuevo en revisión</translation>
    </message>
    <message>
        <source>queue configuration applied</source>
        <translation>configuración de colas aplicada</translation>
    </message>
    <message>
        <source>moved to another queue</source>
        <translation>movida a otra cola</translation>
    </message>
    <message>
        <source>API key created</source>
        <translation>clave de API creada</translation>
    </message>
    <message>
        <source>API key revoked</source>
        <translation>clave de API revocada</translation>
    </message>
    <message>
        <source>account action on the author</source>
        <translation>acción sobre la cuenta del autor</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>resuelto por una acción sobre la cuenta</translation>
    </message>
    <message>
        <source>held back: the author is actioned</source>
        <translation>retenida: se actuó contra el autor</translation>
    </message>
    <message>
        <source>webhook endpoint added</source>
        <translation>punto de webhook añadido</translation>
    </message>
    <message>
        <source>webhook endpoint disabled</source>
        <translation>punto de webhook desactivado</translation>
    </message>
    <message>
        <source>webhook endpoint enabled</source>
        <translation>punto de webhook activado</translation>
    </message>
    <message>
        <source>webhook signing secret changed</source>
        <translation>clave de firma del webhook cambiada</translation>
    </message>
    <message>
        <source>webhook actions sent again</source>
        <translation>acciones del webhook enviadas de nuevo</translation>
    </message>
    <message>
        <source>could not be shown to reviewers: set aside</source>
        <translation>no se pudo mostrar a los revisores: apartado</translation>
    </message>
    <message>
        <source>appealed by the user</source>
        <translation>recurrido por el usuario</translation>
    </message>
    <message>
        <source>action</source>
        <translation>acción</translation>
    </message>
    <message>
        <source>policies</source>
        <translation>políticas</translation>
    </message>
    <message>
        <source>rating</source>
        <translation>calificación</translation>
    </message>
    <message>
        <source>audit result</source>
        <translation>resultado de la auditoría</translation>
    </message>
    <message>
        <source>decision</source>
        <translation>decisión</translation>
    </message>
    <message>
        <source>replaces decision</source>
        <translation>sustituye la decisión</translation>
    </message>
    <message>
        <source>to queue</source>
        <translation>a la cola</translation>
    </message>
    <message>
        <source>why queued</source>
        <translation>por qué está en cola</translation>
    </message>
    <message>
        <source>lease until</source>
        <translation>reservado hasta</translation>
    </message>
    <message>
        <source>audit sample</source>
        <translation>muestra de auditoría</translation>
    </message>
    <message>
        <source>audit</source>
        <translation>auditoría</translation>
    </message>
    <message>
        <source>note</source>
        <translation>nota</translation>
    </message>
    <message>
        <source>post</source>
        <translation>publicación</translation>
    </message>
    <message>
        <source>version</source>
        <translation>versión</translation>
    </message>
    <message>
        <source>previous version</source>
        <translation>versión anterior</translation>
    </message>
    <message>
        <source>signal</source>
        <translation>señal</translation>
    </message>
    <message>
        <source>kind of signal</source>
        <translation>tipo de señal</translation>
    </message>
    <message>
        <source>model</source>
        <translation>modelo</translation>
    </message>
    <message>
        <source>label</source>
        <translation>etiqueta</translation>
    </message>
    <message>
        <source>score</source>
        <translation>puntuación</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>motivo</translation>
    </message>
    <message>
        <source>organisation</source>
        <translation>organización</translation>
    </message>
    <message>
        <source>routing rule</source>
        <translation>regla de enrutamiento</translation>
    </message>
    <message>
        <source>source</source>
        <translation>origen</translation>
    </message>
    <message>
        <source>earlier item</source>
        <translation>elemento anterior</translation>
    </message>
    <message>
        <source>earlier decision</source>
        <translation>decisión anterior</translation>
    </message>
    <message>
        <source>earlier action</source>
        <translation>acción anterior</translation>
    </message>
    <message>
        <source>new item</source>
        <translation>elemento nuevo</translation>
    </message>
    <message>
        <source>from queue</source>
        <translation>desde la cola</translation>
    </message>
    <message>
        <source>state</source>
        <translation>estado</translation>
    </message>
    <message>
        <source>lease ended</source>
        <translation>reserva terminada</translation>
    </message>
    <message>
        <source>name</source>
        <translation>nombre</translation>
    </message>
    <message>
        <source>account</source>
        <translation>cuenta</translation>
    </message>
    <message>
        <source>role</source>
        <translation>rol</translation>
    </message>
    <message>
        <source>key prefix</source>
        <translation>prefijo de la clave</translation>
    </message>
    <message>
        <source>key</source>
        <translation>clave</translation>
    </message>
    <message>
        <source>user</source>
        <translation>usuario</translation>
    </message>
    <message>
        <source>service account</source>
        <translation>cuenta de servicio</translation>
    </message>
    <message>
        <source>queues</source>
        <translation>colas</translation>
    </message>
    <message>
        <source>added</source>
        <translation>añadidas</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>quitadas</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>cambiadas</translation>
    </message>
    <message>
        <source>emptied into</source>
        <translation>vaciadas en</translation>
    </message>
    <message>
        <source>file hash</source>
        <translation>hash del archivo</translation>
    </message>
    <message>
        <source>queues added</source>
        <translation>colas añadidas</translation>
    </message>
    <message>
        <source>queues removed</source>
        <translation>colas quitadas</translation>
    </message>
    <message>
        <source>queues changed</source>
        <translation>colas cambiadas</translation>
    </message>
    <message>
        <source>waiting items moved</source>
        <translation>elementos en espera movidos</translation>
    </message>
    <message>
        <source>reserved items moved</source>
        <translation>elementos reservados movidos</translation>
    </message>
    <message>
        <source>author</source>
        <translation>autor</translation>
    </message>
    <message>
        <source>author id</source>
        <translation>id del autor</translation>
    </message>
    <message>
        <source>account action</source>
        <translation>acción sobre la cuenta</translation>
    </message>
    <message>
        <source>account status before</source>
        <translation>estado de la cuenta antes</translation>
    </message>
    <message>
        <source>account status</source>
        <translation>estado de la cuenta</translation>
    </message>
    <message>
        <source>account decision</source>
        <translation>decisión sobre la cuenta</translation>
    </message>
    <message>
        <source>open items closed</source>
        <translation>elementos abiertos cerrados</translation>
    </message>
    <message>
        <source>reverses account decision</source>
        <translation>revierte la decisión sobre la cuenta</translation>
    </message>
    <message>
        <source>webhook endpoint</source>
        <translation>punto de webhook</translation>
    </message>
    <message>
        <source>address</source>
        <translation>dirección</translation>
    </message>
    <message>
        <source>action kinds</source>
        <translation>tipos de acción</translation>
    </message>
    <message>
        <source>from cursor</source>
        <translation>desde el cursor</translation>
    </message>
    <message>
        <source>cursor before</source>
        <translation>cursor anterior</translation>
    </message>
    <message>
        <source>old secret signs until</source>
        <translation>la clave anterior firma hasta</translation>
    </message>
    <message>
        <source>Decided at</source>
        <extracomment>decisions asked for per page (the service allows up to 500); small pages keep the worker&apos;s hold on the GIL short while the view paints characters of a note&apos;s first line shown in the table</extracomment>
        <translation>Decidido el</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Revisor</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Acción</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>Políticas</translation>
    </message>
    <message>
        <source>Rating</source>
        <translation>Calificación</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Nota</translation>
    </message>
    <message>
        <source>Kind / audit</source>
        <translation>Tipo / auditoría</translation>
    </message>
    <message>
        <source>Author now</source>
        <translation>Autor ahora</translation>
    </message>
    <message>
        <source>review</source>
        <translation>revisión</translation>
    </message>
    <message>
        <source>overturn</source>
        <translation>revocación</translation>
    </message>
    <message>
        <source>of #{id}</source>
        <translation>de #{id}</translation>
    </message>
    <message>
        <source>, audit agreed</source>
        <translation>, la auditoría coincide</translation>
    </message>
    <message>
        <source>, audit overturned it</source>
        <translation>, la auditoría la revocó</translation>
    </message>
    <message>
        <source>loading decisions</source>
        <extracomment>the page being fetched; a newer one (filters changed) drops its result the words of the queues the lead sees (``set_queues``), by queue id</extracomment>
        <translation>cargar las decisiones</translation>
    </message>
    <message>
        <source>by {actor}</source>
        <extracomment>details that name a queue (by its id on the wire)</extracomment>
        <translation>por {actor}</translation>
    </message>
    <message>
        <source>in {queue}</source>
        <translation>en {queue}</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sí</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
    <message>
        <source>Could not write {path}: {reason}. No file was written; choose another folder or free some disk space.</source>
        <translation>No se pudo escribir {path}: {reason}. No se escribió ningún archivo; elija otra carpeta o libere espacio en disco.</translation>
    </message>
    <message>
        <source>exporting decisions</source>
        <translation>exportar las decisiones</translation>
    </message>
    <message>
        <source>No file was written.</source>
        <translation>No se escribió ningún archivo.</translation>
    </message>
    <message>
        <source>Decisions browser</source>
        <extracomment>screens of rows kept loaded ahead of the visible ones</extracomment>
        <translation>Explorador de decisiones</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Decisiones</translation>
    </message>
    <message>
        <source>Select a decision to see its item&apos;s history.</source>
        <translation>Seleccione una decisión para ver el historial de su elemento.</translation>
    </message>
    <message>
        <source>%Ln decision(s), all shown.</source>
        <translation>%Ln decisión, mostrada.|%Ln decisiones, todas mostradas.</translation>
    </message>
    <message>
        <source>%Ln decision(s) loaded so far; scroll down for more.</source>
        <translation>%Ln decisión cargada hasta ahora; desplazarse hacia abajo para ver más.|%Ln decisiones cargadas hasta ahora; desplazarse hacia abajo para ver más.</translation>
    </message>
    <message>
        <source>Item history</source>
        <translation>Historial del elemento</translation>
    </message>
    <message>
        <source>Item history title</source>
        <translation>Título del historial del elemento</translation>
    </message>
    <message>
        <source>Decisions status</source>
        <translation>Estado de las decisiones</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Reintentar</translation>
    </message>
    <message>
        <source>Try loading the decisions again</source>
        <translation>Volver a intentar cargar las decisiones</translation>
    </message>
    <message>
        <source>Queue filter</source>
        <translation>Filtro por cola</translation>
    </message>
    <message>
        <source>Any queue</source>
        <translation>Cualquier cola</translation>
    </message>
    <message>
        <source>any reviewer</source>
        <translation>cualquier revisor</translation>
    </message>
    <message>
        <source>Reviewer filter</source>
        <translation>Filtro por revisor</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>cualquier acción</translation>
    </message>
    <message>
        <source>Action filter</source>
        <translation>Filtro por acción</translation>
    </message>
    <message>
        <source>any policy code</source>
        <translation>cualquier código de política</translation>
    </message>
    <message>
        <source>Policy filter</source>
        <translation>Filtro por política</translation>
    </message>
    <message>
        <source>any item</source>
        <translation>cualquier elemento</translation>
    </message>
    <message>
        <source>Item filter</source>
        <translation>Filtro por elemento</translation>
    </message>
    <message>
        <source>Audited filter</source>
        <translation>Filtro por auditoría</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Desde</translation>
    </message>
    <message>
        <source>Limit to decisions from a time</source>
        <translation>Limitar a decisiones desde un momento</translation>
    </message>
    <message>
        <source>Decided from</source>
        <translation>Decididas desde</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>Hasta</translation>
    </message>
    <message>
        <source>Limit to decisions before a time</source>
        <translation>Limitar a decisiones anteriores a un momento</translation>
    </message>
    <message>
        <source>Decided before</source>
        <translation>Decididas antes de</translation>
    </message>
    <message>
        <source>Apply filters</source>
        <translation>Aplicar filtros</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Borrar</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>Borrar filtros</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Política</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Auditoría</translation>
    </message>
    <message>
        <source>Export cancelled after %Ln decision(s); no file was written.</source>
        <translation>Exportación cancelada tras %Ln decisión; no se escribió ningún archivo.|Exportación cancelada tras %Ln decisiones; no se escribió ningún archivo.</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Exportar CSV…</translation>
    </message>
    <message>
        <source>Export the decisions shown as CSV</source>
        <translation>Exportar como CSV las decisiones mostradas</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>Progreso de la exportación</translation>
    </message>
    <message>
        <source>Export status</source>
        <translation>Estado de la exportación</translation>
    </message>
    <message>
        <source>Cancel export</source>
        <translation>Cancelar exportación</translation>
    </message>
    <message>
        <source>Cancel the export</source>
        <translation>Cancelar la exportación</translation>
    </message>
    <message>
        <source>Exported %Ln decision(s) to {path}.</source>
        <translation>%Ln decisión exportada a {path}.|%Ln decisiones exportadas a {path}.</translation>
    </message>
    <message>
        <source>Exporting… %Ln decision(s) written so far.</source>
        <translation>Exportando… %Ln decisión escrita hasta ahora.|Exportando… %Ln decisiones escritas hasta ahora.</translation>
    </message>
    <message>
        <source>Note to reviewer…</source>
        <translation>Nota al revisor…</translation>
    </message>
    <message>
        <source>Write a note to the selected decision&apos;s reviewer</source>
        <translation>Escribir una nota al revisor de la decisión seleccionada</translation>
    </message>
    <message>
        <source>“Until” must be later than “From”; nothing was changed.</source>
        <translation>«Hasta» debe ser posterior a «Desde»; no se cambió nada.</translation>
    </message>
    <message>
        <source>“{field}” cannot match any decision as written (reviewers and actions are written in lower case, policy codes in capitals such as HATE.2); nothing was changed.</source>
        <translation>«{field}» no coincide con ninguna decisión tal como está escrito (revisores y acciones van en minúsculas, los códigos de política en mayúsculas como HATE.2); no se cambió nada.</translation>
    </message>
    <message>
        <source>No decisions match these filters.</source>
        <translation>Ninguna decisión coincide con estos filtros.</translation>
    </message>
    <message>
        <source>Loading decisions…</source>
        <translation>Cargando decisiones…</translation>
    </message>
    <message>
        <source>Note sent to {reviewer}.</source>
        <translation>Nota enviada a {reviewer}.</translation>
    </message>
    <message>
        <source>History of item {item}</source>
        <translation>Historial del elemento {item}</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>Cargando el historial…</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>Hidden while you audit blind.</source>
        <translation>Oculto mientras audita a ciegas.</translation>
    </message>
    <message>
        <source>loading the history</source>
        <translation>cargar el historial</translation>
    </message>
    <message>
        <source>only the first {n} events are shown.</source>
        <translation>solo se muestran los primeros {n} eventos.</translation>
    </message>
    <message>
        <source>No events recorded for this item.</source>
        <translation>No hay eventos registrados para este elemento.</translation>
    </message>
    <message>
        <source>Export decisions as CSV</source>
        <translation>Exportar decisiones como CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>Archivos CSV (*.csv);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Cannot write {path}: choose a file in a folder.</source>
        <translation>No se puede escribir {path}: elija un archivo dentro de una carpeta.</translation>
    </message>
    <message>
        <source>Exporting to {path}…</source>
        <translation>Exportando a {path}…</translation>
    </message>
    <message>
        <source>Cancelling the export…</source>
        <translation>Cancelando la exportación…</translation>
    </message>
    <message>
        <source>Note to reviewer</source>
        <translation>Nota al revisor</translation>
    </message>
    <message>
        <source>What the reviewer should know about this decision</source>
        <translation>Lo que el revisor debe saber sobre esta decisión</translation>
    </message>
    <message>
        <source>Note status</source>
        <translation>Estado de la nota</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <source>{reviewer} reads this note in My decisions, and is told of it at their next login.</source>
        <translation>{reviewer} lee esta nota en Mis decisiones y recibe un aviso en su próximo inicio de sesión.</translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation>Escribir primero la nota.</translation>
    </message>
    <message>
        <source>A note may be at most {n} characters.</source>
        <translation>Una nota puede tener como máximo {n} caracteres.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Enviando…</translation>
    </message>
    <message>
        <source>sending the note</source>
        <translation>enviar la nota</translation>
    </message>
</context>
<context>
    <name>LeadEscalations</name>
    <message>
        <source>Waiting</source>
        <translation>En espera</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Publicación</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Desde</translation>
    </message>
    <message>
        <source>Escalated by</source>
        <translation>Escalada por</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Cuándo</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>Reservada por</translation>
    </message>
    <message>
        <source>Assigned to</source>
        <translation>Asignada a</translation>
    </message>
    <message>
        <source>routed by triage</source>
        <translation>enviada por el triaje</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>sin motivo</translation>
    </message>
    <message>
        <source>{queue} (a queue since removed)</source>
        <translation>{queue} (una cola ya eliminada)</translation>
    </message>
    <message>
        <source>Not changed: {lead} has this escalation now.</source>
        <translation>Sin cambios: {lead} tiene ahora esta escalada.</translation>
    </message>
    <message>
        <source>Not changed: this escalation is assigned to nobody now.</source>
        <translation>Sin cambios: esta escalada no está asignada a nadie ahora.</translation>
    </message>
    <message>
        <source>Another lead changed its assignment after your list was read.</source>
        <translation>Otro responsable cambió su asignación después de leerse su lista.</translation>
    </message>
    <message>
        <source>The list was read again: assign it anew if it should still move.</source>
        <translation>La lista se leyó de nuevo: asígnela otra vez si aún debe cambiar.</translation>
    </message>
    <message>
        <source>It no longer waits in the escalation queue: nothing to assign.</source>
        <translation>Ya no espera en la cola de escalaciones: no hay nada que asignar.</translation>
    </message>
    <message>
        <source>Pick another one from the list.</source>
        <translation>Elija otra de la lista.</translation>
    </message>
    <message>
        <source>{wait} (over SLA)</source>
        <translation>{wait} (fuera del SLA)</translation>
    </message>
    <message>
        <source>triage</source>
        <translation>triaje</translation>
    </message>
    <message>
        <source>Who holds what</source>
        <translation>Quién tiene qué</translation>
    </message>
    <message>
        <source>Open escalations</source>
        <translation>Escalaciones abiertas</translation>
    </message>
    <message>
        <source>Review this one now</source>
        <translation>Revisar esta ahora</translation>
    </message>
    <message>
        <source>Assign to me</source>
        <translation>Asignármela</translation>
    </message>
    <message>
        <source>Lead to assign to</source>
        <translation>Responsable al que asignar</translation>
    </message>
    <message>
        <source>Assign to this lead</source>
        <translation>Asignar a este responsable</translation>
    </message>
    <message>
        <source>Assign to nobody</source>
        <translation>No asignar a nadie</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Qué pasó</translation>
    </message>
    <message>
        <source>Routed here by triage: {n} open</source>
        <translation>Enviadas aquí por la clasificación: {n} abiertas</translation>
    </message>
    <message>
        <source>{lead} ({n})</source>
        <translation>{lead} ({n})</translation>
    </message>
    <message>
        <source>Held by: {held}. Assigned to: {assigned}.</source>
        <translation>Reservada por: {held}. Asignada a: {assigned}.</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>nadie</translation>
    </message>
    <message>
        <source>The service no longer lets this account see the escalations (it may no longer be a lead&apos;s), so the list was cleared.</source>
        <translation>El servicio ya no deja ver las escalaciones a esta cuenta (quizá ya no sea de un responsable), así que la lista se vació.</translation>
    </message>
    <message>
        <source>{lead} is deciding this escalation now; it comes to you if they let it go.</source>
        <translation>{lead} está decidiendo esta escalación ahora; le llegará si la suelta.</translation>
    </message>
    <message>
        <source>Type or pick the lead to assign it to.</source>
        <translation>Escribir o elegir el responsable al que asignarla.</translation>
    </message>
    <message>
        <source>This escalation was decided already.</source>
        <translation>Esta escalación ya se decidió.</translation>
    </message>
    <message>
        <source>Assigned to {lead}.</source>
        <translation>Asignada a {lead}.</translation>
    </message>
    <message>
        <source>Assigned to nobody: any lead may take it.</source>
        <translation>Sin asignar: cualquier responsable puede tomarla.</translation>
    </message>
    <message>
        <source>assigning the escalation</source>
        <translation>asignar la escalación</translation>
    </message>
</context>
<context>
    <name>LeadQuality</name>
    <message>
        <source>fast: median {s} s</source>
        <translation>rápido: mediana {s} s</translation>
    </message>
    <message>
        <source>action mix far from the others&apos; in {queue} ({d})</source>
        <translation>combinación de acciones alejada de la de los demás en {queue} ({d})</translation>
    </message>
    <message>
        <source>overturns up: {before} → {now}</source>
        <translation>revocaciones al alza: {before} → {now}</translation>
    </message>
    <message>
        <source>Quality flag thresholds</source>
        <translation>Umbrales de alertas de calidad</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Flag a median handle time under</source>
        <translation>Marcar un tiempo de gestión mediano inferior a</translation>
    </message>
    <message>
        <source>Flag an action mix farther from the others&apos; than</source>
        <translation>Marcar una combinación de acciones más alejada de la de los demás que</translation>
    </message>
    <message>
        <source> points</source>
        <translation> puntos</translation>
    </message>
    <message>
        <source>Flag an overturn rate up by</source>
        <translation>Marcar una tasa de revocación que sube en</translation>
    </message>
    <message>
        <source>with at least decisions</source>
        <translation>con un mínimo de decisiones de</translation>
    </message>
    <message>
        <source>Flag: median under</source>
        <translation>Alerta: mediana inferior a</translation>
    </message>
    <message>
        <source>mix distance over</source>
        <translation>distancia de combinación superior a</translation>
    </message>
    <message>
        <source>overturns up by</source>
        <translation>revocaciones al alza en</translation>
    </message>
    <message>
        <source>with at least</source>
        <translation>con al menos</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>decisiones</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>Día</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Decisiones</translation>
    </message>
    <message>
        <source>Median handle</source>
        <translation>Tiempo mediano</translation>
    </message>
    <message>
        <source>Overturned</source>
        <translation>Revocadas</translation>
    </message>
    <message>
        <source>Select a reviewer for their trend.</source>
        <extracomment>the time zone the days are of (``ReviewerTrend.time_zone``); None: this machine&apos;s</extracomment>
        <translation>Seleccionar un revisor para ver su tendencia.</translation>
    </message>
    <message>
        <source>Trend</source>
        <translation>Tendencia</translation>
    </message>
    <message>
        <source>Reviewer&apos;s trend by day</source>
        <translation>Tendencia del revisor por día</translation>
    </message>
    <message>
        <source>Loading the trend of {name}…</source>
        <translation>Cargando la tendencia de {name}…</translation>
    </message>
    <message>
        <source>{name}, day by day</source>
        <translation>{name}, día a día</translation>
    </message>
    <message>
        <source>loading the trend</source>
        <translation>cargar la tendencia</translation>
    </message>
</context>
<context>
    <name>LeadSearch</name>
    <message>
        <source>Author (handle, platform id, name)</source>
        <extracomment>Saved views a key opens: Ctrl+Shift+1 … Ctrl+Shift+9, in the picker&apos;s order.</extracomment>
        <translation>Autor (identificador, ID de plataforma, nombre)</translation>
    </message>
    <message>
        <source>Post text</source>
        <translation>Texto de la publicación</translation>
    </message>
    <message>
        <source>Post platform id or URL</source>
        <translation>ID de plataforma o URL de la publicación</translation>
    </message>
    <message>
        <source>Link domain</source>
        <translation>Dominio del enlace</translation>
    </message>
    <message>
        <source>Report reason</source>
        <translation>Motivo de la denuncia</translation>
    </message>
    <message>
        <source>waiting</source>
        <extracomment>an item&apos;s state in words (the wire&apos;s code, &quot;pending&quot;, was shown in every language)</extracomment>
        <translation>en espera</translation>
    </message>
    <message>
        <source>being reviewed</source>
        <translation>en revisión</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>decidida</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>retirada</translation>
    </message>
    <message>
        <source>resolved by an account action</source>
        <translation>resuelta por una acción de cuenta</translation>
    </message>
    <message>
        <source>cannot be shown</source>
        <translation>no se puede mostrar</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Publicación</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decisión</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Revisor</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Decidida</translation>
    </message>
    <message>
        <source>Save view</source>
        <translation>Guardar vista</translation>
    </message>
    <message>
        <source>View name</source>
        <translation>Nombre de la vista</translation>
    </message>
    <message>
        <source>Share with the team (every lead)</source>
        <translation>Compartir con el equipo (todos los responsables)</translation>
    </message>
    <message>
        <source>Share the view</source>
        <translation>Compartir la vista</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Search in</source>
        <translation>Buscar en</translation>
    </message>
    <message>
        <source>what to find (author and text: 3 characters or more)</source>
        <translation>qué buscar (autor y texto: 3 caracteres o más)</translation>
    </message>
    <message>
        <source>Search for</source>
        <translation>Texto a buscar</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <source>Saved views</source>
        <translation>Vistas guardadas</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>Open the saved view</source>
        <translation>Abrir la vista guardada</translation>
    </message>
    <message>
        <source>Save search…</source>
        <translation>Guardar búsqueda…</translation>
    </message>
    <message>
        <source>Save this search as a view</source>
        <translation>Guardar esta búsqueda como vista</translation>
    </message>
    <message>
        <source>Save Decisions filter…</source>
        <translation>Guardar filtro de Decisiones…</translation>
    </message>
    <message>
        <source>Save the Decisions tab&apos;s filter as a view</source>
        <translation>Guardar el filtro de la pestaña Decisiones como vista</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Delete the saved view</source>
        <translation>Eliminar la vista guardada</translation>
    </message>
    <message>
        <source>Saved views:</source>
        <translation>Vistas guardadas:</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>Resultados de la búsqueda</translation>
    </message>
    <message>
        <source>Search status</source>
        <translation>Estado de la búsqueda</translation>
    </message>
    <message>
        <source>More results</source>
        <translation>Más resultados</translation>
    </message>
    <message>
        <source>Load more results</source>
        <translation>Cargar más resultados</translation>
    </message>
    <message>
        <source>Decide these together…</source>
        <translation>Decidir estas en bloque…</translation>
    </message>
    <message>
        <source>Decide the selected open posts together</source>
        <translation>Decidir en bloque las publicaciones abiertas seleccionadas</translation>
    </message>
    <message>
        <source>Type something to search for.</source>
        <translation>Escribir algo para buscar.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Buscando…</translation>
    </message>
    <message>
        <source>Nothing found.</source>
        <translation>No se encontró nada.</translation>
    </message>
    <message>
        <source>Delete saved view</source>
        <translation>Eliminar la vista guardada</translation>
    </message>
    <message>
        <source>Delete the view {name}, shared by {owner} with every lead? It is gone for all of them; this cannot be undone.</source>
        <translation>¿Eliminar la vista {name}, que {owner} comparte con todos los responsables? Desaparece para todos; no se puede deshacer.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>%Ln item(s) shown, newest first; more below.</source>
        <translation>%Ln elemento mostrado, los más recientes primero; hay más abajo.|%Ln elementos mostrados, los más recientes primero; hay más abajo.</translation>
    </message>
    <message>
        <source>%Ln item(s) found, newest first.</source>
        <translation>%Ln elemento encontrado, los más recientes primero.|%Ln elementos encontrados, los más recientes primero.</translation>
    </message>
    <message>
        <source>At most {max} posts can be decided together: {n} open posts are selected. Select fewer (narrow the search, or select a part of the results) and decide the rest afterwards.</source>
        <translation>Como máximo se pueden decidir {max} publicaciones juntas: hay {n} publicaciones abiertas seleccionadas. Seleccione menos (acote la búsqueda o seleccione una parte de los resultados) y decida el resto después.</translation>
    </message>
    <message>
        <source>%Ln selected post(s) decided already: left out.</source>
        <translation>%Ln publicación seleccionada ya decidida: se omite.|%Ln publicaciones seleccionadas ya decididas: se omiten.</translation>
    </message>
    <message>
        <source>searching</source>
        <translation>buscar</translation>
    </message>
    <message>
        <source>Select open posts first (Ctrl or Shift and click): decided posts are changed by an audit, not decided again.</source>
        <translation>Seleccionar primero publicaciones abiertas (Ctrl o Shift y clic): las publicaciones decididas se cambian mediante una auditoría, no se deciden de nuevo.</translation>
    </message>
    <message>
        <source>loading the saved views</source>
        <translation>cargar las vistas guardadas</translation>
    </message>
    <message>
        <source>search</source>
        <translation>búsqueda</translation>
    </message>
    <message>
        <source>decisions</source>
        <translation>decisiones</translation>
    </message>
    <message>
        <source>shared by {owner}</source>
        <translation>compartida por {owner}</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privada</translation>
    </message>
    <message>
        <source>No saved views yet</source>
        <translation>Aún no hay vistas guardadas</translation>
    </message>
    <message>
        <source>No saved view {n}.</source>
        <translation>No hay vista guardada {n}.</translation>
    </message>
    <message>
        <source>A view&apos;s name is one line of up to {n} characters, with no control characters. Nothing was saved.</source>
        <translation>El nombre de una vista es una línea de hasta {n} caracteres, sin caracteres de control. No se guardó nada.</translation>
    </message>
    <message>
        <source>Saved the view {name}.</source>
        <translation>Se guardó la vista {name}.</translation>
    </message>
    <message>
        <source>saving the view</source>
        <translation>guardar la vista</translation>
    </message>
    <message>
        <source>deleting the view</source>
        <translation>eliminar la vista</translation>
    </message>
    <message>
        <source>Type a search to save first.</source>
        <translation>Escribir primero una búsqueda para guardar.</translation>
    </message>
    <message>
        <source>Save the search for {q} as a view.</source>
        <translation>Guardar la búsqueda de {q} como vista.</translation>
    </message>
    <message>
        <source>The Decisions tab&apos;s filter is not valid.</source>
        <translation>El filtro de la pestaña Decisiones no es válido.</translation>
    </message>
    <message>
        <source>Save the Decisions tab&apos;s current filter as a view.</source>
        <translation>Guardar el filtro actual de la pestaña Decisiones como vista.</translation>
    </message>
</context>
<context>
    <name>LeadStats</name>
    <message>
        <source>last 24 hours</source>
        <extracomment>Windows a lead can pick: (words, hours).</extracomment>
        <translation>últimas 24 horas</translation>
    </message>
    <message>
        <source>last 7 days</source>
        <translation>últimos 7 días</translation>
    </message>
    <message>
        <source>last 30 days</source>
        <translation>últimos 30 días</translation>
    </message>
    <message>
        <source>{n} d</source>
        <extracomment>Backlog samples kept per queue (one per refresh: 12 hours at 30 s).</extracomment>
        <translation>{n} d</translation>
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
        <translation>Cola</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>En espera</translation>
    </message>
    <message>
        <source>Being reviewed</source>
        <translation>En revisión</translation>
    </message>
    <message>
        <source>Oldest waiting</source>
        <translation>La más antigua en espera</translation>
    </message>
    <message>
        <source>SLA</source>
        <translation>SLA</translation>
    </message>
    <message>
        <source>Over SLA</source>
        <translation>Fuera de SLA</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Decididas</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>Por hora</translation>
    </message>
    <message>
        <source>Escalations open</source>
        <translation>Escalados abiertos</translation>
    </message>
    <message>
        <source>Action mix</source>
        <translation>Combinación de acciones</translation>
    </message>
    <message>
        <source>The oldest waiting post is older than this queue&apos;s SLA.</source>
        <translation>La publicación en espera más antigua supera el SLA de esta cola.</translation>
    </message>
    <message>
        <source>over SLA</source>
        <translation>fuera de SLA</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Revisor</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Decisiones</translation>
    </message>
    <message>
        <source>Median handle</source>
        <translation>Mediana de gestión</translation>
    </message>
    <message>
        <source>p90 handle</source>
        <translation>p90 de gestión</translation>
    </message>
    <message>
        <source>Audited</source>
        <translation>Auditadas</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Concordancia</translation>
    </message>
    <message>
        <source>Overturn rate</source>
        <translation>Tasa de revocación</translation>
    </message>
    <message>
        <source>Kappa</source>
        <translation>Kappa</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Conflictos</translation>
    </message>
    <message>
        <source>Appeals upheld / reversed</source>
        <translation>Recursos confirmados / revocados</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Alertas</translation>
    </message>
    <message>
        <source>Time window</source>
        <extracomment>the quality signals by reviewer (GET /stats/quality), with the queues&apos; names</extracomment>
        <translation>Periodo</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Figures status</source>
        <translation>Estado de las cifras</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Periodo:</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>(figures as of {n} s ago)</source>
        <translation>(cifras de hace {n} s)</translation>
    </message>
    <message>
        <source>Break reminders…</source>
        <translation>Recordatorios de pausa…</translation>
    </message>
    <message>
        <source>{queue} (oldest {oldest}, SLA {sla}, %Ln post(s) over)</source>
        <translation>{queue} (más antigua {oldest}, SLA {sla}, %Ln publicación fuera)|{queue} (más antigua {oldest}, SLA {sla}, %Ln publicaciones fuera)</translation>
    </message>
    <message>
        <source>Agreement and kappa compare each reviewer with the auditors on audited decisions; overturn rate is overturned decisions (by an audit or a reversed appeal) per decision. Double-click a reviewer (or press Enter) for their decisions. Flags: a median handle time under your threshold, an action mix far from the other reviewers&apos; in a queue (total variation distance), or an overturn rate up against the window before; each only with enough decisions. Select a reviewer for their days.</source>
        <translation>La concordancia y el kappa comparan a cada revisor con los auditores en las decisiones auditadas; la tasa de revocación son las decisiones revocadas (por una auditoría o una apelación estimada) por decisión. Doble clic en un revisor (o Enter) para ver sus decisiones. Alertas: un tiempo de gestión mediano inferior al umbral fijado, una combinación de acciones alejada de la de los demás revisores en una cola (distancia de variación total) o una tasa de revocación al alza respecto al periodo anterior; cada una solo con suficientes decisiones. Seleccionar un revisor para ver sus días.</translation>
    </message>
    <message>
        <source>Updated {time}</source>
        <translation>Actualizado {time}</translation>
    </message>
    <message>
        <source>loading the figures</source>
        <translation>cargar las cifras</translation>
    </message>
    <message>
        <source>Queues overview</source>
        <translation>Resumen de las colas</translation>
    </message>
    <message>
        <source>Queue health</source>
        <translation>Estado de las colas</translation>
    </message>
    <message>
        <source>Decided per hour</source>
        <translation>Decididas por hora</translation>
    </message>
    <message>
        <source>Waiting posts (sampled while open)</source>
        <translation>Publicaciones en espera (muestreadas mientras está abierto)</translation>
    </message>
    <message>
        <source>SLA breaches</source>
        <translation>Incumplimientos del SLA</translation>
    </message>
    <message>
        <source>Posts of suspended or inauthentic accounts held back</source>
        <translation>Publicaciones retenidas de cuentas suspendidas o no auténticas</translation>
    </message>
    <message>
        <source>Over SLA: {queues}</source>
        <translation>Fuera de SLA: {queues}</translation>
    </message>
    <message>
        <source>Every queue is within its SLA.</source>
        <translation>Todas las colas están dentro de su SLA.</translation>
    </message>
    <message>
        <source>Decided per day</source>
        <translation>Decididas por día</translation>
    </message>
    <message>
        <source>Reviewers</source>
        <translation>Revisores</translation>
    </message>
    <message>
        <source>Reviewer figures</source>
        <translation>Cifras de los revisores</translation>
    </message>
    <message>
        <source>Show this reviewer&apos;s decisions</source>
        <translation>Mostrar las decisiones de este revisor</translation>
    </message>
    <message>
        <source>Held back: {posts} of suspended or inauthentic accounts, not queued ({window} in this window; {accounts}).</source>
        <translation>Retenidas: {posts} de cuentas suspendidas o no auténticas, sin encolar ({window} en este periodo; {accounts}).</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln publicación|%Ln publicaciones</translation>
    </message>
    <message>
        <source>%Ln account(s) actioned</source>
        <translation>%Ln cuenta afectada|%Ln cuentas afectadas</translation>
    </message>
</context>
<context>
    <name>LeadWebhooks</name>
    <message>
        <source>delivering</source>
        <translation>entregando</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>fallando</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>desactivado</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Punto de destino</translation>
    </message>
    <message>
        <source>Platform</source>
        <translation>Plataforma</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Last success</source>
        <translation>Último éxito</translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation>Pendientes</translation>
    </message>
    <message>
        <source>Failures in a row</source>
        <translation>Fallos seguidos</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Último error</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>Webhook endpoints and their health</source>
        <translation>Puntos de webhook y su estado</translation>
    </message>
    <message>
        <source>Webhooks status</source>
        <translation>Estado de los webhooks</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Decisions reach each platform&apos;s endpoints as signed webhooks, in order. The backlog is what an endpoint has not acknowledged yet; a failing endpoint is retried with growing waits, a disabled one gets nothing until an operator enables it (reviewer-app server webhook).</source>
        <translation>Las decisiones llegan a los puntos de cada plataforma como webhooks firmados, en orden. Los pendientes son lo que un punto aún no ha confirmado; a un punto que falla se le reintenta con esperas crecientes, uno desactivado no recibe nada hasta que un operador lo active (reviewer-app server webhook).</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>No webhook endpoints.</source>
        <translation>No hay puntos de webhook.</translation>
    </message>
    <message>
        <source>%Ln endpoint(s), {troubled} failing or disabled; {backlog} to send.</source>
        <translation>%Ln punto, {troubled} fallando o desactivados; {backlog} por enviar.|%Ln puntos, {troubled} fallando o desactivados; {backlog} por enviar.</translation>
    </message>
    <message>
        <source>loading the webhooks</source>
        <translation>cargar los webhooks</translation>
    </message>
</context>
<context>
    <name>LeadWorkspace</name>
    <message>
        <source>Review escalations now (same keys as reviewing)</source>
        <translation>Revisar escalados ahora (mismas teclas que al revisar)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Posts that reviewers escalated wait here for a lead. They are decided in the review flow, with the same keys, and only leads can lease them.</source>
        <translation>Las publicaciones que los revisores escalaron esperan aquí a un responsable. Se deciden en el flujo de revisión, con las mismas teclas, y solo los responsables pueden reservarlas.</translation>
    </message>
    <message>
        <source>This service has no escalation queue.</source>
        <translation>Este servicio no tiene cola de escalados.</translation>
    </message>
    <message>
        <source>%Ln escalated post(s) waiting, {leased} being decided by leads; oldest waiting {oldest} (SLA {sla}).</source>
        <translation>%Ln publicación escalada en espera, {leased} en decisión por responsables; la más antigua espera {oldest} (SLA {sla}).|%Ln publicaciones escaladas en espera, {leased} en decisión por responsables; la más antigua espera {oldest} (SLA {sla}).</translation>
    </message>
    <message>
        <source>{queue}: {n} open</source>
        <translation>{queue}: {n} abiertos</translation>
    </message>
    <message>
        <source>No open escalations from other queues.</source>
        <translation>No hay escalados abiertos de otras colas.</translation>
    </message>
    <message>
        <source>loading the escalations</source>
        <translation>cargar los escalados</translation>
    </message>
    <message>
        <source>Lead workspace</source>
        <translation>Espacio del responsable</translation>
    </message>
    <message>
        <source>Queues</source>
        <translation>Colas</translation>
    </message>
    <message>
        <source>Reviewers</source>
        <translation>Revisores</translation>
    </message>
    <message>
        <source>Audits</source>
        <translation>Auditorías</translation>
    </message>
    <message>
        <source>Wellbeing</source>
        <translation>Bienestar</translation>
    </message>
    <message>
        <source>Escalations</source>
        <translation>Escalados</translation>
    </message>
    <message>
        <source>Escalations waiting</source>
        <translation>Escalados en espera</translation>
    </message>
    <message>
        <source>Escalations by queue they came from</source>
        <translation>Escalados por cola de procedencia</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>Decisiones</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Administration</source>
        <translation>Administración</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Búsqueda</translation>
    </message>
</context>
<context>
    <name>Links</name>
    <message>
        <source>The preview says {shown}, but the link goes to {host}.</source>
        <translation>La vista previa dice {shown}, pero el enlace lleva a {host}.</translation>
    </message>
    <message>
        <source>The host mixes letters of different scripts ({scripts}): look-alike letters can imitate a well-known site. Not plain Latin: {letters}.</source>
        <translation>El host mezcla letras de distintas escrituras ({scripts}): letras parecidas pueden imitar un sitio conocido. No latín simple: {letters}.</translation>
    </message>
    <message>
        <source>The address starts with {userinfo}@, which is not where it goes: the browser ignores what comes before the @.</source>
        <translation>La dirección empieza con {userinfo}@, que no es adonde lleva: el navegador ignora lo que va antes de la @.</translation>
    </message>
    <message>
        <source>The host is not a valid international domain name; browsers may read it differently.</source>
        <translation>El host no es un nombre de dominio internacional válido; los navegadores pueden leerlo de otra manera.</translation>
    </message>
    <message>
        <source>Open link</source>
        <extracomment>what a bundle (PyInstaller) sets for its own Qt, which a browser it starts must not load the library paths a bundle sets for itself; PyInstaller keeps the system&apos;s in ``*_ORIG``</extracomment>
        <translation>Abrir enlace</translation>
    </message>
    <message>
        <source>Open link in browser?</source>
        <translation>¿Abrir el enlace en el navegador?</translation>
    </message>
    <message>
        <source>Check where this link goes before you open it.</source>
        <translation>Compruebe adónde lleva este enlace antes de abrirlo.</translation>
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
        <translation>Tal como lo envía el navegador: {host}</translation>
    </message>
    <message>
        <source>Host as the browser sends it</source>
        <translation>Host tal como lo envía el navegador</translation>
    </message>
    <message>
        <source>Warnings about this link</source>
        <translation>Advertencias sobre este enlace</translation>
    </message>
    <message>
        <source>The whole address:</source>
        <translation>La dirección completa:</translation>
    </message>
    <message>
        <source>The whole address</source>
        <translation>La dirección completa</translation>
    </message>
    <message>
        <source>What went wrong</source>
        <translation>Qué salió mal</translation>
    </message>
    <message>
        <source>Copy link</source>
        <translation>Copiar enlace</translation>
    </message>
    <message>
        <source>Copy the link</source>
        <translation>Copiar el enlace</translation>
    </message>
    <message>
        <source>Open in browser</source>
        <translation>Abrir en el navegador</translation>
    </message>
    <message>
        <source>Open the link in the browser</source>
        <translation>Abrir el enlace en el navegador</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>Copied. Paste it where you can check it.</source>
        <translation>Copiado. Péguelo donde pueda comprobarlo.</translation>
    </message>
    <message>
        <source>No browser could open this link on this computer. Copy it and open it where you can.</source>
        <translation>Ningún navegador pudo abrir este enlace en este equipo. Cópielo y ábralo donde pueda.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>{name} on {server}</source>
        <extracomment>Work deferred until the next post is painted runs at the latest this long after. The reason code of a verdict the service refused because the platform withdrew the post. ... and because an account action closed the item (its author suspended or inauthentic) the window&apos;s size at its first start, where the screen has room for it</extracomment>
        <translation>{name} en {server}</translation>
    </message>
    <message>
        <source>Review desk</source>
        <translation>Mesa de revisión</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>Aviso</translation>
    </message>
    <message>
        <source>Queue</source>
        <extracomment>of the pending verdicts, those waiting because another reviewer holds the post the service wants a login (a 401, or it is back for a session that has none) what the banner shows (&quot;conflicts&quot; while it counts them; &quot;&quot; otherwise) what the banner shows when no notice is up (``notify``) &quot;this shift&quot; in My decisions: since this window opened the open escalation reason picker (E), if any queues being worked that have nothing for this reviewer (the engine&apos;s word) every key in force (the table&apos;s, the queues&apos;, and the user&apos;s own) this shift&apos;s items by kind of harm, for break reminders (the service keeps the record the lead sees), kept in the store within a second of a change (off the keypress): a restart goes on with it the reviewer&apos;s own setting (read again after Settings) the queue on screen when the break began (reviewed again on resume)</extracomment>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Work offline…</source>
        <translation>Trabajar sin conexión…</translation>
    </message>
    <message>
        <source>Work offline: lease a batch (Ctrl+O)</source>
        <translation>Trabajar sin conexión: reservar un lote (Ctrl+O)</translation>
    </message>
    <message>
        <source>Queue:</source>
        <translation>Cola:</translation>
    </message>
    <message>
        <source>Skipped: that post goes back to the queue for others.</source>
        <translation>Omitida: esa publicación vuelve a la cola para otras personas.</translation>
    </message>
    <message>
        <source>Undone: {action} on the post by {author}.</source>
        <translation>Deshecho: {action} en la publicación de {author}.</translation>
    </message>
    <message>
        <source>Saved: {action} on the post by {author}. Ctrl+Z undoes it for a few seconds.</source>
        <translation>Guardado: {action} en la publicación de {author}. Ctrl+Z lo deshace durante unos segundos.</translation>
    </message>
    <message>
        <source>Classifier scores (bar: score; line: threshold)</source>
        <extracomment>the keys that focus a part of the verdict, and the part the keys that focus a pane, and its place: the side (the worklist), the post, the context, the verdict bar the keys that step through the panes (F6) and through the context tabs (&quot;]&quot;) the next post&apos;s display work, done after this one was painted (``_prepare_next``) what reads a medium from the local store (``show_item``&apos;s) the reviewer moved a handle: the split keeps their sizes from then on</extracomment>
        <translation>Puntuaciones de clasificadores (barra: puntuación; línea: umbral)</translation>
    </message>
    <message>
        <source>Classifier scores</source>
        <translation>Puntuaciones de los clasificadores</translation>
    </message>
    <message>
        <source>Scores and context</source>
        <translation>Puntuaciones y contexto</translation>
    </message>
    <message>
        <source>Review or lead workspace</source>
        <translation>Revisión o espacio del responsable</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Revisar</translation>
    </message>
    <message>
        <source>Lead workspace</source>
        <translation>Espacio del responsable</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>iniciando…</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Conexión</translation>
    </message>
    <message>
        <source>Verdicts waiting to be sent</source>
        <translation>Veredictos pendientes de envío</translation>
    </message>
    <message>
        <source>Conflicts (Ctrl+K)</source>
        <translation>Conflictos (Ctrl+K)</translation>
    </message>
    <message>
        <source>Last sync</source>
        <translation>Última sincronización</translation>
    </message>
    <message>
        <source>Work offline progress</source>
        <translation>Progreso del trabajo sin conexión</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Último mensaje</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>&amp;Revisar</translation>
    </message>
    <message>
        <source>Conflicts…</source>
        <translation>Conflictos…</translation>
    </message>
    <message>
        <source>My decisions…</source>
        <translation>Mis decisiones…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Ajustes…</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>Log in again…</source>
        <translation>Volver a iniciar sesión…</translation>
    </message>
    <message>
        <source>Clear local data…</source>
        <translation>Borrar datos locales…</translation>
    </message>
    <message>
        <source>Log out</source>
        <translation>Cerrar sesión</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Salir</translation>
    </message>
    <message>
        <source>On a break: resume first, then work offline.</source>
        <translation>En pausa: reanude primero y luego trabaje sin conexión.</translation>
    </message>
    <message>
        <source>Logging out: sending what you decided…</source>
        <translation>Cerrando sesión: enviando lo que ha decidido…</translation>
    </message>
    <message>
        <source>A store the app could not use earlier is kept aside on this computer with its key: it may hold verdicts never sent. Clearing leaves it; ask support before deleting it.</source>
        <translation>Un almacén que la app no pudo usar antes se guarda aparte en este equipo con su clave: puede contener veredictos nunca enviados. Borrar lo deja; consulte al soporte antes de eliminarlo.</translation>
    </message>
    <message>
        <source>Open posts by the author and the linked accounts: {posts} in {queues}.</source>
        <translation>Publicaciones abiertas de la autora o el autor y de las cuentas vinculadas: {posts} en {queues}.</translation>
    </message>
    <message>
        <source>Open posts by the author: {posts} in {queues}.</source>
        <translation>Publicaciones abiertas de la autora o el autor: {posts} en {queues}.</translation>
    </message>
    <message>
        <source>%Ln more not listed (the oldest come first).</source>
        <translation>%Ln más sin listar (primero las más antiguas).|%Ln más sin listar (primero las más antiguas).</translation>
    </message>
    <message>
        <source>Posts selected in the search: {posts} in {queues}.</source>
        <translation>Publicaciones seleccionadas en la búsqueda: {posts} en {queues}.</translation>
    </message>
    <message>
        <source>Sending %Ln bulk decision(s) held when the app last closed.</source>
        <translation>Enviando %Ln decisión en bloque retenida al cerrar la aplicación por última vez.|Enviando %Ln decisiones en bloque retenidas al cerrar la aplicación por última vez.</translation>
    </message>
    <message>
        <source>The bulk decision not sent before is recorded now.</source>
        <translation>La decisión en bloque que no se había enviado ya está registrada.</translation>
    </message>
    <message>
        <source>A bulk decision on %Ln post(s) is not sent yet: {why} It is kept on this computer and tried again every {s} s.</source>
        <translation>Una decisión en bloque sobre %Ln publicación aún no se ha enviado: {why} Se conserva en este equipo y se reintenta cada {s} s.|Una decisión en bloque sobre %Ln publicaciones aún no se ha enviado: {why} Se conserva en este equipo y se reintenta cada {s} s.</translation>
    </message>
    <message>
        <source>A refused bulk decision: {posts} in {queues}.</source>
        <translation>Una decisión en bloque rechazada: {posts} en {queues}.</translation>
    </message>
    <message>
        <source>On a break: your posts were given back.</source>
        <translation>En pausa: las publicaciones reservadas se devolvieron.</translation>
    </message>
    <message>
        <source>Welcome back.</source>
        <translation>Hola de nuevo.</translation>
    </message>
    <message>
        <source>Welcome back. The queue {queue} was removed on the server during your break. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>Bienvenido de nuevo. La cola {queue} se eliminó en el servidor durante su pausa. Ahora se muestra {other}; elija otra cola de la lista si lo desea.</translation>
    </message>
    <message>
        <source>Welcome back. The queue {queue} was removed on the server during your break; you have no queue left to review.</source>
        <translation>Bienvenido de nuevo. La cola {queue} se eliminó en el servidor durante su pausa; no le queda ninguna cola que revisar.</translation>
    </message>
    <message>
        <source>Not sent yet: %Ln verdict(s), kept in memory only in this session and lost if you quit now. Quit anyway?</source>
        <translation>Aún sin enviar: %Ln veredicto, guardado solo en memoria en esta sesión y perdido si sale ahora. ¿Salir de todos modos?|Aún sin enviar: %Ln veredictos, guardados solo en memoria en esta sesión y perdidos si sale ahora. ¿Salir de todos modos?</translation>
    </message>
    <message>
        <source>Saved on this computer but not sent yet: %Ln verdict(s), sent the next time you start the app. Quit now?</source>
        <translation>Guardado en este equipo pero aún sin enviar: %Ln veredicto, que se enviará la próxima vez que inicie la aplicación. ¿Salir ahora?|Guardados en este equipo pero aún sin enviar: %Ln veredictos, que se enviarán la próxima vez que inicie la aplicación. ¿Salir ahora?</translation>
    </message>
    <message>
        <source>Not sent yet: %Ln verdict(s) waiting while another reviewer holds the post, kept in memory only in this session and lost if you quit now. Quit anyway?</source>
        <translation>Aún sin enviar: %Ln veredicto en espera mientras otra persona revisora tiene la publicación, guardado solo en memoria en esta sesión y perdido si sale ahora. ¿Salir de todos modos?|Aún sin enviar: %Ln veredictos en espera mientras otras personas revisoras tienen las publicaciones, guardados solo en memoria en esta sesión y perdidos si sale ahora. ¿Salir de todos modos?</translation>
    </message>
    <message>
        <source>Nothing was escalated: the post changed while the reasons were open.</source>
        <translation>No se escaló nada: la publicación cambió mientras los motivos estaban abiertos.</translation>
    </message>
    <message>
        <source>The queue {queue} is not in your queue list yet; try again shortly.</source>
        <translation>La cola {queue} aún no está en su lista de colas; inténtelo de nuevo en breve.</translation>
    </message>
    <message>
        <source>%Ln post(s)</source>
        <translation>%Ln publicación|%Ln publicaciones</translation>
    </message>
    <message>
        <source>%Ln queue(s)</source>
        <translation>%Ln cola|%Ln colas</translation>
    </message>
    <message>
        <source>Logged in again: your verdicts are being sent.</source>
        <translation>Sesión iniciada de nuevo: se están enviando sus veredictos.</translation>
    </message>
    <message>
        <source>logging in</source>
        <translation>iniciar sesión</translation>
    </message>
    <message>
        <source>Work offline is unavailable in this session: with no keyring to protect it, nothing you review is kept on this computer.</source>
        <translation>El trabajo sin conexión no está disponible en esta sesión: sin un llavero que lo proteja, nada de lo que revisa se guarda en este equipo.</translation>
    </message>
    <message>
        <source>Choose a queue first.</source>
        <translation>Elija primero una cola.</translation>
    </message>
    <message>
        <source>Leasing for offline work…</source>
        <translation>Reservando para trabajar sin conexión…</translation>
    </message>
    <message>
        <source>This deletes everything the app keeps on this computer for you on this server (cached posts and media, your recent decisions, conflicts, and the key that encrypts them) and logs you out.</source>
        <translation>Esto borra todo lo que la aplicación guarda en este equipo para usted en este servidor (publicaciones y medios en caché, sus decisiones recientes, conflictos y la clave que los cifra) y cierra su sesión.</translation>
    </message>
    <message>
        <source>{n} verdicts have not been sent yet.</source>
        <translation>{n} veredictos aún no se han enviado.</translation>
    </message>
    <message>
        <source>1 verdict has not been sent yet.</source>
        <translation>1 veredicto aún no se ha enviado.</translation>
    </message>
    <message>
        <source>The app tries to send them first; any it cannot send are lost.</source>
        <translation>La aplicación intenta enviarlos primero; los que no pueda enviar se pierden.</translation>
    </message>
    <message>
        <source>Clear local data</source>
        <translation>Borrar datos locales</translation>
    </message>
    <message>
        <source>Delete unsent verdicts and clear</source>
        <translation>Eliminar veredictos no enviados y borrar</translation>
    </message>
    <message>
        <source>Clear and log out</source>
        <translation>Borrar y cerrar sesión</translation>
    </message>
    <message>
        <source>Waiting for posts from the server…</source>
        <translation>Esperando publicaciones del servidor…</translation>
    </message>
    <message>
        <source>No posts here while offline. Use “Work offline” before you lose the network.</source>
        <translation>No hay publicaciones aquí sin conexión. Use «Trabajar sin conexión» antes de perder la red.</translation>
    </message>
    <message>
        <source>Choose a queue.</source>
        <translation>Elija una cola.</translation>
    </message>
    <message>
        <source>This post&apos;s lease ran out while offline; your verdict may conflict.</source>
        <translation>La reserva de esta publicación expiró sin conexión; su veredicto puede entrar en conflicto.</translation>
    </message>
    <message>
        <source>Saved: {action} on {item}. Ctrl+Z undoes it for a few seconds.</source>
        <translation>Guardado: {action} en {item}. Ctrl+Z lo deshace durante unos segundos.</translation>
    </message>
    <message>
        <source>Undone: {action} on {item}.</source>
        <translation>Deshecho: {action} en {item}.</translation>
    </message>
    <message>
        <source>the server has no record of leasing it to you (its data may have been restored from a backup or reset since), so the verdict was not recorded; the post waits in its queue to be decided again</source>
        <extracomment>The reason code of a verdict the service refused because the platform withdrew the post. ... and because an account action closed the item (its author suspended or inauthentic) a verdict&apos;s lease the service never issued (its data restored or reset since the claim)</extracomment>
        <translation>el servidor no tiene constancia de habérsela asignado (sus datos pueden haberse restaurado de una copia o reiniciado desde entonces), así que el veredicto no se registró; la publicación espera en su cola para decidirse de nuevo</translation>
    </message>
    <message>
        <source>Connected to the server.</source>
        <translation>Conectado al servidor.</translation>
    </message>
    <message>
        <source>Next try in {seconds} s.</source>
        <translation>Próximo intento en {seconds} s.</translation>
    </message>
    <message>
        <source>Offline.</source>
        <translation>Sin conexión.</translation>
    </message>
    <message>
        <source>No open conflicts left.</source>
        <translation>Ya no quedan conflictos abiertos.</translation>
    </message>
    <message>
        <source>1 of your verdicts conflicts with a decision made by someone else. Open Conflicts (Ctrl+K) to see both.</source>
        <translation>1 de sus veredictos entra en conflicto con una decisión de otra persona. Abra Conflictos (Ctrl+K) para ver ambos.</translation>
    </message>
    <message>
        <source>{n} posts in your worklist were withdrawn by the platform (deleted or made private upstream); they left it without a verdict.</source>
        <translation>La plataforma retiró {n} publicaciones de su lista de trabajo (borradas o hechas privadas en origen); salieron de ella sin veredicto.</translation>
    </message>
    <message>
        <source>Post {item} was withdrawn by the platform (deleted or made private upstream); it left your worklist without a verdict.</source>
        <translation>La plataforma retiró la publicación {item} (borrada o hecha privada en origen); salió de su lista de trabajo sin veredicto.</translation>
    </message>
    <message>
        <source>Resolved: {why}. {n} posts in your worklist were closed by that account action; they left it without a verdict.</source>
        <translation>Resuelto: {why}. {n} publicaciones de su lista de trabajo se cerraron por esa acción sobre la cuenta; salieron de ella sin veredicto.</translation>
    </message>
    <message>
        <source>Resolved: {why}. Post {item} was closed by that account action; it left your worklist without a verdict.</source>
        <translation>Resuelto: {why}. La publicación {item} se cerró por esa acción sobre la cuenta; salió de su lista de trabajo sin veredicto.</translation>
    </message>
    <message>
        <source>The queue {queue} was removed on the server and its posts moved to another queue. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>La cola {queue} se eliminó en el servidor y sus publicaciones pasaron a otra cola. Ahora se muestra {other}; elija otra cola de la lista si lo desea.</translation>
    </message>
    <message>
        <source>The queue {queue} was removed on the server; you have no queue left to review. Choose a queue once one is listed.</source>
        <translation>La cola {queue} se eliminó en el servidor; no le queda ninguna cola que revisar. Elija una cola en cuanto aparezca alguna.</translation>
    </message>
    <message>
        <source>You are no longer an administrator: you are now a reviewer.</source>
        <translation>Ya no es administrador: ahora es revisor.</translation>
    </message>
    <message>
        <source>You are no longer a lead: you are now a reviewer.</source>
        <translation>Ya no es responsable: ahora es revisor.</translation>
    </message>
    <message>
        <source>The queue {queue} is for leads only, so it is no longer listed for you; its posts stay there. Now showing {other}; choose another queue in the list if you like.</source>
        <translation>La cola {queue} es solo para responsables, así que ya no aparece para usted; sus publicaciones siguen allí. Ahora se muestra {other}; elija otra cola de la lista si lo desea.</translation>
    </message>
    <message>
        <source>The queue {queue} is for leads only, so it is no longer listed for you. You have no queue left to review.</source>
        <translation>La cola {queue} es solo para responsables, así que ya no aparece para usted. No le queda ninguna cola que revisar.</translation>
    </message>
    <message>
        <source>The server can be reached again: log in to send your verdicts.</source>
        <translation>El servidor vuelve a estar accesible: inicie sesión para enviar sus veredictos.</translation>
    </message>
    <message>
        <source>The server asks you to log in again.</source>
        <translation>El servidor le pide que vuelva a iniciar sesión.</translation>
    </message>
    <message>
        <source>Your verdicts are kept and sent once you have logged in (Review ▸ Log in again…).</source>
        <translation>Sus veredictos se conservan y se envían en cuanto haya iniciado sesión (Revisar ▸ Volver a iniciar sesión…).</translation>
    </message>
    <message>
        <source>You can keep deciding what is here.</source>
        <translation>Puede seguir decidiendo lo que hay aquí.</translation>
    </message>
    <message>
        <source>Worklist (W)</source>
        <translation>Lista de trabajo (W)</translation>
    </message>
    <message>
        <source>Nothing in {queue} is waiting for you.</source>
        <translation>Nada en {queue} le espera.</translation>
    </message>
    <message>
        <source>No other queue has posts waiting either; new posts appear here as they arrive.</source>
        <translation>Tampoco hay publicaciones esperando en otras colas; las nuevas aparecerán aquí en cuanto lleguen.</translation>
    </message>
    <message>
        <source>Queues with posts waiting:</source>
        <translation>Colas con publicaciones en espera:</translation>
    </message>
    <message>
        <source>{queue}: {n} waiting</source>
        <translation>{queue}: {n} en espera</translation>
    </message>
    <message>
        <source>Alt+{key}</source>
        <translation>Alt+{key}</translation>
    </message>
    <message>
        <source>{n} of your verdicts conflict with a decision made by someone else. Open Conflicts (Ctrl+K) to see both.</source>
        <translation>{n} de sus veredictos entran en conflicto con una decisión de otra persona. Abra Conflictos (Ctrl+K) para ver ambos.</translation>
    </message>
    <message>
        <source>Looking up the author&apos;s open posts…</source>
        <translation>Buscando las publicaciones abiertas del autor…</translation>
    </message>
    <message>
        <source>The author has no open posts.</source>
        <translation>El autor no tiene publicaciones abiertas.</translation>
    </message>
    <message>
        <source>looking up the author&apos;s open posts</source>
        <translation>buscar las publicaciones abiertas del autor</translation>
    </message>
    <message>
        <source>Offline batch: {done} of {total}</source>
        <translation>Lote sin conexión: {done} de {total}</translation>
    </message>
    <message>
        <source>Withdrawn by the platform: your verdict on {item} was not needed, the post was deleted or made private upstream before it arrived.</source>
        <translation>Retirada por la plataforma: su veredicto sobre {item} no hacía falta, la publicación se borró o se hizo privada en origen antes de que llegara.</translation>
    </message>
    <message>
        <source>Resolved: {why}. Your verdict on {item} was not needed: an account action closed the post before it arrived.</source>
        <translation>Resuelto: {why}. Su veredicto sobre {item} no hacía falta: una acción sobre la cuenta cerró la publicación antes de que llegara.</translation>
    </message>
    <message>
        <source>The server refused your verdict on {item}: {reason}</source>
        <translation>El servidor rechazó su veredicto sobre {item}: {reason}</translation>
    </message>
    <message>
        <source>The server refused {n} of your verdicts: {reasons}</source>
        <translation>El servidor rechazó {n} de sus veredictos: {reasons}</translation>
    </message>
    <message>
        <source>● Log in to sync</source>
        <translation>● Inicie sesión para sincronizar</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Conectando…</translation>
    </message>
    <message>
        <source>● Offline</source>
        <translation>● Sin conexión</translation>
    </message>
    <message>
        <source>● Syncing</source>
        <translation>● Sincronizando</translation>
    </message>
    <message>
        <source>● Online</source>
        <translation>● En línea</translation>
    </message>
    <message>
        <source>%n conflict(s)</source>
        <translation>%n conflicto|%n conflictos</translation>
    </message>
    <message>
        <source>never synced</source>
        <translation>nunca sincronizado</translation>
    </message>
    <message>
        <source>last sync {time}</source>
        <translation>última sincronización {time}</translation>
    </message>
    <message>
        <source>Verdicts not sent yet</source>
        <translation>Veredictos aún no enviados</translation>
    </message>
    <message>
        <source>added {actions}</source>
        <extracomment>a queue&apos;s settings no part of a verdict uses: a change to them leaves the bar as it is modifiers that say nothing about which key was pressed (as ``keys`` ignores them)</extracomment>
        <translation>añadidas: {actions}</translation>
    </message>
    <message>
        <source>removed {actions}</source>
        <translation>eliminadas: {actions}</translation>
    </message>
    <message>
        <source>The actions of {queue} changed on the server: {changes}.</source>
        <translation>Las acciones de {queue} cambiaron en el servidor: {changes}.</translation>
    </message>
    <message>
        <source>No longer in this queue, so taken off your verdict: {what}.</source>
        <translation>Ya no está en esta cola, así que se quitó de su decisión: {what}.</translation>
    </message>
    <message>
        <source>Key {key} decides nothing in {queue}: its action {action} was removed from this queue on the server.</source>
        <extracomment>per queue id: the keys of the actions removed from it on the server (key, text and the action&apos;s label), which say so when pressed</extracomment>
        <translation>La tecla {key} no decide nada en {queue}: su acción {action} se eliminó de esta cola en el servidor.</translation>
    </message>
    <message>
        <source>Key {key} decides nothing in {queue}: no action of this queue has it.</source>
        <translation>La tecla {key} no decide nada en {queue}: ninguna acción de esta cola la tiene.</translation>
    </message>
</context>
<context>
    <name>Media</name>
    <message>
        <source>image</source>
        <extracomment>The most pixels an image may declare; more is refused before anything is decoded (4096 x 4096: 64 MB while decoding at 8 bits a channel, 128 MB at 16). Images are decoded to fit this box (scaled while decoding where the format can): only a tile is ever shown. Images of at most this many pixels are decoded on the GUI thread when shown (a few ms); larger ones off it, their tile saying so meanwhile (16 images of 4,096 x 4,096 held the window for 4-9 s). Formats decoded, as Qt names them (what the service serves; never SVG or the like).</extracomment>
        <translation>imagen</translation>
    </message>
    <message>
        <source>GIF</source>
        <translation>GIF</translation>
    </message>
    <message>
        <source>video</source>
        <translation>vídeo</translation>
    </message>
    <message>
        <source>This file is not an image this app can show</source>
        <translation>Este archivo no es una imagen que esta aplicación pueda mostrar</translation>
    </message>
    <message>
        <source>This image is damaged or incomplete; it is not shown</source>
        <translation>Esta imagen está dañada o incompleta; no se muestra</translation>
    </message>
    <message>
        <source>This image is too large to show safely ({width} x {height} pixels)</source>
        <translation>Esta imagen es demasiado grande para mostrarla con seguridad ({width} x {height} píxeles)</translation>
    </message>
    <message>
        <source>▶ {duration} · not played</source>
        <translation>▶ {duration} · no se reproduce</translation>
    </message>
    <message>
        <source>Media</source>
        <extracomment>why the tile shows a placeholder instead of the media (None: it shows the media) the media was not in the store when the tile was made (``MediaStrip.arrived``) the obscured image and the tile&apos;s pixmap of it (None for a placeholder)</extracomment>
        <translation>Medios</translation>
    </message>
    <message>
        <source>Media {n}: {what}</source>
        <extracomment>the next post&apos;s images by media id, worked out while the reviewer reads this one the next post&apos;s images are being decoded off the GUI thread (``prepare``)</extracomment>
        <translation>Medio {n}: {what}</translation>
    </message>
    <message>
        <source>no description</source>
        <translation>sin descripción</translation>
    </message>
    <message>
        <source>{kind}, {size} bytes: {description}</source>
        <translation>{kind}, {size} bytes: {description}</translation>
    </message>
    <message>
        <source>Marked sensitive by the platform: blurred until you reveal it</source>
        <translation>Marcado como sensible por la plataforma: difuminado hasta que lo muestre</translation>
    </message>
    <message>
        <source>This media is no longer available on the service</source>
        <translation>Este archivo ya no está disponible en el servicio</translation>
    </message>
    <message>
        <source>Image, {size} bytes: decoding…</source>
        <translation>Imagen, {size} bytes: descodificando…</translation>
    </message>
    <message>
        <source>Video, {size} bytes: reading its frames…</source>
        <translation>Vídeo, {size} bytes: leyendo sus fotogramas…</translation>
    </message>
    <message>
        <source>Media not downloaded yet</source>
        <translation>Medios aún no descargados</translation>
    </message>
    <message>
        <source>This file is not a video this app can show</source>
        <translation>Este archivo no es un vídeo que esta aplicación pueda mostrar</translation>
    </message>
    <message>
        <source>This video is damaged or incomplete; it is not shown</source>
        <translation>Este vídeo está dañado o incompleto; no se muestra</translation>
    </message>
    <message>
        <source>This video&apos;s format ({codec}) is not shown here</source>
        <translation>El formato de este vídeo ({codec}) no se muestra aquí</translation>
    </message>
    <message>
        <source>This video is too large to show safely ({width} x {height} pixels)</source>
        <translation>Este vídeo es demasiado grande para mostrarlo con seguridad ({width} x {height} píxeles)</translation>
    </message>
</context>
<context>
    <name>MediaViewer</name>
    <message>
        <source>Media viewer</source>
        <translation>Visor de medios</translation>
    </message>
    <message>
        <source>What this medium is</source>
        <translation>Qué es este medio</translation>
    </message>
    <message>
        <source>The medium, large</source>
        <translation>El medio, en grande</translation>
    </message>
    <message>
        <source>The medium</source>
        <translation>El medio</translation>
    </message>
    <message>
        <source>Frames of the video</source>
        <translation>Fotogramas del vídeo</translation>
    </message>
    <message>
        <source>About this medium</source>
        <translation>Sobre este medio</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Anterior</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Siguiente ▶</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Alejar</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Acercar</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>Mostrar</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>← → previous, next · + - zoom (or the wheel) · 0 fit · ↑ ↓ Shift+← → move · Space reveal · Esc close</source>
        <translation>← → anterior, siguiente · + - zoom (o la rueda) · 0 ajustar · ↑ ↓ Mayús+← → mover · Espacio mostrar · Esc cerrar</translation>
    </message>
    <message>
        <source>Keys of the viewer</source>
        <translation>Teclas del visor</translation>
    </message>
    <message>
        <source>Media {n} of {total}</source>
        <translation>Medio {n} de {total}</translation>
    </message>
    <message>
        <source>no description</source>
        <translation>sin descripción</translation>
    </message>
    <message>
        <source>{n} of {total}: {kind}, {size} bytes — {description}</source>
        <translation>{n} de {total}: {kind}, {size} bytes — {description}</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Ocultar</translation>
    </message>
    <message>
        <source>Frame at {time}</source>
        <translation>Fotograma en {time}</translation>
    </message>
    <message>
        <source>it has sound, which is never played</source>
        <translation>tiene sonido, que nunca se reproduce</translation>
    </message>
    <message>
        <source>no sound</source>
        <translation>sin sonido</translation>
    </message>
    <message>
        <source>Video, {duration} long, {width} x {height} pixels, {codec}; not played, {sound}. The frames below are taken across its length.</source>
        <translation>Vídeo de {duration}, {width} x {height} píxeles, {codec}; no se reproduce, {sound}. Los fotogramas de abajo se toman a lo largo de todo el vídeo.</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <source>The server said: “{reason}”</source>
        <extracomment>the most characters of the server&apos;s own reason shown the server&apos;s own words about it (data: shown as they are), when it gave any</extracomment>
        <translation>El servidor dice: «{reason}»</translation>
    </message>
    <message>
        <source>while {during}</source>
        <translation>al {during}</translation>
    </message>
    <message>
        <source>Wrong user name or password.</source>
        <translation>Usuario o contraseña incorrectos.</translation>
    </message>
    <message>
        <source>The server did not accept them.</source>
        <translation>El servidor no los aceptó.</translation>
    </message>
    <message>
        <source>Check both and try again; after several failures the server makes you wait.</source>
        <translation>Compruebe ambos e inténtelo de nuevo; tras varios fallos el servidor le hará esperar.</translation>
    </message>
    <message>
        <source>The server asks you to log in again.</source>
        <translation>El servidor le pide que vuelva a iniciar sesión.</translation>
    </message>
    <message>
        <source>Your login has expired or was ended.</source>
        <translation>Su sesión ha caducado o se ha cerrado.</translation>
    </message>
    <message>
        <source>Log in again; your decisions are kept and sent once you are back.</source>
        <translation>Vuelva a iniciar sesión; sus decisiones se conservan y se envían cuando vuelva.</translation>
    </message>
    <message>
        <source>This server speaks another version.</source>
        <translation>Este servidor usa otra versión.</translation>
    </message>
    <message>
        <source>This app and the server speak different versions of the review service, so they cannot work together.</source>
        <translation>Esta aplicación y el servidor usan versiones distintas del servicio de revisión, así que no pueden funcionar juntos.</translation>
    </message>
    <message>
        <source>Update the app.</source>
        <translation>Actualice la aplicación.</translation>
    </message>
    <message>
        <source>It asked to wait {seconds} s.</source>
        <translation>Pidió esperar {seconds} s.</translation>
    </message>
    <message>
        <source>The server is busy or failing{where}.</source>
        <translation>El servidor está ocupado o fallando{where}.</translation>
    </message>
    <message>
        <source>It answered with the error HTTP {status}.</source>
        <translation>Respondió con el error HTTP {status}.</translation>
    </message>
    <message>
        <source>Keep working: decisions are saved here and sent when it answers again.</source>
        <translation>Siga trabajando: las decisiones se guardan aquí y se envían cuando vuelva a responder.</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted{where}.</source>
        <translation>El certificado del servidor no es de confianza{where}.</translation>
    </message>
    <message>
        <source>It is not signed by an authority this computer trusts, has expired, or is made out to another address. Nothing was sent.</source>
        <translation>No lo firma una autoridad en la que este equipo confíe, ha caducado o está emitido para otra dirección. No se envió nada.</translation>
    </message>
    <message>
        <source>Check the server address. If your organisation has its own certificate authority, ask IT to install it on this computer.</source>
        <translation>Compruebe la dirección del servidor. Si su organización tiene su propia autoridad de certificación, pida a TI que la instale en este equipo.</translation>
    </message>
    <message>
        <source>The server cannot be reached{where}.</source>
        <translation>No se puede contactar con el servidor{where}.</translation>
    </message>
    <message>
        <source>No connection could be made, or it broke before the whole reply arrived.</source>
        <translation>No se pudo establecer la conexión, o se cortó antes de que llegara toda la respuesta.</translation>
    </message>
    <message>
        <source>Check the server address and your network; decisions are saved here meanwhile.</source>
        <translation>Compruebe la dirección del servidor y su red; mientras tanto, las decisiones se guardan aquí.</translation>
    </message>
    <message>
        <source>The server sent a reply this app cannot use{where}.</source>
        <translation>El servidor envió una respuesta que esta aplicación no puede usar{where}.</translation>
    </message>
    <message>
        <source>The reply was cut off, too large, or not in the form the review service promises.</source>
        <translation>La respuesta llegó cortada, era demasiado grande o no tenía la forma que promete el servicio de revisión.</translation>
    </message>
    <message>
        <source>Nothing from it was used. If it keeps happening, tell your administrator.</source>
        <translation>No se usó nada de ella. Si sigue ocurriendo, avise a su administrador.</translation>
    </message>
    <message>
        <source>Your account may not do this.</source>
        <translation>Su cuenta no puede hacer esto.</translation>
    </message>
    <message>
        <source>Ask a lead or an administrator.</source>
        <translation>Pregunte a un responsable o a un administrador.</translation>
    </message>
    <message>
        <source>The server refused{where}.</source>
        <translation>El servidor se negó{where}.</translation>
    </message>
    <message>
        <source>Change what it refused and try again, or ask your administrator.</source>
        <translation>Cambie lo que rechazó e inténtelo de nuevo, o pregunte a su administrador.</translation>
    </message>
    <message>
        <source>The demo&apos;s service stopped: {reason}</source>
        <translation>El servicio de la demo se ha detenido: {reason}</translation>
    </message>
    <message>
        <source>Put right what it names, then start the demo again.</source>
        <translation>Corrija lo que indica y vuelva a iniciar la demo.</translation>
    </message>
    <message>
        <source>The demo&apos;s service did not start.</source>
        <translation>El servicio de la demo no se ha iniciado.</translation>
    </message>
    <message>
        <source>The demo&apos;s service stopped before it served (exit code {code}).</source>
        <translation>El servicio de la demo se detuvo antes de estar listo (código de salida {code}).</translation>
    </message>
    <message>
        <source>What it said is in the terminal the demo was started from.</source>
        <translation>Sus mensajes están en el terminal desde el que se inició la demo.</translation>
    </message>
    <message>
        <source>Start the demo from a terminal to read it; if another demo is running, close it first.</source>
        <translation>Inicie la demo desde un terminal para leerlos; si ya hay otra demo en marcha, ciérrela primero.</translation>
    </message>
    <message>
        <source>The work saved on this computer cannot be read.</source>
        <translation>El trabajo guardado en este equipo no se puede leer.</translation>
    </message>
    <message>
        <source>Its file is damaged or not this app&apos;s; it was left as it is.</source>
        <translation>Su archivo está dañado o no es de esta aplicación; se ha dejado tal cual.</translation>
    </message>
    <message>
        <source>This account&apos;s saved work is open in another copy of the app.</source>
        <translation>El trabajo guardado de esta cuenta está abierto en otra copia de la aplicación.</translation>
    </message>
    <message>
        <source>One copy at a time works with it; nothing was changed.</source>
        <translation>Solo una copia a la vez puede trabajar con él; no se cambió nada.</translation>
    </message>
    <message>
        <source>Switch to that window, or close it and log in here again.</source>
        <translation>Cambie a esa ventana, o ciérrela e inicie sesión aquí de nuevo.</translation>
    </message>
    <message>
        <source>This password does not open the work saved on this computer.</source>
        <translation>Esta contraseña no abre el trabajo guardado en este equipo.</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>No se ha cambiado nada.</translation>
    </message>
    <message>
        <source>Check it and try again.</source>
        <translation>Compruébela e inténtelo de nuevo.</translation>
    </message>
    <message>
        <source>You logged out on this computer.</source>
        <translation>Cerró la sesión en este equipo.</translation>
    </message>
    <message>
        <source>Nothing of yours is saved on this computer for this server.</source>
        <translation>En este equipo no hay nada suyo guardado para este servidor.</translation>
    </message>
    <message>
        <source>There is nothing to open without the server.</source>
        <translation>No hay nada que abrir sin el servidor.</translation>
    </message>
    <message>
        <source>Log in when the server can be reached.</source>
        <translation>Inicie sesión cuando el servidor esté accesible.</translation>
    </message>
    <message>
        <source>The key of the work saved on this computer cannot be read.</source>
        <translation>No se puede leer la clave del trabajo guardado en este equipo.</translation>
    </message>
    <message>
        <source>Its file is damaged or was written by another release; it was left as it is.</source>
        <translation>Su archivo está dañado o lo escribió otra versión; se ha dejado como estaba.</translation>
    </message>
    <message>
        <source>%Ln pending</source>
        <translation>%Ln pendiente|%Ln pendientes</translation>
    </message>
    <message>
        <source>Your saved work was written by a newer release of the app.</source>
        <translation>Su trabajo guardado lo escribió una versión más nueva de la aplicación.</translation>
    </message>
    <message>
        <source>This release of the app cannot open it; nothing was changed.</source>
        <translation>Esta versión de la aplicación no puede abrirlo; no se cambió nada.</translation>
    </message>
    <message>
        <source>Update the app, then log in: your saved work is kept as it is.</source>
        <translation>Actualice la aplicación e inicie sesión: su trabajo guardado se conserva tal cual.</translation>
    </message>
    <message>
        <source>Your saved work is from an earlier release, before encryption.</source>
        <translation>Su trabajo guardado es de una versión anterior, previa al cifrado.</translation>
    </message>
    <message>
        <source>It is kept as it is, with any verdicts not yet sent.</source>
        <translation>Se conserva tal cual, con los veredictos aún no enviados.</translation>
    </message>
    <message>
        <source>Log in once online to upgrade it; it then opens offline too.</source>
        <translation>Inicie sesión una vez en línea para actualizarlo; después se abre también sin conexión.</translation>
    </message>
    <message>
        <source>Your saved work is on this computer, but its key is missing.</source>
        <translation>Su trabajo guardado está en este equipo, pero falta su clave.</translation>
    </message>
    <message>
        <source>The keyring no longer holds it; nothing was changed.</source>
        <translation>El llavero ya no la guarda; no se cambió nada.</translation>
    </message>
    <message>
        <source>Log in online meanwhile; the saved work waits for its key.</source>
        <translation>Mientras tanto, inicie sesión en línea; el trabajo guardado espera su clave.</translation>
    </message>
    <message>
        <source>Log in when the server can be reached: the app starts a new store and keeps the old one aside for support.</source>
        <translation>Inicie sesión cuando el servidor esté accesible: la aplicación crea un almacén nuevo y guarda el antiguo aparte para el soporte.</translation>
    </message>
    <message>
        <source>The export was cancelled after %Ln decision(s).</source>
        <translation>La exportación se canceló tras %Ln decisión.|La exportación se canceló tras %Ln decisiones.</translation>
    </message>
    <message>
        <source>The server cannot be reached.</source>
        <translation>No se puede contactar con el servidor.</translation>
    </message>
    <message>
        <source>The server is busy or failing.</source>
        <translation>El servidor está ocupado o fallando.</translation>
    </message>
    <message>
        <source>The server sent a reply this app cannot use.</source>
        <translation>El servidor envió una respuesta que esta aplicación no puede usar.</translation>
    </message>
    <message>
        <source>Syncing with the server failed.</source>
        <translation>La sincronización con el servidor falló.</translation>
    </message>
    <message>
        <source>Post {item} from queue {queue} cannot be shown: the server sent it in a form this app refuses. It was left aside; tell your administrator.</source>
        <translation>La publicación {item} de la cola {queue} no se puede mostrar: el servidor la envió en una forma que esta aplicación rechaza. Se ha dejado aparte; avise a su administrador.</translation>
    </message>
    <message>
        <source>Syncing stopped on an unexpected error. Your decisions are kept; restart the app, and if it happens again, tell your administrator.</source>
        <translation>La sincronización se detuvo por un error inesperado. Sus decisiones se conservan; reinicie la aplicación y, si vuelve a ocurrir, avise a su administrador.</translation>
    </message>
    <message>
        <source>Leasing for offline work stopped after {done} of {total} posts.</source>
        <translation>La reserva para trabajar sin conexión se detuvo tras {done} de {total} publicaciones.</translation>
    </message>
    <message>
        <source>Only {done} of {total} items could be leased: the queue has no more for you, or you reached the server&apos;s limit of items held at once.</source>
        <translation>Solo se pudieron reservar {done} de {total} elementos: la cola no tiene más para usted, o alcanzó el límite del servidor de elementos retenidos a la vez.</translation>
    </message>
    <message>
        <source>Ready to work offline: %Ln post(s) on this computer.</source>
        <translation>Listo para trabajar sin conexión: %Ln publicación en este equipo.|Listo para trabajar sin conexión: %Ln publicaciones en este equipo.</translation>
    </message>
    <message>
        <source>this session keeps its login in memory only</source>
        <translation>esta sesión solo guarda su inicio de sesión en memoria</translation>
    </message>
    <message>
        <source>no keyring service is available on this system</source>
        <translation>no hay ningún servicio de llavero disponible en este sistema</translation>
    </message>
    <message>
        <source>the keyring backend {name} is not a safe store</source>
        <translation>el motor de llavero {name} no es un almacén seguro</translation>
    </message>
    <message>
        <source>the keyring backend cannot be used ({name})</source>
        <translation>el motor de llavero no se puede usar ({name})</translation>
    </message>
    <message>
        <source>the keyring refused to keep it ({name})</source>
        <translation>el llavero se negó a guardarlo ({name})</translation>
    </message>
    <message>
        <source>the keyring failed ({name})</source>
        <translation>el llavero falló ({name})</translation>
    </message>
    <message>
        <source>The local store could not be used (it was damaged, not this app&apos;s, or locked with another key). It was moved aside to {path} and a new, empty store was started. Verdicts that were in the old file and not yet sent are still in it; ask support before deleting it.</source>
        <translation>No se pudo usar el almacén local (estaba dañado, no pertenecía a esta aplicación o estaba cifrado con otra clave). Se movió a {path} y se creó un almacén nuevo y vacío. Los veredictos que estaban en el archivo antiguo y aún no se habían enviado siguen en él; consulte al soporte antes de borrarlo.</translation>
    </message>
    <message>
        <source>{n} saved verdicts</source>
        <translation>{n} veredictos guardados</translation>
    </message>
    <message>
        <source>1 saved verdict</source>
        <translation>1 veredicto guardado</translation>
    </message>
    <message>
        <source>{n} posts</source>
        <translation>{n} publicaciones</translation>
    </message>
    <message>
        <source>1 post</source>
        <translation>1 publicación</translation>
    </message>
    <message>
        <source>The server cannot be reached: working offline with {verdicts} and {posts}.</source>
        <translation>No se puede contactar con el servidor: trabajando sin conexión con {verdicts} y {posts}.</translation>
    </message>
    <message>
        <source>The server cannot be reached: opening the work saved on this computer…</source>
        <translation>No se puede contactar con el servidor: abriendo el trabajo guardado en este equipo…</translation>
    </message>
    <message>
        <source>The server cannot be reached, and this password does not open the work saved on this computer. Nothing was changed: check the password and try again.</source>
        <translation>No se puede contactar con el servidor y esta contraseña no abre el trabajo guardado en este equipo. No se ha cambiado nada: compruebe la contraseña e inténtelo de nuevo.</translation>
    </message>
    <message>
        <source>Your work saved on this computer earlier (with any verdicts not yet sent) is locked with a key the keyring holds, and the keyring cannot be read now ({reason}). It is left as it is: log in again once the keyring is available (unlocked, or after signing in to the desktop again) and it is sent then. Until then nothing you review is kept on this computer.</source>
        <translation>Su trabajo guardado antes en este equipo (con los veredictos aún no enviados) está cifrado con una clave que guarda el llavero, y el llavero no se puede leer ahora ({reason}). Se deja tal cual: vuelva a iniciar sesión cuando el llavero esté disponible (desbloqueado, o tras volver a entrar en el escritorio) y se enviará entonces. Hasta entonces no se guarda en este equipo nada de lo que revise.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and your work saved on this computer is locked with a key the keyring holds, which cannot be read now ({reason}). Nothing was changed: try again once the keyring is available or the network is back.</source>
        <translation>No se puede contactar con el servidor, y su trabajo guardado en este equipo está cifrado con una clave que guarda el llavero, que no se puede leer ahora ({reason}). No se ha cambiado nada: inténtelo de nuevo cuando el llavero esté disponible o vuelva la red.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and you logged out on this computer, so working offline needs a login first. Verdicts you had not sent are kept; try again when the network is back.</source>
        <translation>No se puede contactar con el servidor y cerró la sesión en este equipo, así que para trabajar sin conexión primero hay que iniciar sesión. Los veredictos que no había enviado se conservan; inténtelo de nuevo cuando vuelva la red.</translation>
    </message>
    <message>
        <source>The server cannot be reached, and nothing of yours is saved on this computer for this server, so there is nothing to work on offline. Try again when the network is back.</source>
        <translation>No se puede contactar con el servidor y en este equipo no hay nada suyo guardado para este servidor, así que no hay nada con lo que trabajar sin conexión. Inténtelo de nuevo cuando vuelva la red.</translation>
    </message>
    <message>
        <source>1 pending: the post is held by another reviewer; retrying</source>
        <translation>1 pendiente: otra persona revisora tiene la publicación; se reintenta</translation>
    </message>
    <message>
        <source>{n} pending: {held} held by other reviewers; retrying</source>
        <translation>{n} pendientes: {held} en manos de otras personas revisoras; se reintenta</translation>
    </message>
    <message>
        <source>Another reviewer holds the post: your verdict is sent again until it counts (they let the post go) or comes back as a conflict (they decided it).</source>
        <translation>Otra persona revisora tiene la publicación: su veredicto se vuelve a enviar hasta que cuente (la publicación queda libre) o vuelva como conflicto (ya se decidió).</translation>
    </message>
    <message>
        <source>Their hold ends at {time} unless renewed.</source>
        <translation>Su reserva termina a las {time}, salvo que la renueve.</translation>
    </message>
    <message>
        <source>“{address}” is not a usable server address.</source>
        <translation>«{address}» no es una dirección de servidor válida.</translation>
    </message>
    <message>
        <source>The local store cannot be written.</source>
        <translation>No se puede escribir en el almacén local.</translation>
    </message>
    <message>
        <source>The disk may be full, the data folder read-only, or the store in use by another copy of the app.</source>
        <translation>Puede que el disco esté lleno, que la carpeta de datos sea de solo lectura o que otra copia de la aplicación esté usando el almacén.</translation>
    </message>
    <message>
        <source>Check free disk space and the data folder&apos;s permissions, then restart the app.</source>
        <translation>Compruebe el espacio libre en disco y los permisos de la carpeta de datos y reinicie la aplicación.</translation>
    </message>
    <message>
        <source>There is no verdict left to undo: the last one&apos;s undo window has passed.</source>
        <translation>No queda ningún veredicto por deshacer: el plazo para deshacer el último ya ha pasado.</translation>
    </message>
    <message>
        <source>This post is no longer waiting for a decision here.</source>
        <translation>Esta publicación ya no espera una decisión aquí.</translation>
    </message>
    <message>
        <source>It was decided already, or it left the worklist.</source>
        <translation>Ya se decidió o salió de la lista de trabajo.</translation>
    </message>
    <message>
        <source>{n} verdicts saved here have not been sent yet.</source>
        <translation>{n} veredictos guardados aquí aún no se han enviado.</translation>
    </message>
    <message>
        <source>1 verdict saved here has not been sent yet.</source>
        <translation>1 veredicto guardado aquí aún no se ha enviado.</translation>
    </message>
    <message>
        <source>Clearing the local data now would lose them.</source>
        <translation>Si borra ahora los datos locales, se perderán.</translation>
    </message>
    <message>
        <source>Connect to the server so they are sent, then try again.</source>
        <translation>Conéctese al servidor para que se envíen y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>What was written of it is incomplete.</source>
        <translation>Lo que se escribió de ella está incompleto.</translation>
    </message>
    <message>
        <source>Something went wrong{where}.</source>
        <translation>Algo salió mal{where}.</translation>
    </message>
    <message>
        <source>The app met an error it did not expect; the log has the details.</source>
        <translation>La aplicación encontró un error inesperado; el registro tiene los detalles.</translation>
    </message>
    <message>
        <source>Try again; if it keeps happening, restart the app and tell your administrator.</source>
        <translation>Inténtelo de nuevo; si sigue ocurriendo, reinicie la aplicación y avise a su administrador.</translation>
    </message>
</context>
<context>
    <name>Models</name>
    <message>
        <source>to review</source>
        <extracomment>the roles the worklist answers how many characters of a post the worklist&apos;s Item column shows the worklist&apos;s State and Sync columns: a word or two (their columns are narrow: the Item column takes the rest), each the whole cell&apos;s text (&quot;decided (keep)&quot; and &quot;waiting to send&quot; were cut to &quot;decide…&quot; and &quot;wait…&quot;); a decided row&apos;s action is in its tooltip</extracomment>
        <translation>por revisar</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>decidido</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>enviado</translation>
    </message>
    <message>
        <source>conflict</source>
        <translation>conflicto</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>omitido</translation>
    </message>
    <message>
        <source>to send</source>
        <translation>por enviar</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>rechazado</translation>
    </message>
    <message>
        <source>expired</source>
        <extracomment>a title longer than this (in characters) and of several words goes on more lines the most lines a column&apos;s title takes where a translation lets a long word break (&quot;Überein­stimmung&quot;), as in print</extracomment>
        <translation>caducada</translation>
    </message>
    <message>
        <source>Item</source>
        <extracomment>the translation context of ``HEADERS`` (each marked with ``QT_TRANSLATE_NOOP``) long titles of several words shown on two lines (``two_lines``): a table of many figures then fits its window (the Reviewers and Wellbeing tables scrolled sideways at 1280 px, each column as wide as its title on one line)</extracomment>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>Reserva</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>Sincr.</translation>
    </message>
    <message>
        <source>lost</source>
        <extracomment>a queue&apos;s action labels by its id (a decided row&apos;s action in its words) what the Item column shows of each item: its author and the start of its post (``describe``), kept for as long as the item is on the list each described item&apos;s author&apos;s handle (as given: isolate it to show it)</extracomment>
        <translation>perdida</translation>
    </message>
    <message>
        <source>, oldest {n} h</source>
        <translation>, la más antigua {n} h</translation>
    </message>
    <message>
        <source>, oldest {n} min</source>
        <translation>, la más antigua {n} min</translation>
    </message>
    <message>
        <source>{pending} waiting, {leased} being reviewed, {decided} decided today</source>
        <translation>{pending} en espera, {leased} en revisión, {decided} decididas hoy</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Su decisión</translation>
    </message>
    <message>
        <source>Decision that counts</source>
        <translation>Decisión que cuenta</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Por</translation>
    </message>
</context>
<context>
    <name>MyDecisions</name>
    <message>
        <source>today {time}</source>
        <extracomment>pages of 500 asked for at most (a shift&apos;s or a week&apos;s decisions of one reviewer) the periods, narrowest first, and how many days back the wider ones reach made this much earlier than it reached the service: offline work, said so</extracomment>
        <translation>hoy {time}</translation>
    </message>
    <message>
        <source>yesterday {time}</source>
        <translation>ayer {time}</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Aceptada</translation>
    </message>
    <message>
        <source>Confirmed in an audit</source>
        <translation>Confirmada en una auditoría</translation>
    </message>
    <message>
        <source>Overturned in an audit</source>
        <translation>Revocada en una auditoría</translation>
    </message>
    <message>
        <source>Appealed, waiting for a decision</source>
        <translation>Apelada, pendiente de decisión</translation>
    </message>
    <message>
        <source>Appealed and upheld</source>
        <translation>Apelada y confirmada</translation>
    </message>
    <message>
        <source>Reversed on appeal</source>
        <translation>Cambiada tras apelación</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>alguien</translation>
    </message>
    <message>
        <source>{at}: {who} overturned it in an audit to {action}.</source>
        <translation>{at}: {who} la revocó en una auditoría y la cambió a {action}.</translation>
    </message>
    <message>
        <source>{at}: {who} agreed with it in an audit.</source>
        <translation>{at}: {who} la confirmó en una auditoría.</translation>
    </message>
    <message>
        <source>{at}: reversed on appeal to {action}.</source>
        <translation>{at}: cambiada tras apelación a {action}.</translation>
    </message>
    <message>
        <source>{at}: the appeal was decided and it stands.</source>
        <translation>{at}: se resolvió la apelación y la decisión se mantiene.</translation>
    </message>
    <message>
        <source>{at}: the user appealed it.</source>
        <translation>{at}: el usuario la apeló.</translation>
    </message>
    <message>
        <source>{at}: a note from {who}.</source>
        <translation>{at}: una nota de {who}.</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>Nota: {note}</translation>
    </message>
    <message>
        <source>The post: {text}</source>
        <translation>La publicación: {text}</translation>
    </message>
    <message>
        <source>Escalated — the lead decided: {action}</source>
        <translation>Escalada: la responsable decidió: {action}</translation>
    </message>
    <message>
        <source>Escalated, waiting for a lead</source>
        <translation>Escalada, a la espera de una responsable</translation>
    </message>
    <message>
        <source>{time}, {queue}: you decided {action}.</source>
        <translation>{time}, {queue}: decisión propia: {action}.</translation>
    </message>
    <message>
        <source>Sent later: it reached the service {time}.</source>
        <translation>Enviada más tarde: llegó al servicio {time}.</translation>
    </message>
    <message>
        <source>Conflict: another decision counts</source>
        <translation>Conflicto: cuenta otra decisión</translation>
    </message>
    <message>
        <source>{time}, {queue}: you decided {mine}, but {who} had decided {theirs} first; theirs counts.</source>
        <translation>{time}, {queue}: decisión propia: {mine}, pero {who} había decidido antes {theirs}; cuenta la suya.</translation>
    </message>
    <message>
        <source>Not sent yet</source>
        <translation>Aún no enviada</translation>
    </message>
    <message>
        <source>Refused: {why}</source>
        <translation>Rechazada: {why}</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>Decidida</translation>
    </message>
    <message>
        <source>Post</source>
        <translation>Publicación</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Cola</translation>
    </message>
    <message>
        <source>Your decision</source>
        <translation>Decisión propia</translation>
    </message>
    <message>
        <source>What became of it</source>
        <translation>Qué pasó con ella</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Nota</translation>
    </message>
    <message>
        <source>My decisions</source>
        <translation>Mis decisiones</translation>
    </message>
    <message>
        <source>Which decisions</source>
        <translation>Qué decisiones</translation>
    </message>
    <message>
        <source>The last {n} days</source>
        <translation>Los últimos {n} días</translation>
    </message>
    <message>
        <source>This shift (since {time})</source>
        <translation>Este turno (desde {time})</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Select a decision to read what became of it.</source>
        <translation>Seleccionar una decisión para ver qué pasó con ella.</translation>
    </message>
    <message>
        <source>My decisions status</source>
        <translation>Estado de Mis decisiones</translation>
    </message>
    <message>
        <source>Your own decisions and what became of each: audits, appeals, conflicts and notes from your leads. Bold rows were overturned or carry a note.</source>
        <translation>Las decisiones propias y qué pasó con cada una: auditorías, apelaciones, conflictos y notas de los responsables. Las filas en negrita se revocaron o llevan una nota.</translation>
    </message>
    <message>
        <source>Loading your decisions…</source>
        <translation>Cargando las decisiones propias…</translation>
    </message>
    <message>
        <source>1 decision.</source>
        <translation>1 decisión.</translation>
    </message>
    <message>
        <source>{n} decisions.</source>
        <translation>{n} decisiones.</translation>
    </message>
    <message>
        <source>Only the newest are shown.</source>
        <translation>Solo se muestran las más recientes.</translation>
    </message>
    <message>
        <source>loading your decisions</source>
        <translation>cargar sus decisiones</translation>
    </message>
    <message>
        <source>Your decisions on the service could not be read: {why} Shown: what this computer holds (conflicts, verdicts not sent yet or refused).</source>
        <translation>No se pudieron leer tus decisiones en el servicio: {why} Se muestra lo que guarda este ordenador (conflictos, veredictos aún no enviados o rechazados).</translation>
    </message>
    <message>
        <source>Feedback on earlier decisions is not in this list: choose a longer period to read it.</source>
        <translation>Los comentarios sobre decisiones anteriores no están en esta lista: elige un periodo más largo para leerlos.</translation>
    </message>
    <message>
        <source>1 of your decisions was overturned</source>
        <translation>1 decisión propia fue revocada</translation>
    </message>
    <message>
        <source>{n} of your decisions were overturned</source>
        <translation>{n} decisiones propias fueron revocadas</translation>
    </message>
    <message>
        <source>1 note from a lead came</source>
        <translation>1 nota de un responsable ha llegado</translation>
    </message>
    <message>
        <source>{n} notes from a lead came</source>
        <translation>{n} notas de un responsable han llegado</translation>
    </message>
    <message>
        <source> and </source>
        <translation> y </translation>
    </message>
    <message>
        <source>since {time}</source>
        <translation>desde {time}</translation>
    </message>
    <message>
        <source>Open My decisions ({keys}) to read them.</source>
        <translation>Abrir Mis decisiones ({keys}) para leerlas.</translation>
    </message>
    <message>
        <source>Feedback on your decisions</source>
        <extracomment>the key that opens My decisions now (the reviewer may have changed it)</extracomment>
        <translation>Comentarios sobre las decisiones propias</translation>
    </message>
    <message>
        <source>Feedback notice</source>
        <translation>Aviso de comentarios</translation>
    </message>
    <message>
        <source>Open My decisions</source>
        <translation>Abrir Mis decisiones</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Más tarde</translation>
    </message>
</context>
<context>
    <name>Plain</name>
    <message>
        <source>{n} d ago</source>
        <extracomment>Characters that change the direction of text or hide themselves, by Unicode property: every default-ignorable code point (soft hyphen, joiners, fillers, variation selectors, tags...) and every bidi control. A zero-width joiner between two pictographs and a variation selector after an emoji are spared: they make one emoji (&quot;👩‍💻&quot;, &quot;❤️&quot;). What ``isolate`` puts around every untrusted string it embeds: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so the string takes its own direction and cannot reorder the app&apos;s words around it (numbers after a Hebrew queue name, &quot;waiting&quot; after an override). bidi marks, embeddings and overrides (a tooltip keeps the isolates ``isolate`` adds) the widest a text from the wire (an action&apos;s label, a queue&apos;s name) makes a button, a combo or a table column: longer ones are elided, the whole text in the tooltip. A window&apos;s minimum size never depends on data. how many characters of a name a combo box is sized for, whatever its items the widths ``fit_columns`` gave a header&apos;s columns that only a reader resizes (not the last, which may stretch, nor one that takes the spare width: ``stretch_column``)</extracomment>
        <translation>hace {n} d</translation>
    </message>
    <message>
        <source>{n} h ago</source>
        <translation>hace {n} h</translation>
    </message>
    <message>
        <source>{n} min ago</source>
        <translation>hace {n} min</translation>
    </message>
    <message>
        <source>{n} s ago</source>
        <translation>hace {n} s</translation>
    </message>
</context>
<context>
    <name>PostPane</name>
    <message>
        <source>Post text</source>
        <extracomment>Longer texts show this much first; the rest on request (layout of a huge block is slow). of a post&apos;s text, what fills the box (``PostText.first_screen``; at most this much) is in it before the next post is painted; the rest (up to DISPLAY_LIMIT) is added right after that paint. Qt lays out what is put in, a screen from its end and one from its start, and at the 1280 x 860 window&apos;s box (about 350 characters shown) putting 3,000 characters in took 0.5-0.6 ms of a keypress and at least this much (a box not laid out yet) the post box&apos;s preferred height: the lines its text takes, within these bounds (it grows into the room its pane has to spare) a whole long text is in (it is added in batches)</extracomment>
        <translation>Texto de la publicación</translation>
    </message>
    <message>
        <source>the decision on this account</source>
        <extracomment>the lines the box asks for (``fit_lines``), and whether it holds the whole text</extracomment>
        <translation>la decisión sobre esta cuenta</translation>
    </message>
    <message>
        <source>the decision on this post</source>
        <translation>la decisión sobre esta publicación</translation>
    </message>
    <message>
        <source>Appeal {id} of {subject}</source>
        <translation>Recurso {id} contra {subject}</translation>
    </message>
    <message>
        <source>Action on the account: {action}</source>
        <translation>Medida sobre la cuenta: {action}</translation>
    </message>
    <message>
        <source>Reviewer&apos;s note: {note}</source>
        <translation>Nota del revisor: {note}</translation>
    </message>
    <message>
        <source>Outcome: {outcome}</source>
        <translation>Resultado: {outcome}</translation>
    </message>
    <message>
        <source>upheld</source>
        <translation>confirmada</translation>
    </message>
    <message>
        <source>reversed</source>
        <translation>revocada</translation>
    </message>
    <message>
        <source>ended when the platform withdrew the post</source>
        <translation>terminada cuando la plataforma retiró la publicación</translation>
    </message>
    <message>
        <source>The statement of reasons the user was given:</source>
        <translation>La declaración de motivos que recibió el usuario:</translation>
    </message>
    <message>
        <source>Post</source>
        <extracomment>a queue&apos;s name by its id (the queue list&apos;s), for the escalation banner</extracomment>
        <translation>Publicación</translation>
    </message>
    <message>
        <source>Author and time</source>
        <translation>Autor y hora</translation>
    </message>
    <message>
        <source>Author&apos;s account status</source>
        <translation>Estado de la cuenta del autor</translation>
    </message>
    <message>
        <source>Language and reach</source>
        <translation>Idioma y alcance</translation>
    </message>
    <message>
        <source>Why it was escalated</source>
        <translation>Por qué se escaló</translation>
    </message>
    <message>
        <source>The appeal</source>
        <translation>El recurso</translation>
    </message>
    <message>
        <source>Show the whole text</source>
        <translation>Mostrar todo el texto</translation>
    </message>
    <message>
        <source>Link preview</source>
        <translation>Vista previa del enlace</translation>
    </message>
    <message>
        <source>Open link in browser…</source>
        <translation>Abrir enlace en el navegador…</translation>
    </message>
    <message>
        <source>Open the post&apos;s link in the system browser</source>
        <translation>Abrir el enlace de la publicación en el navegador del sistema</translation>
    </message>
    <message>
        <source>No post to review.</source>
        <extracomment>the post is never narrower than this many of its average characters a line</extracomment>
        <translation>No hay publicaciones que revisar.</translation>
    </message>
    <message>
        <source>✓ verified</source>
        <translation>✓ verificado</translation>
    </message>
    <message>
        <source>Show the whole text (%Ln more character(s))</source>
        <translation>Mostrar todo el texto (%Ln carácter más)|Mostrar todo el texto (%Ln caracteres más)</translation>
    </message>
    <message>
        <source>The text holds %Ln invisible or direction-changing character(s).</source>
        <translation>El texto contiene %Ln carácter invisible o que cambia la dirección.|El texto contiene %Ln caracteres invisibles o que cambian la dirección.</translation>
    </message>
    <message>
        <source>Language: {language} · {views} views · {shares} shares · {recent} views in the last hour ({growth}/h)</source>
        <translation>Idioma: {language} · {views} visualizaciones · {shares} veces compartido · {recent} visualizaciones en la última hora ({growth}/h)</translation>
    </message>
    <message>
        <source>Contested: {action} {policies} by {reviewer}, {time}</source>
        <translation>Impugnada: {action} {policies} por {reviewer}, {time}</translation>
    </message>
    <message>
        <source>The user wrote ({time}):</source>
        <translation>La persona usuaria escribió ({time}):</translation>
    </message>
    <message>
        <source>posted {ago} ({time})</source>
        <translation>publicado {ago} ({time})</translation>
    </message>
    <message>
        <source>Link: {domain} — {title}</source>
        <translation>Enlace: {domain} — {title}</translation>
    </message>
    <message>
        <source>Post address: {url}</source>
        <translation>Dirección de la publicación: {url}</translation>
    </message>
</context>
<context>
    <name>QueuePicker</name>
    <message>
        <source>{pending} waiting, {others} waiting for someone else, {leased} being reviewed, {decided} decided today</source>
        <translation>{pending} en espera, {others} en espera para otra persona, {leased} en revisión, {decided} decididas hoy</translation>
    </message>
    <message>
        <source>last known counts</source>
        <translation>últimas cifras conocidas</translation>
    </message>
    <message>
        <source>counts as of {time}</source>
        <translation>cifras actualizadas: {time}</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s). An appeal never goes to whoever decided or escalated the post before.</source>
        <translation>En espera en {queue} para otra persona: %Ln publicación(es). Una apelación nunca va a quien decidió o escaló la publicación antes.</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s), assigned to another lead.</source>
        <translation>En espera en {queue} para otra persona: %Ln publicación(es), asignadas a otro responsable.</translation>
    </message>
    <message>
        <source>Waiting in {queue} for someone else: %Ln post(s).</source>
        <translation>En espera en {queue} para otra persona: %Ln publicación(es).</translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message>
        <source>a policy code</source>
        <translation>un código de política</translation>
    </message>
    <message>
        <source>a fact-check rating</source>
        <translation>una calificación de verificación</translation>
    </message>
    <message>
        <source>a note</source>
        <translation>una nota</translation>
    </message>
    <message>
        <source>press P, move with the arrows and tick with Space</source>
        <translation>pulse P, muévase con las flechas y marque con Espacio</translation>
    </message>
    <message>
        <source>press R and pick one with the arrows</source>
        <translation>pulse R y elija una con las flechas</translation>
    </message>
    <message>
        <source>press N and write it</source>
        <translation>pulse N y escríbala</translation>
    </message>
    <message>
        <source> and </source>
        <translation> y </translation>
    </message>
    <message>
        <source>{action} needs {words}: {how}. Then Ctrl+Enter. Esc cancels.</source>
        <translation>{action} necesita {words}: {how}. Luego Ctrl+Intro. Esc cancela.</translation>
    </message>
    <message>
        <source>{action} needs {words}: {how}. Then Ctrl+Enter.</source>
        <translation>{action} necesita {words}: {how}. Luego Ctrl+Intro.</translation>
    </message>
    <message>
        <source>The post you were looking at was taken back by the server (its lease ended and someone else has it now). Here is the next one.</source>
        <extracomment>E (or the escalate button): the window asks for a reason (ActionConfig, reasons) where the items come from and the verdicts go an item to show before the others once it is here (a lead&apos;s picked escalation)</extracomment>
        <translation>El servidor retiró la publicación que estaba viendo (su reserva terminó y ahora la tiene otra persona). Aquí está la siguiente.</translation>
    </message>
    <message>
        <source>Withdrawn by the platform: the post you were looking at was deleted or made private upstream, so it needs no verdict. Here is the next one.</source>
        <translation>Retirada por la plataforma: la publicación que estaba viendo se borró o se hizo privada en origen, así que no necesita veredicto. Aquí tiene la siguiente.</translation>
    </message>
    <message>
        <source>Resolved: {why}. The post you were looking at was closed by that account action, so it needs no verdict. Here is the next one.</source>
        <translation>Resuelto: {why}. La publicación que estaba viendo se cerró por esa acción sobre la cuenta, así que no necesita veredicto. Aquí está la siguiente.</translation>
    </message>
    <message>
        <source>Post {item} needs no verdict from you now (decided, skipped or taken back); the post on screen stays.</source>
        <translation>La publicación {item} ya no necesita una decisión (decidida, omitida o retirada); la publicación en pantalla se mantiene.</translation>
    </message>
    <message>
        <source>This queue has no escalation action.</source>
        <translation>Esta cola no tiene acción de escalado.</translation>
    </message>
    <message>
        <source>The verdict could not be saved.</source>
        <extracomment>why this desk cannot escalate (None: it can)</extracomment>
        <translation>No se pudo guardar el veredicto.</translation>
    </message>
    <message>
        <source>The verdict could not be saved: it breaks the rules for verdicts (a note may be too long, or hold characters that are not allowed).</source>
        <translation>No se pudo guardar el veredicto: incumple las reglas de los veredictos (puede que una nota sea demasiado larga o contenga caracteres no permitidos).</translation>
    </message>
</context>
<context>
    <name>Scores</name>
    <message>
        <source>Classifier scores</source>
        <translation>Puntuaciones de clasificadores</translation>
    </message>
    <message>
        <source>No classifier scores for this post.</source>
        <translation>No hay puntuaciones de clasificadores para esta publicación.</translation>
    </message>
    <message>
        <source>OVER</source>
        <translation>SUPERA</translation>
    </message>
    <message>
        <source>{label} by {model} {version}: score {score}, threshold {threshold}, over the threshold</source>
        <translation>{label} según {model} {version}: puntuación {score}, umbral {threshold}, por encima del umbral</translation>
    </message>
    <message>
        <source>{label} by {model} {version}: score {score}, threshold {threshold}, under the threshold</source>
        <translation>{label} según {model} {version}: puntuación {score}, umbral {threshold}, por debajo del umbral</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>Decide with the action that shows this key</source>
        <translation>Decidir con la acción que muestra esta tecla</translation>
    </message>
    <message>
        <source>Escalate to a lead</source>
        <extracomment>Every command, in the order the shortcuts list shows them.</extracomment>
        <translation>Escalar a un responsable</translation>
    </message>
    <message>
        <source>Switch to queue {n} of the queue list</source>
        <extracomment>the default keys, in Qt&apos;s portable text (&quot;Ctrl+Return&quot;) what it does (translated in the &quot;Shortcuts&quot; context) a Qt shortcut (a menu action&apos;s, or the Lead workspace&apos;s): Qt&apos;s shortcut map triggers it, not the key filter may fire while a text field has focus (only keys with Ctrl or Alt, Esc or F1…F35) only leads and admins have it</extracomment>
        <translation>Cambiar a la cola {n} de la lista de colas</translation>
    </message>
    <message>
        <source>Lead workspace: open saved view {n} (the Search tab&apos;s picker)</source>
        <translation>Espacio de responsables: abrir la vista guardada {n} (selector de la pestaña Búsqueda)</translation>
    </message>
    <message>
        <source>Skip: give the post back</source>
        <translation>Omitir: devolver la publicación</translation>
    </message>
    <message>
        <source>Take a break: give back your posts and pause (the same key resumes)</source>
        <translation>Tomar una pausa: devolver las publicaciones propias y pausar (la misma tecla reanuda)</translation>
    </message>
    <message>
        <source>Choose policy codes (arrows move, Space ticks)</source>
        <translation>Elegir códigos de política (las flechas mueven, Espacio marca)</translation>
    </message>
    <message>
        <source>Choose a fact-check rating</source>
        <translation>Elegir una calificación de verificación</translation>
    </message>
    <message>
        <source>Write a note</source>
        <translation>Escribir una nota</translation>
    </message>
    <message>
        <source>Submit the verdict waiting for a policy, rating or note</source>
        <translation>Enviar la decisión que espera una política, valoración o nota</translation>
    </message>
    <message>
        <source>Undo the last verdict (within its undo window)</source>
        <translation>Deshacer la última decisión (dentro de su plazo para deshacer)</translation>
    </message>
    <message>
        <source>Reveal or hide the media</source>
        <translation>Mostrar u ocultar los medios</translation>
    </message>
    <message>
        <source>View the media large (arrows: previous, next; + and -: zoom)</source>
        <translation>Ver los medios en grande (flechas: anterior, siguiente; + y -: zoom)</translation>
    </message>
    <message>
        <source>Switch to the next queue</source>
        <translation>Cambiar a la cola siguiente</translation>
    </message>
    <message>
        <source>Switch to the previous queue</source>
        <translation>Cambiar a la cola anterior</translation>
    </message>
    <message>
        <source>Next pane: worklist, post, context, verdict bar (Shift: previous)</source>
        <translation>Panel siguiente: lista de trabajo, publicación, contexto, barra de decisión (Shift: anterior)</translation>
    </message>
    <message>
        <source>Previous pane</source>
        <translation>Panel anterior</translation>
    </message>
    <message>
        <source>Go to the worklist (arrows choose, that post opens)</source>
        <translation>Ir a la lista de trabajo (las flechas eligen, se abre esa publicación)</translation>
    </message>
    <message>
        <source>Go to the post&apos;s text</source>
        <translation>Ir al texto de la publicación</translation>
    </message>
    <message>
        <source>Go to the context tabs</source>
        <translation>Ir a las pestañas de contexto</translation>
    </message>
    <message>
        <source>Go to the verdict bar</source>
        <translation>Ir a la barra de decisión</translation>
    </message>
    <message>
        <source>Next context tab (in the Lead workspace: its next tab)</source>
        <translation>Pestaña de contexto siguiente (en el espacio de responsables: su pestaña siguiente)</translation>
    </message>
    <message>
        <source>Previous context tab (or Lead workspace tab)</source>
        <translation>Pestaña de contexto anterior (o pestaña del espacio de responsables)</translation>
    </message>
    <message>
        <source>My decisions: what became of yours (audits, appeals, leads&apos; notes)</source>
        <translation>Mis decisiones: qué pasó con las propias (auditorías, apelaciones, notas de responsables)</translation>
    </message>
    <message>
        <source>Settings (and this list&apos;s keys: Shortcuts)</source>
        <translation>Configuración (y las teclas de esta lista: Atajos)</translation>
    </message>
    <message>
        <source>Review (leads and admins)</source>
        <translation>Revisión (responsables y administradores)</translation>
    </message>
    <message>
        <source>Lead workspace (Tab moves through it, Enter opens the row)</source>
        <translation>Espacio de responsables (Tab lo recorre, Enter abre la fila)</translation>
    </message>
    <message>
        <source>Decide: {action}</source>
        <translation>Decidir: {action}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>Press one key, with or without modifiers.</source>
        <extracomment>modifiers that say nothing about which command a key is</extracomment>
        <translation>Pulsar una tecla, con o sin modificadores.</translation>
    </message>
    <message>
        <source>{key} moves through the window and opens rows: choose another.</source>
        <translation>{key} recorre la ventana y abre filas: elegir otra.</translation>
    </message>
    <message>
        <source>{key} is already the key of “{command}”.</source>
        <translation>{key} ya es la tecla de “{command}”.</translation>
    </message>
    <message>
        <source>{key} is already the key of the action “{action}” in the queue {queue}.</source>
        <translation>{key} ya es la tecla de la acción “{action}” en la cola {queue}.</translation>
    </message>
    <message>
        <source>1 … 9</source>
        <translation>1 … 9</translation>
    </message>
    <message>
        <source>Cancel that verdict</source>
        <translation>Cancelar ese veredicto</translation>
    </message>
    <message>
        <source>Work offline: lease a batch to review without a network</source>
        <translation>Trabajar sin conexión: reservar un lote para revisar sin red</translation>
    </message>
    <message>
        <source>Open conflicts</source>
        <translation>Abrir conflictos</translation>
    </message>
    <message>
        <source>Quit (asks first if verdicts are not sent yet)</source>
        <translation>Salir (pregunta antes si hay veredictos sin enviar)</translation>
    </message>
    <message>
        <source>This list</source>
        <translation>Esta lista</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <extracomment>a row: (&quot;command&quot;, Command) or (&quot;action&quot;, queue id, action id)</extracomment>
        <translation>Atajos</translation>
    </message>
    <message>
        <source>Commands and their keys</source>
        <translation>Comandos y sus teclas</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Comando</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Tecla</translation>
    </message>
    <message>
        <source>Choose a command and press Enter, then the new key. Tab leaves the key field.</source>
        <translation>Elegir un comando y pulsar Enter, luego la nueva tecla. Tab sale del campo de tecla.</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>Qué hacer</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Nueva tecla</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Último cambio</translation>
    </message>
    <message>
        <source>Reset this key</source>
        <translation>Restablecer esta tecla</translation>
    </message>
    <message>
        <source>Reset all keys</source>
        <translation>Restablecer todas las teclas</translation>
    </message>
    <message>
        <source>New key:</source>
        <translation>Nueva tecla:</translation>
    </message>
    <message>
        <source>{queue}: {action}</source>
        <translation>{queue}: {action}</translation>
    </message>
    <message>
        <source>(yours)</source>
        <translation>(propia)</translation>
    </message>
    <message>
        <source>Press the new key for “{command}”.</source>
        <translation>Pulsar la nueva tecla para “{command}”.</translation>
    </message>
    <message>
        <source>{key} is now the key of “{command}”.</source>
        <translation>{key} es ahora la tecla de “{command}”.</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation>No se cambió nada.</translation>
    </message>
    <message>
        <source>“{command}” has its default key again.</source>
        <translation>“{command}” vuelve a tener su tecla predeterminada.</translation>
    </message>
    <message>
        <source>Every key is back to its default.</source>
        <translation>Todas las teclas vuelven a su valor predeterminado.</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <source>Verdict</source>
        <extracomment>Actions that take a post down or act on its author: their buttons look different ... in red type with a red edge, in light and dark palettes alike (theme.Tone.destructive) What the reviewer can give for each problem code of the rule (the rest are refusals or a config the reviewer cannot change).</extracomment>
        <translation>Veredicto</translation>
    </message>
    <message>
        <source>What the verdict still needs</source>
        <extracomment>the ratings fact-checkers gave the item on screen, and the one the rating starts at the action chosen last (bold), whose statement of reasons is shown</extracomment>
        <translation>Lo que aún necesita el veredicto</translation>
    </message>
    <message>
        <source>Policy codes (P; arrows, Space to tick)</source>
        <extracomment>the action buttons, in as many rows as the bar&apos;s width needs (``_arrange``)</extracomment>
        <translation>Códigos de política (P; flechas, Espacio para marcar)</translation>
    </message>
    <message>
        <source>Fact-check rating (R)</source>
        <translation>Calificación de verificación (R)</translation>
    </message>
    <message>
        <source>Note (N; Ctrl+Enter submits)</source>
        <translation>Nota (N; Ctrl+Intro envía)</translation>
    </message>
    <message>
        <source>Note (N to write, Ctrl+Enter to submit)</source>
        <translation>Nota (N para escribir, Ctrl+Intro para enviar)</translation>
    </message>
    <message>
        <source>Policy codes (P):</source>
        <translation>Códigos de política (P):</translation>
    </message>
    <message>
        <source>Rating (R):</source>
        <translation>Calificación (R):</translation>
    </message>
    <message>
        <source>What the fact-checkers said, for the label actions</source>
        <translation>Lo que dijeron los verificadores, para las acciones de etiquetado</translation>
    </message>
    <message>
        <source>Note (N):</source>
        <translation>Nota (N):</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons):</source>
        <translation>Lo que leerá el autor (exposición de motivos):</translation>
    </message>
    <message>
        <source>What the author will read (statement of reasons)</source>
        <translation>Lo que leerá el autor (exposición de motivos)</translation>
    </message>
    <message>
        <source>a policy code</source>
        <translation>un código de política</translation>
    </message>
    <message>
        <source>a rating</source>
        <translation>una calificación</translation>
    </message>
    <message>
        <source>a note</source>
        <translation>una nota</translation>
    </message>
    <message>
        <source>{action}, key {key}</source>
        <translation>{action}, tecla {key}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>, needs {what}</source>
        <translation>, necesita {what}</translation>
    </message>
    <message>
        <source> and </source>
        <translation> y </translation>
    </message>
    <message>
        <source>(no rating)</source>
        <translation>(sin calificación)</translation>
    </message>
    <message>
        <source>{rating} (fact-checkers&apos;)</source>
        <translation>{rating} (de los verificadores)</translation>
    </message>
    <message>
        <source>No fact-check on this post: the label actions need one.</source>
        <translation>Esta publicación no tiene verificación: las acciones de etiquetado la necesitan.</translation>
    </message>
    <message>
        <source>Fact-checkers rated this post: {ratings}. A label starts with {preset}; another rating needs a note.</source>
        <translation>Los verificadores calificaron esta publicación: {ratings}. Una etiqueta empieza con {preset}; otra calificación necesita una nota.</translation>
    </message>
    <message>
        <source>Fact-checkers rated this post: {ratings} (none of them on this queue&apos;s scale). A label needs a rating and a note.</source>
        <translation>Los verificadores calificaron esta publicación: {ratings} (ninguna en la escala de esta cola). Una etiqueta necesita una calificación y una nota.</translation>
    </message>
    <message>
        <source>{action} is not available: no fact-checker has rated this post, and a label needs a fact-check.</source>
        <translation>{action} no está disponible: ningún verificador ha calificado esta publicación, y una etiqueta necesita una verificación.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled and reduced: use {action} (key {key}) or choose another rating.</source>
        <translation>Las calificaciones «{rating}» se etiquetan y se reduce su difusión: use {action} (tecla {key}) o elija otra calificación.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled and reduced: choose another rating.</source>
        <translation>Las calificaciones «{rating}» se etiquetan y se reduce su difusión: elija otra calificación.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled, not reduced: use {action} (key {key}) or choose a rating that reduces.</source>
        <translation>Las calificaciones «{rating}» solo se etiquetan, sin reducir su difusión: use {action} (tecla {key}) o elija una calificación que reduzca la difusión.</translation>
    </message>
    <message>
        <source>{rating} ratings are labelled, not reduced: choose a rating that reduces.</source>
        <translation>Las calificaciones «{rating}» solo se etiquetan, sin reducir su difusión: elija una calificación que reduzca la difusión.</translation>
    </message>
    <message>
        <source>No fact-checker gave this post the rating {rating}: keep theirs, or say in a note why yours differs.</source>
        <translation>Ningún verificador dio a esta publicación la calificación {rating}: mantenga la suya o explique en una nota por qué la de usted es distinta.</translation>
    </message>
    <message>
        <source>Choose an action: the statement of reasons the author will read shows here before you submit.</source>
        <translation>Elija una acción: la exposición de motivos que leerá el autor aparece aquí antes de enviar.</translation>
    </message>
    <message>
        <source>{action} restricts nothing: the author gets no statement of reasons.</source>
        <translation>{action} no restringe nada: el autor no recibe exposición de motivos.</translation>
    </message>
</context>
<context>
    <name>Wellbeing</name>
    <message>
        <source>Break reminder</source>
        <translation>Recordatorio de pausa</translation>
    </message>
    <message>
        <source>Take a break (B)</source>
        <translation>Tomar una pausa (B)</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Más tarde</translation>
    </message>
    <message>
        <source>You have reviewed %Ln post(s) with graphic or distressing content since your last break. Time for a short break?</source>
        <translation>Desde la última pausa se ha revisado %Ln publicación con contenido gráfico o perturbador. ¿Es hora de una breve pausa?|Desde la última pausa se han revisado %Ln publicaciones con contenido gráfico o perturbador. ¿Es hora de una breve pausa?</translation>
    </message>
    <message>
        <source>You have been reviewing for %Ln minute(s). Time for a short break?</source>
        <translation>Lleva %Ln minuto revisando. ¿Es hora de una breve pausa?|Lleva %Ln minutos revisando. ¿Es hora de una breve pausa?</translation>
    </message>
    <message>
        <source>Take a break ({key})</source>
        <translation>Tomar una pausa ({key})</translation>
    </message>
    <message>
        <source>On a break</source>
        <translation>En pausa</translation>
    </message>
    <message>
        <source>Resume reviewing (B)</source>
        <translation>Reanudar la revisión (B)</translation>
    </message>
    <message>
        <source>Since {time}. The posts you held were given back to the queue and nothing is leased for you until you resume. Step away from the screen for a while.</source>
        <translation>Desde {time}. Las publicaciones reservadas se devolvieron a la cola y no se reserva nada hasta reanudar. Alejarse un rato de la pantalla.</translation>
    </message>
    <message>
        <source>Resume reviewing ({key})</source>
        <translation>Reanudar la revisión ({key})</translation>
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
