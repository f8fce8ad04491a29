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
"""
import hashlib
import json
import os
import re
import sys
from pathlib import Path

from ..core.errors import LawbookError

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
_WRITING: set[str] = set()


def shown(path):
    """`path` as a person would type it: relative to the working folder when inside it."""
    path = Path(path)
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


def _inside(path, folder):
    """Whether `path` is `folder` or below it (both resolved)."""
    return path == folder or folder in path.parents


def place(folder) -> str:
    """Where `folder` stands, as a marker records it: absolute, its parent resolved (the folder itself
    is not: a symbolic link is never a build)."""
    folder = os.path.abspath(folder)
    return os.path.join(os.path.realpath(os.path.dirname(folder)), os.path.basename(folder))


def _warn(folder, message: str, fix: str) -> None:
    print(f"lawbook: warning: {shown(folder)}: {message}\n  fix: {fix}", file=sys.stderr)


# -- the marker --------------------------------------------------------------------------------------

def read_marker(folder):
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
    where = {key: data.get(key) for key in ("path", "made", "home", "id")}
    where.update(pid=data.get("pid"), started=data.get("started"))
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
    if not (isinstance(stats, dict) and all(isinstance(v, list) for v in stats.values())):
        stats = {}  # an older marker: every file is hashed
    try:
        written = os.stat(folder / MARKER).st_mtime_ns
    except OSError:
        written = 0
    return {"complete": True, "files": files, "folders": set(folders), "stats": stats, "written": written, **where}


def no_follow(path, flags):
    """An opener for open() that refuses to follow a symbolic link at `path` (an output folder's files
    are read and written only where they are, never through a link someone put there)."""
    return os.open(path, flags | os.O_NOFOLLOW)


def is_marked(folder):
    return read_marker(folder) is not None


def whose(folder, marker, home=None) -> str | None:
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
    return f"its marker says the build wrote it as {shown(marker['path'])}, so it is a copy or a move of that build: " \
           f"it is yours"


def _process_started(pid: int) -> int | None:
    """When process `pid` started (clock ticks after boot, from Linux's /proc), or None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2:].split()[19])  # field 22, counted after the name's ")"
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int, started: int | None, folder) -> bool:
    """Whether the build process that wrote `folder`'s marker still works on it: `pid` exists and, where
    its start time was recorded and can be read, started then (a PID the system reused is another
    process); in this process, whether it is writing or removing `folder` now."""
    if pid == os.getpid():
        return place(folder) in _WRITING  # else an earlier build in this process left it: interrupted
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except (OverflowError, ValueError):
        return False
    now = _process_started(pid)
    return started is None or now is None or now == started


