"""The marker that makes a folder a build's own: written, read, and whose it is where it stands.

Reads: a folder's marker. Writes: markers only (make_temp: a temporary folder with its unfinished marker).
Standard library only (see outdir/__init__.py).
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:
    from collections.abc import Mapping


MARKER = ".lawbook-build.json"
FORMAT = 1
# What lawbook's other commands write into a build folder (make bench, make bench-peers, make
# screenshots): the build's own in a marked build, replaced with the rest by the next build. They
# never make an unmarked folder a build.
TOOL_OUTPUTS = {"bench.json", "bench.txt", "bench-peers.json", "screenshots"}
SHOWN = 3  # names shown in a message about files the build did not write
# The names of the folders a build makes beside its output folder X and removes again: X.tmp-PID-ID
# (X.failed.tmp-PID-ID) and X.old-PID. A user's backup may be named so too.
TEMPORARY = re.compile(r"\.(?:tmp|old)-\d+(?:-.*)?")
# The folders this process is writing or removing (their places): another build in this process (a
# thread) must not take them for what an interrupted build of this process left.
WRITING: set[str] = set()


class Place(TypedDict):
    """Where a marker's folder belongs and who wrote it (see outdir/__init__.py); each None where an older
    marker has none."""
    path: str | None  # where the folder belongs
    made: str | None  # where the build wrote it
    home: str | None  # an unfinished marker's: the output folder it is to be put in place as
    id: str | None
    pid: int | None
    started: int | None  # the process's start time (Linux), where it could be read


class UnfinishedMarker(Place):
    """The marker of a folder being written (or removed): wholly the build's."""
    complete: Literal[False]


class FinishedMarker(Place):
    """The marker of a finished build, as read_marker gives it: the ledger of what the build wrote."""
    complete: Literal[True]
    files: dict[str, str]  # relative path -> sha256 ("" for what is neither a folder nor a file)
    folders: set[str]  # relative paths (a list in the file)
    stats: dict[str, list[int]]  # relative path -> [size, mtime_ns, ctime_ns, inode]; {} from an older marker
    written: int  # the marker file's mtime_ns (0 where it could not be read)


# A marker as read_marker gives it.
Marker = UnfinishedMarker | FinishedMarker


