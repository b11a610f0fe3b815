"""One table's companion, started and stopped as a whole: log, session, readers, camera, web.

``companion serve`` runs this; so do the service tests. Every part is optional but the session:
readers start when a zone names one, the camera when the config has ``[camera]``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from companion.config import TableConfig
from companion.core import JsonObject, Unexplained
from companion.errors import ConfigError, SetupError
from companion.games import get_game
from companion.log import GameLog
from companion.service import WebServer, lan_url, new_pin, start_web, table_secret
from companion.session import Session

log = logging.getLogger(__name__)

CAMERA_HEALTH_S = 2.0


class TableService:
    """The running companion for the table a config describes."""

    def __init__(self, config: TableConfig, pin: str | None = None) -> None:
        self.config = config
        self.game = get_game(config.header.game)
        self.log = GameLog(config.log_path)
        self.resumed = self.log.header() is not None
        try:
            self.session = Session(self.game, self.log, None if self.resumed else config.header)
        except SetupError as exc:
            self.log.close()
            raise ConfigError(f"{config.path}: game.setup: {exc}") from exc
        self.pin = pin or config.web.pin or new_pin()
        self.secret = table_secret(config.log_path.with_suffix(".secret"))
        self.public_url: str | None = None
        self.hardware: Any = None
        self.vision: Any = None
        self.web: WebServer | None = None
        self.publisher: Any = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> "TableService":
        self.session.start()
        if any(z.reader for z in self.config.zones):
            from hardware.service import TableHardware  # nfcpy and pyserial only for a table with readers

            self.hardware = TableHardware.from_config(
                self.config, self.session.submit, on_health=self.session.report_health, on_alert=self._alert
            )
            self.hardware.start()
        if self.config.camera is not None:
            self._start_camera()
        if self.config.broker is not None:
            from companion.publish import TablePublisher  # paho only for a table that publishes

            self.publisher = TablePublisher(self.session, self.config.broker).start()
        self.web = start_web(self.session, self.config.web, self.pin, self.secret)
        self.public_url = lan_url(self.config.web.host, int(self.web.server.effective_port))
        self.web.app.config["PUBLIC_URL"] = self.public_url  # the address the QR code carries
        return self

    def _alert(self, alert: Unexplained) -> None:
        # The observation itself reaches the session (and the log) with no card; this is the reader's count.
        log.warning("%s: %s (%s)", alert.zone, alert.what, alert.fix)

    def _start_camera(self) -> None:
        from vision.pipeline import VisionPipeline
        from vision.sources import open_source
        from vision.settings import VisionSettings

        camera = self.config.camera
        assert camera is not None
        settings = VisionSettings.from_mapping(camera.settings)
        self.vision = VisionPipeline(
            open_source(camera.source, clock=time.time), self.config.zones, settings, camera.players_by_colour
        )
        self._threads.append(self.vision.start(self.session.submit, self._stop))
        watcher = threading.Thread(target=self._watch_camera, name="camera-health", daemon=True)
        watcher.start()
        self._threads.append(watcher)

    def _watch_camera(self) -> None:
        while not self._stop.wait(CAMERA_HEALTH_S):
            health: JsonObject = self.vision.health().to_json()
            ok = health["camera"] == "ok" and health["calibrated"]
            status = "ok" if ok else ("reconnecting" if health["camera"] in ("lost", "starting") else "down")
            self.session.report_health("camera", {"status": status, "detail": health["message"], **health})

    def stop(self) -> None:
        self._stop.set()
        if self.publisher is not None:
            self.publisher.stop()
        if self.web is not None:
            self.web.close()
        if self.hardware is not None:
            self.hardware.stop()
        for thread in self._threads:
            thread.join(5)
        self.session.stop()
        self.log.close()
