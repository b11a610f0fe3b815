"""JSON text measured before it is parsed: every channel that takes JSON from outside (an HTTP body,
an MQTT payload) refuses what nests too deep without handing it to ``json.loads``, whose recursion
a hostile payload would otherwise exhaust."""

from __future__ import annotations


def too_deep(data: bytes | bytearray, limit: int) -> bool:
    """Whether JSON text nests deeper than ``limit`` (brackets inside strings do not count)."""
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False
