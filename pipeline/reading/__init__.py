"""Layer 1, reading: the manifest, bytes to lines, the source formats, notes and text repair.

Imports only core."""
