"""A TCP relay in front of a server that a test can cut, as a network partition would, heal,
or freeze: a frozen line stays open and says nothing either way, as one whose far end paused
or vanished without closing it (lines opened after the freeze pass as usual)."""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["Relay"]


class Relay:
    """Relays what reaches 127.0.0.1::attr:`port` to ``(host, port)``."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.open = True
        self.sockets: list[socket.socket] = []
        self.frozen: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                if a not in self.frozen:  # a frozen line's bytes are lost on the way
                    b.sendall(data)
        if a in self.frozen:
            return  # a frozen line is never closed by the relay
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def freeze(self) -> None:
        """Every line open now goes silent both ways, and stays open."""
        with self.lock:
            self.frozen.update(self.sockets)

    def cut(self) -> None:
        self.open = False
        with self.lock:
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.sockets.clear()
            self.frozen.clear()

    def heal(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()
        self.server.close()
