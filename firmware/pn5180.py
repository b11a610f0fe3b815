# Table Companion reader array: an NXP PN5180 driver for ISO/IEC 15693 piles (docs/hardware.md,
# "The ISO 15693 pile").
#
# The PN5180's host interface (PN5180 datasheet, "Host interface", and ATrappmann/PN5180-Library):
# every instruction is one SPI frame between NSS low and NSS high, a one-byte command then its
# parameters, 4-byte register values little endian; an instruction that answers is followed by a
# second frame that clocks the answer out. The chip holds BUSY high while it works on a frame; the
# host's handshake is: wait for BUSY low, NSS low, exchange, wait for BUSY high, NSS high, wait for
# BUSY low. Here every wait is bounded: a chip that never raises or drops BUSY (unplugged, broken
# wire) raises OSError, which the array reports as a reader that does not answer.
#
# ISO/IEC 15693-3 on top: a 16-slot Inventory (flags 0x06: high data rate, inventory, 16 slots),
# optionally masked; after each slot the reader sends an EOF alone (TX_CONFIG's data bits cleared)
# to move every tag on to the next slot, as tueddy's fork of that library does. A 1-slot Inventory
# (flags 0x26: the request flags' Nb_slots_flag set, ISO/IEC 15693-3 "Request flags 5 to 8") asks
# every READY tag matching the mask to answer at once: silence, one UID, or a collision. Stay Quiet,
# Reset to Ready and Read Single Block are addressed (flags 0x22); a tag in the Quiet state still
# serves addressed requests (ISO/IEC 15693-3, "Quiet state"), so Read Single Block asks a quiet card
# whether it is there without waking it (the ICODE SLIX2 has the command, block 0 is user memory). UIDs travel least significant byte first on the air;
# this driver takes and returns them most significant byte first (E0 ... as printed on a tag).
#
# Runs on MicroPython and CPython (the tests run it against hardware/sim/pn5180.py): no typing.

CMD_WRITE_REGISTER = 0x00
CMD_WRITE_REGISTER_OR_MASK = 0x01
CMD_WRITE_REGISTER_AND_MASK = 0x02
CMD_READ_REGISTER = 0x04
CMD_READ_EEPROM = 0x07
CMD_SEND_DATA = 0x09
CMD_READ_DATA = 0x0A
CMD_LOAD_RF_CONFIG = 0x11
CMD_RF_ON = 0x16
CMD_RF_OFF = 0x17

REG_SYSTEM_CONFIG = 0x00
REG_IRQ_STATUS = 0x02
REG_IRQ_CLEAR = 0x03
REG_RX_STATUS = 0x13
REG_TX_CONFIG = 0x18
REG_RF_STATUS = 0x1D

EEPROM_PRODUCT_VERSION = 0x10

IRQ_RX = 1 << 0
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFOFF = 1 << 8
IRQ_TX_RFON = 1 << 9
IRQ_RX_SOF = 1 << 14
IRQ_GENERAL_ERROR = 1 << 17
IRQ_ALL = 0x000FFFFF

RX_BYTES_MASK = 0x1FF
RX_INTEGRITY_ERROR = 1 << 16
RX_PROTOCOL_ERROR = 1 << 17
RX_COLLISION = 1 << 18

TX_EOF_ONLY_AND_MASK = 0xFFFFFB3F  # clears TX_DATA_ENABLE and the frame bits: the next SEND_DATA is an EOF alone
SYSTEM_COMMAND_AND_MASK = 0xFFFFFFF8
COMMAND_TRANSCEIVE = 0x03
TRANSCEIVE_STATE_SHIFT = 24
WAIT_TRANSMIT = 1

RF_TX_ISO15693 = 0x0D  # ISO 15693 ASK100, 26 kbit/s (LOAD_RF_CONFIG's transmitter table)
RF_RX_ISO15693 = 0x8D  # ISO 15693, 26 kbit/s receiver

