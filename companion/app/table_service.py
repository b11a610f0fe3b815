"""One table's companion, started and stopped as a whole: log, session, readers, camera, web.

``companion serve`` runs this; so do the service tests. Every part is optional but the session:
readers start when a zone names one, the camera when the config has ``[camera]``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from companion.app.config import TableConfig
from companion.core import Header, JsonObject, Observation, Unexplained
from companion.core.errors import ConfigError, SetupError
from companion.games import get_game
from companion.log.store import GameLog, LogRow
from companion.log.files import Choice, move_aside, open_for_serving, remember_console_game
from companion.app.service import WebServer, lan_url, new_pin, start_web, table_secret, write_access
from companion.referee.pending import PendingWatch
from companion.referee.session import Session
from companion.table.depth import StackAtDepth

log = logging.getLogger(__name__)

CAMERA_HEALTH_S = 2.0
PUBLISH_FLUSH_S = 2.0


class TableService:
    """The running companion for the table a config describes.

    The log is verified first: a broken one is refused unless ``continue_broken`` (then a new log
    carries on from its last good row), and a header that disagrees with the config is put to
    ``choose`` (resume, new game or quit); see :mod:`companion.log.files`.
    """

    def __init__(
        self,
        config: TableConfig,
        pin: str | None = None,
        choose: Callable[[list[str]], Choice] | None = None,
        new_game: bool = False,
        continue_broken: bool = False,
    ) -> None:
        self.config = config
        self.opened = open_for_serving(config.log_path, config.header, choose, new_game, continue_broken)
        self.log = self.opened.log
        self.resumed = self.log.header() is not None
        stored = self.log.header()
        self.game = get_game(stored.game if stored is not None else config.header.game)
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
        self.lights: Any = None  # companion.app.lights.TableLights, for a table with [feedback] lights
        self.audio: Any = None  # companion.app.voice.TableAudio, for a table with [feedback] tones or speech
        self.pending = PendingWatch(lambda: self.session, config.pending_timeout_s)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> "TableService":
        self.session.start()
        self.pending.start()
        if any(z.reader for z in self.config.zones):
            from companion.app.readers import TableReaders  # nfcpy and pyserial only for a table with readers

            self.hardware = TableReaders.from_config(
                self.config, self._submit, on_health=self._report_health, on_alert=self._alert
            )
            self.hardware.start()
        self._start_lights()
        self._start_audio()
        if self.config.camera is not None:
            self._start_camera()
        if self.config.broker is not None:
            from companion.venue.publish import TablePublisher  # paho only for a table that publishes

            self.publisher = TablePublisher(self.session, self.config.broker).start()
        self.web = start_web(self.session, self.config.web, self.pin, self.secret)
        self.web.app.extensions["host"] = self  # the console may start the next game
        self.public_url = lan_url(self.config.web.host, int(self.web.server.effective_port))
        self.web.app.config["PUBLIC_URL"] = self.public_url  # the address the QR code carries
        return self

    def _start_lights(self) -> None:
        """An LED at each zone an array reads, if the config says they are wired; else said once."""
        if not self.config.feedback.lights:
            log.info("lights: off ([feedback] lights = false): the referee's signals are not lit at the zones")
            return
        from companion.app.lights import TableLights

        lit = TableLights.for_readers(self.config.zones, self.hardware) if self.hardware is not None else None
        if lit is None or not lit.zones:
            log.warning("lights: [feedback] lights = true, but no zone is read by a reader array: nothing to light")
            return
        self.lights = lit
        lit.attach(self.session)
        log.info("lights: at %s", ", ".join(lit.zones))

    def _start_audio(self) -> None:
        """Tones and spoken rulings at the Pi's audio out, if the config asks; else said once."""
        feedback = self.config.feedback
        if not feedback.audio:
            log.info("audio: off ([feedback] tones and speech = false): the referee's rulings are not heard")
            return
        from companion.app.voice import TableAudio

        self.audio = TableAudio.from_config(feedback, on_health=self._report_health)
        self.audio.attach(self.session)

    def live_links(self) -> dict[str, str]:
        """Each seated player's page path (``p/<name>/<token>``): the links that open something now."""
        from web.links import links

        assert self.web is not None
        book = links(self.web.app)
        return {player: book.path_for(player) for player in book.seated}

    def keep_access_file(self, path: Path) -> None:
        """Keep ``path`` (the PIN and links, mode 0600) listing the live links only: it is rewritten
        whenever a new game seats other players or the referee rotates the links."""
        from web.links import links

        assert self.web is not None
        shown = self.public_url or self.web.url
        links(self.web.app).on_change(lambda: write_access(path, shown, self.pin, self.live_links()))

    # Readers and the camera report to whichever game is on the table now.
    def _submit(self, observation: Observation) -> Future[LogRow]:
        return self.session.submit(observation)

    def _report_health(self, component: str, status: JsonObject) -> None:
        self.session.report_health(component, status)

    def new_game(self, header: Header) -> Session:
        """Start ``header``'s game at this table: the game in progress keeps its own log (moved aside,
        never deleted), the configured log path holds the new one, and every open page moves on.

        Raises :class:`SetupError` (nothing changes) when the header cannot start a game."""
        game = get_game(header.game)
        game.new_state(header)  # a setup that cannot start is refused before anything changes

        def swap(old: Session) -> Session:
            if self.publisher is not None:  # the venue gets the last game whole if the broker is there
                self.publisher.stop(flush_s=PUBLISH_FLUSH_S)
                self.publisher = None
            old.stop()
            self.log.close()
            archived = move_aside(self.config.log_path)
            self.log = GameLog(self.config.log_path)
            session = Session(game, self.log, header)
            session.health = dict(old.health)
            session.start()
            remember_console_game(self.config.log_path, header)
            log.info("new game of %s for %s; the last one is kept in %s", game.id, ", ".join(header.players), archived)
            self.session, self.game = session, game
            if self.lights is not None:
                self.lights.attach(session)  # the new game's lights; the last game's go dark
            if self.audio is not None:
                self.audio.attach(session)  # nothing of the last game is still said
            if self.config.broker is not None:
                from companion.venue.publish import TablePublisher

                self.publisher = TablePublisher(session, self.config.broker).start()  # the new game, a new instance
            return session

        if self.web is None:
            return swap(self.session)
        from web import moved_on, slot

        app = self.web.app

        def swap_and_tell(old: Session) -> Session:
            session = swap(old)
            moved_on(app, session)
            return session

        return slot(app).swap(swap_and_tell)

    def _alert(self, alert: Unexplained) -> None:
        if isinstance(alert, StackAtDepth):
            log.warning("%s: %s (%s)", alert.zone, alert.what, alert.fix)
            return
        # The observation itself reaches the session (and the log) with no card; this is the reader's count,
        # and the journal says how to enrol the tag from the command line.
        log.warning("%s: %s (%s: companion enroll --game %s --zone %s)", alert.zone, alert.what, alert.fix, self.game.id, alert.zone)

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
        self._threads.append(self.vision.start(self._submit, self._stop))
        watcher = threading.Thread(target=self._watch_camera, name="camera-health", daemon=True)
        watcher.start()
        self._threads.append(watcher)

    def _watch_camera(self) -> None:
        while not self._stop.wait(CAMERA_HEALTH_S):
            health: JsonObject = self.vision.health().to_json()
            ok = health["camera"] == "ok" and health["calibrated"]
            status = "ok" if ok else ("reconnecting" if health["camera"] in ("lost", "starting") else "down")
            self._report_health("camera", {"status": status, "detail": health["message"], **health})

    def stop(self) -> None:
        self._stop.set()
        if self.publisher is not None:
            self.publisher.stop()
        if self.web is not None:
            self.web.close()
        if self.lights is not None:
            self.lights.detach()
        if self.audio is not None:
            self.audio.stop()
        if self.hardware is not None:
            self.hardware.stop()
        for thread in self._threads:
            thread.join(5)
        self.pending.stop()
        self.session.stop()
        self.log.close()
