"""Incremental builds: what a rebuild may take from earlier builds instead of redoing.

Three mechanisms, each keyed so that it can only ever give what a full build gives:

  up to date   build/.lawbook-stamp.json holds the digest of every input of the build
               that made build/ (each file in the sources folder, the code version,
               the output options). When the inputs hash to the same digest, build/
               is what a build would write, and the build is skipped.
  readings     per source: the repaired Reading its reader made, the report entries
               of reading and repair, and the source's word forms, in
               .lawbook-cache/readings/ beside build/. Keyed by the sha256 of the
               file's bytes, its manifest entry and the code version. A reader may
               also have asked the book-wide vocabulary (a printed page's line-end
               hyphens); those questions and answers are kept, and the entry is used
               only while the vocabulary still gives the same answers.
  editions     per edition: a digest of its corpus subtree and its sources' report
               entries. An output stage that renders one edition at a time asks
               reuse_edition() whether that edition is unchanged since build/ was
               made; if so its previous files are copied instead of rendered.

The code version is the sha256 of the pipeline package's source files and of the
templates/ and schema/ folders: any code change invalidates everything.
"""
import hashlib
import json
import os
import pickle
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lxml import etree

PACKAGE = Path(__file__).resolve().parent
# Outside the package but part of what the code makes of the sources.
CODE_FOLDERS = [PACKAGE, PACKAGE.parent / "templates", PACKAGE.parent / "schema"]
CACHE_DIR = ".lawbook-cache"
STAMP = ".lawbook-stamp.json"
# Options that change nothing in build/.
NEUTRAL_OPTIONS = {"debug", "force"}
FORMAT = 1  # of the cache entries and the stamp; bump when their shape changes

_code_version = None


def code_version():
    """sha256 over every file of the pipeline package, templates/ and schema/ (paths and bytes)."""
    global _code_version
    if _code_version is None:
        digest = hashlib.sha256(f"format {FORMAT}".encode())
        for folder in CODE_FOLDERS:
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                    digest.update(str(path.relative_to(folder.parent)).encode() + b"\0")
                    digest.update(hashlib.sha256(path.read_bytes()).digest())
        _code_version = digest.hexdigest()
    return _code_version


def settings(options=None):
    """What besides the sources and the code changes the outputs: the options that are not neutral
    (--no-commentary) and SOURCE_DATE_EPOCH (the date printed in the PDF)."""
    opts = {k: v for k, v in (options or {}).items() if k not in NEUTRAL_OPTIONS}
    opts["SOURCE_DATE_EPOCH"] = os.environ.get("SOURCE_DATE_EPOCH")
    return json.dumps(opts, sort_keys=True, default=str)


def input_digest(sources_dir, options=None):
    """The digest of everything a build reads: each file in the sources folder (the manifest too;
    a file not in the manifest is an error, so it counts as well), the code version and the settings."""
    digest = hashlib.sha256(code_version().encode())
    digest.update(settings(options).encode())
    folder = Path(sources_dir)
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_stamp(out_dir):
    """The stamp of the build in `out_dir`, or {} when there is none (or it is unreadable)."""
    try:
        data = json.loads((Path(out_dir) / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def up_to_date(sources_dir, out_dir, options=None):
    """True when `out_dir` holds a complete, error-free build of exactly these inputs. Reads the
    sources and the stamp only; never writes."""
    options = options or {}
    if options.get("force"):
        return False
    stamp = read_stamp(out_dir)
    return bool(stamp) and stamp.get("inputs") == input_digest(sources_dir, options)


def write_stamp(folder, inputs, editions):
    """Record in `folder` (the build being written) the input digest and the per-edition digests."""
    data = {"format": FORMAT, "inputs": inputs, "editions": editions}
    (Path(folder) / STAMP).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# -- readings ----------------------------------------------------------------------------------------

class RecordingVocabulary:
    """The book's vocabulary as a reader sees it, noting every question (word -> answer)."""

    def __init__(self, words):
        self.words = words
        self.asked = {}

    def __contains__(self, word):
        answer = word in self.words
        self.asked[word] = answer
        return answer


@dataclass
class Entry:
    """What reading and repairing one source gave."""
    reading: object  # model.Reading, text repaired
    words: set  # the source's word forms: its share of the vocabulary
    asked: dict  # vocabulary questions the reader asked, and the answers it got
    read_log: list = field(default_factory=list)  # report entries (as dicts) of the reader
    repair_log: list = field(default_factory=list)  # … and of the repair stage

    def holds_for(self, vocabulary):
        return all((word in vocabulary) == answer for word, answer in self.asked.items())


class ReadingCache:
    """Cached readings in `folder`/readings, one pickle per key. Counts hits and misses per build.
    With use=False (a forced build) nothing is taken from the cache, but what is read is stored."""

    def __init__(self, folder, use=True):
        self.folder = Path(folder) / "readings"
        self.use = use
        self.hits, self.misses = [], []  # source names, in manifest order
        self.keys = {}  # source name -> cache key
        self.entries = {}  # source name -> Entry used in this build
        self.inputs = None  # input_digest() taken when the build began reading
        self.editions = {}  # edition -> edition_digest(), once the corpus is complete

    @staticmethod
    def key(source, data):
        manifest_entry = json.dumps([source.name, source.edition, source.format, source.encoding])
        return hashlib.sha256(f"{code_version()}\0{manifest_entry}\0".encode() + hashlib.sha256(data).digest()) \
            .hexdigest()

    def get(self, key):
        if not self.use:
            return None
        try:
            with open(self.folder / f"{key}.pickle", "rb") as f:
                return pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            return None  # absent or written by other code: read the source again

    def put(self, key, entry):
        """Store `entry` (pickled now: later stages change the Reading's blocks in place)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{key}.{os.getpid()}"
        tmp.write_bytes(pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, self.folder / f"{key}.pickle")


def log_entries(log, since=0):
    """A BuildLog's entries from `since` on, as dicts (to store, and to replay with replay())."""
    return [asdict(e) for e in log.entries[since:]]


def replay(log, entries):
    for e in entries:
        log.add(**e)


# -- editions ----------------------------------------------------------------------------------------

def edition_digest(edition_el, log_entries_of_edition, options=None):
    """sha256 of one edition's corpus subtree (canonical XML) and its sources' report entries, with the
    code version and the settings: equal digests mean every output of that edition comes out the same."""
    digest = hashlib.sha256(code_version().encode())
    digest.update(settings(options).encode())
    digest.update(etree.tostring(edition_el, method="c14n"))
    digest.update(json.dumps(log_entries_of_edition, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


def copy_previous(out_dir, tmp, paths):
    """Copy `paths` (relative to the build folder) from the previous build into the one being written.
    Returns False, copying nothing, when any of them is missing."""
    out_dir, tmp = Path(out_dir), Path(tmp)
    if not all((out_dir / p).exists() for p in paths):
        return False
    for p in paths:
        src, dst = out_dir / p, tmp / p
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            shutil.copy2(src, dst)
    return True
