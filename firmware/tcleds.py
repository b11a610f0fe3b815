# Table Companion reader array: one addressable LED (WS2812/SK6812) per channel, set by the host's
# L frames (firmware/PROTOCOL.md). Hardware-free like tcarray.py: ``pixels`` is anything with
# ``pixels[i] = (r, g, b)`` and ``pixels.write()`` (MicroPython's neopixel.NeoPixel on the Pico, a
# recording stand-in in the tests). Runs on MicroPython and CPython: no typing, no f-strings.

from tcproto import crc16, MAX_LINE

OFF = "O"
BLINK = "B"  # once, BLINK_MS, then off: a legal move
STEADY = "S"  # on until told otherwise: an illegal move held, an alert
PULSE = "P"  # slowly brighter and dimmer: the game waits for someone here
PATTERNS = (OFF, BLINK, STEADY, PULSE)
BLINK_MS = 400
PULSE_MS = 2000  # one breath of a slow pulse
PULSE_FLOOR = 0.1  # a pulse never goes quite dark, so a glance finds it
HEX = "0123456789ABCDEFabcdef"


def _decimal(text, limit, reason):
    if not text or len(text) > 16 or not text.isdigit():
        raise ValueError(reason)
    value = int(text)
    if limit is not None and value >= limit:
        raise ValueError(reason)
    return value


def parse_led(line):
    """(seq, channel, (r, g, b), pattern) from one line the host sent (bytes, no newline).

    Raises ValueError whose message is the one word an R frame carries: format, checksum, type,
    channel, colour or pattern.
    """
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) >= MAX_LINE or not line.startswith(b"$"):
        raise ValueError("format")
    try:
        text = line.decode()
    except ValueError:  # MicroPython's UnicodeError is a ValueError too
        raise ValueError("format")
    star = text.rfind("*")
    if star < 0 or len(text) - star - 1 != 4 or any(c not in HEX for c in text[star + 1:]):
        raise ValueError("format")
    body = text[1:star]
    if int(text[star + 1:], 16) != crc16(body.encode()):
        raise ValueError("checksum")
    fields = body.split(",")
    if len(fields) < 3:
        raise ValueError("format")
    seq = _decimal(fields[0], 65536, "format")
    _decimal(fields[1], None, "format")
    if fields[2] != "L":
        raise ValueError("type")
    if len(fields) != 6:
        raise ValueError("format")
    channel = _decimal(fields[3], 16, "channel")
    colour = fields[4]
    if len(colour) != 6 or any(c not in HEX for c in colour):
        raise ValueError("colour")
    if fields[5] not in PATTERNS:
        raise ValueError("pattern")
    return seq, channel, (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)), fields[5]


def _scaled(colour, factor):
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


class Leds:
    """What each channel's LED is told to show, and the pixels that show it.

    ``brightness`` (0-1) scales every colour: a WS2812 draws ~60 mA at full white, and sixteen of them
    at full scale would take ~1 A from the 5 V supply (docs/hardware.md, "Lights").
    """

    def __init__(self, pixels, count, brightness=1.0):
        if not 0 < brightness <= 1:
            raise ValueError("brightness %r is not in (0, 1]" % brightness)
        self.pixels = pixels
        self.count = count
        self.brightness = brightness
        self.told = [((0, 0, 0), OFF, 0)] * count  # (colour, pattern, since ms) per channel
        self.shown = [None] * count  # what each pixel was last written (None: not yet)
        self.last_seq = None
        self.taken = 0  # L frames taken
        self.refused = 0  # host lines refused (each answered with one R frame)

    def reset(self):
        """Power-up: every LED dark, no frame taken yet."""
        self.told = [((0, 0, 0), OFF, 0)] * self.count
        self.last_seq = None
        self.render(0)

    def take(self, seq, channel, colour, pattern, now):
        """One L frame's light; False if it repeats the last one taken (the same seq: sent twice)."""
        if channel >= self.count:
            raise ValueError("channel")
        if seq == self.last_seq:
            return False
        self.last_seq = seq
        self.told[channel] = (colour, pattern, now)
        self.taken += 1
        return True

    def colour_at(self, channel, now):
        colour, pattern, since = self.told[channel]
        if pattern == STEADY:
            factor = 1.0
        elif pattern == BLINK:
            factor = 1.0 if now - since < BLINK_MS else 0.0
        elif pattern == PULSE:
            phase = ((now - since) % PULSE_MS) / PULSE_MS  # 0..1: up the first half, down the second
            rise = 2 * phase if phase < 0.5 else 2 * (1 - phase)
            factor = PULSE_FLOOR + (1 - PULSE_FLOOR) * rise
        else:
            factor = 0.0
        return _scaled(colour, factor * self.brightness)

    def render(self, now):
        """Write the pixels if any changed (a strip write takes ~30 us a pixel: only when needed)."""
        changed = False
        for channel in range(self.count):
            colour = self.colour_at(channel, now)
            if colour != self.shown[channel]:
                self.shown[channel] = colour
                self.pixels[channel] = colour
                changed = True
        if changed:
            self.pixels.write()
        return changed
