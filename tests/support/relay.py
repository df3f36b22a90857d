"""A TCP relay between the service and a database on 127.0.0.1 that can be told to hold
(a frozen host) or cut (a host gone): the faults a real replica cannot be made to give on
demand, made by a real part."""

from __future__ import annotations

import contextlib
import socket
import threading


class Relay:
    """A TCP relay to ``port`` on 127.0.0.1. ``hold`` makes every connection open at that
    moment stop forwarding, for good, without closing it: the relay's kernel still
    acknowledges what is sent, and nothing comes back (a frozen replica); connections made
    afterwards pass. ``cut`` drops every connection and refuses new ones."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.sockets: list[socket.socket] = []
        self.held: set[int] = set()  # connections (by number) held
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                return
            with self.lock:
                number = len(self.sockets) // 2
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(number, a, b), daemon=True).start()

    def _pipe(self, number: int, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if number not in self.held:  # a held connection's bytes are dropped
                    dst.sendall(data)

    def hold(self) -> None:
        with self.lock:
            self.held.update(range(len(self.sockets) // 2))

    def cut(self) -> None:
        self.listener.close()
        with self.lock:
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
