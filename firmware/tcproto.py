# Table Companion reader array: the wire format (firmware/PROTOCOL.md).
# Runs on MicroPython (RP2040) and on CPython (the project's tests): no typing, no f-strings.


MAX_LINE = 100  # bytes in a frame, newline included (PROTOCOL.md)


def _table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _table()


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of bytes; crc16(b"123456789") == 0x29B1."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def hexlify_upper(data):
    return "".join("%02X" % b for b in data)


def frame(seq, ms, kind, fields):
    """One line: $seq,ms,kind[,field...]*CRC\\n (fields are str)."""
    body = "%d,%d,%s" % (seq, ms, kind)
    for field in fields:
        body += "," + field
    return "$%s*%04X\n" % (body, crc16(body.encode()))
