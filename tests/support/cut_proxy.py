"""A byte-for-byte TCP proxy that cuts every connection once a set number of reply bytes
has passed: a stream (chunked or not) broken off in the middle, as a dropped network or a
dying server leaves it. Unlike ``FaultProxy`` it does not parse HTTP at all."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading

from .proxy import FaultProxy


class CutProxy(FaultProxy):
    """``FaultProxy``'s listener (start, online/offline, stop) with a byte pipe per
    direction instead of its HTTP serving loop."""

    def __init__(self, upstream_port: int, *, cut_after: int, reset: bool = True) -> None:
        super().__init__(upstream_port)
        #: reply bytes passed on, per connection, before it is cut
        self.cut_after = cut_after
        #: cut with a TCP reset (True) or an orderly close (False)
        self.reset = reset
        self.cuts = 0

    def start(self) -> CutProxy:
        self.online()
        return self

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except OSError:
            client.close()
            return
        threading.Thread(target=self._pipe, args=(client, upstream, None), daemon=True).start()
        self._pipe(upstream, client, self.cut_after)

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
