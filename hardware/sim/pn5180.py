"""A simulated NXP PN5180 on a simulated SPI bus, with its BUSY line and a microsecond clock: the
firmware's own driver (``firmware/pn5180.py``) runs against it unchanged, as ``firmware/mfrc522.py``
runs against :mod:`hardware.sim.field`.

The chip keeps the host interface's rules (one instruction per NSS frame, the answer in a second
frame, BUSY high from the end of a frame's bytes until the chip is done with it) and hands what it
transmits to a :class:`~hardware.sim.vicinity.VicinityPile`, which says what the tags answer and
when. IRQ_STATUS bits are set when their moment on the simulated clock has come.

Time moves only through what the firmware does: every SPI frame costs ``spi_frame_us`` and every
``Pin.value()`` ``pin_us`` (issue 24's figures for MicroPython on an RP2040, about 50 us and 20 us:
cited from public reports, to be replaced by ``companion hw check --timing`` on a real Pico), the
chip holds BUSY ``busy_us`` after each frame (a guess: the datasheet's figure is not on this machine),
and sleeping moves it as asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.sim.vicinity import Reception, VicinityPile

SPI_FRAME_US = 50.0
PIN_US = 20.0
BUSY_US = 10.0
RF_SWITCH_US = 60.0
"""From RF_ON (RF_OFF) to its IRQ: the transmitter's ramp (a guess)."""
PRODUCT_VERSION = 0x0302

REG_SYSTEM_CONFIG = 0x00
REG_IRQ_STATUS = 0x02
REG_IRQ_CLEAR = 0x03
REG_RX_STATUS = 0x13
REG_TX_CONFIG = 0x18
REG_RF_STATUS = 0x1D

IRQ_RX = 1 << 0
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFOFF = 1 << 8
IRQ_TX_RFON = 1 << 9
IRQ_RX_SOF = 1 << 14
IRQ_GENERAL_ERROR = 1 << 17
RX_COLLISION = 1 << 18
TX_DATA_ENABLE = 1 << 10
TX_CONFIG_LOADED = 0x000004C0 | 0x3F  # what LOAD_RF_CONFIG's ISO 15693 entry leaves there (data enabled)


