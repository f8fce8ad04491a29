"""The ledger of a finished build: every file it wrote with its sha256 and stat, and the checks against it.

Reads: the files of a build folder and its marker. Writes: the marker's "files", "folders" and "stats".
Standard library only (see outdir/__init__.py).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .marker import MARKER, TOOL_OUTPUTS, new_id, no_follow, place, read_marker, unfinished, write_marker

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Literal

    from .marker import FinishedMarker, Marker


def entries(folder: str | os.PathLike[str]) -> Iterator[tuple[str, Literal["dir", "file", "other"]]]:
    """(relative path, "dir" | "file" | "other") of everything below `folder`, symbolic links not followed."""
    folder = Path(folder)
    stack = [""]
    while stack:
        rel = stack.pop()
        with os.scandir(folder / rel if rel else folder) as it:
            for e in sorted(it, key=lambda e: e.name):
                path = f"{rel}/{e.name}" if rel else e.name
                if e.is_dir(follow_symlinks=False):
                    yield path, "dir"
                    stack.append(path)
                elif e.is_file(follow_symlinks=False):
                    yield path, "file"
                else:
                    yield path, "other"


def sha256_of(path: str | os.PathLike[str]) -> str:
    with open(path, "rb", opener=no_follow) as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _stat_of(path: str | os.PathLike[str]) -> list[int]:
    """What changes whenever a file's bytes change (its size, times and inode), as the marker records it."""
    st = os.lstat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def record(folder: str | os.PathLike[str]) -> dict[str, str]:
    """Mark `folder` (a build just written) finished, listing every folder and file in it with its sha256,
    and with each file's size, times and inode (`stats`: intact() hashes only a file whose stat changed).
    Its place: the output folder its temporary's marker names ("home"), where it was made, the build's id
    and process; a folder without a temporary's marker belongs where it stands."""
    folders: list[str] = []
    files: dict[str, str] = {}
    stats: dict[str, list[int]] = {}
    for rel, kind in entries(folder):
        if rel == MARKER:
            continue
        if kind == "dir":
            folders.append(rel)
        elif kind == "file":
            # Stat before hashing: a file written meanwhile then differs from its stat.
            stats[rel] = _stat_of(Path(folder) / rel)
            files[rel] = sha256_of(Path(folder) / rel)
        else:  # a build writes only folders and files: anything else is recorded as a file, and fails to verify
            files[rel] = ""
    was = read_marker(folder)
    if was is None or was["made"] is None or was["made"] != place(folder):
        was = unfinished(folder, folder, new_id())
    where = {"path": was["home"] or was["path"], "made": was["made"], "id": was["id"], "pid": was["pid"],
             "started": was["started"]}
    write_marker(folder, {"complete": True, "folders": sorted(folders), "files": files, "stats": stats, **where})
    return files


def changed_since_linked(files: Mapping[str, str], folder: str | os.PathLike[str], home: str | os.PathLike[str],
                         recorded: Mapping[str, str] | None) -> list[str]:
    """Of the files of the build just recorded in `folder` (`files`, {path: sha256}, as record() returns
    them), those that are the same file as in the build at `home` (hard-linked from it,
    cache.copy_previous) but whose bytes are not what that build recorded (`recorded`): changed in place
    while this build ran. A file is linked only when it is the one recorded, so its bytes can differ
    only so; such a build would hold what it did not make."""
    if not recorded:
        return []
    changed = []
    for rel, sha in files.items():
        if rel in recorded and sha != recorded[rel]:
            try:
                if os.path.samefile(Path(folder) / rel, Path(home) / rel):
                    changed.append(rel)
            except OSError:
                continue
    return sorted(changed)


