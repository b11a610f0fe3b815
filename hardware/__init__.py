"""The table's hardware: nfcpy readers, the reader-array serial bridge, health, and simulators."""
