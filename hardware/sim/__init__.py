"""Simulated peers for the hardware path: a reader array over a pty, NFC tags over nfcpy's udp device."""
