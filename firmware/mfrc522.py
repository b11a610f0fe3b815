# A small MFRC522 driver for MicroPython: just enough ISO/IEC 14443-3 type A to read a tag's UID.
#
# One chip per reader on a shared SPI bus, each with its own chip-select pin. read_uid() wakes
# the tag (WUPA), runs anticollision and select through every cascade level (4, 7 and 10-byte
# UIDs), then halts it, so the next poll wakes it again: a tag that stops answering has left.
# Registers and commands: NXP MFRC522 datasheet, rev. 3.9, sections 9 and 10.
# Runs on MicroPython and CPython (the tests drive it against a simulated chip).

COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88

IRQ_RX_IDLE = 0x30
IRQ_TIMER = 0x01
ERR_COLLISION = 0x08
ERR_FATAL = 0x13  # buffer overflow, parity, protocol

WAIT_POLLS = 200  # register reads to wait for an answer before the chip counts as not answering


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A (init 0x6363), as the two bytes sent after a frame, LSB first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class MFRC522:
    def __init__(self, spi, cs, sleep_ms=None):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)
        self._sleep_ms = sleep_ms

    # -- registers ----------------------------------------------------------------------------

    def _wr(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs.value(1)

    def _rd(self, reg):
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    # -- set-up -------------------------------------------------------------------------------

    def version(self):
        return self._rd(VERSION)

    def init(self):
        """Reset and configure the chip; OSError if no MFRC522 answers on this chip-select."""
        if self.version() in (0x00, 0xFF):
            raise OSError("no MFRC522 answers")
        self._wr(COMMAND, CMD_SOFT_RESET)
        if self._sleep_ms is not None:
            self._sleep_ms(50)
        for _ in range(WAIT_POLLS):  # wait for the oscillator: PowerDown bit clears
            if not self._rd(COMMAND) & 0x10:
                break
        else:
            raise OSError("MFRC522 did not come out of reset")
        self._wr(TX_MODE, 0x00)  # 106 kbit/s, no hardware CRC: select frames carry ours
        self._wr(RX_MODE, 0x00)
        self._wr(T_MODE, 0x80)  # timer starts when a frame has been sent
        self._wr(T_PRESCALER, 0xA9)  # 13.56 MHz / 339 = 40 kHz: 25 us per tick
        self._wr(T_RELOAD_H, 0x00)
        self._wr(T_RELOAD_L, 0x28)  # 40 ticks = 1 ms for a tag to answer (it takes ~0.1 ms)
        self._wr(TX_ASK, 0x40)  # 100 % ASK modulation
        self._wr(MODE, 0x3D)  # CRC preset 0x6363
        self._wr(TX_CONTROL, self._rd(TX_CONTROL) | 0x03)  # antenna on

    # -- frames -------------------------------------------------------------------------------

    def _transceive(self, data, last_bits=0):
        """Send a frame, return the answer's bytes, or None (no answer, collision, bad frame)."""
        self._wr(COMMAND, CMD_IDLE)
        self._wr(COM_IRQ, 0x7F)  # clear every interrupt bit
        self._wr(FIFO_LEVEL, 0x80)  # flush the FIFO
        for byte in data:
            self._wr(FIFO_DATA, byte)
        self._wr(BIT_FRAMING, last_bits)
        self._wr(COMMAND, CMD_TRANSCEIVE)
        self._wr(BIT_FRAMING, 0x80 | last_bits)  # StartSend
        for _ in range(WAIT_POLLS):
            irq = self._rd(COM_IRQ)
            if irq & IRQ_RX_IDLE:
                break
            if irq & IRQ_TIMER:
                self._wr(BIT_FRAMING, 0x00)
                return None
        else:
            raise OSError("MFRC522 stopped answering")
        self._wr(BIT_FRAMING, 0x00)
        if self._rd(ERROR) & (ERR_FATAL | ERR_COLLISION):
            return None
        count = self._rd(FIFO_LEVEL)
        return bytes(self._rd(FIFO_DATA) for _ in range(count))

    def read_uid(self):
        """The UID of the one tag in the field, or None. OSError if the chip does not answer."""
        if self.version() in (0x00, 0xFF):
            raise OSError("MFRC522 stopped answering")
        atqa = self._transceive(bytes((WUPA,)), 7)
        if atqa is None or len(atqa) != 2:
            return None
        self._wr(COLL, self._rd(COLL) & 0x7F)
        uid = b""
        for level in range(3):
            sel = SELECT[level]
            part = self._transceive(bytes((sel, 0x20)))
            if part is None or len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            command = bytes((sel, 0x70)) + part
            sak = self._transceive(command + crc_a(command))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if sak[0] & 0x04:  # cascade bit: the UID goes on at the next level
                if part[0] != CASCADE_TAG:
                    return None
                uid += part[1:4]
            else:
                uid += part[0:4]
                break
        else:
            return None
        halt = bytes((0x50, 0x00))
        self._transceive(halt + crc_a(halt))  # no answer expected: the tag sleeps until the next WUPA
        return uid
