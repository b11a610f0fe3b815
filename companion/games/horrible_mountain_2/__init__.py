"""Escape From Horrible Mountain 2 (two players): registry id ``horrible-mountain-2``."""

from .engine import HorribleMountain2

GAME = HorribleMountain2()

__all__ = ["GAME", "HorribleMountain2"]
