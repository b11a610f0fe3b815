"""The reader array's poll round: how long the firmware takes to poll every reader once.

The firmware's own code (firmware/tcarray.py, firmware/mfrc522.py) polls the simulated field
(:mod:`hardware.sim.field`), and every SPI transaction, every byte clocked and every RF exchange it
makes is counted. The counts are then timed:

- **from the standards and the code** (exact): the SPI clock (main.py's ``SPI_BAUD``), 106 kbit/s
  framing and the frame delay time (ISO/IEC 14443-2/-3), the 1 ms answer timer mfrc522.py programs,
  and a switched pad's field-on guard (``FIELD_ON_GUARD_MS``);
- **MicroPython's own time per chip-select-framed SPI transaction** (two ``Pin.value()`` calls, the
  ``spi.write``/``spi.read`` calls, a bytes object): *cited* from public RP2040 reports until
  measured on the Pico, by ``companion hw check --timing`` (the firmware's boot self-test, T frames).

Cited: polpo/rp2040-psram issue #12 reports MicroPython's hardware SPI on an RP2040 adding enough
dead time around each chip-select-framed transaction that a 100 us pulse between two
transactions took 200 us: about 50 us a transaction, chip-select toggles included. Issue 24 of
this project gives ~20 us per ``Pin.value()`` call from public reports (the source was not found
again for this module): if those two calls came on top, 90 us. Garbage collection pauses and the
USB writes of frames are in neither; the firmware's measured round has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hardware.sim.field import FieldSettings
from hardware.sim.firmware import FirmwareRig, firmware_module

SPI_BAUD = 1_000_000
"""firmware/main.py's SPI clock."""
RF_BIT_S = 128 / 13.56e6
"""One bit at 106 kbit/s (ISO/IEC 14443-2): 9.44 us."""
FDT_S = 1172 / 13.56e6
"""Frame delay time before a tag answers (ISO/IEC 14443-3, last bit 0): 86 us."""
TIMEOUT_S = 40 * 25e-6
"""mfrc522.py: TReload 40 ticks of 25 us: 1 ms waited for an answer that never comes."""


def field_on_guard_s() -> float:
    """mfrc522.py's FIELD_ON_GUARD_MS: a switched pad's field is on this long before its first REQA."""
    return float(firmware_module("mfrc522").FIELD_ON_GUARD_MS) / 1000


@dataclass(frozen=True)
class AccessCost:
    """MicroPython's own time per chip-select-framed SPI transaction, beyond the bits it clocks."""

    transaction_s: float
    source: str
    measured: bool = False


CITED = AccessCost(50e-6, "cited: ~50 us a chip-select-framed SPI transaction (polpo/rp2040-psram #12)")
CITED_PINS_ON_TOP = AccessCost(90e-6, "cited, pessimistic: the same with two Pin.value() at ~20 us each on top (issue 24)")


def measured_cost(figures: Mapping[str, str]) -> AccessCost | None:
    """The cost the array's boot self-test measured (T frames' ``rd_us``, ``spi_khz``), or None without one."""
    try:
        read_s = float(figures["rd_us"]) * 1e-6
    except (KeyError, ValueError):
        return None
    spi_hz = float(figures.get("spi_khz", SPI_BAUD / 1000)) * 1000
    where = " ".join(f"{name} {figures[name]}" for name in ("on", "mhz") if name in figures)
    clocked_s = 2 * 8 / spi_hz  # a register read clocks two bytes
    return AccessCost(max(0.0, read_s - clocked_s), f"measured: a register read took {figures['rd_us']} us ({where})", measured=True)


@dataclass(frozen=True)
class PollCount:
    """One reader state's poll, averaged over rounds: what the firmware did on the bus and in the air."""

    transactions: float
    spi_bytes: float
    exchanges: float
    timeouts: float
    air_s: float
    guard_s: float

    def seconds(self, cost: AccessCost, spi_baud: float = SPI_BAUD) -> float:
        return self.spi_bytes * 8 / spi_baud + self.transactions * cost.transaction_s + self.air_s + self.guard_s


def _air_s(tx_bits: int, rx_bits: int | None) -> float:
    """One exchange on the air: the reader's frame (a parity bit per byte, SOF/EOF), then the answer or the timer."""
    tx = (tx_bits + tx_bits // 8 + 2) * RF_BIT_S
    if rx_bits is None:
        return tx + TIMEOUT_S
    return tx + FDT_S + (rx_bits + rx_bits // 8 + 2) * RF_BIT_S


def _count(kind: str, cards: int, landing: bool, rounds: int) -> PollCount:
    rig = FirmwareRig(1, kinds=[kind], settings=FieldSettings(detune_depth=cards + rounds + 1))
    rig.firmware.boot()
    chip, bus = rig.chips[0], rig.field.bus
    for n in range(cards):
        chip.place(bytes([0x04, 0x10 + n, 0x22, 0x30, n, 0x5A, 0xA5]))
        rig.firmware.step()
    for _ in range(5):
        rig.firmware.step()
    transactions = clocked = exchanges = timeouts = 0
    air = 0.0
    for r in range(rounds):
        if landing:
            chip.place(bytes([0x04, 0x77, r, 0x30, 0x01, 0x02, 0x03]))  # a new card every poll
        chip.airlog.clear()
        before, bytes_before = bus.transactions, bus.bytes
        rig.firmware._poll(0, rig.firmware.channels[0])
        transactions += bus.transactions - before
        clocked += bus.bytes - bytes_before
        exchanges += len(chip.airlog)
        timeouts += sum(1 for _, rx in chip.airlog if rx is None)
        air += sum(_air_s(tx, rx) for tx, rx in chip.airlog)
    guard = field_on_guard_s() if kind == "pad" else 0.0
    return PollCount(transactions / rounds, clocked / rounds, exchanges / rounds, timeouts / rounds, air / rounds, guard)


def count_polls(rounds: int = 40) -> dict[str, PollCount]:
    """Per reader state, what one poll does (the firmware's own code against the simulated field)."""
    return {
        "pad, empty": _count("pad", 0, False, rounds),
        "pad, one card": _count("pad", 1, False, rounds),
        "pile, 20 cards, nothing new": _count("pile", 20, False, rounds),
        "pile, 20 cards, a card landing": _count("pile", 20, True, rounds),
    }


def poll_rounds(counts: Mapping[str, PollCount], cost: AccessCost) -> dict[str, float]:
    """Round times (ms) of two table layouts with ``cost`` per transaction."""
    c = {state: count.seconds(cost) * 1000 for state, count in counts.items()}
    return {
        "8 readers: 4 piles of 20, 4 pads empty": 4 * c["pile, 20 cards, nothing new"] + 4 * c["pad, empty"],
        "8 readers: 4 piles of 20 (one card landing), 4 pads with a card": 3 * c["pile, 20 cards, nothing new"]
        + c["pile, 20 cards, a card landing"] + 4 * c["pad, one card"],
        "16 readers: 10 piles of 20, 6 pads empty": 10 * c["pile, 20 cards, nothing new"] + 6 * c["pad, empty"],
        "16 readers: 10 piles of 20 (one card landing), 6 pads with a card": 9 * c["pile, 20 cards, nothing new"]
        + c["pile, 20 cards, a card landing"] + 6 * c["pad, one card"],
    }
