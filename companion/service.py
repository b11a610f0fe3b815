"""Running the companion: the session, its log, and the web server, started and stopped as one."""

from __future__ import annotations

import logging
import secrets
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from waitress.server import create_server

from companion.config import WebConfig
from companion.session import Session

log = logging.getLogger(__name__)


def new_pin() -> str:
    """A six-digit referee PIN, printed at start-up."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class WebServer:
    """Waitress serving the Flask app in a thread: one thread per open scoreboard stream."""

    server: Any
    thread: threading.Thread
    app: Any

    @property
    def url(self) -> str:
        host, port = self.server.effective_host, self.server.effective_port
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{shown}:{port}/"

    def close(self) -> None:
        """End every stream, close every connection, stop the worker threads."""
        from web import broadcaster

        broadcaster(self.app).shutdown()
        self.server.close()
        for channel in list(self.server._map.values()):
            channel.close()
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        self.thread.join(5)
        if self.thread.is_alive():
            log.warning("the web server thread did not stop within 5 s")


def table_secret(path: Path) -> bytes:
    """The table's secret for player links: made once, kept beside the log (mode 0600)."""
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    data = secrets.token_bytes(32)
    path.touch(mode=0o600)
    path.write_bytes(data)
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
        ident="table-companion",
    )
    thread = threading.Thread(target=server.run, name="web", daemon=True)
    thread.start()
    log.info("serving on %s:%s with %d threads", web.host, web.port, web.threads)
    return WebServer(server, thread, app)


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
