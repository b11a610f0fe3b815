"""Running the companion: the session, its log, and the web server, started and stopped as one."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from waitress.server import create_server

from companion.config import WebConfig
from companion.session import Session

log = logging.getLogger(__name__)


def new_pin() -> str:
    """A six-digit referee PIN, printed at start-up."""
    return f"{secrets.randbelow(10**6):06d}"


class WebServer:
    """Waitress serving the Flask app: its socket loop in one thread, a worker thread per open stream.

    The loop is driven here, one poll at a time, so that shutting down happens on the loop's own
    thread: closing sockets under a select() running in another thread is a race.
    """

    POLL_S = 0.2

    def __init__(self, app: Any, server: Any) -> None:
        self.app = app
        self.server = server
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)
        self.thread.start()

    def held_bytes(self) -> int:
        """Bytes waitress still holds for sockets whose clients have not read them (a backlog gauge)."""
        return sum(int(getattr(channel, "total_outbufs_len", 0)) for channel in list(self.server._map.values()))

    @property
    def url(self) -> str:
        host, port = self.server.effective_host, self.server.effective_port
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{shown}:{port}/"

    def _run(self) -> None:
        server = self.server
        try:
            while not self._stop.is_set() and server._map:
                server.asyncore.loop(timeout=self.POLL_S, map=server._map, count=1)
        finally:
            for channel in list(server._map.values()):
                if channel is not server.trigger and channel is not server:
                    channel.close()
            server.close()  # the listening socket and the trigger, once
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)

    def close(self) -> None:
        """End every stream, then stop the loop (which closes every connection) and the workers."""
        from web import broadcaster

        if self._stop.is_set():
            return
        hub = broadcaster(self.app)
        hub.shutdown()
        deadline = time.monotonic() + 2.0
        while hub.listeners and time.monotonic() < deadline:  # let streams say goodbye
            time.sleep(0.02)
        self._stop.set()
        self.thread.join(10)
        if self.thread.is_alive():
            log.warning("the web server thread did not stop within 10 s")


def table_secret(path: Path) -> bytes:
    """The table's secret for player links: made once, kept beside the log (mode 0600)."""
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            if path.stat().st_mode & 0o077:
                os.chmod(path, 0o600)  # made before secrets were kept private
            return data
    except FileNotFoundError:
        pass
    data = secrets.token_bytes(32)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a short file left from before may have been readable by others
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return data


def lan_url(host: str, port: int) -> str | None:
    """The address a phone on the table's network would use, when serving on every interface."""
    if host not in ("0.0.0.0", "", "::"):
        return f"http://{host}:{port}/"
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])
        if not address.startswith("127."):
            return f"http://{address}:{port}/"
    return None


def start_web(
    session: Session, web: WebConfig, pin: str, secret: bytes | None = None, public_url: str | None = None
) -> WebServer:
    from web import create_app

    app = create_app(session, {"REFEREE_PIN": pin, "TABLE_SECRET": secret, "PUBLIC_URL": public_url})
    server = create_server(
        app,
        host=web.host,
        port=web.port,
        threads=web.threads,
        # Streams are long-lived: do not let idle-connection cleanup cut a quiet scoreboard.
        channel_timeout=3600,
        # A stream's output buffer is only recycled at this mark, and keeps what it already sent
        # until then: waitress's 16 MB default would let every open scoreboard hold 16 MB.
        outbuf_high_watermark=64 * 1024,
        ident="table-companion",
    )
    log.info("serving on %s:%s with %d threads", web.host, web.port, web.threads)
    return WebServer(app, server)


def print_welcome(url: str, public: str | None, pin: str, players: tuple[str, ...], secret: bytes, game_id: str) -> None:
    """What the person starting the companion needs: the address (and its QR code), the PIN, the player links."""
    import segno

    from web.auth import player_token

    shown = public or url
    print(f"scoreboard: {shown}   (big screen: {shown}big)")
    try:
        segno.make(shown, error="m").terminal(compact=True)
    except (OSError, UnicodeEncodeError) as exc:  # a terminal that cannot draw it still gets the address
        log.info("no QR code on this terminal: %s", exc)
    print(f"referee PIN: {pin}   (console: {shown}referee)")
    for player in players:
        print(f"  {player}: {shown}p/{player}/{player_token(secret, game_id, player)}")
    sys.stdout.flush()
