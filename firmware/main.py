# Table Companion reader array: MicroPython entry point for a Raspberry Pi Pico (RP2040).
#
# Wiring (firmware/README.md): MFRC522 modules share SPI0 (SCK GP18, MOSI GP19, MISO GP16) and
# the reset line (GP14); each has its own chip-select from CS_PINS. Frames go out on the USB
# serial port (PROTOCOL.md). Copy this file with tcarray.py, tcproto.py and mfrc522.py to the
# board (mpremote cp ... :), and it runs at power-up.

import sys
import time

from machine import SPI, WDT, Pin

from mfrc522 import MFRC522
from tcarray import ArrayFirmware, MsClock

CS_PINS = (17, 20, 21, 22, 26, 27, 28, 15)  # channel 0, 1, 2, ... : one chip-select per reader
CHANNELS = 4  # how many readers are fitted (1..8 on these pins)
SPI_BAUD = 1000000  # 1 MHz is safe on the long wires under a table; short runs take 4 MHz
RESET_PIN = 14
MAINTENANCE_PIN = 13  # jumper GP13 to GND at power-up to stay at the REPL (for flashing)


def main():
    if Pin(MAINTENANCE_PIN, Pin.IN, Pin.PULL_UP).value() == 0:
        print("maintenance jumper set: not polling")
        return
    reset = Pin(RESET_PIN, Pin.OUT, value=0)
    time.sleep_ms(10)
    reset.value(1)  # all MFRC522s out of hard power-down
    time.sleep_ms(50)
    spi = SPI(0, baudrate=SPI_BAUD, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19), miso=Pin(16))
    readers = [MFRC522(spi, Pin(pin, Pin.OUT, value=1), time.sleep_ms) for pin in CS_PINS[:CHANNELS]]
    clock = MsClock(time.ticks_ms, time.ticks_diff)

    def write(line):
        sys.stdout.write(line)

    watchdog = WDT(timeout=5000)  # a hung SPI bus reboots the array (the host sees a boot frame)
    ArrayFirmware(readers, write, clock.ms).run(feed=watchdog.feed)


main()