FLAGS_INVENTORY_16 = 0x06  # high data rate, inventory, 16 slots, no AFI
FLAGS_INVENTORY_1 = 0x26  # high data rate, inventory, 1 slot (Nb_slots_flag), no AFI
FLAGS_ADDRESSED = 0x22  # high data rate, addressed
ISO_INVENTORY = 0x01
ISO_STAY_QUIET = 0x02
ISO_RESET_TO_READY = 0x26
ISO_READ_SINGLE_BLOCK = 0x20
RESPONSE_ERROR_FLAG = 0x01

BUSY_TIMEOUT_US = 20000  # BUSY stuck beyond this: the chip is gone (no command here takes near so long)
RF_SWITCH_TIMEOUT_US = 20000
# How long a slot may stay silent before it is empty: the request (or EOF) on the air, then the tag's
# t1 (4352/fc, 321 us) and the start of its SOF (ISO/IEC 15693-3); a margin for the SPI polling.
SLOT_QUIET_US = 700
ANSWER_US = 12000  # an answer that has started (SOF seen) is complete within this (a 12-byte answer takes ~4 ms)
VCD_BYTE_US = 302  # one byte of a request at 1 out of 4 (ISO/IEC 15693-2): 4 x 75.52 us
VCD_FRAME_US = 114  # a request's SOF and EOF
FIELD_OFF_MS = 2  # long enough for the tags to lose their power (a guess: nothing on the table's parts is measured)
FIELD_ON_GUARD_MS = 2  # ISO/IEC 15693-3: a tag is ready within 1 ms of the field coming on; one more for the ramp