def _write_marker(folder, data):
    tmp = Path(folder) / f"{MARKER}.{os.getpid()}"
    tmp.write_text(json.dumps({"lawbook": "build", "format": FORMAT, **data}, indent=1, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, Path(folder) / MARKER)


def _new_id() -> str:
    import secrets  # here: the no-op check (intact) needs neither secrets nor shutil

    return secrets.token_hex(8)


def _unfinished(folder, home, build_id: str) -> dict:
    """The marker of a folder this process is writing (or removing) at `folder`, to be put in place at `home`."""
    here = place(folder)
    return {"complete": False, "path": here, "made": here, "home": place(home), "id": build_id,
            "pid": os.getpid(), "started": _process_started(os.getpid())}


def make_temp(target):
    """A new folder `<target>.tmp-PID-ID` beside `target`, marked as the build's from the start: made here,
    to be put in place at `target`, by this process. Made with mode 0777 less the umask (the mode a new
    output folder gets)."""
    target = Path(target)
    while True:
        build_id = _new_id()
        path = target.with_name(f"{target.name}.tmp-{os.getpid()}-{build_id}")
        try:
            os.mkdir(path, 0o777)
            break
        except FileExistsError:
            continue
    _WRITING.add(place(path))
    _write_marker(path, _unfinished(path, target, build_id))
    return path


def entries(folder):
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


def sha256_of(path):
    with open(path, "rb", opener=no_follow) as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _stat_of(path):
    """What changes whenever a file's bytes change (its size, times and inode), as the marker records it."""
    st = os.lstat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def record(folder):
    """Mark `folder` (a build just written) finished, listing every folder and file in it with its sha256,
    and with each file's size, times and inode (`stats`: intact() hashes only a file whose stat changed).
    Its place: the output folder its temporary's marker names ("home"), where it was made, the build's id
    and process; a folder without a temporary's marker belongs where it stands."""
    folders, files, stats = [], {}, {}
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
        was = _unfinished(folder, folder, _new_id())
    where = {"path": was["home"] or was["path"], "made": was["made"], "id": was["id"], "pid": was["pid"],
             "started": was["started"]}
    _write_marker(folder, {"complete": True, "folders": sorted(folders), "files": files, "stats": stats, **where})
    return files


def changed_since_linked(files, folder, home, recorded):
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


def restat(folder):
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
            _write_marker(folder, {k: v for k, v in data.items() if k not in ("lawbook", "format")})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return


def foreign(folder, marker=None):
    """What in `folder` the build did not write, as relative paths (a folder without its contents).
    Without a marker everything is foreign, lawbook's tool outputs too; with an unfinished marker
    nothing is; in a finished build, what its marker does not list, lawbook's tool outputs aside."""
    marker = marker if marker is not None else read_marker(folder)
    if marker is not None and not marker["complete"]:
        return []
    found, skip = [], ()
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


def intact(folder):
    """True when `folder` is a finished build standing where the build put it (its marker names this place:
    an older marker without one never is), whose every recorded file is there with its recorded sha256
    and which holds nothing else (lawbook's tool outputs aside)."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"] or marker["path"] != place(folder) or foreign(folder, marker):
        return False
    return all(os.path.isdir(Path(folder) / d) for d in marker["folders"]) and \
        all(_unchanged(Path(folder) / rel, marker, rel) or _matches(Path(folder) / rel, sha)
            for rel, sha in marker["files"].items())


def _unchanged(path, marker, rel):
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


def _matches(path, sha):
    try:
        return sha256_of(path) == sha
    except OSError:
        return False


def verified_files(folder, names=()):
    """The files recorded in `folder`'s finished marker ({relative path: sha256}), or {} when it has none
    or when any of `names` (files the caller relies on) is missing or differs from its record."""
    marker = verified_marker(folder, names)
    return marker["files"] if marker is not None else {}


def verified_marker(folder, names=()):
    """`folder`'s finished marker, or None when it has none or when any of `names` (files the caller
    relies on) is missing or differs from its record."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"]:
        return None
    files = marker["files"]
    if not all(name in files and _matches(Path(folder) / name, files[name]) for name in names):
        return None
    return marker


def as_recorded(folder, marker, rel):
    """Whether the file `rel` of the finished build in `folder` is the one its marker records, known from
    its stat alone (size, times, inode: see _unchanged); False when only its bytes could tell."""
    return _unchanged(Path(folder) / rel, marker, rel)


_KEEP = ("remove it yourself if you do not need it (rm -r {}); to keep it without this warning, rename it so that "
         "its name has no .tmp-N or .old-N")


def _names(left):
    return ", ".join(left[:SHOWN]) + (f" and {len(left) - SHOWN} more" if len(left) > SHOWN else "")


