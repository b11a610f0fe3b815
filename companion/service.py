"""Running the companion: the session, its log, and the web server, started and stopped as one."""

from __future__ import annotations

import logging
import secrets
import threading
from dataclasses import dataclass
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


def start_web(session: Session, web: WebConfig, pin: str) -> WebServer:
    from web import create_app

    app = create_app(session, {"REFEREE_PIN": pin})
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