class PN5180:
    """One PN5180 on an SPI bus: its own chip-select (NSS) and BUSY pins; ``ticks_us``/``ticks_diff``
    bound every wait, ``sleep_ms`` times the field switching."""

    def __init__(self, spi, nss, busy, ticks_us, ticks_diff, sleep_ms):
        self.spi = spi
        self.nss = nss
        self.busy = busy
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self._sleep_ms = sleep_ms
        self.field = False
        self.exchanges = 0
        self.collisions = 0
        self.errors = 0
        nss.value(1)

    # -- the host interface -----------------------------------------------------------------

    def _wait_busy(self, level, start):
        while self.busy.value() != level:
            if self._ticks_diff(self._ticks_us(), start) > BUSY_TIMEOUT_US:
                raise OSError("PN5180 BUSY stuck %s" % ("low" if level else "high"))

    def _frame(self, out, answer=0):
        """One SPI frame out (and, if ``answer``, a second frame clocking that many bytes in)."""
        start = self._ticks_us()
        self._wait_busy(0, start)
        self.nss.value(0)
        try:
            self.spi.write(out)
            self._wait_busy(1, start)
        finally:
            self.nss.value(1)
        self._wait_busy(0, start)
        if not answer:
            return b""
        self.nss.value(0)
        try:
            got = self.spi.read(answer, 0xFF)
            self._wait_busy(1, start)
        finally:
            self.nss.value(1)
        self._wait_busy(0, start)
        return got

    def write_register(self, reg, value, command=CMD_WRITE_REGISTER):
        self._frame(bytes((command, reg, value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, (value >> 24) & 0xFF)))

    def read_register(self, reg):
        raw = self._frame(bytes((CMD_READ_REGISTER, reg)), 4)
        return raw[0] | (raw[1] << 8) | (raw[2] << 16) | (raw[3] << 24)

    def read_eeprom(self, address, count):
        return self._frame(bytes((CMD_READ_EEPROM, address, count)), count)

    def _clear(self, bits=IRQ_ALL):
        self.write_register(REG_IRQ_CLEAR, bits)

    def _transceive(self):
        """Idle, then Transceive: the chip waits to transmit the next SEND_DATA."""
        self.write_register(REG_SYSTEM_CONFIG, SYSTEM_COMMAND_AND_MASK, CMD_WRITE_REGISTER_AND_MASK)
        self.write_register(REG_SYSTEM_CONFIG, COMMAND_TRANSCEIVE, CMD_WRITE_REGISTER_OR_MASK)

    def _send(self, data, check=True):
        self._transceive()
        if check:  # once per request: a slot's EOF follows the same path, and every frame costs time
            state = (self.read_register(REG_RF_STATUS) >> TRANSCEIVE_STATE_SHIFT) & 0x07
            if state != WAIT_TRANSMIT:
                raise OSError("PN5180 not waiting to transmit (transceive state %d)" % state)
        self._frame(bytes((CMD_SEND_DATA, 0)) + bytes(data))

    def _wait_irq(self, bits, timeout_us):
        start = self._ticks_us()
        while True:
            irq = self.read_register(REG_IRQ_STATUS)
            if irq & bits:
                return irq
            if self._ticks_diff(self._ticks_us(), start) > timeout_us:
                raise OSError("PN5180 did not finish (IRQ_STATUS %08X)" % irq)

    def _rf(self, on):
        self._clear(IRQ_TX_RFON | IRQ_TX_RFOFF)
        self._frame(bytes((CMD_RF_ON if on else CMD_RF_OFF, 0)))
        self._wait_irq(IRQ_TX_RFON if on else IRQ_TX_RFOFF, RF_SWITCH_TIMEOUT_US)
        self.field = on

    # -- the array's reader interface (as firmware/mfrc522.py's) -------------------------------

    def version(self):
        raw = self.read_eeprom(EEPROM_PRODUCT_VERSION, 2)
        return raw[0] | (raw[1] << 8)

    def init(self, field=True):
        """Check the chip answers, load the ISO 15693 configuration, switch the field on (OSError if it does not answer)."""
        if self.version() in (0x0000, 0xFFFF):
            raise OSError("PN5180 does not answer")
        self._clear()
        self.write_register(REG_SYSTEM_CONFIG, SYSTEM_COMMAND_AND_MASK, CMD_WRITE_REGISTER_AND_MASK)
        self._frame(bytes((CMD_LOAD_RF_CONFIG, RF_TX_ISO15693, RF_RX_ISO15693)))
        self._rf(True)
        if self._sleep_ms is not None:
            self._sleep_ms(FIELD_ON_GUARD_MS)
        self.field = field
        if not field:
            self._rf(False)

    def cycle_field(self):
        """Field off long enough for every tag to lose power, then on: each wakes READY (quiet forgotten)."""
        self._rf(False)
        self._sleep_ms(FIELD_OFF_MS)
        self._rf(True)
        self._sleep_ms(FIELD_ON_GUARD_MS)

    def take_stats(self):
        stats = (self.exchanges, self.collisions, self.errors)
        self.exchanges = self.collisions = self.errors = 0
        return stats

    def measure(self, ticks_us, ticks_diff, count=200):
        """Microseconds per register read, per register write and per ``Pin.value()`` (the BUSY pin)."""

        def per_call(start, end):
            return ticks_diff(end, start) / count

        start = ticks_us()
        for _ in range(count):
            self.read_register(REG_IRQ_STATUS)
        read = per_call(start, ticks_us())
        start = ticks_us()
        for _ in range(count):
            self.write_register(REG_IRQ_CLEAR, 0)
        write = per_call(start, ticks_us())
        start = ticks_us()
        for _ in range(count):
            self.busy.value()
        return read, write, per_call(start, ticks_us())

    # -- ISO/IEC 15693 --------------------------------------------------------------------------

    def inventory(self, mask=0, mask_bits=0, slots=16):
        """One Inventory for the tags whose UID ends in ``mask`` (its low ``mask_bits`` bits), in 16 slots or 1.

        Returns (uids, collided): the UIDs read, and the slots (0-15; 0 alone for a 1-slot inventory)
        in which answers collided. After a 16-slot inventory each is asked again with the mask
        ``mask | slot << mask_bits``, 4 bits longer; after a 1-slot one, with the same mask in 16 slots.
        """
        self._frame(bytes((CMD_LOAD_RF_CONFIG, RF_TX_ISO15693, RF_RX_ISO15693)))  # TX_CONFIG back to whole frames
        flags = FLAGS_INVENTORY_1 if slots == 1 else FLAGS_INVENTORY_16
        request = bytes((flags, ISO_INVENTORY, mask_bits))
        request += bytes((mask >> (8 * i)) & 0xFF for i in range((mask_bits + 7) // 8))
        self._clear()
        self._send(request)
        air_us = VCD_FRAME_US + VCD_BYTE_US * (len(request) + 2)
        uids = []
        collided = []
        for slot in range(1 if slots == 1 else 16):
            got = self._slot(air_us)
            if got is None:
                pass
            elif got == "collision":
                collided.append(slot)
            else:
                uids.append(got)
            if slot < 15 and slots != 1:
                if slot == 0:  # it stays so until the next LOAD_RF_CONFIG
                    self.write_register(REG_TX_CONFIG, TX_EOF_ONLY_AND_MASK, CMD_WRITE_REGISTER_AND_MASK)
                self._clear()
                self._send(b"", check=False)
                air_us = VCD_FRAME_US
        return uids, collided

    def _receive(self, air_us):
        """What came back after a transmission: None (silence), "collision", "error" (garbled), or the answer's bytes."""
        start = self._ticks_us()
        irq = 0
        while True:
            irq = self.read_register(REG_IRQ_STATUS)
            if irq & (IRQ_RX | IRQ_GENERAL_ERROR):
                break
            waited = self._ticks_diff(self._ticks_us(), start)
            if not irq & IRQ_RX_SOF and waited > air_us + SLOT_QUIET_US:
                return None
            if waited > air_us + ANSWER_US:
                raise OSError("PN5180 reception never ended")
        self.exchanges += 1
        status = self.read_register(REG_RX_STATUS)
        if status & RX_COLLISION:
            self.collisions += 1
            return "collision"
        count = status & RX_BYTES_MASK
        if status & (RX_INTEGRITY_ERROR | RX_PROTOCOL_ERROR) or irq & IRQ_GENERAL_ERROR or not count:
            self.errors += 1
            return "error"
        return self._frame(bytes((CMD_READ_DATA, 0)), count)

    def _slot(self, air_us):
        """What one inventory slot heard: None (silence), "collision", or a UID (garbled answers count as errors, None)."""
        got = self._receive(air_us)
        if got is None or got == "collision":
            return got
        if got == "error" or len(got) != 10 or got[0] & RESPONSE_ERROR_FLAG:
            if got != "error":
                self.errors += 1
            return None
        return bytes(reversed(got[2:10]))

    def _addressed(self, command, uid, answers):
        request = bytes((FLAGS_ADDRESSED, command)) + bytes(reversed(uid))
        self._frame(bytes((CMD_LOAD_RF_CONFIG, RF_TX_ISO15693, RF_RX_ISO15693)))
        self._clear()
        self._send(request)
        air_us = VCD_FRAME_US + VCD_BYTE_US * (len(request) + 2)
        self._wait_irq(IRQ_TX, air_us + ANSWER_US)
        if answers:
            # Let the answer (flags and CRC) end before anything else goes on the air; its content says nothing new.
            start = self._ticks_us()
            while True:
                irq = self.read_register(REG_IRQ_STATUS)
                waited = self._ticks_diff(self._ticks_us(), start)
                if irq & IRQ_RX or (not irq & IRQ_RX_SOF and waited > SLOT_QUIET_US) or waited > ANSWER_US:
                    break

    def stay_quiet(self, uid):
        """Addressed Stay Quiet: ``uid`` answers no Inventory until it loses power or is reset to ready."""
        self._addressed(ISO_STAY_QUIET, uid, False)

    def reset_to_ready(self, uid):
        """Addressed Reset to Ready: a quiet ``uid`` answers Inventories again (no answer needed: the next inventory tells)."""
        self._addressed(ISO_RESET_TO_READY, uid, True)

    def check(self, uid):
        """Is ``uid`` on the pile? An addressed Read Single Block of block 0: True if it answered (an
        error answer too: only that tag answers an addressed request). A quiet tag stays quiet."""
        request = bytes((FLAGS_ADDRESSED, ISO_READ_SINGLE_BLOCK)) + bytes(reversed(uid)) + b"\x00"
        self._frame(bytes((CMD_LOAD_RF_CONFIG, RF_TX_ISO15693, RF_RX_ISO15693)))
        self._clear()
        self._send(request)
        got = self._receive(VCD_FRAME_US + VCD_BYTE_US * (len(request) + 2))
        return got is not None and not isinstance(got, str)  # silence, a collision or a garbled answer: not heard
