# A small MFRC522 driver for MicroPython: ISO/IEC 14443-3 type A, enough to find every tag on a
# reader and to keep a pile's tags quiet.
#
# One chip per reader on a shared SPI bus, each with its own chip-select pin. The firmware uses:
#   antenna(on)       switch the 13.56 MHz field (off resets every tag in it: halted ones wake IDLE)
#   read_new()        REQA (only IDLE tags answer), anticollision and select through every cascade
#                     level, then HLTA: the UID of one tag not seen since its field came on, or None
#   check(uid)        WUPA (halted tags wake too), then SELECT with that tag's whole UID, so only it
#                     answers even under a stack of 20, then HLTA: is that tag still on the reader?
#   measure(...)      what a register read, a register write and a chip-select Pin.value() cost here
# Anticollision follows ISO/IEC 14443-3 6.5.3, with CollReg's CollPos read as NXP's reference library
# reads it (phhalHw_Rc523's exchange, phpalI14443p3a_Sw's anticollision): it counts the received
# frame's bits as they lie in the FIFO, so the whole bytes already known are added to it (the driver of
# miguelbalboa/rfid takes it for the position in the whole UID part, which agrees only while fewer
# than 8 bits are known). ValuesAfterColl is cleared, as both do. Registers and commands: NXP MFRC522
# datasheet, rev. 3.9, sections 9 and 10. Runs on MicroPython and CPython (the tests drive it
# against the simulated chip in hardware/sim/field.py).

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

REQA = 0x26
WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
HLTA = b"\x50\x00"

IRQ_RX_IDLE = 0x30
IRQ_TIMER = 0x01
ERR_COLLISION = 0x08
ERR_FATAL = 0x17  # buffer overflow, CRC, parity, protocol

WAIT_POLLS = 200  # register reads to wait for an answer before the chip counts as not answering
FIELD_ON_GUARD_MS = 6  # ISO/IEC 14443-3 gives a tag 5.1 ms after the field comes on (issue 24): 5 was just under it

COLLIDED = "collision"  # _transceive's marker when tags answered together


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A (init 0x6363), as the two bytes sent after a frame, LSB first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def levels_of(uid):
    """The 4-byte parts sent at each cascade level for a 4, 7 or 10-byte UID."""
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    return [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]


def collided_bits(full, coll_pos):
    """UID-part bits up to and including the collided one, from CollPos (1-32; 0: not placed).

    CollPos counts from bit 0 of the FIFO's first byte, whose first RxAlign bits are the known bits of
    the partial byte sent; the ``full`` bytes sent whole are not in it (NXP's phpalI14443p3a_Sw adds
    them back: its bit count is whole bytes sent * 8 + CollPos - 1 valid bits).
    """
    if not coll_pos:
        return 0
    return full * 8 + coll_pos


