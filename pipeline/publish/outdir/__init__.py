"""The folders and files a command may replace or write, and the marker that makes a folder a build's own.

A build replaces its output folder as a whole, so it builds only into a folder that is missing,
empty, or an earlier lawbook build holding nothing the build did not write. It recognises its
own folders by the marker .lawbook-build.json, written into every folder the build makes (the
output folder, its temporaries X.tmp-PID-ID, X.failed and X.old-PID) the moment it is made:

    {"lawbook": "build", "format": 1, "complete": false,                  while being written
     "path": "/abs/X.tmp-PID-ID", "made": "/abs/X.tmp-PID-ID", "home": "/abs/X",
     "id": "ID", "pid": PID, "started": START}
    {"lawbook": "build", "format": 1, "complete": true,                   a finished build
     "path": "/abs/X", "made": "/abs/X.tmp-PID-ID", "id": "ID", "pid": PID, "started": START,
     "folders": [...], "files": {"corpus.xml": "<sha256>", ...},
     "stats": {"corpus.xml": [size, mtime_ns, ctime_ns, inode], ...}}

"path" is where the folder belongs (a finished build: the output folder it was put in place as),
"made" where the build wrote it, both absolute with the folder's parent resolved; "id" is random
(the temporary's name ends in it), "pid" and "started" (Linux: the process's start time, so a
reused PID is not taken for the build) the process that wrote it. A marker is the build's only
where it says so (`whose`): a copy or a move of a build (cp -a build build.old-2024) carries a
marker naming another place, so it is the user's: refused as --out, left alone beside it, with a
warning naming it. A folder named like a temporary is removed only when its marker says it was
made there, by a process that no longer runs. Markers written before these fields existed are
trusted only where they stand, as the folder --out names (or its X.failed), never in a folder
named like a temporary (X.tmp-…, X.old-…: the names a user's backup copy takes), and a no-op
check never finds such a build up to date (the next build writes a marker with its place).

A folder with an unfinished marker is wholly the build's (nobody else writes into a temporary).
Of a finished build only the files and folders listed are the build's, and lawbook's tool outputs
(TOOL_OUTPUTS) beside them; anything else in it is someone's file, so the build refuses the
folder and names it. A folder without a marker is the build's only when it is empty: tool outputs
never make a folder a build. Only marked folders (and empty ones) are ever deleted. The no-op
check and the reuse of an unchanged edition's files compare each file with the sha256 recorded
here; the no-op check hashes only a file whose size, times or inode differ from those recorded
with it ("stats").

Reads: the folder named by --out, its marker, the files recorded in it. Writes: markers only.
Standard library only: the no-op check (cli → cache.up_to_date) uses this before anything heavy
is imported, and `make clean` runs `python -m pipeline.publish.outdir clean build`, without the venv
when there is none.

One job per module: marker.py (the marker, whose a folder is; read_marker gives a Marker, an UnfinishedMarker
or a FinishedMarker, typed dicts of the fields above), ledger.py (the files a build wrote and the
checks against them), removal.py (safe removal), target.py (which folder a command may write).
"""
from .marker import (FORMAT, MARKER, SHOWN, TEMPORARY, TOOL_OUTPUTS, WRITING, FinishedMarker, Marker, Place,
    UnfinishedMarker, alive, inside, is_marked, make_temp, new_id, no_follow, place, process_started, read_marker,
    shown, unfinished, warn, whose, write_marker)
from .ledger import (as_recorded, changed_since_linked, entries, foreign, intact, record, restat, sha256_of, verified_files,
    verified_marker)
from .removal import clean, clear_leftovers, discard, names
from .target import (DIFF_OUTPUT, OWN_FOLDER, WHOLE, check_diff_out, check_replaceable, check_target, folder_mode, write_file)

__all__ = ["DIFF_OUTPUT", "FORMAT", "MARKER", "OWN_FOLDER", "SHOWN", "TEMPORARY", "TOOL_OUTPUTS", "WHOLE", "WRITING",
           "FinishedMarker", "Marker", "Place", "UnfinishedMarker",
           "alive", "as_recorded", "changed_since_linked", "check_diff_out", "check_replaceable", "check_target",
           "clean", "clear_leftovers", "discard", "entries", "folder_mode", "foreign", "inside", "intact",
           "is_marked", "make_temp", "names", "new_id", "no_follow", "place", "process_started", "read_marker",
           "record", "restat", "sha256_of", "shown", "unfinished", "verified_files", "verified_marker", "warn",
           "whose", "write_file", "write_marker"]