class SimClockUs:
    """The simulated array's clock, in microseconds; the firmware reads it as ticks and milliseconds."""

    def __init__(self, start_us: float = 1_000_000.0) -> None:
        self.now = start_us

    def ticks_us(self) -> int:
        return int(self.now)

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return a - b

    def ms(self) -> int:
        return int(self.now // 1000)

    def sleep_ms(self, ms: int) -> None:
        self.now += ms * 1000

    def advance(self, us: float) -> None:
        self.now += us


@dataclass
class SimPN5180:
    """One PN5180 and its antenna over ``pile``. ``alive`` False: unplugged (BUSY never rises, MISO reads 0xFF)."""

    clock: SimClockUs
    pile: VicinityPile
    alive: bool = True
    busy_us: float = BUSY_US
    regs: dict[int, int] = field(default_factory=dict)
    frames: int = 0
    _out: bytearray = field(default_factory=bytearray)
    _answer: bytes = b""
    _busy_high: bool = False
    _busy_until: float = 0.0
    _irq: dict[int, float] = field(default_factory=dict)
    """IRQ bit -> the clock at which it is (or will be) set."""
    _reception: Reception | None = None
    _transceive: int = 0
    """TRANSCEIVE_STATE: 0 idle, 1 wait transmit, 3 wait receive."""

    # -- the pins and the bus -----------------------------------------------------------------

    def busy(self) -> int:
        if not self.alive:
            return 0
        return 1 if self._busy_high or self.clock.now < self._busy_until else 0

    def select(self) -> None:
        self._out = bytearray()

    def spi_write(self, data: bytes) -> None:
        self._out += data
        self._busy_high = self.alive  # the frame's bytes are in: the chip starts on them

    def spi_read(self, count: int) -> bytes:
        self._busy_high = self.alive
        if not self.alive:
            return b"\xff" * count
        answer, self._answer = self._answer[:count], b""
        return answer + b"\xff" * (count - len(answer))

    def deselect(self) -> None:
        self.frames += 1
        self.clock.advance(SPI_FRAME_US)
        if self._busy_high:
            self._busy_high = False
            self._busy_until = self.clock.now + self.busy_us
            if self._out:
                self._instruction(bytes(self._out))
        self._out = bytearray()

    # -- instructions -------------------------------------------------------------------------

    def _instruction(self, frame: bytes) -> None:
        command, args = frame[0], frame[1:]
        now = self.clock.now
        if command in (0x00, 0x01, 0x02) and len(args) == 5:
            value = int.from_bytes(args[1:5], "little")
            old = self._read_reg(args[0])
            self._write_reg(args[0], value if command == 0x00 else old | value if command == 0x01 else old & value)
        elif command == 0x04 and len(args) == 1:
            self._answer = self._read_reg(args[0]).to_bytes(4, "little")
        elif command == 0x07 and len(args) == 2:
            eeprom = {0x10: PRODUCT_VERSION & 0xFF, 0x11: PRODUCT_VERSION >> 8}
            self._answer = bytes(eeprom.get(args[0] + i, 0) for i in range(args[1]))
        elif command == 0x09 and len(args) >= 1:
            self._send(args[1:], now)
        elif command == 0x0A:
            self._answer = self._reception.data if self._reception is not None else b""
        elif command == 0x11 and len(args) == 2:
            self.regs[REG_TX_CONFIG] = TX_CONFIG_LOADED
        elif command in (0x16, 0x17):
            on = command == 0x16
            self.pile.rf(on)
            self._irq[IRQ_TX_RFON if on else IRQ_TX_RFOFF] = now + RF_SWITCH_US
        else:
            self._irq[IRQ_GENERAL_ERROR] = now

    def _send(self, data: bytes, now: float) -> None:
        if self._transceive != 1:
            self._irq[IRQ_GENERAL_ERROR] = now
            return
        eof_only = not self.regs.get(REG_TX_CONFIG, TX_CONFIG_LOADED) & TX_DATA_ENABLE
        tx_end, reception = self.pile.transmit(None if eof_only else data, now)
        self._transceive = 3
        self._irq[IRQ_TX] = tx_end
        self._reception = reception
        if reception is not None:
            self._irq[IRQ_RX_SOF] = reception.sof_at
            self._irq[IRQ_RX] = reception.done_at

    def _read_reg(self, reg: int) -> int:
        now = self.clock.now
        if reg == REG_IRQ_STATUS:
            return sum(bit for bit, at in self._irq.items() if at <= now)
        if reg == REG_RX_STATUS:
            r = self._reception
            if r is None or r.done_at > now:
                return 0
            return RX_COLLISION if r.collision else len(r.data)
        if reg == REG_RF_STATUS:
            return self._transceive << 24
        return self.regs.get(reg, 0)

    def _write_reg(self, reg: int, value: int) -> None:
        if reg == REG_IRQ_CLEAR:
            now = self.clock.now
            self._irq = {bit: at for bit, at in self._irq.items() if not (bit & value and at <= now)}
            return
        if reg == REG_SYSTEM_CONFIG:
            command = value & 0x07
            if command == 0:
                self._transceive = 0
                self._reception = None
                self._irq = {bit: at for bit, at in self._irq.items() if at <= self.clock.now}  # a reception under way stops
            elif command == 3 and self._transceive == 0:
                self._transceive = 1
        self.regs[reg] = value


class SimBusy:
    """A PN5180's BUSY output as an input pin; each read costs the time a ``Pin.value()`` takes."""

    def __init__(self, chip: SimPN5180) -> None:
        self.chip = chip

    def value(self) -> int:
        self.chip.clock.advance(PIN_US)
        return self.chip.busy()