class MFRC522:
    def __init__(self, spi, cs, sleep_ms=None):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)
        self._sleep_ms = sleep_ms
        self.field = False
        self.failed = False
        # Counted since the last take_stats(): exchanges sent, collisions heard, bad answers.
        self.exchanges = 0
        self.collisions = 0
        self.errors = 0

    # -- registers ----------------------------------------------------------------------------

    def _wr(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs.value(1)

    def _wr_fifo(self, data):
        """Every byte into the FIFO in one transaction (datasheet 8.1.2.3: the address, then data bytes)."""
        self.cs.value(0)
        self.spi.write(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        self.cs.value(1)

    def _rd_fifo(self, count):
        """``count`` FIFO bytes in one transaction (datasheet 8.1.2.2: the read address once per byte,
        then 0x00; each byte comes back during the next address)."""
        address = ((FIFO_DATA << 1) & 0x7E) | 0x80
        self.cs.value(0)
        self.spi.write(bytes((address,)))
        data = self.spi.read(count - 1, address) + self.spi.read(1, 0x00) if count > 1 else self.spi.read(1, 0x00)
        self.cs.value(1)
        return data

    def _rd(self, reg):
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    # -- set-up -------------------------------------------------------------------------------

    def version(self):
        return self._rd(VERSION)

    def init(self, field=True):
        """Reset and configure the chip; OSError if no MFRC522 answers on this chip-select."""
        if self.version() in (0x00, 0xFF):
            raise OSError("no MFRC522 answers")
        self._wr(COMMAND, CMD_SOFT_RESET)  # also switches the antenna off
        self.field = False
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
        self._wr(COLL, 0x00)  # ValuesAfterColl 0: bits received after a collision read as 0
        if field:
            self.antenna(True)

    def antenna(self, on):
        """Switch the field. Off: every tag in it loses power (halted tags forget they were)."""
        value = self._rd(TX_CONTROL)
        self._wr(TX_CONTROL, (value | 0x03) if on else (value & ~0x03))
        if on and not self.field and self._sleep_ms is not None:
            self._sleep_ms(FIELD_ON_GUARD_MS)
        self.field = on

    def measure(self, ticks_us, ticks_diff, count=200):
        """Microseconds per register read, register write and chip-select Pin.value(), each timed
        over ``count`` calls on this board, less the empty loop (for `companion hw check --timing`).

        The read is of VersionReg, the write puts TReloadRegL's own value back: nothing changes.
        """
        def per_call(start, end, loop):
            return max(0, ticks_diff(end, start) - loop) / count

        start = ticks_us()
        for _ in range(count):
            pass
        loop = ticks_diff(ticks_us(), start)
        start = ticks_us()
        for _ in range(count):
            self._rd(VERSION)
        read = per_call(start, ticks_us(), loop)
        start = ticks_us()
        for _ in range(count):
            self._wr(T_RELOAD_L, 0x28)
        write = per_call(start, ticks_us(), loop)
        start = ticks_us()
        for _ in range(count):
            self.cs.value(1)  # deselected already: it stays so
        pin = per_call(start, ticks_us(), loop)
        return read, write, pin

    def take_stats(self):
        """(exchanges, collisions, errors) since the last call."""
        stats = (self.exchanges, self.collisions, self.errors)
        self.exchanges = self.collisions = self.errors = 0
        return stats

    # -- frames -------------------------------------------------------------------------------

    def _transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send a frame. The answer's bytes; None (no answer, bad frame); or (COLLIDED, bytes, pos)."""
        self.exchanges += 1
        self._wr(COMMAND, CMD_IDLE)
        self._wr(COM_IRQ, 0x7F)  # clear every interrupt bit
        self._wr(FIFO_LEVEL, 0x80)  # flush the FIFO
        self._wr_fifo(data)
        framing = (rx_align << 4) | tx_last_bits
        self._wr(BIT_FRAMING, framing)
        self._wr(COMMAND, CMD_TRANSCEIVE)
        self._wr(BIT_FRAMING, 0x80 | framing)  # StartSend
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
        error = self._rd(ERROR)
        if error & ERR_FATAL:
            self.errors += 1
            return None
        count = self._rd(FIFO_LEVEL)
        answer = self._rd_fifo(count) if count else b""
        if error & ERR_COLLISION:
            self.collisions += 1
            coll = self._rd(COLL)
            if coll & 0x20:  # CollPosNotValid
                return (COLLIDED, answer, 0)
            return (COLLIDED, answer, (coll & 0x1F) or 32)
        return answer

    def _request(self, command):
        """REQA or WUPA: True if any tag answered (a collision of ATQAs still means tags are there)."""
        answer = self._transceive(bytes((command,)), 7)
        if answer is None:
            return False
        return isinstance(answer, tuple) or len(answer) == 2

    def _anticollision(self, sel):
        """The 5 bytes (UID part + BCC) of one tag at this cascade level, resolving collisions."""
        buf = bytearray(5)
        known = 0
        for _ in range(33):
            full, bits = known // 8, known % 8
            sent = bytes(buf[: full + (1 if bits else 0)])
            answer = self._transceive(bytes((sel, ((2 + full) << 4) | bits)) + sent, bits, bits)
            if answer is None:
                return None
            pos = 0
            if isinstance(answer, tuple):
                _, answer, coll_pos = answer
                pos = collided_bits(full, coll_pos)
                if pos <= known:
                    return None  # a collision the chip cannot place: try again next poll
            for i in range(len(answer)):
                index = full + i
                if index >= 5:
                    break
                value = answer[i]
                if i == 0 and bits:
                    value = (buf[index] & ((1 << bits) - 1)) | (value & ~((1 << bits) - 1) & 0xFF)
                buf[index] = value
            if not pos:
                if buf[0] ^ buf[1] ^ buf[2] ^ buf[3] != buf[4]:
                    self.errors += 1
                    return None
                return bytes(buf)
            # Take the branch of the tags whose bit at the collision is 1; the rest stay READY, silent.
            known = pos
            keep = bytearray(5)
            for b in range(known):
                if buf[b // 8] >> (b % 8) & 1 or b == known - 1:
                    keep[b // 8] |= 1 << (b % 8)
            buf = keep
        return None

    def _select(self, sel, part):
        """SELECT one tag by its whole UID part; its SAK byte, or None."""
        command = bytes((sel, 0x70)) + part
        sak = self._transceive(command + crc_a(command))
        if sak is None or isinstance(sak, tuple) or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
            if sak is not None:
                self.errors += 1
            return None
        return sak[0]

    def halt(self):
        """HLTA: the selected tag sleeps until its field goes off or a WUPA wakes it."""
        self._transceive(HLTA + crc_a(HLTA))  # no answer expected

    def _alive(self):
        if self.version() in (0x00, 0xFF):
            raise OSError("MFRC522 stopped answering")

    def read_new(self, reset=False):
        """The UID of one tag that answers REQA (not halted since its field came on), halted; or None.

        ``failed`` says afterwards whether something answered but could not be read (a bit error, a
        collision beyond repair). ``reset``: then send HLTA, so the tags half-way through are back
        to IDLE (or HALT) and the next REQA starts clean; only where the field goes off after the
        poll (a pad), since a card halted unread on a pile would stay silent. OSError if the chip
        itself does not answer.
        """
        uid = self._read(REQA)
        if uid is None and self.failed and reset:
            self.halt()
        return uid

    def _read(self, request):
        self._alive()
        self.failed = False
        if not self._request(request):
            return None
        self.failed = True
        uid = b""
        for level in range(3):
            part = self._anticollision(SELECT[level])
            if part is None:
                return None
            sak = self._select(SELECT[level], part)
            if sak is None:
                return None
            if sak & 0x04:  # cascade bit: the UID goes on at the next level
                if part[0] != CASCADE_TAG:
                    return None
                uid += part[1:4]
            else:
                uid += part[0:4]
                break
        else:
            return None
        self.failed = False
        self.halt()
        return uid

    def read_uid(self):
        """The UID of a tag in the field, or None (kept for single-tag use)."""
        return self.read_new()

    def check(self, uid):
        """True if the tag ``uid`` is in the field: WUPA, then SELECT by its whole UID, then HLTA.

        Every tag answers the WUPA (their ATQAs collide, or time out under a big stack: either way
        they are READY); only ``uid`` answers its own SELECT. The others drop back to HALT (or IDLE,
        an unread one) at the HLTA, so each check starts with its own WUPA.
        """
        self._alive()
        self._request(WUPA)
        for level, part in enumerate(levels_of(uid)):
            full = part + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))
            if self._select(SELECT[level], full) is None:
                self.halt()  # whatever got selected so far goes back to sleep
                return False
        self.halt()
        return True

    def read_uid_woken(self):
        """With the field always on (no antenna switching): WUPA, so a tag read before answers again.

        Only one tag per reader can be read this way (the same one wins every anticollision).
        """
        return self._read(WUPA)