def discard(folder, home=None):
    """Remove a folder the build made: empty, or marked as the build's where it stands (`whose`; `home`:
    the output folder the swap has just moved it from) and holding nothing the build did not write.
    Anything else is left where it is, with a warning naming it. Returns whether it is gone."""
    folder = Path(folder)
    if not os.path.lexists(folder):
        return True
    if folder.is_symlink() or not folder.is_dir():
        _warn(folder, "left in place: it is not a folder the build made",
              "remove it yourself if it is yours to remove")
        return False
    marker = read_marker(folder)
    why = whose(folder, marker, home) if marker is not None else None
    if why:
        _warn(folder, f"left in place: {why}", _KEEP.format(shown(folder)))
        return False
    left = foreign(folder, marker)
    if left:
        _warn(folder, f"left in place: it holds {_names(left)}, which the build did not write",
              "move those away, or remove the folder yourself if it is yours to remove")
        return False
    if marker is not None and home is not None and marker["made"] != place(folder):
        # The old build, just moved here by the swap: mark it as being removed by this process, so a build
        # killed while removing it leaves a folder the next one recognises as a leftover.
        _WRITING.add(place(folder))
        _write_marker(folder, _unfinished(folder, folder, _new_id()))
    try:
        _remove(folder)
    finally:
        _WRITING.discard(place(folder))
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


def clear_leftovers(target, verbose=False):
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
            if not _alive(marker["pid"], marker["started"], path):
                if not discard(path):
                    left.append(path)
            else:
                left.append(path)
                if verbose:
                    _warn(path, f"left in place: the build writing it (process {marker['pid']}) still runs",
                          "run make clean again when that build has finished")
        else:
            left.append(path)
            if marker["path"] != place(path):  # not a build put in place here (--out named like a temporary)
                _warn(path, f"left in place: {whose(path, marker)}", _KEEP.format(shown(path)))
    return left


# -- the output folder --------------------------------------------------------------------------------

WHOLE = "a build replaces its output folder as a whole"
OWN_FOLDER = "give --out a folder of its own, e.g. --out build"


