"""Safe removal: a folder is deleted only when it is the build's own where it stands and holds nothing else.

Reads: markers and ledgers. Removes: the build's own folders (discard, clear_leftovers, clean); anything else stays, with a warning.
Standard library only (see outdir/__init__.py).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from .marker import (MARKER, SHOWN, TEMPORARY, WRITING, alive, new_id, place, read_marker, shown, unfinished, warn, whose,
    write_marker)
from .ledger import foreign

_KEEP = ("remove it yourself if you do not need it (rm -r {}); to keep it without this warning, rename it so that "
         "its name has no .tmp-N or .old-N")


def names(left: list[str]) -> str:
    return ", ".join(left[:SHOWN]) + (f" and {len(left) - SHOWN} more" if len(left) > SHOWN else "")


def discard(folder: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> bool:
    """Remove a folder the build made: empty, or marked as the build's where it stands (`whose`; `home`:
    the output folder the swap has just moved it from) and holding nothing the build did not write.
    Anything else is left where it is, with a warning naming it. Returns whether it is gone."""
    folder = Path(folder)
    if not os.path.lexists(folder):
        return True
    if folder.is_symlink() or not folder.is_dir():
        warn(folder, "left in place: it is not a folder the build made",
              "remove it yourself if it is yours to remove")
        return False
    marker = read_marker(folder)
    why = whose(folder, marker, home) if marker is not None else None
    if why:
        warn(folder, f"left in place: {why}", _KEEP.format(shown(folder)))
        return False
    left = foreign(folder, marker)
    if left:
        warn(folder, f"left in place: it holds {names(left)}, which the build did not write",
              "move those away, or remove the folder yourself if it is yours to remove")
        return False
    if marker is not None and home is not None and marker["made"] != place(folder):
        # The old build, just moved here by the swap: mark it as being removed by this process, so a build
        # killed while removing it leaves a folder the next one recognises as a leftover.
        WRITING.add(place(folder))
        write_marker(folder, unfinished(folder, folder, new_id()))
    try:
        _remove(folder)
    finally:
        WRITING.discard(place(folder))
    return not os.path.lexists(folder)


def _remove(folder: Path) -> None:
    """Remove a folder of the build's, its marker last (until then a killed removal leaves it recognisable)."""
    import shutil

    with os.scandir(folder) as it:
        for e in it:
            if e.name == MARKER:
                continue
            if e.is_dir(follow_symlinks=False):
                shutil.rmtree(e.path, ignore_errors=True)
            else:
                try:
                    os.unlink(e.path)
                except FileNotFoundError:
                    pass
    try:
        os.unlink(folder / MARKER)
    except FileNotFoundError:
        pass
    try:
        os.rmdir(folder)
    except OSError:
        pass


def clear_leftovers(target: str | os.PathLike[str], verbose: bool = False) -> list[Path]:
    """Remove what killed builds left beside output folder `target`: folders named like its temporaries
    (X.tmp-…, X.failed.tmp-…, X.old-…) whose marker says they were made there, by a process that no
    longer runs. A running build's are kept; a marked one made elsewhere (a copy or a move of a build:
    the user's) is left with a warning naming it; an unmarked one is the user's and left as it is (with
    a warning when `verbose`: `make clean` asked to remove such names). Returns the folders left."""
    target = Path(place(target))
    if not target.parent.is_dir():
        return []
    pattern = re.compile(rf"{re.escape(target.name)}(?:\.failed)?{TEMPORARY.pattern}")
    left = []
    for path in sorted(target.parent.iterdir()):
        if not pattern.fullmatch(path.name):
            continue
        marker = read_marker(path)
        if marker is None:
            if not (verbose and discard(path)):
                left.append(path)
        elif marker["made"] == place(path):
            assert marker["pid"] is not None  # read_marker: a marker that says where it was made names its process
            if not alive(marker["pid"], marker["started"], path):
                if not discard(path):
                    left.append(path)
            else:
                left.append(path)
                if verbose:
                    warn(path, f"left in place: the build writing it (process {marker['pid']}) still runs",
                          "run make clean again when that build has finished")
        else:
            left.append(path)
            if marker["path"] != place(path):  # not a build put in place here (--out named like a temporary)
                warn(path, f"left in place: {whose(path, marker)}", _KEEP.format(shown(path)))
    return left


def clean(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the build folder `target`, its failed build's report and what killed builds left: each only
    when it is the build's own where it stands (outdir.discard, clear_leftovers); any other folder,
    whatever its name, is left with a warning naming it. Returns the folders left."""
    target = Path(place(target))
    left = [path for path in (target, target.with_name(target.name + ".failed")) if not discard(path)]
    return sorted(left + clear_leftovers(target, verbose=True))
