"""The simulated chip lives in hardware/sim/field.py and its bus in spi.py (the demo uses them too);
this puts firmware/ on sys.path for the tests that import its modules by name."""

from __future__ import annotations

from hardware.sim.field import FieldSettings, SimChip, SimField, SimTag
from hardware.sim.firmware import firmware_module
from hardware.sim.spi import SimBus

firmware_module("tcproto")

__all__ = ["FieldSettings", "SimBus", "SimChip", "SimField", "SimTag"]