def restat(folder: str | os.PathLike[str]) -> None:
    """Record anew the stats of the files of the finished build in `folder` whose stat changed while it was
    put in place. A file hard-linked from the previous build (cache.copy_previous) changes its ctime when
    that build is removed (an unlink changes the file's ctime), so its recorded stat no longer tells and
    the next build would hash and copy it instead of linking it. Each such file is hashed once more: still
    the recorded file, its stat is recorded; else its stat is dropped (intact() then hashes it and finds
    it changed). The marker is replaced in one step; on any error it is left as it was (only slower)."""
    path = Path(folder) / MARKER
    try:
        with open(path, "rb", opener=no_follow) as f:
            data = json.loads(f.read(16 * 1024 * 1024))
        files, stats = data["files"], data["stats"]
        changed = False
        for rel, recorded in list(stats.items()):
            now = _stat_of(Path(folder) / rel)
            if now == recorded:
                continue
            changed = True
            if now[0] == recorded[0] and now[1] == recorded[1] and now[3] == recorded[3] \
                    and sha256_of(Path(folder) / rel) == files.get(rel):
                stats[rel] = now
            else:
                del stats[rel]
        if changed:
            write_marker(folder, {k: v for k, v in data.items() if k not in ("lawbook", "format")})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return


def foreign(folder: str | os.PathLike[str], marker: Marker | None = None) -> list[str]:
    """What in `folder` the build did not write, as relative paths (a folder without its contents).
    Without a marker everything is foreign, lawbook's tool outputs too; with an unfinished marker
    nothing is; in a finished build, what its marker does not list, lawbook's tool outputs aside."""
    marker = marker if marker is not None else read_marker(folder)
    if marker is not None and not marker["complete"]:
        return []
    found: list[str] = []
    skip: tuple[str, ...] = ()
    for rel, kind in entries(folder):
        if rel.startswith(skip):
            continue
        if marker is not None and (rel == MARKER or rel.split("/", 1)[0] in TOOL_OUTPUTS):
            continue
        ours = marker is not None and (rel in marker["folders"] if kind == "dir" else rel in marker["files"])
        if not ours:
            found.append(rel)
            if kind == "dir":
                skip += (rel + "/",)
    return found


def intact(folder: str | os.PathLike[str]) -> bool:
    """True when `folder` is a finished build standing where the build put it (its marker names this place:
    an older marker without one never is), whose every recorded file is there with its recorded sha256
    and which holds nothing else (lawbook's tool outputs aside)."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"] or marker["path"] != place(folder) or foreign(folder, marker):
        return False
    return all(os.path.isdir(Path(folder) / d) for d in marker["folders"]) and \
        all(_unchanged(Path(folder) / rel, marker, rel) or _matches(Path(folder) / rel, sha)
            for rel, sha in marker["files"].items())


def _unchanged(path: Path, marker: FinishedMarker, rel: str) -> bool:
    """Whether the file has the size, times and inode the marker recorded, and they tell: its times are
    older than the marker's own (a file rewritten within the clock tick the marker was written in could
    keep its times, so such a file is hashed)."""
    recorded = marker["stats"].get(rel)
    if not recorded or len(recorded) != 4 or max(recorded[1], recorded[2]) >= marker["written"]:
        return False
    try:
        return _stat_of(path) == recorded
    except OSError:
        return False


def _matches(path: Path, sha: str) -> bool:
    try:
        return sha256_of(path) == sha
    except OSError:
        return False


def verified_files(folder: str | os.PathLike[str], names: Iterable[str] = ()) -> dict[str, str]:
    """The files recorded in `folder`'s finished marker ({relative path: sha256}), or {} when it has none
    or when any of `names` (files the caller relies on) is missing or differs from its record."""
    marker = verified_marker(folder, names)
    return marker["files"] if marker is not None else {}


def verified_marker(folder: str | os.PathLike[str], names: Iterable[str] = ()) -> FinishedMarker | None:
    """`folder`'s finished marker, or None when it has none or when any of `names` (files the caller
    relies on) is missing or differs from its record."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"]:
        return None
    files = marker["files"]
    if not all(name in files and _matches(Path(folder) / name, files[name]) for name in names):
        return None
    return marker


def as_recorded(folder: str | os.PathLike[str], marker: FinishedMarker, rel: str) -> bool:
    """Whether the file `rel` of the finished build in `folder` is the one its marker records, known from
    its stat alone (size, times, inode: see _unchanged); False when only its bytes could tell."""
    return _unchanged(Path(folder) / rel, marker, rel)
