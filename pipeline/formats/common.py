"""Line shapes shared by the readers."""
import re

# "B. Om een onreglementair spelen te herstellen", "E1. Wijziging …", "D.\u00a0\u00a0Behandeling …"
LETTERED = re.compile(r"^([A-Z])(\d*)\.[\s\u00a0]+(\S.*)$")
# "1. 1. Met uitzondering …" (subsection and its first item on one line)
DOUBLE = re.compile(r"^(\s*)(\d+)\.[\s\u00a0]+(\d+)\.[\s\u00a0]+(\S.*)$")
NUMBERED = re.compile(r"^(\s*)(\d+)\.[\s\u00a0]+(\S.*)$")


def is_heading_like(text, max_length=90):
    """A heading or title: one short line, capitalised, without closing punctuation."""
    text = text.strip()
    return (0 < len(text) <= max_length and text[0].isupper() and not re.search(r"[.:;,!?)]$", text)
            and "\ue000" not in text)


def indent_level(indent):
    """Wiki exports indent nested list numbers by three spaces a level."""
    width = len(indent.replace("\t", "   "))
    return (width + 1) // 3
