"""The camera wired into the running service: a rendered table on a video file, through the real
vision pipeline, into the session and the log, with the camera's health on the scoreboard."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.app.config import parse_config
from companion.games.horrible_mountain_2.playout import random_playout
from companion.app.table_service import TableService
from vision.render.camera import render
from vision.render.scenes import make_scene

pytestmark = pytest.mark.slow


def test_the_service_watches_the_table_through_the_camera(tmp_path: Path) -> None:
    scene = dataclasses.replace(make_scene("cubes", 4, "easy"), hand=None)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, scene.camera.size)
    assert writer.isOpened()
    still = render(scene)
    for _ in range(40):
        writer.write(still)
    writer.release()
    header, _ = random_playout(3, 10)
    layout = scene.layout
    data: dict[str, Any] = {
        "game": {"id": header.game, "players": list(header.players), "setup": dict(header.setup)},
        "log": {"path": "game.sqlite"},
        "web": {"host": "127.0.0.1", "port": 0},
        "camera": {
            "source": f"file:{video}",
            "settle_s": 0.5,
            "markers": {"dictionary": layout.dictionary, "size_mm": layout.size_mm, "centres": [list(c) for c in layout.centres]},
        },
        "zones": [
            {"name": z.name, "kind": z.kind.name, **({"index": z.index} if z.index is not None else {}), "polygon": [list(p) for p in z.polygon]}
            for z in scene.zones
        ],
    }
    config = parse_config(data, tmp_path / "table.toml")
    service = TableService(config, pin="123456").start()
    try:
        deadline = time.monotonic() + 60
        seen: list[Any] = []
        while time.monotonic() < deadline:
            seen = [r for r in service.log.rows() if r.kind == "vision"]
            if len(seen) >= len(scene.zones) and "camera" in service.session.health:
                break
            time.sleep(0.1)
        assert {r.payload["zone"] for r in seen} == {z.name for z in scene.zones}
        assert all(r.source == "camera" for r in seen)
        for row in seen:  # every settled view is judged by the game: explained, or an alert naming the zone
            assert row.alert is None or row.alert["zone"] == row.payload["zone"]
        assert service.session.health["camera"]["frames"] > 0
    finally:
        service.stop()
