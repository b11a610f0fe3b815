"""The simulated chip lives in hardware/sim/field.py (the demo uses it too); this puts firmware/ on
sys.path for the tests that import its modules by name."""

from __future__ import annotations

from hardware.sim.field import FieldSettings, SimBus, SimChip, SimField, SimTag
from hardware.sim.firmware import firmware_module

firmware_module("tcproto")

__all__ = ["FieldSettings", "SimBus", "SimChip", "SimField", "SimTag"]
