# Table Companion reader array: MicroPython entry point for a Raspberry Pi Pico (RP2040).
#
# Wiring (docs/hardware.md, "The reader array"): up to 8 MFRC522 modules per SPI bus, two buses.
# Many RC522 modules do not release MISO when deselected, so each module's MISO reaches its bus
# through a 74HC125 tri-state buffer enabled by that module's own chip-select; a bus of modules
# that do release it may go without. Bus 0 is SPI0 (SCK GP18, MOSI GP19, MISO GP16) for channels
# 0-7, bus 1 is SPI1 (SCK GP10, MOSI GP11, MISO GP12) for channels 8-15; all share the reset line
# (GP14). Frames go out on the USB serial port (PROTOCOL.md). Copy this file with tcarray.py,
# tcproto.py, tcleds.py, tcvicinity.py, mfrc522.py and pn5180.py to the board (mpremote cp ... :),
# and it runs at power-up.
#
# ISO 15693 piles (firmware 2.4, docs/hardware.md "The ISO 15693 pile"): a PN5180 module in a
# channel's place on its bus (NSS on the channel's chip-select, RST on the shared reset line), with
# its BUSY output on its own input, BUSY_PINS[channel]; that channel's kind is VPILE.
#
# Lights (firmware 2.3, docs/hardware.md "Lights"): one WS2812/SK6812 per channel, chained in channel
# order, data in on LED_PIN through a 3.3 V -> 5 V level shifter and a ~330 ohm resistor.

import sys
import time

import machine
from machine import SPI, WDT, Pin

from mfrc522 import MFRC522
from pn5180 import PN5180
from tcarray import PAD, PILE, VPILE, ArrayFirmware, MsClock
from tcleds import Leds

try:
    import neopixel  # MicroPython's WS2812 driver; absent on CPython, where only the constants are read
except ImportError:
    neopixel = None

# Channel N's chip-select pin; channels 0-7 are on bus 0, 8-15 on bus 1.
CS_PINS = (17, 20, 21, 22, 26, 27, 28, 15, 2, 3, 4, 5, 6, 7, 8, 9)
BUS_PINS = ((18, 19, 16), (10, 11, 12))  # (SCK, MOSI, MISO) of SPI0 and SPI1
CHANNELS = 4  # how many readers are fitted (1..16), channels 0..CHANNELS-1
# Per channel: VPILE where cards stack up (central piles, action piles): a PN5180 reading the cards'
# ISO 15693 stickers; PAD where a card comes and goes (hand pads, table slots): an RC522, its field
# on only while it is polled. PILE (an RC522 pile) reads a stack only as deep as its measured depth.
KINDS = (VPILE, VPILE, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD, PAD)
# Pairs of channels whose antennas are closer than ~8 cm. Only pads may be neighbours: lay every pile
# ~8 cm from any other reader (tcarray refuses a pile next to a pile or a pad, and says why).
NEIGHBOURS = ((2, 3),)
# A VPILE channel's PN5180 BUSY line: here the chip-select pins of channels 14 and 15 (GP8, GP9),
# free while CHANNELS is 14 or fewer.
BUSY_PINS = {0: 9, 1: 8}
# Call buttons on the players' pads (PROTOCOL.md, P frames): button N on GPIO BUTTON_PINS[N], wired
# to GND (the internal pull-up holds it high). Free pins: GP0, GP1, and the chip-select pins of
# channels not fitted (with CHANNELS = 12, those of channels 12-15: GP6-GP9).
BUTTON_PINS = ()
SPI_BAUD = 1000000  # 1 MHz is safe on the long wires under a table; short runs take 4 MHz
RESET_PIN = 14
MAINTENANCE_PIN = 13  # jumper GP13 to GND at power-up to stay at the REPL (for flashing)
LEDS = True  # an LED per channel is fitted (False: no lights; the host is told there are none)
LED_PIN = 0  # GP0: the data line of the LED chain (GP1 stays free for a button)
LED_BRIGHTNESS = 0.25  # of full scale: 16 LEDs at full white draw ~1 A; a quarter keeps them under 250 mA


def host_reader():
    """What the host has sent so far over the USB serial port (b"" if nothing), never waiting."""
    import select

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read():
        got = b""
        while len(got) < 64 and poller.poll(0):
            got += sys.stdin.buffer.read(1)
        return got

    return read


def main():
    if Pin(MAINTENANCE_PIN, Pin.IN, Pin.PULL_UP).value() == 0:
        print("maintenance jumper set: not polling")
        return
    reset = Pin(RESET_PIN, Pin.OUT, value=0)
    time.sleep_ms(10)
    reset.value(1)  # all MFRC522s out of hard power-down
    time.sleep_ms(50)
    buses = []
    for bus in range(2 if CHANNELS > 8 else 1):
        sck, mosi, miso = BUS_PINS[bus]
        buses.append(SPI(bus, baudrate=SPI_BAUD, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi), miso=Pin(miso)))
    readers = []
    for channel in range(CHANNELS):
        cs = Pin(CS_PINS[channel], Pin.OUT, value=1)
        if KINDS[channel] == VPILE:
            busy = BUSY_PINS[channel]
            if busy in CS_PINS[:CHANNELS] or busy in (RESET_PIN, MAINTENANCE_PIN, LED_PIN) or busy in BUTTON_PINS:
                raise ValueError("BUSY pin GP%d of channel %d is wired to something else; choose a free pin" % (busy, channel))
            readers.append(PN5180(buses[channel // 8], cs, Pin(busy, Pin.IN), time.ticks_us, time.ticks_diff, time.sleep_ms))
        else:
            readers.append(MFRC522(buses[channel // 8], cs, time.sleep_ms))
    neighbours = [(a, b) for a, b in NEIGHBOURS if a < CHANNELS and b < CHANNELS]
    for pin in BUTTON_PINS:
        if pin in CS_PINS[:CHANNELS] or pin in (RESET_PIN, MAINTENANCE_PIN):
            raise ValueError("button pin GP%d is wired to a reader; choose a free pin" % pin)
    buttons = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in BUTTON_PINS]
    clock = MsClock(time.ticks_ms, time.ticks_diff)

    def write(line):
        sys.stdout.write(line)

    leds = None
    if LEDS and neopixel is not None:
        if LED_PIN in CS_PINS[:CHANNELS] or LED_PIN in (RESET_PIN, MAINTENANCE_PIN) or LED_PIN in BUTTON_PINS:
            raise ValueError("LED pin GP%d is wired to something else; choose a free pin" % LED_PIN)
        leds = Leds(neopixel.NeoPixel(Pin(LED_PIN, Pin.OUT), CHANNELS), CHANNELS, LED_BRIGHTNESS)

    watchdog = WDT(timeout=5000)  # a hung SPI bus reboots the array (the host sees a boot frame)
    # What `companion hw check --timing` is told the figures were measured on.
    board = [("on", sys.platform), ("mhz", str(machine.freq() // 1000000)), ("spi_khz", str(SPI_BAUD // 1000))]
    ArrayFirmware(readers, write, clock.ms, kinds=KINDS[:CHANNELS], neighbours=neighbours,
                  ticks_us=time.ticks_us, ticks_diff=time.ticks_diff, board=board, buttons=buttons,
                  leds=leds, host_input=host_reader()).run(feed=watchdog.feed)


main()
