# Table Companion reader array: MicroPython runs boot.py at every reset, before USB starts and
# before main.py. It gives the Pico's USB serial port a product string of its own, so that the
# Pi's udev rule (hardware/99-table-companion.rules) names this board /dev/table-array, and not
# any MicroPython Pico plugged in: every one of them is USB 2e8a:0005.
#
# machine.USBDevice (MicroPython 1.23 and later on rp2): the built-in USB serial driver is kept,
# and a string placed at one of its string indexes overrides the built-in one (docs:
# library/machine.USBDevice.rst, "builtin_driver"); index 2 is iProduct of MicroPython's built-in
# device descriptor (USBD_STR_PRODUCT, shared/tinyusb/mp_usbd.h). Older MicroPython keeps its
# default name; so does a board started with the maintenance jumper (GP13 to GND), for flashing.

import machine

PRODUCT = "TC reader array"  # at most 19 characters: MicroPython's string descriptors hold 20 (MICROPY_HW_USB_DESC_STR_MAX)
PRODUCT_INDEX = 2
MAINTENANCE_PIN = 13


def name_the_port():
    if machine.Pin(MAINTENANCE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return
    usb_device = getattr(machine, "USBDevice", None)
    if usb_device is None:
        return
    usbd = usb_device()
    usbd.active(False)
    usbd.builtin_driver = usbd.BUILTIN_DEFAULT
    builtin = usbd.builtin_driver
    usbd.config(builtin.desc_dev, builtin.desc_cfg, {PRODUCT_INDEX: PRODUCT})
    usbd.active(True)


name_the_port()
