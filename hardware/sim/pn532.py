"""A PN532 on the far end of a pseudo-terminal, speaking its UART (HSU) frames, at a speed of its own.

Enough of the chip for nfcpy's real driver (``nfc.clf.pn532.init`` and ``Device``) to open it, raise
its speed, and close it: Diagnose (echo), GetFirmwareVersion (a PN532 v1.6), SAMConfiguration,
SetSerialBaudRate (the new speed taken once the host acknowledges the answer), SetParameters,
RFConfiguration, ReadRegister, PowerDown, and an empty answer to anything else (InListPassiveTarget:
no tag). A host whose port is set to another speed than the chip's is not heard and hears nothing,
as on a real UART: the host's speed is read from the pty's own settings (what pyserial or ``stty``
set on it).
"""

from __future__ import annotations

import os
import select
import termios
import threading

from hardware.pn532_speed import ACK, BAUD_CODES, POWER_UP_BAUD, response_frame

FIRMWARE = bytes((0x32, 0x01, 0x06, 0x07))
"""GetFirmwareVersion's answer: IC PN532, version 1.6, supports ISO 14443A/B and ISO 18092."""
_SPEEDS = {getattr(termios, f"B{speed}"): speed for speed in BAUD_CODES if hasattr(termios, f"B{speed}")}


class SimPN532:
    def __init__(self, speed: int = POWER_UP_BAUD) -> None:
        self.speed = speed
        self._master, self._slave = os.openpty()
        self.port = os.ttyname(self._slave)
        self.commands: list[int] = []
        """Command codes answered, in order."""
        self.unheard = 0
        """Bytes sent to it at another speed than its own."""
        self._pending_speed: int | None = None
        self._buffer = bytearray()
        self._running = True
        self._thread = threading.Thread(target=self._serve, name="sim-pn532", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._running = False
        self._thread.join(2.0)
        os.close(self._master)
        os.close(self._slave)

    def host_speed(self) -> int:
        return _SPEEDS.get(termios.tcgetattr(self._slave)[4], 0)

    def _serve(self) -> None:
        while self._running:
            ready, _, _ = select.select([self._master], [], [], 0.02)
            if not ready:
                continue
            try:
                chunk = os.read(self._master, 4096)
            except OSError:
                return
            # The acknowledgement that makes a speed change take effect is taken at either speed,
            # or taken as sent when the host is at the new speed already: on a real UART the six
            # bytes are on the wire before the host re-opens its port, but a pty keeps them queued,
            # and pyserial's close flushes that queue.
            if self._pending_speed and (ACK in chunk or self.host_speed() == self._pending_speed):
                self.speed, self._pending_speed = self._pending_speed, None
            elif self.host_speed() != self.speed:
                self.unheard += len(chunk)
                self._buffer.clear()
                continue
            self._buffer += chunk
            self._frames()

    def _frames(self) -> None:
        while True:
            start = self._buffer.find(b"\x00\xff")
            if start < 0 or len(self._buffer) < start + 4:
                return
            length, check = self._buffer[start + 2], self._buffer[start + 3]
            if length == 0 and check == 0xFF:  # ACK from the host
                del self._buffer[: start + 4]
                if self._pending_speed:
                    self.speed, self._pending_speed = self._pending_speed, None
                continue
            head = 4
            if length == 0xFF and check == 0xFF:  # extended frame: LENM LENL LCS
                if len(self._buffer) < start + 7:
                    return
                length = self._buffer[start + 4] << 8 | self._buffer[start + 5]
                head = 7
            end = start + head + length + 1
            if len(self._buffer) < end:
                return
            body = bytes(self._buffer[start + head : start + head + length])
            del self._buffer[:end]
            if len(body) >= 2 and body[0] == 0xD4:
                self._answer(body[1], body[2:])

    def _answer(self, code: int, data: bytes) -> None:
        self.commands.append(code)
        reply = b""
        if code == 0x00:  # Diagnose: the line test echoes its data
            reply = data
        elif code == 0x02:
            reply = FIRMWARE
        elif code == 0x06:  # ReadRegister: one byte per 16-bit address
            reply = bytes(len(data) // 2)
        elif code == 0x10:
            self._pending_speed = BAUD_CODES[data[0]]
        elif code == 0x16:  # PowerDown: status OK
            reply = b"\x00"
        os.write(self._master, ACK + self._frame(code, reply))

    @staticmethod
    def _frame(code: int, data: bytes) -> bytes:
        if len(data) + 2 < 255:
            return response_frame(code, data)
        body = bytes((0xD5, code + 1)) + data
        size = len(body).to_bytes(2, "big")
        return b"\x00\x00\xff\xff\xff" + size + bytes(((-sum(size)) & 0xFF,)) + body + bytes(((-sum(body)) & 0xFF, 0))