def shown(path: str | os.PathLike[str]) -> str:
    """`path` as a person would type it: relative to the working folder when inside it."""
    path = Path(path)
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` is `folder` or below it (both resolved)."""
    return path == folder or folder in path.parents


def place(folder: str | os.PathLike[str]) -> str:
    """Where `folder` stands, as a marker records it: absolute, its parent resolved (the folder itself
    is not: a symbolic link is never a build)."""
    folder = os.path.abspath(folder)
    return os.path.join(os.path.realpath(os.path.dirname(folder)), os.path.basename(folder))


def warn(folder: str | os.PathLike[str], message: str, fix: str) -> None:
    print(f"lawbook: warning: {shown(folder)}: {message}\n  fix: {fix}", file=sys.stderr)


# -- the marker --------------------------------------------------------------------------------------

def read_marker(folder: str | os.PathLike[str]) -> Marker | None:
    """The marker of `folder` as a dict, or None when `folder` is not a real folder with a valid marker.
    Its place ("path", "made", "id", "pid", "started") is None where an older marker has none."""
    folder = Path(folder)
    try:
        if folder.is_symlink() or not folder.is_dir():
            return None
        with open(folder / MARKER, "rb", opener=no_follow) as f:
            data = json.loads(f.read(16 * 1024 * 1024))
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and data.get("lawbook") == "build" and data.get("format") == FORMAT):
        return None
    where: Place = {"path": data.get("path"), "made": data.get("made"), "home": data.get("home"), "id": data.get("id"),
                    "pid": data.get("pid"), "started": data.get("started")}
    if not (all(v is None or isinstance(v, str) for k, v in where.items() if k not in ("pid", "started"))
            and all(v is None or type(v) is int for v in (where["pid"], where["started"]))):
        return None
    if (where["path"] is None) != (where["made"] is None) or \
            where["made"] is not None and not (where["pid"] and where["pid"] > 0):
        return None  # half a place, or no process: not a marker this code wrote
    if data.get("complete") is not True:
        return {"complete": False, **where}
    files, folders = data.get("files"), data.get("folders")
    if not (isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
            and isinstance(folders, list) and all(isinstance(d, str) for d in folders)):
        return None
    stats = data.get("stats")
    if not (isinstance(stats, dict) and all(isinstance(v, list) and all(type(n) is int for n in v)
                                            for v in stats.values())):
        stats = {}  # an older marker (or a damaged one): every file is hashed
    try:
        written = os.stat(folder / MARKER).st_mtime_ns
    except OSError:
        written = 0
    return {"complete": True, "files": files, "folders": set(folders), "stats": stats, "written": written, **where}


def no_follow(path: str, flags: int) -> int:
    """An opener for open() that refuses to follow a symbolic link at `path` (an output folder's files
    are read and written only where they are, never through a link someone put there)."""
    return os.open(path, flags | os.O_NOFOLLOW)


def is_marked(folder: str | os.PathLike[str]) -> bool:
    return read_marker(folder) is not None


def whose(folder: str | os.PathLike[str], marker: Place, home: str | os.PathLike[str] | None = None) -> str | None:
    """None when `marker` (read from `folder`) makes `folder` the build's where it stands: written there
    ("made"), or belonging there ("path"), or belonging at `home`, the output folder the caller (the
    swap) has just moved it from. Else why it is the user's, for a message."""
    here = place(folder)
    if marker["made"] is None:  # an older marker: trusted where it stands, never under a temporary's name
        if home is None and TEMPORARY.search(Path(here).name):
            return ("its marker, from an older lawbook, does not say where the build wrote it, so under a "
                    "temporary's name it may be a copy of a build: it is yours")
        return None
    if here in (marker["path"], marker["made"]) or home is not None and marker["path"] == place(home):
        return None
    assert marker["path"] is not None  # read_marker: a marker that says where it was made says where it belongs
    return f"its marker says the build wrote it as {shown(marker['path'])}, so it is a copy or a move of that build: " \
           f"it is yours"


def process_started(pid: int) -> int | None:
    """When process `pid` started (clock ticks after boot, from Linux's /proc), or None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2:].split()[19])  # field 22, counted after the name's ")"
    except (OSError, ValueError, IndexError):
        return None


def alive(pid: int, started: int | None, folder: str | os.PathLike[str]) -> bool:
    """Whether the build process that wrote `folder`'s marker still works on it: `pid` exists and, where
    its start time was recorded and can be read, started then (a PID the system reused is another
    process); in this process, whether it is writing or removing `folder` now."""
    if pid == os.getpid():
        return place(folder) in WRITING  # else an earlier build in this process left it: interrupted
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except (OverflowError, ValueError):
        return False
    now = process_started(pid)
    return started is None or now is None or now == started


def write_marker(folder: str | os.PathLike[str], data: Mapping[str, object]) -> None:
    """Write `data` (a marker's fields: an unfinished marker, a finished build's ledger, or a marker read
    back and amended) as `folder`'s marker, replacing the last in one step."""
    tmp = Path(folder) / f"{MARKER}.{os.getpid()}"
    tmp.write_text(json.dumps({"lawbook": "build", "format": FORMAT, **data}, indent=1, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, Path(folder) / MARKER)


def new_id() -> str:
    import secrets  # here: the no-op check (intact) needs neither secrets nor shutil

    return secrets.token_hex(8)


def unfinished(folder: str | os.PathLike[str], home: str | os.PathLike[str], build_id: str) -> UnfinishedMarker:
    """The marker of a folder this process is writing (or removing) at `folder`, to be put in place at `home`."""
    here = place(folder)
    return {"complete": False, "path": here, "made": here, "home": place(home), "id": build_id,
            "pid": os.getpid(), "started": process_started(os.getpid())}


def make_temp(target: str | os.PathLike[str]) -> Path:
    """A new folder `<target>.tmp-PID-ID` beside `target`, marked as the build's from the start: made here,
    to be put in place at `target`, by this process. Made with mode 0777 less the umask (the mode a new
    output folder gets)."""
    target = Path(target)
    while True:
        build_id = new_id()
        path = target.with_name(f"{target.name}.tmp-{os.getpid()}-{build_id}")
        try:
            os.mkdir(path, 0o777)
            break
        except FileExistsError:
            continue
    WRITING.add(place(path))
    write_marker(path, unfinished(path, target, build_id))
    return path