def check_target(out, sources):
    """The absolute path of output folder `out` when a build may replace it; else LawbookError (status 2)
    saying why and what to do. Refused: an empty name, /, the sources folder, a folder inside it or
    containing it, the current folder or one containing it, the home folder or one containing it, a
    file, a symbolic link, and a folder holding anything the build did not write. Nothing is changed."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no folder", fix=OWN_FOLDER)
    path = Path(os.path.abspath(out))
    where = str(out)

    def refuse(what, fix=OWN_FOLDER, why=WHOLE):
        raise LawbookError(f"cannot build into {what}: {why}", file=where, fix=fix)

    if path.is_symlink():
        refuse(f"a symbolic link (to {os.readlink(path)})", "give the folder itself, or a folder of its own, "
               "e.g. --out build", "the build would replace the link; it was left as it is")
    real, src, cwd, home = path.resolve(), Path(sources).resolve(), Path.cwd().resolve(), Path.home().resolve()
    for folder, name in ((Path(real.anchor), "the root folder"), (cwd, "the current folder"),
                         (src, "the sources folder"), (home, "your home folder")):
        if real == folder:
            refuse(name)
    for folder, name in ((src, "the sources folder"), (cwd, "the current folder"), (home, "your home folder")):
        if _inside(folder, real) and folder != Path(folder.anchor):
            refuse(f"a folder that contains {name} ({shown(folder)})")
    if _inside(real, src):
        refuse(f"a folder inside the sources folder ({shown(src)})", why="the sources folder holds the received "
               "files and the manifest only")
    if not real.exists():
        return real
    if not real.is_dir():
        refuse("a file", "give a folder that is missing, empty or an earlier build, e.g. --out build",
               "--out names a folder; the file was left as it is")
    check_replaceable(real, where)
    return real


def check_replaceable(folder, where=None, why=WHOLE):
    """LawbookError unless `folder` is missing, empty, or a build standing where the build put it (`whose`:
    not a copy or a move) holding only what the build wrote; `why` the build needs that."""
    folder = Path(folder)
    where = where or shown(folder)
    if not os.path.lexists(folder):
        return
    if folder.is_symlink() or not folder.is_dir():
        raise LawbookError(f"cannot write a build there: it is not a folder the build made; {why}", file=where,
                           fix="move it away, or give another --out")
    marker = read_marker(folder)
    mine = whose(folder, marker) if marker is not None else None
    if mine:
        raise LawbookError(f"cannot build into this folder: {mine}; {why}", file=where,
                           fix=f"give another --out; if you moved the build here yourself, remove it once "
                               f"(rm -r {where}) and build again")
    left = foreign(folder, marker)
    if not left:
        return
    names = _names(left)
    if marker is not None:
        raise LawbookError(f"cannot build into this folder: it holds {names}, which the build did not write; "
                           f"{why}", file=where,
                           fix=f"move {'it' if len(left) == 1 else 'them'} out of {where}, or give another --out")
    if (folder / ".lawbook-stamp.json").is_file():
        raise LawbookError(f"cannot build into this folder: it has no {MARKER}, so nothing says its files "
                           f"({names}) are all the build's (builds of older versions were not marked); {why}",
                           file=where, fix=f"if it is an old build, remove it once yourself (rm -r {where}); "
                                           f"else give another --out")
    raise LawbookError(f"cannot build into a folder that holds files the build did not write ({names}); {why}",
                       file=where, fix="give a new or empty folder, e.g. --out build, or move those files away")


def folder_mode(folder):
    """The permission bits of an existing folder (kept across builds), or None."""
    try:
        return os.stat(folder).st_mode & 0o7777
    except FileNotFoundError:
        return None


# -- files written by other commands -------------------------------------------------------------------

# A diff output of each --format, recognised by its beginning (pipeline/diff/render.py, templates/diff/).
DIFF_OUTPUT = [
    re.compile(rb'\{\s*"format": "lawbook-diff",'),
    re.compile(rb"\s*<!DOCTYPE html>.*?<title>Spelregels \d{4} \xe2\x86\x92 \d{4}: wat is er gewijzigd</title>",
               re.DOTALL),
    re.compile(rb"Editions \d{4} \xe2\x86\x92 \d{4}\narticles: "),
]


def check_diff_out(out, sources):
    """The path `diff --out` may write, or LawbookError (status 2). Refused: a path in the sources folder,
    one inside a build folder (the next build would refuse it), a folder, a symbolic link, and an
    existing file that is not a diff lawbook wrote (recognised by its beginning)."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no file", fix="give the file to write, e.g. --out diff.html")
    path = Path(os.path.abspath(out))
    where = str(out)
    src = Path(sources).resolve()
    if _inside(path.resolve(), src):
        raise LawbookError(f"will not write the diff into the sources folder {shown(src)}: it holds the received "
                           f"files and the manifest", file=where, fix="give a --out path outside the sources folder")
    for folder in path.resolve().parents:
        if read_marker(folder) is not None:
            raise LawbookError(f"will not write the diff into the build folder {shown(folder)}: the next build "
                               f"replaces that folder and refuses files it did not write", file=where,
                               fix="give a --out path outside the build folder")
    if path.is_symlink():
        raise LawbookError("will not write the diff over a symbolic link", file=where,
                           fix="give the path of a new file, or of an earlier diff")
    if path.exists():
        if not path.is_file():
            raise LawbookError("will not write the diff over something that is not a file", file=where,
                               fix="give the path of a new file, or of an earlier diff")
        with open(path, "rb") as f:
            head = f.read(4096)
        if not any(p.match(head) for p in DIFF_OUTPUT):
            raise LawbookError("will not write the diff over this file: it is not a diff lawbook wrote",
                               file=where, fix="give the path of a new file, or remove that file first")
    return path


def write_file(path, text):
    """Write `text` to `path` in one step: a temporary file beside it, then a rename."""
    path = Path(path)
    import secrets

    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def clean(target):
    """Remove the build folder `target`, its failed build's report and what killed builds left: each only
    when it is the build's own where it stands (outdir.discard, clear_leftovers); any other folder,
    whatever its name, is left with a warning naming it. Returns the folders left."""
    target = Path(place(target))
    left = [path for path in (target, target.with_name(target.name + ".failed")) if not discard(path)]
    return sorted(left + clear_leftovers(target, verbose=True))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "clean":
        sys.exit("usage: python -m pipeline.publish.outdir clean FOLDER")
    clean(sys.argv[2])
