"""A simulated SPI bus and its chip-select pins, shared by every simulated reader chip (the MFRC522s
of :mod:`hardware.sim.field`, the PN5180s of :mod:`hardware.sim.pn5180`).

The firmware's drivers use them as MicroPython's ``machine.SPI`` (``write``, ``read``) and
``machine.Pin`` (``value``): a chip-select going low selects its chip, going high ends the frame.
Two chips selected at once, or bytes clocked with none selected, is a wiring fault and fails loudly.
"""

from __future__ import annotations

from typing import Protocol


class SpiChip(Protocol):
    """What a simulated chip does with its frames on the bus."""

    def select(self) -> None:
        """Its chip-select fell: a frame begins."""

    def deselect(self) -> None:
        """Its chip-select rose: the frame is over."""

    def spi_write(self, data: bytes) -> None: ...

    def spi_read(self, count: int) -> bytes: ...


class SimBus:
    """An SPI bus whose chip-select pins route each transaction to one chip."""

    def __init__(self) -> None:
        self.selected: SpiChip | None = None
        self.transactions = 0
        self.bytes = 0
        """Bytes clocked over the bus so far (both directions at once: one per clock byte)."""

    def pin(self, chip: SpiChip) -> "SimPin":
        return SimPin(self, chip)

    def write(self, data: bytes) -> None:
        if self.selected is None:
            raise AssertionError("SPI write with no chip selected")
        self.bytes += len(data)
        self.selected.spi_write(data)

    def read(self, count: int, write: int = 0) -> bytes:
        if self.selected is None:
            raise AssertionError("SPI read with no chip selected")
        self.bytes += count
        return self.selected.spi_read(count)


class SimPin:
    """A chip-select output: low selects its chip (two selected at once is a wiring fault)."""

    def __init__(self, bus: SimBus, chip: SpiChip) -> None:
        self.bus = bus
        self.chip = chip
        self.level = 1

    def value(self, level: int | None = None) -> int:
        if level is None:
            return self.level
        if level == 0 and self.level == 1:
            if self.bus.selected is not None:
                raise AssertionError("two chips selected at once")
            self.bus.selected = self.chip
            self.bus.transactions += 1
            self.chip.select()
        elif level == 1 and self.level == 0:
            self.bus.selected = None
            self.chip.deselect()
        self.level = level
        return level
