"""A byte-for-byte TCP proxy that cuts every connection once a set number of reply bytes
has passed: a stream (chunked or not) broken off in the middle, as a dropped network or a
dying server leaves it. Unlike ``FaultProxy`` it does not parse HTTP at all."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading

from .servers import free_port


class CutProxy:
    def __init__(self, upstream_port: int, *, cut_after: int, reset: bool = True) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        #: reply bytes passed on, per connection, before it is cut
        self.cut_after = cut_after
        #: cut with a TCP reset (True) or an orderly close (False)
        self.reset = reset
        self.cuts = 0
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> CutProxy:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(64)
        self._listener = sock
        threading.Thread(target=self._accept, args=(sock,), daemon=True).start()
        return self

    def stop(self) -> None:
        sock, self._listener = self._listener, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._pipe, args=(client, upstream, None), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(upstream, client, self.cut_after), daemon=True
            ).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, limit: int | None) -> None:
        passed = 0
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if limit is not None and passed + len(data) > limit:
                    dst.sendall(data[: limit - passed])
                    with self._lock:
                        self.cuts += 1
                    break
                dst.sendall(data)
                passed += len(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        """Reset (SO_LINGER 0) or close (FIN). Shutting down the reading side first wakes
        the other pipe's thread blocked in recv() on it (close alone would not, on Linux,
        and the socket would stay open until that thread let go)."""
        with contextlib.suppress(OSError):
            if self.reset:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.shutdown(socket.SHUT_RD)
            else:
                sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()
