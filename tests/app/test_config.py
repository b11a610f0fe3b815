"""The table config's reader parts: zone reader addresses and the reader arrays they are on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.config import ArrayConfig, parse_config
from companion.core.errors import ConfigError


def config(readers: list[str], **more: Any) -> dict[str, Any]:
    zones = [{"name": f"pile-{i}", "kind": "pile", "index": i, "reader": r} for i, r in enumerate(readers, start=1)]
    return {"game": {"id": "escape-master", "players": ["anna", "ben"], "setup": {"dealer": "anna"}}, "zones": zones, **more}


def test_arrays_by_name_beside_the_tables_own() -> None:
    loaded = parse_config(
        config(["array:0", "array:east:0", "usb:072f:2200"], array={"port": "/dev/table-array"}, arrays={"east": {"port": "/dev/ttyACM1", "baud": 230400}}),
        Path("/tmp/table.toml"),
    )
    assert loaded.array == ArrayConfig("/dev/table-array")
    assert loaded.arrays == {"east": ArrayConfig("/dev/ttyACM1", 230400)}
    assert loaded.reader_arrays == {"": ArrayConfig("/dev/table-array"), "east": ArrayConfig("/dev/ttyACM1", 230400)}
    assert [z.reader for z in loaded.zones] == ["array:0", "array:east:0", "usb:072f:2200"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (config(["array:x"]), r'zones\[0\].reader: reader "array:x" must be array:N or array:NAME:N'),
        (config(["array:0", "array:00"]), r'zones\[1\].reader: reader "array:00" must be'),
        (config(["array:Big:1"]), r'zones\[0\].reader: reader "array:Big:1": "Big" cannot name a reader array'),
        (config(["usb 072f:2200"]), r'zones\[0\].reader: reader "usb 072f:2200" is not a reader address'),
        (config([":3"]), r'zones\[0\].reader: reader ":3" is not a reader address'),
        (config([], arrays={"East": {"port": "/dev/x"}}), r'arrays.East: "East" cannot name a reader array'),
        (config([], arrays={"east": "/dev/x"}), r"arrays.east: must be a table"),
        (config([], arrays={"east": {"baud": 9600}}), r"arrays.east.port: missing"),
        (config([], arrays={"east": {"port": "/dev/x", "speed": 1}}), r"arrays.east.speed: unknown key"),
        (config([], arrays=["east"]), r"arrays: must be a table"),
        (config(["button:16"]), r'zones\[0\].reader: reader "button:16" must be button:N or button:NAME:N'),
        (config([], referee={"pending_timeout_s": 0}), r"referee.pending_timeout_s: 0 must be above 0"),
        (config([], referee={"timeout": 3}), r"referee.timeout: unknown key"),
    ],
)
def test_a_bad_reader_or_array_names_its_key(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(data, Path("/tmp/table.toml"))


def test_zones_on_an_array_load_before_its_port_is_given() -> None:
    # `companion init` writes zones on array:N with [array] commented out: the file must load.
    assert parse_config(config(["array:0", "array:east:1"]), Path("/tmp/table.toml")).reader_arrays == {}


def test_call_buttons_and_the_pending_timeout() -> None:
    loaded = parse_config(config(["array:0", "button:east:2"], referee={"pending_timeout_s": 3}), Path("/tmp/table.toml"))
    assert [z.reader for z in loaded.zones] == ["array:0", "button:east:2"]
    assert loaded.pending_timeout_s == 3.0
    assert parse_config(config([]), Path("/tmp/table.toml")).pending_timeout_s == 5.0


def test_a_zones_measured_depth_loads_and_a_bad_one_names_its_key() -> None:
    data = config(["array:0", "array:1"])
    data["zones"][0]["depth"] = 14
    loaded = parse_config(data, Path("/tmp/table.toml"))
    assert [z.depth for z in loaded.zones] == [14, None]
    for bad, message in ((0, r"zones\[0\].depth: must be at least 1"), ("deep", r"zones\[0\].depth: must be a int")):
        data["zones"][0]["depth"] = bad
        with pytest.raises(ConfigError, match=message):
            parse_config(data, Path("/tmp/table.toml"))


def test_feedback_lights_default_off_and_a_bad_value_names_its_key() -> None:
    assert parse_config(config([]), Path("/tmp/table.toml")).feedback.lights is False
    assert parse_config(config([], feedback={"lights": True}), Path("/tmp/table.toml")).feedback.lights is True
    for bad, message in (({"lights": "yes"}, r"feedback.lights: must be true or false, not 'yes'"),
                         ({"lights": 1}, r"feedback.lights: must be true or false, not 1"),
                         ({"brightness": 3}, r"feedback.brightness: unknown key")):
        with pytest.raises(ConfigError, match=message):
            parse_config(config([], feedback=bad), Path("/tmp/table.toml"))


def test_feedback_sound_keys_their_defaults_and_one_message_per_bad_value() -> None:
    quiet = parse_config(config([]), Path("/tmp/table.toml")).feedback
    assert (quiet.tones, quiet.speech, quiet.quiet, quiet.volume, quiet.language, quiet.audio_device, quiet.audio) == (
        False, False, False, 80, "en", "default", False)
    heard = parse_config(config([], feedback={"tones": True, "speech": True, "quiet": True, "volume": 35, "language": "en-us",
                                               "audio_device": "plughw:1,0"}), Path("/tmp/table.toml")).feedback
    assert (heard.tones, heard.speech, heard.quiet, heard.volume, heard.language, heard.audio_device, heard.audio) == (
        True, True, True, 35, "en-us", "plughw:1,0", True)
    for bad, message in (({"tones": "on"}, r"^feedback.tones: must be true or false, not 'on'$"),
                         ({"speech": 1}, r"^feedback.speech: must be true or false, not 1$"),
                         ({"volume": 101}, r"^feedback.volume: must be a whole number from 0 to 100, not 101$"),
                         ({"volume": 0.5}, r"^feedback.volume: must be a whole number from 0 to 100, not 0.5$"),
                         ({"volume": True}, r"^feedback.volume: must be a whole number from 0 to 100, not True$"),
                         ({"language": "English"}, r"^feedback.language: must be an espeak-ng voice .*, not 'English'$"),
                         ({"language": "en; rm -rf"}, r"^feedback.language: must be an espeak-ng voice"),
                         ({"audio_device": "hw 1"}, r"^feedback.audio_device: must be \"default\" or an ALSA device .*, not 'hw 1'$")):
        with pytest.raises(ConfigError, match=message):
            parse_config(config([], feedback=bad), Path("/tmp/table.toml"))
