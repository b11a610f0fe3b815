"""Detectors: functions of (frame, calibration, zones) to VISION observations, one per zone kind."""
